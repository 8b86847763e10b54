"""Reviews of finished games for the web table, built in a worker process and kept encoded.

A review solves every turn of a Pickomino game (a few tenths of a second), plays seeded
rollouts after every Karolinchen card choice (up to about 2 s of Python) or simulates noisy
trials of every Riff Raff placement (a minute or more of physics). It runs in the lobby's
review pool (`Lobby.reviews`: one worker process of its own, so the bots and the physics of
the tables in play never wait behind a review, and the review's Python never holds the
interpreter the event loop runs in), once per finished game; the encoded and compressed
answer is then served from the same memory as the game's record and replay
(`replays.FinishedGames`). A game still being played is never reviewed. What a review holds is
the game's own (`GameHooks.review`): each decision of its JSON carries `answers`, the choices
that solve it as a puzzle ("find the better choice"); the client replays a player's mistakes
and blunders as puzzles and checks an answer against that list.
"""

from __future__ import annotations

from spieltisch.core.record import GameRecord
from spieltisch.server.hooks import hooks_for
from spieltisch.server.replays import Encoded, FinishedGames
from spieltisch.server.table import LiveTable, TableError
from spieltisch.server.work import Work

__all__ = ["encoded_review", "review"]


async def review(kept: FinishedGames, table: LiveTable, work: Work) -> Encoded:
    """The review of a finished table's game, built by `work` (`TableError` for a game
    without one, or one that is not over)."""
    if hooks_for(table.game.name).review is None:
        raise TableError("no_review", f"{table.game.title} games have no review.")
    if not table.over:
        raise TableError("not_over", "A game is reviewed once it is over, never during it.")
    record = table.record()  # taken on the event loop; the build reads only this
    return await kept.answer_by(
        "review", table, lambda: work.run(encoded_review, table.game.name, record)
    )


def encoded_review(game_name: str, record: GameRecord) -> Encoded:
    """The review of `record` as encoded JSON (a job for a worker process)."""
    review_json = hooks_for(game_name).review
    if review_json is None:
        raise ValueError(f"{game_name} games have no review")
    return Encoded.of(review_json(record))
