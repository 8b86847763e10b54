"""What a client may send: the size of a request body and of a WebSocket message, and how
deeply a message's JSON may nest; how often a seat may change hands; how many WebSockets one
address may hold and open. Each limit breached is a clear error, never a stall."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from spieltisch.server.table import TableError

if TYPE_CHECKING:
    from spieltisch.server.table import LiveTable

__all__ = [
    "BodyLimit",
    "Limits",
    "SeatChanges",
    "SocketGate",
    "SocketQuota",
    "SocketRefused",
    "TableQuota",
    "json_depth",
    "read_json",
    "refusal_body",
    "strict_json",
]

QUOTA_WINDOW = 60.0
"""Tables made by one address, and the joins and leaves at one seat, are counted over this
many seconds."""


@dataclass(frozen=True)
class Limits:
    body: int = 64 * 1024  # bytes of a REST request body
    message: int = 4096  # characters of a WebSocket message
    depth: int = 8  # levels of nesting in a WebSocket message's JSON
    tables_per_minute: int = 20  # tables one client address may make in a minute (0: any)
    open_tables: int = 1000  # tables in play the server holds at once (see `Lobby.in_play`)
    active_minutes: float = 30.0  # a table is in play while it changed this recently
    waiting_hours: float = 1.0  # a table waiting for players or a guided game is closed after
    seat_changes_per_minute: int = 10  # joins and leaves at one seat in a minute (0: any)
    sockets_per_address: int = 100  # WebSockets one client address holds open at once (0: any)
    reconnects_per_second: int = 20  # new ones a second from one address, over 10 s (0: any)
    turn_based_per_player: int = 20  # unfinished turn-based tables one player may sit at


@dataclass
class TableQuota:
    """Who may make a table now: at most `per_minute` from one address in any minute, and
    only while fewer than `open_tables` games are in play."""

    per_minute: int = 20
    open_tables: int = 1000
    made: dict[str, list[float]] = field(default_factory=dict)  # address -> times

    def admit(self, address: str | None, now: float, open_now: int) -> None:
        """Count a new table of `address`, or refuse it (changing nothing)."""
        if open_now >= self.open_tables:
            raise TableError(
                "server_full",
                f"This server holds {self.open_tables} games in play, its most; join one of "
                "them or try again later.",
            )
        if address is None or self.per_minute <= 0:
            return
        recent = [t for t in self.made.get(address, []) if now - t < QUOTA_WINDOW]
        if len(recent) >= self.per_minute:
            wait = math.ceil(QUOTA_WINDOW - (now - recent[0]))
            raise TableError(
                "too_many_tables",
                f"At most {self.per_minute} new tables a minute from one address; "
                f"try again in {wait} s.",
            )
        self.made[address] = [*recent, now]
        if len(self.made) > 4 * self.open_tables:  # forget addresses that went quiet
            self.made = {a: t for a, t in self.made.items() if now - t[-1] < QUOTA_WINDOW}


@dataclass
class SeatChanges:
    """How often a seat may change hands: once a seat has been joined or left `per_minute`
    times in the last minute, joining it is refused (leaving never is). Each join and leave
    is a stored entry that every start replays, so a client joining and leaving in a loop
    would otherwise grow a table without end."""

    per_minute: int = 10
    changes: dict[tuple[str, int], list[float]] = field(default_factory=dict)  # -> times

    def check_join(self, table: LiveTable, seat: int | None, now: float) -> None:
        """Refuse to seat anybody at `seat` of `table` (None: the first free seat, which
        the table would give) when it changed hands too often; changes nothing."""
        if self.per_minute <= 0:
            return
        if seat is None:
            free = [s.seat for s in table.seats if s.bot is None and s.name is None]
            seat = free[0] if free else None
        recent = self._recent((table.id, seat), now) if seat is not None else []
        if len(recent) >= self.per_minute:
            wait = math.ceil(QUOTA_WINDOW - (now - recent[0]))
            raise TableError(
                "too_many_seat_changes",
                f"This seat was taken or given up {self.per_minute} times in the last minute, "
                f"its most; try again in {wait} s.",
            )

    def note(self, table_id: str, seat: int, now: float) -> None:
        """Count a join or a leave at `seat` of table `table_id`."""
        if self.per_minute <= 0:
            return
        key = (table_id, seat)
        self.changes[key] = [*self._recent(key, now), now]
        if len(self.changes) > 10_000:  # forget seats that went quiet
            self.changes = {k: t for k, t in self.changes.items() if now - t[-1] < QUOTA_WINDOW}

    def _recent(self, key: tuple[str, int], now: float) -> list[float]:
        return [t for t in self.changes.get(key, []) if now - t < QUOTA_WINDOW]


class SocketRefused(TableError):
    """A WebSocket its address may not open now; `retry_after`: seconds until it may."""

    def __init__(self, code: str, message: str, retry_after: int) -> None:
        super().__init__(code, message)
        self.retry_after = retry_after


RECONNECT_SPAN = 10.0
"""New sockets of one address are counted on average over this many seconds: a burst (a
restart, after which every browser behind one address reconnects at once) gets in, a
steady stream beyond the rate does not."""


@dataclass
class SocketQuota:
    """The WebSockets of one client address: at most `most_open` open at once, and at most
    `per_second` opened a second on average over `RECONNECT_SPAN` seconds (a bucket of
    `per_second * RECONNECT_SPAN` admissions, refilled at `per_second` a second).

    Refusals are counted the same way: an address refused more than `per_second` times a
    second on average (a client that ignores its 429s, not a browser backing off) is shut
    out: its new connections are closed as they are accepted, unanswered, until its bucket
    of refusals fills again."""

    most_open: int = 100
    per_second: int = 20
    open: Counter[str] = field(default_factory=Counter)
    buckets: dict[str, tuple[float, float]] = field(default_factory=dict)  # -> (left, when)
    refusals: dict[str, tuple[float, float]] = field(default_factory=dict)  # -> (left, when)

    def admit(self, address: str | None, now: float) -> None:
        """Count a new socket of `address`, or refuse it (then it is not open)."""
        if address is None:
            return
        refused = self.refuse(address, now)
        if refused is not None:
            raise refused
        if self.per_second > 0:
            self.buckets[address] = (self._left(self.buckets, address, now) - 1, now)
            self.buckets = self._forget_full(self.buckets, now)
        self.open[address] += 1

    def refuse(self, address: str, now: float) -> SocketRefused | None:
        """`refusal`, counting the refusal (towards `shut_out`) when there is one."""
        refused = self.refusal(address, now)
        if refused is not None and self.per_second > 0:
            self.refusals[address] = (self._left(self.refusals, address, now) - 1, now)
            self.refusals = self._forget_full(self.refusals, now)
        return refused

    def refusal(self, address: str, now: float) -> SocketRefused | None:
        """Why a new socket of `address` would be refused now (None: it would not); counts
        nothing."""
        if 0 < self.most_open <= self.open[address]:
            return SocketRefused(
                "too_many_sockets",
                f"At most {self.most_open} open connections from one address; close one first.",
                retry_after=1,
            )
        left = self._left(self.buckets, address, now) if self.per_second > 0 else 1.0
        if left < 1:
            wait = math.ceil((1 - left) / self.per_second)
            return SocketRefused(
                "too_many_reconnects",
                f"At most {self.per_second} new connections a second from one address; "
                f"try again in {wait} s.",
                retry_after=wait,
            )
        return None

    def shut_out(self, address: str, now: float) -> bool:
        """Whether a new connection of `address` is to be closed unanswered: it was refused
        too often lately (a dictionary look-up for every other address)."""
        if address not in self.refusals:
            return False
        return self._left(self.refusals, address, now) < 1

    def release(self, address: str | None) -> None:
        """A socket of `address` that was admitted has closed."""
        if address is None:
            return
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]

    def _left(self, buckets: dict[str, tuple[float, float]], address: str, now: float) -> float:
        """What is left in the bucket of `address` (refilled up to `now`)."""
        full = self.per_second * RECONNECT_SPAN
        left, when = buckets.get(address, (full, now))
        return min(full, left + (now - when) * self.per_second)

    @staticmethod
    def _forget_full(
        buckets: dict[str, tuple[float, float]], now: float
    ) -> dict[str, tuple[float, float]]:
        if len(buckets) <= 10_000:
            return buckets
        # forget addresses whose bucket has filled again (RECONNECT_SPAN: from empty to full)
        return {a: b for a, b in buckets.items() if now - b[1] < RECONNECT_SPAN}


class SocketGate:
    """ASGI middleware: a WebSocket over its address's `SocketQuota` is refused before its
    handshake, with a 429 answer whose JSON body says why (`{"error": ..., "message": ...}`,
    as every refusal) and a `Retry-After`. Nothing else is done for it: no routing, no lobby,
    no socket; a storm of reconnects from one address costs the others little. An admitted
    socket is counted until it ends."""

    def __init__(self, app: ASGIApp, quota: SocketQuota, clock: Callable[[], float]) -> None:
        self.app = app
        self.quota = quota
        self.clock = clock  # the wall clock: the game clock of tests may stand still

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        address = scope["client"][0] if scope.get("client") else None
        try:
            self.quota.admit(address, self.clock())
        except SocketRefused as refused:
            await _deny(scope, send, refused)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.quota.release(address)


async def _deny(scope: Scope, send: Send, refused: SocketRefused) -> None:
    """Refuse a WebSocket's handshake with 429 and the refusal as JSON (a server without
    denial answers refuses it with its plain 403)."""
    if "websocket.http.response" not in scope.get("extensions", {}):
        await send({"type": "websocket.close", "code": 1013})
        return
    body = refusal_body(refused.code, refused.message)
    start: Message = {
        "type": "websocket.http.response.start",
        "status": 429,
        "headers": [*_json_headers(body), (b"retry-after", b"%d" % refused.retry_after)],
    }
    await send(start)
    await send({"type": "websocket.http.response.body", "body": body})


def json_depth(value: Any) -> int:
    """How deeply `value` nests lists and objects (a plain value: 0)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children = list(item.values()) if isinstance(item, dict) else item
        if isinstance(children, list):
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in children)
    return deepest


