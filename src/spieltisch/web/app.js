// The web client: lobby, live table and replay viewer, switched by the address's #fragment.
//   #/            the lobby
//   #/t/ID        a table (the invite link)
//   #/t/ID/seat/T a guest's rejoin link: keeps seat token T for the table, then opens it
//   #/r/ID        the replay of a finished table
//   #/v/ID        the review of a finished table (the games whose /api/games entry says review)
//   #/learn/ID    a guided first game ("Learn to play")
//   #/signin, #/signup, #/account   optional accounts (account.js)
//   #/p/NAME      a player's profile (profile.js); #/leaderboard/GAME  a game's leaderboard (ratings.js)

import { api, ApiError, keepName, keepToken, savedName, tokenFor } from "./api.js";
import { hereAt, keepHere, merged, showing, stillUncovered, tableLink as openLink } from "./onescreen.js";
import { alarmPlace, noteMyTables, turnBadge, turnBasedChoice, turnBasedLabel, turnBasedLogText, watchTurns } from "./turnbased.js";
import { timeLeftText } from "./turnbased_model.js";
import { accountLanguage, accountMark, accountNav, accountPage, currentAccount, drawNav, loadMyTables, loadSession,
  myTablesPanel, noteRoute, saveLanguage, signInPage } from "./account.js";
import { clear, h, keepingPlace, replaceChildren } from "./dom.js";
import { byStrength, detectLanguage, has, language, LANGUAGES, optionDoc, sentence, setLanguage, t } from "./i18n.js";
import { gameView } from "./games/index.js";
import { hasTutorial, makeCoach } from "./tutorial.js";
import { motionSwitch } from "./motion.js";
import { reviewPage } from "./review.js";
import { reviewedGames } from "./review_model.js";
import { agoText } from "./i18n_presence.js";
import { profilePage } from "./profile.js";
import { forgetSeatRatings, leaderboardLink, leaderboardPage, ratedBotLabel, ratedChoice, seatRating } from "./ratings.js";

const app = document.getElementById("app");
const languageSwitch = /** @type {HTMLSelectElement} */ (document.getElementById("lang"));
let page = null; // the page shown now: { stop(), redraw() }
let reviewed = new Set(); // the games with a review (from /api/games), for the "Review" links
api("/api/games").then((games) => {
  const found = reviewedGames(games);
  if ([...found].join() === [...reviewed].join()) return; // the lobby was quicker: no redraw
  reviewed = found;
  page?.redraw?.();
}).catch(() => { /* the lobby asks again */ });
const pageContext = { notify, useLanguage, errorText }; // what the account pages need of the app
let newSeat = null; // a seat this browser has just taken: its rejoin link is shown once

// --- small helpers ------------------------------------------------------------------------
const DETAILED = new Set(["illegal_action", "too_late"]); // the server's reason helps here

export function errorText(error) {
  const code = error && error.code;
  if (!code || !has(`err.${code}`)) return (error && error.message) || String(error);
  return DETAILED.has(code) && error.message ? `${t(`err.${code}`)} ${error.message}` : t(`err.${code}`);
}

let noticeTimer = null;
export function notify(text) {
  const box = document.getElementById("notice");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => (box.hidden = true), 4000);
}

// A polite live region: screen readers tell what happened without taking the focus.
export function announce(lines) {
  const box = document.getElementById("announce");
  if (box && lines.length) box.textContent = lines.join(" ");
}

function seatName(seat) {
  if (seat.name && seat.replaced) return t("table.replaced", { name: seat.name });
  if (seat.name) return seat.name;
  if (seat.bot) return `${t("table.bot")} ${botName(seat.bot)}`;
  return t("table.free");
}

// The names of a table's seats, " · " between them, each signed-in player's with its mark.
function seatNames(seats) {
  return seats.map((seat, i) => [i ? " · " : "", seatName(seat), accountMark(seat)]);
}

// "careful:samples=1:candidates=2" reads "careful"; the settings show on hover in the seat list
function botName(spec) {
  return spec.split(":")[0];
}

function translateStatic() {
  const marked = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n]"));
  for (const node of marked) node.textContent = t(node.dataset.i18n ?? "");
  document.title = t("app.title");
  drawNav();
}

// The name a person plays under: the account's when signed in, else the one typed.
function playerName(typed) {
  const account = currentAccount();
  return account ? account.name : typed.trim();
}

// Where the name is typed, or, when signed in, the name the account plays under.
function nameField(label, input) {
  const account = currentAccount();
  if (account) return h("p", { class: "playing-as", id: `${input.id}-account`, text: t("acct.you_play_as", { name: account.name }) });
  return h("label", { class: label }, h("span", { text: t("lobby.name") }), input);
}

// --- the lobby ------------------------------------------------------------------------------
// Options whose values are a short list (seat numbers are 0-based, shown from 1).
const OPTION_CHOICES = {
  start_seat: (seats) => ["random", ...Array.from({ length: seats }, (_, i) => i)],
  tail_fruits: () => ["fixed", "random"],
  catching: () => ["choose", "model"],
};

const BOT_PACES = ["instant", "normal", "slow"];
const HERE = "@here"; // a seat of the form played at this screen (one screen, several seats)

function choiceText(choice) {
  return typeof choice === "number" ? t("opt.seat", { n: choice + 1 }) : t(`opt.value.${choice}`);
}

