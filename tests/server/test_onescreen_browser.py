"""Several people at one screen, in Debian's Chromium at tablet sizes: a Karolinchen game of two
people against a bot played to the end, a Riff Raff round where each person's card stays hidden
from the other (the page's text and DOM, also while the cover is up), and a mixed table with a
third person in a browser of their own. Screenshots are kept in artifacts/browser/."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest

from tests.server.browsing import version
from tests.server.live import BROWSER_TESTS, STEP_TIMEOUT_MS, LiveServer, shot
from tests.server.test_accessibility import AXE, SEVERE, VIOLATIONS
from tests.server.test_riffraff_browser import take_a_turn

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

FLAT: ViewportSize = {"width": 1024, "height": 768}
UPRIGHT: ViewportSize = {"width": 768, "height": 1024}
MAX_CLICKS = 1500
MAX_STEPS = 200
TURN = re.compile(r"^(\w+), your turn!")
LAID = re.compile(r"(\w+) lays card \d+ face down")
VIEW = re.compile(r"(\w+)\u2019s view")

pytest.importorskip("playwright.sync_api")
pytestmark = [
    *BROWSER_TESTS,
    pytest.mark.webgl,
    pytest.mark.live_server(bot_delay=0.02, extra=["--playback-speed", "8"]),
]

# Every picture the page draws, as it was drawn: whether the cover is up, whether a board and a
# hand of cards are in the DOM, whose turn the status names and every card the text names.
RECORD = """() => {
  window.pictures = [];
  const take = () => window.pictures.push({
    cover: !!document.querySelector('#here-cover'),
    board: !!document.querySelector('.board'),
    hand: !!document.querySelector('.rr-hand'),
    status: (document.querySelector('#status') || {}).textContent || '',
    text: document.documentElement.textContent,
  });
  const all = {subtree: true, childList: true, characterData: true};
  new MutationObserver(take).observe(document, all);
  take();
}"""


def tablet(browser: Browser, server: LiveServer, size: ViewportSize = FLAT) -> Page:
    context = browser.new_context(
        locale="en-GB", viewport=size, reduced_motion="reduce", has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.goto(server.url)
    return page


def severe(page: Page) -> list[dict[str, Any]]:
    if not AXE.exists():
        return []
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(VIOLATIONS)
    return [v for v in found if v["impact"] in SEVERE]


def make_here_table(page: Page, game: str, seats: list[str], names: dict[int, str]) -> None:
    """Fill the lobby's form: `seats` holds "@here", "" (a person from the invite) or a bot."""
    page.wait_for_selector(f"[data-game='{game}'] button")
    page.click(f"[data-game='{game}'] button")
    while page.locator(".seat-list li").count() < len(seats):
        page.click("button[aria-label='Add a seat']")
    for index, choice in enumerate(seats):
        page.select_option(f"select[data-seat='{index}']", choice)
    for index, name in names.items():
        page.fill(f"#here-name-{index}", name)
    page.select_option("#pace", "instant")
    page.click("#make-table")
    page.wait_for_selector(".board, #here-cover")


def play_karolinchen_here(
    page: Page, names: tuple[str, ...], others: list[Page], shots_as: str
) -> None:
    """Click the first action whenever a page may act, checking that the screen at the table
    names the person to move in large type, until every page shows the result."""
    shots = 0
    size = page.viewport_size
    for _ in range(MAX_CLICKS):
        if all(p.query_selector("#result") for p in [page, *others]):
            return
        for each in [page, *others]:
            target = each.query_selector(".board [data-action]")
            if not target:
                continue
            if each is page:
                turn = TURN.match(page.inner_text("#status"))
                assert turn and turn.group(1) in names, page.inner_text("#status")
                if shots < len(names) and turn.group(1) == names[shots]:
                    who = turn.group(1).lower()
                    page.set_viewport_size(FLAT)
                    shot(page, f"onescreen-{shots_as}-{who}-flat", full_page=False)
                    page.set_viewport_size(UPRIGHT)
                    shot(page, f"onescreen-{shots_as}-{who}-upright", full_page=False)
                    page.set_viewport_size(size or FLAT)
                    shots += 1
            before = version(each)
            target.click()
            each.wait_for_function(
                "v => document.body.dataset.version !== v || !!document.querySelector('#result')",
                arg=before,
            )
        page.wait_for_timeout(30)
    raise AssertionError("the game did not end")


