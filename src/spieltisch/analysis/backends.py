"""Where a tournament's games can be played, apart from the tournament itself: the command line
offers the choice without loading the games."""

from __future__ import annotations

__all__ = ["BACKENDS"]

BACKENDS = ("local", "ray")