function lobbyPage() {
  let games = [];
  let tables = [];
  let finished = [];
  let mine = null; // "My tables" of a signed-in player
  let timer = null;
  // clock null: the game's time per turn when two or more people sit at the table, else none
  const form = { game: "pickomino", seats: [null, "optimal"], clock: null, pace: "normal", options: {}, rated: false, names: {},
    turn: { move: "", bank: "none", rule: "bot_plays" } }; // turn.move "": real time
  const root = h("div", { class: "lobby" });
  // Kept across redraws, so what is being typed survives a language switch or a refresh.
  const name = h("input", { id: "name", value: savedName(), maxlength: 32, autocomplete: "nickname" });
  const openTables = h("section", { class: "panel", id: "open-tables" });
  const minePlace = h("div", { class: "my-tables-place" });
  app.append(root);

  async function load() {
    try {
      [games, tables, finished, mine] = await Promise.all([api("/api/games"), api("/api/tables"), api("/api/tables/finished"), loadMyTables()]);
      noteMyTables(mine, gameTitles());
      reviewed = reviewedGames(games);
      if (!games.some((g) => g.name === form.game) && games.length) form.game = games[0].name;
      draw();
    } catch (error) {
      notify(errorText(error));
    }
  }

  function gameCard(game) {
    const view = gameView(game.name);
    const chosen = form.game === game.name;
    return h("article", { class: `game-card${chosen ? " chosen" : ""}`, "data-game": game.name },
      h("div", { class: "picture" }, view.picture ? view.picture() : null),
      h("div", { class: "about" },
        h("h3", { text: game.title }),
        h("p", { class: "muted", text: t("lobby.players", { min: game.min_players, max: game.max_players }) }),
        has(`game.${game.name}.blurb`) ? h("p", { text: t(`game.${game.name}.blurb`) }) : null,
        has(`game.${game.name}.rules`)
          ? h("details", {}, h("summary", { text: t("lobby.rules") }), h("p", { text: t(`game.${game.name}.rules`) }))
          : null,
        h("button", {
          class: chosen ? "primary" : "",
          text: t("lobby.create"),
          onclick: () => {
            if (form.game !== game.name) form.options = {};
            form.game = game.name;
            const size = Math.min(Math.max(form.seats.length, game.min_players), game.max_players);
            form.seats = form.seats.slice(0, size);
            while (form.seats.length < size) form.seats.push(game.bots[0] || null);
            form.seats = form.seats.map((s) => (s === null || s === HERE || game.bots.includes(s) ? s : game.bots[0]));
            draw();
            document.getElementById("create")?.scrollIntoView({ behavior: "smooth" });
          },
        }),
        hasTutorial(game.name)
          ? h("button", { class: "learn", id: `learn-${game.name}`, text: t("tut.learn"), onclick: () => learn(game.name) })
          : null,
        " ", leaderboardLink(game.name)));
  }

  // A guided first game: the learner is seated at once, under the typed name or a friendly one.
  async function learn(gameName) {
    const who = playerName(name.value) || savedName() || t("tut.learner");
    try {
      const joined = await api("/api/tutorials", { game: gameName, name: who });
      keepToken(joined.table.id, joined.token);
      location.hash = `#/learn/${joined.table.id}`;
    } catch (error) {
      notify(errorText(error));
    }
  }

  function seatChoice(game, index) {
    const select = h("select", {
      "data-seat": index,
      "aria-label": `${t("lobby.seats")} ${index + 1}`,
      onchange: (event) => {
        const wasHere = form.seats.includes(HERE);
        form.seats[index] = event.target.value || null;
        if (wasHere !== form.seats.includes(HERE) || form.seats[index] === HERE || event.target.dataset.here) keepingPlace(draw);
        const clock = /** @type {HTMLSelectElement | null} */ (document.getElementById("clock"));
        if (clock && form.clock === null) clock.value = clockChosen(game);
      },
    }, h("option", { value: "", text: t("lobby.person") }),
    h("option", { value: HERE, text: t("lobby.here") }),
    byStrength(game.bots, game.bot_ratings).map((bot) => h("option", { value: bot, text: ratedBotLabel(game, bot) })));
    select.value = form.seats[index] || "";
    if (form.seats[index] === HERE) select.dataset.here = "1";
    return h("li", { class: form.seats[index] === HERE ? "here-seat" : null }, select, form.seats[index] === HERE ? hereName(index) : null);
  }

  // A guided first game for the people at this screen together, against the friendly bot.
  function learnTogether(game) {
    const learners = form.seats.filter((seat) => seat === HERE).length;
    if (learners < 2 || !hasTutorial(game.name) || learners >= game.max_players) return null;
    return h("button", { class: "big learn-here", id: "learn-here", text: t("here.learn"), onclick: async () => {
      const names = hereNames().filter((n) => n !== null);
      if (names.some((n) => n === "")) return notify(t("lobby.name_needed"));
      try {
        const table = await api("/api/tutorials/here", { game: game.name, names });
        keepHere(table.id, { game: game.name, seats: table.here });
        location.hash = `#/learn/${table.id}`;
      } catch (error) {
        notify(errorText(error));
      }
    } });
  }

  // The name of a player at this screen; the first one is the signed-in account's.
  function hereName(index) {
    const first = form.seats.indexOf(HERE) === index;
    const account = currentAccount();
    if (first && account) return h("span", { class: "playing-as", text: account.name });
    if (!(index in form.names)) form.names[index] = first ? savedName() : "";
    return h("input", { class: "here-name", id: `here-name-${index}`, value: form.names[index], maxlength: 32,
      autocomplete: "off", "aria-label": t("lobby.here_name", { n: index + 1 }), placeholder: t("lobby.here_name", { n: index + 1 }),
      oninput: (event) => (form.names[index] = event.target.value) });
  }

  function hereNames() {
    const account = currentAccount();
    const first = form.seats.indexOf(HERE);
    return form.seats.map((seat, i) => (seat !== HERE ? null : (i === first && account ? account.name : (form.names[i] || "").trim())));
  }

  function createForm() {
    const game = games.find((g) => g.name === form.game);
    if (!game) return null;
    const times = [...new Set([30, 60, 90, 120, game.clock].filter(Boolean))].sort((a, b) => a - b);
    const clock = h("select", { id: "clock", onchange: (e) => (form.clock = e.target.value) },
      h("option", { value: "", text: t("lobby.no_clock") }),
      times.map((n) => h("option", { value: n, text: t(n === game.clock ? "lobby.clock_default" : "lobby.seconds", { n }) })));
    clock.value = clockChosen(game);
    const resize = (delta) => {
      const size = form.seats.length + delta;
      if (size < game.min_players || size > game.max_players) return;
      if (delta > 0) form.seats.push(game.bots[0] || null);
      else form.seats.pop();
      draw();
    };
    return h("section", { id: "create", class: "panel" },
      h("h2", { text: `${t("lobby.create")}: ${game.title}` }),
      form.seats.includes(HERE) ? null : nameField(null, name),
      h("div", { class: "seats-head" }, h("span", { text: t("lobby.seats") }),
        h("button", { class: "small", text: "−", title: t("lobby.remove_seat"), "aria-label": t("lobby.remove_seat"), onclick: () => resize(-1) }),
        h("button", { class: "small", text: "+", title: t("lobby.add_seat"), "aria-label": t("lobby.add_seat"), onclick: () => resize(1) })),
      h("ol", { class: "seat-list" }, form.seats.map((_, i) => seatChoice(game, i))),
      h("p", { class: "muted option-doc", text: t("lobby.here_doc") }),
      currentAccount() ? turnBasedChoice(form.turn, draw) : null,
      turnBased() ? null : h("div", { class: "clock-choice" }, h("label", {}, h("span", { text: t("lobby.clock") }), clock),
        h("p", { class: "muted option-doc", text: t("lobby.clock_doc") })),
      paceChoice(),
      currentAccount() ? ratedChoice(form) : null,
      optionsPanel(game),
      learnTogether(game),
      h("button", {
        class: "primary big",
        id: "make-table",
        text: t("lobby.start"),
        onclick: async () => {
          const who = playerName(name.value);
          const names = hereNames();
          const atScreen = form.seats.includes(HERE);
          const people = atScreen ? 0 : form.seats.filter((s) => s === null).length;
          if ((people && !who) || names.some((n) => n === "")) return notify(t("lobby.name_needed"));
          try {
            const table = await api("/api/tables", {
              game: form.game,
              seats: form.seats.map((bot, i) => (bot === HERE ? { bot: null, name: names[i] } : { bot })),
              clock: clockChosen(game) ? Number(clockChosen(game)) : null, // always said: null is none
              pace: form.pace,
              options: form.options,
              rated: Boolean(currentAccount()) && form.rated,
              turn_based: turnBased() ? form.turn : null,
            });
            if (atScreen) {
              keepHere(table.id, { game: form.game, seats: table.here });
              if (!currentAccount()) keepName(names.find(Boolean));
            } else if (people) {
              if (!currentAccount()) keepName(who);
              const joined = await api(`/api/tables/${table.id}/join`, { name: who });
              keepToken(table.id, joined.token);
              newSeat = { table: table.id, token: joined.token };
            }
            location.hash = `#/t/${table.id}`;
          } catch (error) {
            notify(errorText(error));
          }
        },
      }));
  }

  // Whether the form makes a turn-based table (signed-in players only).
  function turnBased() {
    return Boolean(currentAccount() && form.turn.move);
  }

  // The turn clock in the form: the one chosen, else the game's default for two or more people.
  // The people at this screen count as one: nobody there waits for an absent player.
  function clockChosen(game) {
    if (form.clock !== null) return form.clock;
    const people = form.seats.filter((s) => s === null).length + (form.seats.includes(HERE) ? 1 : 0);
    return people >= 2 && game.clock ? String(game.clock) : "";
  }

  // How long the bots pause before each move, so people can follow them (or not wait at all).
  function paceChoice() {
    const select = h("select", { id: "pace", onchange: (e) => (form.pace = e.target.value) },
      BOT_PACES.map((pace) => h("option", { value: pace, text: t(`pace.${pace}`) })));
    select.value = form.pace;
    return h("div", { class: "pace-choice" }, h("label", {}, h("span", { text: t("lobby.pace") }), select),
      h("p", { class: "muted option-doc", text: t("lobby.pace_doc") }));
  }

  // Every option of the game, each with a line saying what it does; only changed ones are sent.
  function optionsPanel(game) {
    if (!game.options.length) return null;
    return h("details", { class: "options", id: "game-options" },
      h("summary", { text: t("opt.title") }),
      game.options.map((option) => h("div", { class: "option", "data-option": option.name },
        h("label", {}, h("span", { class: "option-name", text: t(`opt.${option.name}`) }), optionControl(option)),
        h("p", { class: "muted option-doc", text: optionDoc(game.name, option.name, option.doc) }))));
  }

  function optionControl(option) {
    // a table with a person catches by hand unless told otherwise (the server's default)
    const fallback = option.name === "catching" && form.seats.some((s) => s === null || s === HERE) ? "choose" : option.default;
    const value = option.name in form.options ? form.options[option.name] : fallback;
    const set = (chosen) => {
      if (String(chosen) === String(fallback)) delete form.options[option.name];
      else form.options[option.name] = chosen;
    };
    if (typeof option.default === "boolean") {
      return h("input", { type: "checkbox", id: `opt-${option.name}`, checked: value, onchange: (e) => set(e.target.checked) });
    }
    const choices = OPTION_CHOICES[option.name];
    if (!choices) {
      return h("input", { id: `opt-${option.name}`, value: String(value), size: 8, onchange: (e) => set(e.target.value.trim()) });
    }
    const list = choices(form.seats.length);
    const select = h("select", { id: `opt-${option.name}`, onchange: (e) => set(list.find((c) => String(c) === e.target.value)) },
      list.map((choice) => h("option", { value: String(choice), text: choiceText(choice) })));
    select.value = String(value);
    return select;
  }

  function tableRow(table) {
    const free = table.seats.filter((s) => s.open).length;
    return h("li", { class: "table-row" },
      h("a", { href: `#/t/${table.id}` },
        h("strong", { text: table.title }), " ",
        h("span", { class: "muted", text: t(`lobby.status.${table.status}`) }),
        free ? h("span", { class: "badge", text: t("lobby.open_seats", { n: free }) }) : null,
        table.rated ? h("span", { class: "badge rated", text: t("rate.rated_badge") }) : null,
        table.turn_based ? h("span", { class: "badge turn-based", text: turnBasedLabel(table) }) : null,
        table.seeded ? h("span", { class: "badge seeded", title: t("table.seeded", { seed: table.seed }), text: t("lobby.seeded") }) : null,
        h("span", { class: "names" }, seatNames(table.seats))));
  }

  function draw() {
    replaceChildren(root, 
      drawMine(),
      h("section", { class: "games" }, h("h2", { text: t("lobby.games") }), h("div", { class: "game-list" }, games.map(gameCard))),
      createForm(),
      drawTables());
  }

  function gameTitles() {
    return Object.fromEntries(games.map((g) => [g.name, g.title]));
  }

  function drawMine() {
    return replaceChildren(minePlace, myTablesPanel(games, mine, pageContext));
  }

  function drawTables() {
    return replaceChildren(openTables, h("h2", { text: t("lobby.open") }),
      tables.length ? h("ul", { class: "tables" }, tables.map(tableRow)) : h("p", { class: "muted", text: t("lobby.none") }),
      finished.length ? h("h2", { text: t("lobby.finished") }) : null,
      finished.length ? h("ul", { class: "tables", id: "finished-tables" }, finished.map(finishedRow)) : null);
  }

  function finishedRow(table) {
    const names = table.seats.map(seatName);
    const winners = table.result ? table.result.winners.map((w) => names[w]).join(", ") : "";
    return h("li", { class: "table-row finished-row" },
      h("a", { href: `#/r/${table.id}` },
        h("strong", { text: table.title }), " ",
        h("span", { class: "muted", text: t("table.won", { names: winners }) }), " ",
        h("span", { class: "badge", text: t("lobby.watch_replay") }),
        h("span", { class: "names", text: names.join(" · ") })),
      reviewed.has(table.game)
        ? h("a", { class: "button review-link", href: `#/v/${table.id}`, "aria-label": `${t("review.open")}: ${table.title}, ${names.join(" · ")}`, text: t("review.open") })
        : null);
  }

  load();
  timer = setInterval(async () => {
    try {
      const before = JSON.stringify(mine);
      const signedIn = currentAccount() !== null;
      [tables, finished, mine] = await Promise.all([api("/api/tables"), api("/api/tables/finished"), loadMyTables()]);
      noteMyTables(mine, gameTitles());
      if (signedIn !== (currentAccount() !== null)) keepingPlace(draw); // the session ended elsewhere
      else if (JSON.stringify(mine) !== before) keepingPlace(drawMine);
      drawTables();
    } catch { /* the next poll tries again */ }
  }, 5000);
  return { stop: () => clearInterval(timer), redraw: draw };
}

