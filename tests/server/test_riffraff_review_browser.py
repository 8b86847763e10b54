"""The Riff Raff review in Debian's Chromium: a seeded bots' game ends, the lobby's finished
list links to its review, the review shows each player's risks and the careful bot's choices,
and a player's blunder is solved as a puzzle with the choice buttons (a placement is not made
on the 3D ship here); axe finds nothing serious at desktop and phone size. The server reviews
with 2 trials and a careful bot that tries one placement (`serve --review-trials/--review-bot`).
Screenshots go to artifacts/browser/riffraff-review-*.png."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.analysis.test_review_riffraff import LIGHT_CAREFUL
from tests.server.live import (
    BROWSER_TESTS,
    DESKTOP,
    PHONE,
    WEBGL_ARGS,
    LiveServer,
    chromium,
    shot,
    start_server,
)
from tests.server.test_review_browser import axe_violations

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

REVIEW_TIMEOUT_MS = 300_000  # the bots' game and its review, on a busy machine: liveness only
SETTINGS = ["--playback-speed", "100", "--review-trials", "2", "--review-bot", LIGHT_CAREFUL]

pytest.importorskip("playwright.sync_api")
pytestmark = [*BROWSER_TESTS, pytest.mark.webgl]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with start_server(tmp_path_factory.mktemp("rr-review"), extra=SETTINGS) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(WEBGL_ARGS) as found:
        yield found


@pytest.fixture(scope="module")
def finished(server: LiveServer) -> str:
    """A seeded game of a light careful bot against the random bot, played to its end."""
    seats = [{"bot": LIGHT_CAREFUL}, {"bot": "random"}]
    body = {"game": "riffraff", "seats": seats, "seed": 5}
    table = str(httpx.post(server.url + "api/tables", json=body).json()["id"])
    deadline = time.monotonic() + REVIEW_TIMEOUT_MS / 1000
    while httpx.get(server.url + f"api/tables/{table}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.5)
    return table


def new_page(browser: Any, url: str, size: ViewportSize) -> Any:
    context = browser.new_context(locale="en-GB", viewport=size, reduced_motion="reduce")
    page = context.new_page()
    page.set_default_timeout(REVIEW_TIMEOUT_MS)
    page.goto(url)
    return page


def test_the_lobby_links_a_finished_game_to_its_review_and_a_blunder_is_solved(
    browser: Any, server: LiveServer, finished: str
) -> None:
    page = new_page(browser, server.url, DESKTOP)
    link = f"#finished-tables a.review-link[href='#/v/{finished}']"
    page.wait_for_selector(link)
    shot(page, "riffraff-review-lobby")
    page.click(link)  # found again at the click: the lobby redraws its lists as they change
    page.wait_for_selector("#review-summary")
    summary = page.inner_text("#review-summary")
    assert "Average risk" in summary and "As the careful bot" in summary
    assert "2 seeded trials" in summary
    page.wait_for_function("window.riffraffTable && window.riffraffTable.ready()")  # the ship
    shot(page, "riffraff-review-start")

    review = httpx.get(server.url + f"api/tables/{finished}/review").json()
    puzzles = [
        d for d in review["decisions"] if d["seat"] == 1 and d["grade"] in ("mistake", "blunder")
    ]
    assert puzzles, "the random bot's placements should drop more than careful's"
    page.click("#review-next-error")
    page.wait_for_selector("#review-decision .grade")
    decision = page.inner_text("#review-decision")
    assert "points of risk added" in decision and "Better: " in decision
    assert " on area " in decision  # a placement in words, not in notation
    shot(page, "riffraff-review-error")
    assert axe_violations(page) == []

    page.select_option("#puzzle-player", "1")
    page.click("#puzzle-start")
    page.wait_for_selector("#puzzle-title")
    first = puzzles[0]
    page.click(f".puzzle-choices [data-choice='{first['played']}']")
    assert "not better" in page.inner_text("#puzzle-feedback")
    page.click(f".puzzle-choices [data-choice='{first['answers'][0]}']")
    page.wait_for_selector("#puzzle-feedback.solved")
    shot(page, "riffraff-review-puzzle")
    page.context.close()


def test_the_riffraff_review_on_a_phone(browser: Any, server: LiveServer, finished: str) -> None:
    page = new_page(browser, f"{server.url}#/v/{finished}", PHONE)
    page.wait_for_selector("#review-summary")
    page.click("#review-next-error")
    page.wait_for_selector("#review-decision .grade")
    page.wait_for_function("window.riffraffTable && window.riffraffTable.ready()")  # the ship
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the review scrolls sideways on a phone"
    shot(page, "riffraff-review-phone")
    assert axe_violations(page) == []
    page.context.close()
