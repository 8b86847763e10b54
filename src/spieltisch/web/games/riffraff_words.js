// Riff Raff's words that are built from numbers: pure functions, tested in Node.

import { addWords, formatNumber, t } from "../i18n.js";

/**
 * "Heel: 6.5° to port · 0.2° bow down", in the current language's words and numbers.
 * @param {number} roll
 * @param {number} pitch
 */
export function heelText(roll, pitch) {
  const side = Math.abs(roll) >= 0.05 ? (roll > 0 ? t("rr.starboard") : t("rr.port")) : "";
  const end = Math.abs(pitch) >= 0.05 ? (pitch > 0 ? t("rr.bow_down") : t("rr.stern_down")) : "";
  const line = t("rr.heel_line", { heel: t("rr.heel"), roll: formatNumber(Math.abs(roll), 1), side, pitch: formatNumber(Math.abs(pitch), 1), end });
  return line.replace(/ +·/, " ·").trim();
}

// --- where a card loads, and where on its area a piece goes, in plain words ------------------
// Areas 1-4 are the deck's quarters (1, 2 towards the bow; odd numbers on the port side), 5-10
// the halves of the three yards from the lowest up. On an area, u runs from the mast (0) to
// the far end (1) and v across it from -1 to 1 (on the deck from the centre line to the side,
// on a yard from the aft edge to the fore edge).
addWords({
  en: {
    "rr.area.1": "Deck, towards the bow, port side",
    "rr.area.2": "Deck, towards the bow, starboard side",
    "rr.area.3": "Deck, towards the stern, port side",
    "rr.area.4": "Deck, towards the stern, starboard side",
    "rr.area.5": "Lowest yard, port half",
    "rr.area.6": "Lowest yard, starboard half",
    "rr.area.7": "Middle yard, port half",
    "rr.area.8": "Middle yard, starboard half",
    "rr.area.9": "Top yard, port half",
    "rr.area.10": "Top yard, starboard half",
    "rr.card_area": "Card {n} loads here: {area}",
    "rr.where.mast": "near the mast",
    "rr.where.halfway": "halfway out",
    "rr.where.yard_end": "at the end of the yard",
    "rr.where.bow": "near the bow",
    "rr.where.stern": "near the stern",
    "rr.where.centre_line": "by the centre line",
    "rr.where.ship_side": "by the ship's side",
    "rr.where.fore_edge": "on the fore edge",
    "rr.where.aft_edge": "on the aft edge",
    "rr.where.middle": "in the middle",
    "rr.turn.none": "not turned",
    "rr.turn.eighth": "turned an eighth",
    "rr.turn.quarter": "turned a quarter",
    "rr.turn.three_eighths": "turned three eighths",
    "rr.turn.half": "turned half round",
    "rr.turn.degrees": "turned {n}°",
    "rr.ghost_where": "Here: {along}, {across}, {turn}",
    "rr.choosing_cards": "The players are choosing their cards…",
  },
  de: {
    "rr.area.1": "Deck, zum Bug hin, Backbord",
    "rr.area.2": "Deck, zum Bug hin, Steuerbord",
    "rr.area.3": "Deck, zum Heck hin, Backbord",
    "rr.area.4": "Deck, zum Heck hin, Steuerbord",
    "rr.area.5": "Unterste Rah, Backbordhälfte",
    "rr.area.6": "Unterste Rah, Steuerbordhälfte",
    "rr.area.7": "Mittlere Rah, Backbordhälfte",
    "rr.area.8": "Mittlere Rah, Steuerbordhälfte",
    "rr.area.9": "Oberste Rah, Backbordhälfte",
    "rr.area.10": "Oberste Rah, Steuerbordhälfte",
    "rr.card_area": "Karte {n} lädt hierhin: {area}",
    "rr.where.mast": "nah am Mast",
    "rr.where.halfway": "auf halbem Weg nach außen",
    "rr.where.yard_end": "am Ende der Rah",
    "rr.where.bow": "nah am Bug",
    "rr.where.stern": "nah am Heck",
    "rr.where.centre_line": "an der Mittellinie",
    "rr.where.ship_side": "an der Bordwand",
    "rr.where.fore_edge": "an der vorderen Kante",
    "rr.where.aft_edge": "an der hinteren Kante",
    "rr.where.middle": "in der Mitte",
    "rr.turn.none": "nicht gedreht",
    "rr.turn.eighth": "um ein Achtel gedreht",
    "rr.turn.quarter": "um eine Vierteldrehung gedreht",
    "rr.turn.three_eighths": "um drei Achtel gedreht",
    "rr.turn.half": "halb herum gedreht",
    "rr.turn.degrees": "um {n}° gedreht",
    "rr.ghost_where": "Hier: {along}, {across}, {turn}",
    "rr.choosing_cards": "Die Spieler wählen ihre Karten…",
  },
  fr: {
    "rr.area.1": "Pont, vers la proue, bâbord",
    "rr.area.2": "Pont, vers la proue, tribord",
    "rr.area.3": "Pont, vers la poupe, bâbord",
    "rr.area.4": "Pont, vers la poupe, tribord",
    "rr.area.5": "Vergue basse, moitié bâbord",
    "rr.area.6": "Vergue basse, moitié tribord",
    "rr.area.7": "Vergue du milieu, moitié bâbord",
    "rr.area.8": "Vergue du milieu, moitié tribord",
    "rr.area.9": "Vergue haute, moitié bâbord",
    "rr.area.10": "Vergue haute, moitié tribord",
    "rr.card_area": "La carte {n} charge ici : {area}",
    "rr.where.mast": "près du mât",
    "rr.where.halfway": "à mi-chemin",
    "rr.where.yard_end": "au bout de la vergue",
    "rr.where.bow": "près de la proue",
    "rr.where.stern": "près de la poupe",
    "rr.where.centre_line": "contre l’axe du navire",
    "rr.where.ship_side": "contre le bord",
    "rr.where.fore_edge": "sur le bord avant",
    "rr.where.aft_edge": "sur le bord arrière",
    "rr.where.middle": "au milieu",
    "rr.turn.none": "sans rotation",
    "rr.turn.eighth": "tourné d’un huitième",
    "rr.turn.quarter": "tourné d’un quart",
    "rr.turn.three_eighths": "tourné de trois huitièmes",
    "rr.turn.half": "tourné d’un demi-tour",
    "rr.turn.degrees": "tourné de {n}°",
    "rr.ghost_where": "Ici : {along}, {across}, {turn}",
    "rr.choosing_cards": "Les joueurs choisissent leur carte…",
  },
  it: {
    "rr.area.1": "Ponte, verso prua, babordo",
    "rr.area.2": "Ponte, verso prua, tribordo",
    "rr.area.3": "Ponte, verso poppa, babordo",
    "rr.area.4": "Ponte, verso poppa, tribordo",
    "rr.area.5": "Pennone basso, metà di babordo",
    "rr.area.6": "Pennone basso, metà di tribordo",
    "rr.area.7": "Pennone di mezzo, metà di babordo",
    "rr.area.8": "Pennone di mezzo, metà di tribordo",
    "rr.area.9": "Pennone alto, metà di babordo",
    "rr.area.10": "Pennone alto, metà di tribordo",
    "rr.card_area": "La carta {n} carica qui: {area}",
    "rr.where.mast": "vicino all’albero",
    "rr.where.halfway": "a metà strada",
    "rr.where.yard_end": "in fondo al pennone",
    "rr.where.bow": "vicino alla prua",
    "rr.where.stern": "vicino alla poppa",
    "rr.where.centre_line": "lungo l’asse della nave",
    "rr.where.ship_side": "lungo la murata",
    "rr.where.fore_edge": "sul bordo anteriore",
    "rr.where.aft_edge": "sul bordo posteriore",
    "rr.where.middle": "nel mezzo",
    "rr.turn.none": "non girato",
    "rr.turn.eighth": "girato di un ottavo",
    "rr.turn.quarter": "girato di un quarto",
    "rr.turn.three_eighths": "girato di tre ottavi",
    "rr.turn.half": "girato di mezzo giro",
    "rr.turn.degrees": "girato di {n}°",
    "rr.ghost_where": "Qui: {along}, {across}, {turn}",
    "rr.choosing_cards": "I giocatori scelgono la loro carta…",
  },
  nl: {
    "rr.area.1": "Dek, naar de boeg, bakboord",
    "rr.area.2": "Dek, naar de boeg, stuurboord",
    "rr.area.3": "Dek, naar de achtersteven, bakboord",
    "rr.area.4": "Dek, naar de achtersteven, stuurboord",
    "rr.area.5": "Onderste ra, bakboordhelft",
    "rr.area.6": "Onderste ra, stuurboordhelft",
    "rr.area.7": "Middelste ra, bakboordhelft",
    "rr.area.8": "Middelste ra, stuurboordhelft",
    "rr.area.9": "Bovenste ra, bakboordhelft",
    "rr.area.10": "Bovenste ra, stuurboordhelft",
    "rr.card_area": "Kaart {n} laadt hier: {area}",
    "rr.where.mast": "dicht bij de mast",
    "rr.where.halfway": "halverwege",
    "rr.where.yard_end": "aan het eind van de ra",
    "rr.where.bow": "dicht bij de boeg",
    "rr.where.stern": "dicht bij de achtersteven",
    "rr.where.centre_line": "tegen de middellijn",
    "rr.where.ship_side": "tegen de scheepswand",
    "rr.where.fore_edge": "op de voorrand",
    "rr.where.aft_edge": "op de achterrand",
    "rr.where.middle": "in het midden",
    "rr.turn.none": "niet gedraaid",
    "rr.turn.eighth": "een achtste gedraaid",
    "rr.turn.quarter": "een kwartslag gedraaid",
    "rr.turn.three_eighths": "drie achtste gedraaid",
    "rr.turn.half": "een halve slag gedraaid",
    "rr.turn.degrees": "{n}° gedraaid",
    "rr.ghost_where": "Hier: {along}, {across}, {turn}",
    "rr.choosing_cards": "De spelers kiezen hun kaart…",
  },
});

