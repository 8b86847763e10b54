"""The ASGI application: REST lobby API, one WebSocket per seat or spectator, the web client.

REST (JSON, schema at /openapi.json, pages at /docs); the handlers run on the event loop,
so they see every table between two changes, never during one:
  GET  /api/games                      the games, their options and bots
  GET  /api/tables                     tables waiting for players or being played
  GET  /api/tables/finished            the latest finished games with their results
  POST /api/tables                     make a table: game, options, seats, clock, bot pace, rated,
                                       turn-based (`server.turnbased`); the tokens of the seats
                                       at this screen (`server.onescreen`)
  GET  /api/tables/{id}                one table's seats and status
  POST /api/tutorials                  a guided first game against a friendly bot, learner seated
  POST /api/tutorials/here             the same for several learners at one screen: their tokens
  POST /api/tables/{id}/join           take a seat with a display name: returns the seat token
  POST /api/tables/{id}/leave          give a seat up (a bot finishes the game for it)
  GET  /api/tables/{id}/record         the game record of a finished game
  GET  /api/tables/{id}/replay         every step of a finished game with its public view
  GET  /api/tables/{id}/review         the review of a finished game, where the game has one
  GET  /api/tables/{id}/odds           the odds for the player to move, where the game has them
  GET  /api/games/{name}/scene         the geometry a 3D client draws the game with, if it has one
  /api/session, /api/account/...       optional accounts: sign up, in and out, "My tables", the
                                       account's seat on another device (`server.accounts.routes`)

A request that carries the session cookie and changes something (POST, PUT, PATCH, DELETE),
and a socket that carries it, must come from the site's own pages (Origin or Referer; else 403
`foreign_origin`, see `server.accounts.sessions`). Joining with the cookie seats the account,
and a socket with the cookie and no token is the account's seat at that table.

WebSocket /api/tables/{id}/ws (served by `server.sockets`), offering the subprotocols
"spieltisch" and "token.T" for the seat with token T (no token: a spectator); the server
accepts "spieltisch" alone, so the token stays out of URLs and access logs. (Deprecated, kept
for one release for pages opened before an upgrade: the token as the query `?token=T`.) It sends
  {"type": "action", "action": "take 4", "version": 17}, {"type": "sync"} or
  {"type": "chat", "text": "..."};
the server answers with {"type": "state", "version": ...} after every change,
{"type": "chat", "line": ...} for table talk,
{"type": "settle", ...} with the motion of a physics outcome (see `server.settle`) and
{"type": "error", "code": ..., "message": ..., "version": ...} when it refuses.
A socket that falls more than `connection.MAX_BEHIND` messages behind is closed with code
1013 (the client reconnects and gets the whole picture).

Limits (`server.limits.Limits`, settings of `serve`): a request body over `body` bytes is
answered 413 unread; a socket message over `message` characters or nested more than `depth`
levels gets an error message. JSON that Python would take but nothing can use (`1e400`, `NaN`,
a lone surrogate such as `"\\ud800"`) is invalid JSON: 422 for a body, `bad_json` on a socket.
A seat that changed hands `seat_changes_per_minute` times in a minute cannot be joined (429);
a socket from an address over `sockets_per_address` open sockets or `reconnects_per_second`
new ones is refused before its handshake: 429 with the refusal as JSON and a Retry-After
(`limits.SocketGate`).

The browser modules the client imports (three.js) are served from /vendor/, fetched by
tools/fetch_web_deps.py; when they are missing the server says how to fetch them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI, Query, WebSocket
from fastapi.responses import (
    JSONResponse,
    Response,
)
from fastapi.routing import APIRoute
from sqlalchemy.exc import SQLAlchemyError
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import HTTPConnection, Request

from spieltisch.core.registry import game_names
from spieltisch.server.accounts.ratings import ratings_router
from spieltisch.server.accounts.routes import account_router
from spieltisch.server.accounts.service import Accounts
from spieltisch.server.accounts.sessions import STATE_CHANGING, AccountSettings, check_origin
from spieltisch.server.clock import Clock, WallClock
from spieltisch.server.common import storage_down
from spieltisch.server.handshake import EARLY_REFUSAL, SHUT_OUT
from spieltisch.server.hooks import hooks_for
from spieltisch.server.limits import (
    BodyLimit,
    Limits,
    SeatChanges,
    SocketGate,
    SocketQuota,
    SocketRefused,
    TableQuota,
    strict_json,
)
from spieltisch.server.lobby import Lobby
from spieltisch.server.mail.routes import mail_router
from spieltisch.server.mail.settings import MailSettings
from spieltisch.server.onescreen import CreateTable, GuidedHere, guided_here, make_table
from spieltisch.server.replays import Encoded, FinishedGames
from spieltisch.server.requests import (
    STATUS,
    Joined,
    JoinIn,
    LeaveIn,
    TutorialIn,
)
from spieltisch.server.reviews import review
from spieltisch.server.settle import CatchTiming
from spieltisch.server.site import RedisSite, Site
from spieltisch.server.sockets import (
    MESSAGE_TYPES,
    accepted_subprotocol,
    refuse_socket,
    serve_socket,
)
from spieltisch.server.store import Store
from spieltisch.server.table import LiveTable, TableError
from spieltisch.server.webfiles import (
    MISSING_VENDOR,
    VENDOR_DIR,
    WEB_DIR,
    RevalidatedFiles,
    add_test_page,
    add_vendor_route,
    vendor_ready,
)

__all__ = [
    "MAX_MESSAGE",
    "MESSAGE_TYPES",
    "MISSING_VENDOR",
    "VENDOR_DIR",
    "WEB_DIR",
    "create_app",
    "vendor_ready",
]


MAX_MESSAGE = Limits().message
"""The largest WebSocket message (in characters) the server reads, unless set otherwise."""

FINISHED_SHOWN = 20
"""How many finished games the lobby lists."""
GZIP_FROM = 1024
"""Responses from this many bytes on are sent compressed to browsers that accept it."""
CLOSE_FOREIGN = 4403
"""The close code of a socket that carries the session cookie from another site's page."""


