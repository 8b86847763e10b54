"""Optional accounts in Debian's Chromium: sign up and play, come back in a fresh browser, find
the table in "My tables" and take the seat back; a guest's seats go along at sign-up; signing
out ends the session on the server; the forms say why they refuse; every account page is
axe-clean at desktop and phone sizes and reachable by keyboard.

Screenshots are kept in artifacts/browser/ for people to look at.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.server.browsing import click_a_move, tab_to, version
from tests.server.live import (
    BROWSER_TESTS,
    DESKTOP,
    PHONE,
    SIZES,
    STEP_TIMEOUT_MS,
    LiveServer,
    shot,
    start_server,
)
from tests.server.test_accessibility import AXE, SEVERE, VIOLATIONS

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytest.importorskip("playwright.sync_api")
pytestmark = [
    *BROWSER_TESTS,
    # every test's player signs up from the loopback address: more than its default limit
    pytest.mark.live_server(bot_delay=0.02, extra=["--sign-ups-per-address", "0"]),
]

COOKIE = "spieltisch_session"
PASSWORD = "seven little worms"
NEW_PASSWORD = "eight hungry worms"
MAX_WRONG_PASSWORDS = 60
"""Wrong passwords sent before the server must have begun to throttle (it does after far fewer)."""
NAMES = itertools.count(1)


def player_name() -> str:
    """A user name no other test of the module's server has taken."""
    return f"Ada{next(NAMES)}x"


def fresh_page(
    browser: Browser, server: LiveServer, phone: bool = False, locale: str = "en-GB"
) -> Page:
    """The lobby in a browser context of its own: no cookie, no seat token."""
    context = browser.new_context(
        locale=locale, viewport=PHONE if phone else DESKTOP, reduced_motion="reduce"
    )
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.goto(server.url)
    page.wait_for_selector("#make-table")
    return page


def send_form(page: Page, link: str, name: str, password: str) -> None:
    """Open the sign-in or sign-up page from the header and send its form."""
    page.click(link)
    page.fill("#acct-name", name)
    page.fill("#acct-password", password)
    page.click("#acct-submit")


def sign_up(page: Page, name: str) -> None:
    send_form(page, "#signup-link", name, PASSWORD)
    page.wait_for_selector("#account-link")


def sign_in(page: Page, name: str) -> None:
    send_form(page, "#signin-link", name, PASSWORD)
    page.wait_for_selector("#account-link")


def form_error(page: Page) -> str:
    page.wait_for_selector("#acct-error:not(:empty)")
    return page.inner_text("#acct-error")


def make_bot_table(page: Page) -> str:
    """A Pickomino table against a bot, made in the lobby; its id."""
    page.click("a.brand")
    page.wait_for_selector("#make-table")
    page.select_option("select[data-seat='1']", "greedy")
    page.click("#make-table")
    page.wait_for_selector(".board .stacks")
    return page.url.rsplit("/", 1)[-1]


def session_cookie(page: Page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == COOKIE)


def account_of(server: LiveServer, cookie: str) -> Any:
    """Who the server says a session cookie signs in (None: nobody)."""
    answer = httpx.get(server.url + "api/session", cookies={COOKIE: cookie})
    return answer.json()["account"]


def test_a_player_comes_back_in_a_fresh_browser_and_takes_the_seat_back(
    browser: Browser, server: LiveServer
) -> None:
    name = player_name()
    first = fresh_page(browser, server)
    sign_up(first, name)
    table = make_bot_table(first)
    assert first.inner_text(".seat.mine .seat-name") == name
    assert first.get_attribute(".seat.mine .account-mark", "aria-label") == "signed-in player"
    shot(first, "account-table-with-mark")
    assert click_a_move(first)
    first.context.close()

    second = fresh_page(browser, server, phone=True)
    assert second.query_selector("#my-tables") is None  # a guest here
    sign_in(second, name)
    row = f"#my-tables li[data-table='{table}']"
    second.wait_for_selector(row)
    second.wait_for_selector(f"{row}.your-turn")  # the bot has played its turn meanwhile
    assert "your turn" in second.inner_text(row)
    assert name in second.inner_text(row)
    shot(second, "account-my-tables-phone")
    second.click(f"#take-seat-{table}")
    second.wait_for_selector(".seat.mine")
    assert second.url.endswith(f"#/t/{table}")
    second.wait_for_selector(".board [data-action]")
    before = version(second)
    assert click_a_move(second)
    assert version(second) != before
    assert second.inner_text(".seat.mine .seat-name") == name
    second.context.close()


