"""Turn mail and daily digests through a real SMTP server on this machine (aiosmtpd): the
right mails in the player's language, batched per interval, none without opt-in, after
unsubscribing or while the player is at the table, nothing and no error without `--smtp`,
and an SMTP server that hangs or refuses holds up no table. Time runs on a `ManualClock`."""

from __future__ import annotations

import logging
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from aiosmtpd.controller import Controller
from anyio.from_thread import BlockingPortal
from sqlalchemy import create_engine, insert

from spieltisch.server import create_app
from spieltisch.server.accounts.names import name_key
from spieltisch.server.accounts.store import AccountStore
from spieltisch.server.clock import ManualClock
from spieltisch.server.lobby import Lobby
from spieltisch.server.mail.settings import MailSettings, SmtpServer, read_smtp_url
from spieltisch.server.mail.store import MailStore
from spieltisch.server.schema import DEADLINES
from tests.server.accounts import SITE, sign_up
from tests.server.database import db_url
from tests.server.helpers import TestClient, make_table, threads
from tests.server.smtp import Inbox, hanging_smtp, inbox, nobody_listening

PUBLIC = "https://games.example.org"
DELAY, INTERVAL, DAY = 120.0, 3600.0, 24 * 3600.0


def settings(port: int, **extra: Any) -> MailSettings:
    """Mail to the test's server; the test sweeps by hand (the timed sweep never comes)."""
    values: dict[str, Any] = {"sweep_every": 1e9, "send_timeout": 2.0, **extra}
    return MailSettings(
        SmtpServer("127.0.0.1", port), PUBLIC, "spieltisch@games.example.org", **values
    )


@contextmanager
def site(folder: Path, clock: ManualClock, mail: MailSettings | None) -> Iterator[TestClient]:
    folder.mkdir(parents=True, exist_ok=True)
    app = create_app(db_url(folder), bot_delay=0.0, executor=threads(), clock=clock, mail=mail)
    with TestClient(app, headers={"origin": SITE}) as client:
        yield client


def lobby_of(client: TestClient) -> Lobby:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    assert isinstance(lobby, Lobby)
    return lobby


def portal(client: TestClient) -> BlockingPortal:
    """The app's event loop, for calls the test makes on it."""
    assert client.portal is not None
    return client.portal


def player(client: TestClient, name: str, **mail: Any) -> str:
    """A signed-up player (this client signs in as them) with these mail choices; their id."""
    sign_up(client, name)
    if mail:
        answer = client.put("/api/account/mail", json=mail)
        assert answer.status_code == 200, answer.text
    found = AccountStore(lobby_of(client).store.engine).account_by_key(name_key(name))
    assert found is not None
    return found.id


def my_turn_table(client: TestClient) -> tuple[str, str]:
    """A table where the signed-in player sits first, against a bot, to move: (id, token)."""
    table = make_table(client, [None, "greedy"])
    joined = client.post(f"/api/tables/{table['id']}/join", json={"name": "x", "seat": 0})
    assert joined.status_code == 200, joined.text
    return table["id"], joined.json()["token"]


def turn(client: TestClient, account: str, table_id: str, deadline: float | None = None) -> bool:
    mail = lobby_of(client).mail
    return bool(portal(client).call(mail.note_turn, account, table_id, "pickomino", deadline))


def sweep(client: TestClient) -> int:
    return int(portal(client).call(lobby_of(client).mail.sweep))


def links(mail: EmailMessage) -> list[str]:
    body = mail.get_content()
    return re.findall(r"https://\S+", body)


def unsubscribe_path(mail: EmailMessage) -> str:
    header = str(mail["List-Unsubscribe"]).strip("<>")
    parts = urlsplit(header)
    assert f"{parts.scheme}://{parts.netloc}" == PUBLIC
    return f"{parts.path}?{parts.query}"


# --- turn mail -------------------------------------------------------------------------------
def test_a_turn_is_mailed_once_with_links_and_the_unsubscribe_headers(tmp_path: Path) -> None:
    clock = ManualClock()
    with inbox() as box, site(tmp_path, clock, settings(box.port)) as client:
        ada = player(client, "Ada", email="ada@example.org", turns=True)
        table_id, _ = my_turn_table(client)
        deadline = clock.now() + DAY
        assert turn(client, ada, table_id, deadline)
        clock.advance(DELAY - 1)
        assert sweep(client) == 0  # a player who comes straight back gets no mail
        clock.advance(1)
        assert sweep(client) == 1
        assert sweep(client) == 0  # sent once
        [mail] = box.taken()
    assert mail["To"] == "ada@example.org"
    assert mail["From"] == "spieltisch@games.example.org"
    assert mail["Subject"] == "Your turn at spieltisch"
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert mail["Auto-Submitted"] == "auto-generated"
    assert f"{PUBLIC}/#/t/{table_id}" in links(mail)
    assert f"{PUBLIC}/#/account" in links(mail)
    assert str(mail["List-Unsubscribe"]).strip("<>") in links(mail)
    assert "Pickomino" in mail.get_content()
    assert time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(deadline)) in mail.get_content()