// --- a live table ---------------------------------------------------------------------------
function tablePage(tableId, guided = false) {
  const root = h("div", { class: `table-page${guided ? " guided" : ""}${hereAt(tableId) ? " here-table" : ""}` });
  app.append(root);
  let last = null; // the state whose picture is shown
  let stopped = false;
  let clockTimer = null;
  // One screen, several seats (onescreen.js): a link per seat here (and the public picture
  // for a game with secrets), the seat shown and the cover; else the one link of this browser.
  const here = hereAt(tableId);
  const secrets = here ? gameView(here.game).secrets !== false : false;
  const screen = { links: [], shown: null, watch: null, cover: null, uncovered: null, recent: null, newest: null };
  const origin = new WeakMap(); // each message's link, kept while the coach holds it back
  const extras = { odds: localStorage.getItem("spieltisch.odds") === "on", oddsData: null, oddsVersion: -1 };
  // Inputs live across redraws, so typing is not lost when the table changes.
  const joinName = h("input", { id: "join-name", value: savedName(), maxlength: 32 });
  const chatInput = h("input", { id: "chat-text", maxlength: 300, autocomplete: "off" });
  const chatForm = h("form", { class: "chat-form", onsubmit: (event) => {
    event.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    send({ type: "chat", text });
    chatInput.value = "";
  } }, chatInput, h("button", { type: "submit", id: "chat-send" }));
  let chat = [];
  let rejoin = newSeat && newSeat.table === tableId ? newSeat.token : null; // shown once
  newSeat = null;
  const coach = guided ? makeCoach(tableId, receive, draw, leaveTutorial) : null;

  function connect() {
    const online = (open) => root.classList.toggle("offline", !open);
    const heard = (link, message) => {
      origin.set(message, link);
      return coach ? coach.offer(message) : receiveOn(link, message);
    };
    if (!here) {
      screen.links = [openLink(tableId, { seat: null, token: tokenFor(tableId) }, heard, online)];
      return;
    }
    screen.links = here.seats.map((seat) => openLink(tableId, seat, heard, online));
    // the public picture between the turns of the people here, told by its own socket
    if (secrets) screen.watch = openLink(tableId, { seat: null, token: null, watch: true }, heard, online);
  }

  // The link whose settles, presence and chat the page takes: one, so nothing comes twice.
  function main() {
    return screen.watch || screen.links[0];
  }

  function receive(message) {
    receiveOn(origin.get(message) || screen.links[0], message); // what the coach lets through
  }

  function receiveOn(link, message) {
    if (message.type === "error" && message.code === "tutorial_left") return;
    if (message.type === "error") {
      if (message.code === "bad_token" && !here) keepToken(tableId, null);
      if (["no_table", "table_closed", "table_broken"].includes(message.code)) {
        stop();
        return deadEnd(root, message, null);
      }
      notify(errorText(message));
      if (message.code === "stale_version") link.send({ type: "sync" });
      return;
    }
    if (link !== main() && ["settle", "presence", "chat"].includes(message.type)) return;
    if (message.type === "settle") {
      gameView("riffraff").onMessage(message); // the motion of a placement, played by the view
      return;
    }
    if (message.type === "presence") { // who is here changed: the table itself did not
      for (const each of [...screen.links, screen.watch]) {
        if (!each?.last) continue;
        each.last.table.seats = each.last.table.seats.map((seat, i) => ({ ...seat, ...message.seats[i] }));
      }
      if (last) draw(); // under the cover, the cover again
      return;
    }
    if (message.type === "chat") {
      chat = chat.concat([message.line]).slice(-50);
      keepingPlace(drawChat);
      return;
    }
    if (message.type !== "state") return;
    if (message.chat && link === main()) chat = message.chat;
    const { before, known } = merged(link, message);
    const [shownBefore, coverBefore] = [screen.shown, screen.cover];
    choose();
    if (screen.shown !== link && screen.shown === shownBefore && screen.cover === coverBefore) return; // not shown
    if (!last) return draw(); // the picture to show has not come yet: at most the cover
    document.body.dataset.version = String(last.version);
    if (coach) coach.observe(before, message, message.log.filter((entry) => entry.seq > known), message.table.seats.map(seatName));
    draw();
    if (before && screen.shown === link && shownBefore === link) announce(news(before, message, known));
    loadOdds();
  }

  // Which link's picture is shown, and whether a cover hides it (the one link: always its own).
  function choose() {
    if (!here) {
      screen.shown = screen.links[0];
      last = screen.shown.last;
      return;
    }
    const states = [...screen.links, screen.watch].filter((link) => link?.last).map((link) => link.last);
    screen.newest = states.reduce((a, b) => (b.version > a.version ? b : a), states[0]);
    const over = screen.newest.table.status === "over";
    const toMove = screen.newest.table.status === "playing" ? screen.newest.to_move : null;
    screen.uncovered = stillUncovered(screen.uncovered, toMove, over);
    const seen = showing({ secrets, here: here.seats.map((seat) => seat.seat), toMove, uncovered: screen.uncovered, recent: screen.recent });
    screen.cover = seen.cover;
    if (seen.shown !== null) screen.recent = seen.shown;
    screen.shown = seen.shown === null ? screen.watch : screen.links.find((link) => link.seat === seen.shown);
    last = screen.shown?.last ?? null;
  }

  // The player named on the cover taps: their seat's picture is drawn.
  function uncover(seat) {
    screen.uncovered = seat;
    choose();
    draw();
    firstAction()?.focus({ preventScroll: true });
  }

  // What a screen reader hears after a change: the new log lines, whose turn it is, the result.
  function news(before, message, known) {
    const names = message.table.seats.map(seatName);
    const view = gameView(message.table.game);
    const lines = message.log.filter((entry) => entry.seq > known).map((entry) => logText(entry, names, view));
    const facts = view.spokenFacts && message.view ? view.spokenFacts(message.view) : null;
    if (facts && lines.length) lines.push(facts); // e.g. Pickomino's sum after a choice
    const mover = message.to_move;
    if (mover !== null && (mover !== before.to_move || lines.length)) {
      lines.push(mover === message.you ? t("table.your_turn") : t("table.turn_of", { name: names[mover] }));
    }
    if (message.result && !before.result) {
      lines.push(t("table.won", { names: message.result.winners.map((w) => names[w]).join(", ") }));
    }
    return lines;
  }

  // What the page says goes through the link shown; the public one says nothing.
  function send(message) {
    const link = screen.shown && !screen.shown.watch ? screen.shown : screen.links[0];
    link?.send(message);
  }

  function act(action) {
    if (!last) return;
    root.classList.add("sending");
    send({ type: "action", action, version: last.version });
  }

  async function loadOdds() {
    if (!extras.odds || !last || last.you === null || last.to_move !== last.you) return;
    if (extras.oddsVersion === last.version || !gameView(last.table.game).hasOdds) return;
    extras.oddsVersion = last.version;
    try {
      const found = await api(`/api/tables/${tableId}/odds`);
      if (found.version === last.version) {
        extras.oddsData = found.odds;
        draw();
      }
    } catch { extras.oddsData = null; }
  }

  async function join(seat) {
    const name = playerName(joinName.value);
    if (!name) return notify(t("lobby.name_needed"));
    try {
      if (!currentAccount()) keepName(name);
      const joined = await api(`/api/tables/${tableId}/join`, { name, seat });
      keepToken(tableId, joined.token);
      rejoin = joined.token;
      screen.links[0].reopen(joined.token);
    } catch (error) {
      notify(errorText(error));
    }
  }

  async function leave() {
    if (last && last.table.status === "playing" && !confirm(t("table.leave_confirm"))) return;
    try {
      for (const token of here ? here.seats.map((seat) => seat.token) : [await seatToken()]) {
        await api(`/api/tables/${tableId}/leave`, { token });
      }
    } catch (error) {
      notify(errorText(error));
    }
    if (here) keepHere(tableId, null);
    else keepToken(tableId, null);
    location.hash = "#/";
  }

  // This browser's token of the seat, or for a seat the session found, a fresh one.
  async function seatToken() {
    const token = tokenFor(tableId);
    return token || !currentAccount() ? token : (await api(`/api/tables/${tableId}/seat`, {})).token;
  }

  // Leaving a guided game needs no confirmation: it stops where it is.
  async function leaveTutorial() {
    const token = here ? here.seats[0].token : tokenFor(tableId);
    if (token) await api(`/api/tables/${tableId}/leave`, { token }).catch(() => null);
    if (here) keepHere(tableId, null);
    else keepToken(tableId, null);
    location.hash = "#/";
  }

  function seatsPanel() {
    const { table, you, to_move: toMove, view } = last;
    const scores = view && Array.isArray(view.scores) ? view.scores : null;
    const canJoin = you === null && !here && !tokenFor(tableId) && table.seats.some((s) => s.open);
    const atScreen = (seat) => Boolean(here?.seats.some((held) => held.seat === seat.seat));
    return h("section", { class: "seats panel" },
      canJoin ? nameField("join-name", joinName) : null,
      h("ol", {}, table.seats.map((seat) => h("li", {
        class: `seat${seat.seat === toMove ? " to-move" : ""}${seat.seat === you ? " mine" : ""}`,
        "data-seat": seat.seat,
      },
      h("span", { class: "seat-name", title: seat.bot?.includes(":") ? seat.bot : null },
        seat.account && !seat.bot ? h("a", { class: "profile-link", href: `#/p/${encodeURIComponent(seat.name)}`, text: seatName(seat) }) : seatName(seat)),
      accountMark(seat),
      seat.account && !seat.bot ? seatRating(seat.name, table.game) : null,
      atScreen(seat) ? h("span", { class: "badge here-badge", text: t("here.badge") })
        : seat.seat === you ? h("span", { class: "badge", text: t("table.you") }) : presenceNote(seat),
      scores ? seatScore(table.game, view, seat.seat) : null,
      seat.open && canJoin ? h("button", { class: "primary", text: t("table.join"), onclick: () => join(seat.seat) }) : null))),
      table.seats.some((seat) => seat.bot) && table.pace
        ? h("p", { class: "muted pace-note", id: "table-pace", text: t("table.pace", { pace: t(`pace.${table.pace}`) }) })
        : null);
  }

  // Whether a seat's player is here, or away since when ("away · seen 3 minutes ago").
  function presenceNote(seat) {
    if (!seat.presence || last.table.status === "over") return null;
    if (seat.presence === "here") return h("span", { class: "presence here", text: t("seat.here") });
    return h("span", { class: `presence ${seat.presence}`, "data-state": seat.presence, "data-seen": seat.last_seen ?? "",
      text: absentText(seat.presence, seat.last_seen) });
  }

  function absentText(state, seen) {
    const ago = seen ? agoText(Date.now() / 1000 - Number(seen), language()) : null;
    return ago ? t(`seat.${state}_seen`, { ago }) : t(`seat.${state}`);
  }

  // "seen 3 minutes ago" stays true while the page stays open
  function refreshSeen() {
    for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".presence[data-state]"))) {
      const text = absentText(node.dataset.state, node.dataset.seen);
      if (node.textContent !== text) node.textContent = text;
    }
  }

  // A guest's personal link to this seat, for another device; shown once, right after joining.
  function rejoinPanel() {
    if (!rejoin || coach) return null;
    const link = `${location.origin}${location.pathname}#/t/${tableId}/seat/${rejoin}`;
    return h("section", { class: "panel rejoin", id: "rejoin" },
      h("label", {}, h("span", { text: t("table.rejoin") }),
        h("input", { readonly: true, value: link, id: "rejoin-link", onclick: (e) => e.target.select() })),
      h("button", { class: "small", id: "rejoin-copy", text: t("table.copy"),
        onclick: () => navigator.clipboard?.writeText(link).then(() => notify(t("table.rejoin_copied"))) }),
      h("button", { class: "small", id: "rejoin-hide", text: t("table.rejoin_hide"), onclick: () => {
        rejoin = null;
        draw();
      } }),
      h("p", { class: "muted", text: t("table.rejoin_hint") }));
  }

  // Shown when focused by the keyboard: straight to the actions or to the game log.
  function skipButtons() {
    const jump = (selector) => () => {
      const target = root.querySelector(selector);
      if (target) target.focus();
    };
    return h("div", { class: "skips" },
      h("button", { class: "skip", id: "skip-actions", text: t("table.skip_actions"),
        onclick: jump(".board button:not([disabled]), .board [tabindex]") }),
      h("button", { class: "skip", id: "skip-log", text: t("table.skip_log"), onclick: jump("#game-log ol") }));
  }

  function statusLine() {
    const { table, you, to_move: toMove } = last;
    let text = "";
    if (table.status === "waiting") text = t(you === null ? "table.waiting_guest" : "table.waiting"); // a guest has no link to share yet
    else if (table.status === "playing" && toMove !== null) {
      text = toMove === you ? t("table.your_turn") : t("table.turn_of", { name: seatName(table.seats[toMove]) });
      if (here && toMove === you) text = t("here.turn", { name: seatName(table.seats[toMove]) });
    }
    const clock = last.deadline ? h("span", { class: "clock", id: "clock" }) : null;
    const mine = toMove !== null && toMove === you ? " mine" : "";
    // whose view the board shows while somebody else plays (or the dice roll)
    const viewing = here && you !== null && toMove !== you && table.status !== "over"
      ? h("span", { class: "muted here-view", text: t("here.view", { name: seatName(table.seats[you]) }) }) : null;
    return h("p", { class: `status${mine}${here ? " here-status" : ""}`, id: "status" },
      text, " ", clock, viewing, you === null && !here && table.status !== "waiting" ? h("span", { class: "muted", text: t("table.watching") }) : null,
      table.seeded ? h("span", { class: "muted seeded", id: "seeded", text: t("table.seeded", { seed: table.seed }) }) : null,
      table.turn_based ? h("span", { class: "muted turn-based", id: "turn-based", text: turnBasedLabel(table) }) : null);
  }

  function tickClock() {
    const node = document.getElementById("clock");
    if (!node || !last || !last.deadline) return;
    const left = last.deadline - Date.now() / 1000;
    node.textContent = last.table.turn_based
      ? t("tb.left", { time: timeLeftText(left) })
      : t("table.clock", { s: Math.max(0, Math.round(left)) });
  }

  function tick() {
    tickClock();
    refreshSeen();
  }

  function logPanel() {
    const names = last.table.seats.map(seatName);
    const view = gameView(last.table.game);
    const items = last.log.slice().reverse().map((entry) => h("li", { "data-key": entry.key, text: logText(entry, names, view) }));
    return h("section", { class: "log panel", id: "game-log" }, h("h2", { text: t("table.log") }),
      h("ol", { reversed: true, tabindex: 0, "data-keep-scroll": "log", "aria-label": t("table.log") }, items));
  }

  const chatPanel = h("section", { class: "chat panel" });

  function drawChat() {
    if (!last) return chatPanel;
    chatForm.querySelector("button").textContent = t("table.say");
    chatInput.placeholder = t("table.chat_hint");
    return replaceChildren(chatPanel, h("h2", { text: t("table.chat") }),
      h("ul", { class: "chat-lines", id: "chat-lines" }, chat.map((line) =>
        h("li", {}, h("strong", { text: line.name }), ": ", h("span", { class: "chat-text", text: line.text })))),
      last.you !== null || here ? chatForm : null);
  }

  function resultPanel() {
    const { result, table } = last;
    if (!result) return null;
    const names = table.seats.map(seatName);
    const marked = result.replaced_by_bot.map((seat) => table.seats[seat].name || names[seat]);
    return h("section", { class: "result panel", id: "result" },
      ...resultWords(result, table, last.view),
      marked.length ? h("p", { class: "muted", text: t("table.marked", { names: marked.join(", ") }) }) : null,
      h("p", { class: "result-links" },
        h("a", { class: "button", href: `#/r/${tableId}`, id: "watch-replay", text: t("table.replay") }), " ",
        reviewed.has(table.game) ? h("a", { class: "button primary", href: `#/v/${tableId}`, id: "open-review", text: t("review.open") }) : null));
  }

  // A keyboard player whose button went away stays at the board: on the next action there
  // (or on the board itself while others play), and on the first action once it is theirs.
  function draw() {
    if (stopped) return;
    if (screen.cover !== null) return drawCovered();
    if (!last) return;
    keepingPlace(drawTable, () => firstAction() || document.getElementById("board"));
    if (document.activeElement && document.activeElement.id === "board") firstAction()?.focus({ preventScroll: true });
  }

  /** @returns {HTMLButtonElement | null} */
  function firstAction() {
    return root.querySelector(".board button:not([disabled])");
  }

  // Before a seat here with secrets acts: nothing of any seat's picture, only who is next.
  function drawCovered() {
    root.classList.remove("sending");
    const { table } = screen.newest;
    const name = seatName(table.seats[screen.cover]);
    replaceChildren(root,
      h("div", { class: "table-head" },
        h("a", { href: "#/", class: "button", text: t("table.back") }),
        h("h2", { text: table.title })),
      h("section", { class: "panel here-cover", id: "here-cover", role: "dialog", "aria-modal": "true", "aria-labelledby": "here-cover-title" },
        h("h2", { id: "here-cover-title", class: "here-turn", text: t("here.pass", { name }) }),
        h("p", { text: t("here.pass_hint", { name }) }),
        h("button", { class: "primary big", id: "here-uncover", text: t("here.show", { name }), onclick: () => uncover(screen.cover) })));
    document.getElementById("here-uncover")?.focus({ preventScroll: true });
  }

  function drawTable() {
    root.classList.remove("sending");
    const { table, you } = last;
    const invite = `${location.origin}${location.pathname}#/t/${tableId}`;
    const board = h("section", { class: `board game-${table.game}`, id: "board", tabindex: -1, "aria-label": t("table.board") });
    const view = gameView(table.game);
    view.render(board, {
      view: last.view,
      log: last.log,
      you,
      toMove: last.to_move,
      seats: table.seats,
      names: table.seats.map(seatName),
      status: table.status,
      tableId,
      notify,
      act,
      odds: extras.odds && last.to_move === you ? extras.oddsData : null,
      oddsOn: extras.odds,
      setOdds: (on) => {
        extras.odds = on;
        extras.oddsVersion = -1;
        extras.oddsData = null;
        localStorage.setItem("spieltisch.odds", on ? "on" : "off");
        draw();
        loadOdds();
      },
    });
    replaceChildren(root, 
      h("div", { class: "table-head" },
        h("a", { href: "#/", class: "button", text: t("table.back") }),
        h("h2", { text: table.title }),
        table.rated ? h("span", { class: "badge rated", id: "table-rated", text: t("rate.rated_badge") }) : null,
        coach ? null : h("label", { class: "invite" }, h("span", { text: t("table.invite") }),
          h("input", { readonly: true, value: invite, id: "invite", onclick: (e) => e.target.select() }),
          h("button", { class: "small", text: t("table.copy"), onclick: () => navigator.clipboard?.writeText(invite).then(() => notify(t("table.copied"))) })),
        (you !== null || here) && table.status !== "over" && !coach ? h("button", { class: "small", id: "leave", text: t("table.leave"), onclick: leave }) : null),
      h("p", { class: "offline-note", text: t("table.offline") }),
      rejoinPanel(),
      skipButtons(),
      coach ? coach.panel(table.title, table.seats.map(seatName)) : null,
      statusLine(),
      resultPanel(),
      h("div", { class: "table-body" }, board, h("aside", {}, seatsPanel(), logPanel(), coach ? null : drawChat())));
    tickClock();
  }

  function stop() {
    stopped = true;
    if (coach) coach.stop();
    clearInterval(clockTimer);
    for (const link of [...screen.links, screen.watch]) link?.close();
  }

  connect();
  clockTimer = setInterval(tick, 1000);
  return { stop, redraw: draw };
}

