"""How fast a site takes over the tables of a worker killed with -9.

Starts `spieltisch serve --workers 2` on a fresh PostgreSQL schema with Redis as the broker,
opens bot tables, reads from Redis which worker holds each table's lease, kills one worker
that holds some (SIGKILL: it lets nothing go) and then watches its tables: when another
worker holds each lease, and when each table makes its next move. Prints the slowest of
both (the aim: within 5 s) and checks that every game finishes.

Run from the project root after set-up (PostgreSQL and Redis on this machine):
    .venv/bin/python benchmarks/failover.py --tables 20
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

import httpx
from redis import Redis

from spieltisch.server.store import Store
from web_load import HOST, free_port, fresh_database, start_server

BOT_DELAY = 0.1  # seconds a bot waits before each move
LIVENESS = 300.0


def lease_owners(redis: Redis, prefix: str, tables: list[str]) -> dict[str, str | None]:
    owners = redis.mget([f"{prefix}lease:{table}" for table in tables])
    return {t: None if o is None else o.decode() for t, o in zip(tables, owners, strict=True)}


def versions(base: str, tables: list[str]) -> dict[str, tuple[int, str]]:
    found = {}
    for table in tables:
        summary = httpx.get(f"{base}/api/tables/{table}", timeout=30).json()
        found[table] = (summary["version"], summary["status"])
    return found


def watch_takeover(
    base: str, redis: Redis, prefix: str, victim: str, tables: list[str]
) -> dict[str, float]:
    """Seconds from the kill until the last of `tables` has a new owner and a new move."""
    killed = time.monotonic()
    before = versions(base, tables)
    owned_again: dict[str, float] = {}
    moved: dict[str, float] = {}
    while len(owned_again) < len(tables) or len(moved) < len(tables):
        assert time.monotonic() - killed < LIVENESS, "the tables were never taken over"
        now = time.monotonic() - killed
        for table, owner in lease_owners(redis, prefix, tables).items():
            if owner is not None and owner != victim:
                owned_again.setdefault(table, now)
        for table, (version, status) in versions(base, tables).items():
            if version > before[table][0] or status == "over":
                moved.setdefault(table, now)
        time.sleep(0.05)
    return {
        "lease_taken_max_s": round(max(owned_again.values()), 2),
        "next_move_max_s": round(max(moved.values()), 2),
    }


def run(args: argparse.Namespace) -> dict[str, object]:
    redis = Redis.from_url(args.broker)
    with tempfile.TemporaryDirectory() as data_dir, fresh_database(args.db) as url:
        assert url is not None
        store = Store(url)
        prefix = f"spieltisch:{store.site_key()}:"
        store.close()
        port = free_port()
        site = ["--db", url, "--workers", "2", "--broker", args.broker]
        server = start_server(Path(data_dir), port, BOT_DELAY, site)
        base = f"http://{HOST}:{port}"
        try:
            seats = [{"bot": "greedy"}, {"bot": "random"}, {"bot": "greedy"}]
            body = {"game": "pickomino", "seats": seats, "pace": "slow"}
            tables = [
                httpx.post(f"{base}/api/tables", json=body, timeout=30).json()["id"]
                for _ in range(args.tables)
            ]
            time.sleep(3.0)  # the games get going; every lease is held
            owners = lease_owners(redis, prefix, tables)
            victim = max(set(owners.values()) - {None}, key=list(owners.values()).count)
            assert victim is not None
            theirs = [t for t, owner in owners.items() if owner == victim]
            os.kill(int(victim.split(":")[1]), signal.SIGKILL)
            figures = watch_takeover(base, redis, prefix, victim, theirs)
            end = time.monotonic() + LIVENESS
            while any(s != "over" for _, s in versions(base, tables).values()):
                assert time.monotonic() < end, "a game never finished"
                time.sleep(0.5)
        finally:
            server.terminate()
            server.wait(timeout=60)
    return {"tables": args.tables, "killed_worker_tables": len(theirs), **figures}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--db", default="postgresql+psycopg://root@127.0.0.1/test")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    figures = run(args)
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"killed a worker holding {figures['killed_worker_tables']} of {args.tables} "
            f"tables: leases taken over after at most {figures['lease_taken_max_s']} s, "
            f"next move after at most {figures['next_move_max_s']} s; every game finished"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
