"""A long run of the web table: bot games at many tables, its memory watched.

Starts `spieltisch serve` on a free loopback port with a fresh SQLite file and keeps
--tables games of two bots going (a finished game is replaced by a new one) for --minutes.
Every --every seconds it reads the resident memory of the server and its worker processes
(/proc, Linux) and prints it with the number of finished games; at the end the growth from
the first sample after --warmup minutes to the last.

Run from the project root after set-up:
    .venv/bin/python benchmarks/soak.py --tables 100 --minutes 30
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from web_load import HOST, free_port, start_server

GAMES = ("pickomino", "karolinchen")


def resident_kib(pid: int) -> int:
    """Resident memory of `pid` and its children (KiB)."""
    total = 0
    for task in [pid, *children(pid)]:
        try:
            status = Path(f"/proc/{task}/status").read_text()
        except OSError:
            continue
        total += next(
            int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS")
        )
    return total


def children(pid: int) -> list[int]:
    try:
        found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    return [int(c) for c in found]


def new_table(client: httpx.Client, number: int) -> str:
    body = {"game": GAMES[number % len(GAMES)], "seats": [{"bot": "greedy"}, {"bot": "greedy"}]}
    response = client.post("/api/tables", json=body)
    response.raise_for_status()
    return str(response.json()["id"])


def soak(args: argparse.Namespace, server: subprocess.Popen[bytes], base: str) -> dict[str, float]:
    samples: list[tuple[float, int, int]] = []
    with httpx.Client(base_url=base, timeout=60) as client:
        made = args.tables
        for number in range(args.tables):
            new_table(client, number)
        started = time.monotonic()
        while time.monotonic() - started < args.minutes * 60:
            time.sleep(args.every)
            elapsed = time.monotonic() - started
            running = len(client.get("/api/tables").json())
            for _ in range(args.tables - running):
                new_table(client, made)
                made += 1
            finished = made - args.tables
            samples.append((elapsed, resident_kib(server.pid), finished))
            print(f"{elapsed / 60:5.1f} min  {samples[-1][1] / 1024:7.1f} MiB  {finished} games")
    warm = next(s for s in samples if s[0] >= args.warmup * 60)
    return {
        "tables": args.tables,
        "minutes": args.minutes,
        "finished_games": samples[-1][2],
        "rss_mib_after_warmup": round(warm[1] / 1024, 1),
        "rss_mib_at_end": round(samples[-1][1] / 1024, 1),
        "growth_percent": round(100 * (samples[-1][1] - warm[1]) / warm[1], 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=3.0, help="minutes before the baseline")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between samples")
    parser.add_argument("--bot-delay", type=float, default=1.0, help="a bot's pause per move")
    args = parser.parse_args()
    if not 0 < args.warmup < args.minutes:
        parser.error("--warmup must be shorter than --minutes")
    with tempfile.TemporaryDirectory() as data_dir:
        port = free_port()
        server = start_server(Path(data_dir), port, args.bot_delay)
        try:
            figures = soak(args, server, f"http://{HOST}:{port}")
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
