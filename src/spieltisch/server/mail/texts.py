"""What mails and the unsubscribe pages say, in the five languages of the web client. Only
fixed sentences and the site's own words go into a subject; a player's name never does."""

from __future__ import annotations

__all__ = ["LANGUAGES", "text"]

LANGUAGES = ("de", "en", "fr", "it", "nl")
DEFAULT = "en"

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "turn.subject": "Your turn at spieltisch",
        "turn.subject_many": "Your turn at {n} tables at spieltisch",
        "turn.intro": "It is your turn:",
        "digest.subject": "spieltisch: {n} tables are waiting for you",
        "digest.subject_one": "spieltisch: a table is waiting for you",
        "digest.intro": "These tables are waiting for your move:",
        "table.line": "{game}: {link}",
        "table.deadline": "  your time runs out at {when}",
        "why.turn": "You get this mail because you asked for a mail when it is your turn.",
        "why.digest": "You get this mail because you asked for a daily digest.",
        "change": "Your choices: {link}",
        "unsubscribe": "No more mail: {link}",
        "page.title": "Mail from spieltisch",
        "page.ask": "Stop all mail from spieltisch to {address}?",
        "page.button": "Stop the mail",
        "page.done": "Done: spieltisch sends no more mail to this account. You can switch it on "
        "again on your account page.",
        "page.bad": "This link is not valid (any more). Open your account page to change "
        "your mail.",
    },
    "de": {
        "turn.subject": "Du bist am Zug bei spieltisch",
        "turn.subject_many": "Du bist an {n} Tischen am Zug bei spieltisch",
        "turn.intro": "Du bist am Zug:",
        "digest.subject": "spieltisch: {n} Tische warten auf dich",
        "digest.subject_one": "spieltisch: ein Tisch wartet auf dich",
        "digest.intro": "Diese Tische warten auf deinen Zug:",
        "table.line": "{game}: {link}",
        "table.deadline": "  deine Zeit läuft ab am {when}",
        "why.turn": "Du bekommst diese Mail, weil du eine Mail wolltest, wenn du am Zug bist.",
        "why.digest": "Du bekommst diese Mail, weil du eine tägliche Übersicht wolltest.",
        "change": "Deine Einstellungen: {link}",
        "unsubscribe": "Keine Mails mehr: {link}",
        "page.title": "Mails von spieltisch",
        "page.ask": "Alle Mails von spieltisch an {address} abbestellen?",
        "page.button": "Mails abbestellen",
        "page.done": "Erledigt: spieltisch schickt diesem Konto keine Mails mehr. Auf deiner "
        "Kontoseite kannst du sie wieder einschalten.",
        "page.bad": "Dieser Link gilt nicht (mehr). Öffne deine Kontoseite, um deine Mails "
        "einzustellen.",
    },
    "fr": {
        "turn.subject": "C'est votre tour sur spieltisch",
        "turn.subject_many": "C'est votre tour à {n} tables sur spieltisch",
        "turn.intro": "C'est votre tour :",
        "digest.subject": "spieltisch : {n} tables vous attendent",
        "digest.subject_one": "spieltisch : une table vous attend",
        "digest.intro": "Ces tables attendent votre coup :",
        "table.line": "{game} : {link}",
        "table.deadline": "  votre temps expire le {when}",
        "why.turn": "Vous recevez ce courriel car vous avez demandé un courriel quand c'est "
        "votre tour.",
        "why.digest": "Vous recevez ce courriel car vous avez demandé un résumé quotidien.",
        "change": "Vos choix : {link}",
        "unsubscribe": "Ne plus recevoir de courriels : {link}",
        "page.title": "Courriels de spieltisch",
        "page.ask": "Arrêter tous les courriels de spieltisch à {address} ?",
        "page.button": "Arrêter les courriels",
        "page.done": "C'est fait : spieltisch n'envoie plus de courriels à ce compte. Vous "
        "pouvez les réactiver sur la page de votre compte.",
        "page.bad": "Ce lien n'est pas (plus) valable. Ouvrez la page de votre compte pour "
        "régler vos courriels.",
    },
    "it": {
        "turn.subject": "Tocca a te su spieltisch",
        "turn.subject_many": "Tocca a te a {n} tavoli su spieltisch",
        "turn.intro": "Tocca a te:",
        "digest.subject": "spieltisch: {n} tavoli ti aspettano",
        "digest.subject_one": "spieltisch: un tavolo ti aspetta",
        "digest.intro": "Questi tavoli aspettano la tua mossa:",
        "table.line": "{game}: {link}",
        "table.deadline": "  il tuo tempo scade il {when}",
        "why.turn": "Ricevi questa e-mail perché hai chiesto un'e-mail quando tocca a te.",
        "why.digest": "Ricevi questa e-mail perché hai chiesto un riepilogo quotidiano.",
        "change": "Le tue scelte: {link}",
        "unsubscribe": "Nessun'altra e-mail: {link}",
        "page.title": "E-mail da spieltisch",
        "page.ask": "Fermare tutte le e-mail di spieltisch a {address}?",
        "page.button": "Ferma le e-mail",
        "page.done": "Fatto: spieltisch non manda più e-mail a questo account. Puoi "
        "riattivarle nella pagina del tuo account.",
        "page.bad": "Questo link non è (più) valido. Apri la pagina del tuo account per "
        "regolare le e-mail.",
    },
    "nl": {
        "turn.subject": "Je bent aan de beurt bij spieltisch",
        "turn.subject_many": "Je bent aan de beurt aan {n} tafels bij spieltisch",
        "turn.intro": "Je bent aan de beurt:",
        "digest.subject": "spieltisch: {n} tafels wachten op je",
        "digest.subject_one": "spieltisch: een tafel wacht op je",
        "digest.intro": "Deze tafels wachten op je zet:",
        "table.line": "{game}: {link}",
        "table.deadline": "  je tijd loopt af op {when}",
        "why.turn": "Je krijgt deze mail omdat je een mail wilde als je aan de beurt bent.",
        "why.digest": "Je krijgt deze mail omdat je een dagelijks overzicht wilde.",
        "change": "Je keuzes: {link}",
        "unsubscribe": "Geen mail meer: {link}",
        "page.title": "Mail van spieltisch",
        "page.ask": "Alle mail van spieltisch aan {address} stoppen?",
        "page.button": "Stop de mail",
        "page.done": "Klaar: spieltisch stuurt dit account geen mail meer. Je kunt het weer "
        "aanzetten op je accountpagina.",
        "page.bad": "Deze link is niet (meer) geldig. Open je accountpagina om je mail in te "
        "stellen.",
    },
}


def text(language: str | None, key: str, **values: object) -> str:
    """The sentence `key` in `language` (English when the language is not one of ours)."""
    chosen = TEXTS.get(language or DEFAULT, TEXTS[DEFAULT])
    return chosen[key].format(**values)
