// A player's profile (#/p/NAME): per game the rating ("?" while provisional), the rated games,
// where it stands against the bots and its history as a chart; the latest rated games with
// their replays; wins and average place by the number of players; and the record against an
// opponent the visitor names.

import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { language, t } from "./i18n.js";
import { ratingChart } from "./rating_chart.js";
import { leaderboardLink, ratingText, standingText } from "./ratings.js";

/**
 * @typedef {import("./ratings.js").Page} Page
 * @typedef {import("./ratings.js").GameInfo} GameInfo
 * @typedef {import("./ratings.js").GameRating & { history: import("./rating_chart.js").HistoryPoint[] }} RatingWithHistory
 * @typedef {{ table_id: string, game: string, at: number, place: number, players: number, rating: number,
 *   change: number, with: string[] }} RecentGame
 * @typedef {{ game: string, players: number, games: number, wins: number, win_rate: number,
 *   average_place: number }} ByPlayers
 * @typedef {{ name: string, ratings: RatingWithHistory[], recent: RecentGame[], by_players: ByPlayers[] }} Profile
 * @typedef {{ game: string, games: number, ahead: number, behind: number, tied: number }} Together
 * @typedef {{ name: string, other: string, games: Together[] }} Versus
 */

/**
 * A signed change of rating, "+12", "−7" (a true minus sign), "±0".
 * @param {number} change
 */
export function changeText(change) {
  if (change === 0) return "±0";
  return change > 0 ? `+${ratingText(change)}` : `\u2212${ratingText(-change)}`;
}

/**
 * A share as a whole percentage the language's way, "67%" or "67 %".
 * @param {number} share  from 0 to 1
 */
export function percentText(share) {
  return new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 0 }).format(share);
}

/**
 * An average place with up to two decimals, "1.5" or "1,5".
 * @param {number} place
 */
export function placeText(place) {
  return new Intl.NumberFormat(language(), { maximumFractionDigits: 2 }).format(place);
}

/**
 * The page.
 * @param {HTMLElement} app
 * @param {string} name
 * @param {Page} page
 */
export function profilePage(app, name, page) {
  const root = h("div", { class: "profile-page" });
  app.append(root);
  /** @type {Profile | null} */
  let profile = null;
  /** @type {GameInfo[]} */
  let games = [];
  /** @type {Versus | null} */
  let versus = null;
  let opponent = "";

  function title(/** @type {string} */ game) {
    return games.find((g) => g.name === game)?.title || game;
  }

  function compare(/** @type {Event} */ event) {
    event.preventDefault();
    if (!profile || !opponent.trim()) return;
    const path = `/api/players/${encodeURIComponent(profile.name)}/versus/${encodeURIComponent(opponent.trim())}`;
    api(path).then((/** @type {Versus} */ found) => {
      versus = found;
      draw();
      document.getElementById("versus-result")?.focus();
    }).catch((/** @type {unknown} */ error) => page.notify(page.errorText(error)));
  }

  function draw() {
    if (!profile) return replaceChildren(root, h("section", { class: "panel" }, h("h2", { text: name })));
    const shown = profile;
    return replaceChildren(root, h("section", { class: "panel profile", id: "profile" },
      h("h2", { text: t("rate.profile_title", { name: shown.name }) }),
      ratingsTable(shown, title),
      shown.ratings.some((r) => r.provisional) ? h("p", { class: "muted", text: t("rate.provisional") }) : null,
      histories(shown.ratings, title),
      recentGames(shown.recent, title),
      byPlayers(shown.by_players, title),
      versusSection(shown, versus, title, {
        value: opponent,
        onInput: (/** @type {string} */ text) => { opponent = text; },
        onSubmit: compare,
      }),
      h("p", {}, h("a", { href: "#/", class: "button", text: t("table.back") }))));
  }

  Promise.all([api(`/api/players/${encodeURIComponent(name)}`), api("/api/games")]).then(([found, described]) => {
    profile = found;
    games = described;
    draw();
  }).catch((/** @type {unknown} */ error) => page.notify(page.errorText(error)));
  draw();
  return { stop() {}, redraw: draw };
}

/**
 * @param {Profile} profile
 * @param {(game: string) => string} title
 */
function ratingsTable({ name, ratings }, title) {
  if (!ratings.length) return h("p", { class: "muted", id: "no-ratings", text: t("rate.no_ratings", { name }) });
  const rows = ratings.map((r) => h("tr", { "data-game": r.game },
    h("th", { scope: "row" }, title(r.game), " ", leaderboardLink(r.game)),
    h("td", { class: "rating", text: r.provisional ? `${ratingText(r.rating)}?` : ratingText(r.rating) }),
    h("td", { class: "games", text: r.games }),
    h("td", { text: standingText(r) })));
  return h("table", { class: "ratings-table" },
    h("thead", {}, h("tr", {}, [t("rate.game"), t("rate.rating"), t("rate.games"), t("rate.against_bots")].map((text) => h("th", { scope: "col", text })))),
    h("tbody", {}, rows));
}

/**
 * @param {RatingWithHistory[]} ratings
 * @param {(game: string) => string} title
 */
function histories(ratings, title) {
  const charted = ratings.filter((r) => r.history.length > 1);
  if (!charted.length) return null;
  return h("div", { class: "profile-part", id: "rating-history" },
    h("h3", { text: t("rate.history") }),
    charted.map((r) => ratingChart(`chart-${r.game}`, title(r.game), r.history, ratingText)));
}

