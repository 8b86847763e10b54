"""The web client in Debian's Chromium: whole games by clicking, reload, languages, replay.

The server runs as a real process on a free loopback port; screenshots are kept in
artifacts/browser/ for people to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.server.browsing import click_a_move, version
from tests.server.live import (
    BROWSER_TESTS,
    DESKTOP,
    PHONE,
    STEP_TIMEOUT_MS,
    LiveServer,
    shot,
    start_server,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

MAX_CLICKS = 1500

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [*BROWSER_TESTS, pytest.mark.live_server(bot_delay=0.02)]


def new_page(
    browser: Browser, server: LiveServer, locale: str = "en-GB", phone: bool = False
) -> Page:
    size = PHONE if phone else DESKTOP
    context = browser.new_context(locale=locale, viewport=size, reduced_motion="reduce")
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.goto(server.url)
    return page


def make_table(page: Page, name: str, bot: str = "greedy") -> None:
    page.wait_for_selector("#make-table")
    page.fill("#name", name)
    page.select_option("select[data-seat='1']", bot)
    page.click("#make-table")
    page.wait_for_selector(".board .stacks")


def test_a_person_plays_a_whole_game_against_a_bot(browser: Browser, server: LiveServer) -> None:
    page = new_page(browser, server)
    shot(page, "lobby")
    make_table(page, "Anna <b>&amp;</b>")
    assert page.inner_text(".seat.mine .seat-name") == "Anna <b>&amp;</b>"
    clicks = 0
    while click_a_move(page):
        clicks += 1
        if clicks == 3:
            shot(page, "pickomino-playing")
        assert clicks < MAX_CLICKS, "the game did not end"
    shot(page, "pickomino-result")
    assert page.inner_text("#result .winner")
    assert page.query_selector(".board .turn") is None
    page.click("#watch-replay")
    page.wait_for_selector("#replay-step")
    page.click("#replay-next")
    page.click("#replay-next")
    assert page.inner_text("#replay-step").startswith("Step 2 of")
    page.click("#replay-last")
    shot(page, "pickomino-replay")
    # the last step says who won, with each seat's worms
    assert page.inner_text("#replay-result .winner").endswith(" won!")
    assert page.inner_text("#replay-result th:nth-child(2)") == "Worms"
    assert page.locator("#replay-result .result-score").count() == 2
    page.click("#replay-first")
    page.select_option("#replay-speed", "4")
    page.click("#replay-play")  # the replay plays by itself
    page.wait_for_function(
        "document.querySelector('#replay-step').textContent.startsWith('Step 3 ')"
    )
    page.click("#replay-play")  # pause
    assert page.inner_text("#replay-play") == "Play"
    table = page.url.rsplit("/", 1)[-1]
    page.click("a.button[href='#/']")  # the lobby lists the finished game
    page.click(f"#finished-tables a[href='#/r/{table}']")
    page.wait_for_selector("#replay-step")


def test_a_reload_mid_game_resumes(browser: Browser, server: LiveServer) -> None:
    page = new_page(browser, server, phone=True)
    make_table(page, "Bert", bot="optimal")
    for _ in range(3):
        click_a_move(page)
    page.wait_for_selector(".board [data-action]")
    before = version(page)
    address = page.url
    page.reload()
    page.wait_for_selector(".board [data-action]")
    assert page.url == address
    assert version(page) == before
    assert page.inner_text(".seat.mine .seat-name") == "Bert"
    page.check("#odds")
    page.wait_for_selector(".odds-note")
    shot(page, "pickomino-phone-after-reload-with-odds")
    assert click_a_move(page)


def test_the_language_switch(browser: Browser, server: LiveServer) -> None:
    page = new_page(browser, server, locale="de-DE")
    page.wait_for_selector("#make-table")
    assert page.inner_text("#make-table") == "Tisch eröffnen"
    expected = {"fr": "Créer la table", "it": "Apri il tavolo", "nl": "Tafel openen"}
    for language, words in expected.items():
        page.select_option("#lang", language)
        assert page.inner_text("#make-table") == words
        assert page.get_attribute("html", "lang") == language
    shot(page, "lobby-dutch")
    page.select_option("#lang", "en")
    page.reload()
    page.wait_for_selector("#make-table")
    assert page.inner_text("#make-table") == "Make the table"


def test_two_people_play_karolinchen(browser: Browser, server: LiveServer) -> None:
    first = new_page(browser, server)
    first.wait_for_selector("[data-game='karolinchen'] button")
    first.click("[data-game='karolinchen'] button")
    first.fill("#name", "Lino")
    first.select_option("select[data-seat='1']", "")
    first.click("#make-table")
    first.wait_for_selector(".board .kc-worms")
    invite = first.input_value("#invite")
    second = new_page(browser, server, locale="fr-FR")
    second.goto(invite)
    second.fill("#join-name", "Sophia")
    second.click(".seat [data-seat] button, .seat button")
    second.wait_for_selector(".seat.mine")
    first.fill("#chat-text", "<i>viel Glück</i>")
    first.click("#chat-send")
    second.wait_for_selector("#chat-lines li")
    assert second.inner_text("#chat-lines .chat-text") == "<i>viel Glück</i>"
    pages = (first, second)
    for _ in range(MAX_CLICKS):
        if all(page.query_selector("#result") for page in pages):
            break
        for page in pages:
            target = page.query_selector(".board [data-action]")
            if target:
                before = version(page)
                target.click()
                page.wait_for_function("v => document.body.dataset.version !== v", arg=before)
        first.wait_for_timeout(50)
    shot(first, "karolinchen-result-first")
    shot(second, "karolinchen-result-second")
    assert first.inner_text("#result .winner") and second.inner_text("#result .winner")


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose bots take a human pace, so a person can type while they play."""
    with start_server(tmp_path_factory.mktemp("paced"), bot_delay=0.3) as live:
        yield live


