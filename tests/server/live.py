"""A real server process on a free loopback port, for browser tests and the kill -9 test."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import httpx
import pytest

from tests.server.database import db_url, on_sqlite

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize


DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
SIZES: dict[str, ViewportSize] = {"desktop": DESKTOP, "phone": PHONE}
Motion = Literal["no-preference", "reduce"]
"""The system's motion setting a page is given (`reduced_motion`)."""

__all__ = [
    "ARTIFACTS",
    "BROWSER_TESTS",
    "CHROMIUM",
    "DESKTOP",
    "PHONE",
    "PLAIN_ARGS",
    "SIZES",
    "STEP_TIMEOUT_MS",
    "WEBGL_ARGS",
    "LiveServer",
    "Motion",
    "chromium",
    "free_port",
    "shot",
    "start_server",
]

START_TIMEOUT = 90.0  # a liveness bound: a loaded machine may take long to import
STEP_TIMEOUT_MS = 30_000
"""Playwright's wait for each step of a page: liveness only, generous for a busy machine."""
CHROMIUM = Path("/usr/bin/chromium")
PLAIN_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-extensions",
    "--disable-sync",
    "--no-first-run",
    "--mute-audio",
]
"""Chromium's switches for pages without WebGL."""
WEBGL_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-dev-shm-usage",
    "--use-angle=swiftshader",  # WebGL in software, for the 3D ship
    "--enable-unsafe-swiftshader",
    "--disable-background-networking",
    "--disable-extensions",
    "--no-first-run",
    "--mute-audio",
]
"""Chromium's switches for pages with WebGL on a machine without a GPU."""
BROWSER_TESTS = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="Debian's chromium is not installed (./test installs it)"
    ),
]
"""The marks of a module of browser tests (`pytestmark = BROWSER_TESTS`); they count as slow
(tests/conftest.py)."""
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "browser"


def shot(page: Page, name: str, full_page: bool = True) -> None:
    """A screenshot of `page` as ARTIFACTS/name.png, for a person to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


"""Where browser tests keep their screenshots."""


@contextlib.contextmanager
def chromium(args: Sequence[str]) -> Iterator[Browser]:
    """Debian's chromium, headless, driven by Playwright (which never downloads a browser)."""
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    with sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=list(args), timeout=60_000
        )
        try:
            yield browser
        finally:
            browser.close()


def free_port() -> int:
    """A loopback port that nothing holds now, below the kernel's range for the local ports of
    outgoing connections: a port of that range (what binding port 0 gives) can be taken by a
    client connection before the server binds it, and the server then fails to start."""
    first_outgoing = _first_outgoing_port()
    below = range(max(1024, first_outgoing - 12_000), first_outgoing)
    choose = random.SystemRandom()
    for _ in range(100):
        port = choose.choice(below) if below else 0
        with socket.socket() as probe, contextlib.suppress(OSError):
            probe.bind(("127.0.0.1", port))
            return int(probe.getsockname()[1])
    raise RuntimeError(f"no free loopback port between {below.start} and {below.stop}")


def _first_outgoing_port() -> int:
    """Where the kernel's range of outgoing connections' local ports begins."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768  # Linux's default


@dataclass
class LiveServer:
    url: str
    process: subprocess.Popen[bytes]
    data_dir: Path

    def kill(self) -> None:
        """Stop the server the hard way (SIGKILL): no shutdown code runs."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)


def _wait_until_up(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "api/games", timeout=2).status_code == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"the server did not answer at {url} within {START_TIMEOUT} s")


def launch(
    data_dir: Path,
    port: int,
    bot_delay: float,
    extra: Sequence[str] = (),
    errors: Path | None = None,
) -> LiveServer:
    """A `serve` process, up and answering; its standard error goes to the file `errors`
    if one is given."""
    command = [sys.executable, "-m", "spieltisch", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--data-dir", str(data_dir), "--bot-delay", str(bot_delay)]
    command += ["--test-hooks"]  # the page exposes its hooks (window.riffraffTable) to the tests
    if not on_sqlite() and "--db" not in extra:
        command += ["--db", db_url(data_dir)]
    command += list(extra)
    with contextlib.ExitStack() as files:
        stderr = files.enter_context(errors.open("wb")) if errors else None
        process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL, stderr=stderr
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        _wait_until_up(url, process)
    except RuntimeError:
        process.kill()
        process.wait(timeout=10)
        raise
    return LiveServer(url, process, data_dir)


@contextlib.contextmanager
def start_server(
    data_dir: Path, bot_delay: float = 0.0, port: int = 0, extra: Sequence[str] = ()
) -> Iterator[LiveServer]:
    """A server on a free port; `extra` are more `serve` options."""
    live = launch(data_dir, port or free_port(), bot_delay, extra)
    try:
        yield live
    finally:
        if live.process.poll() is None:
            live.process.terminate()
            try:
                live.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                live.process.kill()
                live.process.wait(timeout=10)
