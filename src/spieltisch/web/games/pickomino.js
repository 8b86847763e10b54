// Pickomino in the browser: the grill, every stack's top tile, the roll to choose from, the dice
// set aside with the running sum, roll and stop buttons (naming the tile a stop takes), the odds.

import { append, arrowKeys, asGroup, h, s } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { fromPlace, playMotion, rollAge } from "../motion.js";

export const hasOdds = true;
const FACES = ["1", "2", "3", "4", "5", "w"];
const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[25, 25], [50, 50], [75, 75]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[25, 25], [75, 25], [50, 50], [25, 75], [75, 75]],
};

function wormsOf(number) {
  return Math.floor((number - 17) / 4);
}

function worm(x, y, size, cls = "worm") {
  const k = size / 40;
  const d = `M ${x - 16 * k} ${y + 4 * k} q ${8 * k} ${-14 * k} ${16 * k} 0 t ${16 * k} 0`;
  return s("g", { class: cls },
    s("path", { d, fill: "none", "stroke-width": 7 * k, "stroke-linecap": "round" }),
    s("circle", { cx: x + 16 * k, cy: y + 4 * k, r: 5 * k }));
}

export function dieFace(face, extraClass = "") {
  /** @type {SVGElement[]} */
  const body = [s("rect", { x: 4, y: 4, width: 92, height: 92, rx: 16, class: "die-body" })];
  if (face === 5) body.push(worm(50, 48, 80, "worm on-die"));
  else for (const [cx, cy] of PIPS[face + 1]) body.push(s("circle", { cx, cy, r: 9, class: "pip" }));
  return s("svg", { viewBox: "0 0 100 100", class: `die ${extraClass}`, role: "img", "aria-label": faceName(face) }, body);
}

export function tile(number, state = "grill") {
  const worms = wormsOf(number);
  /** @type {SVGElement[]} */
  const parts = [s("rect", { x: 2, y: 2, width: 56, height: 86, rx: 8, class: "tile-body" })];
  if (state !== "down") {
    parts.push(s("text", { x: 30, y: 32, "text-anchor": "middle", class: "tile-number" }, String(number)));
    parts.push(s("line", { x1: 8, y1: 42, x2: 52, y2: 42, class: "tile-line" }));
    for (let i = 0; i < worms; i += 1) parts.push(worm(30, 54 + i * 9, 22));
  }
  const name = state === "down" ? t("pk.a11y.tile_down") : t("pk.a11y.tile", { tile: number, n: worms });
  return s("svg", { viewBox: "0 0 60 90", class: `tile ${state}`, "data-tile": number, role: "img", "aria-label": name }, parts);
}

// Every seat sees the same position: no cover between the people at one screen.
export const secrets = false;

export function picture() {
  return s("svg", { viewBox: "0 0 200 110", class: "game-picture" },
    asGroup(tile(27), "translate(6 10)"),
    asGroup(dieFace(5), "translate(74 10) scale(0.55)"),
    asGroup(dieFace(3), "translate(134 10) scale(0.55)"),
    asGroup(dieFace(4), "translate(104 58) scale(0.45)"));
}

// What a screen reader adds after each change: the sum so far and whether a worm is set aside.
export function spokenFacts(view) {
  if (!view || !view.state || !view.state.kept.some((c) => c > 0)) return null;
  return `${t("pk.sum", { sum: view.sum })}, ${view.has_worm ? t("pk.worm_yes") : t("pk.worm_no")}.`;
}

// A die's face in words: "a worm" or the number (for screen readers, in the player's language).
function faceName(face) {
  return face === 5 ? t("pk.a11y.worm") : String(face + 1);
}

function diceRow(counts, { clickable, legal, act, odds, kind, age = null }) {
  const groups = [];
  let shown = 0;
  counts.forEach((count, face) => {
    if (!count) return;
    const action = `take ${FACES[face]}`;
    const allowed = clickable && legal.includes(action);
    const dice = Array.from({ length: count }, () => dieFace(face));
    for (const die of dice) die.style.setProperty("--i", String(shown++)); // they land one by one
    const info = odds && odds[action];
    const group = allowed
      ? h("button", { class: "dice-group choosable", "data-action": action, "data-face": FACES[face],
        "aria-label": t("pk.a11y.take", { n: count, face: faceName(face) }), title: t("pk.a11y.take", { n: count, face: faceName(face) }),
        onclick: () => act(action) }, dice)
      : h("div", { class: `dice-group${clickable ? " blocked" : ""}`, "data-face": FACES[face] }, dice);
    groups.push(h("div", { class: "dice-slot" }, group, info ? oddsNote(info) : null));
  });
  const fresh = age !== null;
  return h("div", { class: `dice-row ${kind}${fresh ? " fresh" : ""}`, style: fresh ? `--late:${Math.round(age)}ms` : null }, groups);
}

