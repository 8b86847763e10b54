"""The one place where games are found: CLI, bots, analysis and tests iterate it."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, TypeVar

from spieltisch.core.protocol import Game

__all__ = ["game_class", "game_names", "make_game", "register_game"]

_GAMES: dict[str, type[Game[Any, Any]]] = {}
G = TypeVar("G", bound=type[Game[Any, Any]])


def register_game(cls: G) -> G:
    """Class decorator: make a game findable by its `name`."""
    _GAMES[cls.name] = cls
    return cls


def game_names() -> list[str]:
    """Every game's name, without loading any game."""
    from spieltisch.games import GAME_PACKAGES

    return sorted({*GAME_PACKAGES, *_GAMES})


def game_class(name: str) -> type[Game[Any, Any]]:
    """The class of game `name`; its rules are imported (and so registered) on first use."""
    if name not in _GAMES and name in game_names():
        importlib.import_module(f"spieltisch.games.{name}.rules")
    try:
        return _GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game '{name}'; the games are: {', '.join(game_names())}") from None


def make_game(name: str, options: Mapping[str, Any] | None = None) -> Game[Any, Any]:
    """The game `name` with `options` (missing options take their defaults)."""
    return game_class(name)(options)
