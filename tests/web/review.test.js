// The review's pure parts: which decisions become puzzles, what solves one, the chart's lines.
import "./page.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { actionWords, chartLines, lossText, puzzlesOf, reviewedGames, shareShown, solves } from "../../src/spieltisch/web/review_model.js";
import { setLanguage } from "../../src/spieltisch/web/i18n.js";

/** @param {number} seat @param {string} grade @param {number} step */
function decision(seat, grade, step) {
  return { step, seat, grade, played: "roll", best: "take 5", win_lost: 0.1, choices: [], answers: ["take 5", "grill"] };
}

test("a seat's puzzles are its mistakes and blunders, in order", () => {
  const all = [decision(0, "blunder", 3), decision(1, "mistake", 5), decision(0, "inaccuracy", 7), decision(0, "mistake", 9)];
  assert.deepEqual(puzzlesOf(all, 0).map((d) => d.step), [3, 9]);
  assert.deepEqual(puzzlesOf(all, 1).map((d) => d.step), [5]);
});

test("an answer solves a puzzle when it is one of the good answers", () => {
  const found = decision(0, "blunder", 3);
  assert.equal(solves(found, "grill"), true);
  assert.equal(solves(found, "roll"), false);
});

test("the chart draws each seat from the top at a win chance of 1 to the bottom at 0", () => {
  const lines = chartLines([{ turn: 0, seat: 0, p_win: [1, 0] }, { turn: 1, seat: 1, p_win: [0.5, 0.5] }, { turn: 2, seat: 0, p_win: [0, 1] }], 2);
  assert.equal(lines.length, 2);
  assert.equal(lines[0], "28.0,28.0 300.0,90.0 572.0,152.0");
  assert.equal(lines[1], "28.0,152.0 300.0,90.0 572.0,28.0");
});

test("a loss is told in points of win chance, or in worms where there is none", () => {
  setLanguage("en");
  assert.equal(lossText(decision(0, "blunder", 1)), "10.0 points of win chance lost");
  assert.equal(lossText({ ...decision(0, "blunder", 1), win_lost: null, worms_lost: 2.5 }), "2.50 worms lost");
});

test("a Riff Raff loss is told in points of risk added", () => {
  setLanguage("en");
  assert.equal(lossText({ ...decision(0, "mistake", 1), win_lost: null, risk_added: 0.375 }), "38 points of risk added");
  setLanguage("de");
  assert.equal(lossText({ ...decision(0, "mistake", 1), win_lost: null, risk_added: 0.25 }), "25 Punkte mehr Risiko");
  setLanguage("en");
});

test("the games with a review are those the server marks", () => {
  const games = [{ name: "pickomino", review: true }, { name: "riffraff", review: false }, { name: "other" }];
  assert.deepEqual([...reviewedGames(games)], ["pickomino"]);
});

test("a luck-adjusted result is shown from 0 to 1", () => {
  assert.equal(shareShown(-0.01), 0);
  assert.equal(shareShown(1.01), 1);
  assert.equal(shareShown(0.4), 0.4);
});

test("a Riff Raff placement and card read as words; other games' actions stay as they are", () => {
  setLanguage("en");
  assert.equal(actionWords("riffraff", "place box 3 u=0.5 v=0 yaw=90 up"), "crate on area 3, 0.50 along it, turned 90°");
  assert.equal(actionWords("riffraff", "card 7"), "card 7");
  assert.equal(actionWords("pickomino", "take 5"), "take 5");
  setLanguage("de");
  assert.equal(actionWords("riffraff", "place rat 9 u=0.25 v=0 yaw=0 up"), "Ratte auf Bereich 9, bei 0,25 seiner Länge, um 0° gedreht");
  setLanguage("en");
});
