"""Helpers of the account tests: an app on the test database with a manual clock, whose
client comes from the site's own page (its Origin), and signing up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spieltisch.server import create_app
from spieltisch.server.accounts.sessions import COOKIE, AccountSettings
from spieltisch.server.clock import ManualClock
from spieltisch.server.limits import Limits
from tests.server.database import db_url
from tests.server.helpers import TestClient, threads

__all__ = ["COOKIE", "PASSWORD", "SITE", "app_client", "sign_in", "sign_up"]

SITE = "http://testserver"
"""The address the test client's pages are at (its Origin)."""
PASSWORD = "a long pass phrase"


def app_client(
    folder: Path,
    clock: ManualClock | None = None,
    settings: AccountSettings | None = None,
    name: str = "tables",
    limits: Limits | None = None,
) -> TestClient:
    """A client of a new app on the test database `name` in `folder`, sending the site's
    Origin with every request."""
    folder.mkdir(parents=True, exist_ok=True)
    app = create_app(
        db_url(folder, name),
        bot_delay=0.0,
        executor=threads(),
        clock=clock or ManualClock(),
        accounts=settings,
        limits=limits,
    )
    return TestClient(app, headers={"origin": SITE})


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
