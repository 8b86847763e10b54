"""Motion that carries meaning, in Debian's Chromium: Pickomino's dice tumble in and a taken
tile slides from the grill to its stack; Karolinchen's taken dice fly onto the worm. With the
system's reduced motion, or the page's own switch, nothing moves.

Karolinchen's `+N` hint on the hand cards is checked here too: it must say how many dice the
card takes when it is laid."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.server.browsing import badges, pickomino_choice
from tests.server.live import (
    ARTIFACTS,
    BROWSER_TESTS,
    DESKTOP,
    STEP_TIMEOUT_MS,
    LiveServer,
    Motion,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

MAX_MOVES = 300
FRUIT_SIZES = {"r": 6, "g": 5, "y": 4, "p": 3, "o": 2, "b": 1}
MOTIONS: dict[str, Motion] = {"motion": "no-preference", "reduced": "reduce"}
# What moved, recorded as it happens (so no check depends on catching a motion in time):
# the CSS animation of each newly rolled die, and each element animated by script with the
# table version it was drawn for.
WATCH = """
window.tumbles = [];
window.animated = [];
new MutationObserver(() => {
  for (const die of document.querySelectorAll('.fresh .die, .fresh .cdie')) {
    if (!die.dataset.watched) {
      die.dataset.watched = '1';
      window.tumbles.push(getComputedStyle(die).animationName);
    }
  }
}).observe(document, { subtree: true, childList: true });
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const flying = this.classList.contains('flying');
  const kind = this.closest('.stack') ? 'stack' : flying ? 'flying' : 'other';
  window.animated.push([kind, document.body.dataset.version]);
  return animate.apply(this, args);
};
"""

pytest.importorskip("playwright.sync_api")
pytestmark = [*BROWSER_TESTS, pytest.mark.live_server(bot_delay=0.3)]


def seated_page(browser: Browser, server: LiveServer, game: str, motion: str, bot: str) -> Any:
    """A page seated at a new table (seat 1) against `bot`, with the system's motion setting."""
    body = {"game": game, "seats": [{}, {"bot": bot}], "seed": 11}
    table = httpx.post(server.url + "api/tables", json=body).json()["id"]
    context = browser.new_context(locale="en-GB", viewport=DESKTOP, reduced_motion=MOTIONS[motion])
    context.add_init_script(WATCH)
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.goto(server.url + f"#/t/{table}")
    page.fill("#join-name", "Mo")
    page.click(".seat button")
    page.wait_for_selector(".seat.mine")
    return page


def act(page: Page, action: str) -> int:
    """Click `action`; returns the table version it was played at."""
    before = page.evaluate("document.body.dataset.version")
    page.click(f".board button[data-action='{action}']")
    page.wait_for_function("v => document.body.dataset.version !== v", arg=before)
    return int(before)


def my_move(page: Page) -> bool:
    """Wait for the own move; False once the game is over."""
    page.wait_for_selector("#result, .board button[data-action]")
    return page.query_selector("#result") is None


@pytest.mark.parametrize("motion", list(MOTIONS))
def test_pickomino_dice_tumble_and_a_taken_tile_slides(
    browser: Browser, server: LiveServer, motion: str
) -> None:
    page = seated_page(browser, server, "pickomino", motion, "greedy")
    page.wait_for_function("window.tumbles.length > 0")
    expected = "tumble" if motion == "motion" else "none"
    assert set(page.evaluate("window.tumbles")) == {expected}
    assert page.is_checked("#reduce-motion") == (motion == "reduced")
    for _ in range(MAX_MOVES):
        assert my_move(page), "no tile was taken in the whole game"
        action = pickomino_choice(page)
        act(page, action)
        if action in ("grill", "steal"):
            break
    page.wait_for_selector(".stack.mine .tile")
    moved = page.evaluate("window.animated")
    assert (["stack"] in [m[:1] for m in moved]) == (motion == "motion"), moved
    assert (moved == []) == (motion == "reduced"), moved
    page.context.close()


def middle(page: Page) -> list[str]:
    return list(page.eval_on_selector_all(".kc-dice .cdie", "ns => ns.map(n => n.dataset.colour)"))


@pytest.mark.parametrize("motion", list(MOTIONS))
def test_karolinchen_hint_and_dice_flying_onto_the_worm(
    browser: Browser, server: LiveServer, motion: str
) -> None:
    page = seated_page(browser, server, "karolinchen", motion, "random")
    for _ in range(MAX_MOVES):
        assert my_move(page), "no card could ever take dice"
        shown, dice = badges(page), middle(page)
        assert shown == {f: min(dice.count(f), FRUIT_SIZES[f]) for f in shown}, (shown, dice)
        best = max(shown, key=lambda f: shown[f])
        if shown[best]:
            break
        act(page, f"lay {best}")
    assert "+2 means" in page.inner_text(".kc-choose-hint")
    page.screenshot(path=str(ARTIFACTS / f"karolinchen-hint-{motion}.png"))
    played_at = act(page, f"lay {best}")
    flights = [int(v) for kind, v in page.evaluate("window.animated") if kind == "flying"]
    later = [v for v in flights if v > played_at]  # the bot may have moved since: count the
    flown = later.count(min(later)) if later else 0  # flights of the change the card made
    if motion == "motion":  # the card's dice, and any that a roll right after gave out
        assert flown >= shown[best]
    else:
        assert flown == 0
    assert set(page.evaluate("window.tumbles")) == {"tumble" if motion == "motion" else "none"}
    laid = page.inner_text("#game-log li:has-text('Mo lays out')")  # the newest comes first
    assert re.search(rf"Mo puts {shown[best]} on the", laid), laid
    page.context.close()


def test_the_reduce_motion_switch_is_kept(browser: Browser, server: LiveServer) -> None:
    page = seated_page(browser, server, "pickomino", "motion", "greedy")
    page.wait_for_selector(".dice-row .die")
    page.check("#reduce-motion")
    assert page.evaluate("document.documentElement.classList.contains('reduce-motion')")
    page.reload()
    page.wait_for_function("window.tumbles.length > 0")
    assert page.is_checked("#reduce-motion")
    assert page.evaluate("window.tumbles") == ["none"] * len(page.evaluate("window.tumbles"))
    page.uncheck("#reduce-motion")
    assert not page.evaluate("document.documentElement.classList.contains('reduce-motion')")
    page.context.close()
