"""PettingZoo AEC environments for every registered game.

    from spieltisch.adapters.pettingzoo import env
    aec = env("pickomino", {"players": 3}, render_mode="ansi")
    aec.reset(seed=7)
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, info = aec.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else int(mask.nonzero()[0][0])
        aec.step(action)

Agents are "player_0" .. "player_{n-1}", one per seat. Actions are integers as defined by the
game's encoder (`spieltisch.adapters.encoders`, `encoder.describe()` lists them). An
observation is a dict: "observation", the seat's vector of floats in [0, 1] (its fields are
documented by the encoder), and "action_mask", int8 with 1 for each legal action (all zeros
when the agent is not to move). Chance nodes (dice, the physics of a placement, catches) are
resolved inside the environment with its generator, seeded by `reset(seed=...)`; a reset
without a seed goes on drawing from the current generator. Rewards come at the end: each
winner gets 1/k of a win shared by k seats, the others 0. An illegal action raises
`IllegalAction` (a `ValueError`) naming the legal ones. `render()` returns the game's text
picture with render_mode="ansi"; with render_mode="human" it prints it, and so do `reset` and
every step. `env()` wraps the environment in PettingZoo's `OrderEnforcingWrapper` (an error
for steps, observations or renders before `reset`), as PettingZoo's own environments are;
`raw_env()` gives it bare, which saves a little more.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from spieltisch.adapters.encoding import encoder_for, resolve_chance, win_shares
from spieltisch.core.protocol import JsonValue, Mover
from spieltisch.core.registry import make_game

__all__ = ["OrderEnforced", "SpieltischAEC", "begin_episode", "env", "raw_env"]

RENDER_MODES = ("ansi", "human")
MASKS_LIMIT = 4096
"""Action masks remembered by their legal integers; more and they are forgotten."""


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def begin_episode(aec: AECEnv) -> None:
    """PettingZoo's records of each agent for a new episode: every possible agent playing,
    no rewards yet, nobody done."""
    aec.agents = list(aec.possible_agents)
    aec.rewards = dict.fromkeys(aec.agents, 0.0)
    aec._cumulative_rewards = dict.fromkeys(aec.agents, 0.0)
    aec.terminations = dict.fromkeys(aec.agents, False)
    aec.truncations = dict.fromkeys(aec.agents, False)
    aec.infos = {agent: {} for agent in aec.agents}


class SpieltischAEC(AECEnv):  # type: ignore[misc]
    """One registered game as an agent-environment-cycle environment."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "spieltisch_v0",
    }
    terminations: dict[str, bool]  # these and the agents' other records: `begin_episode`
    truncations: dict[str, bool]

    def __init__(
        self,
        game: str,
        options: Mapping[str, JsonValue] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.game = make_game(game, options)
        self.encoder = encoder_for(self.game)
        self.render_mode = render_mode
        self.possible_agents = [agent_name(seat) for seat in range(self.game.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size, actions = self.encoder.observation_size, self.encoder.num_actions
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._rng = random.Random()
        self.state: Any = self.game.new_state()
        self._legal_state: Any = None
        self._legal_now: tuple[Mover, tuple[int, ...], tuple[Any, ...]] = (None, (), ())
        self._masks: dict[tuple[int, ...], npt.NDArray[np.int8]] = {}
        self._no_mask = self._mask_of(())

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        begin_episode(self)
        self.state = resolve_chance(self.game, self.game.new_state(), self._rng)
        if self._select_mover() is None:
            self._deads_step_first()
        self._show()

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        vector = self.encoder.observe_array(self.state, seat)
        mover, indices, _ = self._legal()
        mask = self._masks.get(indices) if mover == seat else self._no_mask
        if mask is None:
            if len(self._masks) >= MASKS_LIMIT:
                self._masks.clear()
            mask = self._masks[indices] = self._mask_of(indices)
        return {"observation": vector, "action_mask": mask.copy()}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = self._action_for(int(action))
        self._cumulative_rewards[agent] = 0.0
        self.state = resolve_chance(self.game, self.game.apply(self.state, chosen), self._rng)
        if self._select_mover() is None:
            self._clear_rewards()
            for seat, share in enumerate(win_shares(self.game, self.state)):
                self.rewards[agent_name(seat)] = share
            self.terminations = dict.fromkeys(self.agents, True)
            self._deads_step_first()
            self._accumulate_rewards()  # rewards are all zero before the end
        self._show()

    def _select_mover(self) -> Mover:
        mover = self.game.to_move(self.state)
        self.agent_selection = self.possible_agents[mover if mover is not None else 0]
        return mover

    def _legal(self) -> tuple[Mover, tuple[int, ...], tuple[Any, ...]]:
        """The seat to move, its legal integers (ascending) and their actions, found once
        per position."""
        state = self.state
        if self._legal_state is not state:
            self._legal_now = (self.game.to_move(state), *self.encoder.legal_pairs(state))
            self._legal_state = state
        return self._legal_now

    def _action_for(self, index: int) -> Any:
        _, indices, actions = self._legal()
        if index in indices:
            return actions[indices.index(index)]
        return self.encoder.action_for(self.state, index)  # raises, naming the legal ones

    def _mask_of(self, indices: tuple[int, ...]) -> npt.NDArray[np.int8]:
        mask = np.zeros(self.encoder.num_actions, dtype=np.int8)
        mask[list(indices)] = 1
        return mask

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        picture = self.game.render(self.state)
        if self.render_mode == "ansi":
            return picture
        print(picture)
        return None

    def _show(self) -> None:
        if self.render_mode == "human":
            self.render()

    def close(self) -> None:
        pass


def reset_first(name: str) -> property:
    """The environment's attribute `name`, read directly once reset: the wrapper's own look-up
    of a missing attribute goes through a raised AttributeError on every read."""

    def read(wrapper: OrderEnforced) -> Any:
        if not wrapper._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(wrapper.env, name)

    return property(read)


class OrderEnforced(OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper that reads the environment's state and `last`
    directly once reset; before a reset it refuses them as the inherited one does."""

    agents = reset_first("agents")
    agent_selection = reset_first("agent_selection")
    rewards = reset_first("rewards")
    terminations = reset_first("terminations")
    truncations = reset_first("truncations")
    infos = reset_first("infos")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)  # type: ignore[no-any-return]  # raises
        return self.env.last(observe)  # type: ignore[no-any-return]


def raw_env(
    game: str, options: Mapping[str, JsonValue] | None = None, render_mode: str | None = None
) -> SpieltischAEC:
    return SpieltischAEC(game, options, render_mode)


def env(
    game: str, options: Mapping[str, JsonValue] | None = None, render_mode: str | None = None
) -> AECEnv:
    """The AEC environment of `game` with `options` (missing ones take their defaults), in
    PettingZoo's order-enforcing wrapper; its `unwrapped` is the `SpieltischAEC`."""
    return OrderEnforced(raw_env(game, options, render_mode))
