"""The web game table: an ASGI app with a REST lobby, live tables over WebSockets and storage."""

from spieltisch.server.app import create_app
from spieltisch.server.lobby import Lobby, SeatSpec
from spieltisch.server.store import Store, default_url
from spieltisch.server.table import LiveTable, TableError

__all__ = ["LiveTable", "Lobby", "SeatSpec", "Store", "TableError", "create_app", "default_url"]
