"""Pickomino played a whole turn at a time, for `analysis.simulate`.

Each seat's bot gives the exact chances of every way its turn can end (`TurnPlayer`); one
seeded draw per turn picks the end. A seat keeps the ends it has seen with their cumulative
chances, by what they depend on (the bot's `outcome_key`: for `optimal` and `greedy` the
grill and the top tiles), so a repeated one costs a lookup and a bisection.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from itertools import accumulate

from spieltisch.bots.base import Bot
from spieltisch.bots.pickomino import TurnPlayer
from spieltisch.games.pickomino.rules import Pickomino
from spieltisch.games.pickomino.state import Phase, PickominoState
from spieltisch.games.pickomino.winner import TurnEnd, outcome_ends

__all__ = ["TurnDrawer", "play_turns"]

_KEPT = 1 << 16  # positions a seat keeps before it starts afresh (bounds the memory)


class TurnDrawer:
    """Draws the ends of one seat's turns."""

    def __init__(self, bot: Bot) -> None:
        if not isinstance(bot, TurnPlayer):
            raise TypeError(f"bot '{bot.name}' cannot draw whole turns")
        self.player: TurnPlayer = bot
        self.kept: dict[tuple[object, ...], tuple[list[float], list[TurnEnd]]] = {}

    def draw(self, state: PickominoState, rng: random.Random) -> TurnEnd:
        """The end of the turn starting in `state`, by one draw from `rng`."""
        key = self.player.outcome_key(state)
        found = self.kept.get(key)
        if found is None:
            if len(self.kept) >= _KEPT:
                self.kept.clear()
            chances = outcome_ends(state, self.player.turn_outcome(state))
            found = list(accumulate(chance for _, chance in chances)), [e for e, _ in chances]
            self.kept[key] = found
        cumulative, ends = found
        return ends[min(bisect_right(cumulative, rng.random()), len(ends) - 1)]


def play_turns(
    game: Pickomino, drawers: list[TurnDrawer], rng: random.Random
) -> list[PickominoState]:
    """The positions between the turns of one game, from the first to the final one (a
    random start seat is drawn first, with the same generator)."""
    state = game.new_state()
    if state.phase is Phase.START:
        state = game.apply(state, game.sample_chance(state, rng))
    states = [state]
    while state.phase is not Phase.OVER:
        claim, tile = drawers[state.seat].draw(state, rng)
        state = game.turn_result(state, claim, tile)
        states.append(state)
    return states
