"""How long counting a rated 7-player end takes in the database: five signed-in players and
two bots, each end in its own transaction (the server does it inside the transaction that
stores the game's last entries). Prints the median and 90th percentile of the wall time, and
the median CPU time (which a busy machine changes less).

    .venv/bin/python benchmarks/rated_end.py [--ends 200]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from spieltisch.server.rated import RatedEnd, count_end
from spieltisch.server.store import SeatRow, Store, TableRow

PEOPLE = 5
SEATS = 7


def rated_table(store: Store, table_id: str) -> None:
    seats = [
        SeatRow(i, None, f"P{i}", None, account_id=f"a{i}")
        if i < PEOPLE
        else SeatRow(i, "greedy", None, None)
        for i in range(SEATS)
    ]
    store.add_table(TableRow(table_id, "pickomino", {}, 1, None, 0.0, rated=True), seats, [])


def an_end(table_id: str, n: int) -> RatedEnd:
    accounts = tuple(f"a{i}" if i < PEOPLE else None for i in range(SEATS))
    bots = tuple(None if i < PEOPLE else "greedy" for i in range(SEATS))
    places = tuple((i + n) % SEATS for i in range(SEATS))
    return RatedEnd(table_id, "pickomino", accounts, bots, places, float(n))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ends", type=int, default=200)
    ends = parser.parse_args().ends
    store = Store(f"sqlite:///{Path(tempfile.mkdtemp()) / 'rated.sqlite3'}")
    seconds, cpu = [], []
    for n in range(ends):
        rated_table(store, f"t{n}")
        start, start_cpu = time.perf_counter(), time.process_time()
        with store.engine.begin() as db:
            assert count_end(db, an_end(f"t{n}", n))
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    store.close()
    median, ninety = statistics.median(seconds), sorted(seconds)[int(0.9 * ends)]
    print(f"{ends} ends: median {median * 1e3:.2f} ms, 90% {ninety * 1e3:.2f} ms", end="")
    print(f" (CPU time: median {statistics.median(cpu) * 1e3:.2f} ms)")


if __name__ == "__main__":
    main()
