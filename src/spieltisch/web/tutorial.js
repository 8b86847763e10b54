// "Learn to play": a guided first game against a friendly bot. Each step of the game is
// explained the first time it really happens: the lessons read the table's state messages and
// new log entries, so they are right for any dice. While an explanation is open the bot's
// moves wait in the browser and then follow one by one, so nothing runs away unread.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const STEP_MS = 1200; // moves held back during an explanation are then shown this far apart

// --- what a lesson looks at -------------------------------------------------------------------
const mine = (m) => m.to_move !== null && m.to_move === m.you;
const legal = (m) => m.view.legal_actions || [];
const theirs = (m) => m.to_move !== null && m.to_move !== m.you;
const entryWith = (fresh, test) => fresh.find((entry) => test(entry.args || {}, entry));
const who = (c, seat) => c.names[seat] || `#${seat + 1}`;
const over = (c) => (c.now.result ? {} : null);

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
    { id: "welcome", when: (c) => (mine(c.now) && !c.now.view.state.kept.some(Boolean) ? {} : null) },
    { id: "first_roll", when: (c) => (mine(c.now) && c.now.view.state.rolled.some(Boolean) ? {} : null) },
    { id: "set_aside", when: (c) => (mine(c.now) && legal(c.now).includes("roll") && c.now.view.state.kept.some(Boolean)
      ? { sum: c.now.view.sum, n: c.now.view.dice_left } : null) },
    { id: "worm_needed", when: (c) => (mine(c.now) && legal(c.now).includes("roll") && c.now.view.state.kept.some(Boolean) && !c.now.view.has_worm ? {} : null) },
    { id: "take_tile", when: (c) => (mine(c.now) && legal(c.now).includes("grill") ? { sum: c.now.view.sum, tile: c.now.view.stop.grill } : null) },
    { id: "steal", when: (c) => (mine(c.now) && legal(c.now).includes("steal")
      ? { tile: c.now.view.stop.steal.tile, name: who(c, c.now.view.stop.steal.from) } : null) },
    { id: "your_tile", when: (c) => tileTaken(c, (args) => args.seat === c.now.you) },
    { id: "stolen", when: (c) => tileTaken(c, (args) => args.from === c.now.you) },
    { id: "bot_tile", when: (c) => tileTaken(c, (args) => args.seat !== c.now.you && args.from !== c.now.you) },
    { id: "failed", when: (c) => {
      const found = entryWith(c.fresh, (args) => "returned" in args || "turned_down" in args);
      return found ? { name: who(c, found.args.seat) } : null;
    } },
    { id: "bot_turn", when: (c) => (theirs(c.now) && c.now.view.state.rolled.some(Boolean) ? { name: who(c, c.now.to_move) } : null) },
    { id: "over", when: over },
  ],
  karolinchen: [
    { id: "welcome", when: (c) => {
      const worm = c.now.view.worms[c.now.you];
      return worm && worm.current ? { fruit: t(`kc.fruit.${worm.current}`) } : null;
    } },
    { id: "roll", when: (c) => {
      const found = entryWith(c.fresh, (args, entry) => entry.key === "chance" && !args.deal && "seat" in args);
      return found ? { name: who(c, found.args.seat) } : null;
    } },
    { id: "take", when: (c) => kcStep(c, "take") },
    { id: "none", when: (c) => kcStep(c, "none") },
    { id: "choose", when: (c) => (mine(c.now) && legal(c.now).some((a) => a.startsWith("lay ")) ? {} : null) },
    { id: "eat", when: (c) => kcStep(c, "eat") },
    { id: "grow", when: (c) => kcStep(c, "grow") },
    { id: "over", when: over },
  ],
  riffraff: [
    { id: "welcome", when: () => ({}) },
    { id: "cards", when: (c) => (mine(c.now) && c.now.view.phase === "cards" ? {} : null) },
    { id: "captain", when: (c) => {
      const view = c.now.view;
      const shown = view.phase !== "cards" && view.phase !== "over" && view.captain !== null;
      return shown ? { name: who(c, view.captain), card: view.cards.latest[view.captain] } : null;
    } },
    { id: "two", when: (c) => (mine(c.now) && c.now.view.phase === "announce" ? {} : null) },
    { id: "place", when: (c) => (mine(c.now) && c.now.view.phase === "place" ? { area: c.now.view.cards.latest[c.now.you] } : null) },
    { id: "bot_loads", when: (c) => {
      const view = c.now.view;
      return theirs(c.now) && view.phase === "place" ? { name: who(c, view.active), area: view.cards.latest[view.active] } : null;
    } },
    { id: "fall", when: (c) => (entryWith(c.fresh, (args) => Array.isArray(args.fell) && args.fell.length) ? {} : null) },
    { id: "catch", when: (c) => (mine(c.now) && c.now.view.phase === "catch" ? {} : null) },
    { id: "caught", when: (c) => {
      const found = entryWith(c.fresh, (args) => Array.isArray(args.caught) && args.caught.length);
      return found ? { name: who(c, found.args.seat) } : null;
    } },
    { id: "supply", when: (c) => {
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

// Riff Raff's catch is timed by the server: it is never held back.
function urgent(message) {
  return message.type === "state" && message.view && message.view.phase === "catch";
}

export function hasTutorial(game) {
  return game in LESSONS;
}

// The coach of one guided table. `show(message)` hands a message on to the table page;
// `redraw()` draws the page again (the coach's panel with it); `leave()` ends the tutorial.
export function makeCoach(tableId, show, redraw, leave) {
  const key = `spieltisch.tutorial.${tableId}`;
  const seen = new Set(JSON.parse(localStorage.getItem(key) || "[]"));
  const open = []; // lessons to read: { id, game, words }
  const held = []; // state messages waiting while a lesson is open
  let pacing = false;
  let shownAt = 0;
  let timer = null;

  function offer(message) {
    if (message.type === "settle") flush(); // the ship's motion plays in real time
    if (message.type !== "state") return show(message);
    held.push(message);
    pump();
  }

  function flush() {
    while (held.length) release();
  }

  function release() {
    shownAt = performance.now();
    show(held.shift());
  }

  function pump() {
    clearTimeout(timer);
    while (held.length) {
      if (urgent(held[held.length - 1])) return flush();
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

  // Called by the page after each shown state, with the log entries it brought.
  function observe(before, now, fresh, names) {
    const game = now.table.game;
    if (!now.view || now.you === null || !LESSONS[game]) return;
    const context = { before, now, fresh, names };
    for (const lesson of LESSONS[game]) {
      if (seen.has(lesson.id)) continue;
      const words = lesson.when(context);
      if (!words) continue;
      seen.add(lesson.id);
      open.push({ id: lesson.id, game, words });
    }
    localStorage.setItem(key, JSON.stringify([...seen]));
  }

  function dismiss() {
    open.shift();
    redraw();
    pump();
  }

  function lessonText(lesson, part) {
    return t(`tut.${PREFIX[lesson.game]}.${lesson.id}${part}`, lesson.words);
  }

  function panel(title) {
    const lesson = open[0];
    const body = lesson
      ? [h("h3", { class: "coach-title", id: "coach-lesson", text: lessonText(lesson, ".title") }),
        h("p", { class: "coach-text", id: "coach-text", text: lessonText(lesson, "") }),
        h("div", { class: "coach-actions" },
          h("button", { class: "primary", id: "coach-ok", text: t("tut.ok"), onclick: dismiss }),
          open.length > 1 ? h("span", { class: "muted", text: t("tut.more", { n: open.length - 1 }) }) : null,
          held.length ? h("span", { class: "muted coach-held", text: t("tut.held") }) : null)]
      : [h("p", { class: "muted", id: "coach-idle", text: t("tut.idle") })];
    return h("section", { class: `coach panel${lesson ? " speaking" : ""}`, id: "coach", "aria-labelledby": "coach-head" },
      h("div", { class: "coach-head" },
        h("h2", { id: "coach-head", text: t("tut.heading", { game: title }) }),
        h("button", { class: "small", id: "leave-tutorial", text: t("tut.leave"), onclick: leave })),
      h("div", { "aria-live": "polite" }, body));
  }

  return {
    offer,
    observe,
    panel,
    stop: () => clearTimeout(timer),
    lesson: () => (open[0] ? lessonText(open[0], "") : null),
  };
}
