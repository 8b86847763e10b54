"""Passwords: hashed with Argon2id, checked in the same time whether or not an account exists.

Hashing is slow on purpose (tens of milliseconds of CPU): callers run it beside the event
loop. Only the hash is ever stored; a password is never logged or kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

__all__ = [
    "DEFAULT_COST",
    "MAX_PASSWORD",
    "MIN_PASSWORD",
    "PasswordCost",
    "Verdict",
    "check_new_password",
    "hash_password",
    "verify_nobody",
    "verify_password",
]

MIN_PASSWORD = 8
"""The shortest password, as NIST SP 800-63B asks of passwords a person chooses."""
MAX_PASSWORD = 256
"""The longest: long pass phrases are welcome, a megabyte to hash is not."""
TIME_COST = 3
"""Argon2id passes over memory. With `MEMORY_KIB` one hash costs about 105-110 ms of
processor time on the two-core test machine (`benchmarks/password_hash.py`), within the
50-150 ms aimed at; OWASP's floor (2 passes over 19 MiB) took under 40 ms there."""
MEMORY_KIB = 32 * 1024
"""Argon2id memory in KiB per hash: a sign-in costs this much for a moment."""
PARALLELISM = 1
"""Lanes of one hash: a server on few cores hashes several sign-ins side by side instead."""


@dataclass(frozen=True)
class PasswordCost:
    """How much work one Argon2id hash is: passes, memory in KiB and lanes."""

    time_cost: int = TIME_COST
    memory_kib: int = MEMORY_KIB
    parallelism: int = PARALLELISM


DEFAULT_COST = PasswordCost()
"""The site's cost; tests that sign up many times may pass a cheaper one in their settings."""


class PasswordError(ValueError):
    """A new password that is refused, with a sentence saying why."""


@dataclass(frozen=True)
class Verdict:
    """A password checked against a stored hash: right or not, and whether the hash should be
    made anew with today's parameters (they were raised since it was stored)."""

    right: bool
    rehash: bool = False


@cache
def _hasher(cost: PasswordCost) -> PasswordHasher:
    return PasswordHasher(
        time_cost=cost.time_cost,
        memory_cost=cost.memory_kib,
        parallelism=cost.parallelism,
        type=Type.ID,
    )


def check_new_password(password: str, user_name: str) -> None:
    """Refuse a password too short, too long, or the user name itself."""
    if len(password) < MIN_PASSWORD:
        raise PasswordError(f"A password needs at least {MIN_PASSWORD} characters.")
    if len(password) > MAX_PASSWORD:
        raise PasswordError(f"A password can have at most {MAX_PASSWORD} characters.")
    if password.casefold() == user_name.casefold():
        raise PasswordError("A password must not be the user name.")


def hash_password(password: str, cost: PasswordCost = DEFAULT_COST) -> str:
    """The Argon2id hash of `password`, with a fresh salt (the PHC string)."""
    return _hasher(cost).hash(password)


def verify_password(stored: str, password: str, cost: PasswordCost = DEFAULT_COST) -> Verdict:
    """Whether `password` matches the `stored` hash (made with whatever cost it names); a
    stored value that is no hash at all matches nothing. `rehash` when `cost` differs."""
    try:
        _hasher(cost).verify(stored, password)
    except (VerificationError, InvalidHashError):
        return Verdict(False)
    return Verdict(True, _hasher(cost).check_needs_rehash(stored))


@cache
def _nobody(cost: PasswordCost) -> str:
    return hash_password("a password of no account", cost)


def verify_nobody(password: str, cost: PasswordCost = DEFAULT_COST) -> Verdict:
    """The same work as checking a password of an account, for a user name that has none, so
    that the time of an answer does not tell whether the name exists. Never right."""
    verify_password(_nobody(cost), password, cost)
    return Verdict(False)
