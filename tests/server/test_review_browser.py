"""The review in Debian's Chromium: a person finishes a seeded game (failing turns on purpose,
so the review finds blunders), opens the review from the result, steps to a blunder, sees the
better choice marked on the board, and solves the blunder as a puzzle; axe finds nothing
serious on the review at desktop and phone size. Screenshots go to artifacts/browser/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from spieltisch.server.app import WEB_DIR
from tests.server.live import BROWSER_TESTS, LiveServer, chromium, shot, start_server

LAUNCH_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
STEP_TIMEOUT_MS = 60_000  # liveness only, generous for a busy machine
MAX_CLICKS = 800
PUZZLES = ("mistake", "blunder")
PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 900}
AXE = WEB_DIR / "vendor" / "axe-core" / "axe.min.js"
VIOLATIONS = """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
  .filter(v => v.impact === 'serious' || v.impact === 'critical')
  .map(v => ({id: v.id, nodes: v.nodes.map(n => n.target.join(' '))}))"""
GOOD_PLAY = (
    "[data-action='steal']",
    "[data-action='grill']",
    ".turn:not(:has(.worm-yes)) [data-action='take w']",
    ".dice-group.choosable",
    "[data-action='roll']",
    "[data-action='stop']",
)
BLUNDER = "[data-action='roll']"
"""Rolling on with the last one or two dice where a tile could be taken: the person's blunder."""

pytest.importorskip("playwright.sync_api")
pytestmark = BROWSER_TESTS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with start_server(tmp_path_factory.mktemp("review"), bot_delay=0.0) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(LAUNCH_ARGS) as found:
        yield found


def new_page(browser: Any, url: str, size: dict[str, int]) -> Any:
    context = browser.new_context(locale="en-GB", viewport=size, reduced_motion="reduce")
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.goto(url)
    return page


def play(page: Any) -> bool:
    """One move of the person's play, good but for a risky roll with the last dice instead of
    a tile; False once the result is shown."""
    page.wait_for_selector(".board [data-action], #result")
    if page.query_selector("#result"):
        return False
    before = page.evaluate("document.body.dataset.version || ''")
    dice_left = int(page.inner_text(".turn-facts .muted").split()[0] or 0)
    takes = page.query_selector(".board [data-action='grill'], .board [data-action='steal']")
    risky = (BLUNDER,) if takes and dice_left <= 2 else ()
    for selector in (*risky, *GOOD_PLAY):
        found = page.query_selector_all(f".board {selector}")
        if found:
            found[-1].click()  # of the dice, the highest face
            break
    page.wait_for_function(
        "v => document.body.dataset.version !== v || !!document.querySelector('#result')",
        arg=before,
    )
    return True


def finished_game(browser: Any, server: LiveServer) -> tuple[Any, str]:
    """A seeded Pickomino game that the person Anna played to its end against a bot."""
    body = {"game": "pickomino", "seats": [{}, {"bot": "greedy"}], "seed": 11}
    table = str(httpx.post(server.url + "api/tables", json=body).json()["id"])
    joined = httpx.post(server.url + f"api/tables/{table}/join", json={"name": "Anna"}).json()
    page = new_page(browser, server.url, DESKTOP)
    page.evaluate(
        "([table, token]) => { localStorage.setItem('spieltisch.name', 'Anna');"
        " localStorage.setItem('spieltisch.tokens', JSON.stringify({[table]: token})); }",
        [table, joined["token"]],
    )
    page.goto(f"{server.url}#/t/{table}")
    clicks = 0
    while play(page):
        clicks += 1
        assert clicks < MAX_CLICKS, "the game did not end"
    return page, table


def axe_violations(page: Any) -> list[dict[str, Any]]:
    if not AXE.exists():
        return []
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(VIOLATIONS)
    return found


def test_a_person_reviews_a_finished_game_and_solves_a_blunder_as_a_puzzle(
    browser: Any, server: LiveServer
) -> None:
    page, table = finished_game(browser, server)
    page.click("#open-review")
    page.wait_for_selector("#review-summary")
    assert "Anna" in page.inner_text("#review-summary")
    assert page.query_selector("#review-chart svg polyline")
    shot(page, "review-start")

    review = httpx.get(server.url + f"api/tables/{table}/review").json()
    blunders = [d for d in review["decisions"] if d["seat"] == 0 and d["grade"] == "blunder"]
    assert blunders, "failing a turn on purpose should be a blunder"
    page.click("#review-next-error")
    page.wait_for_selector("#review-decision .grade")
    while not page.query_selector("#review-decision .grade-blunder"):
        page.click("#review-next-error")
    decision = page.inner_text("#review-decision")
    assert "Better:" in decision and "Anna played" in decision
    assert page.query_selector("#review-board .review-better")  # the better choice on the board
    shot(page, "review-blunder")
    assert axe_violations(page) == []

    page.click("#puzzle-start")
    page.wait_for_selector("#puzzle-title")
    first = [
        d for d in review["decisions"] if d["seat"] == 0 and d["grade"] in ("mistake", "blunder")
    ]
    puzzle = first[0]
    page.click(f"#review-board [data-action='{puzzle['played']}']")  # the move that was played
    assert "not better" in page.inner_text("#puzzle-feedback")
    page.click(f"#review-board [data-action='{puzzle['answers'][0]}']")
    page.wait_for_selector("#puzzle-feedback.solved")
    assert "Solved" in page.inner_text("#puzzle-feedback")
    shot(page, "review-puzzle-solved")
    page.context.close()


def test_the_review_on_a_phone(browser: Any, server: LiveServer) -> None:
    body = {"game": "pickomino", "seats": [{"bot": "greedy"}, {"bot": "optimal"}], "seed": 4}
    table = str(httpx.post(server.url + "api/tables", json=body).json()["id"])
    page = new_page(browser, f"{server.url}#/v/{table}", PHONE)
    page.wait_for_selector("#review-summary, #dead-end")
    while page.query_selector("#dead-end"):  # the bots are still playing
        page.wait_for_timeout(200)
        page.reload()
        page.wait_for_selector("#review-summary, #dead-end")
    first = page.inner_text("#replay-step")
    page.focus("#review-next-decision")  # by keyboard: Enter on a control, arrows step
    page.keyboard.press("Enter")
    assert page.inner_text("#replay-step") != first
    after = page.inner_text("#replay-step")
    page.focus("#review-summary h3")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#replay-step") != after
    page.click("#review-next-error")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the review scrolls sideways on a phone"
    shot(page, "review-phone")
    assert axe_violations(page) == []
    page.context.close()
