"""`spieltisch serve`: the web game table on a host and port, stored in a database."""

from __future__ import annotations

import argparse
import gc
import os
from typing import TYPE_CHECKING, Any

from spieltisch.cli.common import add_database_options

if TYPE_CHECKING:
    import socket

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    """Add the `serve` command to the sub-parsers of the main parser."""
    parser = commands.add_parser(
        "serve",
        help="run the web game table",
        description="Serve the game table in the browser: lobby, live tables, replays. "
        "Tables are stored (SQLite in the data directory by default) and continue after a "
        "restart.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    add_database_options(parser)
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="a bot's pause per move at a table's normal pace",
    )
    parser.add_argument(
        "--slow-motion",
        type=float,
        default=4.0,
        metavar="FACTOR",
        help="Riff Raff: how many times slower falling pieces are shown (default 4)",
    )
    parser.add_argument(
        "--catch-margin",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="Riff Raff: how long after a piece lands a catch still counts (network; 0.6)",
    )
    parser.add_argument(
        "--playback-speed",
        type=float,
        default=1.0,
        metavar="FACTOR",
        help="Riff Raff: play the ship's motion this many times faster (tests, demos; 1)",
    )
    parser.add_argument(
        "--bot-time-limit",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="longest a bot may think or a Riff Raff settle run; a bot over it is replaced (30)",
    )
    parser.add_argument(
        "--max-body",
        type=int,
        default=64 * 1024,  # server.limits.Limits (not imported here: the CLI starts fast)
        metavar="BYTES",
        help="largest REST request body (65536)",
    )
    parser.add_argument(
        "--max-message",
        type=int,
        default=4096,
        metavar="CHARACTERS",
        help="largest WebSocket message (4096)",
    )
    parser.add_argument(
        "--tables-per-minute",
        type=int,
        default=20,
        metavar="N",
        help="new tables one client address may make in a minute; 0: no limit (20)",
    )
    parser.add_argument(
        "--max-open-tables",
        type=int,
        default=1000,
        metavar="N",
        help="games in play the server holds at once (a person seated, a change within "
        "--active-minutes); more are refused (1000)",
    )
    parser.add_argument(
        "--seat-changes-per-minute",
        type=int,
        default=10,
        metavar="N",
        help="joins and leaves at one seat in a minute before joining it is refused; 0: any (10)",
    )
    parser.add_argument(
        "--sockets-per-address",
        type=int,
        default=100,
        metavar="N",
        help="WebSockets one client address may hold open at once; 0: any (100)",
    )
    parser.add_argument(
        "--reconnects-per-second",
        type=int,
        default=20,
        metavar="N",
        help="new WebSockets one client address may open a second, on average over 10 s; "
        "0: any (20)",
    )
    parser.add_argument(
        "--active-minutes",
        type=float,
        default=30.0,
        metavar="MINUTES",
        help="a table with a person seated counts toward --max-open-tables while it changed "
        "this recently (30)",
    )
    parser.add_argument(
        "--max-turn-based",
        type=int,
        default=20,
        metavar="N",
        help="the most unfinished turn-based tables one player may sit at (20)",
    )
    parser.add_argument(
        "--waiting-hours",
        type=float,
        default=1.0,
        metavar="HOURS",
        help="a table still waiting for players, or a guided game, without a change for this "
        "long is closed (1)",
    )
    parser.add_argument(
        "--idle-hours",
        type=float,
        default=24.0,
        metavar="HOURS",
        help="an unfinished table without a move for this long is closed (24)",
    )
    parser.add_argument(
        "--request-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="a request's head and body must arrive within this time, or it is closed (10)",
    )
    parser.add_argument(
        "--keep-alive",
        type=int,
        default=5,
        metavar="SECONDS",
        help="how long an idle connection is kept open between requests (5)",
    )
    parser.add_argument(
        "--origin",
        action="append",
        default=[],
        metavar="URL",
        help="another address whose pages may use the sign-in cookie, such as the public "
        "https://games.example.org when a proxy does not pass the Host on (repeatable)",
    )
    parser.add_argument(
        "--session-days",
        type=float,
        default=30.0,
        metavar="DAYS",
        help="a sign-in lasts this long without being used (30)",
    )
    parser.add_argument(
        "--sign-in-tries",
        type=int,
        default=10,
        metavar="N",
        help="wrong passwords for one user name in 15 minutes before its sign-ins wait; one "
        "address may try three times as many (10)",
    )
    parser.add_argument(
        "--sign-ups-per-address",
        type=int,
        default=20,  # accounts.sessions.SIGN_UPS_PER_ADDRESS
        metavar="N",
        help="new accounts from one address in 15 minutes before its sign-ups wait; 0 for no "
        "limit (20)",
    )
    parser.add_argument(
        "--smtp",
        metavar="URL",
        help="send turn mail and daily digests to players who ask for them through this SMTP "
        "server: smtp://host:25, smtp+starttls://user:password@host:587 or "
        "smtps://user:password@host:465 (without it: no mail)",
    )
    parser.add_argument(
        "--mail-from",
        metavar="ADDRESS",
        help="the sender of the mail (default: spieltisch@ the host of --site-url)",
    )
    parser.add_argument(
        "--site-url",
        metavar="URL",
        help="the public address the links in mails lead to, such as https://games.example.org "
        "(default: the first --origin, else http://HOST:PORT)",
    )
    parser.add_argument(
        "--broker",
        metavar="URL",
        help="Redis that joins the workers and machines serving one database into one site, "
        "e.g. redis://127.0.0.1:6379/0 (needs --db of a database server)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="worker processes serving one port (needs --db of a database server and --broker)",
    )
    parser.add_argument(
        "--review-trials",
        type=int,
        default=None,
        metavar="N",
        help="Riff Raff reviews: noisy trials of each placement (2 to 100; default 8)",
    )
    parser.add_argument(
        "--review-bot",
        default=None,
        metavar="SPEC",
        help="Riff Raff reviews: the careful bot compared with, e.g. careful:samples=1 "
        "(default careful)",
    )
    parser.add_argument(
        "--test-hooks",
        action="store_true",
        help="let the page expose its hooks for browser tests and benchmarks (never in play)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from spieltisch.server import default_url
    from spieltisch.server.app import MISSING_VENDOR, vendor_ready
    from spieltisch.server.store import shown_url

    refusal = _check_settings(args) or _check_site(args, args.db or default_url(args.data_dir))
    if refusal:
        print(refusal, flush=True)
        return 2
    url = args.db or default_url(args.data_dir)
    _review_settings(args)
    try:
        app = _make_app(args, url) if args.workers == 1 else None
        if app is None:
            _check_database(url)
    except _CannotStart as error:
        print(f"cannot start: {error}", flush=True)
        return 2
    if not vendor_ready():
        print(f"warning: {MISSING_VENDOR}", flush=True)
    try:
        listener = _bind(args.host, args.port)
    except OSError as error:
        print(f"cannot listen on {args.host} port {args.port}: {error.strerror}", flush=True)
        return 2
    print(f"spieltisch is serving the game table at {_address(listener)}", flush=True)
    print(f"tables are stored in {shown_url(url)}; press Ctrl-C to stop", flush=True)
    if args.broker:
        shown = shown_url(args.broker)
        print(f"workers of this site meet at {shown} ({args.workers} here)", flush=True)
    if args.smtp:
        print(f"mail goes through {_smtp_shown(args.smtp)}, links to {_site(args)}", flush=True)
    if app is None:
        return _supervise(args, url, listener)
    _report_broken(app.state.lobby.broken)
    _serve(args, app, listener)
    return 0


def _review_settings(args: argparse.Namespace) -> None:
    """The review settings, for this process and the worker processes it starts."""
    from spieltisch.serving.riffraff import REVIEW_BOT_SETTING, REVIEW_TRIALS_SETTING

    if args.review_trials is not None:
        os.environ[REVIEW_TRIALS_SETTING] = str(args.review_trials)
    if args.review_bot is not None:
        os.environ[REVIEW_BOT_SETTING] = args.review_bot


class _CannotStart(Exception):
    """The database or the broker cannot be used; the message says why."""


def _check_settings(args: argparse.Namespace) -> str | None:
    """What is wrong with the numbers given, or None."""
    checks = [
        (1 <= args.slow_motion <= 20, "--slow-motion must be from 1 to 20"),
        (0 <= args.catch_margin <= 10, "--catch-margin must be from 0 to 10"),
        (0.1 <= args.playback_speed <= 100, "--playback-speed must be from 0.1 to 100"),
        (1 <= args.bot_time_limit <= 600, "--bot-time-limit must be from 1 to 600 seconds"),
        (
            args.review_trials is None or 2 <= args.review_trials <= 100,
            "--review-trials must be from 2 to 100",
        ),
        (0.5 <= args.request_timeout <= 300, "--request-timeout must be from 0.5 to 300 seconds"),
        (1 <= args.keep_alive <= 300, "--keep-alive must be from 1 to 300 seconds"),
        (1024 <= args.max_body <= 1 << 24, "--max-body must be from 1024 to 16777216"),
        (256 <= args.max_message <= 1 << 20, "--max-message must be from 256 to 1048576"),
        (0 <= args.tables_per_minute <= 10_000, "--tables-per-minute must be from 0 to 10000"),
        (1 <= args.max_open_tables <= 1_000_000, "--max-open-tables must be from 1 to 1000000"),
        (
            0 <= args.seat_changes_per_minute <= 10_000,
            "--seat-changes-per-minute must be from 0 to 10000",
        ),
        (
            0 <= args.sockets_per_address <= 100_000,
            "--sockets-per-address must be from 0 to 100000",
        ),
        (
            0 <= args.reconnects_per_second <= 10_000,
            "--reconnects-per-second must be from 0 to 10000",
        ),
        (0.01 <= args.idle_hours <= 24 * 365, "--idle-hours must be from 0.01 to 8760"),
        (0.01 <= args.waiting_hours <= 24 * 365, "--waiting-hours must be from 0.01 to 8760"),
        (1 <= args.max_turn_based <= 10_000, "--max-turn-based must be from 1 to 10000"),
        (1 <= args.active_minutes <= 60 * 24 * 365, "--active-minutes must be from 1 to 525600"),
        (1 <= args.workers <= 64, "--workers must be from 1 to 64"),
        (0.01 <= args.session_days <= 3650, "--session-days must be from 0.01 to 3650"),
        (1 <= args.sign_in_tries <= 1000, "--sign-in-tries must be from 1 to 1000"),
        (
            0 <= args.sign_ups_per_address <= 1000,
            "--sign-ups-per-address must be from 0 to 1000",
        ),
        (all(_is_origin(o) for o in args.origin), "--origin takes an address like https://host"),
        (args.site_url is None or _is_origin(args.site_url), "--site-url takes https://host"),
    ]
    return next((message for good, message in checks if not good), None) or _check_mail(args)


def _check_mail(args: argparse.Namespace) -> str | None:
    """What is wrong with --smtp or --mail-from, or None."""
    from spieltisch.server.mail.address import AddressError, read_address
    from spieltisch.server.mail.settings import SmtpUrlError, read_smtp_url

    try:
        if args.smtp is not None:
            read_smtp_url(args.smtp)
        if args.mail_from is not None:
            read_address(args.mail_from)
    except SmtpUrlError as error:
        return str(error)
    except AddressError as error:
        return f"--mail-from: {error}"
    return None


def _mail_settings(args: argparse.Namespace) -> Any:
    """The mail settings of `--smtp` (None without it: no mail)."""
    from urllib.parse import urlsplit

    from spieltisch.server.mail.settings import MailSettings, read_smtp_url

    if args.smtp is None:
        return None
    site = _site(args)
    sender = args.mail_from or f"spieltisch@{urlsplit(site).hostname}"
    return MailSettings(read_smtp_url(args.smtp), site, sender)


def _site(args: argparse.Namespace) -> str:
    """The public address of the site, for the links in mails."""
    site = args.site_url or next(iter(args.origin), None) or f"http://{args.host}:{args.port}"
    return str(site).rstrip("/")


def _smtp_shown(url: str) -> str:
    from spieltisch.server.mail.settings import read_smtp_url

    return read_smtp_url(url).shown()


def _is_origin(url: str) -> bool:
    """An address a page can come from: http(s), a host, nothing after it but a slash."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.netloc) and parts.path in ("", "/")


def _check_site(args: argparse.Namespace, url: str) -> str | None:
    """Several workers need a database server they all reach and a broker between them."""
    on_sqlite = url.startswith("sqlite")
    if args.workers > 1 and on_sqlite:
        return (
            f"--workers {args.workers} needs a database server that every worker shares; "
            "SQLite is a file for one process. Add --db postgresql+psycopg://USER@HOST/DB "
            "and --broker redis://HOST:6379/0, or serve with one worker."
        )
    if args.workers > 1 and not args.broker:
        return (
            f"--workers {args.workers} needs --broker redis://HOST:6379/0: the workers tell "
            "each other of every change through it."
        )
    if args.broker and on_sqlite:
        return (
            "--broker joins workers that share a database server; give --db "
            "postgresql+psycopg://USER@HOST/DB too, or leave --broker out to serve on SQLite."
        )
    if args.broker:
        return _check_broker(args.broker)
    return None


def _check_broker(broker: str) -> str | None:
    from redis import Redis
    from redis.exceptions import RedisError

    from spieltisch.server.store import shown_url

    try:
        Redis.from_url(broker, socket_connect_timeout=5, socket_timeout=5).ping()
    except (RedisError, ValueError) as error:
        return f"cannot reach the broker at {shown_url(broker)}: {error}"
    return None


def _check_database(url: str) -> None:
    """Open the database once before the workers start (checks it, migrates it)."""
    from spieltisch.server.store import StorageError, Store

    try:
        Store(url).close()
    except StorageError as error:
        raise _CannotStart(str(error)) from None


def _make_app(args: argparse.Namespace, url: str) -> Any:
    from spieltisch.server import create_app
    from spieltisch.server.accounts.sessions import AccountSettings
    from spieltisch.server.limits import Limits
    from spieltisch.server.settle import CatchTiming
    from spieltisch.server.store import StorageError

    limits = Limits(
        body=args.max_body,
        message=args.max_message,
        tables_per_minute=args.tables_per_minute,
        open_tables=args.max_open_tables,
        seat_changes_per_minute=args.seat_changes_per_minute,
        sockets_per_address=args.sockets_per_address,
        reconnects_per_second=args.reconnects_per_second,
        active_minutes=args.active_minutes,
        waiting_hours=args.waiting_hours,
        turn_based_per_player=args.max_turn_based,
    )
    timing = CatchTiming(args.slow_motion, args.catch_margin, args.playback_speed)
    accounts = AccountSettings(
        session_idle=args.session_days * 24 * 3600,
        failures_per_name=args.sign_in_tries,
        failures_per_address=3 * args.sign_in_tries,
        sign_ups_per_address=args.sign_ups_per_address,
        origins=tuple(args.origin),
    )
    try:
        return create_app(
            url,
            args.bot_delay,
            timing,
            limits=limits,
            work_limit=args.bot_time_limit,
            idle_close=args.idle_hours * 3600,
            broker=args.broker,
            test_hooks=args.test_hooks,
            accounts=accounts,
            mail=_mail_settings(args),
        )
    except StorageError as error:
        raise _CannotStart(str(error)) from None


def _serve(args: argparse.Namespace, app: Any, listener: socket.socket) -> None:
    import uvicorn

    from spieltisch.server.frames import CheckedWebSocketProtocol
    from spieltisch.server.handshake import accept_gate
    from spieltisch.server.timeouts import timed_protocol

    _calm_garbage_collector()
    config = uvicorn.Config(
        app,
        log_level="warning",
        # shut-out addresses closed at accept; requests timed; sockets over quota refused
        http=accept_gate(timed_protocol(args.request_timeout)),
        ws=CheckedWebSocketProtocol,  # text that is not UTF-8: one log line, then closed
        timeout_keep_alive=args.keep_alive,
        ws_max_size=max(1 << 20, 4 * args.max_message),  # frames beyond are cut off unread
        ws_per_message_deflate=False,  # small messages: compressing costs more than it saves
    )
    uvicorn.Server(config).run(sockets=[listener])


def _worker(args: argparse.Namespace, url: str, listener: socket.socket) -> None:
    """One of several worker processes on the shared listening socket."""
    try:
        app = _make_app(args, url)
    except _CannotStart as error:
        print(f"a worker cannot start: {error}", flush=True)
        raise SystemExit(2) from None
    _serve(args, app, listener)


def _supervise(args: argparse.Namespace, url: str, listener: socket.socket) -> int:
    """Run `args.workers` worker processes; one that dies is replaced (after a pause that
    grows while they keep dying young). Ctrl-C or SIGTERM stops them all."""
    from spieltisch.cli.workers import Supervisor

    return Supervisor(args.workers, _worker, (args, url, listener)).run()


def _report_broken(broken: dict[str, str]) -> None:
    """Name the tables that could not be loaded (they are kept aside, the others play)."""
    for table_id, reason in sorted(broken.items()):
        print(f"table {table_id} is broken and was not started: {reason}", flush=True)


def _bind(host: str, port: int) -> socket.socket:
    """The listening socket (bound here, so the banner can tell the address really bound).

    Every connection it accepts sends without delay (TCP_NODELAY): asyncio sets that only on
    sockets whose protocol number says TCP, and `socket.create_server` leaves it at 0. Without
    it an answer's body waits behind its head for the client's delayed acknowledgement, about
    40 ms on every request after the first of a kept-alive connection."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    made = socket.create_server((host, port), family=family)
    listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP, made.detach())
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # Linux: accepted ones too
    return listener


def _address(listener: socket.socket) -> str:
    host, port = listener.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    every = " (every address of this machine)" if host in ("0.0.0.0", "::") else ""
    return f"http://{shown}:{port}/{every}"


def _calm_garbage_collector() -> None:
    """Collect rarely: the loaded tables are frozen out of the collector's sight and young
    objects are checked less often, so no long collection pauses a busy table's reply."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 50)
