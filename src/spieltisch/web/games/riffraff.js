// Riff Raff in the browser: the round (cards face down, the reveal, the captain's choices, the
// announcement), placing a piece with a ghost on the 3D ship, the ship's motion as the server
// computed it, catching falling pieces in slow motion, the heel meter and the easy mode.
//
// The 3D scene (three.js) is loaded on first use and kept across redraws of the table, so the
// motion plays on while the panels around it change.

import { append, clear, h, s } from "../dom.js";
import { formatNumber, language, t } from "../i18n.js";
import { cardAreaText, heelText, placeText } from "./riffraff_words.js";

const PIECES = ["boat", "barrel", "flacon", "box", "sailor", "plank", "rat", "chest"];
const FACES = ["up", "side", "end"];
const TURN_STEP = 15;
const MOVE_STEP = 0.05; // arrow keys move the ghost this far across the area (Shift: FINE_STEP)
const FINE_STEP = 0.01;
const HANDS = 2;

// The hand and the face-down card: people at one screen pass the device under a cover.
export const secrets = true;

// --- state kept across redraws ----------------------------------------------------------------
const table = {
  id: null,
  ctx: null,
  ship: null, // the ShipScene once loaded
  loading: null,
  failed: null,
  holder: null, // the element holding the canvas and its overlays
  pendingShow: null,
  placing: { piece: null, yaw: 0, face: "up", u: 0.6, v: 0, shown: false, bad: null },
  catching: null, // { show, bodies, sendAt, timer, sent }
  pointed: null, // the card pointed at, whose area is lit
  easy: localStorage.getItem("spieltisch.rr.easy") === "on",
  shows: 0, // motions started (for tests and the benchmark)
  lastShow: null, // the latest motion (the benchmark plays it again)
  lastFalls: [], // the pieces that fell in the latest motion (for tests)
};

function resetFor(tableId) {
  if (table.id === tableId) return;
  table.id = tableId;
  table.pendingShow = null;
  table.catching = null;
  table.placing = { piece: null, yaw: 0, face: "up", u: 0.6, v: 0, shown: false, bad: null };
}

// --- loading the scene --------------------------------------------------------------------------
function holder() {
  if (!table.holder) {
    table.holder = h("div", { class: "rr-stage", id: "rr-stage" });
    table.overlay = h("div", { class: "rr-overlay" });
    table.meter = heelMeter();
    // under the picture, never over the ship: what the ship is doing and how far it heels
    table.holder.append(h("div", { class: "rr-strip" }, table.overlay, table.meter.node));
  }
  return table.holder;
}

async function loadScene() {
  if (table.ship || table.loading) return table.loading;
  table.loading = (async () => {
    try {
      const [module, response] = await Promise.all([import("./riffraff_scene.js"), fetch("/api/games/riffraff/scene")]);
      const data = await response.json();
      table.ship = new module.ShipScene(holder(), data);
      table.scene = module;
      table.ship.setCentreOfMass(table.easy);
      table.ship.onFrame = (joints) => table.meter.set(joints);
      table.ship.onShowEnd = () => redrawPanels();
      listen(table.ship);
      if (table.pendingShow) startShow(table.pendingShow);
      if (table.ctx) update(table.ctx);
    } catch (error) {
      table.failed = error;
      holder().prepend(h("p", { class: "rr-missing", id: "rr-missing", text: t("rr.no3d") }));
    }
  })();
  return table.loading;
}

// --- the server's motion ------------------------------------------------------------------------
export function onMessage(message) {
  if (message.type !== "settle") return;
  message.received = performance.now();
  if (table.ship) startShow(message);
  else table.pendingShow = message;
}

function startShow(show) {
  table.pendingShow = null;
  table.shows += 1;
  table.lastShow = show;
  table.lastFalls = show.falls.map((f) => f[0]);
  const started = show.received - show.elapsed * 1000;
  table.ship.play(show, started);
  const ctx = table.ctx;
  if (show.catch && ctx && ctx.you === show.catch.seat) {
    table.catching = { show, bodies: [], sent: false, timer: null, started };
  } else {
    table.catching = null;
  }
  redrawPanels();
}