function oddsNote(info) {
  const win = info.p_win === undefined ? [] : [" · ", h("b", { class: "win-chance", text: t("pk.win", { p: Math.round(info.p_win * 100) }) })];
  return h("span", { class: "odds-note" },
    t("pk.expected", { worms: formatNumber(info.expected_worms, 2) }), " · ",
    t("pk.fail", { p: Math.round(info.p_fail * 100) }), ...win);
}

function stopLabel(action, view, names) {
  const stop = view.stop || {};
  if (action === "steal" && stop.steal) return t("pk.steal", { tile: stop.steal.tile, name: names[stop.steal.from] });
  if (action === "grill" && stop.grill !== null && stop.grill !== undefined) return t("pk.grill", { tile: stop.grill });
  return t("pk.stop_fail");
}

function buttons(ctx, legal, odds) {
  const wanted = legal.filter((a) => ["roll", "steal", "grill", "stop"].includes(a));
  return h("div", { class: "actions" }, wanted.map((action) => {
    const label = action === "roll" ? t("pk.roll") : stopLabel(action, ctx.view, ctx.names);
    const info = odds && odds[action];
    return h("div", { class: "action-slot" },
      h("button", { class: `big ${action === "roll" ? "" : "primary"} ${action === "stop" ? "danger" : ""}`, "data-action": action, onclick: () => ctx.act(action) }, label),
      info ? oddsNote(info) : null);
  }));
}

function grill(view) {
  const onGrill = new Set(view.state.grill);
  const out = new Set(view.out);
  const tiles = [];
  for (let n = 21; n <= 36; n += 1) tiles.push(tile(n, onGrill.has(n) ? "grill" : out.has(n) ? "down" : "taken"));
  return h("section", { class: "grill" }, h("h3", { text: t("pk.grill_title") }), h("div", { class: "tiles" }, tiles));
}

function stacks(view, ctx) {
  return h("section", { class: "stacks" }, view.state.stacks.map((stack, seat) => {
    const top = stack.length ? stack[stack.length - 1] : null;
    return h("div", { class: `stack${seat === ctx.toMove ? " to-move" : ""}${seat === ctx.you ? " mine" : ""}`, "data-seat": seat },
      top === null ? h("div", { class: "tile-space" }) : tile(top, "top"),
      h("div", { class: "stack-name", text: ctx.names[seat] }),
      h("div", { class: "muted", text: `${t("pk.tiles", { n: stack.length })} · ${t("pk.worms", { n: view.scores[seat] })}` }));
  }));
}

// --- tiles on the move: from the grill or a stack to a stack, or back to the grill --------
const TILE_MOTION_MS = 700;
let seen = null; // the tiles as last drawn: { table, grill, tops }
let moves = []; // { key, tile, from: "grill" | seat, to: "grill" | "down" | seat }

function tileMoves(view, table) {
  const onGrill = view.state.grill;
  const tops = view.state.stacks.map((stack) => (stack.length ? stack[stack.length - 1] : null));
  const before = seen && seen.table === table ? seen : null;
  seen = { table, grill: onGrill, tops };
  if (!before) return [];
  const found = [];
  const key = (number) => `${table}:${view.state.turn}:${number}`;
  tops.forEach((number, seat) => {
    if (number === null || before.tops[seat] === number) return;
    const from = before.grill.includes(number) ? "grill" : before.tops.indexOf(number);
    if (from !== -1) found.push({ key: key(number), tile: number, from, to: seat });
  });
  for (const number of onGrill) {
    const from = before.grill.includes(number) ? -1 : before.tops.indexOf(number);
    if (from !== -1) found.push({ key: key(number), tile: number, from, to: "grill" });
  }
  for (const number of before.grill) {
    if (!onGrill.includes(number) && view.out.includes(number)) found.push({ key: key(number), tile: number, from: "down", to: "down" });
  }
  return found;
}

function tileSpot(root, place, number) {
  if (place === "grill" || place === "down") return root.querySelector(`.grill [data-tile="${number}"]`);
  return root.querySelector(`.stack[data-seat="${place}"] .tile, .stack[data-seat="${place}"] .tile-space`);
}

