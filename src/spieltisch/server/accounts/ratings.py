"""The ratings' routes (mounted by `server.app`):

GET /api/players/{name}      a player's profile: per game the shown rating ("?" while
                             provisional), rated games played, and where it stands against
                             the bots
GET /api/leaderboard/{game}  the game's settled, recently active players, best first
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.routing import APIRoute

from spieltisch.core.registry import game_names
from spieltisch.ratings.model import RatingSettings, shown
from spieltisch.server.accounts.names import name_key
from spieltisch.server.accounts.service import Accounts
from spieltisch.server.common import TableError
from spieltisch.server.rated import PlayerRating, leaderboard, ratings_of, standing

__all__ = ["ratings_router"]


def ratings_router(
    accounts: Accounts, route_class: type[APIRoute], settings: RatingSettings | None = None
) -> APIRouter:
    router = APIRouter(prefix="/api", route_class=route_class, tags=["ratings"])
    lobby, settings = accounts.lobby, settings or RatingSettings()

    @router.get("/players/{name}")
    async def profile(name: str) -> dict[str, Any]:
        """A signed-in player's ratings, one per game played rated."""
        account = await lobby.storage.read(accounts.store.account_by_key, name_key(name))
        if account is None:
            raise TableError("no_player", f"There is no player named '{name}'.")
        rows = await lobby.storage.read(ratings_of, lobby.store.engine, account.id)
        return {"name": account.name, "ratings": [_rating_json(r, settings) for r in rows]}

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
