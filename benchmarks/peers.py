"""Side by side: each speed figure of spieltisch next to the peer that can run here.

`run.py --peers` prints one row per figure: spieltisch's median, the peer's, and the ratio
spieltisch time / peer time (below 1: spieltisch is faster). pickomino-env is installed on
first use, with pip, into its own virtual environment under benchmarks/.peers/ (git-ignored).
Rows whose measurement lives in another benchmark module (`research_loops`,
`karolinchen_plain`) call it by name and say so when that module is not there.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import time
import venv
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
PEERS = HERE / ".peers"
PICKOMINO_ENV = "pickomino-env==1.4.1"
NOT_HERE = "not runnable here"


@dataclass(frozen=True)
class Figure:
    """A measured figure: its value, its unit, and whether more of it is faster."""

    value: float
    unit: str
    rate: bool

    def seconds_per_item(self) -> float:
        return 1 / self.value if self.rate else self.value

    def __str__(self) -> str:
        return f"{self.value:,.1f} {self.unit}" if self.rate else f"{self.value * 1000:.1f} ms"


Measure = Callable[[], Figure | str]  # a figure, or a sentence why there is none


@dataclass(frozen=True)
class Row:
    work: str
    ours: Measure
    peer_name: str
    peer: Measure


def _median_rate(one_round: Callable[[float], float], seconds: float, rounds: int) -> float:
    return statistics.median(one_round(seconds) for _ in range(rounds))


def _whole_command(argv: list[str], repeats: int) -> Figure:
    """Median wall time of a whole `spieltisch` process."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "spieltisch", *argv], capture_output=True, check=True)
        times.append(time.perf_counter() - started)
    return Figure(statistics.median(times), "s", rate=False)


# --- spieltisch's side ------------------------------------------------------------------------
def warm_solve(repeats: int) -> Figure:
    from spieltisch.games.pickomino.solver import TurnTable, solve_table

    table = TurnTable()
    solve_table(table)
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        solve_table(table)
        samples.append(time.perf_counter() - started)
    return Figure(statistics.median(samples), "s", rate=False)


def simulate_cpu_per_game(games: int) -> Figure:
    """Processor time per game of `simulate` optimal vs greedy with --jobs 2 (children too)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    argv = ["simulate", "pickomino", "--seats", "optimal,greedy", "--games", str(games)]
    _whole_command([*argv, "--seed", "1", "--jobs", "2", "--json"], 1)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return Figure(cpu / games, "s", rate=False)


def engine_random_games(seconds: float) -> float:
    from spieltisch.bots import make_bot, play_match
    from spieltisch.core import make_game

    started, games = time.perf_counter(), 0
    while time.perf_counter() - started < seconds:
        seed = random.Random(games).randrange(2**32)
        game = make_game("pickomino", {"players": 2, "start_seat": games % 2})
        play_match(game, [make_bot(game, "random", seed + seat) for seat in (0, 1)], seed)
        games += 1
    return games / (time.perf_counter() - started)


def pettingzoo_random_games(seconds: float) -> float:
    """Random legal actions through the AEC env (used unless `research_loops` has its own)."""
    from spieltisch.adapters.pettingzoo import raw_env

    aec, rng = raw_env("pickomino", {"players": 2}), random.Random(1)
    started, games = time.perf_counter(), 0
    while time.perf_counter() - started < seconds:
        aec.reset(seed=games)
        for _agent in aec.agent_iter():
            observation, _, termination, truncation, _ = aec.last()
            legal = observation["action_mask"].nonzero()[0]
            aec.step(None if termination or truncation else int(rng.choice(legal)))
        games += 1
    return games / (time.perf_counter() - started)


def plugged(module: str, function: str, *args: float) -> Figure | str:
    """games/s from `benchmarks/<module>.py`'s `function`, or why there is none."""
    try:
        measure = getattr(importlib.import_module(module), function)
    except (ImportError, AttributeError):
        return f"needs benchmarks/{module}.py ({function})"
    return Figure(float(measure(*args)), "games/s", rate=True)


