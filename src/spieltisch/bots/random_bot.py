"""A uniformly random legal action, for any game."""

from __future__ import annotations

from typing import Any

from spieltisch.bots.base import ANY_GAME, Bot, register_bot

__all__ = ["RandomBot"]


@register_bot(ANY_GAME)
class RandomBot(Bot):
    name = "random"
    description = "a uniformly random legal action"

    def choose(self, state: Any) -> Any:
        return self.rng.choice(self.game.legal_actions(state))
