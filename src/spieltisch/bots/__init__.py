"""Bots: the protocol, generic bots and per-game bots. Importing this registers them all."""

from spieltisch.bots import karolinchen, pickomino, random_bot, riffraff
from spieltisch.bots.base import Bot, Bounded, bot_names, bound_parameters, make_bot, register_bot
from spieltisch.bots.match import MatchResult, play_match

# Careful's work per placement is samples x candidates physics trials (default 3 x 6, about
# 1 s late in a game); the bounds belong in its own `parameters` in bots/riffraff.py.
bound_parameters(riffraff.CarefulBot, samples=Bounded(int, 1, 8), candidates=Bounded(int, 1, 12))

__all__ = [
    "Bot",
    "MatchResult",
    "bot_names",
    "karolinchen",
    "make_bot",
    "pickomino",
    "play_match",
    "random_bot",
    "register_bot",
    "riffraff",
]