def test_signing_in_at_a_table_leads_back_to_it_seated(
    browser: Browser, server: LiveServer
) -> None:
    name = player_name()
    first = fresh_page(browser, server)
    sign_up(first, name)
    table = make_bot_table(first)
    first.context.close()

    second = fresh_page(browser, server)
    second.goto(server.url + f"#/t/{table}")
    second.wait_for_selector("#status:has-text('watching')")
    assert second.query_selector(".seat.mine") is None
    sign_in(second, name)
    second.wait_for_selector(".seat.mine")  # the socket found the seat by the session cookie
    assert second.url.endswith(f"#/t/{table}")
    second.on("dialog", lambda dialog: dialog.accept())
    second.click("#leave")  # this browser holds no token of the seat: the session gets one
    second.wait_for_selector("#make-table")
    seats = httpx.get(server.url + f"api/tables/{table}").json()["seats"]
    assert [seat["replaced"] for seat in seats] == [True, False]
    second.context.close()


def test_a_guest_who_signs_up_keeps_the_seats_of_this_browser(
    browser: Browser, server: LiveServer
) -> None:
    page = fresh_page(browser, server)
    page.fill("#name", "Gina")
    page.select_option("select[data-seat='1']", "greedy")
    page.click("#make-table")
    page.wait_for_selector(".board .stacks")
    table = page.url.rsplit("/", 1)[-1]
    sign_up(page, player_name())
    assert page.url.endswith(f"#/t/{table}")  # back at the table it began at
    page.wait_for_selector(".seat.mine .account-mark")
    page.click("a.brand")
    page.wait_for_selector(f"#my-tables li[data-table='{table}']")
    page.context.close()


def test_signing_out_ends_the_session_on_the_server(browser: Browser, server: LiveServer) -> None:
    name = player_name()
    page = fresh_page(browser, server)
    sign_up(page, name)
    cookie = session_cookie(page)
    assert account_of(server, cookie)["name"] == name
    page.click("#account-link")
    page.click("#sign-out")
    page.wait_for_selector("#signin-link")
    assert account_of(server, cookie) is None
    tables = httpx.get(server.url + "api/account/tables", cookies={COOKIE: cookie})
    assert tables.status_code == 401
    page.context.close()


def test_the_forms_say_why_they_refuse(browser: Browser, server: LiveServer) -> None:
    taken = player_name()
    page = fresh_page(browser, server)
    sign_up(page, taken)
    page.click("#account-link")
    page.click("#sign-out")
    page.wait_for_selector("#signin-link")

    send_form(page, "#signup-link", taken.upper(), PASSWORD)
    assert form_error(page).startswith("This name belongs to a player with an account")
    assert page.get_attribute("#acct-name", "aria-invalid") == "true"
    assert page.evaluate("document.activeElement.id") == "acct-name"
    page.fill("#acct-name", "-dash-")
    page.click("#acct-submit")
    page.wait_for_function(
        "document.querySelector('#acct-error').textContent.startsWith('This user name cannot')"
    )
    sentence = page.inner_text("#acct-error").removeprefix("This user name cannot be used.")
    assert len(sentence.strip()) > 10  # the server's own words on what is wrong with it
    shot(page, "account-signup-refused")
    page.fill("#acct-name", player_name())
    page.fill("#acct-password", "short")
    page.click("#acct-submit")
    page.wait_for_function("document.querySelector('#acct-error').textContent.includes('8')")
    assert page.get_attribute("#acct-password", "aria-invalid") == "true"
    assert page.get_attribute("#acct-name", "aria-invalid") is None

    send_form(page, "#signin-link", taken, "not the password")
    assert form_error(page) == "The user name or the password is wrong."
    assert page.input_value("#acct-password") == ""
    assert page.query_selector("[aria-invalid]") is None  # it does not tell which was wrong
    page.context.close()


