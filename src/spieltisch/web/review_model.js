// The review's pure parts (no page, no game views): which games have a review, which decisions
// are puzzles, what solves one, the win-chance chart's lines and a loss in words.

import { formatNumber, t } from "./i18n.js";

export const GRADES = ["best", "good", "inaccuracy", "mistake", "blunder"];
export const ERRORS = new Set(["inaccuracy", "mistake", "blunder"]);
const PUZZLE_GRADES = new Set(["mistake", "blunder"]);
/** @type {{ [grade: string]: string }} */
export const GRADE_MARKS = { best: "✓✓", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };
export const CHART = { width: 600, height: 180, pad: 28 };

/**
 * @typedef {{ action: string, p_win?: number | null, expected_worms?: number, p_fail?: number,
 *   risk?: number, low?: number, high?: number, falls?: number }} Choice
 * @typedef {{ step: number, seat: number, played: string, best: string, grade: string,
 *   win_lost: number | null, worms_lost?: number, turn?: number, expert?: string,
 *   suggested?: string, kind?: string, risk_added?: number,
 *   choices: Choice[], answers: string[] }} Decision
 * @typedef {{ turn: number, seat: number, p_win: number[] }} ChartPoint
 */

/**
 * The games that have a review, from the server's list of games (`review: true`).
 * @param {{ name: string, review?: boolean }[]} games
 * @returns {Set<string>}
 */
export function reviewedGames(games) {
  return new Set(games.filter((game) => game.review).map((game) => game.name));
}

/**
 * A share of the win, from 0 to 1: the luck-adjusted result is an estimate that can step a
 * little outside (the model's values between turns are estimates too), shown within the range.
 * @param {number} share
 */
export function shareShown(share) {
  return Math.min(1, Math.max(0, share));
}

/**
 * A seat's puzzles: its mistakes and blunders, in the order they were made.
 * @param {Decision[]} decisions
 * @param {number} seat
 */
export function puzzlesOf(decisions, seat) {
  return decisions.filter((d) => d.seat === seat && PUZZLE_GRADES.has(d.grade));
}

/**
 * Whether an answer solves a puzzle: it loses less than an inaccuracy (the server's list).
 * @param {Decision} decision
 * @param {string} answer
 */
export function solves(decision, answer) {
  return decision.answers.includes(answer);
}

/**
 * The chart's lines: for each seat the SVG points of its win chance before every turn.
 * @param {ChartPoint[]} chart
 * @param {number} seats
 * @returns {string[]}
 */
export function chartLines(chart, seats) {
  const { width, height, pad } = CHART;
  const across = Math.max(1, chart.length - 1);
  return Array.from({ length: seats }, (_, seat) => chart.map((point, i) => {
    const x = pad + (i * (width - 2 * pad)) / across;
    const y = height - pad - point.p_win[seat] * (height - 2 * pad);
    return `${x.toFixed(1)},${y.toFixed(1)}`;
  }).join(" "));
}

/**
 * A loss in words: risk added (Riff Raff), else points of win chance where there are, else worms.
 * @param {Decision} decision
 */
export function lossText(decision) {
  if (decision.risk_added !== undefined) {
    return t("review.risk_added", { p: Math.round(100 * decision.risk_added) });
  }
  if (decision.win_lost !== null && decision.win_lost !== undefined) {
    return t("review.lost_win", { p: (100 * decision.win_lost).toFixed(1) });
  }
  return t("review.lost_worms", { w: (decision.worms_lost ?? 0).toFixed(2) });
}

const RIFFRAFF_PLACE = /^place (\w+) (\d+) u=([\d.]+) v=[-\d.]+ yaw=([-\d.]+) \w+$/;

/**
 * An action in words where its notation is hard to read (a Riff Raff placement or card), else
 * the notation itself.
 * @param {string} game
 * @param {string} action
 */
export function actionWords(game, action) {
  if (game !== "riffraff") return action;
  const card = /^card (\d+)$/.exec(action);
  if (card) return t("review.rr_card", { n: card[1] });
  const place = RIFFRAFF_PLACE.exec(action);
  if (!place) return action;
  const [, piece, area, u, yaw] = place;
  return t("review.rr_place", { piece: t(`rr.piece.${piece}`), area, u: formatNumber(Number(u), 2), yaw: Math.round(Number(yaw)) });
}
