"""How long one Argon2id password hash takes with the server's parameters (they are chosen so
that it is 50-150 ms on the machine that serves), and a check of a wrong password against a
stored hash and against the dummy hash of a name that has no account.

    .venv/bin/python benchmarks/password_hash.py [--runs 15]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from spieltisch.server.accounts.passwords import (
    MEMORY_KIB,
    TIME_COST,
    hash_password,
    verify_nobody,
    verify_password,
)


def timed_ms(call: Callable[[], object], runs: int) -> dict[str, float]:
    """The median, least and most milliseconds of `runs` calls (after one to warm up), and
    the median processor time of one: what a call costs with a core to itself, however busy
    the machine is with other work."""
    call()
    times, cpu = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        call()
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return {
        "median_ms": round(statistics.median(times), 1),
        "min_ms": round(min(times), 1),
        "max_ms": round(max(times), 1),
        "cpu_median_ms": round(statistics.median(cpu), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    stored = hash_password("a pass phrase of a player")
    report = {
        "time_cost": TIME_COST,
        "memory_kib": MEMORY_KIB,
        "hash": timed_ms(lambda: hash_password("a pass phrase of a player"), args.runs),
        "wrong_password": timed_ms(lambda: verify_password(stored, "a wrong guess"), args.runs),
        "unknown_name": timed_ms(lambda: verify_nobody("a wrong guess"), args.runs),
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
