import "./page.js";
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { freshPage } from "./page.js";
import { setLanguage } from "../../src/spieltisch/web/i18n.js";

// The coach takes the server's JSON views, so like the game views it is checked by
// tsconfig.json, not by the strict check of these tests: imported by a computed path.
const COACH = "../../src/spieltisch/web/tutorial.js";
/** @type {{ makeCoach: (...args: any[]) => any }} */
const { makeCoach } = await import(COACH);

beforeEach(freshPage);
afterEach(() => setLanguage("en"));

const NAMES = ["Lea", "Bot"];

/** @param {ParentNode} root @param {string} selector */
const found = (root, selector) => /** @type {HTMLElement} */ (root.querySelector(selector));

/**
 * A Riff Raff state as the server sends it to the learner at seat 0.
 * @param {number} version
 * @param {any} view
 * @param {object} [extra]
 */
function riffraff(version, view, extra = {}) {
  const seats = NAMES.map((name, seat) => ({ seat, name, bot: seat ? "random" : null }));
  return {
    type: "state", version, you: 0, to_move: view.to_move ?? null, result: null, log: [],
    table: { game: "riffraff", title: "Riff Raff", seats }, view, ...extra,
  };
}

const CARDS = { phase: "cards", to_move: 0, captain: null, active: null, cards: { latest: [null, null] } };
const BOT_PLACES = { phase: "place", to_move: 1, captain: 1, active: 1, cards: { latest: [3, 7] } };
const LEARNER_CATCHES = { phase: "catch", to_move: 0, captain: 0, active: 0, cards: { latest: [7, 3] } };

/** A coach whose page shows what it is handed, as the table page does. */
function coachWithPage() {
  /** @type {any[]} */
  const shown = [];
  const page = /** @type {{ coach: any, before: any }} */ ({ coach: null, before: null });
  const show = (/** @type {any} */ message) => {
    shown.push(message);
    if (message.type === "state") {
      page.coach.observe(page.before, message, message.log, NAMES);
      page.before = message;
    }
  };
  page.coach = makeCoach("t1", show, () => {}, () => {});
  const coach = page.coach;
  return { coach, shown };
}

test("while an explanation is open, the bot's motion and moves wait, so the log cannot run ahead", () => {
  const { coach, shown } = coachWithPage();
  coach.offer(riffraff(1, CARDS));
  assert.ok(coach.lesson(), "the welcome is open");
  const motion = { type: "settle", catch: null, falls: [] };
  coach.offer(motion);
  coach.offer(riffraff(2, BOT_PLACES));
  assert.deepEqual(shown.map((m) => m.type), ["state"], "the bot's motion and move are held");
  const panel = coach.panel("Riff Raff", NAMES);
  assert.match(panel.textContent, /The game waits until you have read this/);
  coach.stop();
});

test("the learner's own catch is never held, and 'Catch!' comes first, before 'Cargo falls!'", () => {
  const { coach, shown } = coachWithPage();
  coach.offer(riffraff(1, CARDS));
  coach.offer({ type: "settle", catch: { seat: 0, closes_in: 9, deadlines: {} }, falls: [[3, 1, 0.5]] });
  const fell = { seq: 5, key: "chance", args: { fell: [3] } };
  coach.offer(riffraff(2, LEARNER_CATCHES, { log: [fell] }));
  assert.deepEqual(shown.map((m) => m.type), ["state", "settle", "state"], "shown at once");
  assert.match(String(coach.lesson()), /tap or click pieces while they fall/);
  const panel = coach.panel("Riff Raff", NAMES);
  assert.equal(found(panel, "#coach-lesson").textContent, "Catch!");
  coach.stop();
});

test("an explanation outlines the control it talks about", () => {
  const { coach } = coachWithPage();
  coach.offer(riffraff(1, CARDS));
  coach.panel("Riff Raff", NAMES);
  assert.equal(found(document, "#coach-style").textContent, "");  // the welcome points at nothing
  const panel = coach.panel("Riff Raff", NAMES);
  document.body.append(panel);
  found(panel, "#coach-ok").click();
  coach.panel("Riff Raff", NAMES);
  assert.match(found(document, "#coach-style").textContent, /\.rr-hand/);
  coach.stop();
  assert.equal(found(document, "#coach-style").textContent, "");
});

test("at the game's end the coach says who won and offers the way back, not 'play on'", () => {
  const { coach } = coachWithPage();
  const over = { phase: "over", to_move: null, captain: null, active: null, cards: { latest: [1, 2] } };
  coach.offer(riffraff(1, over, { result: { winners: [0], scores: [30, 21], replaced_by_bot: [] } }));
  const seen = [];
  for (let i = 0; i < 5 && coach.lesson(); i += 1) {
    const panel = coach.panel("Riff Raff", NAMES);
    seen.push(found(panel, "#coach-lesson").textContent);
    found(panel, "#coach-ok").click();
  }
  const panel = coach.panel("Riff Raff", NAMES);
  assert.ok(seen.includes("Game over"), seen.join(", "));
  assert.equal(panel.querySelector("#coach-idle"), null);
  assert.equal(found(panel, "#coach-finish").textContent, "You won!");
  assert.match(panel.textContent, /Lea won/);
  assert.ok(panel.querySelector("#coach-lobby"));
  coach.stop();
});

test("a page opened mid-game explains what happens from then on, not the log's past", () => {
  const { coach } = coachWithPage();
  const past = { seq: 40, key: "chance", args: { fell: [3], caught: [3], seat: 1 } };
  coach.offer(riffraff(41, CARDS, { log: [past] }));
  const titles = [];
  for (let i = 0; i < 5 && coach.lesson(); i += 1) {
    const panel = coach.panel("Riff Raff", NAMES);
    titles.push(found(panel, "#coach-lesson").textContent);
    found(panel, "#coach-ok").click();
  }
  assert.deepEqual(titles, ["Load the ship", "Choose a card"]);
  const now = { seq: 41, key: "chance", args: { fell: [5], caught: [], seat: 1 } };
  coach.offer(riffraff(42, CARDS, { log: [now] }));
  assert.equal(found(coach.panel("Riff Raff", NAMES), "#coach-lesson").textContent, "Cargo falls!");
  coach.stop();
});
