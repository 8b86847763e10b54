// The review of a finished game (#/v/ID): the replay with every decision graded, the better
// choice marked on the board, the win chance over the game, each player's summary, and the
// player's mistakes and blunders replayed as puzzles ("find the better choice").
// The server builds the review once (GET /api/tables/ID/review); each decision carries the
// `answers` that solve it as a puzzle, so an answer is checked here.

import { api } from "./api.js";
import { h, keepingPlace, replaceChildren, s } from "./dom.js";
import { t } from "./i18n.js";
import { gameView } from "./games/index.js";
import { actionWords, CHART, chartLines, ERRORS, GRADE_MARKS, GRADES, lossText, puzzlesOf, shareShown, solves } from "./review_model.js";

/**
 * @typedef {import("./review_model.js").Decision} Decision
 * @typedef {import("./review_model.js").Choice} Choice
 * @typedef {import("./review_model.js").ChartPoint} ChartPoint
 */

const LINE_DASHES = ["", "6 4", "2 3", "10 3 2 3"]; // each player's line differs in more than colour

/** @param {string} grade */
function gradeBadge(grade) {
  return h("span", { class: `grade grade-${grade}`, text: `${GRADE_MARKS[grade] ?? ""} ${t(`review.grade.${grade}`)}` });
}

/** @param {number} p */
function percent(p) {
  return `${Math.round(100 * p)}%`;
}

/**
 * The review page.
 * @param {HTMLElement} app
 * @param {string} tableId
 * @param {{ seatName: (seat: any) => string, logText: (entry: any, names: string[], view: any) => string | null,
 *   deadEnd: (root: HTMLElement, error: any, link: string | null) => void, myName: string | null }} helpers
 */