// A seat's score beside its name, said with what it counts (a number alone can mislead: in
// Riff Raff more is better, as it counts the pieces got rid of).
function seatScore(game, view, seat) {
  const score = view.scores[seat];
  const what = has(`result.score.${game}`) ? t(`result.score.${game}`) : t("result.score");
  const left = Array.isArray(view.supply_sizes) ? view.supply_sizes[seat] : null;
  const text = left === null ? String(score) : t("table.score_left", { n: score, left });
  return h("span", { class: "score", title: `${what}: ${score}`, text });
}

// The result of a game: the winners, and each seat's score under the game's own name for
// it (with the pieces left where the game has a supply), for the live table and the replay.
function resultWords(result, table, view) {
  const names = table.seats.map(seatName);
  const left = view && Array.isArray(view.supply_sizes) ? view.supply_sizes : null;
  const scoreName = has(`result.score.${table.game}`) ? t(`result.score.${table.game}`) : t("result.score");
  return [h("h2", { text: t("table.result") }),
    h("p", { class: "winner", text: t("table.won", { names: result.winners.map((w) => names[w]).join(", ") }) }),
    h("table", { class: "result-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("result.player") }), h("th", { scope: "col", text: scoreName }),
        left ? h("th", { scope: "col", text: t("result.left") }) : null)),
      h("tbody", {}, table.seats.map((seat) => h("tr", { class: result.winners.includes(seat.seat) ? "won" : "" },
        h("td", { text: names[seat.seat] }), h("td", { class: "result-score", text: String(result.scores[seat.seat]) }),
        left ? h("td", { class: "result-left", text: String(left[seat.seat]) }) : null))))];
}