def test_turns_within_the_interval_are_gathered_into_the_next_mail(tmp_path: Path) -> None:
    clock = ManualClock()
    with inbox() as box, site(tmp_path, clock, settings(box.port)) as client:
        ada = player(client, "Ada", email="ada@example.org", turns=True)
        first, _ = my_turn_table(client)
        second, _ = my_turn_table(client)
        turn(client, ada, first)
        clock.advance(DELAY)
        assert sweep(client) == 1
        assert [first in " ".join(links(m)) for m in box.taken()] == [True]
        clock.advance(60)
        turn(client, ada, second)
        turn(client, ada, first)
        clock.advance(DELAY)
        assert sweep(client) == 0  # at most one mail an interval
        clock.advance(INTERVAL - DELAY - 60 - 1)
        assert sweep(client) == 0
        clock.advance(1)
        assert sweep(client) == 1
        [mail] = box.taken()
    assert mail["Subject"] == "Your turn at 2 tables at spieltisch"
    assert {f"{PUBLIC}/#/t/{first}", f"{PUBLIC}/#/t/{second}"} <= set(links(mail))


def test_the_mail_is_in_the_players_language(tmp_path: Path) -> None:
    clock = ManualClock()
    subjects = {}
    with inbox() as box, site(tmp_path, clock, settings(box.port)) as client:
        for language in ("de", "fr", "it", "nl", "en"):
            client.cookies.clear()
            name = f"Spieler{language}"
            account = player(client, name, email=f"{language}@example.org", turns=True)
            saved = client.put("/api/account/settings", json={"language": language})
            assert saved.status_code == 200
            table_id, _ = my_turn_table(client)
            turn(client, account, table_id)
        clock.advance(DELAY)
        assert sweep(client) == 5
        for mail in box.taken():
            subjects[str(mail["To"]).split("@")[0]] = (str(mail["Subject"]), mail.get_content())
    assert subjects["de"][0] == "Du bist am Zug bei spieltisch"
    assert subjects["fr"][0] == "C'est votre tour sur spieltisch"
    assert subjects["it"][0] == "Tocca a te su spieltisch"
    assert subjects["nl"][0] == "Je bent aan de beurt bij spieltisch"
    assert subjects["en"][0] == "Your turn at spieltisch"
    assert "Keine Mails mehr" in subjects["de"][1]


def test_no_mail_without_opting_in(tmp_path: Path) -> None:
    clock = ManualClock()
    with inbox() as box, site(tmp_path, clock, settings(box.port)) as client:
        ada = player(client, "Ada", email="ada@example.org")  # an address, no choice made
        table_id, _ = my_turn_table(client)
        assert not turn(client, ada, table_id)
        clock.advance(DAY + INTERVAL)
        assert sweep(client) == 0
        assert box.taken() == []


def test_no_mail_while_the_player_is_at_the_table(tmp_path: Path) -> None:
    clock = ManualClock()
    with inbox() as box, site(tmp_path, clock, settings(box.port)) as client:
        ada = player(client, "Ada", email="ada@example.org", turns=True)
        table_id, token = my_turn_table(client)
        address = f"/api/tables/{table_id}/ws"
        with client.websocket_connect(address, subprotocols=["spieltisch", f"token.{token}"]):
            turn(client, ada, table_id)
            clock.advance(DELAY)
            assert sweep(client) == 0
        assert box.taken() == []


def test_no_mail_once_the_turn_was_played(tmp_path: Path) -> None:
    clock = ManualClock()
    with inbox() as box, site(tmp_path, clock, settings(box.port)) as client:
        ada = player(client, "Ada", email="ada@example.org", turns=True)
        table_id, _ = my_turn_table(client)
        turn(client, ada, table_id)
        left = client.post(f"/api/tables/{table_id}/leave", json={"token": _})
        assert left.status_code == 200  # a bot plays the seat now: no turn of Ada's
        clock.advance(DELAY)
        assert sweep(client) == 0
        assert box.taken() == []


