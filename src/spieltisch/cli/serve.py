"""`spieltisch serve`: the web game table on a host and port, stored in a database."""

from __future__ import annotations

import argparse
import gc
import socket
from typing import Any

from spieltisch.cli.common import add_database_options

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
        help="unfinished games the server holds at once; more are refused (1000)",
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
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from spieltisch.server import create_app, default_url
    from spieltisch.server.app import MISSING_VENDOR, vendor_ready
    from spieltisch.server.limits import Limits
    from spieltisch.server.settle import CatchTiming
    from spieltisch.server.store import StorageError
    from spieltisch.server.timeouts import timed_protocol

    if not (1 <= args.slow_motion <= 20 and 0 <= args.catch_margin <= 10):
        print("--slow-motion must be from 1 to 20 and --catch-margin from 0 to 10", flush=True)
        return 2
    if not 0.1 <= args.playback_speed <= 100:
        print("--playback-speed must be from 0.1 to 100", flush=True)
        return 2
    if not 1 <= args.bot_time_limit <= 600:
        print("--bot-time-limit must be from 1 to 600 seconds", flush=True)
        return 2
    if not (0.5 <= args.request_timeout <= 300 and 1 <= args.keep_alive <= 300):
        print("--request-timeout must be from 0.5 to 300 seconds, --keep-alive from 1 to 300")
        return 2
    if not (1024 <= args.max_body <= 1 << 24 and 256 <= args.max_message <= 1 << 20):
        print("--max-body must be from 1024 to 16777216, --max-message from 256 to 1048576")
        return 2
    if not (0 <= args.tables_per_minute <= 10_000 and 1 <= args.max_open_tables <= 1_000_000):
        print("--tables-per-minute must be from 0 to 10000, --max-open-tables from 1 to 1000000")
        return 2
    if not 0.01 <= args.idle_hours <= 24 * 365:
        print("--idle-hours must be from 0.01 to 8760")
        return 2
    limits = Limits(
        body=args.max_body,
        message=args.max_message,
        tables_per_minute=args.tables_per_minute,
        open_tables=args.max_open_tables,
    )
    url = args.db or default_url(args.data_dir)
    timing = CatchTiming(args.slow_motion, args.catch_margin, args.playback_speed)
    try:
        app = create_app(
            url,
            args.bot_delay,
            timing,
            limits=limits,
            work_limit=args.bot_time_limit,
            idle_close=args.idle_hours * 3600,
        )
    except StorageError as error:
        print(f"cannot start: {error}", flush=True)
        return 2
    if not vendor_ready():
        print(f"warning: {MISSING_VENDOR}", flush=True)
    try:
        listener = _bind(args.host, args.port)
    except OSError as error:
        print(f"cannot listen on {args.host} port {args.port}: {error.strerror}", flush=True)
        return 2
    _calm_garbage_collector()
    print(f"spieltisch is serving the game table at {_address(listener)}", flush=True)
    print(f"tables are stored in {url}; press Ctrl-C to stop", flush=True)
    _report_broken(app.state.lobby.broken)
    config = uvicorn.Config(
        app,
        log_level="warning",
        http=timed_protocol(args.request_timeout),
        timeout_keep_alive=args.keep_alive,
        ws_max_size=max(1 << 20, 4 * limits.message),  # frames beyond are cut off unread
        ws_per_message_deflate=False,  # small messages: compressing costs more than it saves
    )
    uvicorn.Server(config).run(sockets=[listener])
    return 0


def _report_broken(broken: dict[str, str]) -> None:
    """Name the tables that could not be loaded (they are kept aside, the others play)."""
    for table_id, reason in sorted(broken.items()):
        print(f"table {table_id} is broken and was not started: {reason}", flush=True)


def _bind(host: str, port: int) -> socket.socket:
    """The listening socket (bound here, so the banner can tell the address really bound)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family)


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
