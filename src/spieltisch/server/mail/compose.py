"""The mails themselves: plain text in the player's language, a link to each table, a link to
stop the mail, and the List-Unsubscribe headers of RFC 2369 and RFC 8058 (one-click).

Headers hold only the checked address (`address.read_address`), the site's own sender and
links, and fixed sentences; nothing a player typed (a name, a chat line) ever reaches them.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import formatdate

from spieltisch.server.mail.store import DIGEST, Recipient
from spieltisch.server.mail.texts import text
from spieltisch.server.mail.tokens import unsubscribe_url

__all__ = ["TableLine", "compose"]


@dataclass(frozen=True)
class TableLine:
    """A table a mail names: its id, its game's title and the player's deadline, if any."""

    table_id: str
    game: str
    deadline: float | None = None


def compose(
    kind: str, to: Recipient, tables: list[TableLine], site_url: str, sender: str, now: float
) -> EmailMessage:
    """A turn mail (`kind` "turn") or a daily digest (`kind` "digest") to `to`."""
    site = site_url.rstrip("/")
    language = to.language
    stop = unsubscribe_url(site, to.secret, to.account_id)
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to.email
    message["Subject"] = _subject(kind, language, len(tables))
    message["Date"] = formatdate(now, usegmt=True)
    message["Message-ID"] = f"<{uuid.uuid4().hex}@{_domain(sender)}>"
    message["Content-Language"] = language or "en"
    message["Auto-Submitted"] = "auto-generated"
    message["List-Unsubscribe"] = f"<{stop}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(_body(kind, language, tables, site, stop))
    return message


def _subject(kind: str, language: str | None, count: int) -> str:
    if kind == DIGEST:
        return text(language, "digest.subject_one" if count == 1 else "digest.subject", n=count)
    return text(language, "turn.subject" if count == 1 else "turn.subject_many", n=count)


def _body(kind: str, language: str | None, tables: list[TableLine], site: str, stop: str) -> str:
    lines = [text(language, "digest.intro" if kind == DIGEST else "turn.intro"), ""]
    for table in tables:
        link = f"{site}/#/t/{table.table_id}"
        lines.append(text(language, "table.line", game=table.game, link=link))
        if table.deadline is not None:
            lines.append(text(language, "table.deadline", when=_when(table.deadline)))
    lines += [
        "",
        "-- ",
        text(language, "why.digest" if kind == DIGEST else "why.turn"),
        text(language, "change", link=f"{site}/#/account"),
        text(language, "unsubscribe", link=stop),
    ]
    return "\n".join(lines) + "\n"


def _when(moment: float) -> str:
    """A deadline as every reader understands it, whatever their time zone: UTC."""
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _domain(sender: str) -> str:
    return sender.rpartition("@")[2].strip("<> ") or "spieltisch.invalid"