# --- unsubscribing ---------------------------------------------------------------------------
def test_the_unsubscribe_link_asks_then_stops_all_mail(tmp_path: Path) -> None:
    clock = ManualClock()
    with inbox() as box, site(tmp_path, clock, settings(box.port)) as client:
        ada = player(client, "Ada", email="ada@example.org", turns=True, digest=True)
        table_id, _ = my_turn_table(client)
        turn(client, ada, table_id)
        clock.advance(DELAY)
        sweep(client)
        [mail] = box.taken()
        link = unsubscribe_path(mail)
        client.cookies.clear()  # the link works without signing in
        page = client.get(link)
        assert page.status_code == 200
        assert "ada@example.org" in page.text and 'method="post"' in page.text
        assert client.get("/api/account/mail").status_code == 401  # still nobody's session
        sign_in_again = client.post(
            "/api/account/signin", json={"name": "Ada", "password": "a long pass phrase"}
        )
        assert sign_in_again.status_code == 200
        assert client.get("/api/account/mail").json()["turns"] is True  # asking changed nothing
        client.cookies.clear()
        done = client.post(link, content="List-Unsubscribe=One-Click")  # RFC 8058
        assert done.status_code == 200
        assert not turn(client, ada, table_id)
        clock.advance(DAY + INTERVAL)
        assert sweep(client) == 0
        assert box.taken() == []


def test_an_unsubscribe_link_works_only_for_its_own_account(tmp_path: Path) -> None:
    clock = ManualClock()
    with inbox() as box, site(tmp_path, clock, settings(box.port)) as client:
        ada = player(client, "Ada", email="ada@example.org", turns=True)
        ada_table, _ = my_turn_table(client)
        client.cookies.clear()
        bob = player(client, "Bob", email="bob@example.org", turns=True)
        bob_table, _ = my_turn_table(client)
        turn(client, ada, ada_table)
        clock.advance(DELAY)
        sweep(client)
        [mail] = box.taken()
        token = urlsplit(unsubscribe_path(mail)).query.split("t=")[1]
        other = token[:-1] + ("B" if token.endswith("A") else "A")
        for forged in (f"a={bob}&t={token}", f"a={ada}&t={other}", f"a={ada}", ""):
            answer = client.post(f"/mail/unsubscribe?{forged}")
            assert answer.status_code == 404, forged
        assert turn(client, bob, bob_table) and turn(client, ada, ada_table)


# --- the account's address -------------------------------------------------------------------
@pytest.mark.parametrize(
    "address",
    [
        "ada",
        "ada@localhost",
        "ada@example.org\r\nBcc: eve@example.org",
        "ada@example.org\nBcc: eve@example.org",
        "Ada <ada@example.org>",
        "ada@example.org, eve@example.org",
        "ada@example.org>, <eve@example.org",
        "äda@example.org",
        "ada@127.0.0.1",
        "a" * 65 + "@example.org",
        "ada@" + "e" * 250 + ".org",
    ],
)
def test_an_address_that_is_not_one_is_refused(tmp_path: Path, address: str) -> None:
    with site(tmp_path, ManualClock(), None) as client:
        sign_up(client, "Ada")
        answer = client.put("/api/account/mail", json={"email": address, "turns": True})
        assert answer.status_code == 422
        assert (
            answer.json()["error"] in ("bad_email", "request_invalid") or "detail" in answer.json()
        )
        assert client.get("/api/account/mail").json()["email"] is None


def test_the_address_is_private_and_changed_only_by_its_own_session(tmp_path: Path) -> None:
    with site(tmp_path, ManualClock(), None) as client:
        sign_up(client, "Ada")
        foreign = client.put(
            "/api/account/mail",
            json={"email": "eve@example.org", "turns": True},
            headers={"origin": "https://evil.example"},
        )
        assert foreign.status_code == 403 and foreign.json()["error"] == "foreign_origin"
        saved = client.put("/api/account/mail", json={"email": "Ada@Example.ORG", "turns": True})
        assert saved.json() == {
            "email": "Ada@example.org",
            "turns": True,
            "digest": False,
            "sending": False,
        }
        needs = client.put("/api/account/mail", json={"email": None, "digest": True})
        assert needs.status_code == 422 and needs.json()["error"] == "bad_email"
        data = client.get("/api/account/data").json()
        assert data["mail"] == {"email": "Ada@example.org", "turns": True, "digest": False}
        public = [client.get("/api/players/Ada"), client.get("/api/leaderboard/pickomino")]
        public.append(client.get("/api/session"))
        client.cookies.clear()
        public += [client.get("/api/players/Ada"), client.get("/api/account/mail")]
        assert public[-1].status_code == 401
        for answer in public:
            assert "example.org" not in answer.text.lower()


