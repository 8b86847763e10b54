"""Gymnasium environments: one seat of a registered game against spieltisch bots.

    from spieltisch.adapters.gymnasium import SingleSeatEnv
    env = SingleSeatEnv("karolinchen", opponents=["greedy"], seat=0)
    observation, info = env.reset(seed=3)
    action = int(info["action_mask"].nonzero()[0][0])
    observation, reward, terminated, truncated, info = env.step(action)

`gymnasium.make("spieltisch/karolinchen-v0", opponents=["greedy"])` builds the same (every
game is registered as spieltisch/GAME-v0 when this module is imported).

The agent plays `seat`; every other seat is played by a bot made with `make_bot` (one spec
for all of them, or one per other seat in seat order). The observation is the seat's vector of
the game's encoder (`spieltisch.adapters.encoders`), a Box of floats in [0, 1]; the legal
actions are `info["action_mask"]` and `action_masks()` (for masked policy learners). Chance
nodes are drawn from the environment's generator; `reset(seed=...)` reseeds it and, from it,
the bots' generators, so a seeded episode is reproducible.

An episode always starts with a decision of the agent. A game can end before the agent has
one (in Karolinchen the others win before its first choice in about 0.1-0.3% of games with
random or greedy bots); `reset` then deals a new game, drawn on from the same generator so
that a seed still fixes the episode, and `info["redrawn_games"]` counts the games it skipped.
Episodes are thus the games in which the agent decides at least once: no choice of the agent
could have changed a skipped game, and the count says how many there were.

Rewards: at the end the seat's share of the win (1 alone, 1/k when k seats share it, else 0).
An action outside the mask ends the episode at once with reward -1 and
`info["illegal_action"] = True`, so that random exploration never crashes.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from spieltisch.adapters.encoding import encoder_for, resolve_chance, win_shares
from spieltisch.bots.base import Bot, make_bot
from spieltisch.core.errors import IllegalAction
from spieltisch.core.protocol import CHANCE, JsonValue
from spieltisch.core.registry import game_names, make_game

__all__ = ["ILLEGAL_ACTION_REWARD", "SingleSeatEnv", "env_id", "register_envs"]

ILLEGAL_ACTION_REWARD = -1.0
MAX_REDRAWS = 1_000
"""`reset` gives up after this many games in a row without a decision of the agent."""
_ENTRY_POINT = f"{__name__}:SingleSeatEnv"


class SingleSeatEnv(gymnasium.Env[np.ndarray[Any, Any], np.int64]):
    """One seat of a game; the other seats are spieltisch bots."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        opponents: Sequence[str] | str = "random",
        seat: int = 0,
        options: Mapping[str, JsonValue] | None = None,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = make_game(game, options)
        players = self.game.num_players
        if not 0 <= seat < players:
            raise ValueError(f"seat must be from 0 to {players - 1}, not {seat}")
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(
                f"{self.game.title} with {players} seats needs 1 or {players - 1} opponent "
                f"bots, not {len(specs)}"
            )
        self.seat = seat
        self.encoder = encoder_for(self.game)
        others = [s for s in range(players) if s != seat]
        self.bots: dict[int, Bot] = {
            other: make_bot(self.game, spec) for other, spec in zip(others, specs, strict=True)
        }
        self.render_mode = render_mode
        size = self.encoder.observation_size
        self.observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.action_space = spaces.Discrete(self.encoder.num_actions)
        self._rng = random.Random()
        self.state: Any = self.game.new_state()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        redrawn = self._deal()
        return self._observation(), {**self._info(), "redrawn_games": redrawn}

    def step(self, action: Any) -> tuple[np.ndarray[Any, Any], float, bool, bool, dict[str, Any]]:
        if self.game.is_over(self.state):
            raise IllegalAction("the episode is over; call reset() to start a new game")
        try:
            chosen = self.encoder.action_for(self.state, int(action))
        except IllegalAction:
            info = {**self._info(), "illegal_action": True}
            return self._observation(), ILLEGAL_ACTION_REWARD, True, False, info
        self.state = self._play_others(self.game.apply(self.state, chosen))
        over = self.game.is_over(self.state)
        reward = win_shares(self.game, self.state)[self.seat] if over else 0.0
        return self._observation(), reward, over, False, self._info()

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The legal actions now, as booleans."""
        return np.asarray(self.encoder.action_mask(self.state), dtype=bool)

    def render(self) -> str | None:
        return None if self.render_mode is None else self.game.render(self.state)

    def _deal(self) -> int:
        """Start a game at the agent's first decision, dealing again while a game ends before
        it; returns how many games were dealt again."""
        for redrawn in range(MAX_REDRAWS + 1):
            for bot in self.bots.values():
                bot.rng.seed(self._rng.getrandbits(64))
            self.state = self._play_others(self.game.new_state())
            if not self.game.is_over(self.state):
                return redrawn
        raise RuntimeError(f"{MAX_REDRAWS + 1} games in a row ended before seat {self.seat} moved")

    def _play_others(self, state: Any) -> Any:
        """Chance and the bots act until this seat is to move or the game is over."""
        mover = self.game.to_move(state)
        while mover is not None and mover != self.seat:
            if mover == CHANCE:
                state = resolve_chance(self.game, state, self._rng)
            else:
                state = self.game.apply(state, self.bots[mover].choose(state))
            mover = self.game.to_move(state)
        return state

    def _observation(self) -> np.ndarray[Any, Any]:
        return np.asarray(self.encoder.observe(self.state, self.seat), dtype=np.float32)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": np.asarray(self.encoder.action_mask(self.state), dtype=np.int8)}


def env_id(game: str) -> str:
    """The Gymnasium id of a game's single-seat environment: 'spieltisch/pickomino-v0'."""
    return f"spieltisch/{game}-v0"


def register_envs() -> None:
    """Register every game with Gymnasium, so that `gymnasium.make(env_id(game), ...)` works
    (keyword arguments as for `SingleSeatEnv`). Done when this module is imported."""
    for game in game_names():
        if env_id(game) not in gymnasium.registry:
            gymnasium.register(env_id(game), entry_point=_ENTRY_POINT, kwargs={"game": game})


register_envs()
