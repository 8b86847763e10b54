"""Pickomino at the web table: the odds for the player to move, from the turn solver and the
win-probability model, the friendly bot of its guided first game, and the review of a
finished game."""

from __future__ import annotations

from typing import Any

from spieltisch.core.protocol import Game, JsonValue
from spieltisch.core.record import GameRecord
from spieltisch.games.pickomino.rules import Pickomino
from spieltisch.games.pickomino.solver import solve_turn
from spieltisch.games.pickomino.state import Phase
from spieltisch.games.pickomino.winner import shipped_win_chances
from spieltisch.server.hooks import GameHooks

__all__ = ["HOOKS", "odds_for", "review_json"]


def odds_for(game: Game[Any, Any], state: Any) -> list[dict[str, JsonValue]] | None:
    """Each legal action with its expected worms, chance of failing and (where the `winner`
    bot has a model for this many players) chance to win the game, or None."""
    if not isinstance(game, Pickomino) or state.phase not in (Phase.CHOOSE, Phase.DECIDE):
        return None
    wins = shipped_win_chances(game, state) or {}
    found: list[dict[str, JsonValue]] = []
    for odds in solve_turn(game, state).action_odds(state):
        entry: dict[str, JsonValue] = {
            "action": game.format_action(odds.action),
            "expected_worms": round(odds.expected_worms, 4),
            "p_fail": round(odds.p_fail, 4),
        }
        if odds.action in wins:
            entry["p_win"] = round(wins[odds.action], 4)
        found.append(entry)
    return found


def review_json(record: GameRecord) -> dict[str, Any]:
    """The review, each decision with the choices that solve it as a puzzle."""
    from spieltisch.analysis.review.pickomino import review_pickomino, solves_puzzle

    reviewed = review_pickomino(record)
    data = reviewed.to_json()
    for decision, found in zip(data["decisions"], reviewed.decisions, strict=True):
        decision["answers"] = [c.action for c in found.choices if solves_puzzle(found, c.action)]
    return data


# a turn is several rolls and choices, all on one clock
HOOKS = GameHooks(tutor="greedy", odds=odds_for, review=review_json, turn_clock=90.0)
