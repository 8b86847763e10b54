"""Helpers of the account tests: an app on the test database with a manual clock, whose
client comes from the site's own page (its Origin), and signing up."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from spieltisch.server import create_app
from spieltisch.server.accounts.passwords import PasswordCost
from spieltisch.server.accounts.sessions import COOKIE, AccountSettings
from spieltisch.server.clock import ManualClock
from spieltisch.server.limits import Limits
from tests.server.database import db_url
from tests.server.helpers import TestClient, threads

__all__ = ["COOKIE", "PASSWORD", "QUICK_PASSWORDS", "SITE", "app_client", "sign_in", "sign_up"]

SITE = "http://testserver"
"""The address the test client's pages are at (its Origin)."""
PASSWORD = "a long pass phrase"
QUICK_PASSWORDS = PasswordCost(time_cost=1, memory_kib=64)
"""A hash in microseconds instead of a tenth of a second: the account tests sign up and in
hundreds of times. `test_accounts.py` checks the site's own cost once."""


def app_client(
    folder: Path,
    clock: ManualClock | None = None,
    settings: AccountSettings | None = None,
    name: str = "tables",
    password_cost: PasswordCost = QUICK_PASSWORDS,
    limits: Limits | None = None,
    address: str = "testclient",
) -> TestClient:
    """A client of a new app on the test database `name` in `folder`, sending the site's
    Origin with every request from the client `address`; its passwords hashed at
    `password_cost`."""
    folder.mkdir(parents=True, exist_ok=True)
    settings = replace(settings or AccountSettings(), password_cost=password_cost)
    app = create_app(
        db_url(folder, name),
        bot_delay=0.0,
        executor=threads(),
        clock=clock or ManualClock(),
        accounts=settings,
        limits=limits,
    )
    return TestClient(app, headers={"origin": SITE}, client=(address, 50000))


def sign_up(
    client: TestClient, name: str = "Ada", password: str = PASSWORD, **extra: Any
) -> dict[str, Any]:
    response = client.post(
        "/api/account/signup", json={"name": name, "password": password, **extra}
    )
    assert response.status_code == 201, response.text
    return dict(response.json())


def sign_in(client: TestClient, name: str = "Ada", password: str = PASSWORD, **extra: Any) -> Any:
    return client.post("/api/account/signin", json={"name": name, "password": password, **extra})
