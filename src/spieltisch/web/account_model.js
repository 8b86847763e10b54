// The rules behind the account pages and "My tables", apart from the pages themselves: what a
// refusal says, which field it is about, how long to wait, and the order of one's tables.
import { has, t } from "./i18n.js";

/**
 * A refusal as the account pages get it (an ApiError, or anything thrown).
 * @typedef {{ code?: string, message?: string, body?: { [field: string]: unknown } }} Refusal
 */

/**
 * One of "My tables", as GET /api/account/tables lists them.
 * @typedef {{ table: string, game: string, seat: number, players: (string | null)[],
 *   to_move: string | null, your_turn: boolean, version: number, updated: number }} MyTable
 */

const MINUTE = 60;

/**
 * The refusals that say how long to wait ("retry_after"), and the start of their texts' keys.
 * @type {{ [code: string]: string | undefined }}
 */
const WAIT_TEXTS = { too_many_sign_ins: "acct.wait", too_many_sign_ups: "acct.signup_wait" };

/**
 * How long to wait before the next sign-in (or, after `too_many_sign_ups`, the next sign-up),
 * in words: seconds under a minute, else whole minutes (rounded up, so the wait said is never
 * too short).
 * @param {number} seconds
 * @param {string} [code] the refusal that asks for the wait
 * @returns {string}
 */
export function waitText(seconds, code = "too_many_sign_ins") {
  const wait = Math.max(1, Math.ceil(seconds));
  const key = WAIT_TEXTS[code] ?? "acct.wait";
  if (wait < MINUTE) return t(`${key}_seconds`, { n: wait });
  return t(`${key}_minutes`, { n: Math.ceil(wait / MINUTE) });
}

/**
 * What an account form says about a refusal: a user name refused gets the server's sentence
 * saying what is wrong with it, a throttled sign-in or sign-up the wait, the others their own
 * text.
 * @param {Refusal} error
 * @returns {string}
 */
export function accountErrorText(error) {
  const code = error.code ?? "";
  if (WAIT_TEXTS[code]) {
    const wait = error.body ? Number(error.body.retry_after) : NaN;
    return Number.isFinite(wait) && wait > 0 ? waitText(wait, code) : t(`err.${code}`);
  }
  if (code === "bad_name" && error.message) return `${t("acct.bad_name")} ${error.message}`;
  if (code && has(`err.${code}`)) return t(`err.${code}`);
  return error.message || String(error);
}

/** @typedef {"name" | "password" | "current"} Field the user name, a new password, the password one has */

/** @type {{ [code: string]: Field }} */
const FIELD_OF_CODE = { bad_name: "name", name_taken: "name", weak_password: "password", wrong_password: "current" };

/**
 * The field a refusal is about, or null when it is about none alone: a failed sign-in does not
 * tell whether the name or the password was wrong.
 * @param {string | undefined} code
 * @returns {Field | null}
 */
export function fieldOf(code) {
  return (code && FIELD_OF_CODE[code]) || null;
}

/**
 * "My tables" in the order a player wants them: the tables waiting for their move first, then
 * the ones that changed last.
 * @param {MyTable[]} rows
 * @returns {MyTable[]}
 */
export function sortMyTables(rows) {
  return [...rows].sort((a, b) => Number(b.your_turn) - Number(a.your_turn) || b.updated - a.updated);
}

/**
 * Whose turn it is at one of "My tables", in words.
 * @param {MyTable} row
 * @returns {string}
 */
export function turnText(row) {
  if (row.your_turn) return t("mine.your_turn");
  if (row.to_move) return t("mine.turn_of", { name: row.to_move });
  return t("mine.waiting");
}
