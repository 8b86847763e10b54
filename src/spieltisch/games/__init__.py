"""Every game of the table, one package each, named as the game. The registry imports a
game's `rules` only when its game is asked for, so a command that needs one game loads only it.

A game package names its main classes, but loads each from its module on first use: importing
`data` or `state` of a game (as its solver does) loads neither its rules nor its notation."""

from __future__ import annotations

GAME_PACKAGES = ("karolinchen", "pickomino", "riffraff")

__all__ = ["GAME_PACKAGES"]
