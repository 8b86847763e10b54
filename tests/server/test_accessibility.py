"""axe-core in Debian's Chromium: no serious or critical accessibility violation on the lobby,
each game's table, the replay viewer or a dead end, at desktop and phone sizes.

axe-core is pinned in package-lock.json with its integrity and fetched by
tools/fetch_web_deps.py beside three.js.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from spieltisch.server.app import WEB_DIR
from tests.server.live import CHROMIUM, SIZES, LiveServer

if TYPE_CHECKING:
    from playwright.sync_api import Browser

AXE = WEB_DIR / "vendor" / "axe-core" / "axe.min.js"
SEVERE = ("serious", "critical")
FINISH_TIMEOUT = 300  # liveness only: two greedy bots need well under a second
VIOLATIONS = """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
  .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))}))"""

pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.webgl,
    pytest.mark.live_server(bot_delay=0.0),
    pytest.mark.skipif(
        not CHROMIUM.exists() or not AXE.exists(),
        reason="Debian's chromium or axe-core is missing (./test installs both)",
    ),
]


def severe_violations(browser: Browser, url: str, size: str, ready: str) -> list[dict[str, Any]]:
    page = browser.new_context(viewport=SIZES[size], locale="en-GB").new_page()
    page.set_default_timeout(60_000)
    page.goto(url)
    page.wait_for_selector(ready)
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(VIOLATIONS)
    page.context.close()
    return [v for v in found if v["impact"] in SEVERE]


def seated_table(server: LiveServer, game: str) -> str:
    """A table where a person sits at seat 0 against a bot (the page watches it)."""
    body = {"game": game, "seats": [{}, {"bot": "random"}], "seed": 3}
    table = str(httpx.post(server.url + "api/tables", json=body).json()["id"])
    httpx.post(server.url + f"api/tables/{table}/join", json={"name": "Ida"})
    return table


def finished_table(server: LiveServer) -> str:
    body = {"game": "pickomino", "seats": [{"bot": "greedy"}, {"bot": "greedy"}], "seed": 5}
    table = str(httpx.post(server.url + "api/tables", json=body).json()["id"])
    deadline = time.monotonic() + FINISH_TIMEOUT
    while time.monotonic() < deadline:
        if httpx.get(server.url + f"api/tables/{table}").json()["status"] == "over":
            return table
        time.sleep(0.1)
    raise AssertionError(f"the bots did not finish within {FINISH_TIMEOUT} s")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_lobby_and_a_dead_end(browser: Browser, server: LiveServer, size: str) -> None:
    assert severe_violations(browser, server.url, size, "#make-table") == []
    dead = server.url + "#/t/nowhere"
    assert severe_violations(browser, dead, size, "#dead-end") == []


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", ["pickomino", "karolinchen", "riffraff"])
def test_each_game_table(browser: Browser, server: LiveServer, game: str, size: str) -> None:
    url = server.url + f"#/t/{seated_table(server, game)}"
    assert severe_violations(browser, url, size, ".board > *") == []


@pytest.mark.parametrize("size", list(SIZES))
def test_the_replay_viewer(browser: Browser, server: LiveServer, size: str) -> None:
    url = server.url + f"#/r/{finished_table(server)}"
    assert severe_violations(browser, url, size, "#replay-step") == []


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", ["pickomino", "karolinchen", "riffraff"])
def test_each_guided_game(browser: Browser, server: LiveServer, game: str, size: str) -> None:
    """'Learn to play' with its first explanation open."""
    page = browser.new_context(viewport=SIZES[size], locale="en-GB").new_page()
    page.set_default_timeout(60_000)
    page.goto(server.url)
    page.click(f"#learn-{game}")
    page.wait_for_selector("#coach-ok")
    page.wait_for_selector(".board > *")
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(VIOLATIONS)
    page.context.close()
    assert [v for v in found if v["impact"] in SEVERE] == []
