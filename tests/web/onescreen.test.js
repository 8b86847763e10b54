import assert from "node:assert/strict";
import { test } from "node:test";

import "./page.js";
import { hereAt, keepHere, showing, stillUncovered } from "../../src/spieltisch/web/onescreen.js";

const family = { here: [0, 2], recent: null };

test("with secrets, a seat here that is to move is covered until its player taps", () => {
  assert.deepEqual(showing({ ...family, secrets: true, toMove: 2, uncovered: null }), { shown: null, cover: 2 });
  assert.deepEqual(showing({ ...family, secrets: true, toMove: 2, uncovered: 0 }), { shown: null, cover: 2 });
  assert.deepEqual(showing({ ...family, secrets: true, toMove: 2, uncovered: 2 }), { shown: 2, cover: null });
});

test("with secrets, the public picture is shown while a bot or a person elsewhere plays", () => {
  assert.deepEqual(showing({ ...family, secrets: true, toMove: 1, uncovered: null, recent: 0 }), { shown: null, cover: null });
  assert.deepEqual(showing({ ...family, secrets: true, toMove: null, uncovered: null, recent: 2 }), { shown: null, cover: null });
});

test("while dice roll or pieces fall, the seat uncovered keeps its picture", () => {
  assert.deepEqual(showing({ ...family, secrets: true, toMove: null, uncovered: 2 }), { shown: 2, cover: null });
  assert.equal(stillUncovered(2, null, false), 2);
  assert.equal(stillUncovered(2, 2, false), 2);
  assert.equal(stillUncovered(2, 1, false), null);
  assert.equal(stillUncovered(2, 0, false), null);
  assert.equal(stillUncovered(2, null, true), null);
});

test("one person here with secrets, or a game without them, needs no cover", () => {
  assert.deepEqual(showing({ here: [0], recent: null, secrets: true, toMove: 0, uncovered: null }), { shown: 0, cover: null });
  assert.deepEqual(showing({ ...family, secrets: false, toMove: 2, uncovered: null }), { shown: 2, cover: null });
  assert.deepEqual(showing({ ...family, secrets: false, toMove: 1, uncovered: null, recent: 2 }), { shown: 2, cover: null });
  assert.deepEqual(showing({ ...family, secrets: false, toMove: 1, uncovered: null, recent: null }), { shown: 0, cover: null });
});

test("the seats here are kept per table, apart from the browser's own seat", () => {
  keepHere("T1", { game: "riffraff", seats: [{ seat: 0, token: "a" }, { seat: 1, token: "b" }] });
  assert.deepEqual(hereAt("T1")?.seats.map((s) => s.seat), [0, 1]);
  assert.equal(hereAt("T2"), null);
  assert.equal(localStorage.getItem("spieltisch.tokens"), null);
  keepHere("T1", null);
  assert.equal(hereAt("T1"), null);
});
