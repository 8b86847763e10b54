"""Bots: the protocol, generic bots and per-game bots.

A game's bots live in the module named as the game and are registered when that game's bots
are first asked for (`bot_names`, `make_bot`), so one game's bots load without the others'."""

from spieltisch.bots.base import Bot, bot_names, make_bot, register_bot
from spieltisch.bots.match import MatchResult, play_match

__all__ = [
    "Bot",
    "MatchResult",
    "bot_names",
    "make_bot",
    "play_match",
    "register_bot",
]
