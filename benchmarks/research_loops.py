"""Games per second of uniformly random play through the research interfaces.

Each loop is what a researcher writes first: PettingZoo's AEC loop over `env(game)` (with its
order-enforcing wrapper, as `env` gives it) choosing a uniformly random action of the mask, and
OpenSpiel's loop over `pyspiel.load_game` drawing chance outcomes with their probabilities
(numpy's `choice`, as OpenSpiel's examples do) and a uniformly random legal action. Two-player
games with the default options; every game seeded, so a run plays the same games each time.
Rates are games per second of processor time of the one process (per core), which a busy
machine disturbs less than wall time.

Run alone:  .venv/bin/python benchmarks/research_loops.py [--seconds S] [--rounds N] [--json]
From Python:  research_loops.measure(seconds=1.0, rounds=3) -> {loop: games per second}
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

LOOPS = (
    "pettingzoo_pickomino",
    "pettingzoo_karolinchen",
    "openspiel_pickomino",
    "openspiel_karolinchen",
)
"""The measured loops, each named after its interface and game."""

PlayGame = Callable[[int], None]
"""Plays the seeded game of its argument to the end."""


def pettingzoo_games(game: str) -> PlayGame:
    from spieltisch.adapters.pettingzoo import env

    return aec_loop(env(game))


def aec_loop(aec: Any) -> PlayGame:
    """The PettingZoo loop over an environment already made, a uniformly random legal action
    at each step."""

    def play(seed: int) -> None:
        choose = random.Random(seed)
        aec.reset(seed=seed)
        for _agent in aec.agent_iter():
            observation, _reward, termination, truncation, _info = aec.last()
            if termination or truncation:
                aec.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            aec.step(int(legal[choose.randrange(len(legal))]))

    return play


def openspiel_games(game: str) -> PlayGame:
    import pyspiel

    import spieltisch.adapters.openspiel  # noqa: F401  (registers the games)

    spiel = pyspiel.load_game(f"spieltisch_{game}")

    def play(seed: int) -> None:
        draw = np.random.default_rng(seed)
        state = spiel.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(draw.choice(outcomes, p=probabilities)))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(draw.integers(len(legal)))])

    return play


def games_per_second(play: PlayGame, seconds: float, rounds: int) -> float:
    """The median over `rounds` of the games played per second of this process's processor
    time, each round `seconds` of it (seeds go on counting)."""
    rates, seed = [], 0
    play(seed)  # first use: imports, registrations and tables built
    for _ in range(rounds):
        started, games = time.process_time(), 0
        while time.process_time() - started < seconds:
            seed += 1
            play(seed)
            games += 1
        rates.append(games / (time.process_time() - started))
    return statistics.median(rates)


def make_loop(name: str) -> PlayGame:
    interface, game = name.split("_")
    return pettingzoo_games(game) if interface == "pettingzoo" else openspiel_games(game)


def measure(
    seconds: float = 1.0, rounds: int = 3, loops: tuple[str, ...] = LOOPS
) -> dict[str, float]:
    """Games per second of each loop in `loops`, the median of `rounds` runs of `seconds`."""
    return {name: games_per_second(make_loop(name), seconds, rounds) for name in loops}


def pettingzoo_games_per_second(seconds: float) -> float:
    """Random Pickomino games per processor second through the AEC loop (for `run.py`)."""
    return games_per_second(make_loop("pettingzoo_pickomino"), seconds, 1)


def openspiel_games_per_second(seconds: float) -> float:
    """Random Pickomino games per processor second through OpenSpiel (for `run.py`)."""
    return games_per_second(make_loop("openspiel_pickomino"), seconds, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one run")
    parser.add_argument("--rounds", type=int, default=3, help="runs per loop, the median counts")
    parser.add_argument("--loop", action="append", choices=LOOPS, help="only these loops")
    parser.add_argument("--json", action="store_true", help="one JSON object: loop -> games/s")
    args = parser.parse_args()
    rates = measure(args.seconds, args.rounds, tuple(args.loop or LOOPS))
    if args.json:
        print(json.dumps({name: round(rate, 1) for name, rate in rates.items()}))
        return
    for name, rate in rates.items():
        print(f"{name.replace('_', ' '):<30}{rate:>10,.0f} games/s (random play, 2 players)")


if __name__ == "__main__":
    main()
