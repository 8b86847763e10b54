"""Karolinchen: the pure rules.

The spec is `docs/rules/karolinchen.md`. Dice are chance nodes: the rules never roll, a
`Dice` outcome (how many rolled dice show each colour) is applied like any other action. Every
forced step (look, place, end of turn, eating) happens inside `apply`; the only decisions are
which card to lay next and, when the `auto_take` option is off, whether to take the dice for it.
`trace` tells the forced steps of one action, for commentary.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import NamedTuple

from spieltisch.core.errors import IllegalAction
from spieltisch.core.options import options_to_json, parse_options
from spieltisch.core.protocol import CHANCE, Game, JsonValue, Mover
from spieltisch.core.registry import register_game
from spieltisch.games.karolinchen import notation
from spieltisch.games.karolinchen.data import COUNTS, DICE, FRUITS, LETTERS, NUM_FRUITS
from spieltisch.games.karolinchen.state import (
    LEAVE,
    NO_DICE,
    TAKE,
    Action,
    Dice,
    FirstSeat,
    KarolinchenOptions,
    KarolinchenState,
    Lay,
    Leave,
    Phase,
    Step,
    Tails,
    Take,
    dice_outcomes,
    dice_sampler,
    laid_fruits,
    roll_counts,
    tail_outcomes,
)

__all__ = ["Chooser", "Karolinchen", "Playout", "TableRule"]

Chooser = Callable[[KarolinchenState], Action]
"""A seat's decision in a position: the card to lay, or whether to take the dice."""


@dataclass(frozen=True)
class TableRule:
    """A decision that depends only on the phase, the dice in the middle and the seat's laid
    cards (as greedy's): `play_out` asks it without building the position."""

    decide: Callable[[Phase, tuple[int, ...], tuple[int, ...]], Action]


class Playout(NamedTuple):
    """A game played on to its end by `Karolinchen.play_out`."""

    start: KarolinchenState
    """The position where play began (after the tails and the start seat were drawn)."""
    state: KarolinchenState
    """The last position."""
    eating_phases: int
    decision_runs: int
    """Runs of decisions by one seat (a seat's decisions in a row count once)."""


ROLL, CHOOSE, OVER = Phase.ROLL, Phase.CHOOSE, Phase.OVER
"""The phases the forced steps end in, as names of this module (looked up on every step)."""

TOLD_STEPS = frozenset({"take", "none", "full", "eat", "grow"})
"""The steps of an action that a table's log tells (`Karolinchen.story`)."""


class _Table:
    """A position being worked on inside one `apply`: mutable, never seen outside."""

    __slots__ = (
        "cards",
        "covered",
        "eaten",
        "eatings",
        "free",
        "log",
        "middle",
        "players",
        "seat",
        "turn",
    )

    def __init__(self, state: KarolinchenState, log: list[Step] | None) -> None:
        self.seat = state.seat
        self.middle = list(state.middle)
        self.cards = list(state.cards)
        self.eaten = list(state.eaten)
        self.covered = list(state.covered)
        self.free = [laid_fruits(cards) for cards in state.cards]
        for seat in range(len(self.free)):
            self.free[seat] -= self.eaten[seat] + self.covered[seat]
        self.turn = state.turn
        self.players = len(state.cards)
        self.log = log
        self.eatings = 0  # eating phases since the table was set up

    def state(self, phase: Phase) -> KarolinchenState:
        middle = NO_DICE if phase is Phase.ROLL else tuple(self.middle)
        return KarolinchenState(
            phase,
            self.seat,
            middle,
            tuple(self.cards),
            tuple(self.eaten),
            tuple(self.covered),
            self.turn,
        )


# --- the forced steps of a turn ----------------------------------------------------------------
def _place(table: _Table) -> Phase:
    """The seat to move puts matching dice on its current card, up to its free fruits; then it
    wins or chooses its next card, or its turn ends and the next seat begins its turn, placing
    in turn while dice match: until a seat must roll."""
    middle, log = table.middle, table.log
    while True:
        seat = table.seat
        cards = table.cards[seat]
        fruit = cards[-1]
        free = table.free[seat]
        count = middle[fruit] if middle[fruit] < free else free
        if count:
            middle[fruit] -= count
            table.covered[seat] += count
            table.free[seat] = free - count
        if log is not None:
            log.append(Step("take" if count else "none", seat, fruit, count))
        if count == free:
            return _full(table, fruit, len(cards) == NUM_FRUITS)
        table.turn += 1
        table.seat = (seat + 1) % table.players
        if not _begin_turn(table):
            return ROLL


def _full(table: _Table, fruit: int, last: bool) -> Phase:
    """The current card is full: the last card wins, else the seat chooses its next card."""
    if table.log is not None:
        table.log.append(Step("win" if last else "full", table.seat, fruit))
    return OVER if last else CHOOSE


