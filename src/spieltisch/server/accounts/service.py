"""What an account can do: sign up, sign in and out, change its password and settings, be
deleted, download its data, list its tables. The routes (`accounts.routes`) call these.

Nothing here waits on the event loop: database calls run in the lobby's storage threads and
Argon2 in a few password threads of their own. A wrong user name and a wrong password take
the same work (a dummy hash is checked), and failed sign-ins are counted in the database per
user name and per client address, so every worker throttles the same. New accounts are
counted the same way per client address, and a sign-up over the limit is refused before its
password is hashed.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from starlette.requests import HTTPConnection

from spieltisch.core.protocol import JsonValue
from spieltisch.server.accounts.names import UserNameError, name_key, read_user_name
from spieltisch.server.accounts.passwords import (
    PasswordError,
    Verdict,
    check_new_password,
    hash_password,
    verify_nobody,
    verify_password,
)
from spieltisch.server.accounts.seating import claim, give_up, reload_renamed
from spieltisch.server.accounts.sessions import (
    AccountSettings,
    cookie_secret,
    hash_secret,
    new_secret,
)
from spieltisch.server.accounts.store import AccountRow, AccountStore, SeatOfAccount
from spieltisch.server.common import TableError, clean_name, tutorial_left
from spieltisch.server.mail.store import MailStore
from spieltisch.server.rated import ratings_of
from spieltisch.server.rating_stats import recent_games
from spieltisch.server.replays import FinishedGames
from spieltisch.server.table import LiveTable
from spieltisch.server.turnbased import turn_time_left

if TYPE_CHECKING:
    from spieltisch.server.lobby import Lobby

__all__ = ["LANGUAGES", "Accounts", "account_json"]

LANGUAGES = ("de", "en", "fr", "it", "nl")
"""The languages an account's settings may choose (the client's)."""
HASHERS = 2
"""Threads that hash passwords: as many as the machine's cores are few; more sign-ins wait."""
MOST_CLAIMS = 50
"""Guest seats one sign-in or sign-up may take over."""
T = TypeVar("T")


def account_json(account: AccountRow) -> dict[str, JsonValue]:
    """An account as its owner sees it (never its hash)."""
    return {"name": account.name, "settings": account.settings}


