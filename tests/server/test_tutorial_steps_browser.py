"""Each step of a guided game in Debian's Chromium, with a screenshot of every explanation as
the learner reads it (artifacts/browser/tutorial-<game>-<n>-<lesson>.png): Pickomino played to
its finish, and Riff Raff's first rounds, where catching is taught before the first fall: the
learner's own cargo falls in slow motion while "Catch!" is shown, the learner catches it, and
the guided game goes on; and Riff Raff's later lessons, in the second half of a game that the
test's own socket plays up to there, to the finish. (Karolinchen's steps:
test_tutorial_browser.py.)"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.server.live import ARTIFACTS, BROWSER_TESTS, DESKTOP, LiveServer, start_server
from tests.server.seated import socket, state_of
from tests.server.test_riffraff_browser import FALLING_IN_SIGHT, point_and_click

if TYPE_CHECKING:
    from playwright.sync_api import Page

STEP_TIMEOUT_MS = 60_000  # liveness only, generous for a busy machine
CATCH_SETTINGS = ["--catch-margin", "3"]  # real speed; a guided game's falls are slowed down
RIFFRAFF_ROUNDS = 4  # the learner drops a barrel each round until one falls, at most this long
RIFFRAFF_SEED = 4

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [*BROWSER_TESTS, pytest.mark.webgl]


@pytest.fixture(scope="module")
def guided(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with start_server(tmp_path_factory.mktemp("guided"), 0.05, extra=CATCH_SETTINGS) as live:
        yield live


def guided_page(browser: Any, server: LiveServer, game: str, seed: int) -> Any:
    """The page of a new guided game of `game` with a seeded table, as 'Learn to play' opens it."""
    body = {"game": game, "name": "Lea", "seed": seed}
    joined = httpx.post(server.url + "api/tutorials", json=body).json()
    return open_guided(browser, server, joined["table"]["id"], joined["token"])


def open_guided(browser: Any, server: LiveServer, table: str, token: str) -> Any:
    """The learner's page of the guided table, its first explanation open."""
    page = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce").new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.goto(server.url)
    tokens = json.dumps({table: token})
    page.evaluate("t => localStorage.setItem('spieltisch.tokens', t)", tokens)
    page.goto(server.url + f"#/learn/{table}")
    page.wait_for_selector("#coach-ok")
    return page


class Steps:
    """The explanations read so far, each saved as a screenshot when it first shows."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.read: list[str] = []

    def shot(self, page: Page, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"tutorial-{self.game}-{name}.png"), full_page=True)

    def see(self, page: Page, later: str = "") -> str:
        """The open explanation's title; a screenshot the first time, but not of `later` (its
        test takes that one itself)."""
        title = str(page.inner_text("#coach-lesson"))
        if title not in self.read:
            self.read.append(title)
            slug = re.sub(r"[^a-z]+", "-", title.lower()).strip("-")
            if title != later:
                self.shot(page, f"{len(self.read):02d}-{slug}")
        return title


def version(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def act(page: Page, selector: str) -> None:
    before = version(page)
    page.click(selector)
    page.wait_for_function(f"() => Number(document.body.dataset.version) > {before}")


# --- Pickomino, to the finish -------------------------------------------------------------------
def pickomino_move(page: Page) -> str:
    """The learner's move: a tile when one can be taken, worms first, roll on for a tile."""
    for move in ("grill", "steal"):
        if page.query_selector(f".board [data-action='{move}']"):
            return f".board [data-action='{move}']"
    if page.query_selector(".board .dice-group.choosable[data-face='w']"):
        return ".board .dice-group.choosable[data-face='w']"
    for found in (".board .dice-group.choosable", ".board [data-action='roll']"):
        if page.query_selector(found):
            return found
    return ".board [data-action='stop']"


def test_each_step_of_the_pickomino_tutorial(browser: Any, guided: LiveServer) -> None:
    page = guided_page(browser, guided, "pickomino", 3)
    steps = Steps("pickomino")
    for _ in range(600):
        page.wait_for_selector("#coach-ok, #coach-finish, .board [data-action]")
        if page.query_selector("#coach-finish"):
            break
        if page.query_selector("#coach-ok"):
            steps.see(page)
            page.click("#coach-ok")
            continue
        act(page, pickomino_move(page))
    else:
        raise AssertionError(f"the guided game did not end; read {steps.read}")
    steps.shot(page, "finish")
    assert steps.read[:2] == ["Your first turn", "Set dice aside"]
    assert {"Roll on or stop?", "The bot's turn", "Game over"} <= set(steps.read), steps.read
    assert page.inner_text("#coach-finish") in {"You won!", "The game is over"}
    assert page.query_selector(".board .turn") is None  # the end, no turn in play
    page.context.close()