def test_typing_in_the_chat_survives_the_bots_moves(browser: Browser, paced: LiveServer) -> None:
    page = new_page(browser, paced)
    body = {"game": "pickomino", "seats": [{"bot": "greedy"}, {"bot": "greedy"}, {}], "seed": 4}
    table = httpx.post(paced.url + "api/tables", json=body).json()["id"]
    page.goto(paced.url + f"#/t/{table}")
    page.fill("#join-name", "Tess")
    page.click(".seat button")
    page.wait_for_selector("#chat-text")
    page.click("#chat-text")
    line = "the bots are quick today"
    for half in (line[:10], line[10:]):
        before = version(page)
        page.keyboard.type(half, delay=40)
        page.wait_for_function("v => document.body.dataset.version !== v", arg=before)
    assert page.input_value("#chat-text") == line
    assert page.evaluate("document.activeElement.id") == "chat-text"
    page.keyboard.press("Enter")
    page.wait_for_selector("#chat-lines li")
    assert page.inner_text("#chat-lines .chat-text") == line
    announced = page.inner_text("#announce")
    assert "greedy" in announced, announced  # the bots' moves were told to screen readers
    assert page.locator("h1").count() == 1


def test_dead_ends_say_why_and_lead_on(browser: Browser, server: LiveServer) -> None:
    page = new_page(browser, server)
    page.goto(server.url + "#/t/no-such-table")
    page.wait_for_selector("#dead-end")
    assert page.inner_text("#dead-end h2") == "No such table"
    body = {"game": "pickomino", "seats": [{}, {"bot": "greedy"}], "seed": 2}
    table = httpx.post(server.url + "api/tables", json=body).json()["id"]
    page.goto(server.url + f"#/r/{table}")
    page.wait_for_selector(f"#dead-end a[href='#/t/{table}']")
    assert page.inner_text("#dead-end h2") == "This game is still being played"
    shot(page, "replay-not-over")
    page.click("#dead-end-lobby")
    page.wait_for_selector("#make-table")


def test_the_lobby_offers_every_game_option(browser: Browser, server: LiveServer) -> None:
    page = new_page(browser, server)
    page.wait_for_selector("#make-table")
    page.click("#game-options summary")
    options = page.eval_on_selector_all(
        "#game-options [data-option]", "nodes => nodes.map(n => n.dataset.option)"
    )
    assert options == ["flip_when_nothing_returned", "short_game", "start_seat"]
    assert "official variant" in page.inner_text("[data-option='short_game']")
    page.check("#opt-short_game")
    page.select_option("#opt-start_seat", "1")
    shot(page, "lobby-options")
    page.fill("#name", "Olga")
    page.click("#make-table")
    page.wait_for_selector(".board .stacks")
    table = page.url.rsplit("/", 1)[-1]
    made = httpx.get(server.url + f"api/tables/{table}").json()
    assert made["options"]["short_game"] is True and made["options"]["start_seat"] == 1


def test_skip_buttons_and_spoken_names(browser: Browser, server: LiveServer) -> None:
    page = new_page(browser, server, locale="de-DE")
    make_table(page, "Uli")
    page.wait_for_selector(".board [data-action]")
    page.focus("#skip-log")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.closest('#game-log') !== null")
    page.focus("#skip-actions")
    page.keyboard.press("Enter")
    assert page.evaluate("!!document.activeElement.closest('.board')")
    assert (
        page.get_attribute(".grill svg[data-tile='36']", "aria-label") == "Plättchen 36, 4 Würmer"
    )
    label = page.get_attribute(".dice-group.choosable", "aria-label")
    assert label is not None and label.endswith("herauslegen"), label
    before = version(page)
    page.click(".dice-group.choosable")
    page.wait_for_function("v => document.body.dataset.version !== v", arg=before)
    assert "Summe" in page.inner_text("#announce")  # the sum is told to screen readers
