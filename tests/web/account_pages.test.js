// The account pages in a jsdom page, with the server's answers given by a stand-in for fetch.
import "./page.js";
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { freshPage } from "./page.js";
import { keepToken, tokenFor } from "../../src/spieltisch/web/api.js";
import { accountMark, accountNav, currentAccount, loadSession, myTablesPanel, noteRoute, signInPage } from "../../src/spieltisch/web/account.js";
import { setLanguage } from "../../src/spieltisch/web/i18n.js";

/** @typedef {{ path: string, method: string, body: any }} Sent */

/** @type {Sent[]} */
let sent = [];
/** @type {{ [path: string]: [number, unknown] }} */
let answers = {};
const realFetch = globalThis.fetch;

// The server as these tests want it: each path answers with the status and JSON given.
globalThis.fetch = /** @type {typeof fetch} */ (/** @type {unknown} */ (async (/** @type {string} */ path, /** @type {RequestInit} */ init = {}) => {
  sent.push({ path, method: init.method || "GET", body: init.body ? JSON.parse(String(init.body)) : undefined });
  const [status, body] = answers[path] || [404, { error: "no_route", message: "No such route." }];
  return { ok: status < 400, status, json: async () => body };
}));

const page = { notify: () => {}, useLanguage: (/** @type {string} */ code) => setLanguage(code) };
const ADA = { name: "Ada", settings: { language: "en" } };

beforeEach(async () => {
  freshPage();
  sent = [];
  answers = { "/api/session": [200, { account: null }] };
  location.hash = "";
  await loadSession();
});
afterEach(() => setLanguage("en"));
process.on("exit", () => (globalThis.fetch = realFetch));

/** Let the page's promises settle. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

/** @param {string} selector */
function find(selector) {
  const found = document.querySelector(selector);
  assert.ok(found, `no ${selector}`);
  return /** @type {HTMLElement} */ (found);
}

/** @param {string} selector */
function input(selector) {
  return /** @type {HTMLInputElement} */ (find(selector));
}

function submit() {
  find("form").dispatchEvent(new Event("submit", { cancelable: true }));
  return settled();
}

test("a guest's header offers sign-in and sign-up; a signed-in player's shows the name", async () => {
  const nav = accountNav();
  document.body.append(nav);
  assert.deepEqual([...nav.querySelectorAll("a")].map((a) => [a.getAttribute("href"), a.textContent]),
    [["#/signin", "Sign in"], ["#/signup", "Sign up"]]);
  answers["/api/session"] = [200, { account: ADA }];
  await loadSession();
  const link = find("#account-link");
  assert.equal(link.getAttribute("href"), "#/account");
  assert.equal(link.textContent, "Ada");
  assert.equal(link.getAttribute("aria-label"), "Signed in as Ada: your account");
  assert.equal(link.getAttribute("aria-current"), null);
  location.hash = "#/account";
  noteRoute(location.hash);
  assert.equal(find("#account-link").getAttribute("aria-current"), "page");
});

test("signing up sends the seats this browser holds and signs in", async () => {
  keepToken("t1", "secret-1");
  keepToken("t2", "secret-2");
  answers["/api/account/signup"] = [201, { account: { name: "Ada", settings: {} } }];
  answers["/api/account/settings"] = [200, { account: ADA }];
  signInPage(document.body, "signup", page);
  assert.equal(document.activeElement, input("#acct-name"));
  input("#acct-name").value = " Ada ";
  input("#acct-password").value = "seven little worms";
  await submit();
  const signup = sent.find((s) => s.path === "/api/account/signup");
  assert.deepEqual(signup?.body, { name: "Ada", password: "seven little worms",
    seats: [{ table: "t1", token: "secret-1" }, { table: "t2", token: "secret-2" }] });
  assert.equal(currentAccount()?.name, "Ada");
  assert.equal(location.hash, "#/");
  assert.deepEqual(sent.find((s) => s.path === "/api/account/settings")?.body, { language: "en" }, "the language goes along");
});

test("signing in from a live table leads back to it; from anywhere else to the lobby", async () => {
  answers["/api/account/signin"] = [200, { account: ADA }];
  for (const [from, to] of [["#/t/abc", "#/t/abc"], ["#/r/abc", "#/"], ["#/v/abc", "#/"], ["", "#/"]]) {
    noteRoute(from);
    noteRoute("#/signin");
    document.body.replaceChildren();
    signInPage(document.body, "signin", page);
    input("#acct-name").value = "Ada";
    input("#acct-password").value = "seven little worms";
    await submit();
    assert.equal(location.hash, to, from);
  }
});

