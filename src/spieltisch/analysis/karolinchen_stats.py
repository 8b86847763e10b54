"""Karolinchen statistics for simulations: eating phases, turns, the first player's wins.

Per game: `eating_phases` (the middle ran empty and every worm ate), `turns` (turns begun, the
winning one included), `first_player_wins` (1 when the seat that started won) and, per seat,
the fruits eaten or covered at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from spieltisch.analysis.game_stats import Number, Totals, register_stats
from spieltisch.core.protocol import Game, JsonValue
from spieltisch.games.karolinchen.rules import Playout
from spieltisch.games.karolinchen.state import KarolinchenState, Phase

__all__ = ["karolinchen_collect", "karolinchen_summarize", "playout_totals"]

_DRAWN_AT_START = (Phase.TAILS, Phase.START)
"""Phases before the start seat is known."""


def _eaten(state: KarolinchenState) -> int:
    return sum(state.eaten)


def karolinchen_collect(
    game: Game[Any, Any], states: Sequence[KarolinchenState], actions: Sequence[Any]
) -> Totals:
    """An eating phase is a step where the eaten fruits grow (only eating makes them grow)."""
    eatings = sum(_eaten(after) > _eaten(before) for before, after in pairwise(states))
    start = next(s.seat for s in states if s.phase not in _DRAWN_AT_START)
    return _totals(game, start, states[-1], eatings)


def playout_totals(game: Game[Any, Any], playout: Playout) -> Totals:
    """The same numbers for a game of `Karolinchen.play_out`, which counts its eating phases."""
    return _totals(game, playout.start.seat, playout.state, playout.eating_phases)


def _totals(game: Game[Any, Any], start: int, end: KarolinchenState, eatings: int) -> Totals:
    fruits: list[Number] = list(game.scores(end))
    return {
        "eating_phases": eatings,
        "turns": end.turn + 1,
        "first_player_wins": int(game.winners(end) == (start,)),
        "fruits": fruits,
    }


def karolinchen_summarize(totals: Totals, games: int) -> dict[str, JsonValue]:
    def scalar(key: str) -> float:
        value = totals.get(key, 0)
        if isinstance(value, list):
            raise ValueError(f"statistic '{key}' must be a number")
        return value / games

    fruits = totals.get("fruits", [])
    return {
        "mean_eating_phases": scalar("eating_phases"),
        "mean_turns_per_game": scalar("turns"),
        "first_player_win_rate": scalar("first_player_wins"),
        "mean_fruits": [f / games for f in fruits] if isinstance(fruits, list) else [],
    }


register_stats("karolinchen", karolinchen_collect, karolinchen_summarize)
