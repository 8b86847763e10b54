import "./page.js";
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { freshPage, reducedMotion } from "./page.js";
import { fromPlace, motionSwitch, moving, playMotion, rollAge } from "../../src/spieltisch/web/motion.js";

beforeEach(freshPage);

/** Performance.now() of the tests' own clock, moved by hand. */
let now = 0;

/** @param {import("node:test").TestContext} context */
function clock(context) {
  now = 1_000_000 + Math.random() * 1000;
  context.mock.method(performance, "now", () => now);
}

/** A stand-in for an element that records what it was asked to animate. */
function recorder() {
  /** @type {{ keyframes: Keyframe[], options: KeyframeAnimationOptions }[]} */
  const played = [];
  const node = {
    /** @param {Keyframe[]} keyframes @param {KeyframeAnimationOptions} options */
    animate: (keyframes, options) => {
      played.push({ keyframes, options });
      return /** @type {Animation} */ ({});
    },
  };
  return { node, played };
}

const FRAMES = [{ opacity: 0 }, { opacity: 1 }];

test("a motion starts from its beginning, and a redraw in the middle goes on where it was", (context) => {
  clock(context);
  const { node, played } = recorder();
  playMotion(node, "tile:27", FRAMES, 700);
  now += 300;
  playMotion(node, "tile:27", FRAMES, 700);
  now += 400;
  playMotion(node, "tile:27", FRAMES, 700); // over: not played again
  assert.deepEqual(played.map(({ options }) => -Number(options.delay)), [0, 300]); // begun that long ago
  assert.deepEqual(played.map(({ options }) => options.duration), [700, 700]);
  assert.equal(played[0].keyframes, FRAMES);
});

test("with reduced motion nothing moves, and a missing node is no error", (context) => {
  clock(context);
  const { node, played } = recorder();
  document.documentElement.classList.add("reduce-motion");
  assert.equal(moving(), false);
  playMotion(node, "tile:30", FRAMES, 700);
  assert.equal(played.length, 0);
  document.documentElement.classList.remove("reduce-motion");
  assert.equal(moving(), true);
  playMotion(null, "tile:30", FRAMES, 700);
  playMotion(node, "tile:30", FRAMES, 700);
  assert.equal(played.length, 1);
});

test("a roll tumbles for 1.2 s from when it was first drawn, each scope on its own", (context) => {
  clock(context);
  assert.equal(rollAge("pickomino", "t1:1"), 0);
  now += 500;
  assert.equal(rollAge("pickomino", "t1:1"), 500);
  assert.equal(rollAge("karolinchen", "t2:1"), 0);
  now += 700;
  assert.equal(rollAge("pickomino", "t1:1"), null);
  assert.equal(rollAge("karolinchen", "t2:1"), 700);
  now += 500;
  assert.equal(rollAge("karolinchen", "t2:1"), null);
  assert.equal(rollAge("pickomino", "t1:2"), 0); // the next roll starts again
});

test("fromPlace moves a node from another rectangle to its own, scaled to the other's width", () => {
  const node = { getBoundingClientRect: () => DOMRectLike(100, 50, 40) };
  const [start, end] = fromPlace(node, DOMRectLike(10, 20, 20));
  assert.equal(start.transform, "translate(-90px, -30px) scale(0.5)");
  assert.equal(end.transform, "none");
  const unsized = fromPlace({ getBoundingClientRect: () => DOMRectLike(0, 0, 0) }, DOMRectLike(5, 5, 30));
  assert.equal(unsized[0].transform, "translate(5px, 5px) scale(1)");
});

/** @param {number} left @param {number} top @param {number} width */
function DOMRectLike(left, top, width) {
  return /** @type {DOMRect} */ ({ left, top, width, height: width, right: left + width, bottom: top + width });
}

test("the switch follows the system's setting until the person chooses, and keeps the choice", () => {
  reducedMotion.matches = true;
  const label = motionSwitch();
  const box = /** @type {HTMLInputElement} */ (label.querySelector("input"));
  assert.equal(box.checked, true);
  assert.equal(moving(), false);
  reducedMotion.matches = false; // the system setting changes
  for (const listener of reducedMotion.listeners) listener();
  assert.equal(box.checked, false);
  assert.equal(moving(), true);
  box.checked = true; // the person turns motion off here
  box.dispatchEvent(new Event("change"));
  assert.equal(localStorage.getItem("spieltisch.motion"), "reduce");
  assert.equal(moving(), false);
  for (const listener of reducedMotion.listeners) listener(); // the system no longer decides
  assert.equal(box.checked, true);
  assert.equal(moving(), false);
});
