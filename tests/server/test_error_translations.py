"""Every error code the server can send has a text in each of the client's five languages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spieltisch.server.app import WEB_DIR

SERVER_SOURCES = Path(__file__).resolve().parents[2] / "src" / "spieltisch"
LANGUAGES = ("en", "de", "fr", "it", "nl")
RAISED = re.compile(r'(?:TableError|SocketRefused)\(\s*"(\w+)"')
"""A refusal written in the server's sources: a `TableError`, or a socket's `SocketRefused`."""


def server_codes() -> set[str]:
    """The codes of every refusal (`RAISED`) written in the server's sources."""
    codes: set[str] = set()
    for path in SERVER_SOURCES.rglob("*.py"):
        codes |= set(RAISED.findall(path.read_text(encoding="utf-8")))
    return codes


def error_keys(language: str) -> set[str]:
    """The codes that have an `err.<code>` text in `language`'s part of i18n.js or of a module
    of strings it adds (i18n_*.js)."""
    codes: set[str] = set()
    for path in sorted(WEB_DIR.glob("i18n*.js")):
        text = path.read_text(encoding="utf-8")
        start = text.index(f"\n  {language}: {{")
        end = text.index("\n  },", start)
        codes |= set(re.findall(r'^\s+"err\.(\w+)":', text[start:end], re.MULTILINE))
    return codes


def test_the_error_texts_of_accounts_are_read_too() -> None:
    assert {"bad_sign_in", "too_many_sign_ins", "no_table"} <= error_keys("it")


def test_the_scan_finds_the_codes_raised_on_several_lines() -> None:
    codes = server_codes()
    assert {"no_table", "bad_token", "unavailable", "server_full", "too_many_sockets"} <= codes
    assert len(codes) >= 40, sorted(codes)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_server_error_code_is_translated(language: str) -> None:
    missing = server_codes() - error_keys(language)
    assert not missing, sorted(missing)