function landingMs(show, body, started) {
  const fall = show.falls.find((f) => f[0] === body);
  const real = realTime(show, fall[1]);
  return started + real * 1000;
}

function realTime(show, at) {
  let falling = 0;
  for (const [a, b] of show.spans) falling += Math.max(0, Math.min(at, b) - a);
  return (at + (show.slow_motion - 1) * falling) / show.speed;
}

function grab(body) {
  const catching = table.catching;
  if (!catching || catching.sent || catching.bodies.length >= HANDS || catching.bodies.includes(body)) return;
  catching.bodies.push(body);
  table.ship.markCaught(body);
  const falls = catching.show.falls.length;
  if (catching.bodies.length >= Math.min(HANDS, falls)) sendCatch();
  else {
    // the catch goes out when this piece would have landed, so it is never late
    const wait = Math.max(0, landingMs(catching.show, body, catching.started) - performance.now());
    catching.timer = setTimeout(sendCatch, wait);
  }
  redrawPanels();
}

function sendCatch() {
  const catching = table.catching;
  if (!catching || catching.sent || !table.ctx) return;
  catching.sent = true;
  clearTimeout(catching.timer);
  const bodies = catching.bodies.slice().sort((a, b) => a - b);
  table.ctx.act(`catch ${bodies.join(" ") || "none"}`);
}

// --- placing --------------------------------------------------------------------------------
function placingArea(ctx) {
  const view = ctx.view;
  if (!view || view.phase !== "place" || ctx.you === null || ctx.toMove !== ctx.you) return null;
  return view.cards.latest[ctx.you];
}

function placement() {
  const p = table.placing;
  const area = placingArea(table.ctx);
  if (area === null || p.piece === null) return null;
  return { piece: PIECES.indexOf(p.piece), area, u: p.u, v: p.v, yaw: p.yaw, face: p.face };
}

function refreshGhost() {
  const ship = table.ship;
  if (!ship) return;
  const found = placement();
  if (!found || table.ship.show) {
    ship.setGhost(null);
    return;
  }
  table.placing.bad = table.scene.footprintProblem(ship.data, found);
  ship.setGhost({ ...found, bad: Boolean(table.placing.bad), visible: table.placing.shown });
  const hint = document.getElementById("rr-ghost-state");
  if (hint) hint.textContent = ghostText();
}

function ghostText() {
  const bad = table.placing.bad;
  if (bad) return t(`rr.intrudes.${bad.where}`, { need: formatNumber(bad.need, 2) });
  const p = table.placing;
  const area = table.ctx ? placingArea(table.ctx) : null;
  return area === null ? "" : placeText(area, p.u, p.v, p.yaw);
}

function number(x) {
  return String(Math.round(x * 1000) / 1000);
}

// Send the placement; `unchecked` skips the footprint check here (the server checks anyway).
function place(unchecked = false) {
  const found = placement();
  if (!found || !table.ctx) return false;
  if (!unchecked && table.placing.bad) {
    table.ctx.notify(ghostText());
    return false;
  }
  const p = table.placing;
  table.ctx.act(`place ${p.piece} ${found.area} u=${number(p.u)} v=${number(p.v)} yaw=${number(p.yaw)} ${p.face}`);
  return true;
}

function turn(degrees) {
  const p = table.placing;
  p.yaw = (((p.yaw + degrees + 180) % 360) + 360) % 360 - 180;
  refreshGhost();
}

// The keyboard's way to move the ghost: along the area (u) and across it (v).
function nudge(du, dv) {
  const p = table.placing;
  p.u = Math.min(1, Math.max(0, p.u + du));
  p.v = Math.min(1, Math.max(-1, p.v + dv));
  p.shown = true;
  refreshGhost();
}

// The falling piece that lands next and is not caught yet (Space catches it).
function nextFalling() {
  const show = table.ship && table.ship.show;
  if (!show) return null;
  const now = table.ship.simNow || 0;
  const open = show.falls.filter(([body, landing]) => landing > now && !show.caught.has(body));
  open.sort((a, b) => a[1] - b[1]);
  return open.length ? open[0][0] : null;
}

