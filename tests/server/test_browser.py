"""The web client in Debian's Chromium: whole games by clicking, reload, languages, replay.

The server runs as a real process on a free loopback port; screenshots are kept in
artifacts/browser/ for people to look at.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.server.live import ARTIFACTS, BROWSER_TESTS, LiveServer, chromium, start_server

LAUNCH_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-extensions",
    "--disable-sync",
    "--no-first-run",
    "--mute-audio",
]
STEP_TIMEOUT_MS = 30_000  # liveness only, generous for a busy machine
MAX_CLICKS = 1500

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = BROWSER_TESTS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with start_server(tmp_path_factory.mktemp("browser"), bot_delay=0.02) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with chromium(LAUNCH_ARGS) as found:
        yield found


def new_page(
    browser: object, server: LiveServer, locale: str = "en-GB", phone: bool = False
) -> object:
    size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 900}
    context = browser.new_context(  # type: ignore[attr-defined]
        locale=locale, viewport=size, reduced_motion="reduce"
    )
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.goto(server.url)
    return page


def shot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)  # type: ignore[attr-defined]


def make_table(page: object, name: str, bot: str = "greedy") -> None:
    page.wait_for_selector("#make-table")  # type: ignore[attr-defined]
    page.fill("#name", name)  # type: ignore[attr-defined]
    page.select_option("select[data-seat='1']", bot)  # type: ignore[attr-defined]
    page.click("#make-table")  # type: ignore[attr-defined]
    page.wait_for_selector(".board .stacks")  # type: ignore[attr-defined]


def version(page: object) -> str:
    return str(page.evaluate("document.body.dataset.version || ''"))  # type: ignore[attr-defined]


def click_a_move(page: object) -> bool:
    """Play one sensible Pickomino move by clicking; False once the result is shown."""
    page.wait_for_selector(".board [data-action], #result")  # type: ignore[attr-defined]
    if page.query_selector("#result"):  # type: ignore[attr-defined]
        return False
    before = version(page)
    for selector in (
        "[data-action='steal']",
        "[data-action='grill']",
        ".turn:not(:has(.worm-yes)) [data-action='take w']",
        ".dice-group.choosable",
        "[data-action='roll']",
        "[data-action='stop']",
    ):
        target = page.query_selector(f".board {selector}")  # type: ignore[attr-defined]
        if target:
            target.click()
            break
    page.wait_for_function(  # type: ignore[attr-defined]
        "v => document.body.dataset.version !== v || !!document.querySelector('#result')",
        arg=before,
    )
    return True


def test_a_person_plays_a_whole_game_against_a_bot(browser: object, server: LiveServer) -> None:
    page = new_page(browser, server)
    shot(page, "lobby")
    make_table(page, "Anna <b>&amp;</b>")
    assert page.inner_text(".seat.mine .seat-name") == "Anna <b>&amp;</b>"  # type: ignore[attr-defined]
    clicks = 0
    while click_a_move(page):
        clicks += 1
        if clicks == 3:
            shot(page, "pickomino-playing")
        assert clicks < MAX_CLICKS, "the game did not end"
    shot(page, "pickomino-result")
    assert page.inner_text("#result .winner")  # type: ignore[attr-defined]
    assert page.query_selector(".board .turn") is None  # type: ignore[attr-defined]
    page.click("#watch-replay")  # type: ignore[attr-defined]
    page.wait_for_selector("#replay-step")  # type: ignore[attr-defined]
    page.click("#replay-next")  # type: ignore[attr-defined]
    page.click("#replay-next")  # type: ignore[attr-defined]
    assert page.inner_text("#replay-step").startswith("Step 2 of")  # type: ignore[attr-defined]
    page.click("#replay-last")  # type: ignore[attr-defined]
    shot(page, "pickomino-replay")
    page.click("#replay-first")  # type: ignore[attr-defined]
    page.select_option("#replay-speed", "4")  # type: ignore[attr-defined]
    page.click("#replay-play")  # the replay plays by itself  # type: ignore[attr-defined]
    page.wait_for_function(
        "document.querySelector('#replay-step').textContent.startsWith('Step 3 ')"
    )  # type: ignore[attr-defined]
    page.click("#replay-play")  # pause  # type: ignore[attr-defined]
    assert page.inner_text("#replay-play") == "Play"  # type: ignore[attr-defined]
    table = page.url.rsplit("/", 1)[-1]  # type: ignore[attr-defined]
    page.click("a.button[href='#/']")  # the lobby lists the finished game  # type: ignore[attr-defined]
    page.click(f"#finished-tables a[href='#/r/{table}']")  # type: ignore[attr-defined]
    page.wait_for_selector("#replay-step")  # type: ignore[attr-defined]


def test_a_reload_mid_game_resumes(browser: object, server: LiveServer) -> None:
    page = new_page(browser, server, phone=True)
    make_table(page, "Bert", bot="optimal")
    for _ in range(3):
        click_a_move(page)
    page.wait_for_selector(".board [data-action]")  # type: ignore[attr-defined]
    before = version(page)
    address = page.url  # type: ignore[attr-defined]
    page.reload()  # type: ignore[attr-defined]
    page.wait_for_selector(".board [data-action]")  # type: ignore[attr-defined]
    assert page.url == address  # type: ignore[attr-defined]
    assert version(page) == before
    assert page.inner_text(".seat.mine .seat-name") == "Bert"  # type: ignore[attr-defined]
    page.check("#odds")  # type: ignore[attr-defined]
    page.wait_for_selector(".odds-note")  # type: ignore[attr-defined]
    shot(page, "pickomino-phone-after-reload-with-odds")
    assert click_a_move(page)


def test_the_language_switch(browser: object, server: LiveServer) -> None:
    page = new_page(browser, server, locale="de-DE")
    page.wait_for_selector("#make-table")  # type: ignore[attr-defined]
    assert page.inner_text("#make-table") == "Tisch eröffnen"  # type: ignore[attr-defined]
    expected = {"fr": "Créer la table", "it": "Apri il tavolo", "nl": "Tafel openen"}
    for language, words in expected.items():
        page.select_option("#lang", language)  # type: ignore[attr-defined]
        assert page.inner_text("#make-table") == words  # type: ignore[attr-defined]
        assert page.get_attribute("html", "lang") == language  # type: ignore[attr-defined]
    shot(page, "lobby-dutch")
    page.select_option("#lang", "en")  # type: ignore[attr-defined]
    page.reload()  # type: ignore[attr-defined]
    page.wait_for_selector("#make-table")  # type: ignore[attr-defined]
    assert page.inner_text("#make-table") == "Make the table"  # type: ignore[attr-defined]


def test_two_people_play_karolinchen(browser: object, server: LiveServer) -> None:
    first = new_page(browser, server)
    first.wait_for_selector("[data-game='karolinchen'] button")  # type: ignore[attr-defined]
    first.click("[data-game='karolinchen'] button")  # type: ignore[attr-defined]
    first.fill("#name", "Lino")  # type: ignore[attr-defined]
    first.select_option("select[data-seat='1']", "")  # type: ignore[attr-defined]
    first.click("#make-table")  # type: ignore[attr-defined]
    first.wait_for_selector(".board .kc-worms")  # type: ignore[attr-defined]
    invite = first.input_value("#invite")  # type: ignore[attr-defined]
    second = new_page(browser, server, locale="fr-FR")
    second.goto(invite)  # type: ignore[attr-defined]
    second.fill("#join-name", "Sophia")  # type: ignore[attr-defined]
    second.click(".seat [data-seat] button, .seat button")  # type: ignore[attr-defined]
    second.wait_for_selector(".seat.mine")  # type: ignore[attr-defined]
    first.fill("#chat-text", "<i>viel Glück</i>")  # type: ignore[attr-defined]
    first.click("#chat-send")  # type: ignore[attr-defined]
    second.wait_for_selector("#chat-lines li")  # type: ignore[attr-defined]
    assert second.inner_text("#chat-lines .chat-text") == "<i>viel Glück</i>"  # type: ignore[attr-defined]
    pages = (first, second)
    for _ in range(MAX_CLICKS):
        if all(page.query_selector("#result") for page in pages):  # type: ignore[attr-defined]
            break
        for page in pages:
            target = page.query_selector(".board [data-action]")  # type: ignore[attr-defined]
            if target:
                before = version(page)
                target.click()
                page.wait_for_function(  # type: ignore[attr-defined]
                    "v => document.body.dataset.version !== v", arg=before
                )
        first.wait_for_timeout(50)  # type: ignore[attr-defined]
    shot(first, "karolinchen-result-first")
    shot(second, "karolinchen-result-second")
    assert first.inner_text("#result .winner") and second.inner_text("#result .winner")  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose bots take a human pace, so a person can type while they play."""
    with start_server(tmp_path_factory.mktemp("paced"), bot_delay=0.3) as live:
        yield live


