"""The ratings' routes (mounted by `server.app`):

GET /api/players/{name}                a player's profile: per game the shown rating ("?"
                                       while provisional), rated games played, where it
                                       stands against the bots and its history (the
                                       chart); the latest rated games; wins and average
                                       place by game and number of seats
GET /api/players/{name}/versus/{other} per game, the two players' rated games together and
                                       who finished ahead how often
GET /api/leaderboard/{game}            the game's settled, recently active players, best
                                       first
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.routing import APIRoute

from spieltisch.core.registry import game_names
from spieltisch.ratings.model import RatingSettings, shown
from spieltisch.server.accounts.names import name_key
from spieltisch.server.accounts.service import Accounts
from spieltisch.server.accounts.store import AccountRow
from spieltisch.server.common import TableError
from spieltisch.server.rated import PlayerRating, leaderboard, standing
from spieltisch.server.rating_stats import PlacesBySeats, RatedGame, head_to_head, profile_rows

__all__ = ["ratings_router"]


def ratings_router(
    accounts: Accounts, route_class: type[APIRoute], settings: RatingSettings | None = None
) -> APIRouter:
    router = APIRouter(prefix="/api", route_class=route_class, tags=["ratings"])
    lobby, settings = accounts.lobby, settings or RatingSettings()

    @router.get("/players/{name}")
    async def profile(name: str) -> dict[str, Any]:
        """A signed-in player's ratings, one per game played rated."""
        account = await _account(name)
        rows = await lobby.storage.read(profile_rows, lobby.store.engine, account.id)
        return {
            "name": account.name,
            "ratings": [
                _rating_json(r, settings)
                | {"history": _history_json(rows.history[r.game], settings)}
                for r in rows.ratings
            ],
            "recent": [_recent_json(g, rows.fellows[g.table_id], settings) for g in rows.recent],
            "by_players": [_places_json(p) for p in rows.by_seats],
        }

    @router.get("/players/{name}/versus/{other}")
    async def versus(name: str, other: str) -> dict[str, Any]:
        """Per game, the two players' rated games at one table and who finished ahead."""
        first, second = await _account(name), await _account(other)
        if first.id == second.id:
            raise TableError("same_player", "A player cannot be compared with themselves.")
        rows = await lobby.storage.read(head_to_head, lobby.store.engine, first.id, second.id)
        return {
            "name": first.name,
            "other": second.name,
            "games": [
                {"game": r.game, "games": r.games, "ahead": r.ahead, "behind": r.behind}
                | {"tied": r.tied}
                for r in rows
            ],
        }

    async def _account(name: str) -> AccountRow:
        account = await lobby.storage.read(accounts.store.account_by_key, name_key(name))
        if account is None:
            raise TableError("no_player", f"There is no player named '{name}'.")
        return account

    @router.get("/leaderboard/{game}")
    async def board(game: str) -> dict[str, Any]:
        """The game's settled players with a rated game lately, best first."""
        if game not in game_names():
            raise TableError("unknown_game", f"There is no game '{game}'.")
        now = lobby.clock.now()
        rows = await lobby.storage.read(leaderboard, lobby.store.engine, game, now, settings)
        return {
            "game": game,
            "players": [
                {"place": n, "name": r.name, "rating": _points(r, settings), "games": r.games}
                for n, r in enumerate(rows, start=1)
            ],
        }

    return router


def _points(row: PlayerRating, settings: RatingSettings) -> int:
    return shown(row.rating, settings).points


def _rating_json(row: PlayerRating, settings: RatingSettings) -> dict[str, Any]:
    points = shown(row.rating, settings)
    return {
        "game": row.game,
        "rating": points.points,
        "provisional": points.provisional,
        "shown": str(points),
        "games": row.games,
        "last_played": row.last_played,
        **standing(row.game, row.rating),
    }


def _history_json(games: list[RatedGame], settings: RatingSettings) -> list[dict[str, Any]]:
    """The chart's points: the rating before the first game shown, then after each game."""
    if not games:
        return []
    first = games[0]
    start = {"at": None, "rating": shown(first.before, settings).points, "table_id": None}
    return [start] + [
        {"at": g.at, "rating": shown(g.after, settings).points, "table_id": g.table_id}
        for g in games
    ]


def _recent_json(game: RatedGame, fellows: list[str], settings: RatingSettings) -> dict[str, Any]:
    after, before = shown(game.after, settings).points, shown(game.before, settings).points
    return {
        "table_id": game.table_id,
        "game": game.game,
        "at": game.at,
        "place": game.place + 1,
        "players": game.players,
        "rating": after,
        "change": after - before,
        "with": fellows,
    }


def _places_json(row: PlacesBySeats) -> dict[str, Any]:
    return {
        "game": row.game,
        "players": row.players,
        "games": row.games,
        "wins": row.wins,
        "win_rate": row.wins / row.games,
        "average_place": round(row.average_place, 2),
    }
