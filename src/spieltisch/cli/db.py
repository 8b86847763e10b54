"""`spieltisch db upgrade|version`: the server's database brought to the newest schema, or
its schema shown. SQLAlchemy and Alembic are imported by the command that runs, not by the
argument parser."""

from __future__ import annotations

import argparse
from typing import Any

from spieltisch.cli.common import add_database_options, fail

__all__ = ["add_parser", "run_upgrade", "run_version"]


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "db",
        help="the server's database: upgrade its schema or show it",
        description="The server upgrades its database when it starts; these commands do it "
        "ahead of time, or only tell which schema the database has.",
    )
    tools = parser.add_subparsers(dest="tool", metavar="TOOL", required=True)
    upgrade = tools.add_parser(
        "upgrade",
        help="bring the database to the newest schema in place (creating it when missing)",
    )
    add_database_options(upgrade)
    upgrade.set_defaults(run=run_upgrade)
    version = tools.add_parser(
        "version", help="the database's schema and the newest this spieltisch knows"
    )
    add_database_options(version)
    version.set_defaults(run=run_version)


def run_upgrade(args: argparse.Namespace) -> int:
    from spieltisch.server.store import StorageError, Store, default_url, shown_url

    url = args.db or default_url(args.data_dir)
    try:
        store = Store(url)
    except StorageError as error:
        return fail(str(error))
    now, before = store.revision(), store.found_revision
    store.close()
    name = shown_url(url)
    if before == now:
        print(f"the database {name} is already up to date (schema {now})")
    elif before is None:
        print(f"the database {name} was empty and is now at schema {now}")
    else:
        print(f"the database {name} is at schema {now} (was {before})")
    return 0


def run_version(args: argparse.Namespace) -> int:
    from spieltisch.server.migrate import known
    from spieltisch.server.store import StorageError, default_url, schema_revisions, shown_url

    url = args.db or default_url(args.data_dir, create=False)
    try:
        current, head = schema_revisions(url)
    except StorageError as error:
        return fail(str(error))
    print(f"database: {shown_url(url)}")
    print(f"current:  {current or 'none'}")
    print(f"head:     {head}")
    if current is None:
        print("it has no tables yet: `spieltisch db upgrade` or the server makes them")
    elif not known(current):
        print("it was written by a newer spieltisch: run that version with it")
    elif current != head:
        print("`spieltisch db upgrade` or the server's next start brings it up to date")
    return 0
