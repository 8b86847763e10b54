"""How Riff Raff's ship is drawn, in Debian's Chromium (WebGL on SwiftShader): each cargo type's
look stays inside its physics box and is told apart from the others, the whole ship is in the
picture at desktop and phone size (also when the camera turns towards the area being loaded),
the heel meter lies outside the picture, and the picture is antialiased with soft shadows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.server.live import (
    ARTIFACTS,
    BROWSER_TESTS,
    SIZES,
    LiveServer,
    Motion,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [*BROWSER_TESTS, pytest.mark.webgl, pytest.mark.live_server(bot_delay=0.5)]

# Each cargo type's drawn size and centre against its physics box, and what tells it apart.
LOOKS = """async () => {
  const looks = await import('/games/riffraff_looks.js');
  const THREE = await import('three');
  return riffraffTable.ship().data.pieces.map((spec) => {
    const geometry = looks.cargoGeometry(spec);
    geometry.computeBoundingBox();
    const box = geometry.boundingBox;
    const colours = new Set();
    const key = (r, g, b) => [r, g, b].map((x) => x.toFixed(3)).join();
    const c = geometry.attributes.color.array;
    for (let i = 0; i < c.length; i += 3) colours.add(key(c[i], c[i + 1], c[i + 2]));
    const main = new THREE.Color(spec.colour);
    return {
      name: spec.name,
      physics: spec.size,
      drawn: box.getSize(new THREE.Vector3()).toArray(),
      centre: box.getCenter(new THREE.Vector3()).toArray(),
      vertices: geometry.attributes.position.count,
      colours: colours.size,
      main: colours.has(key(main.r, main.g, main.b)),
    };
  });
}"""

# Screen boxes of the canvas and the heel meter, and the screen box of every point drawn of the
# hull, mast (with stem, bowsprit and pennant) and yards as they are now (not the ball's rod).
PICTURE = """() => {
  const ship = riffraffTable.ship();
  const canvas = ship.canvas.getBoundingClientRect();
  const heel = document.getElementById('rr-heel').getBoundingClientRect();
  const [hull, , rigging, pennant] = ship.pitch.children;
  const meshes = [hull, rigging, pennant, ...ship.yards.map((yard) => yard.children[0])];
  const drawn = { left: Infinity, right: -Infinity, top: Infinity, bottom: -Infinity };
  const point = ship.camera.position.clone();
  for (const mesh of meshes) {
    mesh.updateWorldMatrix(true, false);
    const p = mesh.geometry.attributes.position;
    for (let i = 0; i < p.count; i += 1) {
      point.fromBufferAttribute(p, i).applyMatrix4(mesh.matrixWorld);
      if (point.z < ship.data.ship.pivot_height - 0.06) continue;
      const { x, y } = ship.screenOfPoint(point);
      Object.assign(drawn, { left: Math.min(drawn.left, x), right: Math.max(drawn.right, x),
        top: Math.min(drawn.top, y), bottom: Math.max(drawn.bottom, y) });
    }
  }
  const rect = (r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom });
  return { canvas: rect(canvas), heel: rect(heel), drawn };
}"""


def ship_page(
    browser: Browser, server: LiveServer, size: str, motion: Motion = "no-preference"
) -> Any:
    """A table of a person's empty seat and a bot, watched (nobody moves: the ship rests), with
    the system's motion setting `motion` ("no-preference" or "reduce")."""
    body = {"game": "riffraff", "seats": [{"bot": None}, {"bot": None}], "seed": 2}
    table = httpx.post(server.url + "api/tables", json=body).json()["id"]
    context = browser.new_context(locale="en-GB", viewport=SIZES[size], reduced_motion=motion)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(server.url + f"#/t/{table}")
    page.wait_for_function("window.riffraffTable && riffraffTable.ready()")
    page.wait_for_function("!riffraffTable.cameraMoving()")
    return page


