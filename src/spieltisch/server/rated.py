"""Rated tables: a finished game's result into the players' ratings, and reading them back.

When a rated table's game ends, the worker that stores the end (`Store.add_entries`) updates
the ratings of its signed-in players in the same transaction, from the finishing order
(`ratings.model.finishing_places`; a seat a bot took over after its person left, or whose
person ran out of time, counts last). Bots take part with their calibrated ratings and never
change. The table row's `rated_counted` is set once under a condition, so a result counts
exactly once even if two workers both see the end. Each counted end also leaves one row per
signed-in player in `rating_changes`, the history that profiles read (`server.rating_stats`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, bindparam, insert, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from spieltisch.bots.base import bot_names
from spieltisch.ratings.bots import bot_ratings, strength_levels
from spieltisch.ratings.model import (
    Rating,
    RatingSettings,
    finishing_places,
    on_leaderboard,
    shown,
)
from spieltisch.ratings.model import update as rating_update
from spieltisch.server.schema import (
    ACCOUNTS,
    RATING_CHANGES,
    RATINGS,
    TABLES,
    EntryRow,
    SeatRow,
)

if TYPE_CHECKING:
    from spieltisch.server.table import LiveTable

__all__ = [
    "PlayerRating",
    "RatedEnd",
    "bot_points",
    "bot_rating",
    "bots_described",
    "count_end",
    "counted_last",
    "leaderboard",
    "rated_end",
    "ratings_of",
    "standing",
]


@dataclass(frozen=True)
class RatedEnd:
    """A rated game's end as the ratings need it: per seat its account (None for a bot) or
    its bot spec, and its place (0 is first, equal places are ties)."""

    table_id: str
    game: str
    accounts: tuple[str | None, ...]
    bots: tuple[str | None, ...]
    places: tuple[int, ...]
    now: float


@dataclass(frozen=True)
class PlayerRating:
    account_id: str
    name: str
    game: str
    rating: Rating
    games: int
    last_played: float


def rated_end(table: LiveTable, now: float) -> RatedEnd | None:
    """The table's result for the ratings, or None when it is casual or not over."""
    if not table.row.rated or not table.over:
        return None
    left = counted_last(table.seats, table.entries)
    places = finishing_places(table.game.winners(table.state), table.game.scores(table.state), left)
    rated_seat = [s.account_id is not None for s in table.seats]
    return RatedEnd(
        table.id,
        table.row.game,
        tuple(s.account_id for s in table.seats),
        tuple(None if rated else s.bot for s, rated in zip(table.seats, rated_seat, strict=True)),
        tuple(places),
        now,
    )


_calibrated = functools.cache(bot_ratings)
"""The bots' ratings per game, read from `bots.json` once."""


def bot_rating(game: str, spec: str | None) -> Rating:
    """A bot's fixed rating: its calibrated one (by its full spec, else by its name), or the
    starting rating for a bot that was never calibrated."""
    calibrated = _calibrated(game)
    spec = spec or ""
    return calibrated.get(spec) or calibrated.get(spec.split(":", 1)[0]) or Rating()


def counted_last(seats: Sequence[SeatRow], entries: Sequence[EntryRow]) -> list[int]:
    """The seats that count last: those a bot took over after their person left, and those
    whose person ran out of time (a bot played that turn: the stand-in is strong, so letting
    the clock run must not lend its strength to a rating)."""
    timed_out = {e.args.get("seat") for e in entries if e.key == "timeout"}
    return [s.seat for s in seats if s.replaced or s.seat in timed_out]


def bot_points(game: str) -> dict[str, int]:
    """The shown ratings of the game's bots that the lobby offers and were calibrated."""
    calibrated = _calibrated(game)
    return {bot: shown(calibrated[bot]).points for bot in bot_names(game) if bot in calibrated}


def bots_described(game: str) -> dict[str, dict[str, int] | dict[str, str]]:
    """The lobby's words on the game's calibrated bots: their shown ratings (`bot_ratings`)
    and strength levels from them (`bot_levels`: easy, good, strong, best)."""
    points = bot_points(game)
    return {"bot_ratings": points, "bot_levels": strength_levels(points)}


def standing(game: str, rating: Rating) -> dict[str, str | None]:
    """Where a rating stands against the lobby's bots: the strongest bot it is above and the
    weakest it is below (None where there is none)."""
    calibrated = _calibrated(game)
    bots = sorted((calibrated[b].mu, b) for b in bot_names(game) if b in calibrated)
    below = [bot for mu, bot in bots if mu < rating.mu]
    above = [bot for mu, bot in bots if mu >= rating.mu]
    return {
        "stronger_than": below[-1] if below else None,
        "weaker_than": above[0] if above else None,
    }


