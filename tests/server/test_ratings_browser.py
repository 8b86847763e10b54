"""Ratings in Debian's Chromium: a signed-in player makes a rated table against a bot (whose
calibrated rating the form shows), plays it to the end by clicking, and finds the new
provisional rating on the profile behind the name and beside the name at the table; the
profile and the leaderboard are axe-clean.

Screenshots are kept in artifacts/browser/ for people to look at.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.server.browsing import click_a_move
from tests.server.live import BROWSER_TESTS, DESKTOP, PHONE, LiveServer, shot
from tests.server.test_accessibility import AXE, SEVERE, VIOLATIONS
from tests.server.test_accounts_browser import fresh_page, player_name, sign_up

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.slow, *BROWSER_TESTS, pytest.mark.live_server(bot_delay=0.0)]

MOST_MOVES = 2000
"""Clicks after which a game of Pickomino against one bot must have ended (liveness only)."""


def severe(page: Page) -> list[dict[str, object]]:
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, object]] = page.evaluate(VIOLATIONS)
    return [v for v in found if v["impact"] in SEVERE]


def test_a_rated_game_shows_on_the_profile(browser: Browser, server: LiveServer) -> None:
    name = player_name()
    page = fresh_page(browser, server)
    sign_up(page, name)
    page.click("a.brand")
    page.wait_for_selector("#rated")
    greedy = page.inner_text("select[data-seat='1'] option[value='greedy']")
    assert greedy == "greedy — good ~ 1,531"
    page.select_option("select[data-seat='1']", "greedy")
    page.check("#rated")
    shot(page, "ratings-lobby-form")
    assert severe(page) == []
    page.click("#make-table")
    page.wait_for_selector(".board .stacks")
    assert page.inner_text("#table-rated") == "rated"
    assert any(click_a_move(page) is False for _ in range(MOST_MOVES))
    page.click(".seat.mine .profile-link")  # a signed-in player's name leads to the profile
    page.wait_for_selector("#profile tr[data-game='pickomino']")
    row = page.inner_text("#profile tr[data-game='pickomino']")
    assert "?" in row
    assert page.inner_text("#profile tr[data-game='pickomino'] td.games") == "1"
    assert "than" in row  # where it stands against the bots
    shot(page, "ratings-profile")
    assert severe(page) == []
    rating = page.inner_text("#profile tr[data-game='pickomino'] td.rating")
    page.set_viewport_size(PHONE)
    shot(page, "ratings-profile-phone")
    assert severe(page) == []
    page.set_viewport_size(DESKTOP)
    page.go_back()  # the table again: the rating stands beside the name
    page.wait_for_selector(".seat.mine .seat-rating:not(:empty)")
    assert page.inner_text(".seat.mine .seat-rating") == rating
    shot(page, "ratings-table-seat")
    page.goto(f"{server.url}#/leaderboard/pickomino")
    page.wait_for_selector("#leaderboard-empty")  # one provisional player is not listed yet
    shot(page, "ratings-leaderboard")
    assert severe(page) == []
    page.context.close()