def test_two_people_at_one_screen_play_karolinchen_against_a_bot(
    browser: Browser, server: LiveServer
) -> None:
    page = tablet(browser, server)
    make_here_table(page, "karolinchen", ["@here", "@here", "greedy"], {0: "Ann", 1: "Ben"})
    assert page.locator(".here-badge").count() == 2
    assert not page.query_selector("#here-cover")  # no secrets: no cover
    assert severe(page) == []
    play_karolinchen_here(page, ("Ann", "Ben"), [], "karolinchen")
    winners = page.inner_text("#result .winner")
    assert winners
    assert page.locator("#result tbody tr").count() == 3
    page.set_viewport_size(UPRIGHT)
    shot(page, "onescreen-karolinchen-result-upright", full_page=False)


def test_a_mixed_table_two_at_one_screen_and_one_on_their_own(
    browser: Browser, server: LiveServer
) -> None:
    page = tablet(browser, server, UPRIGHT)
    make_here_table(page, "karolinchen", ["@here", "@here", ""], {0: "Ann", 1: "Ben"})
    assert "Waiting" in page.inner_text("#status")
    invite = page.input_value("#invite")
    phone = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844}).new_page()
    phone.set_default_timeout(STEP_TIMEOUT_MS)
    phone.goto(invite)
    phone.fill("#join-name", "Cleo")
    phone.click(".seat button")
    phone.wait_for_selector(".seat.mine")
    page.wait_for_selector(".board .kc-worms")
    assert page.locator(".here-badge").count() == 2
    assert phone.locator(".seat.mine .seat-name").inner_text() == "Cleo"
    play_karolinchen_here(page, ("Ann", "Ben"), [phone], "mixed")
    assert page.inner_text("#result .winner") == phone.inner_text("#result .winner")
    shot(page, "onescreen-mixed-result-upright", full_page=False)
    shot(phone, "onescreen-mixed-result-phone", full_page=False)


def leaks(picture: dict[str, Any]) -> list[str]:
    """What a picture shows that its viewer may not see: a board or hand under the cover, a
    hand without its player named, a face-down card of somebody not uncovered (a person's
    view is theirs while it is their turn, or while the ship settles after it)."""
    found = []
    others_turn = "turn" in picture["status"] and not TURN.match(picture["status"].strip())
    turn = TURN.match(picture["status"].strip()) or VIEW.search(picture["status"])
    viewer = turn.group(1) if turn and not picture["cover"] and not others_turn else None
    if picture["cover"] and (picture["board"] or picture["hand"]):
        found.append("the cover shows the table")
    if picture["hand"] and viewer is None:
        found.append("a hand is shown with nobody's turn named")
    found += [f"{who}'s card seen" for who in LAID.findall(picture["text"]) if who != viewer]
    return found