export function logText(entry, names, view) {
  return sentence(logWords(entry, names, view));
}

function logWords(entry, names, view) {
  const args = { ...entry.args };
  if (typeof args.seat === "number") args.name = args.name || names[args.seat] || `#${args.seat + 1}`;
  const special = turnBasedLogText(entry, args) || (view && view.logText ? view.logText(entry, args, names) : null);
  if (special) return special;
  if (entry.key === "move") return "action" in args ? t("log.move", args) : t("log.move_hidden", args);
  if (entry.key === "chance") return "outcome" in args ? t("log.chance", args) : t("log.chance_hidden");
  return has(`log.${entry.key}`) ? t(`log.${entry.key}`, args) : entry.key;
}

// A page that leads nowhere says why and offers a way on: the lobby, or the live table.
function deadEnd(root, error, tableLink) {
  replaceChildren(root, h("section", { class: "panel dead-end", id: "dead-end" },
    h("h2", { text: has(`dead.${error.code}`) ? t(`dead.${error.code}`) : errorText(error) }),
    h("p", { text: errorText(error) }),
    h("p", {},
      tableLink ? h("a", { class: "button primary", href: tableLink, text: t("dead.to_table") }) : null, " ",
      h("a", { class: "button", href: "#/", id: "dead-end-lobby", text: t("dead.to_lobby") }))));
}

