"""A player's profile and a filled leaderboard in Debian's Chromium.

Ada and Bea, signed in, play two rated games of Pickomino against each other through the
server's sockets. Ada's profile then shows her rating's history as a chart, both games with
links to their replays (one opens), her places by table size, and her record against Bea.
Six more players have ratings in the database: four settled and active ones are listed on the
leaderboard best first, a provisional one and one away for weeks are not. Both pages are
axe-clean on a desktop and a phone; screenshots are kept in artifacts/browser/.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import httpx
import pytest
from sqlalchemy import Engine, create_engine, insert, select
from websockets.sync.client import connect

from spieltisch.ratings.model import Rating, shown
from spieltisch.server.database import default_url
from spieltisch.server.schema import ACCOUNTS, RATINGS
from tests.server.database import db_url, on_sqlite
from tests.server.live import BROWSER_TESTS, DESKTOP, PHONE, LiveServer, shot
from tests.server.test_accounts_browser import fresh_page
from tests.server.test_rated_workers import play_both, signed_up
from tests.server.test_ratings_browser import severe
from tests.server.test_workers import socket_url

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.slow, *BROWSER_TESTS, pytest.mark.live_server(bot_delay=0.0)]

DAY = 24 * 3600.0
LISTED = [("Cem", 31.0, 3.0), ("Dan", 28.5, 2.8), ("Eva", 26.0, 3.4), ("Fay", 22.0, 3.1)]
"""Settled players who played this week: (name, mu, sigma), best first."""
UNLISTED = [("Gus", 40.0, 5.5, 0.0), ("Hal", 35.0, 3.0, 30 * DAY)]
"""A provisional player and one away for a month: (name, mu, sigma, days since last game)."""


@pytest.fixture(scope="module")
def database(server: LiveServer) -> Iterator[Engine]:
    """The live server's own database, for the ratings the test writes."""
    url = default_url(server.data_dir) if on_sqlite() else db_url(server.data_dir)
    engine = create_engine(url)
    yield engine
    engine.dispose()


def rated_game(ada: httpx.Client, bea: httpx.Client, server: LiveServer) -> str:
    """Ada and Bea play a rated game of Pickomino to its end; its table's id."""
    body = {"game": "pickomino", "seats": [{"bot": None}, {"bot": None}], "rated": True}
    made = ada.post("api/tables", json=body)
    assert made.status_code == 201, made.text
    table_id: str = made.json()["id"]
    tokens = [
        client.post(f"api/tables/{table_id}/join", json={"name": "x", "seat": seat}).json()
        for seat, client in enumerate((ada, bea))
    ]
    urls = [socket_url(server, table_id, token["token"]) for token in tokens]
    with connect(urls[0]) as first, connect(urls[1]) as second:
        play_both([first, second])
    return table_id


def add_rated_players(server: LiveServer, database: Engine) -> None:
    now = time.time()
    rows = [(name, mu, sigma, now - DAY) for name, mu, sigma in LISTED]
    rows += [(name, mu, sigma, now - days) for name, mu, sigma, days in UNLISTED]
    for name, *_ in rows:
        signed_up(server, name).close()
    with database.begin() as db:
        for name, mu, sigma, when in rows:
            account = db.execute(select(ACCOUNTS.c.id).where(ACCOUNTS.c.name == name)).scalar()
            values = {"mu": mu, "sigma": sigma, "games": 40, "last_played": when}
            db.execute(insert(RATINGS).values(account_id=account, game="pickomino", **values))


def check_both_sizes(page: Page, name: str) -> None:
    shot(page, name)
    assert severe(page) == []
    page.set_viewport_size(PHONE)
    shot(page, f"{name}-phone")
    assert severe(page) == []
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name} is {width} px wide on a phone"
    page.set_viewport_size(DESKTOP)


def test_the_profile_shows_history_replays_and_head_to_head(
    browser: Browser, server: LiveServer
) -> None:
    ada, bea = signed_up(server, "Ada"), signed_up(server, "Bea")
    tables = [rated_game(ada, bea, server) for _ in range(2)]
    ada.close()
    bea.close()
    page = fresh_page(browser, server)
    page.goto(f"{server.url}#/p/Ada")
    page.wait_for_selector("#rating-history svg[role='img']")
    assert page.locator("#chart-pickomino-title").text_content() == "Pickomino: rating history"
    assert page.locator("#rating-history circle").count() == 3  # the start and two games
    assert page.locator("#rating-history figcaption").inner_text().startswith("From 1,500 to ")
    recent = page.locator("#recent-games tbody tr")
    assert [recent.nth(n).get_attribute("data-table") for n in range(2)] == tables[::-1]
    assert "Bea" in recent.nth(0).inner_text()
    assert page.inner_text("#by-players tr[data-players='2'] td:nth-of-type(2)") == "2"
    page.fill("#versus-name", "Bea")
    page.press("#versus-name", "Enter")  # the form is sent from the keyboard
    page.wait_for_selector("#versus-result td.together")
    assert page.inner_text("#versus-result td.together") == "2"
    counts = [int(page.inner_text(f"#versus-result td.{c}")) for c in ("ahead", "behind", "tied")]
    assert sum(counts) == 2
    check_both_sizes(page, "profile-extras")
    page.select_option("#lang", "de")  # the page is drawn again in the chosen language
    assert page.locator("#chart-pickomino-title").text_content() == "Pickomino: Verlauf der Wertung"
    assert page.inner_text("#versus h3") == "Direkter Vergleich"
    shot(page, "profile-extras-german")
    page.select_option("#lang", "en")
    page.click(f"#recent-games tr[data-table='{tables[0]}'] a.replay-link")
    page.wait_for_selector("#replay-first")
    assert page.url.endswith(f"#/r/{tables[0]}")
    shot(page, "profile-replay")
    page.context.close()


def test_the_leaderboard_lists_settled_active_players_only(
    browser: Browser, server: LiveServer, database: Engine
) -> None:
    add_rated_players(server, database)
    page = fresh_page(browser, server)
    page.goto(f"{server.url}#/leaderboard/pickomino")
    page.wait_for_selector("#leaderboard tbody tr")
    rows = page.locator("#leaderboard tbody tr")
    names = [rows.nth(n).locator("th").inner_text() for n in range(rows.count())]
    assert names == [name for name, _, _ in LISTED]  # not Gus, Hal, nor Ada and Bea (provisional)
    first = rows.nth(0).locator("td.rating").inner_text()
    assert first == f"{shown(Rating(31.0, 3.0)).points:,}"
    check_both_sizes(page, "leaderboard-filled")
    rows.nth(0).locator("a").click()
    page.wait_for_selector("#profile tr[data-game='pickomino']")
    assert "?" not in page.inner_text("#profile tr[data-game='pickomino'] td.rating")
    page.context.close()
