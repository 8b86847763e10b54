"""Words a guest sees in the browser: the waiting line for someone who came by invite link,
and the screen-reader region after a language switch."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.live import BROWSER_TESTS, LiveServer, chromium, start_server

pytestmark = BROWSER_TESTS
TIMEOUT_MS = 30_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with start_server(tmp_path_factory.mktemp("guest-words")) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(["--headless=new", "--no-sandbox", "--disable-dev-shm-usage"]) as found:
        yield found


def waiting_table(server: LiveServer) -> str:
    body = {"game": "pickomino", "seats": [{"bot": None}, {"bot": None}]}
    table_id = str(httpx.post(server.url + "api/tables", json=body, timeout=30).json()["id"])
    join = httpx.post(f"{server.url}api/tables/{table_id}/join", json={"name": "Ana"}, timeout=30)
    assert join.status_code == 200, join.text
    return table_id


def test_a_guest_by_invite_link_is_asked_to_sit_down(browser: Any, server: LiveServer) -> None:
    page = browser.new_page(locale="en-GB")
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}#/t/{waiting_table(server)}")
    page.wait_for_selector("#status")
    status = page.inner_text("#status")
    assert "share the invite link" not in status, status
    assert "take a free seat" in status, status
    page.close()


def test_a_language_switch_leaves_nothing_said_in_the_old_language(
    browser: Any, server: LiveServer
) -> None:
    page = browser.new_page(locale="de-DE")
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server.url)
    page.wait_for_selector("#make-table")
    page.evaluate("document.getElementById('announce').textContent = 'Anna nimmt Plättchen 25.'")
    page.select_option("#lang", "fr")
    assert page.inner_text("#make-table") == "Créer la table"
    assert page.eval_on_selector("#announce", "node => node.textContent") == ""
    page.close()