export function reviewPage(app, tableId, helpers) {
  const root = h("div", { class: "review-page" }, h("p", { class: "status", id: "review-loading", text: t("review.loading") }));
  app.append(root);
  /** @type {any} */
  let replay = null;
  /** @type {any} */
  let review = null;
  let step = 0;
  /** @type {string | null} */
  let explored = null; // a choice the reader clicked on the board, to see what it was worth
  /** @type {{ seat: number, index: number, answer: string | null, shown: boolean } | null} */
  let puzzle = null;
  let puzzleSeat = 0; // the puzzles shown: the reader's own seat where it is known

  const words = (/** @type {string} */ action) => actionWords(replay.table.game, action);
  const decisionAt = () => review.decisions.find((/** @type {Decision} */ d) => d.step === step) || null;
  const names = () => replay.table.seats.map(helpers.seatName);

  /** @param {number} to */
  function go(to) {
    step = Math.max(0, Math.min(replay.steps.length - 1, to));
    explored = null;
    keepingPlace(draw);
  }

  /** @param {number} direction 1 or -1 @param {(d: Decision) => boolean} wanted */
  function toDecision(direction, wanted = () => true) {
    const steps = review.decisions.filter(wanted).map((/** @type {Decision} */ d) => d.step);
    const found = direction > 0 ? steps.find((/** @type {number} */ at) => at > step) : steps.reverse().find((/** @type {number} */ at) => at < step);
    if (found !== undefined) go(found);
  }

  // The position before step `at`; at a decision it is drawn for the mover with the decision's
  // choices (the public view has none), so they show as on the table; `act` answers a click.
  /** @param {number} at @param {Decision | null} decision @param {(action: string) => void} act */
  function board(at, decision, act) {
    const seat = decision ? decision.seat : null;
    const legal = decision ? choicesOf(decision) : [];
    const view = gameView(replay.table.game);
    const section = h("section", { class: `board game-${replay.table.game}`, id: "review-board" });
    view.render(section, {
      view: { ...replay.steps[at].view, legal_actions: legal }, you: seat, toMove: seat, seats: replay.table.seats, names: names(),
      status: "review", tableId: `review:${tableId}`, notify: () => {}, log: [], act, odds: null, oddsOn: false, setOdds: null,
    });
    return section;
  }

  /** @param {HTMLElement} section @param {string} action @param {string} mark @param {string} label */
  function markAction(section, action, mark, label) {
    const target = section.querySelector(`[data-action="${CSS.escape(action)}"]`);
    if (!target) return;
    target.classList.add(mark);
    const named = target.getAttribute("aria-label");
    if (named) target.setAttribute("aria-label", `${named}, ${label}`); // the mark is part of its name
    target.append(h("span", { class: "action-mark", text: label }));
  }

  function draw() {
    if (!review) return;
    if (puzzle) return drawPuzzle();
    const last = replay.steps.length - 1;
    const decision = decisionAt();
    const who = names();
    const current = replay.steps[step];
    const entry = current.action === null ? null : current.entry;
    let shown;
    if (decision) {
      shown = board(step, decision, (action) => { explored = action; keepingPlace(draw); });
      if (decision.best !== decision.played) markAction(shown, decision.best, "review-better", t("review.better_mark"));
      markAction(shown, decision.played, "review-played", t("review.played_mark"));
    } else {
      shown = board(step, null, () => {});
    }
    replaceChildren(root,
      h("div", { class: "table-head review-head" },
        h("h2", {}, h("span", { class: "review-kind", text: t("review.title") }), " ", h("span", { class: "review-game", text: replay.table.title })),
        h("a", { href: `#/r/${tableId}`, class: "button", text: t("table.replay") })),
      summaryPanel(who),
      chartPanel(who),
      h("div", { class: "replay-controls review-controls" },
        h("button", { id: "review-prev-decision", text: t("review.prev_decision"), onclick: () => toDecision(-1) }),
        h("button", { id: "replay-prev", text: t("replay.prev"), onclick: () => go(step - 1) }),
        h("input", { type: "range", min: 0, max: last, value: step, "aria-label": t("review.title"), oninput: (/** @type {any} */ e) => go(Number(e.target.value)) }),
        h("button", { id: "replay-next", text: t("replay.next"), onclick: () => go(step + 1) }),
        h("button", { id: "review-next-decision", text: t("review.next_decision"), onclick: () => toDecision(1) }),
        h("button", { id: "review-next-error", class: "primary", text: t("review.next_error"),
          onclick: () => toDecision(1, (d) => ERRORS.has(d.grade)) })),
      h("p", { class: "status", id: "replay-step", text: t("replay.step", { n: step, total: last }) }),
      errorList(who),
      decision ? decisionPanel(decision, who) : h("p", { class: "muted", id: "review-decision", text: entry ? helpers.logText(entry, who, gameView(replay.table.game)) || "" : t("review.no_decision") }),
      shown,
      puzzleStart(who));
  }

  /** @param {string[]} who */
  function errorList(who) {
    const errors = review.decisions.filter((/** @type {Decision} */ d) => ERRORS.has(d.grade));
    if (!errors.length) return h("p", { class: "muted", text: t("review.no_errors") });
    return h("details", { class: "review-errors" },
      h("summary", { text: t("review.errors", { n: errors.length }) }),
      h("ul", {}, errors.map((/** @type {Decision} */ d) => h("li", {},
        h("button", { class: `link${d.step === step ? " current" : ""}`, "data-step": d.step, onclick: () => go(d.step) },
          `${t("replay.step", { n: d.step, total: replay.steps.length - 1 })} · ${who[d.seat]} · ${words(d.played)} `, gradeBadge(d.grade))))));
  }

  /** @param {Decision} decision @param {string[]} who */
  function decisionPanel(decision, who) {
    const better = decision.best !== decision.played;
    const looked = explored && decision.choices.find((c) => c.action === explored);
    return h("section", { class: `panel review-decision grade-${decision.grade}`, id: "review-decision", "aria-live": "polite" },
      h("p", {}, h("strong", { text: t("review.played", { name: who[decision.seat], action: words(decision.played) }) }), " ",
        gradeBadge(decision.grade), " ", h("span", { text: decision.grade === "best" ? "" : lossText(decision) })),
      better ? h("p", { class: "review-better-text", id: "review-better", text: t("review.better", { action: words(decision.best) }) }) : null,
      decision.expert ? h("p", { class: "muted", text: t("review.expert", { action: decision.expert }) }) : null,
      decision.suggested && decision.suggested !== decision.played && decision.suggested !== decision.best ? h("p", { class: "muted", text: t("review.suggested", { action: words(decision.suggested) }) }) : null,
      looked ? h("p", { class: "muted", id: "review-explored", text: t("review.explored", { action: words(looked.action), value: choiceValue(looked) }) }) : null,
      decision.choices.length ? h("details", {}, h("summary", { text: t("review.choices") }), choicesTable(decision)) : null);
  }

  /** Every choice with its figures: expected worms and win chance, or the risk of a drop.
   * @param {Decision} decision */
  function choicesTable(decision) {
    const first = decision.choices[0];
    /** @type {[string, (c: Choice) => string][]} */
    const columns = [];
    if (first.expected_worms !== undefined) columns.push([t("review.col.worms"), (c) => (c.expected_worms ?? 0).toFixed(2)]);
    if (first.p_win !== undefined) columns.push([t("review.col.win"), (c) => (c.p_win === null || c.p_win === undefined ? "–" : percent(c.p_win))]);
    if (first.risk !== undefined) {
      columns.push([t("review.col.risk"), (c) => `${percent(c.risk ?? 0)} (${percent(c.low ?? 0)}–${percent(c.high ?? 0)})`],
        [t("review.col.falls"), (c) => (c.falls ?? 0).toFixed(2)]);
    }
    return h("table", { class: "review-choices" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("review.col.choice") }), columns.map(([text]) => h("th", { scope: "col", text })))),
      h("tbody", {}, decision.choices.map((c) => h("tr", { class: c.action === decision.best ? "best" : "" },
        h("td", { text: words(c.action) + (c.action === decision.best && decision.best !== decision.played ? ` (${t("review.better_mark")})` : "") }),
        columns.map(([, value]) => h("td", { text: value(c) }))))));
  }

  /** @param {Choice} choice */
  function choiceValue(choice) {
    const parts = [];
    if (choice.expected_worms !== undefined) parts.push(t("review.worms", { w: choice.expected_worms.toFixed(2) }));
    if (choice.p_win !== null && choice.p_win !== undefined) parts.push(t("review.win", { p: percent(choice.p_win) }));
    if (choice.risk !== undefined) parts.push(t("review.risk", { p: Math.round(100 * choice.risk) }));
    return parts.join(", ");
  }

  /** @param {string[]} who */
  function summaryPanel(who) {
    const pickomino = review.game === "pickomino";
    const risky = review.game === "riffraff";
    const withWin = pickomino && review.graded_by === "win chance";
    /** @type {[string, (p: any) => string][]} */
    const columns = [
      [t("review.col.decisions"), (p) => String(p.decisions)],
      ...GRADES.slice(2).map((g) => /** @type {[string, (p: any) => string]} */ ([t(`review.grade.${g}`), (p) => String(p.grades[g] ?? 0)])),
    ];
    if (pickomino) {
      columns.push([t("review.col.per_decision"), (p) => p.average_worms_lost.toFixed(2)], [t("review.col.luck"), (p) => signed(p.luck_worms, 2)],
        [t("review.col.worms_result"), (p) => `${p.worms} (${p.luck_adjusted_worms.toFixed(1)})`]);
    }
    if (withWin) columns.push([t("review.col.luck_win"), (p) => signed(100 * p.luck_win, 1)], [t("review.col.adjusted_win"), (p) => shareShown(p.luck_adjusted_win).toFixed(2)]);
    if (risky) {
      columns.push([t("review.col.agreed"), (p) => String(p.agreed)], [t("review.col.placements"), (p) => String(p.placements)],
        [t("review.col.mean_risk"), (p) => percent(p.mean_risk)], [t("review.col.risk_added"), (p) => (100 * p.risk_added).toFixed(0)],
        [t("review.col.fell"), (p) => String(p.fell)]);
    } else if (!pickomino) columns.push([t("review.col.win_lost"), (p) => (100 * p.win_lost).toFixed(1)]);
    const note = risky ? t("review.summary_note_risk", { n: review.trials })
      : pickomino ? `${t("review.summary_note")}${withWin ? ` ${t("review.adjusted_note")}` : ""}` : t("review.summary_note_cards", { n: review.rollouts });
    // On a phone each player's row shows as a list: every cell carries its column's name.
    return h("section", { class: "panel review-summary", id: "review-summary" },
      h("h3", { text: t("review.summary") }),
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("review.col.player") }), columns.map(([text]) => h("th", { scope: "col", text })))),
        h("tbody", {}, review.summary.map((/** @type {any} */ p) => h("tr", {},
          h("th", { scope: "row", text: who[p.seat] ?? p.name }),
          columns.map(([label, value]) => h("td", { "data-label": label, text: value(p) })))))),
      h("p", { class: "muted", text: note }));
  }

  /** @param {string[]} who */
  function chartPanel(who) {
    /** @type {ChartPoint[]} */
    const chart = review.chart || [];
    if (chart.length < 2) return null;
    const lines = chartLines(chart, who.length);
    const turn = replay.steps[step].view.state?.turn;
    const at = chart.findIndex((p) => p.turn === turn);
    const { width, height, pad } = CHART;
    const x = at < 0 ? null : pad + (at * (width - 2 * pad)) / (chart.length - 1);
    const line = (/** @type {number} */ x1, /** @type {number} */ y1, /** @type {number} */ x2, /** @type {number} */ y2, /** @type {string} */ kind) =>
      s("line", { x1, y1, x2, y2, class: kind });
    const drawing = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "review-chart", role: "img",
      "aria-labelledby": "review-chart-title review-chart-desc", focusable: "false" },
    line(pad, height / 2, width - pad, height / 2, "half"),
    line(pad, pad, pad, height - pad, "axis"),
    line(pad, height - pad, width - pad, height - pad, "axis"),
    s("text", { x: 2, y: pad + 4 }, "100%"),
    s("text", { x: 8, y: height - pad + 4 }, "0%"),
    x === null ? null : line(x, pad, x, height - pad, "now"),
    lines.map((points, seat) => s("polyline", { points, class: `seat-line seat-${seat % 4}`, "stroke-dasharray": LINE_DASHES[seat % 4] || null })));
    const figure = h("figure", { class: "panel review-chart-panel", id: "review-chart" },
      h("figcaption", { id: "review-chart-title", text: t("review.chart") }),
      h("p", { class: "sr-only", id: "review-chart-desc", text: chartDescription(chart, who) }));
    const holder = h("div", { class: "chart-holder" }, drawing);
    figure.append(holder,
      h("ul", { class: "chart-legend" }, who.map((name, seat) => h("li", {},
        h("span", { class: `swatch seat-${seat % 4}${LINE_DASHES[seat % 4] ? " dashed" : ""}`, "aria-hidden": "true" }), name))),
      h("details", {}, h("summary", { text: t("review.figures") }),
        h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("review.col.turn") }), who.map((name) => h("th", { scope: "col", text: name })))),
          h("tbody", {}, chart.map((p, i) => h("tr", {},
            h("th", { scope: "row", text: i === chart.length - 1 ? t("review.end") : String(p.turn + 1) }),
            p.p_win.map((v) => h("td", { text: percent(v) }))))))));
    return figure;
  }

  /** @param {ChartPoint[]} chart @param {string[]} who */
  function chartDescription(chart, who) {
    const end = chart[chart.length - 1].p_win;
    const start = chart[0].p_win;
    return t("review.chart_desc", {
      turns: chart.length - 1,
      start: who.map((name, seat) => `${name} ${percent(start[seat])}`).join(", "),
      end: who.map((name, seat) => `${name} ${percent(end[seat])}`).join(", "),
    });
  }

  // --- learn from your mistakes ---
  /** @param {string[]} who */
  function puzzleStart(who) {
    const found = puzzlesOf(review.decisions, puzzleSeat);
    const choose = h("select", { id: "puzzle-player", onchange: (/** @type {any} */ e) => { puzzleSeat = Number(e.target.value); keepingPlace(draw); } },
      who.map((name, seat) => h("option", { value: seat, text: name })));
    choose.value = String(puzzleSeat);
    return h("section", { class: "panel review-puzzles", id: "review-puzzles" },
      h("h3", { text: t("review.puzzles") }),
      h("p", { text: t("review.puzzles_intro") }),
      h("label", {}, h("span", { text: `${t("review.col.player")} ` }), choose),
      found.length
        ? h("p", {}, h("button", { id: "puzzle-start", class: "primary", text: t("review.puzzle_start", { n: found.length }),
          onclick: () => { puzzle = { seat: puzzleSeat, index: 0, answer: null, shown: false }; draw(); focusPuzzle(); } }))
        : h("p", { class: "muted", text: t("review.puzzles_none", { name: who[puzzleSeat] }) }));
  }

  function focusPuzzle() {
    document.getElementById("puzzle-title")?.focus();
  }

  function drawPuzzle() {
    if (!puzzle) return;
    const state = puzzle;
    const found = puzzlesOf(review.decisions, state.seat);
    const decision = found[state.index];
    const who = names();
    const solved = state.answer !== null && solves(decision, state.answer);
    const shown = board(decision.step, decision, (action) => {
      state.answer = action;
      keepingPlace(draw);
      document.getElementById("puzzle-feedback")?.focus();
    });
    const offBoard = answerButtons(shown, decision, (action) => {
      state.answer = action;
      keepingPlace(draw);
      document.getElementById("puzzle-feedback")?.focus();
    });
    if (solved || state.shown) for (const answer of decision.answers) markAction(shown, answer, "review-better", t("review.better_mark"));
    let feedback = null;
    if (state.answer !== null) {
      feedback = h("p", { class: `puzzle-feedback ${solved ? "solved" : "wrong"}`, id: "puzzle-feedback", tabindex: "-1", role: "status",
        text: solved ? t("review.puzzle_solved", { action: words(state.answer) }) : t("review.puzzle_wrong", { action: words(state.answer) }) });
    }
    const next = state.index + 1 < found.length;
    replaceChildren(root,
      h("div", { class: "table-head" },
        h("button", { id: "puzzle-back", text: t("review.puzzle_back"), onclick: () => { puzzle = null; go(decision.step); } }),
        h("h2", { id: "puzzle-title", tabindex: "-1", text: t("review.puzzle", { n: state.index + 1, total: found.length }) })),
      h("p", { class: "status", text: t("review.puzzle_task", { name: who[decision.seat], played: words(decision.played) }) }),
      feedback,
      state.shown && !solved ? h("p", { id: "puzzle-answers", text: t("review.puzzle_answers", { actions: decision.answers.map(words).join(", ") }) }) : null,
      h("div", { class: "replay-controls" },
        solved || state.shown ? null : h("button", { id: "puzzle-show", text: t("review.puzzle_show"), onclick: () => { state.shown = true; keepingPlace(draw); } }),
        next ? h("button", { id: "puzzle-next", class: solved ? "primary" : "", text: t("review.puzzle_next"),
          onclick: () => { puzzle = { ...state, index: state.index + 1, answer: null, shown: false }; draw(); focusPuzzle(); } })
          : solved ? h("span", { class: "status", id: "puzzle-done", text: t("review.puzzle_done") }) : null),
      offBoard,
      shown);
  }

  /** The decision's choices that the board has no control for (a Riff Raff placement is made
   * on the 3D ship; a hidden hand shows no cards), as buttons.
   * @param {HTMLElement} section @param {Decision} decision @param {(action: string) => void} act */
  function answerButtons(section, decision, act) {
    const missing = choicesOf(decision).filter((action) => !section.querySelector(`[data-action="${CSS.escape(action)}"]`));
    if (!missing.length) return null;
    return h("div", { class: "replay-controls puzzle-choices", role: "group", "aria-label": t("review.answer_choices") },
      missing.map((action) => h("button", { "data-choice": action, text: words(action), onclick: () => act(action) })));
  }

  api(`/api/tables/${tableId}/replay`).then((foundReplay) => {
    replay = foundReplay;
    const loading = document.getElementById("review-loading");
    if (loading && replay.table.game === "riffraff") loading.textContent = t("review.loading_long");
    return api(`/api/tables/${tableId}/review`);
  }).then((foundReview) => {
    review = foundReview;
    const mine = replay.table.seats.findIndex((/** @type {any} */ seat) => helpers.myName && seat.name === helpers.myName);
    puzzleSeat = Math.max(0, mine);
    go(review.decisions.length ? review.decisions[0].step : 0);
  }).catch((error) => helpers.deadEnd(root, error, error.code === "not_over" ? `#/t/${tableId}` : null));

  /** @param {KeyboardEvent} event */
  const keys = (event) => {
    if (!review || puzzle) return;
    const target = /** @type {HTMLElement | null} */ (event.target);
    if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    if (event.key === "ArrowRight") go(step + 1);
    if (event.key === "ArrowLeft") go(step - 1);
  };
  document.addEventListener("keydown", keys);
  return { stop: () => document.removeEventListener("keydown", keys), redraw: draw };
}

/** The actions a decision's board offers: its choices, or the one played where none was tried.
 * @param {Decision} decision */
function choicesOf(decision) {
  return decision.choices.length ? decision.choices.map((c) => c.action) : [decision.played];
}

/** @param {number} value @param {number} digits */
function signed(value, digits) {
  return `${value >= 0 ? "+" : ""}${value.toFixed(digits)}`;
}
