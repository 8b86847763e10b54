"""Every game of the table; importing this package registers them all."""

from spieltisch.games import pickomino

__all__ = ["pickomino"]
