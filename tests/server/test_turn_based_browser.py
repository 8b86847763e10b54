"""Turn-based tables in Debian's Chromium: a signed-in player makes one in the lobby's form
(time per move, bank, rule), the table and "My tables" show the time left, the header counts
the tables waiting for the player's move, and when 80 % of the move's time is used an alarm
shows, not at the table itself but as soon as the player looks elsewhere. The page's own clock
is moved on (Playwright's clock); the server keeps its real deadline. Axe-clean at desktop and
phone sizes; screenshots in artifacts/browser/.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.server.live import BROWSER_TESTS, DESKTOP, PHONE, STEP_TIMEOUT_MS, LiveServer, shot
from tests.server.test_accessibility import AXE, SEVERE, VIOLATIONS
from tests.server.test_accounts_browser import player_name, sign_up

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytest.importorskip("playwright.sync_api")
pytestmark = [*BROWSER_TESTS, pytest.mark.live_server(bot_delay=0.02)]


def lobby(browser: Browser, server: LiveServer, phone: bool = False) -> Page:
    """The lobby in a fresh context whose clock the test can move on."""
    context = browser.new_context(
        locale="en-GB", viewport=PHONE if phone else DESKTOP, reduced_motion="reduce"
    )
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.clock.install()
    page.goto(server.url)
    page.wait_for_selector("#make-table")
    return page


def severe(page: Page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(VIOLATIONS)
    return [f"{v['id']}: {v['help']}" for v in found if v["impact"] in SEVERE]


def make_turn_based(page: Page) -> str:
    """A Pickomino table against a bot, 1 hour per move with the small bank (2 hours for the
    first move), the player removed when time runs out; its id."""
    page.select_option("#move-time", "1h")
    page.select_option("#time-bank", "small")
    page.select_option("#timeout-rule", "remove")
    page.select_option("select[data-seat='1']", "greedy")
    assert page.query_selector("#clock") is None  # the real-time clock is not offered
    page.click("#make-table")
    page.wait_for_selector(".board .stacks")
    return page.url.rsplit("/", 1)[-1]


def test_a_turn_based_table_from_the_form_to_the_alarm(
    browser: Browser, server: LiveServer
) -> None:
    page = lobby(browser, server)
    sign_up(page, player_name())
    page.click("a.brand")
    page.wait_for_selector("#move-time")
    assert page.query_selector("#time-bank") is None  # real time: no bank to choose
    page.select_option("#move-time", "1h")
    page.wait_for_selector("#time-bank")
    assert severe(page) == []
    shot(page, "turn-based-form")
    table = make_turn_based(page)
    assert page.inner_text("#turn-based") == "turn-based · 1 hour per move"
    page.wait_for_selector("#status.mine #clock")  # the bot may start; then it is the player's
    assert page.inner_text("#clock") in ("2 h 0 min left", "1 h 59 min left")
    shot(page, "turn-based-table")

    page.clock.fast_forward("01:40:00")  # 100 of the 120 minutes: past 80 %
    page.wait_for_timeout(500)
    assert page.is_hidden("#turn-alarm")  # not while the player looks at the table

    page.click("a.brand")  # elsewhere: the lobby
    row = f"#my-tables li[data-table='{table}']"
    page.wait_for_selector(f"{row}.your-turn")
    assert "left" in page.inner_text(f"{row} .time-left")
    page.wait_for_selector("#turn-count:not([hidden])")
    assert page.inner_text("#turn-count") == "1"
    assert page.get_attribute("#turn-count", "aria-label") == "Your turn at 1 tables"
    page.wait_for_selector("#turn-alarm:not([hidden])")
    assert "Pickomino" in page.inner_text("#turn-alarm")
    assert page.get_attribute(f"#turn-alarm a[href='#/t/{table}']", "href") is not None
    assert severe(page) == []
    shot(page, "turn-based-alarm")
    page.click("#turn-alarm button")
    assert page.is_hidden("#turn-alarm")
    page.context.close()


def test_the_header_count_and_my_tables_on_a_phone(browser: Browser, server: LiveServer) -> None:
    page = lobby(browser, server, phone=True)
    sign_up(page, player_name())
    page.click("a.brand")
    page.wait_for_selector("#move-time")
    make_turn_based(page)
    page.click("a.brand")
    page.wait_for_selector("#turn-count:not([hidden])")
    page.wait_for_selector("#my-tables .time-left")
    assert page.is_hidden("#turn-alarm")  # not yet 80 % of the time
    assert severe(page) == []
    shot(page, "turn-based-my-tables-phone")
    page.context.close()
