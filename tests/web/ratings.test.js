import "./page.js";
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { freshPage } from "./page.js";
import { ALL_STRINGS, setLanguage, t } from "../../src/spieltisch/web/i18n.js";
import { changeText, percentText, placeText } from "../../src/spieltisch/web/profile.js";
import { CHART, chartPoints, ratingChart } from "../../src/spieltisch/web/rating_chart.js";
import { RATING_STRINGS } from "../../src/spieltisch/web/i18n_ratings.js";
import { ratedBotLabel, ratingText, standingText } from "../../src/spieltisch/web/ratings.js";

beforeEach(freshPage);
afterEach(() => setLanguage("en"));

/** @param {Partial<import("../../src/spieltisch/web/ratings.js").GameRating>} fields */
const rating = (fields) => ({ game: "pickomino", rating: 1405, provisional: true, shown: "1405?", games: 1,
  stronger_than: null, weaker_than: null, ...fields });

test("the strings of ratings are part of every language's strings, with the same keys in each", () => {
  const english = Object.keys(RATING_STRINGS.en).sort();
  for (const [code, strings] of Object.entries(RATING_STRINGS)) {
    assert.deepEqual(Object.keys(strings).sort(), english, code);
    for (const [key, text] of Object.entries(strings)) assert.equal(ALL_STRINGS[code][key], text, `${code} ${key}`);
  }
});

test("a rating is grouped the language's way", () => {
  assert.equal(ratingText(1531), "1,531");
  setLanguage("de");
  assert.equal(ratingText(1531), "1.531");
  setLanguage("nl");
  assert.equal(ratingText(1531), "1.531");
});

test("a calibrated bot shows its rating; another bot its plain label", () => {
  const game = { name: "pickomino", title: "Pickomino", bot_ratings: { greedy: 1531 }, bot_levels: { greedy: "good" } };
  assert.equal(ratedBotLabel(game, "greedy"), "greedy — good ~ 1,531");
  assert.equal(ratedBotLabel(game, "random"), t("lobby.bot", { bot: "random" }));
  setLanguage("de");
  assert.match(ratedBotLabel(game, "greedy"), / ~ 1\.531$/);
});

test("where a rating stands against the bots reads as a sentence", () => {
  assert.equal(standingText(rating({ stronger_than: "random", weaker_than: "greedy" })), "Stronger than random, weaker than greedy.");
  assert.equal(standingText(rating({ stronger_than: "optimal" })), "Stronger than every bot, even optimal.");
  assert.equal(standingText(rating({ weaker_than: "random" })), "Weaker than every bot, even random.");
  assert.equal(standingText(rating({})), "");
  setLanguage("fr");
  assert.equal(standingText(rating({ stronger_than: "random", weaker_than: "greedy" })), "Plus fort que random, moins fort que greedy.");
});

test("a rating history's points run left to right, the highest at the top", () => {
  const { points, low, high } = chartPoints([1500, 1540, 1460, 1600]);
  assert.equal(low, 1460);
  assert.equal(high, 1600);
  assert.deepEqual(points.map((p) => p.x), [CHART.left, 133.3, 222.7, CHART.width - CHART.right]);
  assert.equal(points[3].y, CHART.top);
  assert.equal(points[2].y, CHART.height - CHART.bottom);
  assert.ok(points[0].y > points[1].y && points[1].y < points[2].y);
  const flat = chartPoints([1500, 1500]);
  assert.deepEqual([flat.low, flat.high], [1480, 1520]); // a flat line across the middle
  assert.equal(flat.points[0].y, (CHART.top + CHART.height - CHART.bottom) / 2);
});

test("a rating chart is named and described for screen readers, with a table of its numbers", () => {
  const history = [1500, 1530, 1512].map((points, n) => ({ at: n ? n : null, rating: points, table_id: n ? `t${n}` : null }));
  const figure = ratingChart("chart-pickomino", "Pickomino", history, ratingText);
  document.body.append(figure);
  const svg = /** @type {SVGSVGElement} */ (figure.querySelector("svg"));
  assert.equal(svg.getAttribute("role"), "img");
  assert.equal(document.getElementById(String(svg.getAttribute("aria-labelledby")))?.textContent, "Pickomino: rating history");
  assert.equal(document.getElementById(String(svg.getAttribute("aria-describedby")))?.textContent,
    "From 1,500 to 1,512 over 2 rated games; lowest 1,500, highest 1,530.");
  assert.equal(svg.querySelectorAll("circle").length, 3);
  assert.deepEqual([...figure.querySelectorAll("tbody tr")].map((tr) => tr.textContent), ["Start1,500", "11,530", "21,512"]);
  figure.remove();
});

test("changes, shares and average places read the language's way", () => {
  assert.deepEqual([changeText(12), changeText(-7), changeText(0), changeText(1200)], ["+12", "\u22127", "±0", "+1,200"]);
  assert.equal(percentText(2 / 3), "67%");
  assert.equal(placeText(1.5), "1.5");
  setLanguage("de");
  assert.equal(percentText(2 / 3), "67\u00a0%");
  assert.equal(placeText(1.5), "1,5");
});

test("the profile's strings exist in every language", () => {
  for (const code of Object.keys(RATING_STRINGS)) {
    setLanguage(code);
    for (const key of ["rate.chart_desc", "rate.versus_none", "rate.place_of", "err.same_player"]) assert.notEqual(t(key), key, `${code} ${key}`);
  }
});