def test_typing_in_the_chat_survives_the_bots_moves(browser: object, paced: LiveServer) -> None:
    page = new_page(browser, paced)
    body = {"game": "pickomino", "seats": [{"bot": "greedy"}, {"bot": "greedy"}, {}], "seed": 4}
    table = httpx.post(paced.url + "api/tables", json=body).json()["id"]
    page.goto(paced.url + f"#/t/{table}")  # type: ignore[attr-defined]
    page.fill("#join-name", "Tess")  # type: ignore[attr-defined]
    page.click(".seat button")  # type: ignore[attr-defined]
    page.wait_for_selector("#chat-text")  # type: ignore[attr-defined]
    page.click("#chat-text")  # type: ignore[attr-defined]
    line = "the bots are quick today"
    for half in (line[:10], line[10:]):
        before = version(page)
        page.keyboard.type(half, delay=40)  # type: ignore[attr-defined]
        page.wait_for_function("v => document.body.dataset.version !== v", arg=before)  # type: ignore[attr-defined]
    assert page.input_value("#chat-text") == line  # type: ignore[attr-defined]
    assert page.evaluate("document.activeElement.id") == "chat-text"  # type: ignore[attr-defined]
    page.keyboard.press("Enter")  # type: ignore[attr-defined]
    page.wait_for_selector("#chat-lines li")  # type: ignore[attr-defined]
    assert page.inner_text("#chat-lines .chat-text") == line  # type: ignore[attr-defined]
    announced = page.inner_text("#announce")  # type: ignore[attr-defined]
    assert "greedy" in announced, announced  # the bots' moves were told to screen readers
    assert page.locator("h1").count() == 1  # type: ignore[attr-defined]


