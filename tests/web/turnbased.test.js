import "./page.js";
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { freshPage } from "./page.js";
import { ALL_STRINGS, setLanguage } from "../../src/spieltisch/web/i18n.js";
import { TURN_BASED_STRINGS } from "../../src/spieltisch/web/i18n_turnbased.js";
import { turnBasedLogText } from "../../src/spieltisch/web/turnbased.js";
import { alarmDue, byTimeLeft, timeLeftText, turnCount } from "../../src/spieltisch/web/turnbased_model.js";

beforeEach(freshPage);
afterEach(() => setLanguage("en"));

/** @param {Partial<import("../../src/spieltisch/web/turnbased_model.js").TimedTable>} fields */
const row = (fields) => ({ table: "t", game: "pickomino", seat: 0, players: ["Ada", "bot"], to_move: "Ada",
  your_turn: true, version: 3, updated: 100, deadline: null, turn_time: null, turn_based: null, ...fields });

test("the strings of turn-based play are part of every language's strings, with the same keys in each", () => {
  const english = Object.keys(TURN_BASED_STRINGS.en).sort();
  for (const [code, strings] of Object.entries(TURN_BASED_STRINGS)) {
    assert.deepEqual(Object.keys(strings).sort(), english, code);
    for (const [key, text] of Object.entries(strings)) assert.equal(ALL_STRINGS[code][key], text, `${code} ${key}`);
  }
});

test("the time left reads in days and hours, hours and minutes, or minutes", () => {
  assert.equal(timeLeftText(3 * 86400 + 5 * 3600 + 59), "3 d 5 h");
  assert.equal(timeLeftText(2 * 3600 + 30 * 60), "2 h 30 min");
  assert.equal(timeLeftText(59.9), "0 min");
  assert.equal(timeLeftText(-5), "0 min");
  setLanguage("de");
  assert.equal(timeLeftText(86400), "1 T. 0 Std.");
});

test("the alarm is due from 80 % of the move's time until it runs out, on the player's turn only", () => {
  const turn = row({ deadline: 1000, turn_time: 100 });
  assert.equal(alarmDue(turn, 979), false);
  assert.equal(alarmDue(turn, 980), true);
  assert.equal(alarmDue(turn, 999), true);
  assert.equal(alarmDue(turn, 1000), false); // over: the rule has its say
  assert.equal(alarmDue({ ...turn, your_turn: false }, 990), false);
  assert.equal(alarmDue(row({}), 990), false); // no clock
});

test("my tables put the player's turns first, the least time left first, and count them", () => {
  const rows = [row({ table: "other", your_turn: false, updated: 500 }), row({ table: "week", deadline: 9000 }),
    row({ table: "hour", deadline: 2000 }), row({ table: "none" })];
  assert.deepEqual(byTimeLeft(rows).map((r) => r.table), ["hour", "week", "none", "other"]);
  assert.equal(turnCount(rows), 3);
  assert.equal(turnCount(null), 0);
});

test("the log names a turn-based table's time per move and a player removed when time ran out", () => {
  assert.equal(turnBasedLogText({ key: "turn_based" }, { move: "3d" }), "A turn-based table: 3 days per move.");
  setLanguage("fr");
  const removed = turnBasedLogText({ key: "timeout" }, { rule: "remove", name: "Ada", bot: "optimal" }) ?? "";
  assert.match(removed, /^Ada a dépassé le temps et quitte la table.+optimal/);
  assert.equal(turnBasedLogText({ key: "timeout" }, { rule: "bot_plays", name: "Ada", bot: "optimal" }), null);
});
