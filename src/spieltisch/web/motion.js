// Motion that tells what happened: dice tumbling, a tile sliding to its new place, dice
// flying onto a card. The "reduce motion" switch (kept in this browser; at first the
// system's choice) turns all of it off. Nothing here waits: input is never held up.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "spieltisch.motion";

// asked when needed (not at import), so the module's bookkeeping can be tested outside a browser
function systemSetting() {
  return window.matchMedia("(prefers-reduced-motion: reduce)");
}

function chosen() {
  const saved = localStorage.getItem(KEY);
  return saved === null ? systemSetting().matches : saved === "reduce";
}

function apply() {
  document.documentElement.classList.toggle("reduce-motion", chosen());
}

export function moving() {
  return !document.documentElement.classList.contains("reduce-motion");
}

// The header's switch; follows the system setting until the person sets it here.
export function motionSwitch() {
  apply();
  const box = h("input", { type: "checkbox", id: "reduce-motion", checked: chosen(), onchange: () => {
    localStorage.setItem(KEY, box.checked ? "reduce" : "full");
    apply();
  } });
  systemSetting().addEventListener("change", () => {
    apply();
    box.checked = chosen();
  });
  return h("label", { class: "motion-switch" }, box, h("span", { "data-i18n": "app.reduce_motion", text: t("app.reduce_motion") }));
}

// Motions still under way, by key: a redraw in the middle goes on where the motion was.
/** @type {Map<string, number>} */
const started = new Map();

/**
 * Play `keyframes` on `node`, or their rest when the motion `key` began in an earlier drawing.
 * @param {Pick<Element, "animate"> | null | undefined} node
 * @param {string} key
 * @param {Keyframe[]} keyframes
 * @param {number} duration ms
 */
export function playMotion(node, key, keyframes, duration) {
  if (!moving() || !node) return;
  const now = performance.now();
  if (!started.has(key)) started.set(key, now);
  if (started.size > 100) forgetOld(now);
  const elapsed = now - (started.get(key) ?? now);
  if (elapsed >= duration) return;
  node.animate(keyframes, { duration, delay: -elapsed, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
}

/** @param {number} now */
function forgetOld(now) {
  for (const [key, time] of started) if (now - time > 60_000) started.delete(key);
}

// How long ago (ms) the roll `key` was first drawn in `scope`, while its dice still tumble;
// null after that. A redraw in the middle lets the dice go on from where they were.
const ROLL_MS = 1200;
/** @type {Map<string, { key: string, since: number }>} */
const rolls = new Map();

/**
 * @param {string} scope
 * @param {string} key
 * @returns {number | null}
 */
export function rollAge(scope, key) {
  const now = performance.now();
  const seen = rolls.get(scope);
  if (!seen || seen.key !== key) {
    rolls.set(scope, { key, since: now });
    return 0;
  }
  return now - seen.since < ROLL_MS ? now - seen.since : null;
}

// Keyframes that bring `node` from where `from` (a rectangle) is to its own place.
/**
 * @param {Pick<Element, "getBoundingClientRect">} node
 * @param {Pick<DOMRect, "left" | "top" | "width">} from
 * @returns {Keyframe[]}
 */
export function fromPlace(node, from) {
  const to = node.getBoundingClientRect();
  const scale = to.width ? from.width / to.width : 1;
  return [
    { transform: `translate(${from.left - to.left}px, ${from.top - to.top}px) scale(${scale})`, transformOrigin: "0 0", zIndex: 5 },
    { transform: "none", transformOrigin: "0 0", zIndex: 5 },
  ];
}

// A copy of `picture` flying from rectangle `from` onto `target`, then gone.
/**
 * @param {HTMLElement | SVGElement} picture
 * @param {DOMRect} from
 * @param {Element | null} target
 * @param {number} delay ms
 */
export function flyOnto(picture, from, target, delay) {
  if (!moving() || !target) return;
  const to = target.getBoundingClientRect();
  const size = Math.min(from.height, 48);
  picture.classList.add("flying");
  Object.assign(picture.style, { left: `${from.left + from.width / 2 - size / 2}px`, top: `${from.top + from.height / 2 - size / 2}px`,
    width: `${size}px`, height: `${size}px` });
  document.body.append(picture);
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const scale = Math.max(to.width / size, 0.3);
  const flight = picture.animate([
    { transform: "none", opacity: 1 },
    { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.9 },
  ], { duration: 650, delay, easing: "cubic-bezier(.3,.6,.4,1)", fill: "both" });
  flight.finished.then(() => picture.remove(), () => picture.remove());
}
