"""The shared services of a site of several workers, for the tests that start them: a
PostgreSQL server (a fresh schema per test) and Redis (a fresh key prefix per test).

Where either cannot be reached the test is skipped with the reason, except under CI=true,
where that is a failure (CI machines run both)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy.exc import SQLAlchemyError

from tests.server.database import db_url, new_schema, on_sqlite

__all__ = ["PG", "REDIS", "need_redis", "shared_db", "site_prefix"]

PG = os.environ.get("SPIELTISCH_TEST_PG", "postgresql+psycopg://root@127.0.0.1/test")
REDIS = os.environ.get("SPIELTISCH_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _missing(what: str, error: Exception) -> None:
    message = f"{what} is not reachable ({error}); the tests of several workers need it"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def need_redis() -> str:
    """Redis's URL, once it answers."""
    from redis import Redis
    from redis.exceptions import RedisError

    try:
        Redis.from_url(REDIS, socket_connect_timeout=3).ping()
    except RedisError as error:
        _missing(f"Redis at {REDIS}", error)
    return REDIS


def shared_db(folder: Path) -> str:
    """A database that several processes share: the PostgreSQL of the test run if there is
    one, else a fresh schema on the local PostgreSQL."""
    if not on_sqlite():
        return db_url(folder)
    try:
        create_engine(PG, connect_args={"connect_timeout": 3}).connect().close()
    except SQLAlchemyError as error:
        _missing(f"PostgreSQL at {PG}", error)
    return new_schema(PG)


def site_prefix() -> str:
    """A Redis key prefix of its own, so tests running side by side do not meet."""
    return f"spieltisch:test-{secrets.token_hex(4)}:"
