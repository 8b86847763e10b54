"""Every game of the table; importing this package registers them all."""

from spieltisch.games import karolinchen, pickomino, riffraff

__all__ = ["karolinchen", "pickomino", "riffraff"]
