// Karolinchen in the browser: each worm with its eaten, covered and free fruits, the current
// card, the hand to choose the next card from, and the coloured dice in the middle. Every
// colour also has its own symbol, and the touch targets are big: children play on tablets.

import { append, asGroup, h, s } from "../dom.js";
import { t } from "../i18n.js";

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
    segments.push(s("circle", { cx: x, cy: y, r: 9, class: `kc-segment ${kind}`, style: kind === "covered" ? `fill:${colourAt(i)}` : null }));
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

export function render(root, ctx) {
  const view = ctx.view;
  if (!view || !view.worms) return;
  const legal = view.legal_actions || [];
  const counts = Object.fromEntries(view.fruits.map((f) => [f.letter, f.count]));
  const middle = view.middle.split("").filter(Boolean);
  append(root, 
    h("section", { class: "kc-middle" }, h("h3", { text: t("kc.middle") }),
      h("div", { class: "kc-dice" }, middle.length ? middle.map((letter) => colourDie(letter)) : h("span", { class: "muted", text: t("kc.rolling") }))),
    h("section", { class: "kc-worms" }, view.worms.map((worm, seat) => {
      const mine = seat === ctx.you;
      const hand = worm.hand.map((letter) => {
        const action = `lay ${letter}`;
        const allowed = mine && legal.includes(action);
        const colour = COLOURS[letter];
        return allowed
          ? h("button", { class: "kc-hand-card choosable", style: `--c:${colour.fill}`, "data-action": action, onclick: () => ctx.act(action) },
            h("span", { class: "kc-symbol", text: colour.symbol }), h("span", { text: t(`kc.fruit.${letter}`) }))
          : h("div", { class: "kc-hand-card", style: `--c:${colour.fill}`, role: "img", "aria-label": t(`kc.fruit.${letter}`) },
            h("span", { class: "kc-symbol", text: colour.symbol }));
      });
      return h("article", { class: `kc-player${seat === ctx.toMove ? " to-move" : ""}${mine ? " mine" : ""}`, "data-seat": seat },
        h("header", {}, h("strong", { text: ctx.names[seat] }), h("span", { class: "muted", text: ` ${worm.progress} / 21` })),
        wormBody(worm, view.fruits, `${ctx.names[seat]}#${seat}`),
        h("div", { class: "kc-cards" },
          h("div", {}, h("h4", { text: t("kc.card") }), card(worm.current, worm.free, counts[worm.current])),
          h("div", {}, h("h4", { text: t("kc.hand") }), h("div", { class: "kc-hand" }, hand))));
    })),
    legal.some((a) => a === "take" || a === "leave")
      ? h("div", { class: "actions" },
        legal.filter((a) => a === "take" || a === "leave").map((a) =>
          h("button", { class: `big ${a === "take" ? "primary" : ""}`, "data-action": a, onclick: () => ctx.act(a), text: t(`kc.${a}`) })))
      : null);
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
      said.push(t("kc.log.eat", { eaten: eats.map(([, s, , n]) => `${who(s)} ${n}`).join(", ") }));
    } else if (kind !== "eat") {
      said.push(t(`kc.log.${kind}`, words));
    }
  }
  return said;
}
