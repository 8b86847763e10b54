"""Screenshots of each game mid-game at desktop (1280x900) and phone (390x844) size.

The page plays seat 1 against a bot with a fixed policy and seeded dice until the table has
something to show, then the same seat is shown on a phone. With SPIELTISCH_SCREENSHOTS set
(e.g. `SPIELTISCH_SCREENSHOTS=docs/screenshots`) they are written there, as the README shows
them; otherwise into artifacts/browser/screenshots/. They are reduced to a palette of 128
colours to keep the files small.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.server.browsing import badges, pickomino_choice
from tests.server.live import (
    ARTIFACTS,
    BROWSER_TESTS,
    SIZES,
    STEP_TIMEOUT_MS,
    LiveServer,
)
from tests.server.test_riffraff_browser import QUICK, take_a_turn, wait_ready

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

ROOT = Path(__file__).resolve().parents[2]
MAX_MOVES = 400
COLOURS = 128

pytest.importorskip("playwright.sync_api")
pytest.importorskip("websockets.sync.client")
image = pytest.importorskip("PIL.Image")
pytestmark = [
    *BROWSER_TESTS,
    pytest.mark.webgl,
    pytest.mark.live_server(bot_delay=0.02, extra=QUICK),
]


def target() -> Path:
    chosen = os.environ.get("SPIELTISCH_SCREENSHOTS")
    folder = ROOT / chosen if chosen else ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_page(browser: Browser, url: str, size: str, storage: dict[str, str] | None = None) -> Any:
    """A page at `size`, without motion (a still picture), with `storage` in localStorage
    (another page's seat tokens and settings)."""
    context = browser.new_context(locale="en-GB", viewport=SIZES[size], reduced_motion="reduce")
    if storage:
        context.add_init_script(
            f"Object.entries({json.dumps(storage)}).forEach(([k, v]) => localStorage.setItem(k, v))"
        )
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.goto(url)
    return page


def seated(browser: Browser, server: LiveServer, game: str, bot: str, seed: int) -> Any:
    body = {"game": game, "seats": [{}, {"bot": bot}], "seed": seed, "pace": "instant"}
    table = httpx.post(server.url + "api/tables", json=body).json()["id"]
    page = open_page(browser, server.url + f"#/t/{table}", "desktop")
    page.fill("#join-name", "Robin")
    page.click(".seat button")
    page.wait_for_selector(".seat.mine")
    return page


def play_until(page: Page, ready: Callable[[Any], bool], move: Callable[[Any], str]) -> None:
    """Click the policy's moves until `ready(page)` holds at the own move."""
    for _ in range(MAX_MOVES):
        page.wait_for_selector(".board button[data-action]")
        if ready(page):
            return
        before = page.evaluate("document.body.dataset.version")
        page.click(f".board button[data-action='{move(page)}']")
        page.wait_for_function("v => document.body.dataset.version !== v", arg=before)
    raise AssertionError("the table never got to a picture worth showing")


def save(page: Page, name: str) -> Path:
    path = target() / f"{name}.png"
    page.mouse.move(0, 0)  # no button under the pointer looks hovered
    page.screenshot(path=str(path))
    with image.open(path) as shot:
        small = shot.convert("RGB").quantize(COLOURS)
    small.save(path, optimize=True)
    return path


def on_phone(browser: Browser, desktop: Any, ready: str) -> Any:
    """The same seat on a phone, scrolled to the board."""
    phone = open_page(browser, desktop.url, "phone", desktop.evaluate("({...localStorage})"))
    phone.wait_for_selector(ready)
    phone.evaluate("document.querySelector('.board').scrollIntoView()")
    return phone


def pickomino_ready(page: Page) -> bool:
    """Tiles on both stacks, dice set aside and a roll to choose from."""
    stacks = len(page.query_selector_all(".stack .tile"))
    chosen = page.query_selector(".kept .die") and page.query_selector(".dice-group.choosable")
    return stacks == 2 and bool(chosen)


def test_pickomino(browser: Browser, server: LiveServer) -> None:
    page = seated(browser, server, "pickomino", "greedy", 21)
    play_until(page, pickomino_ready, pickomino_choice)
    page.check("#odds")
    page.wait_for_selector(".odds-note")
    sizes = [save(page, "pickomino-desktop").stat().st_size]
    phone = on_phone(browser, page, ".odds-note")
    sizes.append(save(phone, "pickomino-phone").stat().st_size)
    assert all(size > 10_000 for size in sizes), sizes  # a picture, not an empty page


def karolinchen_ready(page: Page) -> bool:
    """The own choice, with a card that takes two dice or more and worms that have grown."""
    eaten = len(page.query_selector_all(".kc-segment.eaten, .kc-segment.covered"))
    return eaten >= 10 and max(badges(page).values(), default=0) >= 2


def lay_the_best(page: Page) -> str:
    shown = badges(page)
    return f"lay {max(shown, key=lambda f: shown[f])}"


def test_karolinchen(browser: Browser, server: LiveServer) -> None:
    page = seated(browser, server, "karolinchen", "expert", 8)
    play_until(page, karolinchen_ready, lay_the_best)
    sizes = [save(page, "karolinchen-desktop").stat().st_size]
    phone = on_phone(browser, page, ".kc-gain")
    sizes.append(save(phone, "karolinchen-phone").stat().st_size)
    assert all(size > 10_000 for size in sizes), sizes


def test_riffraff(browser: Browser, server: LiveServer) -> None:
    body = {"game": "riffraff", "seats": [{}, {"bot": "careful"}], "seed": 5, "pace": "instant"}
    table = httpx.post(server.url + "api/tables", json=body).json()["id"]
    page = open_page(browser, server.url + f"#/t/{table}", "desktop")
    page.fill("#join-name", "Robin")
    page.click(".seat button")
    page.wait_for_selector(".seat.mine")
    wait_ready(page)
    for _ in range(8):
        assert take_a_turn(page), "the game ended before the picture"
    still = "riffraffTable.ready() && !riffraffTable.playing() && !riffraffTable.cameraMoving()"
    page.wait_for_function(f"{still} && !!document.querySelector('.rr-panels [data-action]')")
    sizes = [save(page, "riffraff-desktop").stat().st_size]
    phone = on_phone(browser, page, ".rr-canvas")
    phone.wait_for_function(still)
    sizes.append(save(phone, "riffraff-phone").stat().st_size)
    assert all(size > 10_000 for size in sizes), sizes
