"""Every game of the table; importing this package registers them all."""

from spieltisch.games import karolinchen, pickomino

__all__ = ["karolinchen", "pickomino"]
