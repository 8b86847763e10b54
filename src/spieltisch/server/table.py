"""One live table: the game, its seats, the state and the log, kept in step with the store.

A table is rebuilt from its stored rows by replaying the actions. Each chance outcome (a
roll of the dice) is drawn with a generator seeded by the table's dice key (the server's
128-bit secret, or the public seed of a seeded table) and the table version at that moment,
so a restarted server rolls exactly the dice the old one would have rolled, without drawing
the earlier outcomes again (which for a physics game would mean simulating).

Changes are made in memory and queued in `unsaved`; the lobby stores them (many tables in
one transaction) before anybody is told about them.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field, replace
from typing import Any

from spieltisch.bots.base import make_bot
from spieltisch.core.errors import IllegalAction
from spieltisch.core.protocol import CHANCE, Game, JsonValue
from spieltisch.core.record import GameRecord
from spieltisch.core.registry import make_game
from spieltisch.server.chat import CHAT_BURST, CHAT_TAIL, TableTalk
from spieltisch.server.common import (
    TableError,
    bot_decision,
    chat_json,
    check_bot_spec,
    hash_token,
    is_tutorial,
    new_token,
    sentence,
    stand_in_bot,
)
from spieltisch.server.hooks import hooks_for, needs_physics, settle_with_motion
from spieltisch.server.settle import CatchTiming, CatchWindow, Motion, Show, make_show, timing_for
from spieltisch.server.store import ChatRow, EntryRow, SeatRow, Store, TableRow
from spieltisch.server.turnbased import turn_based_of

__all__ = [
    "CHAT_BURST",
    "CHAT_TAIL",
    "LiveTable",
    "TableError",
    "bot_decision",
    "chat_json",
    "check_bot_spec",
    "hash_token",
    "new_token",
    "stand_in_bot",
]

LOG_TEXT = 120
"""Longest action notation a log entry carries; a longer one is cut to its first word."""

LOG_TAIL = 30
"""How many of the latest log entries each message carries."""


@dataclass
class LiveTable:
    row: TableRow
    game: Game[Any, Any]
    seats: list[SeatRow]
    state: Any
    entries: list[EntryRow]
    actions: list[str]
    unsaved: list[tuple[EntryRow, SeatRow | None]] = field(default_factory=list)
    chat: TableTalk = field(default_factory=TableTalk)
    timing: CatchTiming = field(default_factory=CatchTiming)
    show: Show | None = None  # the latest placement's motion (Riff Raff), for the clients
    stories: dict[int, dict[str, JsonValue]] = field(default_factory=dict)  # seq -> told facts
    inline_physics: bool = True  # False: `run_chance` stops at physics for the lobby's pool
    chance_pause: float = 0.0  # > 0: a paced game's rolls wait for the scheduler (`roll_due`)
    touched: float = 0.0  # when the table last changed (or was loaded), for idle closing
    _summary: tuple[int, dict[str, JsonValue]] | None = None
    _options: dict[str, JsonValue] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._options = self.game.options_json()

    # --- building ---------------------------------------------------------------------------
    @classmethod
    def create(
        cls, row: TableRow, seats: list[SeatRow], timing: CatchTiming | None = None
    ) -> LiveTable:
        game = make_game(row.game, row.options)
        return cls(row, game, seats, game.new_state(), [], [], timing=timing or CatchTiming())

    @classmethod
    def load(cls, store: Store, row: TableRow, timing: CatchTiming | None = None) -> LiveTable:
        """Rebuild from the store by replaying every stored action."""
        seats, entries = store.snapshot(row.id)
        table = cls.create(row, seats, timing)
        for entry in entries:
            if entry.action is not None:
                table._replay_action(entry.seq, entry.action)
            table.entries.append(entry)
        table.chat = TableTalk.from_stored(store.chat(row.id, CHAT_TAIL))
        return table

    def catch_up(self, rows: list[tuple[EntryRow, SeatRow | None]]) -> bool:
        """Take in entries another worker stored, with the seats they changed (those this
        table has already are skipped). False when they do not follow on from this table's
        version: the caller then reads the table anew."""
        for entry, seat in rows:
            if entry.seq < self.version:
                continue
            if entry.seq != self.version:
                return False
            if entry.action is not None:
                self._replay_action(entry.seq, entry.action)
            self.entries.append(entry)
            if seat is not None:
                self.seats[seat.seat] = seat
        return True

    def _replay_action(self, seq: int, text: str) -> None:
        action = self.game.parse_action(self.state, text)
        self._tell(seq, action, self.game.apply(self.state, action))
        self.actions.append(text)

    def _tell(self, seq: int, action: Any, state: Any) -> None:
        """Move on to `state`, keeping what the log tells of `action` (entry `seq`)."""
        story = self.game.story(self.state, action, state)
        if story:
            self.stories[seq] = story
        self.state = state

    # --- facts ----------------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        return len(self.entries)

    @property
    def started(self) -> bool:
        return all(s.bot is not None or s.name is not None for s in self.seats)

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state)

    @property
    def status(self) -> str:
        return "over" if self.over else "playing" if self.started else "waiting"

    def mover(self) -> int | None:
        """The seat to act now, or None (not started, a chance node, or over)."""
        mover = self.game.to_move(self.state)
        if not self.started or mover is None or mover == CHANCE:
            return None
        return int(mover)

    def bot_to_move(self) -> str | None:
        seat = self.mover()
        return None if seat is None else self.seats[seat].bot

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        digest = hash_token(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.seat
        return None

    def seat_of_account(self, account_id: str) -> int | None:
        """The seat a signed-in player's account holds here (not one given up to a bot)."""
        mine = (s.seat for s in self.seats if s.account_id == account_id and s.bot is None)
        return next(mine, None)

    # --- changes (queued in `unsaved` for the lobby to store before it tells anybody) -------
    def _append(self, entry: EntryRow, seat: SeatRow | None = None) -> None:
        self.unsaved.append((entry, seat))
        self.entries.append(entry)
        if seat is not None:
            self.seats[seat.seat] = seat

    def take_unsaved(self) -> list[tuple[EntryRow, SeatRow | None]]:
        unsaved, self.unsaved = self.unsaved, []
        return unsaved

    def event(self, key: str, args: dict[str, Any], seat: SeatRow | None) -> None:
        self._append(EntryRow(self.version, None, None, key, args), seat)

    def play(self, seat: int, text: str) -> None:
        """Apply `text` for `seat` (checked by the rules), then roll any dice that follow."""
        if self.over:
            raise TableError("game_over", "The game is over; no more moves can be made.")
        if not self.started:
            raise TableError("not_started", "The game starts when every seat is taken.")
        mover = self.mover()
        if mover != seat:
            raise TableError("not_your_turn", self._turn_message(mover))
        try:
            action = self.game.parse_action(self.state, text)
            state = self.game.apply(self.state, action)
        except IllegalAction as error:
            raise TableError("illegal_action", sentence(str(error))) from None
        self._apply(seat, action, state)
        self.run_chance()

    def _turn_message(self, mover: int | None) -> str:
        if mover is None:
            return "Nobody can move right now; wait for the dice."
        name = self.seats[mover].name or f"seat {mover + 1}"
        return f"It is not your turn: {name} is to move."

    def _apply(self, actor: int, action: Any, state: Any) -> None:
        text = self.game.format_action(action)
        seq = self.version
        self._append(EntryRow(seq, actor, text, None, {}))
        self._tell(seq, action, state)
        self.actions.append(text)

    def run_chance(self) -> None:
        """Draw every chance outcome that is due now (the game must have started). Physics
        runs here only with `inline_physics`; else the table waits at it (`physics_due`)."""
        while self.started and self.game.to_move(self.state) == CHANCE:
            if self.roll_due():
                return
            if needs_physics(self.game, self.state):
                if not self.inline_physics:
                    return
                motion = settle_with_motion(self.game, self.state, self.dice())
                assert motion is not None
                self.apply_motion(motion)
            else:
                self.roll()

    def roll_due(self) -> bool:
        """Whether a roll waits to be drawn at the table's pace (by `roll`, one at a time)."""
        paced = self.chance_pause > 0 and hooks_for(self.game.name).paced_chance
        return paced and self.started and self.game.to_move(self.state) == CHANCE

    def roll(self) -> None:
        outcome = self.game.sample_chance(self.state, self.dice())
        self._apply(CHANCE, outcome, self.game.apply(self.state, outcome))

    def physics_due(self) -> bool:
        """Whether the table waits for a Riff Raff placement's physics."""
        started = self.started and self.game.to_move(self.state) == CHANCE
        return started and needs_physics(self.game, self.state)

    def apply_motion(self, motion: Motion) -> None:
        """Apply the physics outcome worked out at this version (`settle_with_motion` of the
        state and `dice()`), keep its motion as the show, and roll the chance that follows."""
        state = self.game.apply(self.state, motion.outcome)
        self._apply(CHANCE, motion.outcome, state)
        self.show = make_show(self.version, motion, timing_for(self.timing, is_tutorial(self)))
        self.run_chance()

    # --- the catch window (Riff Raff, a person catching by hand) -----------------------------
    def catcher(self) -> int | None:
        """The person who is to catch falling pieces by hand now, or None."""
        physics = hooks_for(self.game.name).physics
        return None if physics is None else physics.catcher(self.game, self.state, self.seats)

    def window(self) -> CatchWindow | None:
        """The catch window of the latest show, if one was opened."""
        return self.show.window if self.show is not None else None

    def check_catch_time(self, seat: int, text: str, version: Any, now: float) -> None:
        """Refuse a catch that arrives after the window closed or after a named piece landed."""
        window = self.window()
        if window is None or window.seat != seat or version != window.version:
            return
        if now > window.closes:
            late = f"{now - window.closes:.2f} s"
            raise TableError(
                "too_late", f"The catch came {late} after the window closed; nothing was caught."
            )
        physics = hooks_for(self.game.name).physics
        landed = (
            [] if physics is None else physics.late_pieces(self.game, self.state, window, text, now)
        )
        if landed:
            names = ", ".join(str(b) for b in landed)
            raise TableError(
                "too_late", f"Piece {names} had already landed; catch pieces while they fall."
            )

    def show_left(self, now: float) -> float:
        """Seconds until the latest show's playback ends (0 when none runs)."""
        if self.show is None or not self.show.running(now):
            return 0.0
        assert self.show.sent is not None
        return self.show.sent + self.show.duration - now

    def dice(self) -> random.Random:
        """The generator of the chance outcome due now: the table's dice key (the server's
        secret, or the public seed of a seeded table) and the version."""
        return random.Random(f"{self.row.dice_key}:{self.version}")

    def bot_action(self, spec: str) -> str:
        """What the bot `spec` plays now, with a generator seeded by the table and version."""
        return bot_decision(self.game, self.state, spec, self.bot_seed)

    @property
    def bot_seed(self) -> int:
        return self.row.seed * 100_003 + self.version

    def talk(self, seat: int, text: str, now: float) -> ChatRow:
        """A new chat line of `seat` (see `TableTalk.say`)."""
        return self.chat.say(seat, self.seats[seat].name or f"seat {seat + 1}", text, now)

    def join(self, seat: int | None, name: str, account_id: str | None = None) -> tuple[int, str]:
        """Seat a person (`account_id`: a signed-in player's account, else a guest)."""
        self._check_not_over()
        open_seats = [s.seat for s in self.seats if s.bot is None and s.name is None]
        if not open_seats:
            raise TableError("table_full", "Every seat at this table is taken; watch instead.")
        if account_id is None and self.row.rated:
            raise TableError("rated_needs_account", "Sign in to play at a rated table.")
        if account_id is not None and self.seat_of_account(account_id) is not None:
            raise TableError("already_seated", "You already have a seat at this table.")
        if seat is None:
            seat = open_seats[0]
        if seat not in open_seats:
            free = ", ".join(str(s + 1) for s in open_seats)
            raise TableError("seat_taken", f"Seat {seat + 1} is not free; free seats: {free}.")
        token = new_token()
        taken = replace(
            self.seats[seat], name=name, token_hash=hash_token(token), account_id=account_id
        )
        self.event("joined", {"seat": seat, "name": name}, taken)
        self.run_chance()
        return seat, token

    def leave(self, seat: int, bot: str | None) -> None:
        """Free the seat before the start; later a bot takes it over (the result is marked).
        After the end the seats stay as they are, for the record and the replay."""
        self._check_not_over()
        current = self.seats[seat]
        if not self.started:
            freed = replace(current, name=None, token_hash=None, account_id=None)
            self.event("left", {"seat": seat, "name": current.name}, freed)
            return
        spec = bot or stand_in_bot(self.game)
        check_bot_spec(spec)
        try:
            make_bot(self.game, spec)
        except KeyError as error:
            raise TableError("unknown_bot", sentence(str(error.args[0]))) from None
        stand_in = replace(current, bot=spec, token_hash=None, replaced=True)
        self.event("replaced", {"seat": seat, "name": current.name, "bot": spec}, stand_in)

    def replace_bot(self, seat: int, bot: str, why: dict[str, str]) -> None:
        """A failed bot's seat is played by `bot` from now on; `why` (the bot, the reason)
        goes into the log."""
        stand_in = replace(self.seats[seat], bot=bot)
        self.event("bot_replaced", {"seat": seat, "by": bot, **why}, stand_in)

    def _check_not_over(self) -> None:
        if self.over:
            raise TableError(
                "game_over", "The game is over; its seats stay as they were for the record."
            )

    # --- what clients see ------------------------------------------------------------------
    def record(self) -> GameRecord:
        players = tuple(s.name or s.bot or f"seat {s.seat + 1}" for s in self.seats)
        replaced = [s.seat for s in self.seats if s.replaced]
        meta: dict[str, Any] = {"table": self.id, "replaced_by_bot": replaced}
        return GameRecord(
            self.game.name,
            self.game.options_json(),
            self.game.rules_version,
            tuple(self.actions),
            self.public_seed(),
            players,
            meta,
        )

    def public_seed(self) -> int | None:
        """The seed every seat may know: a seeded table's, or that of a table stored before
        the server kept its dice secret; None when the dice come from the server's secret."""
        return None if self.row.secret is not None else self.row.seed

    def summary(self) -> dict[str, JsonValue]:
        """Seats, status and version; worked out once per version (every change makes one)."""
        if self._summary is None or self._summary[0] != self.version:
            self._summary = (self.version, self._summarise())
        return self._summary[1]

    def _summarise(self) -> dict[str, JsonValue]:
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "options": self._options,
            "status": self.status,
            "version": self.version,
            "clock": self.row.clock,
            "pace": self.row.pace,
            "created": self.row.created,
            "seeded": self.row.seeded,
            "rated": self.row.rated,
            "turn_based": None if (turns := turn_based_of(self)) is None else turns.args(),
            "seed": self.row.seed if self.row.seeded else None,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "bot": s.bot,
                    "open": s.bot is None and s.name is None,
                    "replaced": s.replaced,
                    "account": s.account_id is not None,  # a signed-in player, not a guest
                }
                for s in self.seats
            ],
        }

    def result(self) -> dict[str, JsonValue] | None:
        if not self.over:
            return None
        return {
            "scores": list(self.game.scores(self.state)),
            "winners": list(self.game.winners(self.state)),
            "replaced_by_bot": [s.seat for s in self.seats if s.replaced],
        }

    def log_entry(self, entry: EntryRow, viewer: int | None) -> dict[str, JsonValue]:
        """An entry as `viewer` may see it: hidden moves without their action; the facts the
        game tells (`story`) beside a short notation (a long one, such as a physics outcome,
        is told by its story alone)."""
        if entry.action is None:
            return {"seq": entry.seq, "key": entry.key, "args": entry.args}
        if not self.game.public_to(entry.actor, entry.action, viewer):
            hidden = {} if entry.actor == CHANCE else {"seat": entry.actor}
            return {
                "seq": entry.seq,
                "key": "chance" if entry.actor == CHANCE else "move",
                "args": hidden,
            }
        args: dict[str, Any] = dict(self.stories.get(entry.seq, {}))
        said = entry.action if len(entry.action) <= LOG_TEXT else entry.action.split(" ", 1)[0]
        if entry.actor == CHANCE:
            return {"seq": entry.seq, "key": "chance", "args": {**args, "outcome": said}}
        return {
            "seq": entry.seq,
            "key": "move",
            "args": {**args, "seat": entry.actor, "action": said},
        }

    def message(
        self, viewer: int | None, deadline: float | None, since: int | None = None
    ) -> dict[str, JsonValue]:
        """The picture for `viewer` (a seat, or None for a spectator). The log holds the
        entries from version `since` on when the viewer has the earlier ones (`log_full`
        false), else the latest entries (`log_full` true)."""
        full = since is None or not 0 <= self.version - since <= LOG_TAIL
        start = max(0, self.version - LOG_TAIL) if full else since
        return {
            "type": "state",
            "version": self.version,
            "you": viewer,
            "table": self.summary(),
            "view": self.game.view(self.state, viewer if self.started else None),
            "to_move": self.mover(),
            "deadline": deadline,
            "log": [self.log_entry(e, viewer) for e in self.entries[start:]],
            "log_full": full,
            "chat": [chat_json(line) for line in self.chat.lines] if full else None,
            "result": self.result(),
        }