const REPLAY_STEP_MS = 900; // one step of autoplay at 1×
const REPLAY_SPEEDS = [0.5, 1, 2, 4];

// --- the replay viewer ------------------------------------------------------------------------
function replayPage(tableId) {
  const root = h("div", { class: "replay-page" });
  app.append(root);
  let data = null;
  let step = 0;
  let playing = null; // the autoplay timer while the replay plays by itself
  let speed = 1;

  function go(to) {
    step = Math.max(0, Math.min(data.steps.length - 1, to));
    if (step === data.steps.length - 1) pause();
    keepingPlace(draw);
  }

  function play() {
    if (step === data.steps.length - 1) step = 0;
    clearInterval(playing);
    playing = setInterval(() => go(step + 1), REPLAY_STEP_MS / speed);
    keepingPlace(draw);
  }

  function pause() {
    clearInterval(playing);
    playing = null;
  }

  function draw() {
    if (!data) return;
    const current = data.steps[step];
    const names = data.table.seats.map(seatName);
    const view = gameView(data.table.game);
    const board = h("section", { class: `board game-${data.table.game}` });
    const last = data.steps.length - 1;
    view.render(board, { // the last step is the table as it ended, no turn in play
      view: current.view, you: null, toMove: current.view.to_move, seats: data.table.seats, names,
      status: step === last && data.result ? "over" : "replay", tableId: `replay:${tableId}`, notify, log: current.entry ? [current.entry] : [], act: () => {}, odds: null, oddsOn: false, setOdds: null,
    });
    const entry = current.action === null ? null : current.entry;
    replaceChildren(root, 
      h("div", { class: "table-head" },
        h("a", { href: "#/", class: "button", text: t("table.back") }),
        h("h2", { text: `${t("replay.title")}: ${data.table.title}` })),
      h("div", { class: "replay-controls" },
        h("button", { id: "replay-first", text: t("replay.first"), onclick: () => go(0) }),
        h("button", { id: "replay-prev", text: t("replay.prev"), onclick: () => go(step - 1) }),
        h("input", { type: "range", min: 0, max: last, value: step, "aria-label": t("replay.title"), oninput: (e) => go(Number(e.target.value)) }),
        h("button", { id: "replay-next", text: t("replay.next"), onclick: () => go(step + 1) }),
        h("button", { id: "replay-last", text: t("replay.last"), onclick: () => go(last) }),
        h("button", { id: "replay-play", class: "primary", text: playing ? t("replay.pause") : t("replay.play"),
          onclick: () => (playing ? (pause(), keepingPlace(draw)) : play()) }),
        speedChoice()),
      h("p", { class: "status", id: "replay-step", text: t("replay.step", { n: step, total: last }) }),
      entry ? h("p", { class: "muted", text: logText(entry, names, view) }) : null,
      step === last && data.result ? h("section", { class: "result panel", id: "replay-result" }, ...resultWords(data.result, data.table, current.view)) : null,
      board);
  }

  function speedChoice() {
    const select = h("select", { id: "replay-speed", "aria-label": t("replay.speed"), onchange: (e) => {
      speed = Number(e.target.value);
      if (playing) play();
    } }, REPLAY_SPEEDS.map((n) => h("option", { value: n, text: `${n}×` })));
    select.value = String(speed);
    return select;
  }

  api(`/api/tables/${tableId}/replay`).then((found) => {
    data = found;
    go(0);
  }).catch((error) => deadEnd(root, error, error.code === "not_over" ? `#/t/${tableId}` : null));
  const keys = (event) => {
    if (!data) return;
    if (event.key === "ArrowRight") go(step + 1);
    if (event.key === "ArrowLeft") go(step - 1);
  };
  document.addEventListener("keydown", keys);
  return {
    stop: () => {
      pause();
      document.removeEventListener("keydown", keys);
    },
    redraw: draw,
  };
}

