// The rules of turn-based play in the client, apart from the page: the time left in words,
// the order of "My tables", how many wait for one's move and when a move's alarm is due.
import { t } from "./i18n.js";

/** The share of a move's time after which the player is warned (as Lichess does). */
export const ALARM_AT = 0.8;

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * One of "My tables" with its turn's time, as GET /api/account/tables lists them.
 * @typedef {import("./account_model.js").MyTable & { deadline?: number | null,
 *   turn_time?: number | null, turn_based?: { move: string, bank: string, rule: string } | null }} TimedTable
 */

/**
 * A time left in words: days and hours, hours and minutes, or minutes (rounded down, never
 * below zero).
 * @param {number} seconds
 * @returns {string}
 */
export function timeLeftText(seconds) {
  const left = Math.max(0, Math.floor(seconds));
  if (left >= DAY) return t("tb.days", { n: Math.floor(left / DAY), h: Math.floor((left % DAY) / HOUR) });
  if (left >= HOUR) return t("tb.hours", { n: Math.floor(left / HOUR), m: Math.floor((left % HOUR) / MINUTE) });
  return t("tb.minutes", { n: Math.floor(left / MINUTE) });
}

/**
 * How many of the tables wait for the player's move.
 * @param {TimedTable[] | null} rows
 * @returns {number}
 */
export function turnCount(rows) {
  return rows ? rows.filter((row) => row.your_turn).length : 0;
}

/**
 * Whether a table's move alarm is due at `now` (seconds): it is the player's turn and 80 % of
 * the move's time is used, but the time has not run out yet.
 * @param {TimedTable} row
 * @param {number} now
 * @returns {boolean}
 */
export function alarmDue(row, now) {
  if (!row.your_turn || !row.deadline || !row.turn_time) return false;
  return now >= row.deadline - (1 - ALARM_AT) * row.turn_time && now < row.deadline;
}

/**
 * "My tables" in the order a player wants them: the tables waiting for their move first, the
 * least time left first; then the ones that changed last.
 * @param {TimedTable[]} rows
 * @returns {TimedTable[]}
 */
export function byTimeLeft(rows) {
  const left = (/** @type {TimedTable} */ row) => row.deadline ?? Infinity;
  return [...rows].sort((a, b) => Number(b.your_turn) - Number(a.your_turn) || left(a) - left(b) || b.updated - a.updated);
}
