"""Pickomino (Heckmeck am Bratwurmeck, Regenwormen): the pure rules.

The spec is `docs/rules/pickomino.md`. Dice are chance nodes: the rules never roll, a
`Dice` outcome (how many dice show each face) is applied like any other action.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction

from spieltisch.core.errors import IllegalAction
from spieltisch.core.options import options_to_json, parse_options
from spieltisch.core.protocol import CHANCE, Game, JsonValue, Mover
from spieltisch.core.registry import register_game
from spieltisch.games.pickomino import notation
from spieltisch.games.pickomino.data import NUM_FACES, TILES, tile_worms
from spieltisch.games.pickomino.state import (
    NO_DICE,
    ROLL,
    STOPS,
    TAKES,
    Action,
    Claim,
    Dice,
    FirstSeat,
    Phase,
    PickominoOptions,
    PickominoState,
    Roll,
    Stop,
    Take,
    dice_outcomes,
)

__all__ = ["Pickomino"]

FACE_BITS = NUM_FACES.bit_length()
"""Random bits for one die: a draw of them from 6 up is refused and drawn again."""


def roll_dice(dice: int, rng: random.Random) -> tuple[int, ...]:
    """How many of `dice` dice rolled with `rng` show each face."""
    counts, getrandbits = [0] * NUM_FACES, rng.getrandbits
    for _ in range(dice):
        face = getrandbits(FACE_BITS)  # the draw of rng.randrange(6), inlined
        while face >= NUM_FACES:
            face = getrandbits(FACE_BITS)
        counts[face] += 1
    return tuple(counts)


# --- the game ------------------------------------------------------------------------------
@register_game
class Pickomino(Game[PickominoState, Action]):
    name = "pickomino"
    title = "Pickomino"
    rules_version = "1"
    min_players = 2
    max_players = 7

    def __init__(self, options: Mapping[str, JsonValue] | None = None) -> None:
        self.options = parse_options(PickominoOptions, options)

    @property
    def num_players(self) -> int:
        return self.options.players

    def options_json(self) -> dict[str, JsonValue]:
        return options_to_json(self.options)

    # --- positions and moves ----------------------------------------------------------------
    def new_state(self) -> PickominoState:
        start = self.options.start_seat
        phase = Phase.START if start == "random" else Phase.ROLL
        seat = start if isinstance(start, int) else 0
        return PickominoState(TILES, ((),) * self.num_players, seat, phase)

    def to_move(self, state: PickominoState) -> Mover:
        if state.phase in (Phase.START, Phase.ROLL):
            return CHANCE
        if state.phase is Phase.OVER:
            return None
        return state.seat

    def legal_actions(self, state: PickominoState) -> list[Action]:
        if state.phase is Phase.CHOOSE:
            return [TAKES[face] for face in self.choosable_faces(state)]
        if state.phase is Phase.DECIDE:
            rolls: list[Action] = [] if state.turn_must_end else [ROLL]
            return rolls + [STOPS[claim] for claim in self.claims(state)]
        return [outcome for outcome, _ in self.chance_outcomes(state)]

    def chance_outcomes(self, state: PickominoState) -> list[tuple[Action, Fraction]]:
        if state.phase is Phase.ROLL:
            return list(dice_outcomes(state.dice_left))
        if state.phase is Phase.START:
            share = Fraction(1, self.num_players)
            return [(FirstSeat(seat), share) for seat in range(self.num_players)]
        return []

    def sample_chance(self, state: PickominoState, rng: random.Random) -> Action:
        if state.phase is Phase.ROLL:
            return Dice(roll_dice(state.dice_left, rng))
        if state.phase is Phase.START:
            return FirstSeat(rng.randrange(self.num_players))
        raise IllegalAction("this is not a chance node")

    def resolve_chance(self, state: PickominoState, rng: random.Random) -> PickominoState:
        """`Game.resolve_chance` with the same draws; a roll is applied without making and
        checking a `Dice` of it."""
        while True:
            if state.phase is Phase.ROLL:
                state = self._rolled(state, roll_dice(state.dice_left, rng))
            elif state.phase is Phase.START:
                state = self.apply(state, self.sample_chance(state, rng))
            else:
                return state

    def apply(self, state: PickominoState, action: Action) -> PickominoState:
        if isinstance(action, Dice) and state.phase is Phase.ROLL:
            return self._apply_roll(state, action)
        if isinstance(action, Take) and state.phase is Phase.CHOOSE:
            return self._apply_take(state, action.face)
        if isinstance(action, Roll) and state.phase is Phase.DECIDE and not state.turn_must_end:
            return state.in_turn(Phase.ROLL, state.kept, state.rolled)
        if isinstance(action, Stop) and state.phase is Phase.DECIDE:
            if action.claim not in self.claims(state):
                raise IllegalAction(self._claim_error(state, action.claim))
            return self._end_turn(state, action.claim)
        if isinstance(action, FirstSeat) and state.phase is Phase.START:
            if not 0 <= action.seat < self.num_players:
                raise IllegalAction(f"there is no seat {action.seat}")
            return replace(state, seat=action.seat, phase=Phase.ROLL)
        raise IllegalAction(self._phase_error(state, action))

    # --- the steps of a turn ---------------------------------------------------------------
    def _apply_roll(self, state: PickominoState, dice: Dice) -> PickominoState:
        counts = dice.counts
        if len(counts) != NUM_FACES or any(c < 0 for c in counts) or sum(counts) != state.dice_left:
            raise IllegalAction(f"a roll must show exactly {state.dice_left} dice")
        return self._rolled(state, counts)

    def _rolled(self, state: PickominoState, counts: tuple[int, ...]) -> PickominoState:
        """The position after a roll showing the face counts `counts`."""
        rolled = state.in_turn(Phase.CHOOSE, state.kept, counts)
        if not self.choosable_faces(rolled):
            return self._fail(rolled)  # only faces already set aside: the turn fails at once
        return rolled

    def _apply_take(self, state: PickominoState, face: int) -> PickominoState:
        if face not in self.choosable_faces(state):
            raise IllegalAction(self._take_error(state, face))
        kept = list(state.kept)
        kept[face] = state.rolled[face]
        after = state.in_turn(Phase.DECIDE, tuple(kept), NO_DICE)
        if after.turn_must_end:
            claims = self.claims(after)
            if len(claims) == 1:
                return self._end_turn(after, claims[0])
        return after

    def choosable_faces(self, state: PickominoState) -> list[int]:
        """Faces shown by the roll that were not set aside earlier this turn."""
        return [f for f in range(NUM_FACES) if state.rolled[f] and not state.kept[f]]

    def steal_victim(self, state: PickominoState) -> int | None:
        """The other seat whose top tile equals the sum exactly, if the player has a worm."""
        return self._victim_at(state, state.total) if state.has_worm else None

    def grill_tile(self, state: PickominoState) -> int | None:
        """The highest face-up grill tile not above the sum, if the player has a worm."""
        return self._grill_tile_at(state, state.total) if state.has_worm else None

    def _victim_at(self, state: PickominoState, total: int) -> int | None:
        for seat in range(self.num_players):
            if seat != state.seat and state.top(seat) == total:
                return seat
        return None

    def _grill_tile_at(self, state: PickominoState, total: int) -> int | None:
        reachable = bisect_right(state.grill, total)  # the grill is ascending
        return state.grill[reachable - 1] if reachable else None

    def claims(self, state: PickominoState) -> list[Claim]:
        """What a stop may take now: steal and/or grill, else only a failing stop ('none')."""
        if not state.has_worm:
            return ["none"]
        total = state.total
        found: list[Claim] = []
        if self._victim_at(state, total) is not None:
            found.append("steal")
        if self._grill_tile_at(state, total) is not None:
            found.append("grill")
        return found or ["none"]

    def turn_result(self, state: PickominoState, claim: Claim, total: int) -> PickominoState:
        """The position after the player to move ends the turn by `claim` with a worm and
        the sum `total` ('none': a failed turn). For planning ahead; dice are not checked."""
        if claim == "none":
            return self._fail(state)
        stacks = [list(stack) for stack in state.stacks]
        grill = state.grill
        victim = self._victim_at(state, total) if claim == "steal" else None
        tile = self._grill_tile_at(state, total) if claim == "grill" else total
        if (claim == "steal" and victim is None) or tile is None:
            raise IllegalAction(f"no tile to {claim} with the sum {total}")
        if victim is not None:
            stacks[victim].pop()
        else:
            grill = tuple(t for t in grill if t != tile)
        stacks[state.seat].append(tile)
        return self._next_turn(state, grill, tuple(tuple(s) for s in stacks))

    def _end_turn(self, state: PickominoState, claim: Claim) -> PickominoState:
        return self.turn_result(state, claim, state.total)

    def _fail(self, state: PickominoState) -> PickominoState:
        """Return the own top tile, then turn the highest grill tile down (see the options)."""
        stacks = list(state.stacks)
        grill = state.grill
        returned = state.top(state.seat)
        if returned is not None:
            stacks[state.seat] = stacks[state.seat][:-1]
            grill = tuple(sorted((*grill, returned)))
        if grill and self._flips(returned, grill[-1]):
            grill = grill[:-1]
        return self._next_turn(state, grill, tuple(stacks))

    def _flips(self, returned: int | None, highest: int) -> bool:
        if returned is None:
            return self.options.flip_when_nothing_returned
        return self.options.short_game or returned != highest

    def _next_turn(
        self, state: PickominoState, grill: tuple[int, ...], stacks: tuple[tuple[int, ...], ...]
    ) -> PickominoState:
        phase = Phase.ROLL if grill else Phase.OVER
        seat = (state.seat + 1) % self.num_players if grill else state.seat
        return PickominoState(grill, stacks, seat, phase, turn=state.turn + 1)

    # --- results ----------------------------------------------------------------------------
    def scores(self, state: PickominoState) -> tuple[int, ...]:
        return tuple(sum(tile_worms(t) for t in stack) for stack in state.stacks)

    def winners(self, state: PickominoState) -> tuple[int, ...]:
        """Most worms; on a tie the highest tile; tied players without tiles share the win."""
        if state.phase is not Phase.OVER:
            return ()
        scores = self.scores(state)
        best = max(scores)
        tied = [seat for seat, score in enumerate(scores) if score == best]
        highest = {seat: max(state.stacks[seat], default=0) for seat in tied}
        top = max(highest.values())
        return tuple(seat for seat in tied if highest[seat] == top)

    # --- errors that explain ------------------------------------------------------------------
    def _take_error(self, state: PickominoState, face: int) -> str:
        options = notation.faces_text(self.choosable_faces(state))
        if not 0 <= face < NUM_FACES:
            return f"there is no such face; choose one of {options}"
        name = notation.face_name(face)
        if state.kept[face]:
            return f"you already set aside {name} this turn; choose one of {options}"
        return f"the roll shows no {name}; choose one of {options}"

    def _claim_error(self, state: PickominoState, claim: Claim) -> str:
        if not state.has_worm:
            return "no worm is set aside yet, so a stop would take no tile"
        if claim == "steal":
            return f"no other player's top tile is exactly {state.total}"
        if claim == "grill":
            return f"no tile on the grill is {state.total} or lower"
        return "a stop now takes a tile: choose 'steal' or 'grill'"

    def _phase_error(self, state: PickominoState, action: Action) -> str:
        expected = {
            Phase.START: "the start seat is being drawn",
            Phase.ROLL: "the dice are being rolled",
            Phase.CHOOSE: "choose a face of the roll to set aside",
            Phase.DECIDE: "stop or roll again"
            if not state.turn_must_end
            else "the turn is over: steal or take from the grill",
            Phase.OVER: "the game is over",
        }[state.phase]
        return f"'{self.format_action(action)}' is not possible now: {expected}"

    # --- what crosses a boundary --------------------------------------------------------------
    def view(self, state: PickominoState, seat: int | None) -> dict[str, JsonValue]:
        return notation.view_json(self, state, seat)

    def state_to_json(self, state: PickominoState) -> dict[str, JsonValue]:
        return notation.state_to_json(state)

    def state_from_json(self, data: Mapping[str, JsonValue]) -> PickominoState:
        return notation.state_from_json(self, data)

    def format_action(self, action: Action) -> str:
        return notation.format_action(action)

    def read_action(self, state: PickominoState, text: str) -> Action:
        return notation.read_action(self, state, text)

    def story(
        self, before: PickominoState, action: Action, after: PickominoState
    ) -> dict[str, JsonValue]:
        """Which tile a turn's end took (and from whom), returned or turned down."""
        seat = before.seat
        taken = after.stacks[seat][len(before.stacks[seat]) :]
        told: dict[str, JsonValue] = {}
        if taken:
            owners = [s for s in range(self.num_players) if taken[0] in before.stacks[s]]
            told = {"tile": taken[0], "from": owners[0] if owners else None}
        elif len(after.stacks[seat]) < len(before.stacks[seat]):
            told["returned"] = before.stacks[seat][-1]
        turned = set(after.out_of_game) - set(before.out_of_game)
        if turned:
            told["turned_down"] = min(turned)
        return {"seat": seat, **told} if told else {}

    def render(self, state: PickominoState) -> str:
        return notation.render(self, state)
