"""Riff Raff's 3D table in Debian's Chromium: a whole game against the careful bot placed by
pointing at the ship, catching in and after the catch window, an intruding placement refused,
and screenshots of the ship (checked to show the ship, not a blank canvas).

WebGL runs on SwiftShader (software). Three servers: a quick one for the whole game (the motion
plays 8 times faster), one at real speed with the longest slow motion and catch margin, where a
falling piece is hit in time however busy the machine is, and one at real speed with a short
margin, where the window's own close is checked (it waits for the server, not for a clock).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.server.live import (
    ARTIFACTS,
    BROWSER_TESTS,
    DESKTOP,
    PHONE,
    STEP_TIMEOUT_MS,
    LiveServer,
    start_server,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

QUICK = ["--playback-speed", "8", "--catch-margin", "0.2"]
GENEROUS = ["--playback-speed", "1", "--slow-motion", "20", "--catch-margin", "10"]
REAL = ["--playback-speed", "1", "--slow-motion", "4", "--catch-margin", "0.3"]
MAX_STEPS = 400
CARELESS_CAREFUL = (
    "careful:samples=1:candidates=2:wider=0"  # the careful bot, thinking less (speed)
)

playwright_api = pytest.importorskip("playwright.sync_api")
sync_client = pytest.importorskip("websockets.sync.client")
pytestmark = [*BROWSER_TESTS, pytest.mark.webgl]

# A falling piece once it is inside the picture (from the tip of a yard it falls into view).
FALLING_IN_SIGHT = """() => {
  const falling = riffraffTable.fallingNow();
  if (!falling || !falling.at || riffraffTable.cameraMoving()) return null;
  const box = document.querySelector('canvas.rr-canvas').getBoundingClientRect();
  const { x, y } = falling.at;
  const inside = x > box.left + 8 && x < box.right - 8 && y > box.top + 8 && y < box.bottom - 8;
  return inside ? falling : null;
}"""

# Counts the canvas's colours: a blank or failed WebGL canvas has one or two.
CANVAS_STATS = """() => {
  const copy = riffraffTable.ship().snapshot();
  const g = copy.getContext('2d');
  const data = g.getImageData(0, 0, copy.width, copy.height).data;
  const colours = new Set();
  let wood = 0, sea = 0, sum = 0, squares = 0;
  const n = data.length / 4;
  for (let i = 0; i < data.length; i += 4) {
    const [r, gr, b] = [data[i], data[i + 1], data[i + 2]];
    colours.add((r >> 3) << 10 | (gr >> 3) << 5 | (b >> 3));
    if (r > gr && gr > b && r - b > 50 && r < 200) wood += 1;
    if (b > r + 50 && b > gr) sea += 1;
    const grey = (r + gr + b) / 3;
    sum += grey; squares += grey * grey;
  }
  const mean = sum / n;
  const spread = Math.sqrt(squares / n - mean * mean);
  return { colours: colours.size, wood: wood / n, sea: sea / n, spread };
}"""


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with start_server(tmp_path_factory.mktemp("rr-quick"), 0.02, extra=QUICK) as live:
        yield live


@pytest.fixture(scope="module")
def generous(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with start_server(tmp_path_factory.mktemp("rr-generous"), 0.02, extra=GENEROUS) as live:
        yield live


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with start_server(tmp_path_factory.mktemp("rr-real"), 0.02, extra=REAL) as live:
        yield live


def open_page(browser: Browser, url: str, phone: bool = False) -> Any:
    size = PHONE if phone else DESKTOP
    page = browser.new_context(locale="en-GB", viewport=size, has_touch=phone).new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.goto(url)
    return page


def shot_of_the_ship(page: Page, name: str, whole: bool = True) -> dict[str, float]:
    """Save a screenshot and check that the canvas shows the ship (`whole`: on its waves;
    else a close look at the area being loaded)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    stats: dict[str, float] = page.evaluate(CANVAS_STATS)
    assert stats["colours"] > (100 if whole else 40) and stats["spread"] > 15, stats
    assert stats["wood"] > 0.01 and (stats["sea"] > 0.01 or not whole), stats
    return stats


