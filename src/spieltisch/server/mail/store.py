"""The mail rows (plain synchronous SQLAlchemy, run in the lobby's storage threads): an
account's address and choices, and `mail_sent`, what was sent when and what waits for the next
mail. A mail that is due is claimed by one conditional update, so of several workers exactly
one sends it."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, and_, insert, select, update

from spieltisch.server.schema import ACCOUNTS, DEADLINES, MAIL_SENT

__all__ = ["DIGEST", "TURN", "Claimed", "MailChoice", "MailStore", "Recipient"]

TURN = "turn"
DIGEST = "digest"


@dataclass(frozen=True)
class MailChoice:
    """An account's address (None: none given) and which mail it wants."""

    email: str | None = None
    turns: bool = False
    digest: bool = False


@dataclass(frozen=True)
class Recipient:
    """Whom a mail goes to, in which language, and the key of their unsubscribe link."""

    account_id: str
    email: str
    secret: str
    language: str | None
    turns: bool
    digest: bool


@dataclass(frozen=True)
class Claimed:
    """A mail this worker is to send: the turns gathered for it (table -> game, deadline) and
    how often it was tried before."""

    account_id: str
    kind: str
    tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    tries: int = 0


class MailStore:
    """The mail rows of one database (the engine is the server's `Store`'s)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # --- an account's address and choices ----------------------------------------------------
    def choice(self, account_id: str) -> MailChoice:
        with self.engine.connect() as db:
            row = db.execute(select(ACCOUNTS).where(ACCOUNTS.c.id == account_id)).first()
        return (
            MailChoice() if row is None else MailChoice(row.email, row.mail_turns, row.mail_digest)
        )

    def set_choice(
        self, account_id: str, choice: MailChoice, secret: str, now: float, digest_every: float
    ) -> None:
        """Keep the account's choice; a changed address gets `secret` as its new link key
        (the old address's links stop working) and drops what waited for the old one."""
        with self.engine.begin() as db:
            row = db.execute(select(ACCOUNTS).where(ACCOUNTS.c.id == account_id)).first()
            if row is None:
                return
            values: dict[str, Any] = {
                "email": choice.email,
                "mail_turns": choice.turns,
                "mail_digest": choice.digest,
            }
            if choice.email != row.email or row.mail_secret is None:
                values["mail_secret"] = secret
                _clear(db, account_id, TURN)
            db.execute(update(ACCOUNTS).where(ACCOUNTS.c.id == account_id).values(**values))
            if not choice.turns:
                _clear(db, account_id, TURN)
            if choice.digest and not row.mail_digest:
                _put(db, account_id, DIGEST, due=now + digest_every)
            elif not choice.digest:
                _clear(db, account_id, DIGEST)

    def recipient(self, account_id: str) -> Recipient | None:
        """The account as a mail's recipient, or None without an address."""
        with self.engine.connect() as db:
            row = db.execute(select(ACCOUNTS).where(ACCOUNTS.c.id == account_id)).first()
        if row is None or not row.email or not row.mail_secret:
            return None
        language = json.loads(row.settings or "{}").get("language")
        return Recipient(
            row.id, row.email, row.mail_secret, language, row.mail_turns, row.mail_digest
        )

    def unsubscribe(self, account_id: str) -> None:
        """No more mail of any kind (the address stays, for switching mail on again)."""
        with self.engine.begin() as db:
            mine = ACCOUNTS.c.id == account_id
            db.execute(update(ACCOUNTS).where(mine).values(mail_turns=False, mail_digest=False))
            _clear(db, account_id, TURN)
            _clear(db, account_id, DIGEST)

    # --- turns gathered for the next mail ----------------------------------------------------
    def note_turn(
        self,
        account_id: str,
        table_id: str,
        turn: dict[str, Any],
        now: float,
        delay: float,
        interval: float,
    ) -> bool:
        """Gather a turn for the account's next turn mail, due `delay` from now but not within
        `interval` of the last one. False (nothing kept) when the account wants no turn mail."""
        with self.engine.begin() as db:
            wants = select(ACCOUNTS.c.mail_turns, ACCOUNTS.c.email).where(
                ACCOUNTS.c.id == account_id
            )
            account = db.execute(wants).first()
            if account is None or not account.mail_turns or not account.email:
                return False
            row = _row(db, account_id, TURN, lock=True)
            pending = _pending(row)
            pending["tables"][table_id] = turn
            due = row.due if row is not None and row.due is not None else None
            if due is None:
                last = row.last_sent if row is not None and row.last_sent is not None else None
                due = now + delay if last is None else max(now + delay, last + interval)
            _put(db, account_id, TURN, pending=json.dumps(pending), due=due)
        return True

    def due(self, now: float, most: int) -> list[tuple[str, str, float]]:
        """The mails due now: (account, kind, when it was due), the longest waiting first."""
        query = (
            select(MAIL_SENT.c.account_id, MAIL_SENT.c.kind, MAIL_SENT.c.due)
            .where(MAIL_SENT.c.due <= now)
            .order_by(MAIL_SENT.c.due)
            .limit(most)
        )
        with self.engine.connect() as db:
            return [(r.account_id, r.kind, r.due) for r in db.execute(query)]

    def claim(self, account_id: str, kind: str, due: float) -> Claimed | None:
        """Take a due mail for sending (None when another worker took it first)."""
        mine = and_(
            MAIL_SENT.c.account_id == account_id, MAIL_SENT.c.kind == kind, MAIL_SENT.c.due == due
        )
        with self.engine.begin() as db:
            row = db.execute(select(MAIL_SENT).where(mine).with_for_update()).first()
            if row is None:
                return None
            db.execute(update(MAIL_SENT).where(mine).values(due=None, pending=None))
        pending = _pending(row)
        return Claimed(account_id, kind, pending["tables"], pending.get("tries", 0))

    def sent(self, claimed: Claimed, now: float, next_due: float | None, interval: float) -> None:
        """The mail went out at `now`. Turns gathered meanwhile wait `interval` from now."""
        with self.engine.begin() as db:
            row = _row(db, claimed.account_id, claimed.kind, lock=True)
            due = next_due
            if row is not None and row.due is not None:
                due = max(row.due, now + interval)
            _put(db, claimed.account_id, claimed.kind, last_sent=now, due=due)

    def reschedule(self, claimed: Claimed, due: float | None) -> None:
        """A mail that was not sent (nothing to say, or dropped): a digest waits for `due`;
        turns gathered meanwhile keep their own time."""
        if due is not None:
            with self.engine.begin() as db:
                _put(db, claimed.account_id, claimed.kind, due=due)

    def put_back(self, claimed: Claimed, due: float) -> None:
        """A mail that failed waits for another try at `due` (with what came meanwhile)."""
        with self.engine.begin() as db:
            row = _row(db, claimed.account_id, claimed.kind, lock=True)
            pending = _pending(row)
            pending["tables"] = {**claimed.tables, **pending["tables"]}
            pending["tries"] = claimed.tries + 1
            _put(db, claimed.account_id, claimed.kind, pending=json.dumps(pending), due=due)

    def deadlines(self, table_ids: list[str]) -> dict[tuple[str, int], float]:
        """The earliest stored deadline per (table, seat), for the digest."""
        if not table_ids:
            return {}
        query = select(DEADLINES.c.table_id, DEADLINES.c.seat, DEADLINES.c.due).where(
            DEADLINES.c.table_id.in_(table_ids)
        )
        found: dict[tuple[str, int], float] = {}
        with self.engine.connect() as db:
            for row in db.execute(query):
                key = (row.table_id, row.seat)
                found[key] = min(found.get(key, row.due), row.due)
        return found


def _row(db: Connection, account_id: str, kind: str, lock: bool = False) -> Any:
    query = select(MAIL_SENT).where(MAIL_SENT.c.account_id == account_id, MAIL_SENT.c.kind == kind)
    return db.execute(query.with_for_update() if lock else query).first()


def _pending(row: Any) -> dict[str, Any]:
    found = json.loads(row.pending) if row is not None and row.pending else {}
    return {"tables": dict(found.get("tables", {})), "tries": int(found.get("tries", 0))}


def _put(db: Connection, account_id: str, kind: str, **values: Any) -> None:
    """Set the row's values, making the row when there is none."""
    mine = and_(MAIL_SENT.c.account_id == account_id, MAIL_SENT.c.kind == kind)
    if db.execute(update(MAIL_SENT).where(mine).values(**values)).rowcount == 0:
        db.execute(insert(MAIL_SENT).values(account_id=account_id, kind=kind, **values))


def _clear(db: Connection, account_id: str, kind: str) -> None:
    """Nothing waits and nothing is due of this kind (when it was last sent stays)."""
    mine = and_(MAIL_SENT.c.account_id == account_id, MAIL_SENT.c.kind == kind)
    db.execute(update(MAIL_SENT).where(mine).values(pending=None, due=None))