def test_a_riff_raff_round_at_one_screen_keeps_each_card_hidden(
    browser: Browser, server: LiveServer
) -> None:
    page = tablet(browser, server)
    make_here_table(page, "riffraff", ["@here", "@here", "random"], {0: "Ann", 1: "Ben"})
    page.evaluate(RECORD)
    page.wait_for_selector("#here-cover")
    assert page.inner_text("#here-cover-title") == "Pass the device to Ann"
    assert not page.query_selector(".board") and not page.query_selector(".rr-hand")
    assert severe(page) == []
    page.set_viewport_size(UPRIGHT)
    shot(page, "onescreen-riffraff-cover-upright", full_page=False)
    page.set_viewport_size(FLAT)
    page.click("#here-uncover")
    page.wait_for_selector(".rr-hand [data-action='card 9']")
    page.wait_for_function("window.riffraffTable && window.riffraffTable.ready()")
    assert TURN.match(page.inner_text("#status").strip()).group(1) == "Ann"  # type: ignore[union-attr]
    shot(page, "onescreen-riffraff-ann-flat", full_page=False)
    page.click(".rr-hand [data-action='card 9']")
    page.wait_for_selector("#here-cover")
    assert page.inner_text("#here-cover-title") == "Pass the device to Ben"
    html = page.content()
    assert "rr-hand" not in html and "lays card 9" not in html
    page.click("#here-uncover")
    page.wait_for_selector(".rr-hand [data-action='card 2']")
    assert "Ann lays a card face down" in page.inner_text("#game-log")
    assert "card 9" not in page.inner_text("#game-log")
    page.set_viewport_size(UPRIGHT)
    shot(page, "onescreen-riffraff-ben-upright", full_page=False)
    page.set_viewport_size(FLAT)
    assert severe(page) == []
    page.click(".rr-hand [data-action='card 2']")
    # the bot lays its card, all three are turned up, and the captain (Ann's 9) plays on
    page.wait_for_function(
        "() => (document.querySelector('#here-cover-title') || {}).textContent"
        " === 'Pass the device to Ann'"
    )
    page.click("#here-uncover")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.rr-card-shown')]"
        ".some(n => n.textContent.includes('9'))"
    )
    shot(page, "onescreen-riffraff-revealed-flat", full_page=False)
    # the round is played out by clicking, each person under their own cover, up to the next cards
    for _ in range(MAX_STEPS):
        page.wait_for_function(
            "document.querySelector('#here-cover') || (riffraffTable.ready() &&"
            " !riffraffTable.playing() && document.querySelector('.rr-panels [data-action],"
            " .rr-panels [data-piece]'))"
        )
        if page.query_selector("#here-cover"):
            page.click("#here-uncover")
        elif page.query_selector(".rr-hand"):
            break
        else:
            take_a_turn(page)
    assert "Round 2" in page.inner_text(".rr-round-line")
    assert TURN.match(page.inner_text("#status").strip()).group(1) == "Ann"  # type: ignore[union-attr]
    hand = page.eval_on_selector_all(
        ".rr-hand [data-action]", "nodes => nodes.map(n => n.dataset.action)"
    )
    assert "card 9" not in hand and "card 2" in hand  # Ann's own hand, not Ben's
    pictures: list[dict[str, Any]] = page.evaluate("window.pictures")
    assert len(pictures) > 5
    problems = [(problem, p["status"], p["cover"]) for p in pictures for problem in leaks(p)]
    assert problems == []
    assert any(p["hand"] for p in pictures) and any(p["cover"] for p in pictures)


@pytest.mark.xfail(
    strict=False,
    reason="known defect, not yet found: on a loaded machine the page of a guided game at one "
    "screen sometimes stops two versions behind the table (the server waits for a move the page "
    "never shows); docs/onescreen.md, 'Known problems'",
)
def test_two_learners_at_one_screen_take_turns_in_a_guided_game(
    browser: Browser, server: LiveServer
) -> None:
    page = tablet(browser, server, UPRIGHT)
    page.wait_for_selector("[data-game='karolinchen'] button")
    page.click("[data-game='karolinchen'] button")
    page.click("button[aria-label='Add a seat']")
    for index in (0, 1):
        page.select_option(f"select[data-seat='{index}']", "@here")
    page.fill("#here-name-0", "Ann")
    page.fill("#here-name-1", "Ben")
    shot(page, "onescreen-lobby-form-upright", full_page=False)
    assert severe(page) == []
    page.click("#learn-here")
    page.wait_for_selector("#coach-lesson")
    assert page.locator(".here-badge").count() == 2
    shot(page, "onescreen-guided-upright", full_page=False)
    turns: set[str] = set()
    for _ in range(MAX_CLICKS):
        if len(turns) == 2:
            break
        page.wait_for_selector("#coach-ok, .board [data-action]")
        if page.query_selector("#coach-ok"):
            page.click("#coach-ok")
            continue
        target = page.query_selector(".board [data-action]")
        if target:
            turn = TURN.match(page.inner_text("#status"))
            assert turn, page.inner_text("#status")
            turns.add(turn.group(1))
            before = version(page)
            target.click()
            # the move shows, or a lesson opens first (the table waits behind it)
            page.wait_for_function(
                "v => document.body.dataset.version !== v || document.querySelector('#coach-ok')",
                arg=before,
            )
    assert turns == {"Ann", "Ben"}
    page.click("#leave-tutorial")
    page.wait_for_selector("#make-table")
    assert page.evaluate("localStorage.getItem('spieltisch.here')") == "{}"
