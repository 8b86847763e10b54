"""Who is here, the rejoin link and the default clock, in Debian's Chromium.

The server runs in this process (uvicorn in a thread) on a `ManualClock`, so the test moves
the server's time past the grace time by hand: a seat whose player closed the page shows
"away · seen 3 minutes ago" (or more) on the other player's page. A guest's rejoin link, shown once
after joining, takes the seat in another browser context. The lobby's clock field shows the
game's default for two people and can switch it off. Each page is axe-clean."""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from spieltisch.server.app import create_app
from spieltisch.server.clock import ManualClock
from spieltisch.server.lobby import Lobby
from spieltisch.server.presence import AWAY_AFTER, ROUND_EVERY
from tests.server.database import db_url
from tests.server.helpers import threads
from tests.server.live import ARTIFACTS, BROWSER_TESTS, DESKTOP, PHONE, free_port
from tests.server.test_accessibility import AXE, SEVERE, VIOLATIONS

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytest.importorskip("playwright.sync_api")
pytestmark = [*BROWSER_TESTS, pytest.mark.skipif(not AXE.exists(), reason="axe-core missing")]

START_TIMEOUT = 60.0  # liveness only
SEEN_AGO = 180.0
"""How long before the page's real time the absent player was seen, once the clock moved."""


class InProcessServer:
    """The app served by uvicorn in a thread, on a manual clock the test moves."""

    def __init__(self, folder: Path) -> None:
        import uvicorn

        # after the grace time the server's time is SEEN_AGO seconds behind the browser's
        self.clock = ManualClock(time.time() - AWAY_AFTER - ROUND_EVERY - SEEN_AGO)
        app = create_app(db_url(folder), bot_delay=0.0, clock=self.clock, executor=threads())
        self.lobby: Lobby = app.state.lobby
        port = free_port()
        self.url = f"http://127.0.0.1:{port}/"
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> InProcessServer:
        self.thread.start()
        deadline = time.monotonic() + START_TIMEOUT
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)

    def table_of_two(self) -> tuple[str, list[str]]:
        """A table with Ada and Bea seated (no turn clock); their seat tokens."""
        body = {"game": "pickomino", "seats": [{}, {}], "seed": 3, "clock": None}
        table = str(httpx.post(self.url + "api/tables", json=body).json()["id"])
        tokens = []
        for name in ("Ada", "Bea"):
            joined = httpx.post(self.url + f"api/tables/{table}/join", json={"name": name})
            tokens.append(str(joined.json()["token"]))
        return table, tokens


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcessServer]:
    with InProcessServer(tmp_path_factory.mktemp("presence")) as running:
        yield running


def new_page(browser: Browser, url: str) -> Page:
    page = browser.new_context(viewport=DESKTOP, locale="en-GB").new_page()
    page.set_default_timeout(30_000)
    page.goto(url)
    return page


def severe(page: Page) -> list[dict[str, Any]]:
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(VIOLATIONS)
    return [v for v in found if v["impact"] in SEVERE]


def shoot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def wait_until(check: Any, what: str) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def sockets_of(site: InProcessServer, table: str, seat: int) -> int:
    """How many sockets of the seat the server has open."""
    local = site.lobby.presence.local
    return sum(count for key, count in local.items() if key[:2] == (table, seat))


def test_a_player_who_closed_the_page_shows_away_after_the_grace_time(
    browser: Browser, site: InProcessServer
) -> None:
    table, (ada, bea) = site.table_of_two()
    bea_page = new_page(browser, site.url + f"#/t/{table}/seat/{bea}")
    ada_page = new_page(browser, site.url + f"#/t/{table}/seat/{ada}")
    ada_page.wait_for_selector("li.seat.mine[data-seat='0']")
    here = bea_page.wait_for_selector("li.seat[data-seat='0'] .presence.here")
    assert here is not None and here.text_content() == "here"
    ada_page.context.close()
    wait_until(lambda: not sockets_of(site, table, 0), "Ada's socket closes")
    site.clock.advance(AWAY_AFTER - 1)
    time.sleep(0.5)  # a round may run: still within the grace time
    assert bea_page.query_selector("li.seat[data-seat='0'] .presence.here") is not None
    site.clock.advance(ROUND_EVERY + 1)
    away = bea_page.wait_for_selector("li.seat[data-seat='0'] .presence.away")
    assert away is not None
    said = away.text_content() or ""
    assert re.fullmatch(r"away · seen \d+ minutes ago", said), said  # 3 or more: real time runs
    older = "n => n.dataset.seen = String(Number(n.dataset.seen) - 3600)"  # the page stays open
    bea_page.eval_on_selector("li.seat[data-seat='0'] .presence.away", older)
    bea_page.wait_for_selector("li.seat[data-seat='0'] .presence.away:text('seen 1 hour ago')")
    assert severe(bea_page) == []
    shoot(bea_page, "presence-away-desktop")
    bea_page.set_viewport_size(PHONE)
    shoot(bea_page, "presence-away-phone")
    bea_page.context.close()


def test_a_guests_rejoin_link_takes_the_seat_in_another_browser(
    browser: Browser, site: InProcessServer
) -> None:
    body = {"game": "pickomino", "seats": [{}, {}], "seed": 3, "clock": None}
    table = str(httpx.post(site.url + "api/tables", json=body).json()["id"])
    first = new_page(browser, site.url + f"#/t/{table}")
    first.fill("#join-name", "Ada")
    first.click("li.seat[data-seat='1'] button")
    link = first.wait_for_selector("#rejoin-link")
    assert link is not None
    address = link.input_value()
    assert f"#/t/{table}/seat/" in address and "?" not in address  # the token in the fragment
    token = address.rsplit("/", 1)[1]
    assert first.evaluate("JSON.parse(localStorage['spieltisch.tokens'])")[table] == token
    assert severe(first) == []
    shoot(first, "rejoin-link")
    first.reload()
    first.wait_for_selector("li.seat.mine[data-seat='1']")
    assert first.query_selector("#rejoin") is None  # shown once only

    other = new_page(browser, address)
    other.wait_for_selector("li.seat.mine[data-seat='1']")
    assert other.url.endswith(f"#/t/{table}")  # the token left the address bar at once
    assert other.evaluate("JSON.parse(localStorage['spieltisch.tokens'])")[table] == token
    assert other.query_selector("#rejoin") is None
    first.context.close()
    other.context.close()


def test_the_lobby_offers_the_games_clock_for_two_people_and_can_switch_it_off(
    browser: Browser, site: InProcessServer
) -> None:
    page = new_page(browser, site.url)
    page.fill("#name", "Ada")
    assert page.input_value("#clock") == ""  # one person and a bot: no clock
    page.select_option("select[data-seat='1']", "")
    assert page.input_value("#clock") == "90"  # two people: Pickomino's time per turn
    label = page.eval_on_selector("#clock", "s => s.selectedOptions[0].textContent")
    assert "default" in label
    assert severe(page) == []
    page.set_viewport_size(PHONE)
    page.locator("#create").screenshot(path=str(ARTIFACTS / "lobby-default-clock-phone.png"))
    page.set_viewport_size(DESKTOP)
    page.select_option("#clock", "")
    page.click("#make-table")
    page.wait_for_selector("li.seat.mine")
    table = page.url.rsplit("/", 1)[1]
    assert httpx.get(site.url + f"api/tables/{table}").json()["clock"] is None
    with contextlib.suppress(Exception):
        page.context.close()
