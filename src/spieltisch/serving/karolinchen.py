"""Karolinchen at the web table: the friendly bot of its guided first game."""

from __future__ import annotations

from spieltisch.server.hooks import GameHooks

__all__ = ["HOOKS"]

HOOKS = GameHooks(tutor="greedy")
