"""Pickomino and Karolinchen as OpenSpiel Python games, with exact chance nodes.

Importing this module registers them with `pyspiel.register_game`:

    import pyspiel
    import spieltisch.adapters.openspiel  # noqa: F401  (registers the games)
    game = pyspiel.load_game("spieltisch_pickomino", {"players": 3})

Actions are the integers of the game's encoder (`spieltisch.adapters.encoders`); chance
outcomes (every roll as face counts, start seats, tail fruits) are the integers of its chance
vocabulary, with the rules' exact probabilities converted to floats. Both games have perfect
information. Returns are each seat's share of the win (1/k for each of k winners, else 0), so
they sum to 1. The observation tensor is the encoder's vector for the observing seat; the
observation string, like `str(state)`, is the game's text picture followed by the position as
one line of JSON (the picture alone does not show the order of a stack or a row of cards).

Parameters: every option of the game, with the same name and default (`PARAMETERS`), e.g.
`pyspiel.load_game("spieltisch_karolinchen(players=3,start_seat=1,tail_fruits=random)")`.
An OpenSpiel parameter has one type, so a random `start_seat` is written -1 (`RANDOM_SEAT`).

Riff Raff is not offered here: its placements are settled by a physics simulation whose
outcomes cannot be enumerated, while OpenSpiel's explicit chance nodes need them listed.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from spieltisch.adapters.encoding import Encoder, LegalPairs, encoder_for, win_shares
from spieltisch.core.protocol import CHANCE, Game, JsonValue
from spieltisch.core.registry import game_class, make_game

__all__ = [
    "MAX_GAME_LENGTH",
    "PARAMETERS",
    "RANDOM_SEAT",
    "SHORT_NAMES",
    "KarolinchenSpiel",
    "PickominoSpiel",
    "SpieltischGame",
    "SpieltischState",
    "register_games",
]

RANDOM_SEAT = -1
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
CHANCE_PLAYER = int(pyspiel.PlayerId.CHANCE)
"""The `start_seat` parameter for a start seat drawn at random (the option 'random')."""


def _parameter(option: str, value: Any) -> Any:
    return RANDOM_SEAT if option == "start_seat" and value == "random" else value


def _option(parameter: str, value: Any) -> JsonValue:
    return "random" if parameter == "start_seat" and value == RANDOM_SEAT else value


def _parameters(name: str) -> dict[str, Any]:
    """Every option of game `name` with its default, as OpenSpiel parameters."""
    defaults = make_game(name).options_json()
    return {option: _parameter(option, default) for option, default in defaults.items()}


PARAMETERS: dict[str, dict[str, Any]] = {
    name: _parameters(name) for name in ("pickomino", "karolinchen")
}
"""The OpenSpiel parameters of each game with their defaults: the game's options."""
SHORT_NAMES = {name: f"spieltisch_{name}" for name in PARAMETERS}
MAX_GAME_LENGTH = 100_000
"""Neither game has a hard bound (tiles can be stolen back and forth); this is far above any
game seen in simulation."""


def _game_type(name: str) -> pyspiel.GameType:
    cls = game_class(name)
    return pyspiel.GameType(
        short_name=SHORT_NAMES[name],
        long_name=f"spieltisch {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS[name],
    )


class SpieltischGame(pyspiel.Game):  # type: ignore[misc]
    """A spieltisch game behind OpenSpiel's `Game` interface."""

    def __init__(self, name: str, params: dict[str, Any] | None) -> None:
        values = {**PARAMETERS[name], **(params or {})}
        options = {parameter: _option(parameter, value) for parameter, value in values.items()}
        self.rules: Game[Any, Any] = make_game(name, options)
        self.encoder: Encoder = encoder_for(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoder.num_actions,
            max_chance_outcomes=self.encoder.num_chance_outcomes,
            num_players=self.rules.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_game_type(name), info, values)

    def new_initial_state(self) -> SpieltischState:
        return SpieltischState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SpieltischObserver:
        return SpieltischObserver(self.encoder)


class SpieltischState(pyspiel.State):  # type: ignore[misc]
    """One position; the spieltisch state inside is immutable, so copies share it."""

    def __init__(self, game: SpieltischGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.encoder = game.encoder
        self.position = game.rules.new_state()

    @property
    def position(self) -> Any:
        return self._position

    @position.setter
    def position(self, position: Any) -> None:
        """A new position; who is to move and what is legal are then found once for it."""
        self._position = position
        mover = self.rules.to_move(position)
        if mover is None:
            self._player = TERMINAL
        else:
            self._player = CHANCE_PLAYER if mover == CHANCE else mover
        self._legal: LegalPairs | None = None

    def current_player(self) -> int:
        return self._player

    def _legal_now(self) -> LegalPairs:
        """The legal integers, ascending, and their actions."""
        if self._legal is None:
            self._legal = self.encoder.legal_pairs(self._position)
        return self._legal

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._legal_now()[0])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self.encoder.chance_pairs(self._position))

    def _apply_action(self, action: int) -> None:
        if self._player == CHANCE_PLAYER:
            chosen = self.encoder.chance_outcome(action)
        else:
            indices, actions = self._legal_now()
            if action in indices:
                chosen = actions[indices.index(action)]
            else:  # raises, naming the legal ones
                chosen = self.encoder.action_for(self._position, action)
        self.position = self.rules.apply(self._position, chosen)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE_PLAYER:
            return self.rules.format_action(self.encoder.chance_outcome(action))
        return self.encoder.label_of(action)

    def is_terminal(self) -> bool:
        return self._player == TERMINAL

    def returns(self) -> list[float]:
        if self._player != TERMINAL:
            return [0.0] * self.rules.num_players
        return win_shares(self.rules, self.position)

    def __str__(self) -> str:
        exact = json.dumps(self.rules.state_to_json(self.position), separators=(",", ":"))
        return f"{self.rules.render(self.position)}\n{exact}"


class SpieltischObserver:
    """The encoder's observation vector as OpenSpiel's observer (`tensor` and `dict`)."""

    def __init__(self, encoder: Encoder) -> None:
        self.encoder = encoder
        self.tensor = np.zeros(encoder.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SpieltischState, player: int) -> None:
        self.tensor[:] = self.encoder.observe_array(state.position, player)

    def string_from(self, state: SpieltischState, player: int) -> str:
        return str(state)


class PickominoSpiel(SpieltischGame):
    """Pickomino for OpenSpiel (registered as spieltisch_pickomino)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("pickomino", params)


class KarolinchenSpiel(SpieltischGame):
    """Karolinchen for OpenSpiel (registered as spieltisch_karolinchen)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("karolinchen", params)


# Classes, not closures: OpenSpiel's registry keeps its factories until after the interpreter
# has shut down, and only a class outlives that without being freed.
_FACTORIES: dict[str, type[SpieltischGame]] = {
    "pickomino": PickominoSpiel,
    "karolinchen": KarolinchenSpiel,
}


def register_games() -> None:
    """Register Pickomino and Karolinchen with OpenSpiel (once; later calls do nothing)."""
    known = set(pyspiel.registered_names())
    for name, short_name in SHORT_NAMES.items():
        if short_name not in known:
            pyspiel.register_game(_game_type(name), _FACTORIES[name])


register_games()