def count_end(db: Connection, end: RatedEnd) -> bool:
    """Update the ratings from `end` in the caller's transaction, unless its table's result
    was counted already (by this or another worker). Whether it counted now."""
    claimed = db.execute(
        update(TABLES)
        .where(TABLES.c.id == end.table_id, TABLES.c.rated, TABLES.c.rated_counted.is_(None))
        .values(rated_counted=end.now)
    )
    if claimed.rowcount != 1:
        return False
    players = [a for a in end.accounts if a is not None]
    if not players:
        return True
    _add_missing(db, end.game, players, end.now)
    stored = _stored_ratings(db, end.game, players)
    before = [
        bot_rating(end.game, bot) if a is None else stored[a][0]
        for a, bot in zip(end.accounts, end.bots, strict=True)
    ]
    after = rating_update(before, end.places, [a is None for a in end.accounts])
    people = [(seat, a) for seat, a in enumerate(end.accounts) if a is not None]
    _store_ratings(db, end, {a: (after[seat], stored[a][1]) for seat, a in people})
    changes = [_change(end, seat, before[seat], after[seat]) for seat, _ in people]
    db.execute(insert(RATING_CHANGES).values(changes))
    return True


def _add_missing(db: Connection, game: str, accounts: Sequence[str], now: float) -> None:
    """A starting rating (no games yet) for each of the players who has none in `game`.
    Insert-or-nothing, so two tables ending at once that both give a player a first rating
    do not collide: on PostgreSQL the second waits for the first to commit and then finds
    its row, which `_stored_ratings` locks; SQLite writes one transaction at a time."""
    start = Rating()
    rows = [
        {"account_id": a, "game": game, "mu": start.mu, "sigma": start.sigma}
        | {"games": 0, "last_played": now}
        for a in dict.fromkeys(accounts)
    ]
    dialect = db.dialect.name
    if dialect in ("postgresql", "sqlite"):
        upsert = postgresql_insert if dialect == "postgresql" else sqlite_insert
        db.execute(upsert(RATINGS).values(rows).on_conflict_do_nothing())
        return
    mine = (RATINGS.c.game == game) & RATINGS.c.account_id.in_(accounts)  # another database
    have = set(db.execute(select(RATINGS.c.account_id).where(mine)).scalars())
    missing = [row for row in rows if row["account_id"] not in have]
    if missing:
        db.execute(insert(RATINGS).values(missing))


def _stored_ratings(
    db: Connection, game: str, accounts: Sequence[str]
) -> dict[str, tuple[Rating, int]]:
    query = (
        select(RATINGS)
        .where(RATINGS.c.game == game, RATINGS.c.account_id.in_(accounts))
        .with_for_update()  # two tables ending at once update a player one after the other
    )
    return {r.account_id: (Rating(r.mu, r.sigma), r.games) for r in db.execute(query)}


def _store_ratings(db: Connection, end: RatedEnd, new: dict[str, tuple[Rating, int]]) -> None:
    """Each player's new rating and one more game, in one statement run for all of them."""
    statement = (
        update(RATINGS)
        .where(RATINGS.c.account_id == bindparam("account"), RATINGS.c.game == end.game)
        .values(mu=bindparam("new_mu"), sigma=bindparam("new_sigma"), games=bindparam("new_games"))
        .values(last_played=end.now)
    )
    rows = [
        {"account": account, "new_mu": rating.mu, "new_sigma": rating.sigma, "new_games": games + 1}
        for account, (rating, games) in new.items()
    ]
    db.execute(statement, rows)


def _change(end: RatedEnd, seat: int, before: Rating, after: Rating) -> dict[str, Any]:
    """The game as a row of the player's rating history (`rating_changes`)."""
    return {
        "account_id": end.accounts[seat],
        "table_id": end.table_id,
        "game": end.game,
        "at": end.now,
        "place": end.places[seat],
        "players": len(end.places),
        "mu_before": before.mu,
        "sigma_before": before.sigma,
        "mu": after.mu,
        "sigma": after.sigma,
    }


def ratings_of(engine: Engine, account_id: str) -> list[PlayerRating]:
    """An account's ratings, one per game it played rated."""
    query = (
        select(RATINGS, ACCOUNTS.c.name)
        .join(ACCOUNTS, ACCOUNTS.c.id == RATINGS.c.account_id)
        .where(RATINGS.c.account_id == account_id)
        .order_by(RATINGS.c.game)
    )
    with engine.connect() as db:
        return [_player_rating(r) for r in db.execute(query)]


def leaderboard(
    engine: Engine, game: str, now: float, settings: RatingSettings | None = None
) -> list[PlayerRating]:
    """The game's settled, recently active players, best first."""
    settings = settings or RatingSettings()
    since = now - settings.leaderboard_recent.total_seconds()
    query = (
        select(RATINGS, ACCOUNTS.c.name)
        .join(ACCOUNTS, ACCOUNTS.c.id == RATINGS.c.account_id)
        .where(
            RATINGS.c.game == game,
            RATINGS.c.sigma <= settings.leaderboard_sigma,
            RATINGS.c.last_played >= since,
        )
    )
    with engine.connect() as db:
        rows = [_player_rating(r) for r in db.execute(query)]
    when = datetime.fromtimestamp(now, UTC)
    listed = [
        r
        for r in rows
        if on_leaderboard(r.rating, datetime.fromtimestamp(r.last_played, UTC), when, settings)
    ]
    return sorted(listed, key=lambda r: (-r.rating.mu, r.name))


def _player_rating(r: Any) -> PlayerRating:
    return PlayerRating(r.account_id, r.name, r.game, Rating(r.mu, r.sigma), r.games, r.last_played)
