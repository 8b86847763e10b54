// Ratings in the client: a game's leaderboard (#/leaderboard/GAME), the bots' calibrated
// ratings and strength levels beside their names, and the lobby form's "Rated" choice (a
// player's profile, #/p/NAME, is in profile.js).

import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { botLabel, language, t } from "./i18n.js";

/**
 * @typedef {{ notify: (text: string) => void, errorText: (error: unknown) => string }} Page
 * @typedef {{ game: string, rating: number, provisional: boolean, shown: string, games: number,
 *   stronger_than: string | null, weaker_than: string | null }} GameRating
 * @typedef {{ place: number, name: string, rating: number, games: number }} Listed
 * @typedef {{ name: string, title: string, bot_ratings?: { [bot: string]: number },
 *   bot_levels?: { [bot: string]: string } }} GameInfo
 */

/**
 * A rating written the language's way, grouped ("1,531" in English, "1.531" in German).
 * @param {number} points
 */
export function ratingText(points) {
  return new Intl.NumberFormat(language()).format(points);
}

/**
 * A bot's label with its strength level and calibrated rating, "greedy — good ~ 1,531" (the
 * plain name when the bot was not calibrated).
 * @param {GameInfo} game
 * @param {string} bot
 */
export function ratedBotLabel(game, bot) {
  const points = game.bot_ratings?.[bot];
  const label = botLabel(bot, game.bot_levels?.[bot]);
  return points === undefined ? label : t("rate.bot", { label, rating: ratingText(points) });
}

/**
 * Where a rating stands against the bots, as a sentence.
 * @param {GameRating} rating
 */
export function standingText(rating) {
  const low = rating.stronger_than;
  const high = rating.weaker_than;
  if (low && high) return t("rate.between", { low, high });
  if (low) return t("rate.above_all", { low });
  if (high) return t("rate.below_all", { high });
  return "";
}

/**
 * The "Rated" checkbox of the lobby form, for signed-in players.
 * @param {{ rated: boolean }} form
 */
export function ratedChoice(form) {
  return h("div", { class: "rated-choice" },
    h("label", {}, h("input", { type: "checkbox", id: "rated", checked: form.rated, onchange: (/** @type {Event} */ e) => {
      form.rated = /** @type {HTMLInputElement} */ (e.target).checked;
    } }), " ", h("span", { text: t("rate.rated") })),
    h("p", { class: "muted option-doc", text: t("rate.rated_doc") }));
}

/**
 * A link to a game's leaderboard.
 * @param {string} game
 */
export function leaderboardLink(game) {
  return h("a", { class: "leaderboard-link", href: `#/leaderboard/${encodeURIComponent(game)}`, text: t("rate.leaderboard") });
}

/**
 * A game's leaderboard: its settled, recently active players, best first.
 * @param {HTMLElement} app
 * @param {string} game
 * @param {Page} page
 */
export function leaderboardPage(app, game, page) {
  const root = h("div", { class: "leaderboard-page" });
  app.append(root);
  /** @type {Listed[] | null} */
  let players = null;
  let gameTitle = game;

  function draw() {
    return replaceChildren(root, h("section", { class: "panel leaderboard", id: "leaderboard" },
      h("h2", { text: t("rate.leaderboard_title", { game: gameTitle }) }),
      h("p", { class: "muted", text: t("rate.leaderboard_doc") }),
      players === null ? null : players.length
        ? h("table", { class: "ratings-table" },
          h("thead", {}, h("tr", {}, [t("rate.place"), t("rate.player"), t("rate.rating"), t("rate.games")].map((text) => h("th", { scope: "col", text })))),
          h("tbody", {}, players.map((p) => h("tr", {},
            h("td", { text: p.place }),
            h("th", { scope: "row" }, h("a", { href: `#/p/${encodeURIComponent(p.name)}`, text: p.name })),
            h("td", { class: "rating", text: ratingText(p.rating) }),
            h("td", { text: p.games })))))
        : h("p", { id: "leaderboard-empty", text: t("rate.leaderboard_empty") }),
      h("p", {}, h("a", { href: "#/", class: "button", text: t("table.back") }))));
  }

  Promise.all([api(`/api/leaderboard/${encodeURIComponent(game)}`), api("/api/games")]).then(([board, described]) => {
    players = board.players;
    gameTitle = described.find((/** @type {GameInfo} */ g) => g.name === game)?.title || game;
    draw();
  }).catch((/** @type {unknown} */ error) => page.notify(page.errorText(error)));
  draw();
  return { stop() {}, redraw: draw };
}

/** @type {Map<string, Promise<{ [game: string]: GameRating }>>} */
const seatRatings = new Map(); // a player's name -> their ratings, asked once per page

/**
 * A signed-in player's rating in `game` beside their name at a table ("1,405?"); empty until
 * the profile answers, and for a player without a rating in the game.
 * @param {string} name
 * @param {string} game
 */
export function seatRating(name, game) {
  const span = h("span", { class: "seat-rating" });
  if (!seatRatings.has(name)) {
    seatRatings.set(name, api(`/api/players/${encodeURIComponent(name)}`)
      .then((/** @type {{ ratings: GameRating[] }} */ found) => Object.fromEntries(found.ratings.map((r) => [r.game, r])))
      .catch(() => ({})));
  }
  seatRatings.get(name)?.then((byGame) => {
    const rating = byGame[game];
    if (rating) span.textContent = rating.provisional ? `${ratingText(rating.rating)}?` : ratingText(rating.rating);
  });
  return span;
}

/** Ask for the players' ratings afresh (a page opens: a game may have ended meanwhile). */
export function forgetSeatRatings() {
  seatRatings.clear();
}
