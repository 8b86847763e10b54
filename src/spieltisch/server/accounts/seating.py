"""An account's seats at the tables: a guest seat that becomes the account's, a fresh seat
token for another device, the seats given up when the account is deleted, and its name
forgotten. Each change is an event of the table, stored and told to the other workers as any
join or leave is."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from spieltisch.server.common import TableError, hash_token, is_tutorial, new_token
from spieltisch.server.table import LiveTable

if TYPE_CHECKING:
    from spieltisch.server.lobby import Lobby

__all__ = ["claim", "give_up", "new_seat_token", "reload_renamed", "renamed"]

RACES = 3
"""How often a change is tried when other workers keep changing the table first."""


async def claim(lobby: Lobby, table_id: str, token: str, account_id: str, name: str) -> bool:
    """The guest seat that `token` holds at an unfinished table becomes the account's (its
    name the account's `name`). False, changing nothing, for a token that holds no seat
    there, a finished table, or a table where the account has a seat already."""
    for attempt in range(RACES):
        try:
            table, seat = await lobby.seat_with(table_id, token)
        except TableError:
            return False
        if seat is None or table.over or table.seat_of_account(account_id) is not None:
            return False
        current = table.seats[seat]
        if current.account_id is not None:
            return False
        mine = replace(current, name=name, account_id=account_id)
        table.event("claimed", {"seat": seat, "name": name, "was": current.name}, mine)
        if await lobby.won(table, attempt):
            return True
    return False


async def new_seat_token(lobby: Lobby, table_id: str, account_id: str) -> tuple[int, str]:
    """A fresh token for the account's seat at the table; the old one stops working (the
    account's other devices come back through the session cookie)."""
    for attempt in range(RACES):
        table, seat = await lobby.seat_with(table_id, None, account_id)
        if seat is None:
            raise TableError("no_seat_here", "You have no seat at this table.")
        if table.over:
            raise TableError("game_over", "The game is over; its seats stay as they were.")
        token = new_token()
        renewed = replace(table.seats[seat], token_hash=hash_token(token))
        table.event("seat_token", {"seat": seat, "name": renewed.name}, renewed)
        if await lobby.won(table, attempt):
            return seat, token
    raise AssertionError("unreachable: the last race is not retried")


async def give_up(lobby: Lobby, table_id: str, account_id: str) -> None:
    """The account leaves its seat at an unfinished table, as `leave` does: freed before the
    start, played on by a bot after it (a guided game stops)."""
    if table_id in lobby.stored_away:
        return  # a finished game that left memory: nothing to give up
    for attempt in range(RACES):
        try:
            table, seat = await lobby.seat_with(table_id, None, account_id)
        except TableError:
            return  # closed or broken: nothing is played there any more
        if seat is None or table.over:
            return
        if is_tutorial(table) and table.started:
            lobby.end_tutorial(table, seat)  # a guided game stops where it is
        else:
            table.leave(seat, None)
        if await lobby.won(table, attempt):
            _unseat_connections(lobby, table, seat)
            return


def _unseat_connections(lobby: Lobby, table: LiveTable, seat: int) -> None:
    for connection in lobby.connections.get(table.id, set()):
        if connection.seat == seat:
            connection.seat = None


async def reload_renamed(lobby: Lobby, table_ids: list[str]) -> None:
    """Read the tables whose names were changed in the database anew (this worker's copies),
    show them, and tell the other workers to do the same."""
    for table_id in table_ids:
        await renamed(lobby, table_id)
        lobby.site.publish({"k": "renamed", "t": table_id})


async def renamed(lobby: Lobby, table_id: str) -> None:
    """This worker's copy of a table whose names changed in the database, read anew."""
    if table_id in lobby.tables:
        await lobby.writer.reload(table_id)
        table = lobby.tables.get(table_id)
        if table is not None:
            lobby.scheduler.schedule(table)
            await lobby.push(table)
