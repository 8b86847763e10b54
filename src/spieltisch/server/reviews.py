"""Reviews of finished games for the web table, built beside the event loop and kept encoded.

A review solves every turn of a Pickomino game (a few tenths of a second) or plays seeded
rollouts after every Karolinchen card choice (up to about 2 s): it runs in a thread, once per
finished game, and is then served from the same memory as the game's record and replay
(`replays.FinishedGames`). A game still being played is never reviewed. What a review holds is
the game's own (`GameHooks.review`): each decision of its JSON carries `answers`, the choices
that solve it as a puzzle ("find the better choice"); the client replays a player's mistakes
and blunders as puzzles and checks an answer against that list.
"""

from __future__ import annotations

from collections.abc import Callable

from spieltisch.server.hooks import hooks_for
from spieltisch.server.replays import Encoded, FinishedGames
from spieltisch.server.table import LiveTable, TableError

__all__ = ["review"]


async def review(kept: FinishedGames, table: LiveTable) -> Encoded:
    """The review of a finished table's game (`TableError` for a game without one, or one
    that is not over)."""
    if hooks_for(table.game.name).review is None:
        raise TableError("no_review", f"{table.game.title} games have no review.")
    if not table.over:
        raise TableError("not_over", "A game is reviewed once it is over, never during it.")
    return await kept.answer("review", table, _review_build)


def _review_build(table: LiveTable) -> Callable[[], Encoded]:
    record, review_json = table.record(), hooks_for(table.game.name).review
    assert review_json is not None
    return lambda: Encoded.of(review_json(record))
