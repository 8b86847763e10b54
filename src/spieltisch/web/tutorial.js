// "Learn to play": a guided first game against a friendly bot. Each step of the game is
// explained the first time it really happens: the lessons read the table's state messages and
// new log entries, so they are right for any dice. While an explanation is open the bot's
// moves, the rolls and the ship's motion wait in the browser and then follow one by one, so
// nothing runs away unread; only the learner's own catch of falling cargo is never held back
// (its window is timed by the server, and slowed down in a guided game). Each explanation
// outlines the control it talks about, and the game ends with a clear finish.

import { h } from "./dom.js";
import { sentence, t } from "./i18n.js";

const STEP_MS = 1200; // moves held back during an explanation are then shown this far apart

// --- what a lesson looks at -------------------------------------------------------------------
const mine = (m) => m.to_move !== null && m.to_move === m.you;
const legal = (m) => m.view.legal_actions || [];
const theirs = (m) => m.to_move !== null && m.to_move !== m.you;
const entryWith = (fresh, test) => fresh.find((entry) => test(entry.args || {}, entry));
const who = (c, seat) => c.names[seat] || `#${seat + 1}`;
const over = (c) => (c.now.result ? {} : null);
const catching = (m) => Boolean(m.view) && m.view.phase === "catch" && mine(m);

function kcStep(c, kind) {
  for (const entry of c.fresh) {
    const step = ((entry.args || {}).steps || []).find(([k]) => k === kind);
    if (step) return { name: who(c, step[1]), fruit: step[2] ? t(`kc.fruit.${step[2]}`) : "", n: step[3] };
  }
  return null;
}

