"""The last step of a replay in Debian's Chromium, for each game: the table as the game ended
with the winner and the scores, never a turn still in play (Pickomino's "Sum 0 · 8 dice left",
Karolinchen's rolling dice, Riff Raff's "choosing their cards"); a screenshot each."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.server.live import (
    ARTIFACTS,
    BROWSER_TESTS,
    DESKTOP,
    STEP_TIMEOUT_MS,
    LiveServer,
    start_server,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

FINISH_TIMEOUT = 300.0  # liveness only: two bots, the ship's motion played 100 times faster
BOTS = {"pickomino": "greedy", "karolinchen": "random", "riffraff": "random"}
NOT_AT_THE_END = {
    "pickomino": ["dice left", "Sum ", "no worm yet"],
    "karolinchen": ["being rolled", "No dice in the middle"],
    "riffraff": ["choosing their cards", "The others", "is loading"],
}

pytest.importorskip("playwright.sync_api")
pytestmark = [*BROWSER_TESTS, pytest.mark.webgl]


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with start_server(
        tmp_path_factory.mktemp("replay-end"), extra=["--playback-speed", "100"]
    ) as live:
        yield live


def finished_game(server: LiveServer, game: str) -> str:
    body = {"game": game, "seats": [{"bot": BOTS[game]}, {"bot": BOTS[game]}], "seed": 5}
    table = str(httpx.post(server.url + "api/tables", json=body).json()["id"])
    deadline = time.monotonic() + FINISH_TIMEOUT
    while httpx.get(server.url + f"api/tables/{table}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.2)
    return table


def board_text(page: Page) -> str:
    return str(page.inner_text(".replay-page .board"))


@pytest.mark.parametrize("game", list(BOTS))
def test_the_last_step_of_a_replay_is_the_end(
    browser: Browser, quick: LiveServer, game: str
) -> None:
    table = finished_game(quick, game)
    page = browser.new_context(locale="en-GB", viewport=DESKTOP).new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.goto(quick.url + f"#/r/{table}")
    page.wait_for_selector("#replay-step")
    if game == "pickomino":  # in play, the turn shows its sum and dice
        page.click("#replay-next")
        assert "dice left" in board_text(page)
    page.click("#replay-last")
    page.wait_for_selector("#replay-result")
    if game == "riffraff":
        page.wait_for_function("window.riffraffTable && riffraffTable.ready()")
    assert page.inner_text("#replay-result .winner").endswith(" won!")
    assert page.locator("#replay-result .result-score").count() == 2
    seen = board_text(page)
    for words in NOT_AT_THE_END[game]:
        assert words not in seen, (words, seen)
    if game == "karolinchen":
        assert "21 / 21" in seen  # the winner's worm, full
    page.screenshot(path=str(ARTIFACTS / f"replay-end-{game}.png"), full_page=True)
    page.context.close()