def strict_json(text: str | bytes) -> Any:
    """The JSON value of `text`, refusing (with `json.JSONDecodeError`) what Python's parser
    lets through but nothing after it can use: a number beyond a float's range (`1e400`),
    `NaN` and `Infinity`, and a string or key with a lone surrogate (`"\\ud800"`), which is
    no character and cannot be written as UTF-8."""
    value = json.loads(text, parse_float=_finite, parse_constant=_no_constant)
    if _has_lone_surrogate(value):
        raise json.JSONDecodeError(
            "a string holds a lone surrogate (\\ud800 to \\udfff), which is no character",
            str(text),
            0,
        )
    return value


def _finite(digits: str) -> float:
    number = float(digits)
    if not math.isfinite(number):
        raise json.JSONDecodeError("a number is beyond the range of a float", digits, 0)
    return number


def _no_constant(name: str) -> float:
    raise json.JSONDecodeError(f"{name} is not a JSON number", name, 0)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _has_lone_surrogate(value: Any) -> bool:
    """Whether a string or key anywhere in `value` holds a surrogate (the parser joins a
    valid pair into one character, so any left is alone)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def read_json(text: str, limits: Limits) -> Any:
    """The JSON value of a message, refused when too long, malformed or nested too deeply."""
    if len(text) > limits.message:
        raise TableError("too_large", f"A message may have at most {limits.message} characters.")
    too_deep = TableError("too_deep", f"A message may nest at most {limits.depth} levels.")
    try:
        value = strict_json(text)
    except RecursionError:  # far too deep for the parser itself
        raise too_deep from None
    except json.JSONDecodeError as error:
        raise TableError("bad_json", f"The message is not valid JSON: {error.msg}.") from None
    except ValueError:
        raise TableError("bad_json", "The message is not valid JSON.") from None
    if json_depth(value) > limits.depth:
        raise too_deep
    return value


class BodyLimit:
    """ASGI middleware: a request whose body is larger than `limit` bytes is answered 413
    before it is read, one without a declared length 411."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = self._refusal(dict(scope["headers"]))
            if refusal is not None:
                await _answer(send, *refusal)
                return
        await self.app(scope, receive, send)

    def _refusal(self, headers: dict[bytes, bytes]) -> tuple[int, str, str] | None:
        length = headers.get(b"content-length")
        if length is None:
            if b"transfer-encoding" in headers:
                return 411, "length_required", "Send the request body with a Content-Length."
            return None
        if not length.isdigit() or int(length) > self.limit:
            return 413, "too_large", f"A request body may have at most {self.limit} bytes."
        return None


async def _answer(send: Send, status: int, code: str, message: str) -> None:
    body = refusal_body(code, message)
    await send({"type": "http.response.start", "status": status, "headers": _json_headers(body)})
    await send({"type": "http.response.body", "body": body})


def refusal_body(code: str, message: str) -> bytes:
    """A refusal as the REST routes answer it."""
    return json.dumps({"error": code, "message": message}).encode()


def _json_headers(body: bytes) -> list[tuple[bytes, bytes]]:
    return [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
