"""Accounts, sessions and failed sign-ins in the database (plain synchronous SQLAlchemy: the
server runs these calls in its storage threads, `server.storage`, never on the event loop).

A session is stored by the SHA-256 of its cookie's secret only, so the database never holds
what a browser could sign in with. Failed sign-ins and sign-ups are rows, so every worker of a
site counts the same ones.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from spieltisch.server.schema import (
    ACCOUNTS,
    CHAT,
    ENTRIES,
    MAIL_SENT,
    RATING_CHANGES,
    RATINGS,
    SEATS,
    SESSIONS,
    SIGN_IN_FAILURES,
    TABLES,
)

__all__ = ["FORMER_PLAYER", "AccountRow", "AccountStore", "SeatOfAccount"]

FORMER_PLAYER = "former player"
"""The name a deleted account leaves at every table it sat at."""
NAMED_EVENTS = ("joined", "left", "replaced", "claimed")
"""Log events whose arguments name the seat's player."""


@dataclass(frozen=True)
class AccountRow:
    id: str
    name: str
    name_key: str
    password_hash: str
    created: float
    settings: dict[str, Any]


@dataclass(frozen=True)
class SeatOfAccount:
    """A seat an account sat at: the table, its game, the seat and the name it had there;
    `left` when a bot took it over."""

    table_id: str
    game: str
    seat: int
    name: str | None
    left: bool