def _end_turn(table: _Table) -> Phase:
    """The turn ends; the next seat begins its turn."""
    table.turn += 1
    table.seat = (table.seat + 1) % table.players
    return _place(table) if _begin_turn(table) else ROLL


def _begin_turn(table: _Table) -> bool:
    """The worms eat first if the middle is empty; then the seat to move looks at the middle.
    Whether matching dice lie there to take without rolling (else it rolls)."""
    seat, log = table.seat, table.log
    fruit = table.cards[seat][-1]
    if not any(table.middle):
        _eat(table)
        if log is not None:
            log.append(Step("turn", seat, fruit))
            log.append(Step("roll", seat, number=DICE))
        return False
    if log is not None:
        log.append(Step("turn", seat, fruit))
    if table.middle[fruit]:
        return True
    if log is not None:
        waiting = sum(table.middle)
        log.append(Step("miss", seat, fruit, waiting))
        log.append(Step("roll", seat, number=waiting))
    return False


def _eat(table: _Table) -> None:
    """Every worm eats the fruits under its dice; the dice go back to the middle, unrolled."""
    grown: list[Step] = []
    for seat in range(table.players):
        before, after = table.eaten[seat], table.eaten[seat] + table.covered[seat]
        table.eaten[seat], table.covered[seat] = after, 0
        if table.log is not None:
            table.log.append(Step("eat", seat, number=after - before))
            grown += _grown(seat, table.cards[seat], before, after)
    if table.log is not None:
        table.log.extend(grown)
    table.middle = list(NO_DICE)
    table.eatings += 1


def _grown(seat: int, cards: tuple[int, ...], before: int, after: int) -> list[Step]:
    """The cards whose last fruit was eaten between `before` and `after`."""
    steps, end = [], 0
    for fruit in cards:
        end += COUNTS[fruit]
        if before < end <= after:
            steps.append(Step("grow", seat, fruit))
    return steps


def _draw_roll(dice: int, rng: random.Random) -> Dice:
    """A roll of `dice` dice: one draw among the 6**dice equally likely faces of the dice,
    the draw of `rng.randrange(6**dice)` (random bits, refused while too large), inlined."""
    rolls = dice_sampler(dice)
    bits = _ROLL_BITS[dice]
    draw = rng.getrandbits(bits)
    while draw >= len(rolls):
        draw = rng.getrandbits(bits)
    return rolls[draw]


def _roll_on(table: _Table, phase: Phase, rng: random.Random) -> Phase:
    """Roll (the dice dealt into the middle, or the seat's roll) while the phase asks for a
    roll: the phase where a seat decides or the game is over. Each roll is the draw of
    `_draw_roll`, inlined with names bound here: this is the hot path of whole games."""
    faces, bits_of, getrandbits, place = _roll_faces(), _ROLL_BITS, rng.getrandbits, _place
    while phase is ROLL or phase is Phase.DEAL:
        dice = DICE - sum(table.covered)
        rolls, bits = faces[dice], bits_of[dice]
        draw = getrandbits(bits)
        while draw >= len(rolls):
            draw = getrandbits(bits)
        table.middle = list(rolls[draw])
        phase = place(table) if phase is ROLL or _begin_turn(table) else ROLL
    return phase


@cache
def _roll_faces() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For 0 to 6 dice, the colour counts of each face sequence, in `dice_sampler`'s order."""
    return tuple(tuple(roll.counts for roll in dice_sampler(dice)) for dice in range(DICE + 1))


_ROLL_BITS = tuple((NUM_FRUITS**dice).bit_length() for dice in range(DICE + 1))
"""Random bits for one draw among the face sequences of 0..6 dice."""