def version(page: Page) -> str:
    return str(page.evaluate("document.body.dataset.version || ''"))


def wait_ready(page: Page) -> None:
    page.wait_for_function("window.riffraffTable && window.riffraffTable.ready()")


# --- a table with two seats: the page plays seat 0, a scripted client seat 1 -------------------
def seated_table(server: LiveServer, page: Page) -> dict[str, str]:
    """A two-person table (seat 0 in the page) where seat 0 is captain and loads area 9."""
    body = {
        "game": "riffraff",
        "seats": [{"bot": None}, {"bot": None}],
        "seed": 11,
        "options": {"start_seat": 0, "steadiness": "0"},
    }
    table = httpx.post(server.url + "api/tables", json=body).json()["id"]
    tokens = [
        httpx.post(server.url + f"api/tables/{table}/join", json={"name": n, "seat": i}).json()[
            "token"
        ]
        for i, n in enumerate(("Ada", "Ben"))
    ]
    page.evaluate(f"localStorage.setItem('spieltisch.tokens', '{json.dumps({table: tokens[0]})}')")
    page.goto(server.url + f"#/t/{table}")
    wait_ready(page)
    page.click(".rr-panels [data-action='card 9']")
    play_as(server, table, tokens[1], "card 1")
    page.wait_for_selector(".rr-panels [data-piece]")
    return {"table": table, "token": tokens[0]}


def socket_url(server: LiveServer, table: str, token: str) -> str:
    return server.url.replace("http", "ws", 1) + f"api/tables/{table}/ws?token={token}"


def play_as(server: LiveServer, table: str, token: str, action: str) -> None:
    """A scripted player: sends `action` once it is that seat's turn."""
    with sync_client.connect(socket_url(server, table, token)) as ws:
        while True:
            message = json.loads(ws.recv())
            if message["type"] == "state" and message["to_move"] == message["you"]:
                answer = {"type": "action", "action": action, "version": message["version"]}
                ws.send(json.dumps(answer))
                return


def send_raw(server: LiveServer, table: str, token: str, action: str, at: int) -> dict[str, Any]:
    """A changed client: sends `action` at table version `at`, returns the first answer."""
    with sync_client.connect(socket_url(server, table, token)) as ws:
        json.loads(ws.recv())  # the state on connecting
        ws.send(json.dumps({"type": "action", "action": action, "version": at}))
        while True:
            message: dict[str, Any] = json.loads(ws.recv())
            if message["type"] in ("error", "state"):
                return message


def point_and_click(page: Page, area: int, u: float, v: float) -> None:
    page.wait_for_function("!riffraffTable.cameraMoving()")
    at = page.evaluate(f"riffraffTable.screenOf({area}, {u}, {v})")
    page.mouse.move(at["x"], at["y"])
    page.mouse.click(at["x"], at["y"])


def drop_a_barrel(page: Page) -> int:
    """Place a barrel on the very tip of yard 9 (it rolls off); the version it fell at."""
    page.click("[data-piece='barrel']")
    before = version(page)
    point_and_click(page, 9, 1.05, 0.0)  # past the tip: the ghost stays on the tip (u = 1)
    page.wait_for_function("v => document.body.dataset.version !== v", arg=before)
    page.wait_for_function("riffraffTable.phase() === 'catch'")
    return int(version(page))


# --- the tests -------------------------------------------------------------------------------
def test_catching_a_falling_piece_in_slow_motion(browser: Browser, generous: LiveServer) -> None:
    page = open_page(browser, generous.url)
    seated_table(generous, page)
    drop_a_barrel(page)
    falling = page.wait_for_function(FALLING_IN_SIGHT).json_value()
    page.mouse.click(falling["at"]["x"], falling["at"]["y"])
    shot_of_the_ship(page, "riffraff-falling")
    page.wait_for_function("riffraffTable.phase() !== 'catch'")
    assert "Ada catches only their own barrel" in page.inner_text(".log")  # the one placed