// Each game's lessons in the order they are shown when several happen at once. `when` gets
// { now, before, fresh, names } and returns the lesson's words, or null while it does not apply.
const LESSONS = {
  pickomino: [
    { id: "welcome", at: ".board .dice-row", when: (c) => (mine(c.now) && !c.now.view.state.kept.some(Boolean) ? {} : null) },
    { id: "first_roll", at: ".board .dice-group.choosable", when: (c) => (mine(c.now) && c.now.view.state.rolled.some(Boolean) ? {} : null) },
    { id: "set_aside", at: ".board [data-action='roll'], .board [data-action='stop']", when: (c) => (mine(c.now) && legal(c.now).includes("roll") && c.now.view.state.kept.some(Boolean)
      ? { sum: c.now.view.sum, n: c.now.view.dice_left } : null) },
    { id: "worm_needed", when: (c) => (mine(c.now) && legal(c.now).includes("roll") && c.now.view.state.kept.some(Boolean) && !c.now.view.has_worm ? {} : null) },
    { id: "take_tile", at: ".board [data-action='grill']", when: (c) => (mine(c.now) && legal(c.now).includes("grill") ? { sum: c.now.view.sum, tile: c.now.view.stop.grill } : null) },
    { id: "steal", at: ".board [data-action='steal']", when: (c) => (mine(c.now) && legal(c.now).includes("steal")
      ? { tile: c.now.view.stop.steal.tile, name: who(c, c.now.view.stop.steal.from) } : null) },
    { id: "your_tile", at: ".board .stack.mine", when: (c) => tileTaken(c, (args) => args.seat === c.now.you) },
    { id: "stolen", at: ".board .stack.mine", when: (c) => tileTaken(c, (args) => args.from === c.now.you) },
    { id: "bot_tile", at: ".board .stack:not(.mine)", when: (c) => tileTaken(c, (args) => args.seat !== c.now.you && args.from !== c.now.you) },
    { id: "failed", at: ".board section.grill", when: (c) => {
      const found = entryWith(c.fresh, (args) => "returned" in args || "turned_down" in args);
      return found ? { name: who(c, found.args.seat) } : null;
    } },
    { id: "bot_turn", at: ".board .dice-row", when: (c) => (theirs(c.now) && c.now.view.state.rolled.some(Boolean) ? { name: who(c, c.now.to_move) } : null) },
    { id: "over", when: over },
  ],
  karolinchen: [
    { id: "welcome", at: ".board .kc-player.mine .kc-cards", when: (c) => {
      const worm = c.now.view.worms[c.now.you];
      return worm && worm.current ? { fruit: t(`kc.fruit.${worm.current}`) } : null;
    } },
    { id: "roll", at: ".board .kc-middle", when: (c) => {
      const found = entryWith(c.fresh, (args, entry) => entry.key === "chance" && !args.deal && "seat" in args);
      return found ? { name: who(c, found.args.seat) } : null;
    } },
    { id: "take", at: ".board .kc-player .kc-cards", when: (c) => kcStep(c, "take") },
    { id: "none", at: ".board .kc-middle", when: (c) => kcStep(c, "none") },
    { id: "choose", at: ".board .kc-hand-card.choosable", when: (c) => (mine(c.now) && legal(c.now).some((a) => a.startsWith("lay ")) ? {} : null) },
    { id: "eat", at: ".board .kc-worm", when: (c) => kcStep(c, "eat") },
    { id: "grow", at: ".board .kc-worm", when: (c) => kcStep(c, "grow") },
    { id: "over", when: over },
  ],
  riffraff: [
    { id: "welcome", when: () => ({}) },
    { id: "cards", at: ".board .rr-hand", when: (c) => (mine(c.now) && c.now.view.phase === "cards" ? {} : null) },
    { id: "captain", at: ".board .rr-seats", when: (c) => {
      const view = c.now.view;
      const shown = view.phase !== "cards" && view.phase !== "over" && view.captain !== null;
      return shown ? { name: who(c, view.captain), card: view.cards.latest[view.captain] } : null;
    } },
    { id: "two", at: ".board [data-action='one'], .board [data-action='two']", when: (c) => (mine(c.now) && c.now.view.phase === "announce" ? {} : null) },
    { id: "place", at: ".board .rr-pieces, .board #rr-stage", when: (c) => (mine(c.now) && c.now.view.phase === "place" ? { area: c.now.view.cards.latest[c.now.you] } : null) },
    { id: "bot_loads", at: ".board #rr-stage", when: (c) => {
      const view = c.now.view;
      return theirs(c.now) && view.phase === "place" ? { name: who(c, view.active), area: view.cards.latest[view.active] } : null;
    } },
    // first of all while the learner's own cargo falls (and the fall waits, slowed down)
    { id: "catch", at: ".board #rr-stage", first: true, when: (c) => (catching(c.now) ? {} : null) },
    { id: "fall", at: ".board #rr-stage", when: (c) => (!catching(c.now) && entryWith(c.fresh, (args) => Array.isArray(args.fell) && args.fell.length) ? {} : null) },
    { id: "caught", at: "#game-log ol", when: (c) => {
      const found = entryWith(c.fresh, (args) => Array.isArray(args.caught) && args.caught.length);
      return found ? { name: who(c, found.args.seat) } : null;
    } },
    { id: "supply", at: ".board .rr-seats", when: (c) => {
      const found = entryWith(c.fresh, (args) => Array.isArray(args.supply) && args.supply.length + args.back.length);
      return found ? { name: who(c, found.args.seat), n: found.args.supply.length + found.args.back.length } : null;
    } },
    { id: "over", when: over },
  ],
};

const PREFIX = { pickomino: "pk", karolinchen: "kc", riffraff: "rr" };

function tileTaken(c, test) {
  const found = entryWith(c.fresh, (args) => "tile" in args && test(args));
  return found ? { tile: found.args.tile, name: who(c, found.args.seat), victim: who(c, found.args.from ?? 0) } : null;
}

// The learner's own catch is timed by the server: neither its motion nor its state is held.
function urgent(message, you) {
  if (message.type === "settle") return Boolean(message.catch) && message.catch.seat === you;
  return catching(message);
}

export function hasTutorial(game) {
  return game in LESSONS;
}