def test_a_throttled_sign_in_says_how_long_to_wait(browser: Browser, tmp_path: Path) -> None:
    """On a server of its own: the throttle holds back every sign-in from this address."""
    with start_server(tmp_path) as server:
        name = player_name()
        signed_up = httpx.post(
            server.url + "api/account/signup",
            json={"name": name, "password": PASSWORD, "seats": []},
        )
        assert signed_up.status_code == 201
        wrong = {"name": name, "password": "not the password", "seats": []}
        for _ in range(MAX_WRONG_PASSWORDS):
            answer = httpx.post(server.url + "api/account/signin", json=wrong)
            if answer.status_code == 429:
                break
        assert answer.status_code == 429, "the server never throttled"
        page = fresh_page(browser, server, locale="de-DE")
        send_form(page, "#signin-link", name, PASSWORD)
        wait = re.compile(
            r"^Zu viele Anmeldeversuche\. Versuche es in (\d+ \w+|einer \w+) wieder\.$"
        )
        assert wait.match(form_error(page)), form_error(page)
        shot(page, "account-throttled-de")
        page.context.close()


def test_the_account_pages_by_keyboard(browser: Browser, server: LiveServer) -> None:
    name = player_name()
    page = fresh_page(browser, server)
    tab_to(page, "#signup-link")
    page.keyboard.press("Enter")
    page.wait_for_selector("#acct-name:focus")
    page.keyboard.type(name)
    tab_to(page, "#acct-password")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")  # sends the form
    page.wait_for_selector("#account-link")
    tab_to(page, "#account-link")
    page.keyboard.press("Enter")
    page.wait_for_selector("#sign-out")
    for control in ("#old-password", "#language-save", "#download-data", "#delete-submit"):
        tab_to(page, control)
    tab_to(page, "#sign-out")
    page.keyboard.press("Enter")
    page.wait_for_selector("#signin-link")
    page.context.close()


def test_the_account_page_changes_the_password_and_the_language_and_deletes_the_account(
    browser: Browser, server: LiveServer
) -> None:
    name = player_name()
    page = fresh_page(browser, server)
    sign_up(page, name)
    cookie = session_cookie(page)
    page.click("#account-link")
    page.fill("#old-password", PASSWORD)
    page.fill("#new-password", NEW_PASSWORD)
    page.click("#password-submit")
    page.wait_for_selector("#notice:has-text('The password is changed')")
    assert page.input_value("#new-password") == ""
    answer = httpx.post(
        server.url + "api/account/signin", json={"name": name, "password": NEW_PASSWORD}
    )
    assert answer.status_code == 200

    page.select_option("#account-language", "it")
    page.click("#language-save")
    page.wait_for_selector("html[lang='it']")
    assert page.inner_text("#account-link") == name
    assert page.inner_text("#sign-out") == "Esci"
    assert account_of(server, cookie)["settings"]["language"] == "it"

    with page.expect_download() as download:
        page.click("#download-data")
    data = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert name in json.dumps(data, ensure_ascii=False)

    page.fill("#delete-password", PASSWORD)  # the old one
    page.click("#delete-submit")
    page.wait_for_selector("#delete-error:not(:empty)")
    assert page.get_attribute("#delete-password", "aria-invalid") == "true"
    assert account_of(server, cookie)["name"] == name
    page.fill("#delete-password", NEW_PASSWORD)
    page.click("#delete-submit")
    page.wait_for_selector("#signin-link")
    assert account_of(server, cookie) is None
    page.context.close()


def severe(page: Page) -> list[dict[str, Any]]:
    """The serious and critical violations axe-core finds on the page as it is now."""
    if not page.evaluate("!!window.axe"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(VIOLATIONS)
    return [v for v in found if v["impact"] in SEVERE]


@pytest.mark.parametrize("size", list(SIZES))
def test_the_account_pages_are_axe_clean(browser: Browser, server: LiveServer, size: str) -> None:
    """The sign-up page with a refusal shown, the sign-in page, a table with the mark of a
    signed-in player, the lobby with My tables and the account page: no serious or critical
    violation."""
    page = fresh_page(browser, server, phone=size == "phone")
    send_form(page, "#signup-link", "-x-", PASSWORD)
    form_error(page)
    assert severe(page) == []
    page.click("#acct-other")
    page.wait_for_selector("#acct-submit:has-text('Sign in')")
    assert severe(page) == []
    sign_up(page, player_name())
    make_bot_table(page)
    page.wait_for_selector(".seat.mine .account-mark")
    assert severe(page) == []
    page.click("a.brand")
    page.wait_for_selector("#my-tables li")
    assert severe(page) == []
    shot(page, f"account-lobby-{size}")
    page.click("#account-link")
    page.wait_for_selector("#sign-out")
    assert severe(page) == []
    shot(page, f"account-page-{size}")
    page.context.close()
