"""The bodies of the REST routes (`server.app`; a new table's in `server.onescreen`) and the HTTP
status of each refusal."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

__all__ = [
    "STATUS",
    "JoinIn",
    "Joined",
    "LeaveIn",
    "TurnBasedIn",
    "TutorialIn",
]

STATUS = {
    "no_table": 404,
    "no_player": 404,
    "rated_needs_account": 403,
    "turn_based_needs_account": 403,
    "too_many_turn_based": 409,
    "bad_token": 403,
    "table_full": 409,
    "seat_taken": 409,
    "not_over": 409,
    "no_odds": 409,
    "no_review": 409,
    "no_scene": 404,
    "game_over": 409,
    "table_broken": 410,
    "table_closed": 410,
    "too_many_tables": 429,
    "too_many_seat_changes": 429,
    "bad_name": 422,
    "weak_password": 422,
    "bad_settings": 422,
    "bad_email": 422,
    "name_taken": 409,
    "already_seated": 409,
    "bad_sign_in": 401,
    "not_signed_in": 401,
    "wrong_password": 403,
    "foreign_origin": 403,
    "no_seat_here": 404,
    "too_many_sign_ins": 429,
    "too_many_sign_ups": 429,
    "server_full": 503,
    "unavailable": 503,
}


class TurnBasedIn(BaseModel):
    move: str = Field(description="the time per move: '1h', '12h', '1d', '3d' or '7d'")
    bank: str = Field("none", description="a time bank: 'none', 'small' or 'large'")
    rule: str = Field("bot_plays", description="when time runs out: 'bot_plays' or 'remove'")


class TutorialIn(BaseModel):
    game: str = Field(description="pickomino, karolinchen or riffraff")
    name: str = Field(description="the learner's display name, 1 to 32 characters")
    seed: int | None = Field(None, description="seed of the table's dice (random if omitted)")


class JoinIn(BaseModel):
    name: str = Field(description="the display name, 1 to 32 characters")
    seat: int | None = Field(None, description="the seat (0-based); the first free one if omitted")


class LeaveIn(BaseModel):
    token: str
    bot: str | None = Field(None, description="the bot that takes over (a strong one if omitted)")


class Joined(BaseModel):
    seat: int
    token: str
    table: dict[str, Any]