# --- Riff Raff: the first rounds, with a catch ---------------------------------------------------
LEARNER = ", ".join(
    (
        ".rr-hand [data-action^='card ']",
        ".rr-panels [data-piece]",
        ".rr-panels [data-action='one']",
        ".rr-panels [data-action^='captain ']",
        ".rr-panels [data-action^='next ']",
    )
)


SAFE_SPOTS = [(0.3, 0.0), (0.5, 0.3), (0.5, -0.3), (0.7, 0.0), (0.1, 0.0)]
"""Where a piece goes when it should stay: near the mast first, else wherever there is room."""
PLACED_MS = 5_000  # a placement the page takes reaches the table well within this


def riffraff_move(page: Page, drop: bool) -> None:
    """The learner's move: the highest card (a yard in the first rounds), one piece, and a
    barrel on the very tip and edge of the yard while `drop` (it falls), else a spot that
    takes it, near the mast if it can."""
    if page.query_selector(".rr-hand [data-action^='card ']"):
        cards = page.locator(".rr-hand [data-action^='card ']").all_inner_texts()
        act(page, f".rr-hand [data-action='card {max(int(c) for c in cards)}']")
    elif page.query_selector(".rr-panels [data-piece]"):
        barrel = page.query_selector(".rr-panels [data-piece='barrel']")
        page.click(".rr-panels [data-piece='barrel']" if barrel else ".rr-panels [data-piece]")
        before = version(page)
        area = page.evaluate("riffraffTable.area()")
        for u, v in [(1.05, 1.05)] if drop else SAFE_SPOTS:
            point_and_click(page, area, u, v)
            with contextlib.suppress(sync_api.TimeoutError):  # a full spot: the page refuses it
                page.wait_for_function(
                    f"() => Number(document.body.dataset.version) > {before}", timeout=PLACED_MS
                )
                return
        raise AssertionError(f"no spot of area {area} took the piece")
    else:
        act(page, ".rr-panels [data-action='one'], .rr-panels [data-action]")


