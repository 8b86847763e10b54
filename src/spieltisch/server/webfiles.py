"""The web client's files: the page, its modules, and the fetched browser libraries under
/vendor/ (three.js), with a page that says how to fetch them when they are missing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles

__all__ = [
    "MISSING_VENDOR",
    "VENDOR_DIR",
    "WEB_DIR",
    "RevalidatedFiles",
    "add_test_page",
    "add_vendor_route",
    "vendor_ready",
]

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
VENDOR_DIR = WEB_DIR / "vendor"
TEST_HOOKS_ATTRIBUTE = "data-test-hooks"
VENDOR_CACHE = "public, max-age=86400"
"""Fetched libraries change only with the lock: browsers keep them a day without asking."""
MISSING_VENDOR = (
    "The browser modules of the 3D table (three.js) are not installed on this server. "
    "Run `python tools/fetch_web_deps.py` in the project (./run and ./test do it), then reload."
)


def vendor_ready() -> bool:
    """Whether three.js has been fetched into the served vendor directory."""
    return (VENDOR_DIR / "three" / "build" / "three.module.js").is_file()


class RevalidatedFiles(StaticFiles):
    """The client's own files: cached, but checked again (ETag) before each use, so a new
    version of the server is seen at once."""

    async def get_response(self, path: str, scope: Any) -> Response:
        response = await super().get_response(path, scope)
        response.headers.setdefault("Cache-Control", "no-cache")
        return response


def add_vendor_route(app: FastAPI) -> None:
    @app.get("/vendor/{path:path}", include_in_schema=False)
    async def vendor(path: str) -> Response:
        file = _vendor_file(path)
        if file is not None:
            kind = "text/javascript" if file.suffix == ".js" else "text/plain"
            return FileResponse(file, media_type=kind, headers={"Cache-Control": VENDOR_CACHE})
        text = MISSING_VENDOR if not vendor_ready() else f"There is no file /vendor/{path}."
        return PlainTextResponse(text, 404)


def _vendor_file(path: str) -> Path | None:
    """The fetched file at `path` under /vendor/, or None (also for a name the system
    cannot look up, such as one too long)."""
    root = VENDOR_DIR.resolve()
    try:
        file = root if "\0" in path else (root / path).resolve()  # NUL names no file
        return file if file.is_relative_to(root) and file.is_file() else None
    except OSError:
        return None


def add_test_page(app: FastAPI) -> None:
    """The page marked with `data-test-hooks` on <html>: only then does the client expose
    its hooks for browser tests and benchmarks (such as `window.riffraffTable`)."""

    @app.get("/", include_in_schema=False)
    @app.get("/index.html", include_in_schema=False)
    async def marked_page() -> HTMLResponse:
        page = (WEB_DIR / "index.html").read_text(encoding="utf-8")
        marked = page.replace("<html ", f"<html {TEST_HOOKS_ATTRIBUTE} ", 1)
        return HTMLResponse(marked, headers={"Cache-Control": "no-cache"})