// --- the review ------------------------------------------------------------------------------
function openReview(tableId) {
  const myName = tokenFor(tableId) ? playerName(savedName()) : null; // who played here from this browser
  return reviewPage(app, tableId, { seatName, logText, deadEnd, myName });
}

// --- start ------------------------------------------------------------------------------------
function route() {
  if (page) page.stop();
  clear(app);
  noteRoute(location.hash);
  forgetSeatRatings();
  const [, kind, id, part, token] = location.hash.split("/");
  if (kind === "t" && id && part === "seat" && token) takeSeat(decodeURIComponent(id), decodeURIComponent(token));
  if (kind === "t" && id) page = tablePage(decodeURIComponent(id));
  else if (kind === "r" && id) page = replayPage(decodeURIComponent(id));
  else if (kind === "v" && id) page = openReview(decodeURIComponent(id));
  else if (kind === "learn" && id) page = tablePage(decodeURIComponent(id), true);
  else if (kind === "signin" || kind === "signup") page = signInPage(app, kind, pageContext);
  else if (kind === "account") page = accountPage(app, pageContext);
  else if (kind === "p" && id) page = profilePage(app, decodeURIComponent(id), pageContext);
  else if (kind === "leaderboard" && id) page = leaderboardPage(app, decodeURIComponent(id), pageContext);
  else page = lobbyPage();
}