# --- the daily digest ------------------------------------------------------------------------
def test_the_daily_digest_lists_the_tables_waiting(tmp_path: Path) -> None:
    clock = ManualClock()
    with inbox() as box, site(tmp_path, clock, settings(box.port)) as client:
        player(client, "Ada", email="ada@example.org", digest=True)
        first, _ = my_turn_table(client)
        second, _ = my_turn_table(client)
        deadline = clock.now() + 2 * DAY  # the first table's stored deadline of Ada's seat
        with lobby_of(client).store.engine.begin() as db:
            row = {"table_id": first, "kind": "clock", "seat": 0, "due": deadline}
            db.execute(insert(DEADLINES).values(**row))
        clock.advance(DAY - 1)
        assert sweep(client) == 0
        clock.advance(1)
        assert sweep(client) == 1
        [mail] = box.taken()
        assert mail["Subject"] == "spieltisch: 2 tables are waiting for you"
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(deadline))
        assert mail.get_content().count(when) == 1
        assert {f"{PUBLIC}/#/t/{first}", f"{PUBLIC}/#/t/{second}"} <= set(links(mail))
        for table_id in (first, second):  # a bot plays on: nothing waits for Ada
            seat = client.post(f"/api/tables/{table_id}/seat").json()
            client.post(f"/api/tables/{table_id}/leave", json={"token": seat["token"]})
        clock.advance(DAY)
        assert sweep(client) == 0  # nothing waiting: no digest
        assert box.taken() == []


# --- without mail, and a failing SMTP server -------------------------------------------------
def test_without_smtp_there_is_no_mail_and_no_error(tmp_path: Path) -> None:
    clock = ManualClock()
    with site(tmp_path, clock, None) as client:
        ada = player(client, "Ada", email="ada@example.org", turns=True, digest=True)
        table_id, _ = my_turn_table(client)
        mail = lobby_of(client).mail
        portal(client).call(_started, mail, ada, table_id)
        assert not turn(client, ada, table_id)
        clock.advance(DAY)
        assert sweep(client) == 0
        assert client.get("/api/account/mail").json()["sending"] is False


async def _started(mail: Any, account: str, table_id: str) -> None:
    mail.turn_started(account, table_id, "pickomino", None)
    await mail.settled()


def test_a_hanging_smtp_server_holds_up_no_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = ManualClock()
    with hanging_smtp() as port, site(tmp_path, clock, settings(port, send_timeout=1.0)) as client:
        ada = player(client, "Ada", email="ada@example.org", turns=True)
        table_id, _ = my_turn_table(client)
        turn(client, ada, table_id)
        clock.advance(DELAY)
        with caplog.at_level(logging.WARNING, "spieltisch.server.mail"):
            sending = portal(client).start_task_soon(lobby_of(client).mail.sweep)
            started = time.monotonic()
            answers = 0
            while not sending.done():  # the loop answers while the mail waits for the server
                assert client.get(f"/api/tables/{table_id}").status_code == 200
                answers += 1
            assert sending.result() == 0
            assert answers >= 3 and time.monotonic() - started < 30
            clock.advance(300)  # tried again later, and failing again: still one log line
            assert sweep(client) == 0
        failures = [r for r in caplog.records if "cannot send" in r.getMessage()]
        assert len(failures) == 1


