// Karolinchen in the browser: each worm with its eaten, covered and free fruits, the current
// card, the hand to choose the next card from, and the coloured dice in the middle. Every
// colour also has its own symbol, and the touch targets are big: children play on tablets.

import { append, arrowKeys, asGroup, h, s } from "../dom.js";
import { t } from "../i18n.js";
import { flyOnto, moving, rollAge } from "../motion.js";

const COLOURS = {
  r: { fill: "#d7263d", symbol: "♥" },
  g: { fill: "#3a9b3a", symbol: "♣" },
  y: { fill: "#f2c230", symbol: "★" },
  p: { fill: "#7b3fa0", symbol: "◆" },
  o: { fill: "#f28c28", symbol: "●" },
  b: { fill: "#2b6cd4", symbol: "▲" },
};
const ORDER = ["r", "g", "y", "p", "o", "b"];

export function colourDie(letter, extraClass = "") {
  const colour = COLOURS[letter] || { fill: "#999", symbol: "?" };
  return s("svg", { viewBox: "0 0 100 100", class: `cdie ${extraClass}`, role: "img", "aria-label": t(`kc.fruit.${letter}`), "data-colour": letter },
    s("rect", { x: 4, y: 4, width: 92, height: 92, rx: 18, fill: colour.fill, class: "cdie-body" }),
    s("text", { x: 50, y: 66, "text-anchor": "middle", class: "cdie-symbol" }, colour.symbol));
}

// Every seat sees the same position: no cover between the people at one screen.
export const secrets = false;

export function picture() {
  return s("svg", { viewBox: "0 0 200 110", class: "game-picture" },
    Array.from({ length: 7 }, (_, i) => s("circle", { cx: 30 + i * 20, cy: 70 + (i % 2 ? -6 : 6), r: 13, class: "kc-segment covered", style: `fill:${COLOURS[ORDER[i % 6]].fill}` })),
    s("circle", { cx: 170, cy: 62, r: 18, class: "kc-head" }),
    s("circle", { cx: 176, cy: 56, r: 3, fill: "#222" }),
    asGroup(colourDie("r"), "translate(20 6) scale(0.36)"),
    asGroup(colourDie("y"), "translate(64 6) scale(0.36)"),
    asGroup(colourDie("b"), "translate(108 6) scale(0.36)"));
}

// How far each worm had eaten when last drawn, so newly eaten fruits can be animated.
const lastEaten = new Map();

function wormBody(worm, fruits, key) {
  const size = fruits.reduce((sum, f) => sum + f.count, 0);
  const segments = [];
  // a covered fruit shows the colour of the die on it: the fruit of the card it lies on
  const colourAt = (i) => (COLOURS[(worm.fruits || "")[i]] || { fill: "#ccc" }).fill;
  const before = lastEaten.has(key) ? lastEaten.get(key) : worm.eaten;
  lastEaten.set(key, worm.eaten);
  for (let i = 0; i < size; i += 1) {
    let kind = i < worm.eaten ? "eaten" : i < worm.progress ? "covered" : "free";
    if (kind === "eaten" && i >= before) kind += " just-eaten";
    const x = 14 + i * 15;
    const y = 22 + (i % 2 ? -4 : 4);
    segments.push(s("circle", { cx: x, cy: y, r: 9, class: `kc-segment ${kind}`, "data-fruit-index": i,
      style: kind === "covered" ? `fill:${colourAt(i)}` : null }));
  }
  segments.push(s("circle", { cx: 14 + size * 15 + 4, cy: 20, r: 13, class: "kc-head" }));
  return s("svg", { viewBox: `0 0 ${size * 15 + 40} 44`, class: "kc-worm", role: "img", "aria-label": `${worm.progress}/${size}` }, segments);
}