def assert_whole_ship_shown(page: Page) -> None:
    seen = page.evaluate(PICTURE)
    canvas, heel, drawn = seen["canvas"], seen["heel"], seen["drawn"]
    assert heel["top"] >= canvas["bottom"] - 0.5, (heel, canvas)  # the meter is under the picture
    assert canvas["left"] <= drawn["left"] and drawn["right"] <= canvas["right"], seen
    assert canvas["top"] <= drawn["top"] and drawn["bottom"] <= canvas["bottom"], seen


def test_each_cargo_look_fits_its_physics_box(browser: Browser, server: LiveServer) -> None:
    page = ship_page(browser, server, "desktop")
    looks = page.evaluate(LOOKS)
    names = ["boat", "barrel", "flacon", "box", "sailor", "plank", "rat", "chest"]
    assert [look["name"] for look in looks] == names
    for look in looks:
        sizes = zip(look["drawn"], look["physics"], look["centre"], strict=True)
        for drawn, physics, centre in sizes:
            # what is drawn is where the simulation has it: at most 1 mm over, at least 85 % full
            assert 0.85 * physics <= drawn <= physics + 0.001, look
            assert abs(centre) <= 0.0015, look
        assert look["colours"] >= 2 and look["main"], look  # details in colour, the type's colour
    assert len({look["vertices"] for look in looks}) == len(looks)  # eight different shapes


@pytest.mark.parametrize("size", list(SIZES))
def test_the_whole_ship_is_in_the_picture(browser: Browser, server: LiveServer, size: str) -> None:
    page = ship_page(browser, server, size)
    assert_whole_ship_shown(page)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"riffraff-ship-{size}.png"))
    start = page.evaluate("riffraffTable.ship().camera.position.toArray()")
    page.evaluate("riffraffTable.ship().focus(9, false)")  # a port yard is being loaded
    page.wait_for_function("!riffraffTable.cameraMoving()")
    turned = page.evaluate("riffraffTable.ship().camera.position.toArray()")
    assert turned[1] > start[1] + 0.05  # the camera swung towards port
    assert_whole_ship_shown(page)


def test_antialiased_with_soft_shadows(browser: Browser, server: LiveServer) -> None:
    page = ship_page(browser, server, "phone")
    found = page.evaluate(
        """() => {
          const ship = riffraffTable.ship();
          const light = ship.scene.children.find((c) => c.castShadow && c.shadow);
          return { samples: ship.samples(), shadows: ship.renderer.shadowMap.enabled,
                   radius: light.shadow.radius };
        }"""
    )
    assert found["samples"] >= 4, found  # the ship at rest: four samples a pixel
    assert found["shadows"] and found["radius"] > 1, found


# The camera turned to a port yard: where it is right after, whether it glides, and where it is
# some frames later (the area is loaded, so the view is final).
TURN_TO_PORT = """async () => {
  const ship = riffraffTable.ship();
  const before = ship.camera.position.toArray();
  ship.focus(9, false);
  const at = ship.camera.position.toArray();
  const gliding = riffraffTable.cameraMoving();
  const end = riffraffTable.frames() + 20;
  await new Promise((done) => {
    const wait = () => (riffraffTable.frames() > end ? done() : requestAnimationFrame(wait));
    wait();
  });
  const later = ship.camera.position.toArray();
  return { before, at, gliding, later, damping: ship.controls.enableDamping };
}"""


@pytest.mark.parametrize("motion", ["full", "system", "switch"])
def test_the_camera_cuts_with_reduced_motion(
    browser: Browser, server: LiveServer, motion: str
) -> None:
    """The system's reduced motion, or the page's own switch: the camera cuts to a new view, no
    sweep, and no drifting on after a drag; otherwise it glides there."""
    page = ship_page(
        browser, server, "desktop", "reduce" if motion == "system" else "no-preference"
    )
    if motion == "switch":
        page.check("#reduce-motion")
    turn = page.evaluate(TURN_TO_PORT)
    before, at, later = turn["before"], turn["at"], turn["later"]
    assert later[1] > before[1] + 0.05, turn  # the camera swung towards port in the end
    if motion == "full":
        assert turn["gliding"] and at == before and turn["damping"], turn
    else:
        assert not turn["gliding"] and at == pytest.approx(later, abs=1e-6), turn
        assert not turn["damping"], turn


