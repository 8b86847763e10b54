"""The account page's mail choices and the unsubscribe page in Debian's Chromium, on a server
started with `--smtp` (a local aiosmtpd): set by keyboard, a wrong address refused with the
reason in the player's language, the choices kept, the unsubscribe page stopping the mail
without a sign-in, and every page axe-clean at desktop and phone sizes.

Screenshots are kept in artifacts/browser/ for people to look at.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from sqlalchemy import create_engine, select

from spieltisch.server.database import default_url
from spieltisch.server.mail.tokens import unsubscribe_url
from spieltisch.server.schema import ACCOUNTS
from tests.server.browsing import tab_to
from tests.server.live import BROWSER_TESTS, SIZES, LiveServer, shot, start_server
from tests.server.smtp import Inbox, inbox
from tests.server.test_accounts_browser import COOKIE, fresh_page, severe, sign_up

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytest.importorskip("playwright.sync_api")
pytestmark = [*BROWSER_TESTS]

NAMES = itertools.count(1)


@pytest.fixture(scope="module")
def smtp() -> Iterator[Inbox]:
    with inbox() as box:
        yield box


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, smtp: Inbox) -> Iterator[LiveServer]:
    extra = ["--smtp", f"smtp://127.0.0.1:{smtp.port}", "--site-url", "https://games.example.org"]
    with start_server(tmp_path_factory.mktemp("mail"), extra=extra) as live:
        yield live


def mail_of(server: LiveServer, page: Page) -> Any:
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == COOKIE)
    return httpx.get(server.url + "api/account/mail", cookies={COOKIE: cookie}).json()


def unsubscribe_link(server: LiveServer, name: str) -> str:
    """The account's unsubscribe link as its mails carry it, on the test server's address."""
    engine = create_engine(default_url(server.data_dir))
    try:
        with engine.connect() as db:
            row = db.execute(select(ACCOUNTS).where(ACCOUNTS.c.name == name)).one()
    finally:
        engine.dispose()
    return unsubscribe_url(server.url, row.mail_secret, row.id)


def test_mail_choices_by_keyboard_and_the_unsubscribe_page(
    browser: Any, server: LiveServer
) -> None:
    name = f"Mia{next(NAMES)}x"
    page = fresh_page(browser, server)
    sign_up(page, name)
    page.click("#account-link")
    page.wait_for_selector("#mail-form")
    assert page.is_hidden("#mail-not-sending")  # this site sends mail
    tab_to(page, "#mail-address")
    page.keyboard.type("mia@example")
    tab_to(page, "#mail-turns")
    page.keyboard.press("Space")
    tab_to(page, "#mail-save")
    page.keyboard.press("Enter")
    page.wait_for_selector("#mail-error:not(:empty)")
    assert page.get_attribute("#mail-address", "aria-invalid") == "true"
    assert page.evaluate("document.activeElement.id") == "mail-address"
    assert mail_of(server, page)["email"] is None
    page.keyboard.type(".org")
    tab_to(page, "#mail-digest")
    page.keyboard.press("Space")
    tab_to(page, "#mail-save")
    page.keyboard.press("Enter")
    page.wait_for_selector("#notice:has-text('Your mail choices are saved')")
    kept = mail_of(server, page)
    assert kept == {"email": "mia@example.org", "turns": True, "digest": True, "sending": True}
    page.reload()
    page.wait_for_selector("#mail-address")
    page.wait_for_function("document.querySelector('#mail-address').value !== ''")
    assert page.is_checked("#mail-turns") and page.is_checked("#mail-digest")

    # no session at all; the page's CSP would keep axe out
    stranger = browser.new_context(locale="en-GB", bypass_csp=True).new_page()
    stranger.goto(unsubscribe_link(server, name))
    stranger.wait_for_selector("button[type=submit]")
    assert "mia@example.org" in stranger.inner_text("main")
    assert severe(stranger) == []
    shot(stranger, "mail-unsubscribe-ask")
    stranger.click("button[type=submit]")
    stranger.wait_for_selector("main:has-text('Done')")
    shot(stranger, "mail-unsubscribe-done")
    stranger.context.close()
    kept = mail_of(server, page)
    assert kept["turns"] is False and kept["digest"] is False
    assert kept["email"] == "mia@example.org"
    page.context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_mail_choices_are_axe_clean_in_german(
    browser: Any, server: LiveServer, size: str
) -> None:
    page = fresh_page(browser, server, phone=size == "phone", locale="de-DE")
    sign_up(page, f"Lea{next(NAMES)}x")
    page.click("#account-link")
    page.wait_for_selector("#mail-form")
    assert page.inner_text("#mail-title") == "E-Mail"
    page.fill("#mail-address", "keine adresse")
    page.click("#mail-save")
    page.wait_for_selector("#mail-error:not(:empty)")
    assert page.inner_text("#mail-error").startswith("Bitte gib eine E-Mail-Adresse")
    assert severe(page) == []
    page.locator("#mail-panel").scroll_into_view_if_needed()
    shot(page, f"mail-choices-de-{size}")
    page.context.close()
