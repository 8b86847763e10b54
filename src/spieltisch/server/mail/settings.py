"""How the site sends mail: the SMTP server (`serve --smtp URL`), the sender, the site's public
address for links, and the intervals of turn mails and digests."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

__all__ = [
    "DIGEST_EVERY",
    "SEND_TIMEOUT",
    "TURN_DELAY",
    "TURN_INTERVAL",
    "MailSettings",
    "SmtpServer",
    "SmtpUrlError",
    "read_smtp_url",
]

TURN_INTERVAL = 3600.0
"""Seconds between two "your turn" mails to one player (further turns wait for the next)."""
TURN_DELAY = 120.0
"""Seconds a new turn waits before it is mailed: a player who comes back to the table at once
(a reload, a short drop of the network) gets no mail."""
DIGEST_EVERY = 24 * 3600.0
"""Seconds between two daily digests to one player."""
SWEEP_EVERY = 30.0
"""Seconds between two looks for mail that is due."""
SEND_TIMEOUT = 20.0
"""Seconds one SMTP step (connect, greeting, each command) may take; a whole mail at most
three times as long. A server that hangs costs a try, never a table."""
RETRY_AFTER = 300.0
"""Seconds before a mail that could not be sent is tried again (doubling per try)."""
TRIES = 3
"""Tries of one mail; after the last one it is dropped, with a log line."""
SCHEMES = {"smtp": (False, False), "smtp+starttls": (True, False), "smtps": (False, True)}
"""URL scheme -> (STARTTLS required, TLS from the start)."""


class SmtpUrlError(ValueError):
    """`--smtp` is not an SMTP address; the message says what it should look like."""


@dataclass(frozen=True)
class SmtpServer:
    """Where mail goes: host and port, an optional sign-in, and how it is encrypted."""

    host: str
    port: int
    user: str | None = None
    password: str | None = None
    starttls: bool = False  # upgrade with STARTTLS, refusing a server that cannot
    tls: bool = False  # TLS from the first byte (port 465)

    def shown(self) -> str:
        """The server for log lines: never its password."""
        who = f"{self.user}@" if self.user else ""
        return f"{who}{self.host}:{self.port}"


def read_smtp_url(url: str) -> SmtpServer:
    """`smtp://[user:password@]host[:port]` (plain, for a relay on the same machine or
    network), `smtp+starttls://...` or `smtp://...?starttls=1` (STARTTLS required, port 587
    by default) and `smtps://...` (TLS from the start, port 465)."""
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES or not parts.hostname:
        raise SmtpUrlError(
            "--smtp takes smtp://host:port, smtp+starttls://user:password@host:587 or "
            "smtps://user:password@host:465"
        )
    starttls, tls = SCHEMES[parts.scheme]
    if parse_qs(parts.query).get("starttls", ["0"])[-1].lower() in ("1", "true", "yes"):
        starttls = True
    try:
        port = parts.port or (465 if tls else 587 if starttls else 25)
    except ValueError:
        raise SmtpUrlError("--smtp: the port must be a number from 1 to 65535") from None
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password else None
    return SmtpServer(parts.hostname, port, user, password, starttls, tls)


@dataclass(frozen=True)
class MailSettings:
    """What the site's mail needs. `site_url` is the public address the links in mails lead
    to (scheme://host[:port], no path); `sender` the From address."""

    smtp: SmtpServer
    site_url: str
    sender: str
    turn_interval: float = TURN_INTERVAL
    turn_delay: float = TURN_DELAY
    digest_every: float = DIGEST_EVERY
    sweep_every: float = SWEEP_EVERY
    send_timeout: float = SEND_TIMEOUT
    retry_after: float = RETRY_AFTER
    tries: int = TRIES
