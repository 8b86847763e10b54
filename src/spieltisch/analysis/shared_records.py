"""An append-only log of fixed-width float records in shared memory, for the processes of one
simulation: each appends what it computed and takes over what the others appended.

Made before the processes start and handed to them as they start (inherited, never sent
later). Appending holds a lock; reading takes the records below the count, which grows only
after a record is written whole. A full log takes no more records.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence

__all__ = ["SharedRecords"]


class SharedRecords:
    def __init__(self, width: int, capacity: int) -> None:
        self.width = width
        self.capacity = capacity
        self._floats = multiprocessing.RawArray("d", width * capacity)
        self._count = multiprocessing.Value("q", 0)
        self._read = 0  # records this process has taken so far (each process its own)

    def append(self, record: Sequence[float]) -> None:
        if len(record) != self.width:
            raise ValueError(f"a record has {self.width} numbers, not {len(record)}")
        with self._count.get_lock():
            at = self._count.value
            if at < self.capacity:
                self._floats[at * self.width : (at + 1) * self.width] = record
                self._count.value = at + 1

    def take_new(self) -> list[list[float]]:
        """The records appended since this process last took them (its own among them)."""
        start, end = self._read, self._count.value
        self._read = end
        floats = self._floats[start * self.width : end * self.width]
        return [floats[at : at + self.width] for at in range(0, len(floats), self.width)]
