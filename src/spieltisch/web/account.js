// Optional accounts in the page: the header's sign-in links or the signed-in name, the sign-in,
// sign-up and account pages, "My tables" in the lobby, and the mark of a signed-in player's seat.
//   #/signin  #/signup  #/account
import { api, heldSeats, keepToken } from "./api.js";
import { h, replaceChildren, s } from "./dom.js";
import { language, LANGUAGES, t } from "./i18n.js";
import { accountErrorText, fieldOf, turnText } from "./account_model.js";
import { mailPanel } from "./mail.js";
import { leftText } from "./turnbased.js";
import { byTimeLeft } from "./turnbased_model.js";

/** @typedef {{ name: string, settings: { language?: string } }} Account */
/**
 * What the pages need of the app: its notice, and a switch of the page's language.
 * @typedef {{ notify: (text: string) => void, useLanguage: (code: string) => void }} Page
 */

/** @type {Account | null} */
let account = null;
let cameFrom = "#/"; // where a sign-in leads: back to the live table it began at, else the lobby
const nav = h("nav", { id: "account-nav", class: "account-nav" });

/** The signed-in account, or null for a guest. */
export function currentAccount() {
  return account;
}

/**
 * What this browser's session is (null when the server cannot tell: a guest then).
 * @returns {Promise<Account | null>}
 */
export async function loadSession() {
  try {
    account = (await api("/api/session")).account || null;
  } catch {
    account = null;
  }
  drawNav();
  return account;
}

/** @param {Account | null} found */
function signedIn(found) {
  account = found;
  drawNav();
}

/** The language the account keeps, if it keeps one this client speaks. */
export function accountLanguage() {
  const chosen = account && account.settings && account.settings.language;
  return chosen && chosen in LANGUAGES ? chosen : null;
}

/**
 * Keep the language chosen in the header with the account too (signed in only).
 * @param {string} code
 */
export async function saveLanguage(code) {
  if (!account) return;
  const saved = await api("/api/account/settings", { language: code }, "PUT");
  account = saved.account || { ...account, settings: { ...account.settings, language: code } };
}

/**
 * Note the page shown now, so that signing in from a live table leads back to it, and the
 * header marks the account page as the current one.
 * @param {string} hash
 */
