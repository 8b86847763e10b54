// One screen, several seats: the seats this browser plays at one screen (a family around a
// tablet), and which seat's picture the page may show.
//
// The page holds one socket per seat here, each opened with that seat's token, so the server
// checks every action against its own seat as for any player. Games with secrets (Riff Raff's
// hand and face-down card) also get a spectator's socket ("watch"), whose public picture is
// shown between the turns of the people here; before one of them acts, a cover asks to pass
// the device on, and only that seat's picture is drawn once its player taps.

import { reconnectDelay, socketProtocols } from "./api.js";

const KEY = "spieltisch.here";

/**
 * @typedef {{ seat: number, token: string }} HereSeat
 * @typedef {{ game: string, seats: HereSeat[] }} HereTable
 */

/** @returns {{ [tableId: string]: HereTable }} */
function kept() {
  try {
    const found = JSON.parse(localStorage.getItem(KEY) || "{}");
    return found && typeof found === "object" ? found : {};
  } catch {
    return {};
  }
}

/**
 * The seats this browser plays at one screen at a table (null: none, the usual page).
 * Kept apart from the one seat of `api.js`, which signing in would make the account's.
 * @param {string} tableId
 * @returns {HereTable | null}
 */
export function hereAt(tableId) {
  const table = kept()[tableId];
  return table && Array.isArray(table.seats) && table.seats.length ? table : null;
}

/**
 * @param {string} tableId
 * @param {HereTable | null} table null forgets them
 */
export function keepHere(tableId, table) {
  const all = kept();
  if (table) all[tableId] = table;
  else delete all[tableId];
  localStorage.setItem(KEY, JSON.stringify(all));
}

/**
 * Which seat's picture the page shows, and whether a cover hides it first.
 *  - A seat here is to move: its picture; with secrets and several people here, a cover
 *    naming it until its player taps (`uncovered`).
 *  - Nobody is to move (dice, a falling piece): the seat uncovered last keeps its picture.
 *  - Anybody else is to move, or nobody: with secrets the public picture (seat null), else
 *    the picture of the seat here that was shown last.
 * @param {{ secrets: boolean, here: number[], toMove: number | null, uncovered: number | null, recent: number | null }} now
 * @returns {{ shown: number | null, cover: number | null }}
 */
export function showing({ secrets, here, toMove, uncovered, recent }) {
  const guarded = secrets && here.length > 1;
  if (toMove !== null && here.includes(toMove)) {
    return guarded && uncovered !== toMove ? { shown: null, cover: toMove } : { shown: toMove, cover: null };
  }
  if (toMove === null && uncovered !== null) return { shown: uncovered, cover: null };
  if (secrets) return { shown: null, cover: null };
  return { shown: recent !== null && here.includes(recent) ? recent : here[0] ?? null, cover: null };
}

/**
 * The seat whose cover was lifted stays uncovered until another seat is to move or the game
 * ends (a chance step in between, such as the ship settling, keeps it): the next time it
 * comes round, its player is asked to tap again.
 * @param {number | null} uncovered
 * @param {number | null} toMove
 * @param {boolean} over
 * @returns {number | null}
 */
export function stillUncovered(uncovered, toMove, over) {
  if (over) return null;
  return toMove === null || toMove === uncovered ? uncovered : null;
}

/**
 * @typedef {{ seat: number | null, token: string | null, watch: boolean, last: any,
 *   send: (message: object) => void, close: () => void, reopen: (token: string | null) => void }} TableLink
 */

/**
 * A table's socket for one seat (its token), a spectator, or with `watch` the public picture
 * whoever is signed in. It reconnects by itself and hands every message to `heard`; `last`
 * is its latest state (see `merged`).
 * @param {string} tableId
 * @param {{ seat: number | null, token: string | null, watch?: boolean }} who
 * @param {(link: TableLink, message: any) => void} heard
 * @param {(open: boolean) => void} opened
 * @returns {TableLink}
 */
export function tableLink(tableId, who, heard, opened) {
  /** @type {WebSocket | null} */
  let socket = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let retry;
  let failures = 0; // reconnects in a row that never opened
  let stopped = false;
  /** @type {TableLink} */
  const link = {
    seat: who.seat,
    token: who.token,
    watch: Boolean(who.watch),
    last: null,
    send(message) {
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    },
    close() {
      stopped = true;
      clearTimeout(retry);
      if (socket) {
        socket.onclose = null;
        socket.close();
      }
    },
    reopen(token) {
      link.token = token;
      if (socket) {
        socket.onclose = null;
        socket.close();
      }
      connect();
    },
  };

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const protocols = socketProtocols(link.token);
    socket = new WebSocket(`${scheme}://${location.host}/api/tables/${tableId}/ws`, link.watch ? [...protocols, "watch"] : protocols);
    socket.onmessage = (event) => heard(link, JSON.parse(event.data));
    let open = false;
    socket.onclose = () => {
      if (stopped) return;
      opened(false);
      failures = open ? 0 : failures + 1;
      retry = setTimeout(connect, reconnectDelay(failures, Math.random()));
    };
    socket.onopen = () => {
      open = true;
      opened(true);
    };
  }

  connect();
  return link;
}

/**
 * Take a state message into the link: its log joined to the earlier one (the server sends
 * only new entries unless `log_full`). Returns the state before it and the last log entry
 * known before it.
 * @param {TableLink} link
 * @param {any} message
 * @returns {{ before: any, known: number }}
 */
export function merged(link, message) {
  const before = link.last;
  const known = before && before.log.length ? before.log[before.log.length - 1].seq : -1;
  if (!message.log_full && before) {
    message.log = before.log.concat(message.log.filter((/** @type {{ seq: number }} */ entry) => entry.seq > known)).slice(-200);
  }
  link.last = message;
  return { before, known };
}