def create_app(
    db_url: str,
    bot_delay: float = 1.0,
    timing: CatchTiming | None = None,
    clock: Clock | None = None,
    executor: Executor | None = None,
    limits: Limits | None = None,
    work_limit: float = 30.0,
    idle_close: float = 24 * 3600.0,
    broker: str | None = None,
    test_hooks: bool = False,
    accounts: AccountSettings | None = None,
    mail: MailSettings | None = None,
) -> FastAPI:
    """The server on the database `db_url`; bots wait `bot_delay` seconds before each move;
    `timing` sets Riff Raff's slow motion and catch window; `clock` is the time that bots,
    turn clocks and catch windows go by (the wall clock unless a test brings its own);
    `executor` runs bot decisions and physics (worker processes unless a test brings one);
    `limits` bound what clients may send; a bot decision or a settle may run `work_limit` s;
    an unfinished table without a change for `idle_close` s is closed; `broker` (a Redis
    URL) joins this worker to the others that serve the same database; `test_hooks` lets the
    page expose its hooks for browser tests; `accounts` sets sessions, sign-in throttling and
    the other origins whose pages may use the session cookie; `mail` the SMTP server of turn
    mail and digests (None: no mail)."""
    limits, account_settings = limits or Limits(), accounts or AccountSettings()
    store = Store(db_url)
    lobby = Lobby(
        store,
        bot_delay,
        clock or WallClock(),
        timing or CatchTiming(),
        executor,
        work_limit,
        quota=TableQuota(limits.tables_per_minute, limits.open_tables),
        idle_close=idle_close,
        waiting_close=limits.waiting_hours * 3600,
        active_window=limits.active_minutes * 60,
        max_turn_based=limits.turn_based_per_player,
        site=Site() if broker is None else RedisSite(broker, f"spieltisch:{store.site_key()}:"),
    )
    lobby.load()
    kept = FinishedGames()
    users = Accounts(lobby, account_settings, kept)
    lobby.mail.bind(lobby, mail)

    # counted by the wall clock (the lobby's clock is game time, which tests may stop)
    quota = SocketQuota(limits.sockets_per_address, limits.reconnects_per_second)

    def early_refusal(address: str) -> SocketRefused | None:
        return quota.refuse(address, time.monotonic())

    def shut_out(address: str) -> bool:
        return quota.shut_out(address, time.monotonic())

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[dict[str, Any]]:
        await lobby.site.start(lobby)
        lobby.resume()
        lobby.mail.start()
        # for `handshake.QuotaH11Protocol` and `handshake.AcceptGate`
        yield {EARLY_REFUSAL: early_refusal, SHUT_OUT: shut_out}
        await lobby.site.close()  # its leases go at once: another worker takes them over
        await lobby.mail.stop()
        await lobby.close()
        users.close()
        lobby.store.close()

    app = FastAPI(
        title="spieltisch",
        summary="A game table for Pickomino, Karolinchen and Riff Raff.",
        lifespan=lifespan,
        dependencies=[Depends(_same_origin(account_settings.origins))],
    )
    app.state.lobby = lobby
    app.router.route_class = StrictJsonRoute
    app.add_middleware(BodyLimit, limit=limits.body)
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_FROM)  # text assets and JSON
    # outermost, so a socket over its address's quota costs no more than its refusal
    app.add_middleware(SocketGate, quota=quota, clock=time.monotonic)

    @app.exception_handler(TableError)
    async def table_error(_request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, TableError)
        return _refusal(error)

    @app.exception_handler(SQLAlchemyError)
    async def storage_error(_request: Request, _error: Exception) -> JSONResponse:
        """The database could not be read for this request (a table other workers made):
        as every refusal, a JSON answer, never a traceback."""
        return _refusal(storage_down())

    _add_routes(app, lobby, limits, users, kept)
    app.include_router(account_router(users, StrictJsonRoute))
    app.include_router(ratings_router(users, StrictJsonRoute))
    app.include_router(mail_router(users, lobby.mail, StrictJsonRoute))
    add_vendor_route(app)
    if test_hooks:
        add_test_page(app)
    app.mount("/", RevalidatedFiles(directory=WEB_DIR, html=True), name="web")
    return app