const DECK_AREAS = 4;
const THIRD = 1 / 3;

/**
 * Where along its area a point lies: near the mast, halfway, or at the far end.
 * @param {number} area
 * @param {number} u
 */
function along(area, u) {
  if (u < THIRD) return t("rr.where.mast");
  if (u <= 2 * THIRD) return t("rr.where.halfway");
  if (area > DECK_AREAS) return t("rr.where.yard_end");
  return t(area <= 2 ? "rr.where.bow" : "rr.where.stern");
}

/**
 * Where across its area a point lies.
 * @param {number} area
 * @param {number} v
 */
function across(area, v) {
  if (Math.abs(v) <= THIRD) return t("rr.where.middle");
  const deck = area <= DECK_AREAS;
  if (v > 0) return t(deck ? "rr.where.ship_side" : "rr.where.fore_edge");
  return t(deck ? "rr.where.centre_line" : "rr.where.aft_edge");
}

/** @type {Array<[number, string]>} */
const TURNS = [[0, "none"], [45, "eighth"], [90, "quarter"], [135, "three_eighths"], [180, "half"]];

/**
 * How far a piece is turned, in eighths of a turn when it is close to one (either way round).
 * @param {number} yaw degrees
 */
export function turnText(yaw) {
  const degrees = Math.abs(((((Math.round(yaw) + 180) % 360) + 360) % 360) - 180);
  const near = TURNS.find(([at]) => Math.abs(degrees - at) <= 5);
  return near ? t(`rr.turn.${near[1]}`) : t("rr.turn.degrees", { n: degrees });
}

/**
 * "Here: near the mast, in the middle, turned a quarter": a placement in plain words.
 * @param {number} area
 * @param {number} u
 * @param {number} v
 * @param {number} yaw degrees
 */
export function placeText(area, u, v, yaw) {
  return t("rr.ghost_where", { along: along(area, u), across: across(area, v), turn: turnText(yaw) });
}

/**
 * "Card 7 loads here: Middle yard, port half".
 * @param {number} card
 */
export function cardAreaText(card) {
  return t("rr.card_area", { n: card, area: t(`rr.area.${card}`) });
}
