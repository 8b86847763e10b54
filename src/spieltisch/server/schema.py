"""The database's tables as the queries see them, and the rows they hold.

Only the migrations (`migrations/versions`) make and change these tables; a change here goes
with a new migration and a new `SCHEMA_VERSION`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
)

__all__ = [
    "ACCOUNTS",
    "CHAT",
    "DEADLINES",
    "ENTRIES",
    "MAIL_SENT",
    "MAX_BOT_SPEC",
    "META",
    "METADATA",
    "RATINGS",
    "SCHEMA_VERSION",
    "SEATS",
    "SESSIONS",
    "SIGN_IN_FAILURES",
    "TABLES",
    "ChatRow",
    "EntryRow",
    "SeatRow",
    "StorageError",
    "TableRow",
]

SCHEMA_VERSION = 7
"""The number of the newest migration (`migrations/versions`). 1: tables, seats, entries,
chat. 2: the server's secret dice, seeded, broken and closed tables, bot pace, 64-bit seeds,
and this version in `meta` (for the servers from before the migrations). 3: the deadlines of
running turn clocks. 4: accounts, sessions, failed sign-ins, a seat's account and when its
player was last seen. 5: a deadline's data (an open catch window's motion). 6: rated tables
(`rated`, `rated_counted`) and players' ratings. 7: an account's e-mail address, its mail choices
and unsubscribe key, and what mail was sent when (`mail_sent`)."""

MAX_BOT_SPEC = 128
"""The longest bot spec a seat can store."""

METADATA = MetaData()
"""The tables as the queries see them; only the migrations make and change them."""

META = Table(
    "meta",
    METADATA,
    Column("key", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)

TABLES = Table(
    "tables",
    METADATA,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("clock", Float, nullable=True),
    Column("created", Float, nullable=False),
    Column("secret", String(64), nullable=True),  # the key of the server's secret dice
    Column("seeded", Boolean, nullable=False, default=False),  # dice from the public seed
    Column("broken", Text, nullable=True),  # why the table could not be loaded
    Column("closed", Float, nullable=True),  # when it was closed unfinished (idle)
    Column("pace", String(16), nullable=True),  # how long its bots pause (NULL: normal)
    Column("rated", Boolean, nullable=False, default=False, server_default=false()),
    Column("rated_counted", Float, nullable=True),  # when its end went into the ratings
)

SEATS = Table(
    "seats",
    METADATA,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("bot", String(MAX_BOT_SPEC), nullable=True),
    Column("name", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("replaced", Boolean, nullable=False, default=False),
    Column("account_id", String(32), nullable=True, index=True),  # the signed-in player's
    Column("last_seen", Float, nullable=True),  # when its player last had the table open
)

ENTRIES = Table(
    "entries",
    METADATA,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("actor", Integer, nullable=True),
    Column("action", Text, nullable=True),
    Column("key", String(64), nullable=True),
    Column("args", Text, nullable=True),
)


CHAT = Table(
    "chat",
    METADATA,
    Column("table_id", String(32), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
)


DEADLINES = Table(
    "deadlines",
    METADATA,
    Column("table_id", String(32), primary_key=True),
    Column("kind", String(16), primary_key=True),  # what runs out: 'clock' or 'catch'
    Column("seat", Integer, nullable=False),  # whose time it is
    Column("due", Float, nullable=False),  # when it runs out (seconds since the epoch)
    Column("data", Text, nullable=True),  # JSON: a catch window's motion and piece deadlines
)


ACCOUNTS = Table(
    "accounts",
    METADATA,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),  # as the player wrote it (NFKC)
    Column("name_key", String(64), nullable=False, unique=True),  # equal for look-alikes
    Column("password_hash", String(256), nullable=False),  # Argon2id, never the password
    Column("created", Float, nullable=False),
    Column("settings", Text, nullable=False, server_default="{}"),  # JSON: language, ...
    Column("email", String(254), nullable=True),  # private: only its owner sees it
    Column("mail_turns", Boolean, nullable=False, default=False, server_default=false()),
    Column("mail_digest", Boolean, nullable=False, default=False, server_default=false()),
    Column("mail_secret", String(64), nullable=True),  # the key of its unsubscribe links
)

MAIL_SENT = Table(
    "mail_sent",
    METADATA,
    Column("account_id", String(32), primary_key=True),
    Column("kind", String(16), primary_key=True),  # 'turn' or 'digest'
    Column("last_sent", Float, nullable=True),  # when the latest mail of this kind went out
    Column("pending", Text, nullable=True),  # JSON: the turns gathered for the next mail
    Column("due", Float, nullable=True, index=True),  # when the next one is to go out
)

SESSIONS = Table(
    "sessions",
    METADATA,
    Column("id_hash", String(64), primary_key=True),  # SHA-256 of the cookie's secret
    Column("account_id", String(32), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("last_used", Float, nullable=False),
)

SIGN_IN_FAILURES = Table(
    "sign_in_failures",
    METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(128), nullable=False),  # whose: an account's name key or an address
    Column("at", Float, nullable=False),
    Index("ix_sign_in_failures_key_at", "key", "at"),
)

RATINGS = Table(
    "ratings",
    METADATA,
    Column("account_id", String(32), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),  # rated games played
    Column("last_played", Float, nullable=False),  # when the latest ended
)


@dataclass(frozen=True)
class ChatRow:
    """A line of table talk; it is not part of the game, so it does not change the version."""

    n: int
    seat: int
    name: str
    text: str


@dataclass(frozen=True)
class TableRow:
    """A table's setup. Its dice come from `secret` (the server's, 128 bits) when set, else
    from `seed`, which every seat may see when `seeded` (a table made for tests or puzzles;
    tables of schema 1 have neither a secret nor a public seed)."""

    id: str
    game: str
    options: dict[str, Any]
    seed: int
    clock: float | None
    created: float
    secret: str | None = None
    seeded: bool = False
    pace: str = "normal"  # how long bots pause before each move: instant, normal, slow
    rated: bool = False  # its end changes the signed-in players' ratings

    @property
    def dice_key(self) -> str:
        return self.secret if self.secret is not None else str(self.seed)


class StorageError(Exception):
    """The database cannot be used as it is; the message says why and what to do."""


@dataclass(frozen=True)
class SeatRow:
    seat: int
    bot: str | None  # a bot spec, or None for a person's seat
    name: str | None  # a person's display name, None while the seat is open
    token_hash: str | None
    replaced: bool = False  # a bot took over after the person left
    account_id: str | None = None  # the signed-in player's account (None: a guest or a bot)


@dataclass(frozen=True)
class EntryRow:
    """An action (`action` set; `actor` is the seat or -1 for chance) or an event (`key`)."""

    seq: int
    actor: int | None
    action: str | None
    key: str | None
    args: dict[str, Any]