# --- the peers ---------------------------------------------------------------------------------
def peer_python(name: str, requirement: str) -> Path:
    """The Python of the peer's own virtual environment, made and filled on first use."""
    home = PEERS / name
    python = home / "bin" / "python"
    if not python.exists():
        venv.create(home, with_pip=True)
    module = name.replace("-", "_")
    if subprocess.run([python, "-c", f"import {module}"], capture_output=True).returncode:
        subprocess.run([python, "-m", "pip", "install", "-q", requirement], check=True)
    return python


def pickomino_env_random_games(seconds: float) -> float:
    python = peer_python("pickomino-env", PICKOMINO_ENV)
    script = HERE / "peer_pickomino_env.py"
    done = subprocess.run(
        [python, script, str(seconds)], capture_output=True, text=True, check=True
    )
    return float(json.loads(done.stdout)["games_per_second"])


# --- the table ---------------------------------------------------------------------------------
def rows(quick: bool) -> list[Row]:
    seconds, rounds, repeats = (1.0, 1, 5) if quick else (3.0, 3, 11)
    games = 1000 if quick else 10_000

    def rate(one_round: Callable[[float], float]) -> Measure:
        return lambda: Figure(_median_rate(one_round, seconds, rounds), "games/s", rate=True)

    env = rate(pickomino_env_random_games)

    def plain() -> Figure | str:
        return plugged("karolinchen_plain", "games_per_second", seconds)

    def pettingzoo() -> Figure | str:
        if importlib.util.find_spec("research_loops") is None:
            return rate(pettingzoo_random_games)()
        return plugged("research_loops", "pettingzoo_games_per_second", seconds)

    return [
        Row(
            "Pickomino turn solve, warm",
            lambda: warm_solve(200),
            "ten Cate's C++ solver",
            lambda: NOT_HERE,
        ),
        Row(
            "optimal vs greedy games, CPU per game",
            lambda: simulate_cpu_per_game(games),
            "ten Cate's C++ program",
            lambda: NOT_HERE,
        ),
        Row("random Pickomino games (engine)", rate(engine_random_games), PICKOMINO_ENV, env),
        Row("random Pickomino games (PettingZoo env)", pettingzoo, PICKOMINO_ENV, env),
        Row(
            "OpenSpiel Pickomino random games",
            lambda: plugged("research_loops", "openspiel_games_per_second", seconds),
            "none",
            lambda: "no peer",
        ),
        Row(
            "Karolinchen greedy 2p games (engine loop)",
            lambda: plugged("karolinchen_plain", "engine_games_per_second", seconds),
            "plain simulator (benchmarks/)",
            plain,
        ),
        Row(
            "Karolinchen greedy 2p games (match driver)",
            rate(_karolinchen_greedy),
            "plain simulator (benchmarks/)",
            plain,
        ),
        Row(
            "`spieltisch pickomino solve --json`, whole command",
            lambda: _whole_command(["pickomino", "solve", "--json"], repeats),
            "ten Cate's C++ binary",
            lambda: NOT_HERE,
        ),
        Row(
            "`spieltisch --help`, whole command",
            lambda: _whole_command(["--help"], repeats),
            "none",
            lambda: "no peer",
        ),
    ]


def _karolinchen_greedy(seconds: float) -> float:
    from run import games_per_second

    return games_per_second(["greedy", "greedy"], seconds, 1, "karolinchen")


def _ratio(ours: Figure | str, peer: Figure | str) -> str:
    if isinstance(ours, str) or isinstance(peer, str):
        return "-"
    return f"{ours.seconds_per_item() / peer.seconds_per_item():.2f}"


def report(quick: bool) -> None:
    print("| work | spieltisch | peer | peer figure | ratio (spieltisch time / peer) |")
    print("|---|---|---|---|---|")
    for row in rows(quick):
        ours, peer = row.ours(), row.peer()
        print(f"| {row.work} | {ours} | {row.peer_name} | {peer} | {_ratio(ours, peer)} |")
