import "./page.js";
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { freshPage } from "./page.js";
import { ALL_STRINGS, setLanguage } from "../../src/spieltisch/web/i18n.js";
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
  const game = { name: "pickomino", title: "Pickomino", bot_ratings: { greedy: 1531 } };
  assert.equal(ratedBotLabel(game, "greedy"), "greedy — easy ~ 1,531");
  assert.equal(ratedBotLabel(game, "random"), "random — beginner");
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
