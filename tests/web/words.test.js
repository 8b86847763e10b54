import "./page.js";
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { freshPage } from "./page.js";
import { ALL_STRINGS, botLabel, byStrength, formatNumber, optionDoc, sentence, setLanguage, t } from "../../src/spieltisch/web/i18n.js";
import { cardAreaText, heelText, placeText, turnText } from "../../src/spieltisch/web/games/riffraff_words.js";

beforeEach(freshPage);
afterEach(() => setLanguage("en"));

const NBSP = "\u00a0";
const NARROW_NBSP = "\u202f";

test("numbers are written the language's way", () => {
  setLanguage("de");
  assert.ok(t("pk.expected", { worms: formatNumber(1.3, 2) }).startsWith("1,30 "));
  assert.equal(formatNumber(1.3, 2), "1,30");
  assert.equal(t("lobby.seconds", { n: 0.5 }), "0,5 Sekunden");
  setLanguage("en");
  assert.equal(formatNumber(1.3, 2), "1.30");
  assert.equal(t("lobby.seconds", { n: 0.5 }), "0.5 seconds");
  assert.equal(t("table.seeded", { seed: 12345 }).includes("12345"), true); // no grouping
});

test("the heel meter reads 'Gîte : 6,5°' in French, with a no-break space before the colon", () => {
  setLanguage("fr");
  const text = heelText(-6.5, 0);
  assert.equal(text, `Gîte${NBSP}: 6,5° à bâbord · 0,0°`);
  setLanguage("de");
  assert.equal(heelText(6.5, 0).startsWith("Krängung: 6,5°"), true);
  setLanguage("en");
  assert.equal(heelText(6.5, 1), "Heel: 6.5° to starboard · 1.0° bow down");
});

test("French punctuation keeps its narrow no-break spaces", () => {
  setLanguage("fr");
  const text = t("err.stale_version");
  assert.ok(text.includes(`${NARROW_NBSP};`), text);
  assert.ok(!/ [;:!?]/.test(text), text);
  assert.ok(t("rr.tie_captain").endsWith(`${NARROW_NBSP}?`));
});

test("plurals follow the language's plural rules", () => {
  setLanguage("en");
  assert.equal(t("rr.pieces", { n: 1 }), "1 piece");
  assert.equal(t("rr.pieces", { n: 2 }), "2 pieces");
  assert.equal(`${t("pk.tiles", { n: 1 })}, ${t("pk.worms", { n: 1 })}`, "1 tile, 1 worm");
  assert.ok(t("tut.rr.supply", { n: 1, name: "Ana" }).startsWith("1 piece went into Ana's supply"));
  setLanguage("fr"); // French counts 0 as singular
  assert.equal(t("rr.pieces", { n: 0 }), "0 pièce");
  assert.equal(t("rr.pieces", { n: 2 }), "2 pièces");
});

test("French elides 'de' and 'que' before a vowel", () => {
  setLanguage("fr");
  assert.ok(t("tut.rr.supply", { n: 2, name: "Ana" }).includes("réserve d’Ana"));
  assert.ok(t("tut.rr.supply", { n: 2, name: "Bea" }).includes("réserve de Bea"));
  assert.ok(t("tut.rr.supply", { n: 2, name: "Émile" }).includes("réserve d’Émile"));
});

test("a log line starts upper case, even when it starts with a bot's name", () => {
  setLanguage("fr");
  assert.equal(sentence("robot pour Ana prend la tuile 25."), "Robot pour Ana prend la tuile 25.");
  assert.equal(sentence("ébène"), "Ébène");
  assert.equal(sentence(""), "");
});

test("every sentence of a log line starts upper case, numbers and names inside are kept", () => {
  setLanguage("en");
  assert.equal(sentence("bot greedy lays out the apricots card. bot greedy puts 1 on the cherries."),
    "Bot greedy lays out the apricots card. Bot greedy puts 1 on the cherries.");
  assert.equal(sentence("Ana has 1.30 worms. random wins!"), "Ana has 1.30 worms. Random wins!");
  assert.equal(sentence("dé 3.5 reste"), "Dé 3.5 reste");
});

