import "./page.js";
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { freshPage } from "./page.js";
import { ApiError, heldSeats, keepToken } from "../../src/spieltisch/web/api.js";
import { accountErrorText, fieldOf, sortMyTables, turnText, waitText } from "../../src/spieltisch/web/account_model.js";
import { ALL_STRINGS, setLanguage, t } from "../../src/spieltisch/web/i18n.js";
import { ACCOUNT_STRINGS } from "../../src/spieltisch/web/i18n_accounts.js";

beforeEach(freshPage);
afterEach(() => setLanguage("en"));

/**
 * @param {Partial<import("../../src/spieltisch/web/account_model.js").MyTable>} fields
 * @returns {import("../../src/spieltisch/web/account_model.js").MyTable}
 */
const row = (fields) => ({ table: "t", game: "pickomino", seat: 0, players: ["Ada", "Ben"], to_move: null, your_turn: false,
  version: 1, updated: 0, ...fields });

test("the strings of accounts are part of every language's strings", () => {
  for (const [code, strings] of Object.entries(ACCOUNT_STRINGS)) {
    for (const [key, text] of Object.entries(strings)) assert.equal(ALL_STRINGS[code][key], text, `${code} ${key}`);
  }
  setLanguage("nl");
  assert.equal(t("mine.title"), "Mijn tafels");
});

test("the seats this browser holds go along as table and token", () => {
  assert.deepEqual(heldSeats(), []);
  keepToken("abc", "one");
  keepToken("def", "two");
  keepToken("abc", null);
  assert.deepEqual(heldSeats(), [{ table: "def", token: "two" }]);
  localStorage.setItem("spieltisch.tokens", "not json");
  assert.deepEqual(heldSeats(), []);
});

test("a throttled sign-in says how long to wait, in seconds or whole minutes rounded up", () => {
  assert.equal(waitText(1), "Too many attempts to sign in. Try again in a second.");
  assert.equal(waitText(42.2), "Too many attempts to sign in. Try again in 43 seconds.");
  assert.equal(waitText(60), "Too many attempts to sign in. Try again in a minute.");
  assert.equal(waitText(61), "Too many attempts to sign in. Try again in 2 minutes.");
  setLanguage("de");
  assert.equal(waitText(300), "Zu viele Anmeldeversuche. Versuche es in 5 Minuten wieder.");
  setLanguage("fr");
  assert.match(waitText(30), /Réessayez dans 30 secondes\.$/);
});

test("a throttled sign-up says how long to wait in its own words, in every language", () => {
  assert.equal(waitText(1, "too_many_sign_ups"), "Too many new accounts from here. Try again in a second.");
  assert.equal(waitText(42.2, "too_many_sign_ups"), "Too many new accounts from here. Try again in 43 seconds.");
  assert.equal(waitText(850, "too_many_sign_ups"), "Too many new accounts from here. Try again in 15 minutes.");
  const throttled = new ApiError("too_many_sign_ups", "Too many.", { retry_after: 61 });
  assert.equal(accountErrorText(throttled), "Too many new accounts from here. Try again in 2 minutes.");
  assert.equal(accountErrorText(new ApiError("too_many_sign_ups", "Too many.")), t("err.too_many_sign_ups"));
  assert.equal(accountErrorText(new ApiError("too_many_sign_ups", "Too many.", { retry_after: "soon" })),
    "Too many new accounts from here; wait a few minutes before you try again.");
  for (const language of Object.keys(ACCOUNT_STRINGS)) {
    setLanguage(language);
    const said = accountErrorText(throttled);
    assert.notEqual(said, accountErrorText(new ApiError("too_many_sign_ins", "Too many.", { retry_after: 61 })), language);
    assert.match(said, /2/, language);
    for (const key of ["err.too_many_sign_ups", "acct.signup_wait_seconds", "acct.signup_wait_minutes"]) {
      assert.ok(ALL_STRINGS[language][key], `${language} ${key}`);
    }
  }
  setLanguage("de");
  assert.equal(accountErrorText(throttled), "Zu viele neue Konten von hier. Versuche es in 2 Minuten wieder.");
});

test("each refusal of an account form reads as its own sentence", () => {
  const throttled = new ApiError("too_many_sign_ins", "Too many.", { retry_after: 90 });
  assert.equal(accountErrorText(throttled), "Too many attempts to sign in. Try again in 2 minutes.");
  assert.equal(accountErrorText(new ApiError("too_many_sign_ins", "Too many.")), t("err.too_many_sign_ins"));
  const badName = new ApiError("bad_name", "A user name starts and ends with a letter or a digit.");
  assert.equal(accountErrorText(badName), "This user name cannot be used. A user name starts and ends with a letter or a digit.");
  assert.equal(accountErrorText(new ApiError("bad_sign_in", "Wrong.")), "The user name or the password is wrong.");
  assert.equal(accountErrorText(new ApiError("weak_password", "Short.")), t("err.weak_password"));
  assert.equal(accountErrorText(new ApiError("name_taken", "Taken.")), t("err.name_taken"));
  assert.equal(accountErrorText(new ApiError("something_new", "What the server said.")), "What the server said.");
  setLanguage("it");
  assert.equal(accountErrorText(new ApiError("bad_sign_in", "Wrong.")), ALL_STRINGS.it["err.bad_sign_in"]);
});

test("a refusal marks the field it is about, and a failed sign-in marks neither", () => {
  assert.equal(fieldOf("bad_name"), "name");
  assert.equal(fieldOf("name_taken"), "name");
  assert.equal(fieldOf("weak_password"), "password");
  assert.equal(fieldOf("wrong_password"), "current");
  assert.equal(fieldOf("bad_sign_in"), null);
  assert.equal(fieldOf(undefined), null);
});

test("My tables lists the tables waiting for one's move first, then the latest changed", () => {
  const rows = [row({ table: "old", updated: 1 }), row({ table: "mine", your_turn: true, updated: 0 }), row({ table: "new", updated: 5 })];
  assert.deepEqual(sortMyTables(rows).map((r) => r.table), ["mine", "new", "old"]);
  assert.equal(rows[0].table, "old", "the list given stays as it was");
});

test("whose turn it is at one of My tables", () => {
  assert.equal(turnText(row({ your_turn: true, to_move: "Ada" })), "your turn");
  assert.equal(turnText(row({ to_move: "Ben" })), "Ben to play");
  assert.equal(turnText(row({})), "waiting for players");
  setLanguage("fr");
  assert.equal(turnText(row({ to_move: "Ana" })), "au tour d’Ana");
});
