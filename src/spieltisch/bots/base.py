"""The bot protocol and the bot registry.

A bot plays one seat of one game. It owns its random generator (seeded by whoever made it),
so a bot's choices never disturb the dice of the game.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from spieltisch.core.protocol import Game

__all__ = ["ANY_GAME", "Bot", "bot_names", "make_bot", "register_bot"]

ANY_GAME = "*"
_BOTS: dict[tuple[str, str], type[Bot]] = {}
B = TypeVar("B", bound="type[Bot]")


class Bot(ABC):
    """A player for one game; `choose` is called only when the bot's seat is to move."""

    name: ClassVar[str]
    description: ClassVar[str] = ""

    def __init__(self, game: Game[Any, Any], rng: random.Random) -> None:
        self.game = game
        self.rng = rng

    @abstractmethod
    def choose(self, state: Any) -> Any:
        """A legal action for the seat to move in `state`."""


def register_bot(game_name: str) -> Callable[[B], B]:
    """Class decorator: offer a bot for `game_name` (or `ANY_GAME`) under its `name`."""

    def add(cls: B) -> B:
        _BOTS[(game_name, cls.name)] = cls
        return cls

    return add


def _load_bots() -> None:
    import spieltisch.bots  # noqa: F401  (importing the package registers every bot)


def bot_names(game_name: str) -> list[str]:
    """The bots that can play `game_name`, generic ones included."""
    _load_bots()
    return sorted({name for game, name in _BOTS if game in (game_name, ANY_GAME)})


def make_bot(game: Game[Any, Any], name: str, seed: int | None = None) -> Bot:
    """A bot called `name` for `game`, with its own generator seeded by `seed`."""
    _load_bots()
    cls = _BOTS.get((game.name, name)) or _BOTS.get((ANY_GAME, name))
    if cls is None:
        known = ", ".join(bot_names(game.name))
        raise KeyError(f"no bot '{name}' for {game.name}; the bots are: {known}")
    return cls(game, random.Random(seed))