// The coach of one guided table. `show(message)` hands a message on to the table page;
// `redraw()` draws the page again (the coach's panel with it); `leave()` ends the tutorial.
export function makeCoach(tableId, show, redraw, leave) {
  const key = `spieltisch.tutorial.${tableId}`;
  const seen = new Set(JSON.parse(localStorage.getItem(key) || "[]"));
  const open = []; // lessons to read: { id, game, words, at }
  const held = []; // state and motion messages waiting while a lesson is open
  let you = null;
  let result = null; // the game's result once it is over: the tutorial's finish
  let pacing = false;
  let shownAt = 0;
  let timer = null;

  function offer(message) {
    if (message.type !== "state" && message.type !== "settle") return show(message);
    held.push(message);
    pump();
  }

  function flush() {
    while (held.length) release();
  }

  // A motion goes out together with the state it leads to, as the server sent them.
  function release() {
    shownAt = performance.now();
    const message = held.shift();
    show(message);
    if (message.type === "settle" && held.length && held[0].type === "state") show(held.shift());
  }

  function pump() {
    clearTimeout(timer);
    while (held.length) {
      if (held.some((message) => urgent(message, you))) return flush();
      if (open.length) {
        pacing = true;
        return redraw();
      }
      const wait = shownAt + STEP_MS - performance.now();
      if (pacing && wait > 0) {
        timer = setTimeout(pump, wait);
        return redraw();
      }
      release();
    }
    pacing = false;
  }

  // Called by the page after each shown state, with the log entries it brought. The page's
  // first state (opened mid-game: a reload, another device) explains what the table shows
  // now, not the log's past: only what happens while the page is open is news.
  function observe(before, now, fresh, names) {
    const game = now.table.game;
    if (!now.view || now.you === null || !LESSONS[game]) return;
    you = now.you;
    result = now.result || null;
    const context = { before, now, fresh: before ? fresh : [], names };
    for (const lesson of LESSONS[game]) {
      if (seen.has(lesson.id)) continue;
      const words = lesson.when(context);
      if (!words) continue;
      seen.add(lesson.id);
      const found = { id: lesson.id, game, words, at: lesson.at || null };
      if (lesson.first) open.unshift(found);
      else open.push(found);
    }
    localStorage.setItem(key, JSON.stringify([...seen]));
  }

  function dismiss() {
    open.shift();
    redraw();
    pump();
  }

  // Outlines the control the open explanation talks about: a style rule, so the outline
  // stays on through every redraw of the board (the ship's panels redraw by themselves).
  function point() {
    let style = document.getElementById("coach-style");
    if (!style) {
      style = h("style", { id: "coach-style" });
      document.head.append(style);
    }
    const at = open[0] && open[0].at;
    style.textContent = at ? `:is(${at}) { outline: 3px solid var(--accent); outline-offset: 3px; }` : "";
  }

  function lessonText(lesson, part) {
    return sentence(t(`tut.${PREFIX[lesson.game]}.${lesson.id}${part}`, lesson.words)); // "bot random loads"
  }

  function lessonBody(lesson) {
    return [h("h3", { class: "coach-title", id: "coach-lesson", text: lessonText(lesson, ".title") }),
      h("p", { class: "coach-text", id: "coach-text", text: lessonText(lesson, "") }),
      h("div", { class: "coach-actions" },
        h("button", { class: "primary", id: "coach-ok", text: t("tut.ok"), onclick: dismiss }),
        open.length > 1 ? h("span", { class: "muted", text: t("tut.more", { n: open.length - 1 }) }) : null,
        held.length ? h("span", { class: "muted coach-held", text: t("tut.held") }) : null)];
  }

  // The end of the guided game: who won, and the ways on.
  function finish(names) {
    const won = result.winners.includes(you);
    const winners = result.winners.map((seat) => names[seat]).join(", ");
    return [h("h3", { class: "coach-title", id: "coach-finish", text: t(won ? "tut.done.won" : "tut.done.lost") }),
      h("p", { class: "coach-text", text: `${sentence(t("table.won", { names: winners }))} ${t("tut.done.text")}` }),
      h("div", { class: "coach-actions" },
        h("button", { class: "primary", id: "coach-lobby", text: t("tut.done.lobby"), onclick: leave }))];
  }

  function panel(title, names = []) {
    const lesson = open[0];
    point();
    const body = lesson ? lessonBody(lesson)
      : result ? finish(names) : [h("p", { class: "muted", id: "coach-idle", text: t("tut.idle") })];
    return h("section", { class: `coach panel${lesson ? " speaking" : ""}${!lesson && result ? " finished" : ""}`, id: "coach", "aria-labelledby": "coach-head" },
      h("div", { class: "coach-head" },
        h("h2", { id: "coach-head", text: t("tut.heading", { game: title }) }),
        h("button", { class: "small", id: "leave-tutorial", text: t("tut.leave"), onclick: leave })),
      h("div", { "aria-live": "polite" }, body));
  }

  return {
    offer,
    observe,
    panel,
    stop: () => {
      clearTimeout(timer);
      open.length = 0;
      point();
    },
    lesson: () => (open[0] ? lessonText(open[0], "") : null),
  };
}
