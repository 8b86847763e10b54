"""A table's talk: the latest lines kept in memory, their numbering across workers, and the
limit on how fast one seat may talk."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from spieltisch.server.common import TableError
from spieltisch.server.store import ChatRow

__all__ = ["CHAT_BURST", "CHAT_TAIL", "CHAT_WINDOW", "TableTalk"]

CHAT_TAIL = 30
"""How many chat lines a table keeps in memory and a full message carries."""

CHAT_BURST = 5
CHAT_WINDOW = 10.0
"""A seat may say at most `CHAT_BURST` chat lines in any `CHAT_WINDOW` seconds."""


@dataclass
class TableTalk:
    lines: list[ChatRow] = field(default_factory=list)  # the latest lines
    count: int = 0  # the number the next line gets
    times: dict[int, list[float]] = field(default_factory=dict)  # per seat, for the limit

    @classmethod
    def from_stored(cls, lines: list[ChatRow]) -> TableTalk:
        return cls(lines, lines[-1].n + 1 if lines else 0)

    def say(self, seat: int, name: str, text: str, now: float) -> ChatRow:
        """A new line of `seat` at time `now` (the caller stores it). Refused, changing
        nothing, when the seat has already said `CHAT_BURST` lines in the last `CHAT_WINDOW`
        seconds."""
        recent = [t for t in self.times.get(seat, []) if now - t < CHAT_WINDOW]
        if len(recent) >= CHAT_BURST:
            wait = math.ceil(CHAT_WINDOW - (now - recent[0]))
            raise TableError(
                "chat_too_fast",
                f"At most {CHAT_BURST} chat lines in {CHAT_WINDOW:.0f} seconds; "
                f"say it again in {wait} s.",
            )
        self.times[seat] = [*recent, now]
        line = ChatRow(self.count, seat, name, text)
        self._keep(line)
        return line

    def renumber(self, stored: list[ChatRow], line: ChatRow) -> list[ChatRow]:
        """Put `line` after the latest `stored` lines (another worker's line took its
        number): the lines in memory become those lines and it. Returns the stored lines
        this table had not had, then the renumbered line."""
        missed = [old for old in stored if old.n >= line.n]
        line = replace(line, n=stored[-1].n + 1 if stored else 0)
        self.lines = stored[-(CHAT_TAIL - 1) :]
        self._keep(line)
        return [*missed, line]

    def heard(self, line: ChatRow) -> bool:
        """Take in another worker's line; False when this table has it already."""
        if line.n < self.count:
            return False
        self._keep(line)
        return True

    def _keep(self, line: ChatRow) -> None:
        self.lines = [*self.lines[-(CHAT_TAIL - 1) :], line]
        self.count = line.n + 1
