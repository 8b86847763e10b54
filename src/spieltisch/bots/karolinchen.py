"""Karolinchen bots: `greedy` (the most dice now) and `expert` (a search over the dice).

The generic `random` bot (any game) already lays a uniformly random card from the hand.
"""

from __future__ import annotations

import random
from functools import cache
from math import comb
from typing import Any

from spieltisch.bots.base import Bot, Bounded, register_bot
from spieltisch.core.protocol import Game
from spieltisch.games.karolinchen.data import COUNTS, DICE, NUM_FRUITS
from spieltisch.games.karolinchen.rules import Chooser, Karolinchen, TableRule
from spieltisch.games.karolinchen.state import (
    TAKE,
    Action,
    Dice,
    KarolinchenState,
    Lay,
    Phase,
    dice_outcomes,
)

__all__ = ["GREEDY_RULE", "ExpertBot", "GreedyBot", "greedy_fruit", "playout_seat", "roll_gain"]


def greedy_fruit(state: KarolinchenState) -> int:
    """The hand card that takes the most dice from the middle now; on ties the fewest fruits."""
    return _greedy_lay(state.middle, state.cards[state.seat]).fruit


def _greedy_lay(middle: tuple[int, ...], laid: tuple[int, ...]) -> Lay:
    for lay in _greedy_cards(middle):
        if lay.fruit not in laid:
            return lay
    raise ValueError("greedy has no card left to lay")


@cache
def _greedy_cards(middle: tuple[int, ...]) -> tuple[Lay, ...]:
    """Every card, best first for greedy: the most dice it takes from `middle` now, on ties
    the fewest fruits (the cards' fruit counts all differ, so the order is strict). Remembered
    per middle, of which there are 924; greedy lays the first card of it still in the hand."""
    order = sorted(range(NUM_FRUITS), key=lambda fruit: _liking(middle, fruit), reverse=True)
    return tuple(Lay(fruit) for fruit in order)


def _liking(middle: tuple[int, ...], fruit: int) -> tuple[int, int]:
    """How much greedy likes laying `fruit` now: the dice it takes, then the fewer fruits."""
    return min(middle[fruit], COUNTS[fruit]), -COUNTS[fruit]


def _greedy(phase: Phase, middle: tuple[int, ...], laid: tuple[int, ...]) -> Action:
    if phase is Phase.CHOOSE:
        return _greedy_lay(middle, laid)
    if phase is Phase.TAKE:
        return TAKE
    raise ValueError(f"greedy cannot act in phase {phase}")


GREEDY_RULE = TableRule(_greedy)
"""Greedy's decision from the middle and its own cards, for `Karolinchen.play_out`."""


@register_bot(Karolinchen.name)
class GreedyBot(Bot):
    name = "greedy"
    description = "lays the card that takes the most dice now; on ties the smallest card"
    draws = False
    game: Karolinchen

    def choose(self, state: KarolinchenState) -> Action:
        return _greedy(state.phase, state.middle, state.cards[state.seat])


def playout_seat(bot: Bot) -> Chooser | TableRule:
    """How `bot` decides in `Karolinchen.play_out`: greedy by its rule, any other by `choose`."""
    return GREEDY_RULE if isinstance(bot, GreedyBot) else bot.choose


# --- expert --------------------------------------------------------------------------------
Gains = tuple[float, ...]
"""Expected fruits each seat gains from a position to the search horizon."""


@cache
def _roll_odds(dice: int) -> tuple[tuple[Dice, float], ...]:
    """The exact roll probabilities, as floats for fast sums."""
    return tuple((outcome, float(p)) for outcome, p in dice_outcomes(dice))


@cache
def roll_gain(dice: int, free: int) -> float:
    """Expected dice a player takes rolling `dice` dice for a card with `free` fruits left."""
    hit = 1.0 / NUM_FRUITS
    return sum(
        comb(dice, k) * hit**k * (1.0 - hit) ** (dice - k) * min(k, free) for k in range(dice + 1)
    )


