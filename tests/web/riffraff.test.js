import "./page.js";
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { freshPage } from "./page.js";
import { setLanguage } from "../../src/spieltisch/web/i18n.js";

beforeEach(freshPage);
afterEach(() => setLanguage("en"));

// The view takes the server's JSON, so it is checked by tsconfig.json: imported by a computed path.
const VIEW = "../../src/spieltisch/web/games/riffraff.js";
/** @type {{ render: (root: HTMLElement, ctx: any) => void }} */
const riffraff = await import(VIEW);

const SEATS = [{ seat: 0, name: "Ana", bot: null }, { seat: 1, name: null, bot: "random" }];
const CARDS = {
  phase: "cards", round: 1, rounds: 20, captain: null, active: null, announced: 1, board: { joints: [0, 0, 0, 0], pieces: [] },
  cards: { latest: [null, null], chosen: [true, false], hand: null },
  supply_sizes: [16, 16], supplies: [[2, 2, 2, 2, 2, 2, 2, 2], [2, 2, 2, 2, 2, 2, 2, 2]], caught: [0, 0], legal_actions: [],
};

/** @param {number | null} you @param {string} status */
function drawn(you, status) {
  const root = document.createElement("section");
  document.body.append(root);
  riffraff.render(root, { view: CARDS, you, toMove: you === null ? null : 1, seats: SEATS, names: ["Ana", "Bot"],
    status, tableId: `${status}:t1`, log: [], act: () => {}, notify: () => {} });
  return root.textContent || "";
}

test("a replay, or a guest, is not told that 'the others' choose their cards", () => {
  const replay = drawn(null, "replay");
  assert.match(replay, /The players are choosing their cards/);
  assert.doesNotMatch(replay, /The others/);
  assert.match(drawn(0, "playing"), /The others are choosing their cards/); // Ana has laid hers
});