/**
 * @param {RecentGame[]} recent
 * @param {(game: string) => string} title
 */
function recentGames(recent, title) {
  if (!recent.length) return null;
  const when = new Intl.DateTimeFormat(language(), { dateStyle: "short" });
  const oneGame = new Set(recent.map((g) => g.game)).size === 1; // then the heading names it
  const rows = recent.map((g) => h("tr", { "data-table": g.table_id },
    h("td", { class: "when", text: when.format(new Date(g.at * 1000)) }),
    oneGame ? null : h("td", { text: title(g.game) }),
    h("td", { text: t("rate.place_of", { place: g.place, players: g.players }) }),
    h("td", { text: g.with.length ? g.with.join(", ") : "—" }),
    h("td", { class: "rating", text: `${ratingText(g.rating)} (${changeText(g.change)})` }),
    h("td", {}, h("a", { class: "replay-link", href: `#/r/${encodeURIComponent(g.table_id)}`, text: t("rate.replay") }))));
  const heads = [t("rate.when"), oneGame ? null : t("rate.game"), t("rate.place"), t("rate.with"), t("rate.rating"), t("rate.replay")];
  const heading = oneGame ? t("rate.recent_in", { game: title(recent[0].game) }) : t("rate.recent");
  return h("div", { class: "profile-part", id: "recent-games" },
    h("h3", { text: heading }),
    scroller(heading, h("table", { class: "ratings-table" },
      h("thead", {}, h("tr", {}, heads.filter((text) => text !== null).map((text) => h("th", { scope: "col", text })))),
      h("tbody", {}, rows))));
}

/**
 * @param {ByPlayers[]} rows
 * @param {(game: string) => string} title
 */
function byPlayers(rows, title) {
  if (!rows.length) return null;
  return h("div", { class: "profile-part", id: "by-players" },
    h("h3", { text: t("rate.by_players") }),
    scroller(t("rate.by_players"), h("table", { class: "ratings-table" },
      h("thead", {}, h("tr", {}, [t("rate.game"), t("rate.players"), t("rate.games"), t("rate.win_rate"), t("rate.average_place")]
        .map((text) => h("th", { scope: "col", text })))),
      h("tbody", {}, rows.map((r) => h("tr", { "data-game": r.game, "data-players": r.players },
        h("th", { scope: "row", text: title(r.game) }),
        h("td", { text: r.players }),
        h("td", { text: r.games }),
        h("td", { class: "win-rate", text: percentText(r.win_rate) }),
        h("td", { class: "average-place", text: placeText(r.average_place) })))))));
}

/**
 * The head-to-head form (with the players met lately to choose from) and its answer.
 * @param {Profile} profile
 * @param {Versus | null} versus
 * @param {(game: string) => string} title
 * @param {{ value: string, onInput: (text: string) => void, onSubmit: (event: Event) => void }} form
 */
function versusSection(profile, versus, title, form) {
  const met = [...new Set(profile.recent.flatMap((g) => g.with))].sort();
  return h("div", { class: "profile-part", id: "versus" },
    h("h3", { text: t("rate.versus") }),
    h("form", { class: "versus-form", onsubmit: form.onSubmit },
      h("label", { for: "versus-name", text: t("rate.opponent") }), " ",
      h("input", { id: "versus-name", type: "text", list: "versus-met", autocomplete: "off", value: form.value,
        oninput: (/** @type {Event} */ e) => form.onInput(/** @type {HTMLInputElement} */ (e.target).value) }),
      h("datalist", { id: "versus-met" }, met.map((other) => h("option", { value: other }))), " ",
      h("button", { type: "submit", id: "versus-compare", text: t("rate.compare") })),
    versus ? versusResult(versus, title) : null);
}

/**
 * @param {Versus} versus
 * @param {(game: string) => string} title
 */
function versusResult(versus, title) {
  if (!versus.games.length) {
    return h("p", { id: "versus-result", tabindex: "-1", text: t("rate.versus_none", { name: versus.name, other: versus.other }) });
  }
  return scroller(t("rate.versus"), h("table", { class: "ratings-table", id: "versus-result", tabindex: "-1" },
    h("caption", { text: t("rate.versus_title", { name: versus.name, other: versus.other }) }),
    h("thead", {}, h("tr", {}, [t("rate.game"), t("rate.together"), t("rate.ahead", { name: versus.name }),
      t("rate.ahead", { name: versus.other }), t("rate.tied")].map((text) => h("th", { scope: "col", text })))),
    h("tbody", {}, versus.games.map((g) => h("tr", { "data-game": g.game },
      h("th", { scope: "row", text: title(g.game) }),
      h("td", { class: "together", text: g.games }),
      h("td", { class: "ahead", text: g.ahead }),
      h("td", { class: "behind", text: g.behind }),
      h("td", { class: "tied", text: g.tied }))))));
}

/**
 * A wide table in a box that scrolls sideways on a narrow screen, reachable by keyboard.
 * @param {string} label
 * @param {HTMLElement} table
 */
function scroller(label, table) {
  return h("div", { class: "table-scroll", role: "region", "aria-label": label, tabindex: "0" }, table);
}
