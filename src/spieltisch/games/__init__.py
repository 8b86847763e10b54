"""Every game of the table, one package each, named as the game. The registry imports a
game's `rules` only when its game is asked for, so a command that needs one game loads only it.

A game package names its main classes, but loads each from its module on first use: importing
`data` or `state` of a game (as its solver does) loads neither its rules nor its notation."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

GAME_PACKAGES = ("karolinchen", "pickomino", "riffraff")

__all__ = ["GAME_PACKAGES", "lazy_names"]


def lazy_names(package: str, homes: Mapping[str, Sequence[str]]) -> Callable[[str], Any]:
    """A module `__getattr__` for `package` that imports each name of `homes` (module: names)
    from its module when it is first asked for."""
    home_of = {name: module for module, names in homes.items() for name in names}

    def attribute(name: str) -> Any:
        if name not in home_of:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{home_of[name]}"), name)

    return attribute
