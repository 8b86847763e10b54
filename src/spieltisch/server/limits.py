"""What a client may send: the size of a request body and of a WebSocket message, and how
deeply a message's JSON may nest. Each limit breached is a clear error, never a stall."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from spieltisch.server.table import TableError

__all__ = ["BodyLimit", "Limits", "TableQuota", "json_depth", "read_json", "strict_json"]

QUOTA_WINDOW = 60.0
"""Tables made by one address are counted over this many seconds."""


@dataclass(frozen=True)
class Limits:
    body: int = 64 * 1024  # bytes of a REST request body
    message: int = 4096  # characters of a WebSocket message
    depth: int = 8  # levels of nesting in a WebSocket message's JSON
    tables_per_minute: int = 20  # tables one client address may make in a minute (0: any)
    open_tables: int = 1000  # unfinished tables the server holds at once


@dataclass
class TableQuota:
    """Who may make a table now: at most `per_minute` from one address in any minute, and
    only while fewer than `open_tables` games are unfinished."""

    per_minute: int = 20
    open_tables: int = 1000
    made: dict[str, list[float]] = field(default_factory=dict)  # address -> times

    def admit(self, address: str | None, now: float, open_now: int) -> None:
        """Count a new table of `address`, or refuse it (changing nothing)."""
        if open_now >= self.open_tables:
            raise TableError(
                "server_full",
                f"This server holds {self.open_tables} unfinished games, its most; join one "
                "of them or try again later.",
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
    body = json.dumps({"error": code, "message": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