export function noteRoute(hash) {
  if (/^#\/t\/[^/]+$/.test(hash)) cameFrom = hash;
  else if (!/^#\/(signin|signup|account)$/.test(hash)) cameFrom = "#/";
  const link = nav.querySelector("#account-link"); // kept, so that a focus on it stays
  if (link && hash === "#/account") link.setAttribute("aria-current", "page");
  else if (link) link.removeAttribute("aria-current");
}

// --- the header --------------------------------------------------------------------------------
/** The header's part of accounts: "Sign in" and "Sign up", or the signed-in name. */
export function accountNav() {
  drawNav();
  return nav;
}

export function drawNav() {
  nav.setAttribute("aria-label", t("acct.nav"));
  if (account) {
    replaceChildren(nav, h("a", { href: "#/account", id: "account-link", class: "account-name",
      "aria-current": location.hash === "#/account" ? "page" : null,
      "aria-label": t("acct.signed_in_as", { name: account.name }), title: t("acct.signed_in_as", { name: account.name }) },
    personIcon(), h("span", { text: account.name })));
    return;
  }
  replaceChildren(nav,
    h("a", { href: "#/signin", id: "signin-link", text: t("acct.sign_in") }),
    h("a", { href: "#/signup", id: "signup-link", text: t("acct.sign_up") }));
}

function personIcon() {
  return s("svg", { class: "person-icon", viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true", focusable: "false" },
    s("circle", { cx: 8, cy: 5, r: 3 }), s("path", { d: "M2 15c0-3.3 2.7-5.5 6-5.5s6 2.2 6 5.5z" }));
}

/**
 * The mark beside a signed-in player's name, so that nobody can pose as them; nothing for a guest.
 * @param {{ account?: boolean }} seat
 */
export function accountMark(seat) {
  if (!seat.account) return null;
  return h("span", { class: "account-mark", role: "img", "aria-label": t("acct.mark"), title: t("acct.mark") }, personIcon());
}

// --- forms ---------------------------------------------------------------------------------------
/**
 * An input of an account form, built once per page so that what is typed survives redraws.
 * @param {string} id
 * @param {{ [name: string]: unknown }} attrs
 */
function field(id, attrs) {
  return h("input", { id, name: id, required: true, ...attrs });
}

/**
 * @param {HTMLInputElement} input
 * @param {string} label
 * @param {string | null} [hint]
 */
function labelled(input, label, hint) {
  const hintId = `${input.id}-hint`;
  if (hint) input.setAttribute("aria-describedby", hintId);
  return h("div", { class: "field" },
    h("label", { for: input.id, text: label }), input,
    hint ? h("p", { class: "muted field-hint", id: hintId, text: hint }) : null);
}

/**
 * A form's error, said at once by screen readers, marking the field it is about.
 * @param {string} id
 */
function errorBox(id) {
  const box = h("p", { class: "form-error", id, role: "alert" });
  return {
    box,
    /**
     * @param {unknown} error
     * @param {{ [field: string]: HTMLInputElement }} fields
     */
    show(error, fields) {
      const refusal = /** @type {import("./account_model.js").Refusal} */ (error);
      box.textContent = accountErrorText(refusal);
      for (const input of Object.values(fields)) input.removeAttribute("aria-invalid");
      const which = fieldOf(refusal.code);
      if (which && fields[which]) {
        fields[which].setAttribute("aria-invalid", "true");
        fields[which].focus();
      }
    },
    clear() {
      box.textContent = "";
    },
  };
}

/**
 * Run `send` with the form's button disabled, so that one click sends once.
 * @param {HTMLFormElement} form
 * @param {() => Promise<void>} send
 */
async function sending(form, send) {
  const button = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
  if (button.disabled) return;
  button.disabled = true;
  try {
    await send();
  } finally {
    button.disabled = false;
  }
}

// --- sign in, sign up ------------------------------------------------------------------------------
/**
 * The sign-in or sign-up page: the seats this browser holds go along and become the account's.
 * @param {HTMLElement} app
 * @param {"signin" | "signup"} mode
 * @param {Page} page
 */
export function signInPage(app, mode, page) {
  const root = h("div", { class: "account-page" });
  app.append(root);
  const signup = mode === "signup";
  const name = field("acct-name", { autocomplete: "username", maxlength: 64, autocapitalize: "none", spellcheck: "false" });
  const password = field("acct-password", { type: "password", autocomplete: signup ? "new-password" : "current-password", maxlength: 256 });
  const error = errorBox("acct-error");
  const form = h("form", { class: "account-form", novalidate: true, onsubmit: (/** @type {Event} */ event) => {
    event.preventDefault();
    sending(form, submit);
  } });

  async function submit() {
    error.clear();
    const body = { name: name.value.trim(), password: password.value, seats: heldSeats() };
    try {
      const found = await api(`/api/account/${mode}`, body);
      signedIn(found.account);
      const kept = accountLanguage();
      if (kept && kept !== language()) page.useLanguage(kept);
      else if (!kept) saveLanguage(language()).catch(() => null); // the language used so far goes along
      page.notify(t(signup ? "acct.signed_up" : "acct.signed_in", { name: found.account.name }));
      location.hash = cameFrom;
    } catch (refused) {
      if (!signup) password.value = "";
      error.show(refused, { name, password });
    }
  }

  function draw() {
    const title = t(signup ? "acct.signup_title" : "acct.signin_title");
    replaceChildren(form,
      labelled(name, t("acct.name"), signup ? t("acct.name_hint") : null),
      labelled(password, t("acct.password"), signup ? t("acct.password_hint") : null),
      error.box,
      h("button", { type: "submit", class: "primary big", id: "acct-submit", text: signup ? t("acct.sign_up") : t("acct.sign_in") }));
    replaceChildren(root, h("section", { class: "panel account-panel" },
      h("h2", { text: title }),
      h("p", { class: "muted", text: t(signup ? "acct.signup_why" : "acct.signin_why") }),
      form,
      h("p", {}, h("a", { href: signup ? "#/signin" : "#/signup", id: "acct-other", text: t(signup ? "acct.to_signin" : "acct.to_signup") }))));
  }

  draw();
  name.focus(); // the page is there to type into; a keyboard goes on from the first field
  return { stop() {}, redraw: draw };
}

// --- the account page --------------------------------------------------------------------------------
/**
 * The signed-in player's own page: sign out, change the password, the language, their data,
 * and deleting the account. A guest gets the sign-in page instead.
 * @param {HTMLElement} app
 * @param {Page} page
 */
export function accountPage(app, page) {
  if (!account) return signInPage(app, "signin", page);
  const root = h("div", { class: "account-page" });
  app.append(root);
  const oldPassword = field("old-password", { type: "password", autocomplete: "current-password", maxlength: 256 });
  const newPassword = field("new-password", { type: "password", autocomplete: "new-password", maxlength: 256 });
  const passwordError = errorBox("password-error");
  const passwordForm = h("form", { class: "account-form", id: "password-form", novalidate: true, onsubmit: (/** @type {Event} */ event) => {
    event.preventDefault();
    sending(passwordForm, changePassword);
  } });
  const languageChoice = h("select", { id: "account-language" });
  const mail = mailPanel(page);
  const deletePassword = field("delete-password", { type: "password", autocomplete: "current-password", maxlength: 256 });
  const deleteError = errorBox("delete-error");
  const deleteForm = h("form", { class: "account-form", id: "delete-form", novalidate: true, onsubmit: (/** @type {Event} */ event) => {
    event.preventDefault();
    sending(deleteForm, deleteAccount);
  } });

  async function changePassword() {
    passwordError.clear();
    try {
      await api("/api/account/password", { old: oldPassword.value, new: newPassword.value });
      oldPassword.value = "";
      newPassword.value = "";
      page.notify(t("acct.password_changed"));
    } catch (refused) {
      passwordError.show(refused, { current: oldPassword, password: newPassword });
    }
  }

  async function chooseLanguage() {
    try {
      await saveLanguage(languageChoice.value);
      if (languageChoice.value !== language()) page.useLanguage(languageChoice.value);
      page.notify(t("acct.language_saved"));
    } catch (refused) {
      page.notify(accountErrorText(/** @type {import("./account_model.js").Refusal} */ (refused)));
    }
  }

  async function deleteAccount() {
    deleteError.clear();
    try {
      const held = await myTableIds();
      await api("/api/account/delete", { password: deletePassword.value });
      forgetSeats(held);
      signedIn(null);
      page.notify(t("acct.deleted"));
      location.hash = "#/";
    } catch (refused) {
      deletePassword.value = "";
      deleteError.show(refused, { current: deletePassword });
    }
  }

  function draw() {
    if (!account) return;
    mail.draw();
    replaceChildren(languageChoice, Object.entries(LANGUAGES).map(([code, label]) => h("option", { value: code, text: label, lang: code })));
    languageChoice.value = accountLanguage() || language();
    replaceChildren(passwordForm,
      labelled(oldPassword, t("acct.old_password")),
      labelled(newPassword, t("acct.new_password"), t("acct.password_hint")),
      passwordError.box,
      h("button", { type: "submit", id: "password-submit", text: t("acct.save_password") }));
    replaceChildren(deleteForm,
      labelled(deletePassword, t("acct.delete_password")),
      deleteError.box,
      h("button", { type: "submit", class: "danger", id: "delete-submit", text: t("acct.delete_button") }));
    replaceChildren(root,
      h("section", { class: "panel account-panel" },
        h("h2", { text: t("acct.page_title") }),
        h("p", { id: "account-who", text: t("acct.you_are", { name: account.name }) }),
        h("p", {}, h("a", { id: "my-ratings", href: `#/p/${encodeURIComponent(account.name)}`, text: t("rate.my_ratings") })),
        h("button", { type: "button", id: "sign-out", text: t("acct.sign_out"), onclick: () => signOut(page) })),
      h("section", { class: "panel account-panel", "aria-labelledby": "password-title" },
        h("h2", { id: "password-title", text: t("acct.change_password") }), passwordForm),
      h("section", { class: "panel account-panel", "aria-labelledby": "language-title" },
        h("h2", { id: "language-title", text: t("acct.language") }),
        h("div", { class: "field" }, h("label", { for: "account-language", text: t("app.language") }), languageChoice),
        h("p", { class: "muted field-hint", text: t("acct.language_doc") }),
        h("button", { type: "button", id: "language-save", text: t("acct.save"), onclick: chooseLanguage })),
      mail.section,
      h("section", { class: "panel account-panel", "aria-labelledby": "data-title" },
        h("h2", { id: "data-title", text: t("acct.data") }),
        h("p", { class: "muted", text: t("acct.data_doc") }),
        h("a", { class: "button", id: "download-data", href: "/api/account/data", download: "spieltisch-account.json", text: t("acct.download") })),
      h("section", { class: "panel account-panel danger-zone", "aria-labelledby": "delete-title" },
        h("h2", { id: "delete-title", text: t("acct.delete") }),
        h("p", { text: t("acct.delete_doc") }),
        deleteForm));
  }

  draw();
  return { stop() {}, redraw: draw };
}

/**
 * Sign out on the server, and forget the account's seats in this browser (the next person at
 * this device must not play them).
 * @param {Page} page
 */
async function signOut(page) {
  const held = await myTableIds();
  try {
    await api("/api/account/signout", {});
  } catch (refused) {
    page.notify(accountErrorText(/** @type {import("./account_model.js").Refusal} */ (refused)));
    return;
  }
  forgetSeats(held);
  signedIn(null);
  page.notify(t("acct.signed_out"));
  location.hash = "#/";
}

/** The tables the account sits at (none when they cannot be listed). */
async function myTableIds() {
  try {
    return (/** @type {import("./account_model.js").MyTable[]} */ (await api("/api/account/tables"))).map((row) => row.table);
  } catch {
    return [];
  }
}

/** @param {string[]} tables */
function forgetSeats(tables) {
  for (const table of tables) keepToken(table, null);
}

// --- My tables -----------------------------------------------------------------------------------
/**
 * The lobby's "My tables" for a signed-in player: every unfinished table with its game, its
 * players and whose turn it is, and a button that takes the seat back on this device.
 * @param {{ name: string, title: string }[]} games
 * @param {import("./account_model.js").MyTable[] | null} rows null while not loaded
 * @param {Page} page
 */
export function myTablesPanel(games, rows, page) {
  if (!account || rows === null) return null;
  const title = (/** @type {string} */ game) => (games.find((g) => g.name === game) || { title: game }).title;
  return h("section", { class: "panel", id: "my-tables", "aria-labelledby": "my-tables-title" },
    h("h2", { id: "my-tables-title", text: t("mine.title") }),
    rows.length
      ? h("ul", { class: "tables my-tables" }, byTimeLeft(rows).map((row) => h("li", {
        class: `my-table${row.your_turn ? " your-turn" : ""}`, "data-table": row.table },
      h("div", { class: "my-table-about", id: `my-table-${row.table}` },
        h("strong", { text: title(row.game) }), " ",
        h("span", { class: row.your_turn ? "badge turn-note" : "muted turn-note", text: turnText(row) }),
        row.your_turn && row.deadline ? h("span", { class: "time-left", text: ` ${leftText(row)}` }) : null,
        h("span", { class: "names", text: row.players.filter(Boolean).join(" · ") })),
      h("button", { type: "button", class: row.your_turn ? "primary take-seat" : "take-seat", id: `take-seat-${row.table}`,
        "aria-describedby": `my-table-${row.table}`, text: t("mine.take_seat"), onclick: () => takeSeat(row.table, page) }))))
      : h("p", { class: "muted", text: t("mine.none") }));
}

/**
 * The account's tables, or null for a guest (a session that ended makes this browser a guest).
 * @returns {Promise<import("./account_model.js").MyTable[] | null>}
 */
export async function loadMyTables() {
  if (!account) return null;
  try {
    return await api("/api/account/tables");
  } catch (refused) {
    if (/** @type {{ code?: string }} */ (refused).code === "not_signed_in") signedIn(null);
    return null;
  }
}

/**
 * Take the account's seat at `table` on this device, then open the table.
 * @param {string} table
 * @param {Page} page
 */
async function takeSeat(table, page) {
  try {
    const taken = await api(`/api/tables/${encodeURIComponent(table)}/seat`, {});
    keepToken(table, taken.token);
    location.hash = `#/t/${encodeURIComponent(table)}`;
  } catch (refused) {
    page.notify(accountErrorText(/** @type {import("./account_model.js").Refusal} */ (refused)));
  }
}
