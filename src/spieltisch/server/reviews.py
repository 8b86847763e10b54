"""Reviews of finished games for the web table, built beside the event loop and kept encoded.

A review solves every turn of a Pickomino game (a few tenths of a second) or plays seeded
rollouts after every Karolinchen card choice (up to about 2 s): it runs in a thread, once per
finished game, and is then served from the same memory as the game's record and replay
(`replays.FinishedGames`). A game still being played is never reviewed.

Each decision of the JSON gains `answers`: the choices that solve it as a puzzle ("find the
better choice"), those that lose less than an inaccuracy. The client replays a player's
mistakes and blunders as puzzles and checks an answer against that list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spieltisch.analysis.review.grades import WIN_INACCURACY
from spieltisch.core.record import GameRecord
from spieltisch.server.replays import Encoded, FinishedGames
from spieltisch.server.table import LiveTable, TableError

__all__ = ["REVIEWED", "review"]

REVIEWED = ("pickomino", "karolinchen")
"""The games that have a review."""


async def review(kept: FinishedGames, table: LiveTable) -> Encoded:
    """The review of a finished table's game (`TableError` for a game without one, or one
    that is not over)."""
    if table.game.name not in REVIEWED:
        raise TableError("no_review", f"{table.game.name} games have no review.")
    if not table.over:
        raise TableError("not_over", "A game is reviewed once it is over, never during it.")
    return await kept.answer("review", table, _review_build)


def _review_build(table: LiveTable) -> Callable[[], Encoded]:
    record = table.record()
    return lambda: Encoded.of(review_json(record))


def review_json(record: GameRecord) -> dict[str, Any]:
    """The review as JSON, each decision with the answers that solve it as a puzzle."""
    if record.game == "karolinchen":
        from spieltisch.analysis.review.karolinchen import review_karolinchen

        cards = review_karolinchen(record).to_json()
        for decision in cards["decisions"]:
            decision["answers"] = _close_to_best(decision["choices"])
        return cards
    from spieltisch.analysis.review.pickomino import review_pickomino, solves_puzzle

    reviewed = review_pickomino(record)
    data = reviewed.to_json()
    for decision, found in zip(data["decisions"], reviewed.decisions, strict=True):
        decision["answers"] = [c.action for c in found.choices if solves_puzzle(found, c.action)]
    return data


def _close_to_best(choices: list[dict[str, Any]]) -> list[str]:
    """Karolinchen: the card choices whose estimated win chance is within an inaccuracy of
    the best one's."""
    best = max(c["p_win"] for c in choices)
    return [c["action"] for c in choices if best - c["p_win"] < WIN_INACCURACY]