test("signing in switches the page to the account's language", async () => {
  /** @type {string[]} */
  const switched = [];
  answers["/api/account/signin"] = [200, { account: { name: "Ada", settings: { language: "de" } } }];
  signInPage(document.body, "signin", { ...page, useLanguage: (code) => switched.push(code) });
  input("#acct-name").value = "Ada";
  input("#acct-password").value = "seven little worms";
  await submit();
  assert.deepEqual(switched, ["de"]);
  assert.equal(sent.find((s) => s.path === "/api/account/settings"), undefined, "the account's language stays");
});

test("a refused sign-up says why and marks the field it is about", async () => {
  answers["/api/account/signup"] = [409, { error: "name_taken", message: "Taken." }];
  signInPage(document.body, "signup", page);
  input("#acct-name").value = "Ada";
  input("#acct-password").value = "seven little worms";
  await submit();
  assert.equal(find("#acct-error").textContent, "This name belongs to a player with an account; sign in or choose another name.");
  assert.equal(find("#acct-error").getAttribute("role"), "alert");
  assert.equal(input("#acct-name").getAttribute("aria-invalid"), "true");
  assert.equal(document.activeElement, input("#acct-name"));
  assert.equal(currentAccount(), null);
});

test("a throttled sign-up tells the wait and marks no field", async () => {
  answers["/api/account/signup"] = [429, { error: "too_many_sign_ups", message: "Wait.", retry_after: 125 }];
  signInPage(document.body, "signup", page);
  input("#acct-name").value = "Ada";
  input("#acct-password").value = "seven little worms";
  await submit();
  assert.equal(find("#acct-error").textContent, "Too many new accounts from here. Try again in 3 minutes.");
  assert.equal(document.querySelector("[aria-invalid]"), null);
  assert.equal(currentAccount(), null);
});

test("a failed sign-in empties the password and marks no field; a throttled one tells the wait", async () => {
  answers["/api/account/signin"] = [401, { error: "bad_sign_in", message: "Wrong." }];
  signInPage(document.body, "signin", page);
  input("#acct-name").value = "Ada";
  input("#acct-password").value = "guess";
  await submit();
  assert.equal(find("#acct-error").textContent, "The user name or the password is wrong.");
  assert.equal(input("#acct-password").value, "");
  assert.equal(document.querySelector("[aria-invalid]"), null);
  answers["/api/account/signin"] = [429, { error: "too_many_sign_ins", message: "Wait.", retry_after: 20 }];
  await submit();
  assert.equal(find("#acct-error").textContent, "Too many attempts to sign in. Try again in 20 seconds.");
});

test("a signed-in player's seat is marked, a guest's is not", () => {
  assert.equal(accountMark({}), null);
  const mark = accountMark({ account: true });
  assert.equal(mark?.getAttribute("role"), "img");
  assert.equal(mark?.getAttribute("aria-label"), "signed-in player");
});

test("My tables lists the tables, the one waiting for a move first, and takes a seat back", async () => {
  const games = [{ name: "pickomino", title: "Pickomino" }];
  assert.equal(myTablesPanel(games, [], page), null, "a guest has no My tables");
  answers["/api/session"] = [200, { account: ADA }];
  await loadSession();
  assert.equal(myTablesPanel(games, null, page), null, "not loaded yet");
  assert.match(myTablesPanel(games, [], page)?.textContent || "", /no unfinished table/);
  const rows = [
    { table: "a", game: "pickomino", seat: 0, players: ["Ada", "Ben"], to_move: "Ben", your_turn: false, version: 4, updated: 9 },
    { table: "b", game: "pickomino", seat: 1, players: ["Cleo", "Ada"], to_move: "Ada", your_turn: true, version: 7, updated: 1 },
  ];
  const panel = myTablesPanel(games, rows, page);
  assert.ok(panel);
  document.body.append(panel);
  const items = [...panel.querySelectorAll("li")];
  assert.deepEqual(items.map((li) => li.dataset.table), ["b", "a"]);
  assert.ok(items[0].classList.contains("your-turn"));
  assert.match(items[0].textContent || "", /Pickomino.*your turn.*Cleo · Ada/);
  assert.match(items[1].textContent || "", /Ben to play/);
  answers["/api/tables/a/seat"] = [200, { seat: 0, token: "fresh" }];
  find("#take-seat-a").click();
  await settled();
  assert.deepEqual(sent.at(-1), { path: "/api/tables/a/seat", method: "POST", body: {} });
  assert.equal(tokenFor("a"), "fresh");
  assert.equal(location.hash, "#/t/a");
});
