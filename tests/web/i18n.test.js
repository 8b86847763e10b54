import "./page.js";
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { freshPage } from "./page.js";
import { ALL_STRINGS, detectLanguage, has, language, LANGUAGES, setLanguage, t } from "../../src/spieltisch/web/i18n.js";

beforeEach(freshPage);
afterEach(() => setLanguage("en"));

const CODES = Object.keys(LANGUAGES);
/** @param {string} text */
const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((found) => found[1]).sort();
/** @param {string} key */
const isSingular = (key) => key.endsWith("_one");

test("the five languages are offered, each with its strings", () => {
  assert.deepEqual(CODES.sort(), ["de", "en", "fr", "it", "nl"]);
  assert.deepEqual(Object.keys(ALL_STRINGS).sort(), CODES);
});

test("every language has every string, and no string English lacks", () => {
  const english = Object.keys(ALL_STRINGS.en).filter((key) => !isSingular(key)).sort();
  for (const code of CODES) {
    const keys = Object.keys(ALL_STRINGS[code]).filter((key) => !isSingular(key)).sort();
    assert.deepEqual(keys, english, code);
    for (const key of keys) assert.notEqual(ALL_STRINGS[code][key].trim(), "", `${code} ${key}`);
  }
});

test("a translation fills the same placeholders as the English text", () => {
  for (const code of CODES) {
    for (const [key, text] of Object.entries(ALL_STRINGS[code])) {
      if (!isSingular(key)) assert.deepEqual(placeholders(text), placeholders(ALL_STRINGS.en[key]), `${code} ${key}`);
    }
  }
});

test("a singular form stands beside its plural in the same language and fills no other placeholder", () => {
  for (const code of CODES) {
    for (const [key, text] of Object.entries(ALL_STRINGS[code])) {
      if (!isSingular(key)) continue;
      const plural = ALL_STRINGS[code][key.slice(0, -"_one".length)];
      assert.ok(plural, `${code} ${key} has no plural`);
      assert.ok(placeholders(plural).includes("n"), `${code} ${key}: the plural counts with {n}`);
      for (const name of placeholders(text)) assert.ok(placeholders(plural).includes(name), `${code} ${key} {${name}}`);
    }
  }
});

test("t fills placeholders with the values given, numbers as they are, and leaves unknown ones", () => {
  assert.equal(t("lobby.players", { min: 2, max: 7 }), "2–7 players");
  assert.equal(t("lobby.seconds", { n: 0.5 }), "0.5 seconds");
  assert.equal(t("lobby.players", { min: 2 }), "2–{max} players");
  assert.equal(t("lobby.bot", { bot: "{min}" }), "bot: {min}"); // a value is not filled again
});

test("n: 1 picks the singular form where the language has one, any other n the plural", () => {
  setLanguage("en");
  assert.equal(t("pk.tiles", { n: 1 }), ALL_STRINGS.en["pk.tiles_one"].replace("{n}", "1"));
  assert.equal(t("pk.tiles", { n: 2 }), ALL_STRINGS.en["pk.tiles"].replace("{n}", "2"));
  assert.equal(t("pk.tiles", { n: 0 }), ALL_STRINGS.en["pk.tiles"].replace("{n}", "0"));
  assert.equal(t("pk.tiles", {}), ALL_STRINGS.en["pk.tiles"]);
  setLanguage("fr"); // French has a singular of its own where English needs none
  assert.equal(t("lobby.open_seats", { n: 1 }), ALL_STRINGS.fr["lobby.open_seats_one"].replace("{n}", "1"));
  setLanguage("de");
  assert.equal(t("lobby.open_seats", { n: 1 }), ALL_STRINGS.de["lobby.open_seats"].replace("{n}", "1"));
});

test("a missing text falls back to English, then to the key; a singular is never borrowed from English", () => {
  const added = { "test.only_en": "only {n} in English", "test.only_en_one": "one in English" };
  Object.assign(ALL_STRINGS.en, added, { "test.both": "{n} things", "test.both_one": "one thing" });
  ALL_STRINGS.de["test.both"] = "{n} Dinge";
  try {
    setLanguage("de");
    assert.equal(t("test.only_en", { n: 1 }), "one in English");
    assert.equal(t("test.only_en", { n: 3 }), "only 3 in English");
    assert.equal(t("test.both", { n: 1 }), "1 Dinge");
    assert.equal(t("no.such.key"), "no.such.key");
    assert.equal(has("test.only_en"), true);
    assert.equal(has("no.such.key"), false);
  } finally {
    for (const key of [...Object.keys(added), "test.both", "test.both_one"]) delete ALL_STRINGS.en[key];
    delete ALL_STRINGS.de["test.both"];
  }
});

test("setLanguage keeps the choice, marks the page's language and refuses unknown codes", () => {
  setLanguage("it");
  assert.equal(language(), "it");
  assert.equal(document.documentElement.lang, "it");
  assert.equal(localStorage.getItem("spieltisch.lang"), "it");
  assert.equal(t("app.language"), ALL_STRINGS.it["app.language"]);
  setLanguage("xx");
  assert.equal(language(), "en");
});

test("the language comes from the saved choice, else the browser's first known language, else English", (context) => {
  let languages = ["pt-BR", "nl-BE", "de"];
  context.mock.getter(navigator, "languages", () => languages);
  assert.equal(detectLanguage(), "nl");
  languages = ["pt-BR", "ja"];
  assert.equal(detectLanguage(), "en");
  localStorage.setItem("spieltisch.lang", "fr");
  assert.equal(detectLanguage(), "fr");
  localStorage.setItem("spieltisch.lang", "xx");
  assert.equal(detectLanguage(), "en");
});