// A rejoin link: this browser keeps the seat's token (it never goes to the server in an
// address), and the token leaves the address bar and the history at once.
function takeSeat(tableId, token) {
  keepToken(tableId, token);
  history.replaceState(null, "", `${location.pathname}${location.search}#/t/${encodeURIComponent(tableId)}`);
}

// Switch the page to `code`: the header, the page shown, and what screen readers heard.
function useLanguage(code) {
  setLanguage(code);
  languageSwitch.value = language();
  translateStatic();
  announce([""]); // what was said stays in the old language: the region starts afresh
  if (page) page.redraw();
}

async function start() {
  await loadSession();
  setLanguage(accountLanguage() || detectLanguage());
  const select = languageSwitch;
  for (const [code, label] of Object.entries(LANGUAGES)) select.append(h("option", { value: code, text: label }));
  select.value = language();
  select.closest("label").before(motionSwitch());
  select.closest("label").after(accountNav(), turnBadge());
  document.querySelector(".site-top")?.after(alarmPlace());
  select.addEventListener("change", () => {
    useLanguage(select.value);
    saveLanguage(select.value).catch((error) => notify(errorText(error)));
  });
  translateStatic();
  window.addEventListener("hashchange", route);
  route();
  watchTurns(loadMyTables);
}

export { ApiError };
start();
