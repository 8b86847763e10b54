"""'Learn to play' in Debian's Chromium: for each game the guided table opens from the lobby,
the first explanations appear as the game gets there, are dismissed, and the learner leaves
back to the lobby; the game then stops (no bot plays it out)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.server.live import (
    BROWSER_TESTS,
    DESKTOP,
    PHONE,
    LiveServer,
    shot,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

STEP_TIMEOUT_MS = 60_000  # liveness only, generous for a busy machine
FIRST_LESSONS: dict[str, list[str | set[str]]] = {
    "pickomino": ["Your first turn", "Set dice aside"],
    # then what the first rolls bring, in the order they happen (any dice)
    "karolinchen": ["Your worm", {"Dice onto the card", "Nothing fits", "Rolling"}],
    "riffraff": ["Load the ship", "Choose a card"],
}

pytest.importorskip("playwright.sync_api")
pytestmark = [*BROWSER_TESTS, pytest.mark.webgl, pytest.mark.live_server(bot_delay=0.05)]


def open_tutorial(browser: Browser, server: LiveServer, game: str, phone: bool = False) -> Any:
    size = PHONE if phone else DESKTOP
    page = browser.new_context(viewport=size, locale="en-GB", reduced_motion="reduce").new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.goto(server.url)
    page.click(f"#learn-{game}")
    page.wait_for_selector("#coach-ok")
    return page


def read_and_dismiss(page: Page) -> str:
    title = str(page.inner_text("#coach-lesson"))
    page.click("#coach-ok")
    return title


def version(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.version"))


@pytest.mark.parametrize("game", list(FIRST_LESSONS))
def test_a_guided_game_explains_its_first_steps(
    browser: Browser, server: LiveServer, game: str
) -> None:
    page = open_tutorial(browser, server, game)
    assert page.evaluate("location.hash").startswith("#/learn/")
    shot(page, f"tutorial-{game}")
    for expected in FIRST_LESSONS[game]:
        title = read_and_dismiss(page)
        assert title in expected if isinstance(expected, set) else title == expected, title
    assert page.inner_text("#coach-head") == f"Learn to play {page.inner_text('.table-head h2')}"
    table_id = page.evaluate("location.hash").split("/")[2]
    page.click("#leave-tutorial")
    page.wait_for_selector("#make-table")
    stopped = httpx.get(server.url + f"api/tables/{table_id}").json()["version"]
    page.wait_for_timeout(1000)  # twenty bot delays: a bot playing on would have moved
    assert httpx.get(server.url + f"api/tables/{table_id}").json()["version"] == stopped
    page.context.close()


MOVES = (
    "[data-action='grill']",
    "[data-action='steal']",
    ".dice-group.choosable",
    "[data-action='stop']",
)


def play_until_lesson(page: Page, wanted: str) -> None:
    """Read every explanation and play the learner's Pickomino turn until `wanted` shows."""
    for _ in range(200):
        page.wait_for_selector("#coach-ok, .board [data-action]")
        if page.query_selector("#coach-ok"):
            if page.inner_text("#coach-lesson") == wanted:
                return
            page.click("#coach-ok")
            continue
        before = version(page)
        page.click(next(f".board {m}" for m in MOVES if page.query_selector(f".board {m}")))
        page.wait_for_function(f"() => Number(document.body.dataset.version) > {before}")
    raise AssertionError(f"'{wanted}' was never explained")


def test_the_bot_waits_while_an_explanation_is_open(browser: Browser, server: LiveServer) -> None:
    """Pickomino: while the learner reads about the bot's turn, the page holds the bot's
    moves back (the server has gone on), then shows them one by one."""
    page = open_tutorial(browser, server, "pickomino")
    table_id = page.evaluate("location.hash").split("/")[2]
    play_until_lesson(page, "The bot's turn")
    page.wait_for_selector(".coach-held")
    shown = version(page)
    assert httpx.get(server.url + f"api/tables/{table_id}").json()["version"] > shown
    shot(page, "tutorial-pickomino-held")
    page.wait_for_timeout(500)
    assert version(page) == shown  # still held while the explanation is open
    page.click("#coach-ok")
    page.wait_for_function(f"() => Number(document.body.dataset.version) > {shown}")
    page.context.close()


def test_the_coach_speaks_the_chosen_language(browser: Browser, server: LiveServer) -> None:
    page = open_tutorial(browser, server, "pickomino", phone=True)
    page.select_option("#lang", "de")
    assert page.inner_text("#coach-lesson") == "Dein erster Zug"
    assert page.inner_text("#coach-ok") == "Verstanden"
    assert page.inner_text("#leave-tutorial") == "Anleitung verlassen"
    shot(page, "tutorial-pickomino-phone-de")
    page.select_option("#lang", "en")
    page.context.close()


def kc_rolls_shown(page: Page) -> int:
    return int(page.locator("#game-log li[data-key='chance']").count())


def test_karolinchen_waits_for_the_learner_and_ends_with_a_finish(
    browser: Browser, server: LiveServer
) -> None:
    """The first explanation comes before the game has run ahead (at most the first roll is
    shown, the learner's card is not full, nothing else queued), each explanation outlines its
    control, and at the end the coach says who won instead of "play on" or "rolling"."""
    page = open_tutorial(browser, server, "karolinchen")
    assert page.inner_text("#coach-lesson") == "Your worm"
    assert kc_rolls_shown(page) <= 1
    assert not page.query_selector(".kc-hand-card.choosable")  # the card is not full yet
    assert "more to read" not in page.inner_text("#coach")
    outline = "getComputedStyle(document.querySelector('.kc-player.mine .kc-cards')).outlineStyle"
    assert page.evaluate(outline) == "solid"
    read: list[str] = []
    for _ in range(400):
        page.wait_for_selector("#coach-ok, .kc-hand-card.choosable, #coach-finish")
        if page.query_selector("#coach-finish"):
            break
        if page.query_selector("#coach-ok"):
            title = str(page.inner_text("#coach-lesson"))
            if title not in read:
                read.append(title)
                shot(page, f"tutorial-karolinchen-{len(read)}")  # each step, as it is read
            page.click("#coach-ok")
            continue
        before = version(page)
        page.click(".kc-hand-card.choosable")
        page.wait_for_function(f"() => Number(document.body.dataset.version) > {before}")
    else:
        raise AssertionError(f"the guided game did not end; read {read}")
    shot(page, "tutorial-karolinchen-finish")
    assert "Game over" in read
    assert page.inner_text("#coach-finish") in {"You won!", "The game is over"}
    assert "won" in page.inner_text("#coach")
    assert not page.query_selector("#coach-idle")
    assert "being rolled" not in page.inner_text(".kc-middle")
    assert page.evaluate("document.getElementById('coach-style').textContent") == ""
    page.click("#coach-lobby")
    page.wait_for_selector("#make-table")
    page.context.close()
