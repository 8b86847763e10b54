"""Game-specific statistics for simulations: one small hook per game, found by game name.

A hook has two parts. `collect(game, states, actions)` runs in the worker once per finished game
and returns that game's raw numbers: scalars or per-seat lists, which the simulator sums over all
games. `summarize(totals, games)` turns the sums into the reported statistics; without it, every
total is reported as its mean per game. A new game adds its hook here (or in its own module that
calls `register_stats`), without touching the simulator.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import median
from typing import Any

from spieltisch.core.protocol import Game, JsonValue
from spieltisch.games.pickomino.state import PickominoState
from spieltisch.games.riffraff.data import PIECES
from spieltisch.games.riffraff.rules import RiffRaff
from spieltisch.games.riffraff.state import RiffRaffState, Settled

__all__ = [
    "StatsHook",
    "Totals",
    "add_totals",
    "mean_per_game",
    "register_stats",
    "stats_hook",
]

Number = int | float
Totals = dict[str, Number | list[Number]]
"""Raw numbers of one game, or their sums over many: scalars or per-seat lists."""

Collect = Callable[[Game[Any, Any], Sequence[Any], Sequence[Any]], Totals]
Summarize = Callable[[Totals, int], dict[str, JsonValue]]


def mean_per_game(totals: Totals, games: int) -> dict[str, JsonValue]:
    """Every total divided by the number of games (per-seat lists element by element)."""
    return {
        key: [v / games for v in value] if isinstance(value, list) else value / games
        for key, value in totals.items()
    }


@dataclass(frozen=True)
class StatsHook:
    collect: Collect
    summarize: Summarize = mean_per_game


_HOOKS: dict[str, StatsHook] = {}


def register_stats(game_name: str, collect: Collect, summarize: Summarize | None = None) -> None:
    """Report `collect`'s numbers for every simulated game of `game_name`."""
    _HOOKS[game_name] = StatsHook(collect, summarize or mean_per_game)


def stats_hook(game_name: str) -> StatsHook | None:
    return _HOOKS.get(game_name)


def add_totals(totals: Totals, values: Mapping[str, Number | list[Number]]) -> None:
    """Add one game's numbers to `totals` in place."""
    for key, value in values.items():
        old = totals.get(key)
        if isinstance(value, list):
            if old is None:
                totals[key] = list(value)
            elif isinstance(old, list) and len(old) == len(value):
                totals[key] = [a + b for a, b in zip(old, value, strict=True)]
            else:
                raise ValueError(f"statistic '{key}' changed its shape between games")
        elif old is None:
            totals[key] = value
        elif isinstance(old, list):
            raise ValueError(f"statistic '{key}' changed its shape between games")
        else:
            totals[key] = old + value


# --- Pickomino -------------------------------------------------------------------------------
def pickomino_collect(
    game: Game[Any, Any], states: Sequence[PickominoState], actions: Sequence[Any]
) -> Totals:
    """Per seat: worms at the end, turns, failed turns and steals.

    A turn ends where the state's turn counter moves on (a stop, a take that ends the turn by
    itself, or a roll with no choosable face). It failed unless the player's stack grew; it was
    a steal if the stack grew while the grill kept all its tiles.
    """
    players = game.num_players
    turns, failed, steals = [0] * players, [0] * players, [0] * players
    before = states[0]
    for after in states:
        if after.turn != before.turn:
            seat = before.seat
            turns[seat] += 1
            if len(after.stacks[seat]) <= len(before.stacks[seat]):
                failed[seat] += 1
            elif len(after.grill) == len(before.grill):
                steals[seat] += 1
        before = after
    worms: list[Number] = list(game.scores(states[-1]))
    return {"worms": worms, "turns": list(turns), "failed": list(failed), "steals": list(steals)}


def _ratio(part: Number, whole: Number) -> float:
    return part / whole if whole else 0.0


def _per_seat(totals: Totals, key: str) -> list[Number]:
    value = totals.get(key)
    if not isinstance(value, list):
        raise ValueError(f"statistic '{key}' must be a per-seat list")
    return value


def pickomino_summarize(totals: Totals, games: int) -> dict[str, JsonValue]:
    worms, turns = _per_seat(totals, "worms"), _per_seat(totals, "turns")
    failed, steals = _per_seat(totals, "failed"), _per_seat(totals, "steals")
    return {
        "mean_worms": [w / games for w in worms],
        "fail_rate": _ratio(sum(failed), sum(turns)),
        "fail_rate_by_seat": [_ratio(f, t) for f, t in zip(failed, turns, strict=True)],
        "steals_per_game": sum(steals) / games,
        "steals_per_game_by_seat": [s / games for s in steals],
    }


register_stats("pickomino", pickomino_collect, pickomino_summarize)


# --- Riff Raff -------------------------------------------------------------------------------
def riffraff_collect(
    game: Game[Any, Any], states: Sequence[RiffRaffState], actions: Sequence[Any]
) -> Totals:
    """Per seat: placements and the pieces that fell during them; pieces caught; whether a
    player ran out of cargo before the last round was over; and the most pieces on board at
    once, as a count and as a one-game histogram (summed over games, it gives the median)."""
    players = game.num_players
    placements, fallen = [0] * players, [0] * players
    for before, action in zip(states, actions, strict=False):
        if isinstance(action, Settled) and before.active is not None:
            placements[before.active] += 1
            fallen[before.active] += len(action.fallen)
    end = states[-1]
    last = game.options.rounds if isinstance(game, RiffRaff) else end.round
    emptied = any(end.supply_size(seat) == 0 for seat in range(players))
    early = int(emptied and (end.round < last or bool(end.to_play)))
    peak = max(len(state.board.pieces) for state in states)
    return {
        "placements": list(placements),
        "fallen": list(fallen),
        "caught": list(end.caught),
        "early_end": early,
        "peak_on_board": peak,
        "peak_on_board_games": [int(count == peak) for count in range(_MOST_CARGO + 1)],
    }


_MOST_CARGO = 4 * len(PIECES)  # four sets of cargo in every game


def _histogram_median(counts: list[Number]) -> float:
    """The median of the values 0, 1, 2, ... seen `counts[value]` times each."""
    values = [value for value, count in enumerate(counts) for _ in range(int(count))]
    return float(median(values)) if values else 0.0


def riffraff_summarize(totals: Totals, games: int) -> dict[str, JsonValue]:
    placements, fallen = _per_seat(totals, "placements"), _per_seat(totals, "fallen")
    caught = _per_seat(totals, "caught")
    early = totals.get("early_end", 0)
    return {
        "fallen_per_placement": _ratio(sum(fallen), sum(placements)),
        "fallen_per_placement_by_seat": [
            _ratio(f, p) for f, p in zip(fallen, placements, strict=True)
        ],
        "caught_per_game": sum(caught) / games,
        "caught_per_game_by_seat": [c / games for c in caught],
        "early_end_rate": _ratio(early if isinstance(early, int | float) else 0, games),
        "peak_on_board_median": _histogram_median(_per_seat(totals, "peak_on_board_games")),
        "peak_on_board_mean": _ratio(_scalar(totals, "peak_on_board"), games),
    }


def _scalar(totals: Totals, key: str) -> Number:
    value = totals.get(key, 0)
    if isinstance(value, list):
        raise ValueError(f"statistic '{key}' must be a number")
    return value


register_stats("riffraff", riffraff_collect, riffraff_summarize)