def test_a_refusing_smtp_server_is_tried_again_then_the_mail_is_dropped(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = ManualClock()
    port = nobody_listening()
    with site(tmp_path, clock, settings(port, retry_after=300.0, tries=3)) as client:
        ada = player(client, "Ada", email="ada@example.org", turns=True)
        table_id, _ = my_turn_table(client)
        turn(client, ada, table_id)
        clock.advance(DELAY)
        with caplog.at_level(logging.WARNING, "spieltisch.server.mail"):
            assert sweep(client) == 0
            clock.advance(299)
            assert sweep(client) == 0  # not yet due again: no try
            clock.advance(1)
            assert sweep(client) == 0  # the second try
            clock.advance(600)
            assert sweep(client) == 0  # the third and last
            clock.advance(DAY)
            assert sweep(client) == 0
        messages = [r.getMessage() for r in caplog.records]
        assert sum("cannot send" in m for m in messages) == 1
        assert sum("dropped after 3 tries" in m for m in messages) == 1


def test_a_mail_that_failed_goes_out_when_the_server_is_back(tmp_path: Path) -> None:
    clock = ManualClock()
    with inbox() as box:
        port = box.port
    with site(tmp_path, clock, settings(port)) as client:  # the server is down now
        ada = player(client, "Ada", email="ada@example.org", turns=True)
        table_id, _ = my_turn_table(client)
        turn(client, ada, table_id)
        clock.advance(DELAY)
        assert sweep(client) == 0
        back = Inbox(port)
        controller = Controller(back, hostname="127.0.0.1", port=port)
        controller.start()
        try:
            clock.advance(300)
            assert sweep(client) == 1
        finally:
            controller.stop()
        [mail] = back.taken()
        assert f"{PUBLIC}/#/t/{table_id}" in links(mail)


# --- serve --smtp ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("smtp://127.0.0.1:2525", SmtpServer("127.0.0.1", 2525)),
        ("smtp://relay", SmtpServer("relay", 25)),
        (
            "smtp+starttls://ada%40x.org:p%3Ass@mail.example.org",
            SmtpServer("mail.example.org", 587, "ada@x.org", "p:ss", starttls=True),
        ),
        ("smtp://u:p@host:587?starttls=1", SmtpServer("host", 587, "u", "p", starttls=True)),
        ("smtps://u:p@host", SmtpServer("host", 465, "u", "p", tls=True)),
    ],
)
def test_smtp_urls(url: str, expected: SmtpServer) -> None:
    assert read_smtp_url(url) == expected
    assert expected.password is None or expected.password not in expected.shown()


@pytest.mark.slow  # a real serve process each
@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--smtp", "http://host:25"], "--smtp takes smtp://host:port"),
        (["--smtp", "smtp://host:99999"], "--smtp: the port must be a number"),
        (["--smtp", "smtp://host", "--mail-from", "a\nb@x.org"], "--mail-from:"),
        (["--smtp", "smtp://host", "--site-url", "games.example.org"], "--site-url takes"),
    ],
)
def test_serve_refuses_wrong_mail_settings(tmp_path: Path, options: list[str], said: str) -> None:
    command = [sys.executable, "-m", "spieltisch", "serve", "--data-dir", str(tmp_path)]
    done = subprocess.run([*command, *options], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and said in done.stdout, done.stdout


# --- several workers -------------------------------------------------------------------------
def test_a_due_mail_is_claimed_by_one_worker_only(tmp_path: Path) -> None:
    """Two workers' stores on one database: the first claim takes the mail, the second finds
    it gone; turns noted while it is sent wait a whole interval."""
    clock = ManualClock()
    with site(tmp_path, clock, None) as client:
        ada = player(client, "Ada", email="ada@example.org", turns=True)
        table_id, _ = my_turn_table(client)
    engine = create_engine(db_url(tmp_path))
    one, other = MailStore(engine), MailStore(engine)
    try:
        now = clock.now()
        assert one.note_turn(ada, table_id, {"game": "pickomino"}, now, DELAY, INTERVAL)
        [(account, kind, due)] = one.due(now + DELAY, 10)
        assert (account, kind, due) == (ada, "turn", now + DELAY)
        claimed = one.claim(account, kind, due)
        assert claimed is not None and list(claimed.tables) == [table_id]
        assert other.claim(account, kind, due) is None
        assert other.note_turn(ada, "another", {"game": "pickomino"}, now + DELAY, DELAY, INTERVAL)
        one.sent(claimed, now + DELAY, None, INTERVAL)
        assert one.due(now + DELAY + INTERVAL - 1, 10) == []
        assert [row[:2] for row in one.due(now + DELAY + INTERVAL, 10)] == [(ada, "turn")]
    finally:
        engine.dispose()


def test_turn_started_returns_at_once_and_the_turn_is_mailed(tmp_path: Path) -> None:
    clock = ManualClock()
    with inbox() as box, site(tmp_path, clock, settings(box.port)) as client:
        ada = player(client, "Ada", email="ada@example.org", turns=True)
        table_id, _ = my_turn_table(client)
        portal(client).call(_started, lobby_of(client).mail, ada, table_id)
        clock.advance(DELAY)
        assert sweep(client) == 1
        [mail] = box.taken()
    assert f"{PUBLIC}/#/t/{table_id}" in links(mail)
