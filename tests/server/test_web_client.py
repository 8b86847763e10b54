"""The static web client: every language has every string, and the files are served."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spieltisch.server import create_app
from spieltisch.server.app import WEB_DIR
from tests.server.database import db_url
from tests.server.helpers import TestClient, threads

LANGUAGES = ("en", "de", "fr", "it", "nl")


STRING_MODULES = ("i18n.js", "i18n_presence.js")
"""The modules that hold the client's strings (i18n.js takes in the others')."""


def language_keys() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {language: set() for language in LANGUAGES}
    for module in STRING_MODULES:
        text = (WEB_DIR / module).read_text(encoding="utf-8")
        for language in LANGUAGES:
            start = text.index(f"\n  {language}: {{")
            end = text.index("\n  },", start)
            keys = set(re.findall(r'^\s+"([\w.]+)":', text[start:end], re.MULTILINE))
            found[language] |= {k for k in keys if not k.endswith("_one")}
    return found


def own_modules() -> list[Path]:
    """The client's own modules (not the fetched ones in vendor/)."""
    return [p for p in WEB_DIR.rglob("*.js") if "vendor" not in p.relative_to(WEB_DIR).parts]


def used_keys() -> set[str]:
    """Literal keys passed to t(...) anywhere in the client."""
    keys: set[str] = set()
    for path in own_modules():
        keys |= set(re.findall(r'\bt\("([\w.]+)"', path.read_text(encoding="utf-8")))
    return keys


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_language_has_every_string(language: str) -> None:
    keys = language_keys()
    assert keys[language] == keys["en"], keys[language] ^ keys["en"]


def test_every_string_used_exists() -> None:
    assert used_keys() - language_keys()["en"] == set()


def test_no_markup_is_built_from_text() -> None:
    """Names and other text go into text nodes only: no innerHTML anywhere."""
    for path in own_modules():
        source = path.read_text(encoding="utf-8")
        assert "innerHTML" not in source and "insertAdjacentHTML" not in source, path


def test_every_module_is_in_the_package() -> None:
    names = {p.relative_to(WEB_DIR).as_posix() for p in WEB_DIR.rglob("*") if p.is_file()}
    assert {"index.html", "app.js", "i18n.js", "style.css", "games/pickomino.js"} <= names
    assert Path(WEB_DIR / "games" / "karolinchen.js").exists()


@pytest.mark.parametrize("hooks", [False, True])
def test_only_a_test_server_marks_the_page_for_test_hooks(tmp_path: Path, hooks: bool) -> None:
    """`serve --test-hooks` marks the page, and only then does the client expose its hooks
    (window.riffraffTable); the page of a server in play is the file as it is."""
    app = create_app(db_url(tmp_path), executor=threads(), test_hooks=hooks)
    with TestClient(app) as client:
        for path in ("/", "/index.html"):
            page = client.get(path)
            assert page.status_code == 200
            assert ("<html data-test-hooks " in page.text) is hooks
            assert page.text.replace("data-test-hooks ", "") == (WEB_DIR / "index.html").read_text(
                encoding="utf-8"
            )


def test_the_client_sets_its_test_hooks_only_on_a_marked_page() -> None:
    source = (WEB_DIR / "games" / "riffraff.js").read_text(encoding="utf-8")
    [line] = [line for line in source.splitlines() if "riffraffTable" in line]
    assert line.startswith('if (document.documentElement.hasAttribute("data-test-hooks")) ')
    assert "window.riffraffTable" not in source