class StrictJsonRequest(Request):
    """A request whose JSON body is read by `limits.strict_json`: `1e400`, `NaN` or a lone
    surrogate is invalid JSON (422) before any handler or error message can trip on it."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = strict_json(await self.body())
        return self._json


class StrictJsonRoute(APIRoute):
    """A route whose requests are `StrictJsonRequest`s."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJsonRequest(request.scope, request.receive))

        return strict


def _same_origin(origins: tuple[str, ...]) -> Callable[[HTTPConnection], Coroutine[Any, Any, None]]:
    """The check of every request: one that changes something with the session cookie comes
    from the site's own pages (sockets are checked where they are served)."""

    async def check(connection: HTTPConnection) -> None:
        if connection.scope["type"] == "http" and connection.scope["method"] in STATE_CHANGING:
            check_origin(connection, origins)

    return check


def _add_routes(
    app: FastAPI, lobby: Lobby, limits: Limits, accounts: Accounts, kept: FinishedGames
) -> None:
    # counted by the wall clock (the lobby's clock is game time, which tests may stop)
    seat_changes = SeatChanges(limits.seat_changes_per_minute)

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return lobby.games()

    @app.get("/api/games/{name}/scene")
    async def scene(name: str) -> dict[str, Any]:
        scene = hooks_for(name).scene if name in game_names() else None
        if scene is None:
            raise TableError("no_scene", f"There is no 3D scene for '{name}'.")
        return scene()

    @app.get("/api/tables")
    async def tables() -> list[dict[str, Any]]:
        return [lobby.presence.summary(t) for t in lobby.open_tables()]

    @app.get("/api/tables/finished")
    async def finished() -> list[dict[str, Any]]:
        """The latest finished games, newest first, each with its result."""
        return [
            {**t.summary(), "result": t.result()} for t in lobby.finished_tables(FINISHED_SHOWN)
        ]

    @app.post("/api/tables", status_code=201)
    async def create(body: CreateTable, request: Request) -> dict[str, Any]:
        return await make_table(lobby, accounts, body, request, _client_address(request))

    @app.post("/api/tutorials", status_code=201)
    async def tutorial(body: TutorialIn, request: Request) -> Joined:
        """A guided first game against the game's friendly bot; the learner is seated."""
        account = await accounts.current(request)
        if account is None:
            await accounts.check_guest_name(body.name)
        name, account_id = (body.name, None) if account is None else (account.name, account.id)
        table, token = await lobby.tutorial(
            body.game, name, body.seed, _client_address(request), account_id
        )
        return Joined(seat=0, token=token, table=table.summary())

    @app.post("/api/tutorials/here", status_code=201)
    async def tutorial_here(body: GuidedHere, request: Request) -> dict[str, Any]:
        return await guided_here(lobby, accounts, body, request, _client_address(request))

    @app.get("/api/tables/{table_id}")
    async def table(table_id: str) -> dict[str, Any]:
        return lobby.presence.summary(await lobby.find(table_id))

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinIn, request: Request) -> Joined:
        """Seat a guest by name, or with the session cookie the signed-in account."""
        account = await accounts.current(request)
        if account is None:
            await accounts.check_guest_name(body.name)
        seat_changes.check_join(await lobby.find(table_id), body.seat, time.monotonic())
        name, account_id = (body.name, None) if account is None else (account.name, account.id)
        seat, token = await lobby.join(table_id, body.seat, name, account_id)
        seat_changes.note(table_id, seat, time.monotonic())
        return Joined(seat=seat, token=token, table=(await lobby.find(table_id)).summary())

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, body: LeaveIn) -> dict[str, Any]:
        _, seat = await lobby.seat_with(table_id, body.token)
        await lobby.leave(table_id, body.token, body.bot)
        if seat is not None:
            seat_changes.note(table_id, seat, time.monotonic())
        return (await lobby.find(table_id)).summary()

    @app.get("/api/tables/{table_id}/record", response_model=dict[str, Any])
    async def record(table_id: str, request: Request) -> Response:
        return _encoded(request, await kept.record(await _finished(lobby, table_id)))

    @app.get("/api/tables/{table_id}/replay", response_model=dict[str, Any])
    async def replay(table_id: str, request: Request) -> Response:
        return _encoded(request, await kept.replay(await _finished(lobby, table_id)))

    @app.get("/api/tables/{table_id}/review", response_model=dict[str, Any])
    async def game_review(table_id: str, request: Request) -> Response:
        return _encoded(request, await review(kept, await lobby.find(table_id), lobby.reviews))

    @app.get("/api/tables/{table_id}/odds")
    async def odds(table_id: str) -> dict[str, Any]:
        table = await lobby.find(table_id)
        version, game, state = table.version, table.game, table.state
        found, odds_for = None, hooks_for(game.name).odds
        if odds_for is not None and table.mover() is not None:  # beside the loop
            found = await asyncio.to_thread(odds_for, game, state)
        if found is None:
            raise TableError("no_odds", "There are no odds to show for this position.")
        return {"version": version, "odds": found}

    @app.websocket("/api/tables/{table_id}/ws")
    async def socket(websocket: WebSocket, table_id: str, token: str | None = Query(None)) -> None:
        # `token` in the query is deprecated: the client offers it as a subprotocol instead.
        try:
            account_id = await _socket_account(accounts, websocket)
        except TableError as error:  # the cookie, from another site's page
            await websocket.accept(subprotocol=accepted_subprotocol(websocket))
            await refuse_socket(websocket, error, CLOSE_FOREIGN)
            return
        # the address's quota was checked before the handshake (`SocketGate`)
        await serve_socket(lobby, websocket, table_id, token, limits, account_id)