# --- the game ------------------------------------------------------------------------------
@register_game
class Karolinchen(Game[KarolinchenState, Action]):
    name = "karolinchen"
    title = "Karolinchen"
    rules_version = "1"
    min_players = 2
    max_players = 6

    def __init__(self, options: Mapping[str, JsonValue] | None = None) -> None:
        self.options = parse_options(KarolinchenOptions, options)
        self._players = self.options.players
        self._initial = self._first_state()  # a state never changes: one serves every game

    @property
    def num_players(self) -> int:
        return self._players

    def options_json(self) -> dict[str, JsonValue]:
        return options_to_json(self.options)

    # --- positions and moves ----------------------------------------------------------------
    def new_state(self) -> KarolinchenState:
        return self._initial

    def _first_state(self) -> KarolinchenState:
        players = self._players
        start = self.options.start_seat
        seat = start if isinstance(start, int) else 0
        zeros = (0,) * players
        if self.options.tail_fruits == "random":
            return KarolinchenState(Phase.TAILS, seat, NO_DICE, ((),) * players, zeros, zeros)
        cards = tuple((fruit,) for fruit in range(players))
        phase = Phase.START if start == "random" else Phase.DEAL
        return KarolinchenState(phase, seat, NO_DICE, cards, zeros, zeros)

    def to_move(self, state: KarolinchenState) -> Mover:
        phase = state.phase
        if phase is Phase.CHOOSE or phase is Phase.TAKE:
            return state.seat
        if phase is Phase.OVER:
            return None
        return CHANCE

    def legal_actions(self, state: KarolinchenState) -> list[Action]:
        if state.phase is Phase.CHOOSE:
            return [Lay(fruit) for fruit in state.hand(state.seat)]
        if state.phase is Phase.TAKE:
            return [TAKE, LEAVE]
        return [outcome for outcome, _ in self.chance_outcomes(state)]

    def chance_outcomes(self, state: KarolinchenState) -> list[tuple[Action, Fraction]]:
        phase = state.phase
        if phase is Phase.ROLL or phase is Phase.DEAL:
            return list(dice_outcomes(state.dice_in_middle))
        if phase is Phase.START:
            share = Fraction(1, self._players)
            return [(FirstSeat(seat), share) for seat in range(self._players)]
        if phase is Phase.TAILS:
            return list(tail_outcomes(self._players))
        return []

    def sample_chance(self, state: KarolinchenState, rng: random.Random) -> Action:
        phase = state.phase
        if phase is Phase.ROLL or phase is Phase.DEAL:
            return _draw_roll(state.dice_in_middle, rng)
        if phase is Phase.START:
            return FirstSeat(rng.randrange(self._players))
        if phase is Phase.TAILS:
            outcomes = tail_outcomes(self._players)
            return outcomes[rng.randrange(len(outcomes))][0]
        raise IllegalAction("this is not a chance node")

    def apply(self, state: KarolinchenState, action: Action) -> KarolinchenState:
        return self._apply(state, action, None)

    def trace(self, state: KarolinchenState, action: Action) -> list[Step]:
        """The forced steps that `action` sets off, in order (for commentary)."""
        log: list[Step] = []
        self._apply(state, action, log)
        return log

    def _apply(
        self, state: KarolinchenState, action: Action, log: list[Step] | None
    ) -> KarolinchenState:
        phase = state.phase
        if phase is Phase.ROLL or phase is Phase.CHOOSE or phase is Phase.TAKE:
            table = _Table(state, log)
            return table.state(self._step(table, phase, action))
        if phase is Phase.DEAL and type(action) is Dice:
            self._check_roll(state.dice_in_middle, action)
            table = _Table(state, log)
            table.middle = list(action.counts)
            return table.state(_place(table) if _begin_turn(table) else ROLL)
        if phase is Phase.START and type(action) is FirstSeat:
            if not 0 <= action.seat < self._players:
                raise IllegalAction(f"there is no seat {action.seat}")
            return replace(state, seat=action.seat, phase=Phase.DEAL)
        if phase is Phase.TAILS and type(action) is Tails:
            return self._apply_tails(state, action.fruits)
        raise IllegalAction(self._phase_error(state, action))

    def play_out(
        self,
        state: KarolinchenState,
        seats: Sequence[Chooser | TableRule],
        rng: random.Random,
    ) -> Playout:
        """Play on from `state` to the end, each chance outcome drawn from `rng` as
        `sample_chance` draws it and each decision of seat s made by `seats[s]`: the same
        game as applying one action at a time, but the rolls between decisions are played on
        one mutable table, without a position for each."""
        while state.phase is Phase.TAILS or state.phase is Phase.START:
            state = self.apply(state, self.sample_chance(state, rng))
        table = _Table(state, None)
        phase = _roll_on(table, state.phase, rng)
        runs, last = 0, -1
        while phase is not OVER:
            seat = table.seat
            if seat != last:
                runs, last = runs + 1, seat
            decision = seats[seat]
            if isinstance(decision, TableRule):
                action = decision.decide(phase, tuple(table.middle), table.cards[seat])
            else:
                action = decision(table.state(phase))
            phase = _roll_on(table, self._step(table, phase, action), rng)
        return Playout(state, table.state(phase), table.eatings, runs)

    def resolve_chance(self, state: KarolinchenState, rng: random.Random) -> KarolinchenState:
        """Chance outcomes drawn from `rng` as `sample_chance` draws them, applied until a
        seat is to decide or the game is over; the rolls on one mutable table."""
        while state.phase is Phase.TAILS or state.phase is Phase.START:
            state = self.apply(state, self.sample_chance(state, rng))
        if state.phase is not Phase.DEAL and state.phase is not Phase.ROLL:
            return state
        table = _Table(state, None)
        return table.state(_roll_on(table, state.phase, rng))

    def _step(self, table: _Table, phase: Phase, action: Action) -> Phase:
        """`action` in a position of a turn (a roll or a decision) on the table; the phase
        after it. Raises `IllegalAction` before the table is changed."""
        if phase is Phase.ROLL and type(action) is Dice:
            self._check_roll(DICE - sum(table.covered), action)
            table.middle = list(action.counts)
            return _place(table)
        if phase is Phase.CHOOSE and type(action) is Lay:
            return self._lay(table, action.fruit)
        if phase is Phase.TAKE and (type(action) is Take or type(action) is Leave):
            return _place(table) if type(action) is Take else _end_turn(table)
        raise IllegalAction(self._phase_error(table.state(phase), action))

    def _check_roll(self, dice: int, roll: Dice) -> None:
        if not isinstance(roll.counts, tuple) or roll.counts not in roll_counts(dice):
            raise IllegalAction(f"a roll must show exactly {dice} dice")

    def _lay(self, table: _Table, fruit: int) -> Phase:
        seat = table.seat
        if not 0 <= fruit < NUM_FRUITS or fruit in table.cards[seat]:
            raise IllegalAction(self._lay_error(table.state(Phase.CHOOSE), fruit))
        table.cards[seat] = (*table.cards[seat], fruit)
        table.free[seat] = COUNTS[fruit]
        if self.options.auto_take or not table.middle[fruit]:
            return _place(table)
        return Phase.TAKE

    def _apply_tails(self, state: KarolinchenState, fruits: tuple[int, ...]) -> KarolinchenState:
        if (
            len(fruits) != self._players
            or len(set(fruits)) != len(fruits)
            or not all(0 <= fruit < NUM_FRUITS for fruit in fruits)
        ):
            raise IllegalAction(
                f"tail fruits must be {self._players} different fruits, one per seat"
            )
        phase = Phase.START if self.options.start_seat == "random" else Phase.DEAL
        return replace(state, phase=phase, cards=tuple((fruit,) for fruit in fruits))

    # --- results ----------------------------------------------------------------------------
    def scores(self, state: KarolinchenState) -> tuple[int, ...]:
        """Fruits eaten or covered per seat (the winner has all 21)."""
        return tuple(e + c for e, c in zip(state.eaten, state.covered, strict=True))

    def winners(self, state: KarolinchenState) -> tuple[int, ...]:
        """The seat that covered its last fruit; nobody else, there are no ties."""
        return (state.seat,) if state.phase is Phase.OVER else ()

    # --- errors that explain ------------------------------------------------------------------
    def _lay_error(self, state: KarolinchenState, fruit: int) -> str:
        hand = notation.fruits_text(state.hand(state.seat))
        if not 0 <= fruit < NUM_FRUITS:
            return f"there is no such fruit; lay one of your hand: {hand}"
        return f"your {FRUITS[fruit].name} card is already laid out; lay one of: {hand}"

    def _phase_error(self, state: KarolinchenState, action: Action) -> str:
        expected = {
            Phase.TAILS: "the tail fruits are being drawn",
            Phase.START: "the start seat is being drawn",
            Phase.DEAL: "the dice are being rolled into the middle",
            Phase.ROLL: "the dice are being rolled",
            Phase.CHOOSE: "choose the next card from your hand",
            Phase.TAKE: "'take' the matching dice for your new card or 'leave' them",
            Phase.OVER: "the game is over",
        }[state.phase]
        return f"'{self.format_action(action)}' is not possible now: {expected}"

    # --- what crosses a boundary --------------------------------------------------------------
    def view(self, state: KarolinchenState, seat: int | None) -> dict[str, JsonValue]:
        return notation.view_json(self, state, seat)

    def state_to_json(self, state: KarolinchenState) -> dict[str, JsonValue]:
        return notation.state_to_json(state)

    def state_from_json(self, data: Mapping[str, JsonValue]) -> KarolinchenState:
        return notation.state_from_json(self, data)

    def format_action(self, action: Action) -> str:
        return notation.format_action(action)

    def read_action(self, state: KarolinchenState, text: str) -> Action:
        return notation.read_action(self, state, text)

    def story(
        self, before: KarolinchenState, action: Action, after: KarolinchenState
    ) -> dict[str, JsonValue]:
        """Who rolled (or that the dice were dealt), and what the action set off: dice taken,
        cards full, the worms eating."""
        steps = [
            [step.kind, step.seat, LETTERS[step.fruit] if step.fruit >= 0 else None, step.number]
            for step in self.trace(before, action)
            if step.kind in TOLD_STEPS
        ]
        return {"seat": before.seat, "deal": before.phase is Phase.DEAL, "steps": steps}

    def render(self, state: KarolinchenState) -> str:
        return notation.render(self, state)
