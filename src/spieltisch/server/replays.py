"""Records and replays of finished games, built beside the event loop and kept encoded.

A replay replays the whole game and draws the public view of every step: for a long Riff Raff
game that is hundreds of kilobytes of JSON and many milliseconds of work. A finished game never
changes, so each is built once, in a thread, encoded and compressed there, and then served from
memory to every reader; readers that ask while it is being built wait for the same build.
"""

from __future__ import annotations

import asyncio
import gzip
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from spieltisch.core.protocol import CHANCE, JsonValue
from spieltisch.core.record import GameRecord, replay_states
from spieltisch.server.store import EntryRow
from spieltisch.server.table import LiveTable

__all__ = ["Encoded", "FinishedGames"]

KEPT = 64
"""Finished games whose encoded record and replay stay in memory (the latest asked for)."""
GZIP_LEVEL = 6
"""Compression of a kept answer: most of level 9's saving at a fraction of its time."""


@dataclass(frozen=True)
class Encoded:
    """A JSON answer as bytes, plain and gzip-compressed."""

    plain: bytes
    compressed: bytes

    @classmethod
    def of(cls, data: JsonValue) -> Encoded:
        plain = json.dumps(data, separators=(",", ":")).encode()
        return cls(plain, gzip.compress(plain, GZIP_LEVEL, mtime=0))


@dataclass(frozen=True)
class _Snapshot:
    """What a replay needs of a finished table, taken on the event loop."""

    table: LiveTable
    record: GameRecord
    moves: list[EntryRow]
    summary: dict[str, JsonValue]


_Prepare = Callable[[LiveTable], Callable[[], Encoded]]
"""Takes on the event loop what a build reads of a table; the build then runs in a thread."""


class FinishedGames:
    """The encoded records and replays of the finished games asked for lately."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._built: OrderedDict[tuple[str, str, int], asyncio.Future[Encoded]] = OrderedDict()

    async def record(self, table: LiveTable) -> Encoded:
        return await self.answer("record", table, _record_build)

    async def replay(self, table: LiveTable) -> Encoded:
        return await self.answer("replay", table, _replay_build)

    async def answer(self, kind: str, table: LiveTable, prepare: _Prepare) -> Encoded:
        """The answer of `kind` for a finished table: `prepare` takes on the event loop what
        the build (in a thread) reads, once per game version; later readers get it kept."""
        return await self.answer_by(kind, table, lambda: asyncio.to_thread(prepare(table)))

    async def answer_by(
        self, kind: str, table: LiveTable, build: Callable[[], Awaitable[Encoded]]
    ) -> Encoded:
        """The answer of `kind` for a finished table, made by `build` (called on the event
        loop, once per game version; it may hand the work to a pool); later readers get it
        kept."""
        key = (kind, table.id, table.version)
        found = self._built.get(key)
        if found is None:
            found = asyncio.ensure_future(build())
            self._built[key] = found
            found.add_done_callback(lambda done: self._forget_failed(key, done))
            while len(self._built) > self.kept:
                self._built.popitem(last=False)
        self._built.move_to_end(key)
        return await asyncio.shield(found)

    def forget(self, table_id: str) -> None:
        """Drop what was built of a table (its players' names changed)."""
        for key in [key for key in self._built if key[1] == table_id]:
            del self._built[key]

    def _forget_failed(self, key: tuple[str, str, int], done: asyncio.Future[Encoded]) -> None:
        """A build that failed is tried again by the next reader."""
        if (done.cancelled() or done.exception() is not None) and self._built.get(key) is done:
            del self._built[key]


def _record_build(table: LiveTable) -> Callable[[], Encoded]:
    record = table.record()
    return lambda: Encoded.of(record.to_json())


def _replay_build(table: LiveTable) -> Callable[[], Encoded]:
    moves = [e for e in table.entries if e.action is not None]
    snapshot = _Snapshot(table, table.record(), moves, table.summary())
    return lambda: Encoded.of(_steps(snapshot))


def _steps(snapshot: _Snapshot) -> dict[str, JsonValue]:
    """Every position of a finished game as the public view, with the action that led to it."""
    table, record = snapshot.table, snapshot.record
    game = table.game
    states = replay_states(record)
    steps: list[dict[str, JsonValue]] = [
        {"action": None, "actor": None, "view": game.view(states[0], None)}
    ]
    for text, move, state in zip(record.actions, snapshot.moves, states[1:], strict=True):
        step = {"action": text, "actor": move.actor, "view": game.view(state, None)}
        steps.append({**step, "entry": table.log_entry(move, None)})  # the log's words
    return {
        "record": record.to_json(),
        "table": snapshot.summary,
        "steps": steps,
        "chance": CHANCE,
        "result": table.result(),  # the winner and scores, shown at the last step
    }
