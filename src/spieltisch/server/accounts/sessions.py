"""The session cookie, the settings of accounts, and the check that a request authenticated by
the cookie comes from the site's own pages (CSRF).

The cookie holds a random secret; the database keeps only its SHA-256. It is HttpOnly (no
script reads it), SameSite=Lax (other sites' pages do not send it with their forms' POSTs)
and Secure when the page was loaded over HTTPS. A state-changing request that carries it must
also name the site as its Origin (or, without one, its Referer), so another site's page
cannot act for a signed-in player, whatever a browser does with SameSite.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.responses import Response

from spieltisch.server.accounts.passwords import DEFAULT_COST, PasswordCost
from spieltisch.server.common import TableError

__all__ = [
    "COOKIE",
    "STATE_CHANGING",
    "AccountSettings",
    "check_origin",
    "clear_cookie",
    "cookie_secret",
    "hash_secret",
    "new_secret",
    "set_cookie",
]

COOKIE = "spieltisch_session"
"""The name of the session cookie."""
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""Request methods that change something: with the cookie, only from the site's own pages."""
SESSION_IDLE = 30 * 24 * 3600.0
"""Seconds a session lasts without use (30 days); then it is refused and deleted."""
SESSION_REFRESH = 3600.0
"""A session's last use is written at most once in this many seconds (not on every request)."""
SIGN_IN_WINDOW = 15 * 60.0
"""Failed sign-ins, and sign-ups, are counted over this many seconds."""
FAILURES_PER_NAME = 10
"""Failed sign-ins of one user name within the window before its sign-ins wait."""
FAILURES_PER_ADDRESS = 30
"""Failed sign-ins from one client address within the window before its sign-ins wait."""
SIGN_UPS_PER_ADDRESS = 20
"""New accounts from one client address within the window before its sign-ups wait: enough
for a class or a club behind one address, too few for a script making accounts by the
hundred."""


@dataclass(frozen=True)
class AccountSettings:
    """How long sessions last and how sign-ins and sign-ups are throttled (a limit of 0 is
    none); `origins` are other addresses (scheme://host:port) whose pages may use the
    cookie, beside the site's own."""

    session_idle: float = SESSION_IDLE
    session_refresh: float = SESSION_REFRESH
    sign_in_window: float = SIGN_IN_WINDOW
    failures_per_name: int = FAILURES_PER_NAME
    failures_per_address: int = FAILURES_PER_ADDRESS
    sign_ups_per_address: int = SIGN_UPS_PER_ADDRESS
    origins: tuple[str, ...] = ()
    password_cost: PasswordCost = DEFAULT_COST


def new_secret() -> str:
    """A session's secret: 32 random bytes, URL-safe (the cookie's value)."""
    return secrets.token_urlsafe(32)


def hash_secret(secret: str) -> str:
    """What the database keeps of a session's secret."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def cookie_secret(connection: HTTPConnection) -> str | None:
    """The session secret a request or socket carries, if any."""
    return connection.cookies.get(COOKIE) or None


def set_cookie(response: Response, connection: HTTPConnection, secret: str, idle: float) -> None:
    response.set_cookie(
        COOKIE,
        secret,
        max_age=int(idle),
        path="/",
        httponly=True,
        samesite="lax",
        secure=connection.url.scheme in ("https", "wss"),
    )


def clear_cookie(response: Response, connection: HTTPConnection) -> None:
    response.delete_cookie(
        COOKIE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=connection.url.scheme in ("https", "wss"),
    )


def check_origin(connection: HTTPConnection, origins: tuple[str, ...]) -> None:
    """Refuse (`foreign_origin`) a request or socket that carries the session cookie but
    comes from a page of another site: its Origin (or, without one, its Referer) must be this
    site's host and port, or one of `origins`."""
    if cookie_secret(connection) is None:
        return
    said = connection.headers.get("origin") or connection.headers.get("referer")
    if said is None or not _ours(said, connection, origins):
        raise TableError(
            "foreign_origin",
            "This request came from another site's page; open the game table itself to do this.",
        )


def _ours(said: str, connection: HTTPConnection, origins: tuple[str, ...]) -> bool:
    try:
        parts = urlsplit(said)
        where = f"{parts.scheme}://{parts.netloc}".lower()
    except ValueError:
        return False
    if where in (_origin(o) for o in origins):
        return True
    host = connection.headers.get("host", "").lower()
    return bool(host) and parts.scheme in ("http", "https") and parts.netloc.lower() == host


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()
