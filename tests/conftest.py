"""Fixtures that the tests share, and the marks they imply.

`server`: a real `serve` process on a free loopback port for the whole module; a module's
mark `pytest.mark.live_server(bot_delay=..., extra=[...])` sets its options.
`browser`: Debian's Chromium for the whole module; with the module's mark `pytest.mark.webgl`
it draws WebGL in software (Riff Raff's ship).
Every browser test and every test of several workers counts as slow: `pytest -m "not slow"`
is the quick subset.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from tests.server.live import PLAIN_ARGS, WEBGL_ARGS, LiveServer, chromium, start_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture(scope="module")
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    mark = request.node.get_closest_marker("live_server")
    options: dict[str, Any] = dict(mark.kwargs) if mark else {}
    folder = tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])
    with start_server(folder, **options) as live:
        yield live


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Iterator[Browser]:
    webgl = request.node.get_closest_marker("webgl") is not None
    with chromium(WEBGL_ARGS if webgl else PLAIN_ARGS) as found:
        yield found


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests and sites of several workers are end-to-end: slow."""
    for item in items:
        if item.get_closest_marker("browser") or item.get_closest_marker("workers"):
            item.add_marker(pytest.mark.slow)