@register_bot(Karolinchen.name)
class ExpertBot(Bot):
    """Expectimax over the dice until the middle runs empty (or `depth` rolls ahead).

    Every die ends on somebody's card before the worms eat, so the bot values a choice by the
    fruits each seat is expected to gain until the next eating phase: chance nodes weigh every
    roll by its exact probability, and every seat (the bot's rivals included) lays the card
    that gains it the most over its best rival; among equal ones, the one greedy would lay. A
    roll beyond the horizon counts the roller's expected take; a win counts `win` fruits.
    Values are cached by the part of the position they depend on (colours, free fruits, hands
    and the middle), across turns and games.
    """

    name = "expert"
    description = "expectimax over exact dice odds until the next eating phase"
    draws = False
    # each roll of depth multiplies the work (4 players, depth 3: up to 0.4 s a move)
    parameters = {"depth": Bounded(int, 0, 3), "win": Bounded(float, 0, 100)}  # noqa: RUF012
    game: Karolinchen
    depth: int | None = None
    win: float = 8.0
    margin = 1e-6
    """How much better than greedy's choice another choice must look."""
    cache_limit = 1_000_000

    def __init__(self, game: Game[Any, Any], rng: random.Random) -> None:
        super().__init__(game, rng)
        self._values: dict[tuple[Any, ...], Gains] = {}

    @property
    def rolls_ahead(self) -> int:
        """Rolls searched: two in a 2-player game, one with more players (they cost more)."""
        if self.depth is not None:
            return self.depth
        return 2 if self.game.num_players == 2 else 1

    def choose(self, state: KarolinchenState) -> Action:
        if state.phase not in (Phase.CHOOSE, Phase.TAKE):
            raise ValueError(f"expert cannot act in phase {state.phase}")
        if len(self._values) > self.cache_limit:
            self._values.clear()
        return self._best(state, self.rolls_ahead)[0]

    def _best(self, state: KarolinchenState, depth: int) -> tuple[Action, Gains]:
        """The mover's action with the largest lead over its best rival, and its gains."""
        seat = state.seat
        best: tuple[Action, Gains] | None = None
        best_lead = 0.0
        for action in _greedy_order(state, self.game.legal_actions(state)):
            gains = self._gains(state, self.game.apply(state, action), depth)
            lead = gains[seat] - max(g for s, g in enumerate(gains) if s != seat)
            if best is None or lead > best_lead + self.margin:
                best, best_lead = (action, gains), lead
        assert best is not None  # a decision always has a legal action
        return best

    def _gains(self, before: KarolinchenState, after: KarolinchenState, depth: int) -> Gains:
        """The fruits gained from `before` to `after`, plus the gains expected after it."""
        later = self._value(after, depth)
        return tuple(
            later[s] + after.eaten[s] + after.covered[s] - before.eaten[s] - before.covered[s]
            for s in range(len(later))
        )

    def _value(self, state: KarolinchenState, depth: int) -> Gains:
        players = self.game.num_players
        phase = state.phase
        if phase is Phase.OVER:
            return tuple(self.win if s == state.seat else 0.0 for s in range(players))
        if phase is Phase.ROLL:
            dice = state.dice_in_middle
            if dice == DICE:  # the worms just ate: the horizon
                return (0.0,) * players
            if depth <= 0:
                take = roll_gain(dice, state.free(state.seat))
                return tuple(take if s == state.seat else 0.0 for s in range(players))
        key = _key(state, depth)
        known = self._values.get(key)
        if known is None:
            known = self._expand(state, depth)
            self._values[key] = known
        return known

    def _expand(self, state: KarolinchenState, depth: int) -> Gains:
        if state.phase is not Phase.ROLL:
            return self._best(state, depth)[1]
        total = [0.0] * self.game.num_players
        for outcome, p in _roll_odds(state.dice_in_middle):
            gains = self._gains(state, self.game.apply(state, outcome), depth - 1)
            for seat, gain in enumerate(gains):
                total[seat] += p * gain
        return tuple(total)


def _key(state: KarolinchenState, depth: int) -> tuple[Any, ...]:
    """What a position's future gains depend on: not the fruits already eaten or covered."""
    worms = tuple(
        (cards[-1], state.free(seat), sum(1 << fruit for fruit in cards))
        for seat, cards in enumerate(state.cards)
    )
    return (state.phase, state.seat, state.middle, state.dice_in_middle, depth, worms)


def _greedy_order(state: KarolinchenState, actions: list[Action]) -> list[Action]:
    """The actions in greedy's order of preference: the most dice now, then the fewest fruits."""
    middle = state.middle

    def preference(action: Action) -> tuple[int, int]:
        if not isinstance(action, Lay):
            return (0, 0)  # take before leave: their legal order
        taken, fewer = _liking(middle, action.fruit)
        return (-taken, -fewer)

    return sorted(actions, key=preference)
