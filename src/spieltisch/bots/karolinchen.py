"""Karolinchen bots: `greedy` (the most dice now) and `expert` (a search over the dice)."""

from __future__ import annotations

from spieltisch.bots.base import Bot, register_bot
from spieltisch.games.karolinchen.data import COUNTS
from spieltisch.games.karolinchen.rules import Karolinchen
from spieltisch.games.karolinchen.state import TAKE, Action, KarolinchenState, Lay, Phase

__all__ = ["GreedyBot", "greedy_fruit"]


def greedy_fruit(state: KarolinchenState) -> int:
    """The hand card that takes the most dice from the middle now; on ties the fewest fruits."""
    middle = state.middle
    return max(
        state.hand(state.seat),
        key=lambda fruit: (min(middle[fruit], COUNTS[fruit]), -COUNTS[fruit]),
    )


@register_bot(Karolinchen.name)
class GreedyBot(Bot):
    name = "greedy"
    description = "lays the card that takes the most dice now; on ties the smallest card"
    game: Karolinchen

    def choose(self, state: KarolinchenState) -> Action:
        if state.phase is Phase.CHOOSE:
            return Lay(greedy_fruit(state))
        if state.phase is Phase.TAKE:
            return TAKE
        raise ValueError(f"greedy cannot act in phase {state.phase}")
