"""How fast the PettingZoo Pickomino loop could be: the same loop with parts of it made free.

`research_loops.py` plays random Pickomino games through the AEC loop. This splits that rate
into what its parts cost by measuring the same loop three more ways:

- `free_observation`: spieltisch's environment, its observation vector replaced by one
  constant vector (rules, legal actions, masks and PettingZoo's bookkeeping still run);
- `rules_alone`: the same random games without PettingZoo: the rules, the legal integers
  and the random choice, in a plain loop;
- `free_rules`: an environment that does nothing, whose games last exactly as many steps as
  the real ones on average (the loop, the wrapper, the dicts PettingZoo asks for);
- `steps_per_game`: agent steps of a random game, the last steps of the two seats included.

Each figure is games per second of processor time, the median of `rounds` runs. Every part
of the loop costs the difference between two of them.

Run:  .venv/bin/python benchmarks/pettingzoo_ceiling.py [--seconds S] [--rounds N] [--json]
"""

from __future__ import annotations

import argparse
import json
from typing import Any, ClassVar

import numpy as np
from pettingzoo import AECEnv

from research_loops import PlayGame, aec_loop, games_per_second, make_loop

GAME = "pickomino"


def steps_per_game(games: int = 400) -> float:
    """Agent steps of `games` seeded random games, on average."""
    from spieltisch.adapters.pettingzoo import env

    aec, steps = env(GAME), 0
    original_step = aec.step

    def counted(action: Any) -> None:
        nonlocal steps
        steps += 1
        original_step(action)

    aec.step = counted  # type: ignore[method-assign]
    play = aec_loop(aec)
    for seed in range(games):
        play(seed)
    return steps / games


def free_observation_loop() -> PlayGame:
    """The real loop, every observation vector one shared constant (copied, as it must be)."""
    from spieltisch.adapters.pettingzoo import env

    aec = env(GAME)
    encoder = aec.unwrapped.encoder
    constant = np.zeros(encoder.observation_size, np.float32)
    encoder.observe_array = lambda state, seat: constant.copy()
    return aec_loop(aec)


def rules_alone_loop() -> PlayGame:
    """The random games of the loop, played on the rules with the encoder's legal integers."""
    import random

    from spieltisch.adapters.encoding import encoder_for, resolve_chance
    from spieltisch.core import make_game

    game = make_game(GAME, {"players": 2})
    encoder = encoder_for(game)

    def play(seed: int) -> None:
        rng, choose = random.Random(seed), random.Random(seed)
        state = resolve_chance(game, game.new_state(), rng)
        while not game.is_over(state):
            _, actions = encoder.legal_pairs(state)
            action = actions[choose.randrange(len(actions))]
            state = resolve_chance(game, game.apply(state, action), rng)

    return play


class _IdleEnv(AECEnv):  # type: ignore[misc]
    """Two agents that take turns in runs of three steps, for `steps` steps a game."""

    metadata: ClassVar[dict[str, str]] = {"name": "idle_v0"}

    def __init__(self, steps: int, observation_size: int, actions: int) -> None:
        super().__init__()
        self.possible_agents = ["player_0", "player_1"]
        self.steps = steps
        self.vector = np.zeros(observation_size, np.float32)
        self.mask = np.zeros(actions, np.int8)
        self.mask[[0, 2, 5]] = 1

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        from spieltisch.adapters.pettingzoo import begin_episode

        begin_episode(self)
        self.agent_selection, self.done = "player_0", 0

    def observe(self, agent: str) -> dict[str, Any]:
        return {"observation": self.vector.copy(), "action_mask": self.mask.copy()}

    def step(self, action: Any) -> None:
        if self.terminations[self.agent_selection]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[self.agent_selection] = 0.0
        self.done += 1
        self.agent_selection = self.possible_agents[self.done // 3 % 2]
        if self.done + len(self.agents) >= self.steps:  # each agent's last step comes next
            self.terminations = dict.fromkeys(self.agents, True)
            self._clear_rewards()
            self._accumulate_rewards()


def free_rules_loop(steps: float) -> PlayGame:
    from spieltisch.adapters.pettingzoo import OrderEnforced, env

    encoder = env(GAME).unwrapped.encoder
    idle = _IdleEnv(round(steps), encoder.observation_size, encoder.num_actions)
    return aec_loop(OrderEnforced(idle))


def measure(seconds: float = 1.0, rounds: int = 3) -> dict[str, float]:
    steps = steps_per_game()
    loops = {
        "real": make_loop(f"pettingzoo_{GAME}"),
        "free_observation": free_observation_loop(),
        "rules_alone": rules_alone_loop(),
        "free_rules": free_rules_loop(steps),
    }
    rates = {name: games_per_second(play, seconds, rounds) for name, play in loops.items()}
    return {**rates, "steps_per_game": steps}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one run")
    parser.add_argument("--rounds", type=int, default=3, help="runs per loop, the median counts")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args()
    figures = measure(args.seconds, args.rounds)
    if args.json:
        print(json.dumps({name: round(value, 1) for name, value in figures.items()}))
        return
    steps = figures.pop("steps_per_game")
    print(f"{'steps per game':<22}{steps:>10.1f}")
    for name, rate in figures.items():
        per_step = 1e6 / rate / steps
        print(f"{name:<22}{rate:>10,.0f} games/s  {per_step:6.1f} us per step")


if __name__ == "__main__":
    main()
