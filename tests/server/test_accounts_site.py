"""An account's seat across the workers of a site: taken through one worker, it is known as
the account's on the other (in the news and in the database), where a socket of the account
finds it without a token; a deleted account's name leaves the other worker's copy too."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from spieltisch.server.accounts.seating import give_up, reload_renamed
from spieltisch.server.accounts.store import FORMER_PLAYER, AccountRow, AccountStore
from spieltisch.server.lobby import SeatSpec
from tests.server.test_site import site
from tests.support.waits import until

pytestmark = pytest.mark.workers


def test_an_accounts_seat_is_known_on_the_other_worker(tmp_path: Path) -> None:
    async def main() -> None:
        async with site(tmp_path) as (a, b):
            table = await a.lobby.create("pickomino", {}, [SeatSpec(), SeatSpec()], seed=3)
            await until(lambda: table.id in b.lobby.tables, "B hears of the new table")
            seat, _ = await a.lobby.join(table.id, None, "Ada", "account-1")
            await until(
                lambda: b.lobby.tables[table.id].seats[seat].account_id == "account-1",
                "B hears whose seat it is",
            )
            _, found = await b.lobby.seat_with(table.id, None, "account-1")
            assert found == seat
            summary = b.lobby.tables[table.id].summary()
            assert summary["seats"][seat]["account"] is True

    asyncio.run(main())


def test_a_deleted_accounts_name_leaves_the_other_workers_copy(tmp_path: Path) -> None:
    async def main() -> None:
        async with site(tmp_path) as (a, b):
            table = await a.lobby.create("pickomino", {}, [SeatSpec(), SeatSpec()], seed=3)
            await until(lambda: table.id in b.lobby.tables, "B hears of the new table")
            store = AccountStore(a.lobby.store.engine)
            store.add_account(AccountRow("account-1", "Ada", "ada", "x", 0.0, {}))
            await a.lobby.join(table.id, None, "Ada", "account-1")
            await a.lobby.join(table.id, None, "Bea")
            await until(lambda: b.lobby.tables[table.id].started, "B sees both seats taken")
            await give_up(a.lobby, table.id, "account-1")
            renamed = store.delete_account("account-1")
            assert renamed == [table.id]
            await reload_renamed(a.lobby, renamed)
            await until(
                lambda: b.lobby.tables[table.id].seats[0].name == FORMER_PLAYER,
                "B forgets the name",
            )
            seat = b.lobby.tables[table.id].seats[0]
            assert seat.replaced and seat.account_id is None

    asyncio.run(main())
