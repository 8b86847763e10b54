"""Making a table, with the people who play at this screen seated at once.

A person seat of `POST /api/tables` that carries a `name` is "here": its player sits at the
screen that made the table. The answer then holds a seat token for each such seat, and the
page that made the table plays them in turn (one screen, several seats). Each token is an
ordinary seat token: the page opens one socket per seat it holds, and the server checks every
action against the seat of the socket it came on, as for any other seat. A signed-in player's
account takes the first seat here; the others are guests, so a rated table (every person
signed in) has at most one seat here. Person seats without a name are taken from the invite
link as before.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field
from starlette.requests import Request

from spieltisch.core.registry import game_class, game_names
from spieltisch.server.accounts.service import Accounts
from spieltisch.server.accounts.store import AccountRow
from spieltisch.server.common import TableError
from spieltisch.server.hooks import default_turn_clock, hooks_for
from spieltisch.server.lobby import Lobby, SeatSpec
from spieltisch.server.requests import TurnBasedIn
from spieltisch.server.table import LiveTable
from spieltisch.server.turnbased import TurnBased

__all__ = ["CreateTable", "GuidedHere", "SeatIn", "guided_here", "make_table", "people_for_clock"]


class SeatIn(BaseModel):
    bot: str | None = Field(None, description="a bot spec such as 'optimal'; null for a person")
    name: str | None = Field(
        None,
        description="a person seat's player at this screen: seated at once under this name, "
        "its token in the answer's 'here' (null: a person who joins by the invite link)",
    )


class CreateTable(BaseModel):
    game: str = Field(description="a registered game, e.g. 'pickomino'")
    options: dict[str, Any] = Field(default_factory=dict, description="game options")
    seats: list[SeatIn] = Field(description="one entry per seat, in playing order")
    clock: float | None = Field(
        None,
        description="seconds per turn; a bot plays when it runs out. Left out: the game's "
        "time per turn when two or more people sit at the table (null: no clock); the "
        "people at this screen count as one",
    )
    seed: int | None = Field(
        None,
        description="a public seed for the table's dice, for tests and puzzles: every seat sees "
        "it and the lobby marks the table 'seeded' (omitted: the server's secret dice)",
    )
    pace: str = Field("normal", description="how long bots pause: 'instant', 'normal' or 'slow'")
    rated: bool = Field(False, description="the end changes the players' ratings (signed in only)")
    turn_based: TurnBasedIn | None = Field(
        None, description="a turn-based table (signed in only; null: real time, as `clock` says)"
    )


def here_seats(seats: list[SeatIn]) -> list[int]:
    """The person seats whose players sit at this screen."""
    return [n for n, seat in enumerate(seats) if seat.bot is None and seat.name is not None]


def people_for_clock(seats: list[SeatIn]) -> int:
    """The people a default turn clock counts: those at this screen count as one, since
    nobody there waits for an absent player."""
    here = here_seats(seats)
    away = sum(1 for n, seat in enumerate(seats) if seat.bot is None and n not in here)
    return away + (1 if here else 0)


async def make_table(
    lobby: Lobby, accounts: Accounts, body: CreateTable, request: Request, address: str | None
) -> dict[str, Any]:
    """The new table's summary, and with seats here each one's seat and token."""
    account = await accounts.current(request)
    if body.rated and account is None:
        raise TableError("rated_needs_account", "Sign in to make a rated table.")
    here = here_seats(body.seats)
    if body.rated and len(here) > 1:
        raise TableError(
            "rated_needs_account",
            "At a rated table every player signs in on a device of their own; seat one "
            "person at this screen.",
        )
    turns = _turn_based(body, account, len(here))
    names = [_here_name(body.seats[n].name) for n in here]
    await _check_names(accounts, names, account is not None)
    asked = "clock" in body.model_fields_set  # an explicit null switches it off
    clock = body.clock if asked else default_turn_clock(body.game, people_for_clock(body.seats))
    seats = [SeatSpec(s.bot) for s in body.seats]
    table = await lobby.create(
        body.game, body.options, seats, clock, body.seed, address, body.pace, body.rated, turns
    )
    return await _seat_here(lobby, table, list(zip(here, names, strict=True)), account)


class GuidedHere(BaseModel):
    game: str = Field(description="pickomino, karolinchen or riffraff")
    names: list[str] = Field(description="the learners at this screen, in playing order")
    seed: int | None = Field(None, description="seed of the table's dice (random if omitted)")


async def guided_here(
    lobby: Lobby, accounts: Accounts, body: GuidedHere, request: Request, address: str | None
) -> dict[str, Any]:
    """A guided first game for several learners at one screen against the game's friendly
    bot: the learners start, the bot plays last; the summary with each learner's token."""
    bot = hooks_for(body.game).tutor if body.game in game_names() else None
    if bot is None:
        raise TableError("no_tutorial", f"There is no guided game of '{body.game}'.")
    most = game_class(body.game).max_players - 1  # one seat is the friendly bot's
    if not 1 <= len(body.names) <= most:
        raise TableError("bad_seats", f"A guided game takes 1 to {most} learners at one screen.")
    account = await accounts.current(request)
    names = [_here_name(name) for name in body.names]
    await _check_names(accounts, names, account is not None)
    seats = [SeatSpec() for _ in names] + [SeatSpec(bot)]
    table = await lobby.create(body.game, {"start_seat": 0}, seats, None, body.seed, address)
    table.event("tutorial", {"seat": 0, "bot": bot}, None)  # stored with the first join
    return await _seat_here(lobby, table, list(enumerate(names)), account)


async def _check_names(accounts: Accounts, names: list[str], signed_in: bool) -> None:
    """Guests' names must not be accounts' (the first is the account's when signed in)."""
    for index, name in enumerate(names):
        if not signed_in or index > 0:
            await accounts.check_guest_name(name)


async def _seat_here(
    lobby: Lobby, table: LiveTable, seats: list[tuple[int, str]], account: AccountRow | None
) -> dict[str, Any]:
    held = []
    for index, (seat, name) in enumerate(seats):
        who = (account.name, account.id) if account is not None and index == 0 else (name, None)
        _seat, token = await lobby.join(table.id, seat, *who)
        held.append({"seat": seat, "token": token})
    summary = (await lobby.find(table.id)).summary() if held else table.summary()
    return {**summary, "here": held} if held else dict(summary)


def _turn_based(body: CreateTable, account: AccountRow | None, here: int) -> TurnBased | None:
    """The turn-based settings asked for; refused for guests, who could not come back over
    days (so, as at a rated table, one person at this screen at most)."""
    if body.turn_based is None:
        return None
    if account is None:
        raise TableError("turn_based_needs_account", "Sign in to make a turn-based table.")
    if here > 1:
        raise TableError(
            "turn_based_needs_account",
            "At a turn-based table every player signs in on a device of their own; seat one "
            "person at this screen.",
        )
    return TurnBased(**body.turn_based.model_dump())


def _here_name(name: str | None) -> str:
    if name is None or not name.strip():
        raise TableError("bad_name", "Each player at this screen needs a name.")
    return name