function card(letter, free, count) {
  if (!letter) return h("div", { class: "kc-card empty" });
  const colour = COLOURS[letter];
  return h("div", { class: "kc-card", style: `--c:${colour.fill}`, "data-fruit": letter },
    h("span", { class: "kc-symbol", text: colour.symbol }),
    h("span", { class: "kc-fruit", text: t(`kc.fruit.${letter}`) }),
    free === null ? null : h("span", { class: "kc-free", text: t("kc.free", { n: free, of: count }) }));
}

// --- dice on the move: a new roll tumbles in, taken dice fly onto the worm's fruits ---------
const lastProgress = new Map(); // table and seat -> fruits covered or eaten when last drawn

// How long ago the latest roll in the log was first drawn, while its dice tumble (else null).
function rollShown(ctx) {
  const rolls = (ctx.log || []).filter((e) => e.key === "chance" && String(e.args.outcome || "").startsWith("="));
  return rolls.length ? rollAge("karolinchen", `${ctx.tableId}:${rolls[rolls.length - 1].seq}`) : null;
}

// The worms' fruits covered since the last drawing, each with the colour of its die.
function newlyCovered(view, tableId) {
  const found = [];
  view.worms.forEach((worm, seat) => {
    const key = `${tableId}#${seat}`;
    const before = lastProgress.has(key) ? lastProgress.get(key) : worm.progress;
    lastProgress.set(key, worm.progress);
    for (let i = before; i < worm.progress; i += 1) found.push({ seat, index: i, letter: worm.fruits[i] });
  });
  return found;
}

function flyDice(root, covered) {
  const from = root.querySelector(".kc-dice").getBoundingClientRect();
  covered.forEach(({ seat, index, letter }, n) => {
    const target = root.querySelector(`.kc-player[data-seat="${seat}"] [data-fruit-index="${index}"]`);
    flyOnto(colourDie(letter), from, target, n * 90);
  });
}

function rolledDie(letter, index) {
  const die = colourDie(letter);
  die.style.setProperty("--i", String(index)); // they land one by one
  return die;
}

// How many dice a card from the hand would take at once (the terminal's '+2').
function gain(letter, view, counts) {
  const inMiddle = view.middle.split("").filter((l) => l === letter).length;
  return Math.min(inMiddle, counts[letter]);
}

function handCard(letter, { allowed, hint, act }) {
  const colour = COLOURS[letter];
  const fruit = t(`kc.fruit.${letter}`);
  const told = hint ? t("kc.gain", { n: hint }) : null;
  const badge = hint ? h("span", { class: "kc-gain", "aria-hidden": "true", title: told, text: `+${hint}` }) : null;
  const said = hint ? `${fruit}, ${told}` : fruit;
  return allowed
    ? h("button", { class: "kc-hand-card choosable", style: `--c:${colour.fill}`, "data-action": `lay ${letter}`,
      onclick: () => act(`lay ${letter}`) },
    h("span", { class: "kc-symbol", text: colour.symbol }), h("span", { text: fruit }), badge,
    hint ? h("span", { class: "sr-only", text: `, ${told}` }) : null)
    : h("div", { class: "kc-hand-card", style: `--c:${colour.fill}`, role: "img", "aria-label": said },
      h("span", { class: "kc-symbol", text: colour.symbol }), badge);
}

// What the empty middle means: dice on their way, a card to lay first, or the game's end.
function emptyMiddle(view, choosing) {
  if (view.winners) return t("kc.middle_over");
  return choosing === null ? t("kc.rolling") : t("kc.all_to_roll");
}

function middleSection(view, middle, age, choosing) {
  const fresh = age !== null && middle.length > 0;
  return h("section", { class: "kc-middle" }, h("h3", { text: t("kc.middle") }),
    h("div", { class: `kc-dice${fresh ? " fresh" : ""}`, style: fresh ? `--late:${Math.round(age)}ms` : null }, middle.length
      ? middle.map(rolledDie)
      : h("span", { class: "muted", id: "kc-middle-note", text: emptyMiddle(view, choosing) })));
}