// Once the new board is on the page: each moving tile starts where it came from.
function playTileMoves(root) {
  for (const move of moves) {
    const node = tileSpot(root, move.to, move.tile);
    const source = tileSpot(root, move.from, move.tile);
    if (!node || !source) continue;
    const frames = move.to === "down"
      ? [{ transform: "rotateY(180deg)" }, { transform: "none" }]
      : fromPlace(node, source.getBoundingClientRect());
    playMotion(node, move.key, frames, TILE_MOTION_MS);
  }
}

export function render(root, ctx) {
  arrowKeys(root);
  const view = ctx.view;
  if (!view || !view.state) return;
  const legal = view.legal_actions || [];
  const mine = ctx.you !== null && ctx.toMove === ctx.you;
  const odds = ctx.odds ? Object.fromEntries(ctx.odds.map((o) => [o.action, o])) : null;
  const rolled = view.state.rolled.some((c) => c > 0);
  const rollKey = rolled ? `${view.state.turn}:${view.state.kept}:${view.state.rolled}` : "";
  const age = rolled ? rollAge("pickomino", `${ctx.tableId}:${rollKey}`) : null; // only a new roll tumbles in
  const turn = h("section", { class: `turn${mine ? " mine" : ""}` },
    h("div", { class: "turn-facts" },
      h("span", { class: "sum", id: "sum", text: t("pk.sum", { sum: view.sum }) }),
      h("span", { class: view.has_worm ? "worm-yes" : "worm-no", text: view.has_worm ? t("pk.worm_yes") : t("pk.worm_no") }),
      h("span", { class: "muted", text: t("pk.dice_left", { n: view.dice_left }) })),
    rolled ? h("p", { class: "hint", text: mine ? t("pk.rolled") : t("pk.rolled_other") }) : null,
    rolled ? diceRow(view.state.rolled, { clickable: mine, legal, act: ctx.act, odds, kind: "rolled", age }) : null,
    view.state.kept.some((c) => c > 0)
      ? h("div", { class: "kept" }, h("h3", { text: t("pk.kept") }), diceRow(view.state.kept, { clickable: false, legal, act: ctx.act, odds: null, kind: "kept" }))
      : null,
    mine ? buttons(ctx, legal, odds) : null,
    ctx.setOdds && ctx.you !== null
      ? h("label", { class: "odds-toggle" },
        h("input", { type: "checkbox", id: "odds", checked: ctx.oddsOn, onchange: (e) => ctx.setOdds(e.target.checked) }),
        h("span", { text: t("pk.odds") }))
      : null);
  const over = ctx.status === "over";
  append(root, grill(view), stacks(view, ctx), over ? null : turn); // no turn after the end
  const now = performance.now();
  moves = moves.filter((m) => now - m.since < TILE_MOTION_MS)
    .concat(tileMoves(view, ctx.tableId).map((m) => ({ ...m, since: now })));
  if (moves.length) queueMicrotask(() => playTileMoves(root));
}

export function logText(entry, args, names = []) {
  const said = actionText(entry, args);
  const told = tileText(args, names);
  return said || told ? [said, told].filter(Boolean).join(" ") : null;
}

function actionText(entry, args) {
  if (entry.key === "chance" && args.outcome && args.outcome.startsWith("=")) {
    return t("pk.log.dice", { dice: args.outcome.slice(1).split("").map((f) => (f === "w" ? "W" : f)).join(" ") });
  }
  if (entry.key !== "move" || !args.action) return null;
  const [word, face] = args.action.split(" ");
  if (word === "take") return face === "w" ? t("pk.log.take_w", args) : t("pk.log.take", { ...args, face });
  if ((word === "steal" || word === "grill") && "tile" in args) return null; // told with its tile
  if (["roll", "steal", "grill", "stop"].includes(word)) return t(`pk.log.${word}`, args);
  return null;
}

// The tile a turn's end took, gave back or turned down (the server's story of the entry).
function tileText(args, names) {
  const parts = [];
  const name = args.name || names[args.seat] || "";
  if ("tile" in args) {
    const stolen = args.from !== null && args.from !== undefined;
    const key = stolen ? "pk.log.steal_tile" : "pk.log.grill_tile";
    parts.push(t(key, { name, tile: args.tile, victim: stolen ? names[args.from] || `#${args.from + 1}` : "" }));
  }
  if ("returned" in args) parts.push(t("pk.log.returned", { name, tile: args.returned }));
  if ("turned_down" in args) parts.push(t("pk.log.turned_down", { tile: args.turned_down }));
  return parts.join(" ");
}
