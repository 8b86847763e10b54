"""The accounts part of `web_load.py --accounts`: every player signs up, then signs in (timed:
sign-ins per second and each one's round trip), joins with the session cookie, and plays
through a socket that carries the cookie and no token, so every table's seats are the
accounts' and every connection is found by its session.

Each request names its own cookie: the client's jar keeps none, so the players sharing one
HTTP client stay apart.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any

import httpx

__all__ = ["COOKIE", "SignIns", "no_cookies", "sign_in_all", "signed_in_headers"]

COOKIE = "spieltisch_session"
PASSWORD = "a load test pass phrase"
AT_ONCE = 20
"""Sign-ups and sign-ins under way at once (the client's connections)."""


@dataclass
class SignIns:
    """The timed sign-ins of a run."""

    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0

    def figures(self) -> dict[str, Any]:
        count = len(self.latencies)
        ordered = sorted(self.latencies)
        return {
            "sign_ins": count,
            "sign_ins_per_second": round(count / self.seconds, 1) if self.seconds else 0.0,
            "sign_in_p50_ms": round(1000 * statistics.median(ordered), 1) if count else None,
            "sign_in_p99_ms": round(1000 * ordered[int(0.99 * (count - 1))], 1) if count else None,
        }


def no_cookies() -> CookieJar:
    """A jar that keeps no cookie (each request names its player's)."""
    return CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))


def signed_in_headers(base: str, secret: str) -> dict[str, str]:
    """A player's session cookie, and the site's own Origin that a request with it needs."""
    return {"cookie": f"{COOKIE}={secret}", "origin": base}


def player_name(table: int, seat: int) -> str:
    return f"load{table}x{seat}"


async def sign_in_all(
    client: httpx.AsyncClient, base: str, tables: int, timed: SignIns
) -> list[list[str]]:
    """Sign up two players per table, then sign each in (timed); their session secrets."""
    names = [[player_name(t, s) for s in (0, 1)] for t in range(tables)]
    gate = asyncio.Semaphore(AT_ONCE)

    async def once(path: str, name: str) -> str:
        async with gate:
            started = time.perf_counter()
            body = {"name": name, "password": PASSWORD}
            response = await client.post(path, json=body, headers={"origin": base})
            response.raise_for_status()
            if path.endswith("signin"):
                timed.latencies.append(time.perf_counter() - started)
            return _secret(response)

    await asyncio.gather(*(once("/api/account/signup", n) for pair in names for n in pair))
    started = time.perf_counter()
    secrets = await asyncio.gather(
        *(once("/api/account/signin", n) for pair in names for n in pair)
    )
    timed.seconds = time.perf_counter() - started
    return [list(secrets[2 * t : 2 * t + 2]) for t in range(tables)]


def _secret(response: httpx.Response) -> str:
    for header in response.headers.get_list("set-cookie"):
        name, _, rest = header.partition("=")
        if name.strip() == COOKIE:
            return rest.split(";", 1)[0]
    raise SystemExit(f"no session cookie in the answer to {response.request.url}")