function moveGhost(clientX, clientY) {
  const area = placingArea(table.ctx);
  if (area === null || table.placing.piece === null) return false;
  const at = table.ship.areaAt(area, clientX, clientY);
  const near = at && at.u > -0.6 && at.u < 1.6 && Math.abs(at.v) < 3.5;
  table.placing.shown = Boolean(near);
  if (near) {
    table.placing.u = Math.min(1, Math.max(0, at.u));
    table.placing.v = Math.min(1, Math.max(-1, at.v));
  }
  refreshGhost();
  return near;
}

// Pointer, wheel, keys and two-finger turning on the canvas.
function listen(ship) {
  const canvas = ship.canvas;
  const stage = holder();
  const touches = new Map();
  let down = null;
  let twist = null;
  const angle = () => {
    const [a, b] = [...touches.values()];
    return (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;
  };
  stage.addEventListener("pointerdown", (event) => {
    if (event.target !== canvas) return;
    const body = ship.fallingAt(event.clientX, event.clientY, event.pointerType === "touch" ? 64 : 44);
    if (body !== null && table.catching) {
      grab(body);
      event.stopPropagation();
      return;
    }
    touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
    down = { x: event.clientX, y: event.clientY, id: event.pointerId, onArea: moveGhost(event.clientX, event.clientY) };
    if (touches.size === 2 && table.placing.shown) {
      twist = { start: angle(), yaw: table.placing.yaw };
      event.stopPropagation();
    } else if (event.pointerType === "touch" && down.onArea) {
      ship.controls.enabled = false; // a finger on the area moves the piece, not the camera
    }
  }, true);
  stage.addEventListener("pointermove", (event) => {
    if (touches.has(event.pointerId)) touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (twist && touches.size === 2) {
      table.placing.yaw = twist.yaw - (angle() - twist.start);
      refreshGhost();
      event.stopPropagation();
      return;
    }
    if (event.pointerType !== "touch" || !ship.controls.enabled) moveGhost(event.clientX, event.clientY);
  }, true);
  const up = (event) => {
    touches.delete(event.pointerId);
    const wasTwist = Boolean(twist);
    if (touches.size < 2) twist = null;
    const start = down;
    if (!start || start.id !== event.pointerId || wasTwist || touches.size) {
      if (!touches.size) ship.controls.enabled = true;
      return;
    }
    down = null;
    ship.controls.enabled = true;
    const still = Math.hypot(event.clientX - start.x, event.clientY - start.y) < 6;
    const dragged = event.pointerType === "touch" && start.onArea;
    if (ship.show || event.type !== "pointerup" || !(still || dragged)) return;
    if (moveGhost(event.clientX, event.clientY)) place();
  };
  stage.addEventListener("pointerup", up, true);
  stage.addEventListener("pointercancel", up, true);
  stage.addEventListener("wheel", (event) => {
    if (!table.placing.shown || placingArea(table.ctx) === null) return;
    event.preventDefault();
    event.stopPropagation();
    turn(event.deltaY > 0 ? TURN_STEP : -TURN_STEP);
  }, { capture: true, passive: false });
  const keys = (event) => {
    const tag = event.target ? event.target.tagName : "";
    if (["INPUT", "TEXTAREA", "SELECT"].includes(tag)) return;
    if (event.key === " " && table.catching && nextFalling() !== null) {
      event.preventDefault();
      grab(nextFalling());
      return;
    }
    if (placingArea(table.ctx) === null || table.placing.piece === null) return;
    const by = event.shiftKey ? FINE_STEP : MOVE_STEP;
    const move = { ArrowUp: [by, 0], ArrowDown: [-by, 0], ArrowLeft: [0, by], ArrowRight: [0, -by] }[event.key];
    const step = { q: -TURN_STEP, e: TURN_STEP, Q: -TURN_STEP, E: TURN_STEP }[event.key];
    if (move) {
      event.preventDefault();
      nudge(...move);
    } else if (step) {
      event.preventDefault();
      turn(step);
    } else if (event.key === "Enter" && tag !== "BUTTON") place(); // a button's Enter is its own
  };
  document.addEventListener("keydown", keys);
  ship.cleanups = [() => document.removeEventListener("keydown", keys)];
}

// --- the heel meter ------------------------------------------------------------------------
function heelMeter() {
  const needle = s("line", { x1: 60, y1: 60, x2: 60, y2: 12, class: "rr-needle" });
  const pitchDot = s("circle", { cx: 60, cy: 60, r: 4, class: "rr-pitch-dot" });
  const ticks = [-40, -20, 0, 20, 40].map((deg) => {
    const a = (deg * Math.PI) / 180;
    return s("line", { x1: 60 + 44 * Math.sin(a), y1: 60 - 44 * Math.cos(a), x2: 60 + 52 * Math.sin(a), y2: 60 - 52 * Math.cos(a), class: "rr-tick" });
  });
  const label = h("span", { class: "rr-heel-text", id: "rr-heel-text" });
  const gauge = s("svg", { viewBox: "0 0 120 70", class: "rr-heel-gauge", role: "img", "aria-label": t("rr.heel"), "aria-labelledby": "rr-heel-text" },
    s("path", { d: "M 14 60 A 46 46 0 0 1 106 60", class: "rr-arc" }), ticks, needle, pitchDot);
  const node = h("div", { class: "rr-heel", id: "rr-heel" }, gauge, label);
  let shown = "";
  let last = [0, 0];
  const meter = {
    node,
    set(joints) {
      last = joints;
      const roll = (joints[0] * 180) / Math.PI;
      const pitch = (joints[1] * 180) / Math.PI;
      const key = `${roll.toFixed(1)}:${pitch.toFixed(1)}:${language()}`; // a new language redraws
      if (key === shown) return;
      shown = key;
      const clamped = Math.max(-40, Math.min(40, roll));
      needle.setAttribute("transform", `rotate(${clamped.toFixed(2)} 60 60)`);
      pitchDot.setAttribute("cy", String(60 - Math.max(-40, Math.min(40, pitch)) * 0.6));
      node.dataset.roll = roll.toFixed(2);
      gauge.setAttribute("aria-label", t("rr.heel"));
      label.textContent = heelText(roll, pitch);
    },
    /** The words again, in the language chosen now (the ship may be at rest, with no frame). */
    relabel() {
      meter.set(last);
    },
  };
  return meter;
}

// --- the panels -----------------------------------------------------------------------------
function name(ctx, seat) {
  return ctx.names[seat] || `#${seat + 1}`;
}

function swatch(piece) {
  return h("span", { class: `rr-swatch rr-${piece}` });
}

// Pointing at a card (hover, keyboard focus or a touch) lights its area on the ship and names it.
function cardButton(ctx, value) {
  const show = () => showCardArea(value);
  return h("button", { class: "rr-card big", "data-action": `card ${value}`, text: String(value), title: cardAreaText(value),
    onclick: () => ctx.act(`card ${value}`), onmouseenter: show, onfocus: show, onpointerdown: show,
    onmouseleave: () => showCardArea(null), onblur: () => showCardArea(null) });
}

function showCardArea(card) {
  const line = document.getElementById("rr-card-area");
  if (line) line.textContent = card === null ? "" : cardAreaText(card);
  if (!table.ship) return;
  if (card === null) {
    if (table.pointed === null || table.pointed === undefined) return;
    table.pointed = null;
    table.focused = null; // the camera goes back to where the game looks
    if (table.ctx) update(table.ctx);
    return;
  }
  table.pointed = card;
  table.ship.highlight(card);
  table.ship.focus(card, false);
}

function roundPanel(ctx) {
  const view = ctx.view;
  const cards = view.cards;
  const seats = ctx.seats.map((seat) => {
    const card = cards.latest[seat.seat];
    const down = view.phase === "cards" && cards.chosen[seat.seat];
    return h("li", { class: `rr-seat${seat.seat === view.captain ? " captain" : ""}${seat.seat === view.active ? " active" : ""}`, "data-seat": seat.seat },
      h("strong", { text: name(ctx, seat.seat) }),
      seat.seat === view.captain && view.round > 0 && view.phase !== "cards" ? h("span", { class: "badge", text: t("rr.captain") }) : null,
      h("span", { class: "rr-card-shown", text: down ? t("rr.card_down") : card ? t("rr.card", { n: card }) : "–" }),
      h("span", { class: "rr-supply-count", text: t("rr.pieces", { n: view.supply_sizes[seat.seat] }) }),
      view.caught[seat.seat] ? h("span", { class: "muted", text: t("rr.caught_count", { n: view.caught[seat.seat] }) }) : null);
  });
  return h("div", { class: "rr-round" },
    h("p", { class: "rr-round-line", text: t("rr.round", { n: view.round, of: view.rounds }) }),
    h("ol", { class: "rr-seats" }, seats));
}

function choicePanel(ctx) {
  const view = ctx.view;
  const mine = ctx.you !== null && ctx.toMove === ctx.you;
  const legal = view.legal_actions || [];
  if (view.phase === "cards") {
    if (ctx.you === null) return h("p", { class: "hint", text: t("rr.choosing_cards") }); // a replay or a guest
    if (!mine) return h("p", { class: "hint", text: t("rr.waiting_cards") });
    return h("div", { class: "rr-choice" }, h("h3", { text: t("rr.choose_card") }),
      h("div", { class: "rr-hand" }, (view.cards.hand || []).map((n) => cardButton(ctx, n))),
      h("p", { class: "hint rr-card-area", id: "rr-card-area", "aria-live": "polite" }));
  }
  if (view.phase === "captain" && mine) {
    return h("div", { class: "rr-choice" }, h("h3", { text: t("rr.tie_captain") }),
      legal.map((action) => {
        const seat = Number(action.split(" ")[1]);
        return h("button", { class: "big", "data-action": action, text: t("rr.make_captain", { name: name(ctx, seat) }), onclick: () => ctx.act(action) });
      }));
  }
  if (view.phase === "next" && mine) {
    return h("div", { class: "rr-choice" }, h("h3", { text: t("rr.tie_next") }),
      legal.map((action) => {
        const seat = Number(action.split(" ")[1]);
        return h("button", { class: "big", "data-action": action, text: t("rr.plays_next", { name: name(ctx, seat) }), onclick: () => ctx.act(action) });
      }));
  }
  if (view.phase === "announce" && mine) {
    const area = view.cards.latest[ctx.you];
    return h("div", { class: "rr-choice" }, h("h3", { text: t("rr.announce", { area }) }),
      h("button", { class: "big", "data-action": "one", text: t("rr.one"), onclick: () => ctx.act("one") }),
      h("button", { class: "big", "data-action": "two", text: t("rr.two"), onclick: () => ctx.act("two") }));
  }
  if (view.phase === "place" && mine) return placePanel(ctx);
  if (view.phase === "catch" && table.catching && !table.catching.sent) {
    return h("p", { class: "rr-catch-call", id: "rr-catch-call", text: t("rr.catch", { n: table.catching.bodies.length }) });
  }
  const active = view.active;
  if (active !== null && active !== undefined && view.phase !== "over") {
    return h("p", { class: "hint", text: t("rr.loading", { name: name(ctx, active), area: view.cards.latest[active] }) });
  }
  return null;
}

function placePanel(ctx) {
  const view = ctx.view;
  const supply = view.supplies[ctx.you];
  const p = table.placing;
  if (p.piece !== null && !supply[PIECES.indexOf(p.piece)]) p.piece = null;
  const area = view.cards.latest[ctx.you];
  const pieces = PIECES.map((piece, i) => supply[i]
    ? h("button", {
      class: `rr-piece${p.piece === piece ? " chosen" : ""}`,
      "data-piece": piece,
      "aria-pressed": p.piece === piece ? "true" : "false",
      onclick: () => { p.piece = piece; refreshGhost(); redrawPanels(); },
    }, swatch(piece), h("span", { text: t(`rr.piece.${piece}`) }), h("span", { class: "rr-count", text: `×${supply[i]}` }))
    : null);
  const faces = FACES.map((face) => h("button", {
    class: `small${p.face === face ? " primary" : ""}`,
    "data-face": face,
    text: t(`rr.face.${face}`),
    onclick: () => { p.face = face; refreshGhost(); redrawPanels(); },
  }));
  const announced = view.announced === 2 ? t("rr.two_announced") : "";
  return h("div", { class: "rr-choice rr-place" },
    h("h3", { text: `${t("rr.place_on", { area })} ${announced}` }),
    h("div", { class: "rr-pieces" }, pieces),
    p.piece === null ? h("p", { class: "hint", text: t("rr.choose_piece") }) : h("div", { class: "rr-place-tools" },
      h("div", { class: "rr-faces" }, faces),
      h("button", { class: "small", id: "rr-turn-left", text: "⟲", title: t("rr.turn_left"), "aria-label": t("rr.turn_left"), onclick: () => turn(-TURN_STEP) }),
      h("button", { class: "small", id: "rr-turn-right", text: "⟳", title: t("rr.turn_right"), "aria-label": t("rr.turn_right"), onclick: () => turn(TURN_STEP) }),
      h("button", { class: "primary", id: "rr-place", text: t("rr.place"), onclick: () => place() }),
      h("p", { class: "hint", text: t("rr.place_hint", { area }) }),
      h("p", { class: "rr-ghost-state", id: "rr-ghost-state", text: ghostText() })));
}

function suppliesPanel(ctx) {
  const view = ctx.view;
  return h("details", { class: "rr-supplies" }, h("summary", { text: t("rr.supplies") }),
    h("table", {}, h("tbody", {}, ctx.seats.map((seat) => h("tr", {},
      h("th", { text: name(ctx, seat.seat) }),
      PIECES.map((piece, i) => h("td", { title: t(`rr.piece.${piece}`) }, swatch(piece), String(view.supplies[seat.seat][i]))))))));
}

function easyToggle() {
  const box = h("input", { type: "checkbox", id: "rr-easy" });
  box.checked = table.easy;
  box.addEventListener("change", () => {
    table.easy = box.checked;
    localStorage.setItem("spieltisch.rr.easy", table.easy ? "on" : "off");
    if (table.ship) table.ship.setCentreOfMass(table.easy);
  });
  return h("label", { class: "rr-easy" }, box, h("span", { text: t("rr.easy") }));
}

function drawPanels(ctx) {
  const panels = table.panels;
  if (!panels || !ctx.view) return;
  clear(panels);
  append(panels, choicePanel(ctx), roundPanel(ctx), suppliesPanel(ctx), easyToggle());
}

function redrawPanels() {
  if (table.ctx) drawPanels(table.ctx);
  refreshGhost();
}

function update(ctx) {
  if (table.meter) table.meter.relabel();
  const ship = table.ship;
  if (!ship || !ctx.view) return;
  ship.setBoard(ctx.view.board);
  const area = placingArea(ctx);
  const active = ctx.view.active !== null && ctx.view.active !== undefined ? ctx.view.cards.latest[ctx.view.active] ?? null : null;
  ship.highlight(area ?? active);
  // the camera follows the area being loaded, and looks closely when the person loads it
  const view = `${ctx.view.round}:${ctx.view.active}:${active}:${area !== null}`;
  if (view !== table.focused) {
    ship.focus(area ?? active, area !== null);
    table.focused = view;
  }
  refreshGhost();
}

// --- the view -------------------------------------------------------------------------------
export function render(root, ctx) {
  resetFor(ctx.tableId || "replay");
  table.ctx = ctx;
  if (table.catching && ctx.view && ctx.view.phase !== "catch") table.catching = null;
  table.panels = h("div", { class: "rr-panels" });
  const stage = holder();
  append(root, h("div", { class: "rr-layout" }, stage, table.panels));
  drawPanels(ctx);
  loadScene();
  update(ctx);
  table.overlay.textContent = ctx.view && ctx.view.phase === "settle" ? t("rr.moving") : "";
}

// The log: each placement, what fell, who caught what and where the rest went.
export function logText(entry, args, names = []) {
  const who = (seat) => names[seat] || `#${Number(seat) + 1}`;
  const pieces = (list) => list.map((p) => t(`rr.piece.${p}`)).join(", ");
  const [word, value] = String(args.action || args.outcome || "").split(" ");
  if (entry.key === "move" && !("action" in args)) return t("rr.log.card_hidden", args);
  if (word === "card") return t("rr.log.card", { ...args, card: value });
  if (word === "captain" && who(value) === args.name) return t("rr.log.captain_self", args);
  if (word === "first" || word === "captain" || word === "next") {
    return t(`rr.log.${word}`, { ...args, who: who(value) });
  }
  if (word === "two" || word === "one") return t(`rr.log.${word}`, args);
  if (word === "place" && args.piece) return t("rr.log.place", { ...args, piece: t(`rr.piece.${args.piece}`) });
  if (word === "settled" && args.fell) return fellText(args.fell);
  if (word === "catch" && args.caught) return catchText({ ...args, name: who(args.seat) }, pieces);
  return null;
}

function fellText(fell) {
  if (!fell.length) return t("rr.log.fell_none");
  const each = fell.map((f) => t("rr.log.from_area", { piece: t(`rr.piece.${f.piece}`), area: f.area }));
  return t("rr.log.fell", { pieces: each.join(", ") });
}

function catchText(args, pieces) {
  const parts = [];
  if (args.caught.length) parts.push(t("rr.log.catch", { name: args.name, pieces: pieces(args.caught) }));
  else if (args.back.length) parts.push(t("rr.log.catch_own", { name: args.name, pieces: pieces(args.back) }));
  else parts.push(t("rr.log.catch_none", args));
  const home = args.back.concat(args.supply);
  if (home.length) parts.push(t("rr.log.to_supply", { name: args.name, pieces: pieces(home) }));
  return parts.join(" ");
}

export function picture() {
  return s("svg", { viewBox: "0 0 200 110", class: "game-picture" },
    s("path", { d: "M60 98 L140 98 L100 62 Z", fill: "#2f6fb3" }),
    s("path", { d: "M40 62 L160 62 L150 74 L50 74 Z", fill: "#8a5a33" }),
    s("rect", { x: 98, y: 8, width: 4, height: 56, fill: "#8a5a33" }),
    s("rect", { x: 58, y: 44, width: 84, height: 4, fill: "#8a5a33" }),
    s("rect", { x: 66, y: 28, width: 68, height: 4, fill: "#8a5a33" }),
    s("rect", { x: 74, y: 14, width: 52, height: 4, fill: "#8a5a33" }),
    s("rect", { x: 62, y: 50, width: 12, height: 12, fill: "#e6cc4d" }),
    s("circle", { cx: 125, cy: 56, r: 6, fill: "#9a5a26" }),
    s("rect", { x: 112, y: 36, width: 8, height: 8, fill: "#cc3333" }));
}

// Hooks for browser tests and the benchmark (screen points of area points and pieces), set
// only on a page the server marked for tests (`spieltisch serve --test-hooks`).
if (document.documentElement.hasAttribute("data-test-hooks")) Object.assign(window, { riffraffTable: testHooks() });

function testHooks() {
  return {
    ready: () => Boolean(table.ship),
    ship: () => table.ship,
    screenOf: (area, u, v) => table.ship.screenOf(area, u, v),
    placing: () => ({ ...table.placing }),
    sendPlacement: (values, unchecked) => {
      Object.assign(table.placing, values);
      refreshGhost();
      return place(unchecked);
    },
    fallingNow: () => {
      const ship = table.ship;
      if (!ship || !ship.show) return null;
      const now = ship.simNow || 0;
      const falling = ship.show.falls.find(([, landing, air]) => now > landing - air && now < landing - 0.02);
      return falling ? { body: falling[0], at: ship.screenOfPiece(falling[0]) } : null;
    },
    playing: () => Boolean(table.ship && table.ship.show),
    cameraMoving: () => Boolean(table.ship && table.ship.glide),
    area: () => (table.ctx ? placingArea(table.ctx) : null),
    phase: () => (table.ctx && table.ctx.view ? table.ctx.view.phase : null),
    frames: () => (table.ship ? table.ship.frames : 0),
    shows: () => table.shows,
    replay: () => table.ship.play(table.lastShow, performance.now()), // the latest motion, once more
    lastFalls: () => table.lastFalls,
  };
}
