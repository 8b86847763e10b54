// A rating's history as a small line chart (inline SVG) with a title and a description for
// screen readers, and the same numbers as a table for anyone who wants them.

import { h, s } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {{ at: number | null, rating: number, table_id: string | null }} HistoryPoint */

export const CHART = { width: 320, height: 120, left: 44, right: 8, top: 10, bottom: 10 };
const LEAST_SPAN = 40; // points: a flat history still shows as a line across the middle

/**
 * Where each rating lies in the chart: evenly spaced from left to right, the lowest at the
 * bottom and the highest at the top, within a span of at least `LEAST_SPAN` points.
 * @param {number[]} ratings
 * @returns {{ points: { x: number, y: number }[], low: number, high: number }}
 */
export function chartPoints(ratings) {
  const least = Math.min(...ratings);
  const most = Math.max(...ratings);
  const widen = Math.max(0, LEAST_SPAN - (most - least)) / 2;
  const low = Math.floor(least - widen);
  const high = Math.ceil(most + widen);
  const across = CHART.width - CHART.left - CHART.right;
  const down = CHART.height - CHART.top - CHART.bottom;
  const step = ratings.length > 1 ? across / (ratings.length - 1) : 0;
  const points = ratings.map((rating, n) => ({
    x: round(CHART.left + (ratings.length > 1 ? n * step : across / 2)),
    y: round(CHART.top + ((high - rating) / (high - low)) * down),
  }));
  return { points, low, high };
}

/** @param {number} value */
function round(value) {
  return Math.round(value * 10) / 10;
}

/**
 * The chart of one game's rating history (the rating before the first game shown, then after
 * each game), followed by a table of the same numbers that opens on request.
 * @param {string} id  unique on the page, for the title and description
 * @param {string} title  the game's title
 * @param {HistoryPoint[]} history
 * @param {(points: number) => string} format
 */
export function ratingChart(id, title, history, format) {
  const ratings = history.map((p) => p.rating);
  const { points, low, high } = chartPoints(ratings);
  const games = ratings.length - 1;
  const desc = t("rate.chart_desc", {
    first: format(ratings[0]), last: format(ratings[ratings.length - 1]), games,
    low: format(Math.min(...ratings)), high: format(Math.max(...ratings)),
  });
  const line = points.map((p) => `${p.x},${p.y}`).join(" ");
  const svg = s("svg", {
    class: "rating-chart", viewBox: `0 0 ${CHART.width} ${CHART.height}`, role: "img",
    "aria-labelledby": `${id}-title`, "aria-describedby": `${id}-desc`,
  },
  s("title", { id: `${id}-title`, text: t("rate.chart_title", { game: title }) }),
  s("desc", { id: `${id}-desc`, text: desc }),
  s("line", { class: "chart-axis", x1: CHART.left, y1: CHART.top, x2: CHART.left, y2: CHART.height - CHART.bottom }),
  s("text", { class: "chart-label", x: CHART.left - 4, y: CHART.top + 4, "text-anchor": "end", text: format(high) }),
  s("text", { class: "chart-label", x: CHART.left - 4, y: CHART.height - CHART.bottom, "text-anchor": "end", text: format(low) }),
  s("polyline", { class: "chart-line", points: line, fill: "none" }),
  points.map((p) => s("circle", { class: "chart-dot", cx: p.x, cy: p.y, r: 2.5 })));
  const rows = ratings.map((rating, n) => h("tr", {},
    h("td", { text: n === 0 ? t("rate.start") : n }),
    h("td", { class: "rating", text: format(rating) })));
  return h("figure", { class: "rating-history", "data-game": id },
    svg,
    h("figcaption", { class: "muted", text: desc }),
    h("details", {},
      h("summary", { text: t("rate.chart_table") }),
      h("table", { class: "ratings-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("rate.game_number") }), h("th", { scope: "col", text: t("rate.rating") }))),
        h("tbody", {}, rows))));
}