class Accounts:
    """The accounts of one site, over the lobby's database and storage threads."""

    def __init__(self, lobby: Lobby, settings: AccountSettings, finished: FinishedGames) -> None:
        self.lobby = lobby
        self.settings = settings
        self.finished = finished
        self.store = AccountStore(lobby.store.engine)
        self._hashing = ThreadPoolExecutor(HASHERS, thread_name_prefix="password")
        self._sign_ups = asyncio.Lock()

    def close(self) -> None:
        self._hashing.shutdown(wait=True, cancel_futures=True)

    async def _password_work(self, call: Callable[..., T], *args: Any) -> T:
        """Argon2 beside the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._hashing, partial(call, *args))

    # --- sessions ---------------------------------------------------------------------------
    async def current(self, connection: HTTPConnection) -> AccountRow | None:
        """The account whose live session cookie the request carries, or None. An expired
        session is deleted; a used one is marked used at most once per refresh interval."""
        secret = cookie_secret(connection)
        if secret is None:
            return None
        storage, id_hash, now = self.lobby.storage, hash_secret(secret), self.lobby.clock.now()
        found = await storage.read(self.store.session, id_hash)
        if found is None:
            return None
        account, last_used = found
        if now - last_used > self.settings.session_idle:
            await storage.write(self.store.drop_session, id_hash)
            return None
        if now - last_used > self.settings.session_refresh:
            await storage.write(self.store.touch_session, id_hash, now)
        return account

    async def signed_in(self, connection: HTTPConnection) -> AccountRow:
        account = await self.current(connection)
        if account is None:
            raise TableError("not_signed_in", "Sign in first: this needs your account.")
        return account

    async def start_session(self, account: AccountRow, connection: HTTPConnection) -> str:
        """A new session (its secret, for the cookie); the browser's old one ends."""
        secret, old = new_secret(), cookie_secret(connection)
        old_hash = None if old is None else hash_secret(old)
        now = self.lobby.clock.now()
        await self.lobby.storage.write(
            self.store.add_session, hash_secret(secret), account.id, now, old_hash
        )
        return secret

    async def end_session(self, connection: HTTPConnection) -> None:
        secret = cookie_secret(connection)
        if secret is not None:
            await self.lobby.storage.write(self.store.drop_session, hash_secret(secret))

    # --- signing up and in ------------------------------------------------------------------
    async def sign_up(self, typed_name: str, password: str, address: str | None) -> AccountRow:
        """A new account of that name and password. Refused (`too_many_sign_ups`) before any
        hashing while its client address has made too many lately. The sign-up is counted
        before its work, so sign-ups sent at once cannot pass the check together, and taken
        back if it makes no account."""
        try:
            name = read_user_name(typed_name)
            check_new_password(password, name)
        except UserNameError as error:
            raise TableError("bad_name", str(error)) from None
        except PasswordError as error:
            raise TableError("weak_password", str(error)) from None
        counted = _sign_up_key(address) if self.settings.sign_ups_per_address else None
        row = None if counted is None else await self._count_sign_up(counted)
        try:
            return await self._add_account(name, password)
        except Exception:
            if row is not None:
                await self.lobby.storage.write(self.store.drop_record, row)
            raise

    async def _add_account(self, name: str, password: str) -> AccountRow:
        key = name_key(name)
        if await self.lobby.storage.read(self.store.account_by_key, key) is not None:
            raise _name_taken(name)
        hashed = await self._password_work(hash_password, password, self.settings.password_cost)
        account = AccountRow(secrets.token_hex(16), name, key, hashed, self.lobby.clock.now(), {})
        if not await self.lobby.storage.write(self.store.add_account, account):
            raise _name_taken(name)
        return account

    async def sign_in(self, typed_name: str, password: str, address: str | None) -> AccountRow:
        """The account of that name and password; the same refusal, after the same work,
        whether the name or the password is wrong."""
        key = name_key(typed_name.strip())
        keys = _throttle_keys(key, address)
        failed_before = await self._check_throttle(keys)
        account = await self.lobby.storage.read(self.store.account_by_key, key)
        if account is None:
            await self._password_work(verify_nobody, password, self.settings.password_cost)
        elif await self._right(account, password):
            if failed_before:  # a right password clears its name's count
                await self.lobby.storage.write(self.store.clear_records, keys[0])
            return account
        await self._record(keys)
        raise TableError("bad_sign_in", "The user name or the password is wrong.")

    async def check_password(self, account: AccountRow, password: str, address: str | None) -> None:
        """Refuse (`wrong_password`) an account's wrong password, throttled as sign-ins are."""
        keys = _throttle_keys(account.name_key, address)
        await self._check_throttle(keys)
        if not await self._right(account, password):
            await self._record(keys)
            raise TableError("wrong_password", "That is not your password.")

    async def _right(self, account: AccountRow, password: str) -> bool:
        verdict: Verdict = await self._password_work(
            verify_password, account.password_hash, password, self.settings.password_cost
        )
        if verdict.right and verdict.rehash:
            hashed = await self._password_work(hash_password, password, self.settings.password_cost)
            await self.lobby.storage.write(self.store.rehash, account.id, hashed)
        return verdict.right

    async def _check_throttle(self, keys: list[str]) -> bool:
        """Refuse (`too_many_sign_ins`) while a key has failed too often; else whether the
        first key (the user name's) has failed at all lately."""
        settings = self.settings
        limits = [settings.failures_per_name, settings.failures_per_address][: len(keys)]
        found, retry = await self._recent(keys, limits)
        if retry is not None:
            raise TableError(
                "too_many_sign_ins",
                f"Too many wrong passwords; try again in {retry} s.",
                retry_after=retry,
            )
        return bool(found[keys[0]])

    async def _count_sign_up(self, key: str) -> int:
        """Count a sign-up from the address of `key` (the row's id), or refuse it
        (`too_many_sign_ups`) while the address has made as many accounts within the window
        as it may. This worker checks and counts one sign-up at a time; other workers may
        slip one in between."""
        async with self._sign_ups:
            _, retry = await self._recent([key], [self.settings.sign_ups_per_address])
            if retry is not None:
                raise TableError(
                    "too_many_sign_ups",
                    f"Too many new accounts from this address; try again in {retry} s.",
                    retry_after=retry,
                )
            (row,) = await self._record([key])
        return row

    async def _recent(
        self, keys: list[str], limits: list[int]
    ) -> tuple[dict[str, list[float]], int | None]:
        """The times of each key's latest events within the window, and the whole seconds
        until every key is below its limit again (None when none is at it; 0 is no limit)."""
        settings, now = self.settings, self.lobby.clock.now()
        since = now - settings.sign_in_window
        found = await self.lobby.storage.read(self.store.recorded, keys, since, max(limits))
        waits = [
            found[key][limit - 1] + settings.sign_in_window - now
            for key, limit in zip(keys, limits, strict=True)
            if 0 < limit <= len(found[key])
        ]
        return found, max(1, math.ceil(max(waits))) if waits else None

    async def _record(self, keys: list[str]) -> list[int]:
        """A failed sign-in or a sign-up, counted under each key (the rows' ids)."""
        now = self.lobby.clock.now()
        forget = now - self.settings.sign_in_window
        return await self.lobby.storage.write(self.store.record, keys, now, forget)

    async def claim_seats(self, account: AccountRow, seats: list[tuple[str, str]]) -> None:
        """This browser's guest seats (table, token) become the account's; others are
        ignored."""
        for table_id, token in seats[:MOST_CLAIMS]:
            try:
                await claim(self.lobby, table_id, token, account.id, account.name)
            except TableError:
                continue

    async def check_guest_name(self, name: str) -> None:
        """Refuse a guest's name that is an account's (`name_taken`)."""
        key = name_key(clean_name(name))
        if await self.lobby.storage.read(self.store.account_by_key, key) is not None:
            raise TableError(
                "name_taken",
                f"The name {clean_name(name)!r} belongs to a player with an account; sign in "
                "or choose another name.",
            )

    # --- the account ------------------------------------------------------------------------
    async def change_password(
        self, account: AccountRow, old: str, new: str, connection: HTTPConnection
    ) -> None:
        """A new password; every other session of the account ends."""
        await self.check_password(account, old, _address(connection))
        try:
            check_new_password(new, account.name)
        except PasswordError as error:
            raise TableError("weak_password", str(error)) from None
        hashed = await self._password_work(hash_password, new)
        secret = cookie_secret(connection)
        keep = None if secret is None else hash_secret(secret)
        await self.lobby.storage.write(self.store.set_password, account.id, hashed, keep)

    async def change_settings(self, account: AccountRow, changes: dict[str, Any]) -> AccountRow:
        language = changes.get("language")
        if set(changes) - {"language"} or language not in (None, *LANGUAGES):
            raise TableError(
                "bad_settings", f"Settings: 'language', one of {', '.join(LANGUAGES)}."
            )
        settings = {**account.settings, **changes}
        await self.lobby.storage.write(self.store.set_settings, account.id, settings)
        return AccountRow(**{**account.__dict__, "settings": settings})

    async def delete(self, account: AccountRow, password: str, address: str | None) -> None:
        """The account goes: its seats at unfinished tables are given up, its sessions end,
        and at every table its name becomes the neutral former player's."""
        await self.check_password(account, password, address)
        for seat in await self.lobby.storage.read(self.store.seats_of, account.id):
            if not seat.left:
                await give_up(self.lobby, seat.table_id, account.id)
        renamed = await self.lobby.storage.write(self.store.delete_account, account.id)
        for table_id in renamed:
            self.finished.forget(table_id)
        await reload_renamed(self.lobby, renamed)

    async def data(self, account: AccountRow) -> dict[str, JsonValue]:
        """Everything kept of the account: its name, when it was made, its settings, its
        address and mail choices, every table it sat at, its ratings and their history."""
        seats = await self.lobby.storage.read(self.store.seats_of, account.id)
        tables: list[JsonValue] = []
        for seat in seats:
            table = await self._table(seat)
            tables.append(
                {
                    "table": seat.table_id,
                    "game": seat.game,
                    "seat": seat.seat,
                    "name": seat.name,
                    "left": seat.left,
                    "finished": table is not None and table.over,
                    "result": None if table is None else table.result(),
                }
            )
        return {
            "name": account.name,
            "created": account.created,
            "settings": account.settings,
            "mail": await self._mail(account.id),
            "tables": tables,
            "ratings": await self._ratings(account.id),
            "rating_history": await self._rating_history(account.id),
        }

    async def _mail(self, account_id: str) -> JsonValue:
        choice = await self.lobby.storage.read(
            MailStore(self.lobby.store.engine).choice, account_id
        )
        return {"email": choice.email, "turns": choice.turns, "digest": choice.digest}

    async def _ratings(self, account_id: str) -> list[JsonValue]:
        rows = await self.lobby.storage.read(ratings_of, self.lobby.store.engine, account_id)
        return [
            {"game": r.game, "mu": r.rating.mu, "sigma": r.rating.sigma, "games": r.games}
            for r in rows
        ]

    async def _rating_history(self, account_id: str) -> list[JsonValue]:
        engine = self.lobby.store.engine
        rows = await self.lobby.storage.read(recent_games, engine, account_id, None)
        return [
            {"table": g.table_id, "game": g.game, "at": g.at, "place": g.place + 1}
            | {"players": g.players, "mu": g.after.mu, "sigma": g.after.sigma}
            for g in rows
        ]

    async def my_tables(self, account: AccountRow) -> list[dict[str, JsonValue]]:
        """Every unfinished table the account sits at, with whose turn it is."""
        mine: list[dict[str, JsonValue]] = []
        for seat in await self.lobby.storage.read(self.store.seats_of, account.id):
            table = None if seat.left else await self._table(seat, unfinished=True)
            if table is None or table.over or tutorial_left(table):
                continue
            mover = table.mover()
            mine.append(
                {
                    "table": table.id,
                    "game": table.game.name,
                    "seat": seat.seat,
                    "players": [s.name or s.bot for s in table.seats],
                    "to_move": None if mover is None else table.seats[mover].name,
                    "your_turn": mover == seat.seat,
                    "version": table.version,
                    "updated": table.touched,
                    **turn_time_left(self.lobby, table, mover == seat.seat),
                }
            )
        return sorted(mine, key=_by_time_left)

    async def _table(self, seat: SeatOfAccount, unfinished: bool = False) -> LiveTable | None:
        """The table of a seat, if it can be shown (with `unfinished`, a finished game that
        left memory is not read back for nothing)."""
        lobby = self.lobby
        if unfinished and seat.table_id in lobby.stored_away:
            return None
        try:
            return await lobby.find(seat.table_id)
        except TableError:
            return None


def _by_time_left(row: dict[str, JsonValue]) -> tuple[bool, float, float]:
    """Tables where it is the player's turn first, the least time left first; then the
    others, the latest changed first."""
    deadline = row.get("deadline")
    left = float(deadline) if isinstance(deadline, (int, float)) else float("inf")
    updated = row["updated"]
    return not row["your_turn"], left, -float(updated) if isinstance(updated, float) else 0.0


def _throttle_keys(key: str, address: str | None) -> list[str]:
    """Under which keys failed sign-ins are counted: the user name's, then the address's."""
    keys = ["name:" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:40]]
    return keys if address is None else [*keys, "address:" + address[:100]]


def _sign_up_key(address: str | None) -> str | None:
    """Under which key an address's new accounts are counted (none without an address)."""
    return None if address is None else "signup:" + address[:100]


def _address(connection: HTTPConnection) -> str | None:
    return connection.client.host if connection.client else None


def _name_taken(name: str) -> TableError:
    return TableError(
        "name_taken", f"The user name {name!r} is taken (or one that looks the same)."
    )