def test_a_catch_after_the_window_is_refused(browser: Browser, real: LiveServer) -> None:
    page = open_page(browser, real.url)
    seat = seated_table(real, page)
    caught_at = drop_a_barrel(page)
    [body] = page.evaluate("riffraffTable.lastFalls()")
    page.wait_for_function("!riffraffTable.playing()")
    at = page.evaluate(f"riffraffTable.ship().screenOfPiece({body})")
    page.mouse.click(at["x"], at["y"])  # the piece has landed: the page sends nothing
    page.wait_for_function("riffraffTable.phase() !== 'catch'")  # the server closed the window
    assert "Ada catches nothing." in page.inner_text(".log")
    after = version(page)
    answer = send_raw(real, seat["table"], seat["token"], f"catch {body}", caught_at)
    assert answer["type"] == "error" and answer["code"] == "too_late", answer
    assert answer["version"] == int(after) and version(page) == after


def test_an_intruding_placement_is_refused(browser: Browser, real: LiveServer) -> None:
    page = open_page(browser, real.url)
    seat = seated_table(real, page)
    page.click("[data-piece='plank']")
    page.wait_for_function("!riffraffTable.cameraMoving()")
    centre = page.evaluate("riffraffTable.screenOf(9, 0.7, 0)")
    page.mouse.move(centre["x"], centre["y"])
    page.mouse.wheel(0, 100)  # the wheel turns the piece
    page.keyboard.press("e")  # and so does E
    assert page.evaluate("riffraffTable.placing().yaw") == 30
    # where the ghost is, in plain words (not coordinates)
    assert (
        page.inner_text("#rr-ghost-state")
        == "Here: at the end of the yard, in the middle, turned 30°"
    )
    before = version(page)
    intruding = "{piece: 'plank', u: 0.05, v: 0, yaw: 0, face: 'up'}"
    assert page.evaluate(f"riffraffTable.sendPlacement({intruding}, false)") is False
    assert page.evaluate("riffraffTable.placing().bad.where") == "mast"  # the ghost is red
    assert "past the mast" in page.inner_text("#rr-ghost-state")
    shot_of_the_ship(page, "riffraff-ghost-red", whole=False)
    page.evaluate("document.getElementById('notice').hidden = true")  # the ghost's notice
    page.evaluate(f"riffraffTable.sendPlacement({intruding}, true)")  # a changed client
    page.wait_for_function("document.querySelector('#notice:not([hidden])')")
    notice = page.inner_text("#notice")
    assert "not allowed" in notice and "past the mast" in notice, notice
    assert version(page) == before
    answer = send_raw(real, seat["table"], seat["token"], "place plank u=0.05", int(before))
    assert answer["code"] == "illegal_action"


def take_a_turn(page: Page) -> bool:
    """One step of the person by clicking; False once the result is shown."""
    page.wait_for_function(
        "document.querySelector('#result') || (riffraffTable.ready() && !riffraffTable.playing()"
        " && document.querySelector('.rr-panels [data-action], .rr-panels [data-piece]'))"
    )
    if page.query_selector("#result"):
        return False
    before = version(page)
    if page.query_selector(".rr-panels [data-piece]"):
        if not page.query_selector(".rr-piece.chosen"):
            page.click(".rr-panels [data-piece]")
        point_and_click(page, page.evaluate("riffraffTable.area()"), 0.75, 0.0)
    elif page.query_selector(".rr-panels [data-action='two']"):
        page.click(".rr-panels [data-action='two']")  # two pieces: the game ends sooner
    else:
        page.click(".rr-panels [data-action]")
    page.wait_for_function(
        "v => document.body.dataset.version !== v || !!document.querySelector('#result')",
        arg=before,
    )
    return True


