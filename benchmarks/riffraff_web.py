"""Frames per second of Riff Raff's settle animation in headless Chromium (target: 30).

Starts `spieltisch serve` on a free loopback port with a fresh SQLite file, makes a table of
two `random` bots (their placements are broadcast like anybody's), opens it in Debian's
Chromium as a spectator (WebGL on SwiftShader, the CPU renderer), waits until the bots have
made several placements (cargo on board), then keeps the ship moving for --seconds (the
latest motion played again whenever it ends, while the bots play on) and counts the frames
drawn: at desktop size (1280x900) and at phone size (390x844), one after the other, or at one
size given by --width and --height. Also reports the pixel ratio the scene ended at (it draws
fewer pixels on a device too slow for 30 frames a second, and more again when it has headroom).

Run from the project root after set-up:
    .venv/bin/python benchmarks/riffraff_web.py [--placements 6] [--json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

import httpx

from web_load import HOST, free_port, start_server

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-dev-shm-usage",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--mute-audio",
]
TARGET_FPS = 30
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}

# Counts animation frames for `seconds` while the ship moves (the scene draws one per animation
# frame), starting the latest motion again whenever none plays.
COUNTER = """(seconds) => {
  window.fpsCount = { frames: 0, ms: 0, worst: 0, done: false };
  let last = null;
  const end = performance.now() + seconds * 1000;
  const loop = (now) => {
    if (now >= end) { fpsCount.done = true; return; }
    if (!riffraffTable.playing()) { riffraffTable.replay(); last = null; }
    else {
      if (last !== null) {
        const gap = now - last;
        fpsCount.frames += 1; fpsCount.ms += gap; fpsCount.worst = Math.max(fpsCount.worst, gap);
      }
      last = now;
    }
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
}"""


def measure(placements: int, seconds: float, width: int, height: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    port = free_port()
    url = f"http://{HOST}:{port}/"
    with tempfile.TemporaryDirectory() as data:
        server = start_server(Path(data), port, bot_delay=0.3, site=["--test-hooks"])
        try:
            body = {"game": "riffraff", "seats": [{"bot": "random"}] * 2, "seed": 1}
            table = httpx.post(url + "api/tables", json=body).json()["id"]
            with sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(url + f"#/t/{table}")
                page.wait_for_function("window.riffraffTable && riffraffTable.ready()")
                page.wait_for_function(
                    f"riffraffTable.shows() >= {placements}", timeout=60_000 + 15_000 * placements
                )
                page.evaluate(COUNTER, seconds)
                page.wait_for_function("fpsCount.done", timeout=60_000 + 2_000 * seconds)
                counted: dict[str, float] = page.evaluate("fpsCount")
                shows = int(page.evaluate("riffraffTable.shows()"))
                ratio = float(page.evaluate("riffraffTable.ship().pixelRatio"))
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    moving = counted["ms"] / 1000
    return {
        "placements": shows,
        "frames": int(counted["frames"]),
        "seconds": round(moving, 2),
        "fps": round(counted["frames"] / moving, 1) if moving else 0.0,
        "worst_frame_ms": round(counted["worst"], 1),
        "pixel_ratio": round(ratio, 2),
        "viewport": f"{width}x{height}",
        "target_fps": TARGET_FPS,
    }


def report(quick: bool) -> None:
    """Lines for benchmarks/run.py (skipped without Debian's Chromium)."""
    if not CHROMIUM.exists():
        print("riffraff settle animation in headless Chromium            skipped (no chromium)")
        return
    for name, (width, height) in SIZES.items():
        found = measure(3 if quick else 6, 4 if quick else 8, width, height)
        print(
            f"riffraff settle animation, headless Chromium, {name:<7}   {found['fps']:.0f} fps "
            f"(worst frame {found['worst_frame_ms']:.0f} ms, {found['placements']} placements)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--placements", type=int, default=6, help="placements before (6)")
    parser.add_argument("--seconds", type=float, default=8, help="seconds of motion counted (8)")
    parser.add_argument("--width", type=int, help="one viewport's width in pixels")
    parser.add_argument("--height", type=int, help="one viewport's height in pixels")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit("Debian's chromium is needed: apt-get install chromium")
    if not 1 <= args.placements <= 100:
        raise SystemExit("--placements must be from 1 to 100")
    if not 1 <= args.seconds <= 120:
        raise SystemExit("--seconds must be from 1 to 120")
    if (args.width is None) != (args.height is None):
        raise SystemExit("give both --width and --height, or neither (desktop and phone)")
    sizes = {"custom": (args.width, args.height)} if args.width else SIZES
    found = {name: measure(args.placements, args.seconds, w, h) for name, (w, h) in sizes.items()}
    if args.json:
        print(json.dumps(found))
        return
    for name, each in found.items():
        print(
            f"{name}: {each['fps']} fps over {each['frames']} frames in {each['seconds']} s of "
            f"motion (after {each['placements']} placements, {each['viewport']}, pixel ratio "
            f"{each['pixel_ratio']}, worst frame {each['worst_frame_ms']} ms; "
            f"target {TARGET_FPS})"
        )


if __name__ == "__main__":
    main()
