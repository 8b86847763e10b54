"""Bots: the protocol, generic bots and per-game bots. Importing this registers them all."""

from spieltisch.bots import karolinchen, pickomino, random_bot, riffraff
from spieltisch.bots.base import Bot, bot_names, make_bot, register_bot
from spieltisch.bots.match import MatchResult, play_match

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
