"""Random Pickomino games in pickomino-env, run by `peers.py` inside the peer's own venv.

The agent (seat 0) picks uniformly among the faces shown and not yet set aside, and rolls
on or stops with equal chance; the environment's own bot plays the other seat. Prints
{"games_per_second": ...} for the games finished in the given seconds.
"""

from __future__ import annotations

import json
import random
import sys
import time

from pickomino_env.pickomino import PickominoEnv


def play(env: PickominoEnv, rng: random.Random, seed: int) -> None:
    observation, _ = env.reset(seed=seed)
    while True:
        rolled, kept = observation["dice_rolled"], observation["dice_collected"]
        faces = [face for face in range(6) if rolled[face] and not kept[face]] or [0]
        action = (rng.choice(faces), rng.randrange(2))
        observation, _, terminated, truncated, _ = env.step(action)
        if terminated:
            return
        if truncated:  # a refused stop (no tile to take): roll on instead
            observation, _, terminated, _, _ = env.step((action[0], 0))
            if terminated:
                return


def main() -> None:
    seconds = float(sys.argv[1])
    env, rng = PickominoEnv(number_of_bots=1), random.Random(1)
    started, games = time.perf_counter(), 0
    while time.perf_counter() - started < seconds:
        play(env, rng, games)
        games += 1
    print(json.dumps({"games_per_second": games / (time.perf_counter() - started)}))


if __name__ == "__main__":
    main()