async def _socket_account(accounts: Accounts, websocket: WebSocket) -> str | None:
    """The signed-in account whose cookie a socket carries (refused from another site's
    page), or None."""
    check_origin(websocket, accounts.settings.origins)
    try:
        account = await accounts.current(websocket)
    except SQLAlchemyError:
        return None  # not known now: the socket is a token's or a spectator's
    return None if account is None else account.id


def _refusal(error: TableError) -> JSONResponse:
    """A refusal as JSON, with the HTTP status its code stands for."""
    answer = {"error": error.code, "message": error.message, **error.details}
    return JSONResponse(answer, STATUS.get(error.code, 400))


def _client_address(request: HTTPConnection) -> str | None:
    """Who made a request or opened a socket, for the quotas (behind a trusted proxy: the
    forwarded address)."""
    return request.client.host if request.client else None


async def _finished(lobby: Lobby, table_id: str) -> LiveTable:
    table = await lobby.find(table_id)
    if not table.over:
        raise TableError("not_over", "The record is shown once the game is over.")
    return table


def _encoded(request: Request, answer: Encoded) -> Response:
    """A kept JSON answer, compressed for a client that accepts gzip."""
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
        return Response(answer.compressed, media_type="application/json", headers=headers)
    vary = {"Vary": "Accept-Encoding"}
    return Response(answer.plain, media_type="application/json", headers=vary)
