"""The bot protocol and the bot registry.

A bot plays one seat of one game. It owns its random generator (seeded by whoever made it),
so a bot's choices never disturb the dice of the game.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from spieltisch.core.protocol import Game
from spieltisch.core.registry import game_names

__all__ = [
    "ANY_GAME",
    "Bot",
    "Bounded",
    "bot_names",
    "make_bot",
    "read_bot_spec",
    "register_bot",
]

ANY_GAME = "*"
_BOTS: dict[tuple[str, str], type[Bot]] = {}
B = TypeVar("B", bound="type[Bot]")


@dataclass(frozen=True)
class Bounded:
    """A bot parameter that must lie between `low` and `high`, e.g. a search depth whose cost
    grows too fast to be left open."""

    kind: Callable[[str], float]
    low: float
    high: float

    def __call__(self, text: str) -> float:
        value = self.kind(text)
        if not self.low <= value <= self.high:
            raise ValueError(f"{value} is out of range")
        return value


class Bot(ABC):
    """A player for one game; `choose` is called only when the bot's seat is to move."""

    name: ClassVar[str]
    description: ClassVar[str] = ""
    # settable as 'name:key=value:key=value'; each reads its value from the text
    parameters: ClassVar[dict[str, Callable[[str], Any]]] = {}
    draws: ClassVar[bool] = True
    """Whether `choose` ever draws from `rng`. Before each game, simulations seed the generator
    of a bot that draws and leave the others alone: seeding costs more than a greedy bot's
    decisions in a whole game."""

    def __init__(self, game: Game[Any, Any], rng: random.Random) -> None:
        self.game = game
        self.rng = rng

    @abstractmethod
    def choose(self, state: Any) -> Any:
        """A legal action for the seat to move in `state`."""

    def think_within(self, seconds: float) -> None:
        """Ask for each decision within `seconds` of wall time from now (the web table does;
        simulations never, so a seeded game stays the same). A bot that searches then keeps
        its best so far; the others have nothing to cut short."""
        return


def register_bot(game_name: str) -> Callable[[B], B]:
    """Class decorator: offer a bot for `game_name` (or `ANY_GAME`) under its `name`."""

    def add(cls: B) -> B:
        _BOTS[(game_name, cls.name)] = cls
        return cls

    return add


def _load_bots(game_name: str) -> None:
    """Register the generic bots and those of `game_name` (in the module named as the game)."""
    importlib.import_module("spieltisch.bots.random_bot")
    if game_name in game_names():
        importlib.import_module(f"spieltisch.bots.{game_name}")


def bot_names(game_name: str) -> list[str]:
    """The bots that can play `game_name`, generic ones included."""
    _load_bots(game_name)
    return sorted({name for game, name in _BOTS if game in (game_name, ANY_GAME)})


def make_bot(game: Game[Any, Any], spec: str, seed: int | None = None) -> Bot:
    """The bot `spec` for `game` with its own generator seeded by `seed`.

    `spec` is a bot name, optionally with parameters: 'optimal:steal_weight=0.5'.
    """
    cls, values = read_bot_spec(game.name, spec)
    bot = cls(game, random.Random(seed))
    for key, value in values.items():
        setattr(bot, key, value)
    return bot


def read_bot_spec(game_name: str, spec: str) -> tuple[type[Bot], dict[str, Any]]:
    """The bot class and parameter values of a spec; raises KeyError naming the mistake."""
    _load_bots(game_name)
    name, *settings = spec.split(":")
    cls = _BOTS.get((game_name, name)) or _BOTS.get((ANY_GAME, name))
    if cls is None:
        known = ", ".join(bot_names(game_name))
        raise KeyError(f"no bot '{name}' for {game_name}; the bots are: {known}")
    return cls, dict(_read_parameter(cls, setting) for setting in settings)


def _read_parameter(cls: type[Bot], setting: str) -> tuple[str, Any]:
    key, _, text = setting.partition("=")
    kind = cls.parameters.get(key)
    if kind is None:
        known = ", ".join(cls.parameters) or "none"
        raise KeyError(f"bot '{cls.name}' has no parameter '{key}'; its parameters: {known}")
    try:
        return key, kind(text)
    except ValueError:
        raise KeyError(f"bot parameter {key}={text!r} should be {_describe(kind)}") from None


def _describe(kind: Callable[[str], Any]) -> str:
    """What a parameter takes, for an error: 'a number', 'a whole number from 0 to 2'."""
    if isinstance(kind, Bounded):
        return f"{_describe(kind.kind)} from {kind.low:g} to {kind.high:g}"
    if kind is int:
        return "a whole number"
    return "a number" if kind is float else "a valid value"
