"""A seat's or a spectator's WebSocket at a table: who it is, what it sends, what it is told.

The client sends {"type": "action", "action": "take 4", "version": 17}, {"type": "sync"} or
{"type": "chat", "text": "..."}; every refusal is {"type": "error", "code": ..., "message":
..., "version": ...} and changes nothing. Besides `state` messages the server sends `chat`,
`settle` (Riff Raff's motion) and `presence` (who is here changed; `server.presence`). A
socket that falls more than `connection.MAX_BEHIND` messages behind is closed with code 1013
(the client reconnects and gets the whole picture).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from sqlalchemy.exc import SQLAlchemyError

from spieltisch.server.common import TableError, storage_down
from spieltisch.server.connection import Connection
from spieltisch.server.limits import Limits, read_json
from spieltisch.server.lobby import Lobby
from spieltisch.server.table import LiveTable

__all__ = [
    "CLOSE_LAGGING",
    "MESSAGE_TYPES",
    "SUBPROTOCOL",
    "WATCH_SUBPROTOCOL",
    "accepted_subprotocol",
    "refuse_socket",
    "serve_socket",
]

CLOSE_LAGGING = 1013
"""The WebSocket close code for a client too far behind, or refused for now: 'try again
later'."""
MESSAGE_TYPES = ("action", "sync", "chat")
"""The types of message a client sends on a table's WebSocket."""


async def serve_socket(
    lobby: Lobby,
    websocket: WebSocket,
    table_id: str,
    token: str | None,
    limits: Limits,
    account_id: str | None = None,
) -> None:
    """Serve the socket of a seat (its token, or without one the seat of the signed-in
    `account_id` at this table) or of a spectator."""
    token = _offered_token(websocket) or token
    if WATCH_SUBPROTOCOL in websocket.scope.get("subprotocols", []):
        token, account_id = None, None  # a page's public picture, whoever is signed in
    await websocket.accept(subprotocol=accepted_subprotocol(websocket))
    try:
        table, seat = await lobby.seat_with(table_id, token, account_id)
    except SQLAlchemyError:
        await refuse_socket(websocket, storage_down(), CLOSE_LAGGING)  # "try again later"
        return
    except TableError as error:
        await refuse_socket(websocket, error)
        return
    connection = Connection(table_id, seat, websocket.send_text, close=_closer(websocket))
    lobby.connect(connection)
    try:
        if token and seat is None:
            await _send_error(connection, table, TableError("bad_token", _BAD_TOKEN))
        await lobby.push(table, connection)
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            if table_id in lobby.closed:  # closed meanwhile: the closing said so
                break
            try:
                table = await lobby.find(table_id)
            except TableError as error:  # unavailable for now: the socket stays
                connection.offer(json.dumps(_error_json(error)))
                continue
            text = frame.get("text")
            if text is None:
                refusal = TableError("bad_message", "Messages are JSON text, not binary data.")
                await _send_error(connection, table, refusal)
                continue
            await _handle(lobby, connection, table, text, limits)
    except WebSocketDisconnect:
        pass
    finally:
        lobby.disconnect(connection)


SUBPROTOCOL = "spieltisch"
"""The subprotocol the table's socket speaks, the only one the server accepts."""
TOKEN_SUBPROTOCOL = "token."
"""The prefix of the subprotocol that carries a seat token: `token.<TOKEN>`. A token from
`secrets.token_urlsafe` (letters, digits, '-' and '_') is a valid subprotocol name."""

WATCH_SUBPROTOCOL = "watch"
"""Offered beside "spieltisch": the socket is a spectator's even with the session cookie. A
page with several seats at one screen shows this public picture between their turns."""


def _offered_token(websocket: WebSocket) -> str | None:
    """The seat token the client offered as a `token.<TOKEN>` subprotocol, if any."""
    for offered in websocket.scope.get("subprotocols", []):
        if offered.startswith(TOKEN_SUBPROTOCOL):
            return str(offered.removeprefix(TOKEN_SUBPROTOCOL)) or None
    return None


def accepted_subprotocol(websocket: WebSocket) -> str | None:
    """ "spieltisch" when the client offered it (a browser that offered subprotocols fails a
    handshake that accepts none); never the token."""
    return SUBPROTOCOL if SUBPROTOCOL in websocket.scope.get("subprotocols", []) else None


async def refuse_socket(websocket: WebSocket, error: TableError, code: int = 4404) -> None:
    """Say why there is no table to connect to (or no connection now), and close."""
    await websocket.send_json(_error_json(error))
    await websocket.close(code=code)


def _closer(websocket: WebSocket) -> Callable[[], Awaitable[None]]:
    async def close() -> None:
        await websocket.close(CLOSE_LAGGING, "too far behind; reconnect to resync")

    return close


_BAD_TOKEN = "This seat token is not valid at this table; you are watching as a spectator."


async def _handle(
    lobby: Lobby, connection: Connection, table: LiveTable, text: str, limits: Limits
) -> None:
    try:
        message = read_json(text, limits)
        if not isinstance(message, dict):
            raise TableError("bad_message", "A message must be a JSON object with a 'type'.")
        kind = message.get("type")
        if kind == "sync":
            connection.seen = None
            await lobby.push(table, connection)
        elif kind == "action":
            action = message.get("action")
            if not isinstance(action, str):
                raise TableError("bad_message", "An action message needs the action as text.")
            await lobby.act(table.id, connection.seat, action, message.get("version"))
        elif kind == "chat":
            await lobby.talk(table.id, connection.seat, message.get("text"))
        else:
            raise TableError("bad_message", "Messages are of type 'action', 'sync' or 'chat'.")
    except TableError as error:
        await _send_error(connection, table, error)


def _error_json(error: TableError) -> dict[str, Any]:
    return {"type": "error", "code": error.code, "message": error.message}


async def _send_error(connection: Connection, table: LiveTable, error: TableError) -> None:
    connection.offer(json.dumps({**_error_json(error), "version": table.version}))