def test_a_whole_game_against_the_careful_bot(browser: Browser, quick: LiveServer) -> None:
    page = open_page(browser, quick.url)
    body = {"game": "riffraff", "seats": [{"bot": None}, {"bot": CARELESS_CAREFUL}], "seed": 3}
    table = httpx.post(quick.url + "api/tables", json=body).json()
    assert table["options"]["catching"] == "choose"
    page.goto(quick.url + f"#/t/{table['id']}")
    page.fill("#join-name", "Cleo")
    page.click(".seat button")
    page.wait_for_selector(".seat.mine")
    bot_seat = page.locator(".seat:not(.mine) .seat-name")
    assert bot_seat.inner_text() == "bot careful"  # its settings only on hover
    assert bot_seat.get_attribute("title") == CARELESS_CAREFUL
    wait_ready(page)
    steps = 0
    while take_a_turn(page):
        steps += 1
        if steps == 12:
            page.check("#rr-easy")  # easy mode: the cargo's centre of mass is marked
            shot_of_the_ship(page, "riffraff-playing")
        assert steps < MAX_STEPS, "the game did not end"
    page.wait_for_function("!riffraffTable.playing() && !riffraffTable.cameraMoving()")
    shot_of_the_ship(page, "riffraff-result")
    assert page.inner_text("#result .winner")
    assert page.get_attribute("#rr-heel", "data-roll") is not None
    # the score says what it counts: pieces got rid of (more is better), and pieces left
    headings = page.locator("#result th").all_inner_texts()
    assert headings == ["Player", "Pieces got rid of", "Pieces left"]
    assert page.locator("#result .result-left").count() == 2
    assert " left" in page.inner_text(".seat.mine .score")
    page.screenshot(path=str(ARTIFACTS / "riffraff-result-page.png"), full_page=True)


def test_the_ship_on_a_phone(browser: Browser, quick: LiveServer) -> None:
    page = open_page(browser, quick.url, phone=True)
    body = {"game": "riffraff", "seats": [{"bot": None}, {"bot": CARELESS_CAREFUL}], "seed": 4}
    table = httpx.post(quick.url + "api/tables", json=body).json()
    page.goto(quick.url + f"#/t/{table['id']}")
    wait_ready(page)
    page.wait_for_function("!riffraffTable.playing()")
    stats = shot_of_the_ship(page, "riffraff-phone")
    width = page.evaluate("document.querySelector('canvas.rr-canvas').clientWidth")
    assert width <= 390 and stats["colours"] > 100


def test_placing_and_catching_by_keyboard(browser: Browser, generous: LiveServer) -> None:
    page = open_page(browser, generous.url)
    seated_table(generous, page)
    page.click("[data-piece='barrel']")
    page.wait_for_function("!riffraffTable.cameraMoving()")
    page.keyboard.press("ArrowDown")  # from u 0.6 ...
    for _ in range(10):
        page.keyboard.press("ArrowUp")  # ... to the tip (u 1): the barrel will roll off
    page.keyboard.press("Shift+ArrowLeft")
    placing = page.evaluate("riffraffTable.placing()")
    assert placing["u"] == 1 and abs(placing["v"] - 0.01) < 1e-9 and placing["shown"]
    before = version(page)
    page.keyboard.press("Enter")
    page.wait_for_function("v => document.body.dataset.version !== v", arg=before)
    page.wait_for_function("riffraffTable.phase() === 'catch' && riffraffTable.fallingNow()")
    page.keyboard.press(" ")  # Space catches the piece that lands next
    page.wait_for_function("riffraffTable.phase() !== 'catch'")
    log = page.inner_text(".log")
    assert "Ada loads a barrel onto area 9." in log
    assert "Ada catches only their own barrel" in log