class AccountStore:
    """The account tables of one database (the engine is the server's `Store`'s)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # --- accounts ---------------------------------------------------------------------------
    def add_account(self, row: AccountRow) -> bool:
        """Store a new account; False when its name key is taken (by another worker too)."""
        values = {**row.__dict__, "settings": json.dumps(row.settings)}
        try:
            with self.engine.begin() as db:
                db.execute(insert(ACCOUNTS).values(**values))
        except IntegrityError:
            return False
        return True

    def account_by_key(self, name_key: str) -> AccountRow | None:
        with self.engine.connect() as db:
            found = db.execute(select(ACCOUNTS).where(ACCOUNTS.c.name_key == name_key)).first()
        return None if found is None else _account(found)

    def set_password(self, account_id: str, password_hash: str, keep: str | None) -> None:
        """A new password hash; every session of the account but `keep` ends."""
        with self.engine.begin() as db:
            mine = ACCOUNTS.c.id == account_id
            db.execute(update(ACCOUNTS).where(mine).values(password_hash=password_hash))
            others = SESSIONS.c.account_id == account_id
            if keep is not None:
                others &= SESSIONS.c.id_hash != keep
            db.execute(delete(SESSIONS).where(others))

    def rehash(self, account_id: str, password_hash: str) -> None:
        """The same password hashed anew (with parameters raised since it was stored)."""
        with self.engine.begin() as db:
            mine = ACCOUNTS.c.id == account_id
            db.execute(update(ACCOUNTS).where(mine).values(password_hash=password_hash))

    def set_settings(self, account_id: str, settings: dict[str, Any]) -> None:
        with self.engine.begin() as db:
            mine = ACCOUNTS.c.id == account_id
            db.execute(update(ACCOUNTS).where(mine).values(settings=json.dumps(settings)))

    def delete_account(self, account_id: str) -> list[str]:
        """Remove the account and its sessions, and leave `FORMER_PLAYER` as its name at every
        table (seats, log events, chat lines). Returns the tables whose names changed."""
        with self.engine.begin() as db:
            db.execute(delete(SESSIONS).where(SESSIONS.c.account_id == account_id))
            seats = db.execute(select(SEATS).where(SEATS.c.account_id == account_id)).all()
            for seat in seats:
                _forget_name(db, seat.table_id, seat.seat, seat.name)
            db.execute(
                update(SEATS)
                .where(SEATS.c.account_id == account_id)
                .values(name=FORMER_PLAYER, account_id=None)
            )
            db.execute(delete(RATINGS).where(RATINGS.c.account_id == account_id))
            db.execute(delete(RATING_CHANGES).where(RATING_CHANGES.c.account_id == account_id))
            db.execute(delete(MAIL_SENT).where(MAIL_SENT.c.account_id == account_id))
            db.execute(delete(ACCOUNTS).where(ACCOUNTS.c.id == account_id))
        return sorted({seat.table_id for seat in seats})

    def seats_of(self, account_id: str) -> list[SeatOfAccount]:
        """Every seat the account sat at, oldest table first."""
        query = (
            select(SEATS, TABLES.c.game)
            .join(TABLES, TABLES.c.id == SEATS.c.table_id)
            .where(SEATS.c.account_id == account_id)
            .order_by(TABLES.c.created, SEATS.c.seat)
        )
        with self.engine.connect() as db:
            rows = db.execute(query).all()
        return [SeatOfAccount(r.table_id, r.game, r.seat, r.name, r.bot is not None) for r in rows]

    # --- sessions ---------------------------------------------------------------------------
    def add_session(self, id_hash: str, account_id: str, now: float, old: str | None) -> None:
        """A new session of the account; the browser's `old` one (if any) ends with it."""
        with self.engine.begin() as db:
            if old is not None:
                db.execute(delete(SESSIONS).where(SESSIONS.c.id_hash == old))
            db.execute(
                insert(SESSIONS).values(
                    id_hash=id_hash, account_id=account_id, created=now, last_used=now
                )
            )

    def session(self, id_hash: str) -> tuple[AccountRow, float] | None:
        """The session's account and when it was last used, or None."""
        query = (
            select(ACCOUNTS, SESSIONS.c.last_used)
            .join(SESSIONS, SESSIONS.c.account_id == ACCOUNTS.c.id)
            .where(SESSIONS.c.id_hash == id_hash)
        )
        with self.engine.connect() as db:
            found = db.execute(query).first()
        return None if found is None else (_account(found), found.last_used)

    def touch_session(self, id_hash: str, now: float) -> None:
        with self.engine.begin() as db:
            mine = SESSIONS.c.id_hash == id_hash
            db.execute(update(SESSIONS).where(mine).values(last_used=now))

    def drop_session(self, id_hash: str) -> None:
        with self.engine.begin() as db:
            db.execute(delete(SESSIONS).where(SESSIONS.c.id_hash == id_hash))

    # --- throttled events: failed sign-ins and sign-ups -----------------------------------
    # One table holds both (its name is from before sign-ups were counted). A key's kind is its
    # prefix up to the first ":" ("name:" and "address:" for failed sign-ins, "signup:" for
    # sign-ups); a kind may be counted over a window of its own, so old rows are forgotten
    # kind by kind.
    def recorded(self, keys: list[str], since: float, most: int) -> dict[str, list[float]]:
        """Per key, the times of its latest `most` events after `since`, newest first."""
        found: dict[str, list[float]] = {}
        with self.engine.connect() as db:
            for key in keys:
                query = (
                    select(SIGN_IN_FAILURES.c.at)
                    .where(SIGN_IN_FAILURES.c.key == key, SIGN_IN_FAILURES.c.at > since)
                    .order_by(SIGN_IN_FAILURES.c.at.desc())
                    .limit(most)
                )
                found[key] = [row.at for row in db.execute(query)]
        return found

    def record(self, keys: list[str], now: float, forget_before: float) -> list[int]:
        """Record an event under each key (the new rows' ids); the events of the keys' kinds
        older than `forget_before` go (other kinds may be counted over another window)."""
        kinds = {_kind(key) for key in keys}
        old = or_(*(SIGN_IN_FAILURES.c.key.startswith(k, autoescape=True) for k in kinds))
        with self.engine.begin() as db:
            db.execute(delete(SIGN_IN_FAILURES).where(SIGN_IN_FAILURES.c.at < forget_before, old))
            add = insert(SIGN_IN_FAILURES).returning(SIGN_IN_FAILURES.c.id)
            return [db.execute(add.values(key=k, at=now)).scalar_one() for k in keys]

    def drop_record(self, row_id: int) -> None:
        """Take back one event (a sign-up counted before it was made, that made nothing)."""
        with self.engine.begin() as db:
            db.execute(delete(SIGN_IN_FAILURES).where(SIGN_IN_FAILURES.c.id == row_id))

    def clear_records(self, key: str) -> None:
        with self.engine.begin() as db:
            db.execute(delete(SIGN_IN_FAILURES).where(SIGN_IN_FAILURES.c.key == key))


def _account(row: Any) -> AccountRow:
    return AccountRow(
        row.id, row.name, row.name_key, row.password_hash, row.created, json.loads(row.settings)
    )


def _kind(key: str) -> str:
    """A throttle key's kind: its prefix up to and with the first ":"."""
    return key.partition(":")[0] + ":"


def _forget_name(db: Any, table_id: str, seat: int, name: str | None) -> None:
    """The seat's player, `name`, named `FORMER_PLAYER` in the table's log events and chat
    lines (another person who had the seat before keeps their name)."""
    events = select(ENTRIES).where(ENTRIES.c.table_id == table_id, ENTRIES.c.key.in_(NAMED_EVENTS))
    for entry in db.execute(events).all():
        args = json.loads(entry.args) if entry.args else {}
        if args.get("seat") == seat and args.get("name") == name:
            renamed = json.dumps({**args, "name": FORMER_PLAYER})
            mine = (ENTRIES.c.table_id == table_id) & (ENTRIES.c.seq == entry.seq)
            db.execute(update(ENTRIES).where(mine).values(args=renamed))
    theirs = (CHAT.c.table_id == table_id) & (CHAT.c.seat == seat) & (CHAT.c.name == name)
    db.execute(update(CHAT).where(theirs).values(name=FORMER_PLAYER))