def catch_while_shown(page: Page, server: LiveServer) -> None:
    """'Catch!' is open while the learner's own cargo is still falling: catch it. The server
    takes the catch at once; the page shows what came of it once the learner has read on."""
    assert page.evaluate("riffraffTable.phase()") == "catch"
    table = page.evaluate("location.hash").split("/")[2]
    before = httpx.get(server.url + f"api/tables/{table}").json()["version"]
    falling = page.wait_for_function(FALLING_IN_SIGHT).json_value()
    assert page.inner_text("#coach-lesson") == "Catch!"  # still explained while it falls
    page.mouse.click(falling["at"]["x"], falling["at"]["y"])
    for _ in range(STEP_TIMEOUT_MS // 100):
        if httpx.get(server.url + f"api/tables/{table}").json()["version"] > before:
            return
        page.wait_for_timeout(100)
    raise AssertionError("the catch never reached the server")


def riffraff_round(page: Page) -> int:
    return int(page.inner_text(".rr-round-line").split()[1])


def test_the_riffraff_tutorial_teaches_catching_before_the_first_fall(
    browser: Any, guided: LiveServer
) -> None:
    page = guided_page(browser, guided, "riffraff", RIFFRAFF_SEED)
    page.wait_for_function("window.riffraffTable && riffraffTable.ready()")
    steps = Steps("riffraff")
    caught_in = None  # the round of the learner's catch
    for _ in range(400):
        page.wait_for_selector(f"#coach-ok, {LEARNER}")
        if page.query_selector("#coach-ok"):
            if steps.see(page, later="Catch!") == "Catch!" and caught_in is None:
                assert "Cargo falls!" not in steps.read  # taught before any fall
                catch_while_shown(page, guided)
                steps.shot(page, f"{len(steps.read):02d}-catch")  # caught, still explained
                caught_in = riffraff_round(page)
                page.click("#coach-ok")
                page.wait_for_function("riffraffTable.phase() !== 'catch'")
                continue
            page.click("#coach-ok")
            continue
        if riffraff_round(page) > (caught_in or RIFFRAFF_ROUNDS) + 1:
            break
        riffraff_move(page, drop=caught_in is None)
    else:
        raise AssertionError(f"the guided game stopped; read {steps.read}")
    assert steps.read[:2] == ["Load the ship", "Choose a card"]
    assert caught_in is not None, steps.read
    assert re.search(r"Lea catches (only their own )?barrel", page.inner_text(".log"))
    # after the catch the guided game went on: more explanations, the next round, the bot's load
    assert steps.read[-1] != "Catch!" and "Bot random loads" in steps.read, steps.read
    page.context.close()


# --- Riff Raff: the later lessons, in the last rounds of a whole game ---------------------------
LATER_SEED = 7
LATER_LESSONS = {
    "One piece or two?",
    "Catch!",
    "Cargo falls!",
    "Caught",
    "Back to the supply",
    "Game over",
}
HANDOVER_ROUND = 11
"""From this round on the page plays (the second half of the 2-player game's 20 rounds)."""


def learner_choice(view: dict[str, Any]) -> str:
    """A plain learner's move from the socket: a card for a yard that already holds cargo
    if there is one (else the highest), one piece, the first listed placement, no catch."""
    legal: list[str] = view["legal_actions"]
    cards = [int(action.split()[1]) for action in legal if action.startswith("card ")]
    if cards:
        return f"card {max(loaded_yards(view, cards) or cards)}"
    for plain in ("one", "catch none"):
        if plain in legal:
            return plain
    return legal[0]


def loaded_yards(view: dict[str, Any], cards: list[int]) -> list[int]:
    """Of these cards, those whose yard already holds cargo (the learner may announce two)."""
    return [card for card in cards if card >= 5 and view["areas"].get(str(card), 0) > 0]


def play_on_by_socket(server: LiveServer, table: str, token: str) -> int:
    """Play the learner's moves over a socket of the test's own until `HANDOVER_ROUND`, when
    a yard with cargo can be chosen; the card the page then plays."""
    acted = -1
    with socket(server.url, table, token) as ws:
        while True:
            state = state_of(ws)
            if state["type"] != "state" or state["version"] <= acted:
                continue  # a refusal of a move the table had passed, or an older push
            view, you = state["view"], state["you"]
            assert view["phase"] != "over", "the game ended before the page took over"
            if state["to_move"] != you:
                continue
            hand = [int(a.split()[1]) for a in view["legal_actions"] if a.startswith("card ")]
            if hand and view["round"] >= HANDOVER_ROUND and loaded_yards(view, hand):
                return max(loaded_yards(view, hand))
            move = {"type": "action", "action": learner_choice(view), "version": state["version"]}
            ws.send(json.dumps(move))
            acted = state["version"]


def test_the_riffraff_tutorial_shows_its_later_lessons_to_the_finish(
    browser: Any, guided: LiveServer
) -> None:
    """A guided game played on by the test's socket, then by the page for its second half:
    announcing two into a loaded yard, the learner's own catch window, the bot's cargo that
    falls and the part it catches, the supply, the game's end (a screenshot of each)."""
    body = {"game": "riffraff", "name": "Lea", "seed": LATER_SEED}
    joined = httpx.post(guided.url + "api/tutorials", json=body).json()
    table = joined["table"]["id"]
    card = play_on_by_socket(guided, table, joined["token"])
    page = open_guided(browser, guided, table, joined["token"])
    page.wait_for_function("window.riffraffTable && riffraffTable.ready()")
    steps = Steps("riffraff-later")
    for _ in range(400):
        page.wait_for_selector(f"#coach-ok, #coach-finish, {LEARNER}")
        if page.query_selector("#coach-finish"):
            break
        if page.query_selector("#coach-ok"):
            steps.see(page)
            page.click("#coach-ok")
        elif page.query_selector(f".rr-hand [data-action='card {card}']"):
            act(page, f".rr-hand [data-action='card {card}']")
        else:  # one barrel dropped, for a catch window of the learner's own
            riffraff_move(page, drop="Catch!" not in steps.read)
    else:
        raise AssertionError(f"the guided game did not end; read {steps.read}")
    steps.shot(page, "finish")
    assert set(steps.read) >= LATER_LESSONS, steps.read
    page.context.close()
