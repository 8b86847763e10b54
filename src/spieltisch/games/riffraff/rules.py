"""Riff Raff: the pure rules. The spec is `docs/rules/riffraff.md`.

Cards are chosen one seat after another but stay hidden until all are down (views show only
that a seat has chosen). A placement is a player's action; what the ship does with it is a
chance outcome (`Settled`) that the physics draws in `sample_chance` and the record stores, so
replay never runs the physics. Falls lead to a catch: a chance outcome of the catch model, or
(option catching=choose) the player's own `Catch`.

Placements are continuous: `apply` accepts any allowed point, yaw and face. `legal_actions`
offers a finite, documented grid of them (`PLACE_GRID`): every piece type in the supply at
u = 0.3, 0.6, 0.9 on the middle line (v = 0), with yaw 0 and 90 degrees, resting 'up', leaving
out footprints that the footprint rule refuses.

The physics outcome is not enumerable: at `Phase.SETTLE` `chance_outcomes` and `legal_actions`
are empty and only `sample_chance` draws an outcome; `apply` checks that it fits the placement.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

from spieltisch.core.errors import IllegalAction
from spieltisch.core.options import options_to_json, parse_options
from spieltisch.core.protocol import CHANCE, Game, JsonValue, Mover
from spieltisch.core.registry import register_game
from spieltisch.games.riffraff import notation, story
from spieltisch.games.riffraff.board import (
    Placement,
    footprint_problem,
    piece_type,
)
from spieltisch.games.riffraff.catching import HANDS, catch_outcomes
from spieltisch.games.riffraff.data import (
    CARD_NUMBERS,
    PIECE_NAMES,
    PIECES,
    YARD_AREAS,
    sets_per_player,
)
from spieltisch.games.riffraff.state import (
    Action,
    Announce,
    Captain,
    Card,
    Catch,
    FirstCaptain,
    Next,
    Phase,
    Place,
    RiffRaffOptions,
    RiffRaffState,
    Settled,
)

if TYPE_CHECKING:
    from spieltisch.games.riffraff.physics import PlacementResult

__all__ = ["PLACE_GRID", "RiffRaff", "settled_of"]

T = TypeVar("T")
PLACE_GRID_U = (0.3, 0.6, 0.9)
PLACE_GRID_YAW = (0.0, 90.0)
PLACE_GRID = {"u": PLACE_GRID_U, "v": (0.0,), "yaw": PLACE_GRID_YAW, "face": ("up",)}
"""The placements `legal_actions` lists for each piece type in the supply."""


@register_game
class RiffRaff(Game[RiffRaffState, Action]):
    name = "riffraff"
    title = "Riff Raff"
    rules_version = "1"
    min_players = 2
    max_players = 4

    def __init__(self, options: Mapping[str, JsonValue] | None = None) -> None:
        self.options = parse_options(RiffRaffOptions, options)

    @property
    def num_players(self) -> int:
        return self.options.players

    def options_json(self) -> dict[str, JsonValue]:
        return options_to_json(self.options)

    # --- positions ----------------------------------------------------------------------------
    def new_state(self) -> RiffRaffState:
        players = self.num_players
        start = self.options.start_seat
        supply = (sets_per_player(players),) * len(PIECES)
        return RiffRaffState(
            phase=Phase.START if start == "random" else Phase.CARDS,
            hands=(CARD_NUMBERS,) * players,
            played=((),) * players,
            chosen=(None,) * players,
            supplies=(supply,) * players,
            captain=start if isinstance(start, int) else 0,
            round=0 if start == "random" else 1,
            caught=(0,) * players,
        )

    def to_move(self, state: RiffRaffState) -> Mover:
        phase = state.phase
        if phase is Phase.OVER:
            return None
        if phase in (Phase.START, Phase.SETTLE):
            return CHANCE
        if phase is Phase.CATCH:
            return CHANCE if self.options.catching == "model" else state.active
        if phase is Phase.CARDS:
            return state.chosen.index(None)
        if phase in (Phase.CAPTAIN, Phase.NEXT):
            return state.captain
        return state.active

    def legal_actions(self, state: RiffRaffState) -> list[Action]:
        phase = state.phase
        if phase is Phase.CARDS:
            seat = state.chosen.index(None)
            return [Card(n) for n in sorted(set(state.hands[seat]))]
        if phase is Phase.CAPTAIN:
            return [Captain(seat) for seat in self.highest_seats(state)]
        if phase is Phase.NEXT:
            return [Next(seat) for seat in self.next_candidates(state)]
        if phase is Phase.ANNOUNCE:
            return [Announce(1), Announce(2)]
        if phase is Phase.PLACE:
            return [Place(p) for p in self.grid_placements(state)]
        if phase is Phase.CATCH and self.options.catching == "choose":
            return [Catch(bodies) for bodies in self.catch_choices(state)]
        return [outcome for outcome, _ in self.chance_outcomes(state)]

    def chance_outcomes(self, state: RiffRaffState) -> list[tuple[Action, Fraction]]:
        if state.phase is Phase.START:
            share = Fraction(1, self.num_players)
            return [(FirstCaptain(seat), share) for seat in range(self.num_players)]
        if state.phase is Phase.CATCH and self.options.catching == "model":
            return [(Catch(bodies), p) for bodies, p in catch_outcomes(state.falling)]
        return []

    def sample_chance(self, state: RiffRaffState, rng: random.Random) -> Action:
        if state.phase is Phase.SETTLE:
            return self.simulate(state, rng.getrandbits(64))
        if self.to_move(state) != CHANCE:
            raise IllegalAction("this is not a chance node")
        return super().sample_chance(state, rng)

    def simulate(
        self,
        state: RiffRaffState,
        seed: int | None,
        frames: bool = False,
        hurry: float | None = None,
        enough_falls: int | None = None,
    ) -> Settled:
        """Run the physics of the pending placement; the noise is seeded by `seed` (None:
        no noise at all); `hurry` and `enough_falls` are for look-ahead (see
        `physics.simulate_placement`)."""
        return settled_of(self.placement_result(state, seed, frames, hurry, enough_falls))

    def placement_result(
        self,
        state: RiffRaffState,
        seed: int | None,
        frames: bool = True,
        hurry: float | None = None,
        enough_falls: int | None = None,
    ) -> PlacementResult:
        """The physics of the pending placement with its sampled motion (for animations)."""
        if state.phase is not Phase.SETTLE or state.pending is None or state.active is None:
            raise IllegalAction("no placement is waiting for the physics")
        from spieltisch.games.riffraff import physics  # the engine loads only when needed

        return physics.simulate_placement(
            state.board,
            state.pending,
            self.body_for(state, state.pending.piece),
            physics.generator(seed),
            self.options.steadiness_of(state.active),
            state.motion,
            frames=frames,
            hurry=hurry,
            enough_falls=enough_falls,
        )

    def body_for(self, state: RiffRaffState, piece: int) -> int:
        """The piece number a new piece of type `piece` takes: the lowest not on board."""
        used = set(state.board.bodies())
        for body in range(piece, self.options.cargo_count, len(PIECES)):
            if body not in used:
                return body
        raise IllegalAction(f"every {PIECE_NAMES[piece]} is already on board")

    # --- what may be done --------------------------------------------------------------------
    def highest_seats(self, state: RiffRaffState) -> list[int]:
        cards = [state.card(seat) or 0 for seat in range(self.num_players)]
        return [seat for seat, card in enumerate(cards) if card == max(cards)]

    def next_candidates(self, state: RiffRaffState) -> list[int]:
        """The seats still to play whose card is the highest among them."""
        if not state.to_play:
            return []
        best = max(state.card(seat) or 0 for seat in state.to_play)
        return [seat for seat in state.to_play if state.card(seat) == best]

    def may_announce_two(self, state: RiffRaffState) -> bool:
        """Two pieces: onto a yard area with cargo on it at the start of the turn, and with at
        least two pieces in the supply."""
        seat = state.active
        area = state.card(seat) if seat is not None else None
        return (
            seat is not None
            and area in YARD_AREAS
            and state.board.count_in(area) > 0
            and state.supply_size(seat) >= 2
        )

    def grid_placements(self, state: RiffRaffState) -> list[Placement]:
        seat, area = state.active, None
        if seat is not None:
            area = state.card(seat)
        if seat is None or area is None:
            return []
        found = []
        for piece, count in enumerate(state.supplies[seat]):
            if not count:
                continue
            for u in PLACE_GRID_U:
                for yaw in PLACE_GRID_YAW:
                    placement = Placement(piece, area, u, 0.0, yaw, "up")
                    if footprint_problem(placement) is None:
                        found.append(placement)
        return found

    def catch_choices(self, state: RiffRaffState) -> list[tuple[int, ...]]:
        """Every set of at most two pieces among those that fell this turn."""
        bodies = sorted(fall.body for fall in state.falling)
        choices: list[tuple[int, ...]] = [()]
        choices += [(b,) for b in bodies]
        choices += [(a, b) for i, a in enumerate(bodies) for b in bodies[i + 1 :]]
        return choices

    # --- applying ---------------------------------------------------------------------------
    def apply(self, state: RiffRaffState, action: Action) -> RiffRaffState:
        phase = state.phase
        if isinstance(action, FirstCaptain) and phase is Phase.START:
            return self._apply_first_captain(state, action.seat)
        if isinstance(action, Card) and phase is Phase.CARDS:
            return self._apply_card(state, action.number)
        if isinstance(action, Captain) and phase is Phase.CAPTAIN:
            return self._apply_captain(state, action.seat)
        if isinstance(action, Next) and phase is Phase.NEXT:
            return self._apply_next(state, action.seat)
        if isinstance(action, Announce) and phase is Phase.ANNOUNCE:
            return self._apply_announce(state, action.count)
        if isinstance(action, Place) and phase is Phase.PLACE:
            return self._apply_place(state, action.placement)
        if isinstance(action, Settled) and phase is Phase.SETTLE:
            return self._apply_settled(state, action)
        if isinstance(action, Catch) and phase is Phase.CATCH:
            return self._apply_catch(state, action.bodies)
        raise IllegalAction(self._phase_error(state, action))

    def _apply_first_captain(self, state: RiffRaffState, seat: int) -> RiffRaffState:
        if not 0 <= seat < self.num_players:
            raise IllegalAction(f"there is no seat {seat}")
        return replace(state, phase=Phase.CARDS, captain=seat, round=1)

    def _apply_card(self, state: RiffRaffState, number: int) -> RiffRaffState:
        seat = state.chosen.index(None)
        if number not in state.hands[seat]:
            cards = ", ".join(str(n) for n in state.hands[seat])
            raise IllegalAction(f"card {number} is not in your hand; your cards: {cards}")
        hand = list(state.hands[seat])
        hand.remove(number)
        hands = _set(state.hands, seat, tuple(hand))
        chosen = _set(state.chosen, seat, number)
        after = replace(state, hands=hands, chosen=chosen)
        return after if None in chosen else self._reveal(after)

    def _reveal(self, state: RiffRaffState) -> RiffRaffState:
        """All cards are down: turn them up, then find the captain (or let the old one pick)."""
        played = tuple(
            (*cards, card)
            for cards, card in zip(state.played, state.chosen, strict=True)
            if card is not None
        )
        revealed = replace(state, played=played, chosen=(None,) * self.num_players)
        highest = self.highest_seats(revealed)
        if len(highest) > 1:
            return replace(revealed, phase=Phase.CAPTAIN)
        return self._apply_captain(revealed, highest[0])

    def _apply_captain(self, state: RiffRaffState, seat: int) -> RiffRaffState:
        if seat not in self.highest_seats(state):
            tied = ", ".join(str(s) for s in self.highest_seats(state))
            raise IllegalAction(f"seat {seat} did not play the highest card; choose from {tied}")
        others = tuple(s for s in range(self.num_players) if s != seat)
        return self._start_turn(replace(state, captain=seat, to_play=others), seat)

    def _apply_next(self, state: RiffRaffState, seat: int) -> RiffRaffState:
        candidates = self.next_candidates(state)
        if seat not in candidates:
            names = ", ".join(str(s) for s in candidates)
            raise IllegalAction(f"seat {seat} cannot play next; choose from {names}")
        return self._start_turn(state, seat)

    def _start_turn(self, state: RiffRaffState, seat: int) -> RiffRaffState:
        to_play = tuple(s for s in state.to_play if s != seat)
        turn = replace(
            state,
            to_play=to_play,
            active=seat,
            announced=0,
            loaded=0,
            placed=(),
            pending=None,
            falling=(),
        )
        if self.may_announce_two(turn):
            return replace(turn, phase=Phase.ANNOUNCE)
        return replace(turn, phase=Phase.PLACE, announced=1)

    def _apply_announce(self, state: RiffRaffState, count: int) -> RiffRaffState:
        if count not in (1, 2):
            raise IllegalAction("announce one or two pieces")
        return replace(state, phase=Phase.PLACE, announced=count)

    def _apply_place(self, state: RiffRaffState, placement: Placement) -> RiffRaffState:
        seat = state.active
        assert seat is not None  # the place phase always has an active seat
        area = state.card(seat)
        if placement.area != area:
            raise IllegalAction(f"your card is {area}: load onto area {area}")
        problem = footprint_problem(placement)
        if problem is not None:
            raise IllegalAction(problem)
        if not state.supplies[seat][placement.piece]:
            have = ", ".join(n for n, c in zip(PIECE_NAMES, state.supplies[seat], strict=True) if c)
            raise IllegalAction(
                f"you have no {PIECE_NAMES[placement.piece]} left; your pieces: {have}"
            )
        self.body_for(state, placement.piece)  # raises when every such piece is on board
        return replace(state, phase=Phase.SETTLE, pending=placement)

    def _apply_settled(self, state: RiffRaffState, outcome: Settled) -> RiffRaffState:
        self._check_outcome(state, outcome)
        seat, pending = state.active, state.pending
        assert seat is not None and pending is not None  # checked by _check_outcome
        supplies = _take(state.supplies, seat, pending.piece, -1)
        after = replace(
            state,
            supplies=supplies,
            board=outcome.board,
            motion=outcome.motion,
            placed=(*state.placed, outcome.body),
            pending=None,
            loaded=state.loaded + 1,
        )
        if outcome.fallen:
            return replace(after, phase=Phase.CATCH, falling=outcome.fallen)
        if after.loaded < after.announced:
            return replace(after, phase=Phase.PLACE)
        return self._end_turn(after)

    def _check_outcome(self, state: RiffRaffState, outcome: Settled) -> None:
        """A physics outcome must account for every piece: those on board before and the new
        one end up on board or fallen, each once, the new one of the placed type."""
        if state.pending is None or state.active is None:
            raise IllegalAction("no placement is waiting for the physics")
        before = set(state.board.bodies())
        if outcome.body in before or piece_type(outcome.body) != state.pending.piece:
            raise IllegalAction("the outcome's new piece is not a free piece of the placed type")
        if not 0 <= outcome.body < self.options.cargo_count:
            raise IllegalAction(f"there is no piece {outcome.body} in this game")
        after = [p.body for p in outcome.board.pieces] + [f.body for f in outcome.fallen]
        if sorted(after) != sorted(before | {outcome.body}):
            raise IllegalAction("the outcome does not account for every piece exactly once")
        if [p.body for p in outcome.board.pieces] != sorted(p.body for p in outcome.board.pieces):
            raise IllegalAction("the outcome must list the pieces on board by number")

    def _apply_catch(self, state: RiffRaffState, bodies: tuple[int, ...]) -> RiffRaffState:
        self._check_catch(state, bodies)
        seat = state.active
        assert seat is not None  # the catch phase always has an active seat
        kept = state.counted_catch(bodies)
        supplies = state.supplies
        for fall in state.falling:
            if fall.body not in kept:
                supplies = _take(supplies, seat, piece_type(fall.body), 1)
        caught = _set(state.caught, seat, state.caught[seat] + len(kept))
        return self._end_turn(replace(state, supplies=supplies, caught=caught, falling=()))

    def _check_catch(self, state: RiffRaffState, bodies: tuple[int, ...]) -> None:
        fell = sorted(fall.body for fall in state.falling)
        if len(bodies) > HANDS:
            raise IllegalAction(f"two hands catch at most {HANDS} pieces")
        if list(bodies) != sorted(set(bodies)) or not set(bodies) <= set(fell):
            names = ", ".join(str(b) for b in fell)
            raise IllegalAction(f"only pieces that fell this turn can be caught: {names}")
        if self.options.catching == "model" and Catch(bodies) not in self.legal_actions(state):
            raise IllegalAction("the catch model cannot catch these pieces")

    def _end_turn(self, state: RiffRaffState) -> RiffRaffState:
        seat = state.active
        assert seat is not None  # a turn always has an active seat
        done = replace(state, pending=None, falling=())
        if state.supply_size(seat) == 0:
            return replace(done, phase=Phase.OVER, winners=(seat,))
        if state.to_play:
            candidates = self.next_candidates(done)
            if len(candidates) > 1:
                return replace(done, phase=Phase.NEXT, active=None)
            return self._start_turn(done, candidates[0])
        return self._end_round(done)

    def _end_round(self, state: RiffRaffState) -> RiffRaffState:
        if state.round >= self.options.rounds:
            fewest = min(state.supply_size(s) for s in range(self.num_players))
            winners = tuple(s for s in range(self.num_players) if state.supply_size(s) == fewest)
            return replace(state, phase=Phase.OVER, active=None, winners=winners)
        hands = state.hands
        if not any(hands):
            hands = (CARD_NUMBERS,) * self.num_players  # 2 players: the cards go round again
        return replace(state, phase=Phase.CARDS, hands=hands, round=state.round + 1, active=None)

    # --- results ----------------------------------------------------------------------------
    def scores(self, state: RiffRaffState) -> tuple[int, ...]:
        """Pieces each seat has got rid of (all start with the same supply): more is better."""
        start = sets_per_player(self.num_players) * len(PIECES)
        return tuple(start - state.supply_size(s) for s in range(self.num_players))

    def winners(self, state: RiffRaffState) -> tuple[int, ...]:
        return state.winners if state.phase is Phase.OVER else ()

    def _phase_error(self, state: RiffRaffState, action: Action) -> str:
        expected = {
            Phase.START: "the first captain is being drawn",
            Phase.CARDS: "choose a card",
            Phase.CAPTAIN: "the captain names the new captain among the tied cards",
            Phase.NEXT: "the captain names who plays next among equal cards",
            Phase.ANNOUNCE: "announce one or two pieces",
            Phase.PLACE: "place a piece",
            Phase.SETTLE: "the ship is moving",
            Phase.CATCH: "falling pieces are being caught",
            Phase.OVER: "the game is over",
        }[state.phase]
        return f"'{self.format_action(action)}' is not possible now: {expected}"

    # --- what crosses a boundary --------------------------------------------------------------
    def view(self, state: RiffRaffState, seat: int | None) -> dict[str, JsonValue]:
        return notation.view_json(self, state, seat)

    def state_to_json(self, state: RiffRaffState) -> dict[str, JsonValue]:
        return notation.state_to_json(state)

    def state_from_json(self, data: Mapping[str, JsonValue]) -> RiffRaffState:
        return notation.state_from_json(self, data)

    def format_action(self, action: Action) -> str:
        return notation.format_action(action)

    def read_action(self, state: RiffRaffState, text: str) -> Action:
        return notation.read_action(self, state, text)

    def render(self, state: RiffRaffState) -> str:
        return notation.render(self, state)

    def public_to(self, actor: Mover, action: str, viewer: int | None) -> bool:
        """Only the face-down card stays hidden, from everybody but its player."""
        return actor == viewer or not action.startswith("card ")

    def story(
        self, before: RiffRaffState, action: Action, after: RiffRaffState
    ) -> dict[str, JsonValue]:
        return story.tell(before, action)


def settled_of(result: PlacementResult) -> Settled:
    """The chance outcome a placement's physics result gives."""
    return Settled(result.bodies[-1], result.board, result.fallen, result.motion)


def _set(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _take(
    supplies: tuple[tuple[int, ...], ...], seat: int, piece: int, change: int
) -> tuple[tuple[int, ...], ...]:
    return _set(supplies, seat, _set(supplies[seat], piece, supplies[seat][piece] + change))
