"""Turn mail: "it is your turn" (batched) and the daily digest, for players who asked for them.

The entry points, for the code that runs turn-based tables (`lobby.mail` is this object):

- `TurnMail.turn_started(account_id, table_id, game, deadline)`: a person's turn began at a
  table. Call it on the event loop; it returns at once and never raises. The turn is kept in
  the database (`mail_sent.pending`) for the account's next turn mail, which goes out
  `turn_delay` after the first turn gathered, and never within `turn_interval` of the mail
  before (further turns wait and go together in the next one). When the mail is due, every
  table in it is looked at again: a table where it is no longer the player's turn, or where
  the player is at the table ("here", `server.presence`), is left out; a mail left empty is
  not sent.
- `TurnMail.sweep()`: sends every mail that is due (turn mails and daily digests) and returns
  how many went out. A server with mail runs it every `sweep_every` seconds (`start`); a
  deadline sweep may call it too. Several workers may sweep at once: each due mail is claimed
  by one conditional update, so it goes out once.

A daily digest lists the tables waiting for the player's move (with the stored deadline of
their seat, if any), once every `digest_every` from when the player switched it on; a day
with no table waiting sends nothing.

Without `serve --smtp` there is no `MailSettings`: every call does nothing, and nothing fails.
A mail the SMTP server does not take (refused, unreachable, hanging past the timeout) is
logged once while the server keeps failing, and tried again after `retry_after` (doubling),
`tries` times in all; then it is dropped with a log line. No table ever waits for mail.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from spieltisch.core.registry import game_class, game_names
from spieltisch.server.accounts.store import AccountStore
from spieltisch.server.common import TableError
from spieltisch.server.mail.compose import TableLine, compose
from spieltisch.server.mail.sender import MailFailed, Sender, SmtpSender
from spieltisch.server.mail.settings import MailSettings
from spieltisch.server.mail.store import DIGEST, TURN, Claimed, MailStore, Recipient

if TYPE_CHECKING:
    from spieltisch.server.lobby import Lobby
    from spieltisch.server.table import LiveTable

__all__ = ["TurnMail"]

log = logging.getLogger(__name__)

MOST_PER_SWEEP = 200
"""Mails one sweep sends at most; the rest wait for the next sweep."""
STOP_WAIT = 10.0
"""Seconds a stopping server waits for the turns still being written."""


class TurnMail:
    """The site's turn mail and digests (silent until `bind` gives it settings)."""

    def __init__(self) -> None:
        self.lobby: Lobby | None = None
        self.settings: MailSettings | None = None
        self.sender: Sender | None = None
        self.store: MailStore | None = None
        self._background: set[asyncio.Task[Any]] = set()
        self._sweeps: asyncio.Task[None] | None = None
        self._failing = False  # the SMTP server failed the last try (logged once)

    def bind(
        self, lobby: Lobby, settings: MailSettings | None, sender: Sender | None = None
    ) -> None:
        """Send through `settings.smtp` (or `sender`, a test's) for the lobby's tables;
        `settings` None: no mail."""
        self.lobby, self.settings, self.store = lobby, settings, MailStore(lobby.store.engine)
        if settings is not None:
            self.sender = sender or SmtpSender(settings.smtp, settings.send_timeout)

    @property
    def sending(self) -> bool:
        """Whether this site sends mail at all (`serve --smtp`)."""
        return self.settings is not None and self.sender is not None

    # --- the entry point of turn-based tables ------------------------------------------------
    def turn_started(
        self, account_id: str, table_id: str, game: str, deadline: float | None = None
    ) -> None:
        """A person's turn began at a table (see the module's doc). Returns at once."""
        if not self.sending or not account_id:
            return
        task = asyncio.get_running_loop().create_task(
            self.note_turn(account_id, table_id, game, deadline)
        )
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def note_turn(
        self, account_id: str, table_id: str, game: str, deadline: float | None = None
    ) -> bool:
        """`turn_started`, awaited: whether the turn was kept for a mail (False: no mail
        wanted, no mail sent by this site, or the database could not be written)."""
        lobby, settings, store = self.lobby, self.settings, self.store
        if lobby is None or settings is None or store is None or self.sender is None:
            return False
        turn = {"game": game, "deadline": deadline}
        try:
            return await lobby.storage.write(
                store.note_turn,
                account_id,
                table_id,
                turn,
                lobby.clock.now(),
                settings.turn_delay,
                settings.turn_interval,
            )
        except SQLAlchemyError as error:
            log.warning("mail: a turn at table %s was not kept for mail: %s", table_id, error)
            return False

    async def settled(self) -> None:
        """Wait until the turns noted so far are kept (for tests and a clean stop)."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    # --- the sweep ---------------------------------------------------------------------------
    def start(self) -> None:
        """Sweep every `sweep_every` seconds of the lobby's clock (needs the running loop)."""
        if self.sending and self._sweeps is None:
            self._sweeps = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def stop(self) -> None:
        """Keep the turns noted so far (each write is bounded), then stop sweeping."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.settled(), STOP_WAIT)
        tasks = [*self._background, *([self._sweeps] if self._sweeps else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._sweeps = None

    async def _sweep_forever(self) -> None:
        assert self.lobby is not None and self.settings is not None
        while True:
            await self.lobby.clock.sleep(self.settings.sweep_every)
            try:
                await self.sweep()
            except SQLAlchemyError as error:  # the database is down: the next sweep tries
                log.warning("mail: the sweep could not read the database: %s", error)
            except Exception:  # a mail gone wrong never ends the sweeps
                log.exception("mail: the sweep failed")

    async def sweep(self) -> int:
        """Send every mail that is due now; how many went out."""
        lobby, store = self.lobby, self.store
        if lobby is None or store is None or not self.sending:
            return 0
        sent = 0
        for account_id, kind, due in await lobby.storage.read(
            store.due, lobby.clock.now(), MOST_PER_SWEEP
        ):
            claimed = await lobby.storage.write(store.claim, account_id, kind, due)
            if claimed is None:
                continue
            try:
                sent += await self._deliver(claimed)
            except SQLAlchemyError as error:  # it is tried again at the next sweep
                log.warning("mail: a %s mail waits for the database: %s", kind, error)
                await lobby.storage.write(store.put_back, claimed, due)
        return sent

    async def _deliver(self, claimed: Claimed) -> int:
        lobby, settings, store = self.lobby, self.settings, self.store
        assert lobby is not None and settings is not None and store is not None
        assert self.sender is not None
        to = await lobby.storage.read(store.recipient, claimed.account_id)
        if to is None or not (to.turns if claimed.kind == TURN else to.digest):
            return 0  # switched off meanwhile
        now = lobby.clock.now()
        next_due = now + settings.digest_every if claimed.kind == DIGEST else None
        tables = await (self._turns(claimed) if claimed.kind == TURN else self._waiting(to))
        if not tables:
            await lobby.storage.write(store.reschedule, claimed, next_due)
            return 0
        message = compose(claimed.kind, to, tables, settings.site_url, settings.sender, now)
        try:
            await self.sender.send(message)
        except MailFailed as error:
            await self._failed(claimed, error, next_due)
            return 0
        if self._failing:
            log.warning("mail: the SMTP server takes mail again")
            self._failing = False
        await lobby.storage.write(store.sent, claimed, now, next_due, settings.turn_interval)
        return 1

    async def _failed(self, claimed: Claimed, error: MailFailed, next_due: float | None) -> None:
        lobby, settings, store = self.lobby, self.settings, self.store
        assert lobby is not None and settings is not None and store is not None
        if not self._failing:
            log.warning("mail: cannot send (%s); mail waits and is tried again", error)
            self._failing = True
        if claimed.tries + 1 < settings.tries:
            retry = lobby.clock.now() + settings.retry_after * 2**claimed.tries
            await lobby.storage.write(store.put_back, claimed, retry)
            return
        log.warning(
            "mail: a %s mail to account %s was dropped after %d tries",
            claimed.kind,
            claimed.account_id,
            claimed.tries + 1,
        )
        await lobby.storage.write(store.reschedule, claimed, next_due)

    # --- what a mail names -------------------------------------------------------------------
    async def _turns(self, claimed: Claimed) -> list[TableLine]:
        """The gathered turns that still wait for the player, who is not at the table."""
        lines = []
        for table_id, turn in claimed.tables.items():
            table = await self._table(table_id)
            if table is not None and self._waits_for(table, claimed.account_id):
                lines.append(TableLine(table_id, _title(turn.get("game")), turn.get("deadline")))
        return lines

    async def _waiting(self, to: Recipient) -> list[TableLine]:
        """Every table waiting for the player's move (for the digest)."""
        lobby, store = self.lobby, self.store
        assert lobby is not None and store is not None
        seats = await lobby.storage.read(AccountStore(lobby.store.engine).seats_of, to.account_id)
        waiting: list[tuple[LiveTable, int]] = []
        for seat in seats:
            if seat.left or seat.table_id in lobby.stored_away:
                continue
            table = await self._table(seat.table_id)
            if table is not None and self._waits_for(table, to.account_id):
                waiting.append((table, seat.seat))
        ids = [table.id for table, _ in waiting]
        deadlines = await lobby.storage.read(store.deadlines, ids)
        return [
            TableLine(table.id, _title(table.game.name), deadlines.get((table.id, seat)))
            for table, seat in waiting
        ]

    async def _table(self, table_id: str) -> LiveTable | None:
        assert self.lobby is not None
        try:
            return await self.lobby.find(table_id)
        except (TableError, SQLAlchemyError):
            return None

    def _waits_for(self, table: LiveTable, account_id: str) -> bool:
        """Whether it is the account's move at the table and the player is not there."""
        assert self.lobby is not None
        seat = table.seat_of_account(account_id)
        if seat is None or table.over or table.mover() != seat:
            return False
        return bool(self.lobby.presence.mark(table, seat)["presence"] != "here")


def _title(game: Any) -> str:
    """A game's title (as the lobby shows it), or what was given for an unknown game."""
    name = str(game)
    return str(game_class(name).title) if name in game_names() else name