test("the bot that takes over a turn is named as a name, in quotes", () => {
  setLanguage("en");
  assert.equal(t("log.timeout", { name: "Ana", bot: "optimal" }), "Ana ran out of time; the bot “optimal” plays this turn.");
  setLanguage("fr");
  assert.ok(t("log.timeout", { name: "Ana", bot: "optimal" }).includes(`«${NARROW_NBSP}optimal${NARROW_NBSP}»`));
});

test("the bot list hints at each bot's strength, weakest first by its calibrated rating", () => {
  setLanguage("en");
  const ratings = { greedy: 1531, optimal: 1643, random: 1192, winner: 1634 };
  assert.deepEqual(byStrength(["greedy", "optimal", "random", "winner"], ratings), ["random", "greedy", "winner", "optimal"]);
  assert.deepEqual(byStrength(["careful", "greedy", "random"], { random: 1, greedy: 2 }), ["random", "greedy", "careful"]);
  assert.deepEqual(byStrength(["b", "a"]), ["b", "a"]);
  assert.deepEqual(["easy", "good", "strong", "best"].map((level) => botLabel("greedy", level)),
    ["greedy — easy", "greedy — good", "greedy — strong", "greedy — best"]);
  assert.equal(botLabel("unknown"), t("lobby.bot", { bot: "unknown" }));
  setLanguage("de");
  assert.equal(botLabel("greedy", "good"), "greedy — gut");
});

test("only Riff Raff's start seat speaks of a captain", () => {
  for (const code of Object.keys(ALL_STRINGS)) {
    setLanguage(code);
    const captain = t("rr.captain").toLowerCase();
    for (const game of ["pickomino", "karolinchen"]) {
      assert.ok(!optionDoc(game, "start_seat", "").toLowerCase().includes(captain), `${code} ${game}`);
    }
    assert.ok(optionDoc("riffraff", "start_seat", "").toLowerCase().includes(captain), code);
  }
  assert.equal(optionDoc("pickomino", "no_such_option", "the server's words"), "the server's words");
});

test("a percentage never breaks before its sign", () => {
  setLanguage("de");
  assert.ok(t("pk.win", { p: 40 }).startsWith(`40${NBSP}%`));
  setLanguage("fr");
  assert.ok(t("pk.fail", { p: 12 }).startsWith(`12${NARROW_NBSP}%`));
});

test("a Riff Raff placement reads in plain words, not as coordinates", () => {
  assert.equal(placeText(7, 0.1, 0, 90), "Here: near the mast, in the middle, turned a quarter");
  assert.equal(placeText(1, 0.9, 0.8, 0), "Here: near the bow, by the ship's side, not turned");
  assert.equal(placeText(4, 0.5, -0.9, 180), "Here: halfway out, by the centre line, turned half round");
  assert.equal(placeText(10, 0.95, 0.6, -45), "Here: at the end of the yard, on the fore edge, turned an eighth");
  assert.equal(turnText(-90), "turned a quarter");
  assert.equal(turnText(270), "turned a quarter");
  assert.equal(turnText(30), "turned 30°");
  setLanguage("de");
  assert.equal(placeText(7, 0.1, 0, 90), "Hier: nah am Mast, in der Mitte, um eine Vierteldrehung gedreht");
  setLanguage("fr");
  assert.equal(cardAreaText(7), `La carte 7 charge ici${NBSP}: Vergue du milieu, moitié bâbord`);
});

test("Riff Raff's own words, kept beside its view, exist in all five languages", () => {
  const own = Object.keys(ALL_STRINGS.en).filter((key) => /^rr\.(area|where|turn|card_area|ghost_where|choosing)/.test(key));
  assert.ok(own.length >= 25, String(own.length));
  for (const code of ["de", "fr", "it", "nl"]) {
    for (const key of own) assert.ok(ALL_STRINGS[code][key], `${code} ${key}`);
  }
  for (let card = 1; card <= 10; card += 1) assert.ok(ALL_STRINGS.en[`rr.area.${card}`]);
});
