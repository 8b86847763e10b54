"""Pickomino and Karolinchen with the keyboard alone, in Debian's Chromium: the table is made
in the lobby and a whole game is played against a bot with Tab, arrow keys, Enter and Space.

Motion stays on (the page's default), so these games also show that animations never hold
up input. The bots play at the instant pace, chosen in the lobby's form by keyboard too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.server.browsing import MAX_TABS, pickomino_choice, tab_to
from tests.server.live import (
    ARTIFACTS,
    BROWSER_TESTS,
    DESKTOP,
    STEP_TIMEOUT_MS,
    LiveServer,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

MAX_MOVES = 1500

pytest.importorskip("playwright.sync_api")
pytestmark = [*BROWSER_TESTS, pytest.mark.live_server(bot_delay=0.02)]

FOCUSED_ACTION = """(() => {
  const focused = document.activeElement;
  return focused.closest('.board') ? focused.dataset.action || '' : '';
})()"""
GAMES_TO_GET_A_MOVE = 3
"""The dice are the server's secret: about one two-player Karolinchen game in 400 ends before
a given seat has had a card to choose; the test then plays another game."""
MY_MOVE_OR_END = "!!document.querySelector('#result, .board button[data-action]')"
FOCUS_AFTER_REDRAW = """pressed => {
  const focused = document.activeElement;
  const actions = [...document.querySelectorAll('.board button[data-action]:not([disabled])')];
  const still = actions.some(b => b.dataset.action === pressed);
  return { on: focused.dataset.action || focused.id || focused.tagName,
           ok: actions.includes(focused) && (still || focused === actions[0]) };
}"""
"""Where the focus is after the table is drawn anew, and whether that is right: on an action
of the board, the pressed one if it is still there, else the first."""


def make_table_by_keyboard(page: Page, game: str, name: str) -> None:
    page.wait_for_selector("#make-table")
    if game != "pickomino":
        tab_to(page, f"[data-game='{game}'] button")
        page.keyboard.press("Enter")
        page.wait_for_selector(f"#create h2:has-text('{game.title()}')")
    tab_to(page, "#name")
    page.keyboard.type(name)
    tab_to(page, "#pace")
    page.keyboard.press("ArrowUp")  # from normal to instant
    assert page.input_value("#pace") == "instant"
    tab_to(page, "#make-table")
    page.keyboard.press("Enter")
    page.wait_for_selector(".board > *")


def focus_action(page: Page, action: str) -> None:
    """Tab into the board's actions, then arrow keys to the wanted one."""
    for _ in range(MAX_TABS):
        if page.evaluate(FOCUSED_ACTION):
            break
        page.keyboard.press("Tab")
    for _ in range(MAX_TABS):
        if page.evaluate(FOCUSED_ACTION) == action:
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"the arrow keys never reached {action}")


def play_by_keyboard(page: Page, choose: Any, game: str) -> int:
    """Play until the result shows; returns the number of own moves."""
    moves, pressed = 0, ""
    while True:
        page.wait_for_function(MY_MOVE_OR_END)
        if page.query_selector("#result"):
            return moves
        if moves:  # no Tab needed: the redraw put the focus on the board's next action
            focus = page.evaluate(FOCUS_AFTER_REDRAW, pressed)
            assert focus["ok"], f"after {pressed} the focus is on {focus['on']}"
        pressed = choose(page)
        focus_action(page, pressed)
        before = page.evaluate("document.body.dataset.version")
        page.keyboard.press("Enter" if moves % 2 else " ")  # both keys press a button
        page.wait_for_function("v => document.body.dataset.version !== v", arg=before)
        moves += 1
        if moves == 3:
            page.screenshot(path=str(ARTIFACTS / f"{game}-keyboard.png"))
        assert moves < MAX_MOVES, "the game did not end"


@pytest.mark.parametrize("game", ["pickomino", "karolinchen"])
def test_a_whole_game_with_the_keyboard_alone(
    browser: Browser, server: LiveServer, game: str
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(locale="en-GB", viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    choose = pickomino_choice if game == "pickomino" else first_action
    for _ in range(GAMES_TO_GET_A_MOVE):
        page.goto(server.url)
        make_table_by_keyboard(page, game, "Kira")
        table = page.url.rsplit("/", 1)[-1]
        assert httpx.get(server.url + f"api/tables/{table}").json()["pace"] == "instant"
        assert page.inner_text("#table-pace") == "Bot pace: instant"
        moves = play_by_keyboard(page, choose, game)
        if moves:
            break
    assert moves >= 1
    assert page.inner_text("#result .winner")
    assert httpx.get(server.url + f"api/tables/{table}").json()["status"] == "over"
    context.close()


def first_action(page: Page) -> str:
    return str(page.get_attribute(".board button[data-action]", "data-action"))


def test_the_focus_ring_is_plain_to_see(browser: Browser, server: LiveServer) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.goto(server.url)
    make_table_by_keyboard(page, "pickomino", "Ole")
    page.wait_for_selector(".board button[data-action]")
    focus_action(page, first_action(page))
    ring = page.evaluate(
        "(() => { const s = getComputedStyle(document.activeElement);"
        " return [s.outlineStyle, parseFloat(s.outlineWidth)]; })()"
    )
    assert ring[0] == "solid" and ring[1] >= 3, ring
    page.close()
