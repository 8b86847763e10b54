"""A player's rated games as a profile shows them, read from the rating history.

Every counted end of a rated game leaves one `rating_changes` row per signed-in player
(`server.rated`): the place (0 is first, equal places are ties, who left or ran out of time
is last), the number of seats and the rating before and after. From these rows come a
rating's history (the chart), the latest games (with their replays), the win rate and
average place by the number of seats, and the record against another player. Each read is
one bounded query on the rows' indexes; the routes run them in the storage's reader threads.

Only rated games are in the history: a casual game's finishing order is not stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, case, func, select

from spieltisch.ratings.model import Rating
from spieltisch.server.rated import PlayerRating, ratings_of
from spieltisch.server.schema import ACCOUNTS, RATING_CHANGES

__all__ = [
    "HISTORY_MOST",
    "RECENT_MOST",
    "HeadToHead",
    "PlacesBySeats",
    "ProfileRows",
    "RatedGame",
    "fellow_players",
    "head_to_head",
    "places_by_seats",
    "profile_rows",
    "rating_history",
    "recent_games",
]

HISTORY_MOST = 200
"""The latest rated games per game that a rating chart shows."""
RECENT_MOST = 10
"""The latest rated games a profile lists."""


@dataclass(frozen=True)
class RatedGame:
    """One rated game of one player: where they finished and what it did to the rating."""

    table_id: str
    game: str
    at: float
    place: int  # 0 is first
    players: int
    before: Rating
    after: Rating


@dataclass(frozen=True)
class PlacesBySeats:
    """A player's rated games in one game at one table size."""

    game: str
    players: int
    games: int
    wins: int  # first place, a shared first place included
    average_place: float  # 1 is first


@dataclass(frozen=True)
class HeadToHead:
    """Two players' rated games together in one game: how often each finished ahead."""

    game: str
    games: int
    ahead: int  # the first player finished ahead of the second
    behind: int
    tied: int


_C = RATING_CHANGES.c


@dataclass(frozen=True)
class ProfileRows:
    """Everything a profile shows, read in one go."""

    ratings: list[PlayerRating]
    history: dict[str, list[RatedGame]]
    recent: list[RatedGame]
    fellows: dict[str, list[str]]
    by_seats: list[PlacesBySeats]


def profile_rows(engine: Engine, account_id: str) -> ProfileRows:
    """The player's ratings with their histories, latest games and places by table size."""
    ratings = ratings_of(engine, account_id)
    recent = recent_games(engine, account_id)
    return ProfileRows(
        ratings,
        rating_history(engine, account_id, [r.game for r in ratings]),
        recent,
        fellow_players(engine, account_id, [g.table_id for g in recent]),
        places_by_seats(engine, account_id),
    )


def rating_history(
    engine: Engine, account_id: str, games: Sequence[str], most: int = HISTORY_MOST
) -> dict[str, list[RatedGame]]:
    """Per game, the player's latest `most` rated games, oldest first."""
    found: dict[str, list[RatedGame]] = {}
    with engine.connect() as db:
        for game in games:
            query = (
                select(RATING_CHANGES)
                .where(_C.account_id == account_id, _C.game == game)
                .order_by(_C.at.desc(), _C.table_id.desc())
                .limit(most)
            )
            found[game] = [_rated_game(r) for r in db.execute(query)][::-1]
    return found


def recent_games(
    engine: Engine, account_id: str, most: int | None = RECENT_MOST
) -> list[RatedGame]:
    """The player's latest `most` rated games of any game (None: all), newest first."""
    query = (
        select(RATING_CHANGES)
        .where(_C.account_id == account_id)
        .order_by(_C.at.desc(), _C.table_id.desc())
        .limit(most)
    )
    with engine.connect() as db:
        return [_rated_game(r) for r in db.execute(query)]


def places_by_seats(engine: Engine, account_id: str) -> list[PlacesBySeats]:
    """Per game and table size, the player's rated games, wins and average place."""
    query = (
        select(
            _C.game,
            _C.players,
            func.count().label("games"),
            func.sum(case((_C.place == 0, 1), else_=0)).label("wins"),
            func.sum(_C.place).label("places"),
        )
        .where(_C.account_id == account_id)
        .group_by(_C.game, _C.players)
        .order_by(_C.game, _C.players)
    )
    with engine.connect() as db:
        rows = db.execute(query).all()
    return [
        PlacesBySeats(r.game, r.players, r.games, int(r.wins), 1 + int(r.places) / r.games)
        for r in rows
    ]


def fellow_players(
    engine: Engine, account_id: str, table_ids: Sequence[str]
) -> dict[str, list[str]]:
    """Per table, the names of the other signed-in players rated in it, by name."""
    query = (
        select(_C.table_id, ACCOUNTS.c.name)
        .join(ACCOUNTS, ACCOUNTS.c.id == _C.account_id)
        .where(_C.table_id.in_(table_ids), _C.account_id != account_id)
        .order_by(_C.table_id, ACCOUNTS.c.name_key)
    )
    found: dict[str, list[str]] = {table_id: [] for table_id in table_ids}
    with engine.connect() as db:
        for row in db.execute(query):
            found[row.table_id].append(row.name)
    return found


def head_to_head(engine: Engine, account_id: str, other_id: str) -> list[HeadToHead]:
    """Per game, the rated games both players finished at one table, and who was ahead."""
    mine, theirs = RATING_CHANGES.alias("mine"), RATING_CHANGES.alias("theirs")
    query = (
        select(
            mine.c.game,
            func.count().label("games"),
            func.sum(case((mine.c.place < theirs.c.place, 1), else_=0)).label("ahead"),
            func.sum(case((mine.c.place > theirs.c.place, 1), else_=0)).label("behind"),
        )
        .join(
            theirs,
            (theirs.c.table_id == mine.c.table_id) & (theirs.c.account_id == other_id),
        )
        .where(mine.c.account_id == account_id)
        .group_by(mine.c.game)
        .order_by(mine.c.game)
    )
    with engine.connect() as db:
        rows = db.execute(query).all()
    return [
        HeadToHead(r.game, r.games, int(r.ahead), int(r.behind), r.games - r.ahead - r.behind)
        for r in rows
    ]


def _rated_game(r: Any) -> RatedGame:
    return RatedGame(
        r.table_id,
        r.game,
        r.at,
        r.place,
        r.players,
        Rating(r.mu_before, r.sigma_before),
        Rating(r.mu, r.sigma),
    )