def test_pointing_at_a_card_lights_and_names_its_area(browser: Browser, server: LiveServer) -> None:
    """In the guided game's first round, hovering each card lights its area on the ship (and
    only that one), turns the camera to its side and names it; a screenshot per area."""
    context = browser.new_context(locale="en-GB", viewport=SIZES["desktop"])
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(server.url)
    page.click("#learn-riffraff")
    page.wait_for_function("window.riffraffTable && riffraffTable.ready()")
    page.wait_for_selector(".rr-hand [data-action^='card ']")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for card in range(1, 11):
        page.hover(f"[data-action='card {card}']")
        page.wait_for_function("!riffraffTable.cameraMoving()")
        lit = page.evaluate("riffraffTable.ship().areaMarks.map((mark) => mark.visible)")
        assert lit == [area == card for area in range(1, 11)], (card, lit)
        assert page.inner_text("#rr-card-area").startswith(f"Card {card} loads here: ")
        page.locator(".rr-layout").screenshot(path=str(ARTIFACTS / f"riffraff-area-{card}.png"))
    page.mouse.move(5, 5)
    assert page.inner_text("#rr-card-area") == ""
    assert not any(page.evaluate("riffraffTable.ship().areaMarks.map((mark) => mark.visible)"))
    context.close()


# The screen box of an area's four corners and of the canvas, the camera having glided to the
# close look at that area (the look a person placing there gets), the area lit as it is then.
CLOSE_LOOK = """async (area) => {
  const ship = riffraffTable.ship();
  ship.highlight(area);
  ship.focus(area, true);
  await new Promise((done) => {
    const wait = () => (riffraffTable.cameraMoving() ? requestAnimationFrame(wait) : done());
    wait();
  });
  const corners = [[0, -1], [0, 1], [1, 1], [1, -1]].map(([u, v]) => ship.screenOf(area, u, v));
  const xs = corners.map((c) => c.x), ys = corners.map((c) => c.y);
  let twice = 0; // the corners' quadrilateral on the screen, by the shoelace formula
  corners.forEach((c, i) => {
    const d = corners[(i + 1) % 4];
    twice += c.x * d.y - d.x * c.y;
  });
  const box = ship.canvas.getBoundingClientRect();
  return { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys),
           bottom: Math.max(...ys), share: Math.abs(twice) / 2 / (box.width * box.height),
           canvas: { left: box.left, right: box.right, top: box.top, bottom: box.bottom } };
}"""


AREA_SHARE = 0.015
"""The least share of the picture any area covers in its close look at desktop size (a deck
quarter seen from above its outer end 3.6 %, a yard's half from fore or aft 1.6 % to 2.1 %; the
deck quarters seen from farther and lower covered 1.4 %, yards seen along their length less
than 0.7 %)."""


@pytest.mark.parametrize("size", list(SIZES))
def test_each_area_is_seen_well_when_loaded(
    browser: Browser, server: LiveServer, size: str
) -> None:
    """The close look at each area shows all of it, big enough to aim at: a deck quarter from
    above its outer end, a yard from fore or aft and above (along it, it would be a sliver at
    the edge); a screenshot each, the area lit."""
    page = ship_page(browser, server, size, "reduce")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for area in range(1, 11):
        seen = page.evaluate(CLOSE_LOOK, area)
        page.locator("canvas.rr-canvas").screenshot(
            path=str(ARTIFACTS / f"riffraff-close-{area}-{size}.png")
        )
        canvas = seen["canvas"]
        assert canvas["left"] <= seen["left"] and seen["right"] <= canvas["right"], (area, seen)
        assert canvas["top"] <= seen["top"] and seen["bottom"] <= canvas["bottom"], (area, seen)
        assert seen["share"] >= AREA_SHARE, (area, seen["share"])
    page.context.close()
