// Turn-based tables in the page: the lobby form's time per move, time bank and rule, the
// header's count of tables waiting for the signed-in player's move, and the alarm when 80 %
// of a move's time is used (an in-page notice, and the browser's notification only where the
// player has allowed notifications for this site; the page never asks by itself).
import { h, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { alarmDue, timeLeftText, turnCount } from "./turnbased_model.js";

export const MOVE_TIMES = ["1h", "12h", "1d", "3d", "7d"];
const TIME_BANKS = ["none", "small", "large"];
const TIMEOUT_RULES = ["bot_plays", "remove"];
/** Seconds between two looks at "My tables" for the header and the alarm. */
const WATCH_SECONDS = 30;

/**
 * A turn-based choice of the lobby form: move "" is real time.
 * @typedef {{ move: string, bank: string, rule: string }} TurnChoice
 */

/** @param {string} id @param {string} label @param {HTMLElement} control */
function labelled(id, label, control) {
  return h("label", { for: id }, h("span", { text: label }), control);
}

/**
 * The lobby form's turn-based part, for a signed-in player: the time per move (real time, as
 * before, or hours or days), and for a turn-based table its time bank and its rule.
 * @param {TurnChoice} turn
 * @param {() => void} redraw
 */
export function turnBasedChoice(turn, redraw) {
  const select = (/** @type {string} */ id, /** @type {string[]} */ values, /** @type {(v: string) => string} */ text,
    /** @type {string} */ value, /** @type {(v: string) => void} */ set) => {
    const node = h("select", { id, onchange: (/** @type {Event} */ e) => set(/** @type {HTMLSelectElement} */ (e.target).value) },
      values.map((v) => h("option", { value: v, text: text(v) })));
    /** @type {HTMLSelectElement} */ (node).value = value;
    return node;
  };
  const move = select("move-time", ["", ...MOVE_TIMES], (v) => (v ? t(`tb.move.${v}`) : t("tb.realtime")), turn.move,
    (v) => { turn.move = v; redraw(); });
  return h("div", { class: "turn-based-choice" },
    labelled("move-time", t("tb.move_time"), move),
    turn.move ? labelled("time-bank", t("tb.bank"),
      select("time-bank", TIME_BANKS, (v) => t(`tb.bank.${v}`), turn.bank, (v) => { turn.bank = v; })) : null,
    turn.move ? labelled("timeout-rule", t("tb.rule"),
      select("timeout-rule", TIMEOUT_RULES, (v) => t(`tb.rule.${v}`), turn.rule, (v) => { turn.rule = v; })) : null,
    h("p", { class: "muted option-doc", text: t("tb.doc") }));
}

/**
 * A table's turn-based settings in words, for the lobby and the table ("" for real time).
 * @param {{ turn_based?: { move: string } | null }} table
 */
export function turnBasedLabel(table) {
  return table.turn_based ? t("tb.label", { move: t(`tb.move.${table.turn_based.move}`) }) : "";
}

/**
 * The log line of a turn-based entry, or null for the usual one: the table's settings, and a
 * person removed when their time ran out.
 * @param {{ key: string }} entry
 * @param {{ [name: string]: unknown }} args
 * @returns {string | null}
 */
export function turnBasedLogText(entry, args) {
  if (entry.key === "turn_based") return t("log.turn_based", { move: t(`tb.move.${args.move}`) });
  if (entry.key === "timeout" && args.rule === "remove") return t("log.timeout_remove", args);
  return null;
}

/**
 * The time left at one of "My tables" in words, or "" when no clock runs for the player.
 * @param {import("./turnbased_model.js").TimedTable} row
 */
export function leftText(row) {
  return row.your_turn && row.deadline ? t("tb.left", { time: timeLeftText(row.deadline - Date.now() / 1000) }) : "";
}

// --- the header's count and the alarm -----------------------------------------------------------
const badge = h("a", { href: "#/", id: "turn-count", class: "turn-count", hidden: true });
const alarmBox = h("div", { id: "turn-alarm", class: "turn-alarm", role: "alert", hidden: true });
/** @type {Set<string>} tables and versions already warned about */
const warned = new Set();
/** @type {ReturnType<typeof setInterval> | null} */
let watching = null;

/** The header's count of tables waiting for the player's move (hidden at none). */
export function turnBadge() {
  return badge;
}

/** The place of the alarm, under the header. */
export function alarmPlace() {
  return alarmBox;
}

/**
 * Show what the latest "My tables" say: the header's count, and an alarm for each table whose
 * move has used 80 % of its time, unless the player is looking at that table.
 * @param {import("./turnbased_model.js").TimedTable[] | null} rows null: signed out
 * @param {{ [game: string]: string }} titles
 */
export function noteMyTables(rows, titles = {}) {
  const count = turnCount(rows);
  badge.hidden = count === 0;
  badge.textContent = String(count);
  badge.setAttribute("aria-label", t("tb.count", { n: count }));
  badge.setAttribute("title", t("tb.count", { n: count }));
  const now = Date.now() / 1000;
  for (const row of rows || []) {
    const key = `${row.table}:${row.version}`;
    if (!alarmDue(row, now) || warned.has(key) || lookingAt(row.table)) continue;
    warned.add(key);
    warn(row, titles[row.game] || row.game, /** @type {number} */ (row.deadline) - now);
  }
}

/** @param {string} table */
function lookingAt(table) {
  return location.hash === `#/t/${encodeURIComponent(table)}` && document.visibilityState === "visible";
}

/**
 * @param {import("./turnbased_model.js").TimedTable} row
 * @param {string} game
 * @param {number} left
 */
function warn(row, game, left) {
  const text = t("tb.alarm", { game, time: timeLeftText(left) });
  replaceChildren(alarmBox, h("span", { text }), " ",
    h("a", { href: `#/t/${encodeURIComponent(row.table)}`, text: t("tb.alarm_open"), onclick: () => { alarmBox.hidden = true; } }),
    h("button", { type: "button", class: "small", text: "×", "aria-label": t("tb.alarm_close"), onclick: () => { alarmBox.hidden = true; } }));
  alarmBox.hidden = false;
  if ("Notification" in window && Notification.permission === "granted") new Notification(text, { tag: row.table });
}

/**
 * Look at "My tables" now and every half minute while signed in (`load` gives null for a guest).
 * @param {() => Promise<import("./turnbased_model.js").TimedTable[] | null>} load
 */
export function watchTurns(load) {
  const look = async () => noteMyTables(await load());
  if (watching === null) watching = setInterval(look, WATCH_SECONDS * 1000);
  look();
}
