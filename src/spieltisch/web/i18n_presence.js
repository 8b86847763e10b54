// Who is here at a table, the default turn clock and the guest's rejoin link, in the five
// languages; i18n.js takes these into its strings.

/** @type {{ [language: string]: { [key: string]: string } }} */
export const PRESENCE_STRINGS = {
  en: {
    "seat.here": "here",
    "seat.away": "away",
    "seat.gone": "gone",
    "seat.away_seen": "away · seen {ago}",
    "seat.gone_seen": "gone · seen {ago}",
    "lobby.clock_default": "{n} seconds (default)",
    "lobby.clock_doc": "Two or more people get a turn clock unless it is switched off; when someone’s time runs out, a bot plays that turn.",
    "table.rejoin": "Your rejoin link",
    "table.rejoin_hint": "Open it on another device to take your seat there. Keep it to yourself: whoever has it plays your seat. It is shown only now.",
    "table.rejoin_hide": "Hide",
    "table.rejoin_copied": "Rejoin link copied.",
  },
  de: {
    "seat.here": "da",
    "seat.away": "weg",
    "seat.gone": "gegangen",
    "seat.away_seen": "weg · zuletzt {ago} gesehen",
    "seat.gone_seen": "gegangen · zuletzt {ago} gesehen",
    "lobby.clock_default": "{n} Sekunden (Vorgabe)",
    "lobby.clock_doc": "Ab zwei Personen läuft eine Zugzeit, wenn sie nicht abgeschaltet wird; ist jemandes Zeit um, spielt ein Bot diesen Zug.",
    "table.rejoin": "Dein Link zum Zurückkehren",
    "table.rejoin_hint": "Öffne ihn auf einem anderen Gerät, um dort deinen Platz einzunehmen. Behalte ihn für dich: Wer ihn hat, spielt deinen Platz. Er wird nur jetzt gezeigt.",
    "table.rejoin_hide": "Ausblenden",
    "table.rejoin_copied": "Link zum Zurückkehren kopiert.",
  },
  fr: {
    "seat.here": "présent",
    "seat.away": "absent",
    "seat.gone": "parti",
    "seat.away_seen": "absent · vu {ago}",
    "seat.gone_seen": "parti · vu {ago}",
    "lobby.clock_default": "{n} secondes (par défaut)",
    "lobby.clock_doc": "À partir de deux personnes, un temps par tour s’applique, sauf si on le désactive ; quand le temps de quelqu’un est écoulé, un robot joue ce tour.",
    "table.rejoin": "Votre lien pour revenir",
    "table.rejoin_hint": "Ouvrez-le sur un autre appareil pour y reprendre votre place. Gardez-le pour vous : qui l’a joue à votre place. Il n’est affiché que maintenant.",
    "table.rejoin_hide": "Masquer",
    "table.rejoin_copied": "Lien pour revenir copié.",
  },
  it: {
    "seat.here": "presente",
    "seat.away": "assente",
    "seat.gone": "andato via",
    "seat.away_seen": "assente · visto {ago}",
    "seat.gone_seen": "andato via · visto {ago}",
    "lobby.clock_default": "{n} secondi (predefinito)",
    "lobby.clock_doc": "Da due persone in su c’è un tempo per turno, se non lo si disattiva; quando il tempo di qualcuno finisce, un bot gioca quel turno.",
    "table.rejoin": "Il tuo link per tornare",
    "table.rejoin_hint": "Aprilo su un altro dispositivo per riprendere lì il tuo posto. Tienilo per te: chi lo ha gioca al tuo posto. È mostrato solo ora.",
    "table.rejoin_hide": "Nascondi",
    "table.rejoin_copied": "Link per tornare copiato.",
  },
  nl: {
    "seat.here": "aanwezig",
    "seat.away": "weg",
    "seat.gone": "vertrokken",
    "seat.away_seen": "weg · {ago} gezien",
    "seat.gone_seen": "vertrokken · {ago} gezien",
    "lobby.clock_default": "{n} seconden (standaard)",
    "lobby.clock_doc": "Vanaf twee personen loopt er een beurtklok, tenzij je hem uitzet; als iemands tijd om is, speelt een bot die beurt.",
    "table.rejoin": "Je link om terug te keren",
    "table.rejoin_hint": "Open hem op een ander apparaat om daar je plaats in te nemen. Houd hem voor jezelf: wie hem heeft, speelt jouw plaats. Hij wordt alleen nu getoond.",
    "table.rejoin_hide": "Verbergen",
    "table.rejoin_copied": "Link om terug te keren gekopieerd.",
  },
};

/**
 * How long ago `seconds` is, in `lang`'s words ("3 minutes ago", "vor 3 Minuten").
 * @param {number} seconds
 * @param {string} lang
 * @returns {string}
 */
export function agoText(seconds, lang) {
  const words = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
  const ago = Math.max(0, seconds);
  if (ago < 60) return words.format(-Math.round(ago), "second");
  if (ago < 3600) return words.format(-Math.floor(ago / 60), "minute");
  if (ago < 86400) return words.format(-Math.floor(ago / 3600), "hour");
  return words.format(-Math.floor(ago / 86400), "day");
}