function playerPanel(worm, seat, { ctx, view, legal, counts, choosing }) {
  const mine = seat === ctx.you;
  const hand = worm.hand.map((letter) => handCard(letter, {
    allowed: mine && legal.includes(`lay ${letter}`),
    hint: seat === choosing ? gain(letter, view, counts) : 0,
    act: ctx.act,
  }));
  return h("article", { class: `kc-player${seat === ctx.toMove ? " to-move" : ""}${mine ? " mine" : ""}`, "data-seat": seat },
    h("header", {}, h("strong", { text: ctx.names[seat] }), h("span", { class: "muted", text: ` ${worm.progress} / 21` })),
    wormBody(worm, view.fruits, `${ctx.names[seat]}#${seat}`),
    h("div", { class: "kc-cards" },
      h("div", {}, h("h4", { text: t("kc.card") }), card(worm.current, worm.free, counts[worm.current])),
      h("div", {}, h("h4", { text: t("kc.hand") }), h("div", { class: "kc-hand" }, hand))));
}

export function render(root, ctx) {
  arrowKeys(root);
  const view = ctx.view;
  if (!view || !view.worms) return;
  const legal = view.legal_actions || [];
  const counts = Object.fromEntries(view.fruits.map((f) => [f.letter, f.count]));
  const middle = view.middle.split("").filter(Boolean);
  const age = rollShown(ctx);
  const covered = newlyCovered(view, ctx.tableId);
  const choosing = view.state.phase === "choose" ? ctx.toMove ?? view.state.seat : null;
  const hinted = ctx.you !== null && choosing === ctx.you && view.worms[ctx.you].hand.some((letter) => gain(letter, view, counts) > 0);
  const decisions = legal.filter((a) => a === "take" || a === "leave");
  append(root,
    middleSection(view, middle, age, choosing),
    hinted ? h("p", { class: "hint kc-choose-hint", text: t("kc.choose_hint") }) : null,
    h("section", { class: "kc-worms" }, view.worms.map((worm, seat) => playerPanel(worm, seat, { ctx, view, legal, counts, choosing }))),
    decisions.length
      ? h("div", { class: "actions" }, decisions.map((a) =>
        h("button", { class: `big ${a === "take" ? "primary" : ""}`, "data-action": a, onclick: () => ctx.act(a), text: t(`kc.${a}`) })))
      : null);
  if (covered.length && moving()) queueMicrotask(() => flyDice(root, covered));
}

// The log: who rolled what, who laid which card, and what it set off (dice taken, worms eating).
export function logText(entry, args, names = []) {
  const who = (seat) => names[seat] || `#${seat + 1}`;
  const said = [];
  if (entry.key === "chance" && args.outcome && args.outcome.startsWith("=")) {
    const dice = args.outcome.slice(1).split("").map((l) => t(`kc.fruit.${l}`)).join(", ");
    said.push(args.deal || !("seat" in args) ? t("kc.log.dice", { dice }) : t("kc.log.roll", { name: who(args.seat), dice }));
  } else if (entry.key === "move" && args.action && args.action.startsWith("lay ")) {
    said.push(t("kc.log.lay", { ...args, fruit: t(`kc.fruit.${args.action.slice(4)}`) }));
  } else if (!args.steps) {
    return null;
  }
  return said.concat(stepsText(args.steps || [], who)).join(" ");
}

function stepsText(steps, who) {
  const said = [];
  const eats = steps.filter(([kind]) => kind === "eat");
  for (const [kind, seat, fruit, number] of steps) {
    const words = { name: who(seat), fruit: fruit ? t(`kc.fruit.${fruit}`) : "", n: number };
    if (kind === "eat" && eats[0][1] === seat) {
      said.push(t("kc.log.eat", { eaten: eats.map(([, eater, , n]) => `${who(eater)} ${n}`).join(", ") }));
    } else if (kind !== "eat") {
      said.push(t(`kc.log.${kind}`, words));
    }
  }
  return said;
}