def test_dead_ends_say_why_and_lead_on(browser: object, server: LiveServer) -> None:
    page = new_page(browser, server)
    page.goto(server.url + "#/t/no-such-table")  # type: ignore[attr-defined]
    page.wait_for_selector("#dead-end")  # type: ignore[attr-defined]
    assert page.inner_text("#dead-end h2") == "No such table"  # type: ignore[attr-defined]
    body = {"game": "pickomino", "seats": [{}, {"bot": "greedy"}], "seed": 2}
    table = httpx.post(server.url + "api/tables", json=body).json()["id"]
    page.goto(server.url + f"#/r/{table}")  # type: ignore[attr-defined]
    page.wait_for_selector(f"#dead-end a[href='#/t/{table}']")  # type: ignore[attr-defined]
    assert page.inner_text("#dead-end h2") == "This game is still being played"  # type: ignore[attr-defined]
    shot(page, "replay-not-over")
    page.click("#dead-end-lobby")  # type: ignore[attr-defined]
    page.wait_for_selector("#make-table")  # type: ignore[attr-defined]


def test_the_lobby_offers_every_game_option(browser: object, server: LiveServer) -> None:
    page = new_page(browser, server)
    page.wait_for_selector("#make-table")  # type: ignore[attr-defined]
    page.click("#game-options summary")  # type: ignore[attr-defined]
    options = page.eval_on_selector_all(  # type: ignore[attr-defined]
        "#game-options [data-option]", "nodes => nodes.map(n => n.dataset.option)"
    )
    assert options == ["flip_when_nothing_returned", "short_game", "start_seat"]
    assert "official variant" in page.inner_text("[data-option='short_game']")  # type: ignore[attr-defined]
    page.check("#opt-short_game")  # type: ignore[attr-defined]
    page.select_option("#opt-start_seat", "1")  # type: ignore[attr-defined]
    shot(page, "lobby-options")
    page.fill("#name", "Olga")  # type: ignore[attr-defined]
    page.click("#make-table")  # type: ignore[attr-defined]
    page.wait_for_selector(".board .stacks")  # type: ignore[attr-defined]
    table = page.url.rsplit("/", 1)[-1]  # type: ignore[attr-defined]
    made = httpx.get(server.url + f"api/tables/{table}").json()
    assert made["options"]["short_game"] is True and made["options"]["start_seat"] == 1


def test_skip_buttons_and_spoken_names(browser: object, server: LiveServer) -> None:
    page = new_page(browser, server, locale="de-DE")
    make_table(page, "Uli")
    page.wait_for_selector(".board [data-action]")  # type: ignore[attr-defined]
    page.focus("#skip-log")  # type: ignore[attr-defined]
    page.keyboard.press("Enter")  # type: ignore[attr-defined]
    assert page.evaluate("document.activeElement.closest('#game-log') !== null")  # type: ignore[attr-defined]
    page.focus("#skip-actions")  # type: ignore[attr-defined]
    page.keyboard.press("Enter")  # type: ignore[attr-defined]
    assert page.evaluate("!!document.activeElement.closest('.board')")  # type: ignore[attr-defined]
    assert (
        page.get_attribute(".grill svg[data-tile='36']", "aria-label") == "Plättchen 36, 4 Würmer"
    )  # type: ignore[attr-defined]
    label = page.get_attribute(".dice-group.choosable", "aria-label")  # type: ignore[attr-defined]
    assert label is not None and label.endswith("herauslegen"), label
    before = version(page)
    page.click(".dice-group.choosable")  # type: ignore[attr-defined]
    page.wait_for_function("v => document.body.dataset.version !== v", arg=before)  # type: ignore[attr-defined]
    assert "Summe" in page.inner_text("#announce")  # the sum is told to screen readers  # type: ignore[attr-defined]
