"""Riff Raff bots: `careful` plans its cards and tries placements on copies of the ship.

The generic `random` bot also plays Riff Raff: a random card and a random placement from the
rules' grid (`riffraff.rules.PLACE_GRID`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from math import hypot

from spieltisch.bots.base import Bot, Bounded, register_bot
from spieltisch.core.chance import sample_exact
from spieltisch.games.riffraff.board import Board, Placement, footprint_problem
from spieltisch.games.riffraff.catching import catch_outcomes
from spieltisch.games.riffraff.data import DECK_AREAS, PIECES, area_shape
from spieltisch.games.riffraff.rules import RiffRaff
from spieltisch.games.riffraff.state import (
    Action,
    Announce,
    Captain,
    Card,
    Catch,
    Next,
    Phase,
    Place,
    RiffRaffState,
)

__all__ = [
    "CarefulBot",
    "area_lift",
    "candidate_placements",
    "heel_after",
    "points_along",
    "ranked_candidates",
]

CANDIDATE_U = (0.25, 0.5, 0.75)
"""Points along the area, tried from the next free one on (with two pieces on an area the
third goes to u 0.75): the same point again would stack pieces, and stacks fall."""
CANDIDATE_YAW = (0.0, 90.0)
GRAVITY = 9.81
RIGHTING = 0.55
"""N·m/rad: the empty ship's righting stiffness (docs/rules/riffraff.md, Calibration)."""
TRIAL_SECONDS = 3.5
"""A trial's settle window ends this soon. A loaded ship close to its balance can take three
seconds to tip over and start a cascade: trials of 1.5 s missed those, and careful lost 0.43
pieces per placement against `random` instead of 0.39 (100 seeded 2-player games)."""
MAX_SAMPLES = 3
MAX_CANDIDATES = 6
MAX_WIDER = 12
BUDGET = 16
MAX_BUDGET = 1000
"""Simulated seconds of trials a decision may run before it keeps its best so far."""
FINISH_SUPPLY = 2
"""With this many pieces or fewer left, the careful bot plays its highest card to be captain
and load first."""


def candidate_placements(state: RiffRaffState, seat: int, limit: int) -> list[Placement]:
    """Placements worth trying: each piece type held, at points along the area from the next
    free one on, along and across the area; heavy pieces first, at most `limit`."""
    area = state.card(seat)
    if area is None:
        return []
    found = []
    held = [t for t, n in enumerate(state.supplies[seat]) if n]
    for piece in sorted(held, key=lambda t: -PIECES[t].mass):
        for u in points_along(state.board, area):
            for yaw in CANDIDATE_YAW:
                placement = Placement(piece, area, u, 0.0, yaw)
                if footprint_problem(placement) is None:
                    found.append(placement)
    return found[:limit]


def ranked_candidates(state: RiffRaffState, seat: int, first: int, wider: int) -> list[Placement]:
    """The first `first` candidates in their order (the heaviest pieces), then the `wider`
    others the static estimate ranks best: from the next free point of the area on, and on
    each point the placement that leaves the ship closest to upright (`heel_after`)."""
    found = candidate_placements(state, seat, len(PIECES) * len(CANDIDATE_U) * 2)
    head, rest = found[:first], found[first:]
    if not rest:
        return head
    order = points_along(state.board, rest[0].area)
    rest.sort(key=lambda p: (order.index(p.u), heel_after(state.board, p)))
    return head + rest[:wider]


def heel_after(board: Board, placement: Placement) -> float:
    """A static estimate, without any physics, of how far from upright (radians) the ship
    leans once the piece of `placement` is on board: its tilt now (the cargo on board is in
    it) plus the turn the new piece's weight at its point adds against the empty ship's
    righting stiffness. It ranks candidates before any trial; a loaded ship is less stiff,
    which scales every candidate's turn alike."""
    x, y = area_shape(placement.area).point(placement.u, placement.v)
    turn = PIECES[placement.piece].mass * GRAVITY / RIGHTING
    roll = board.joints[0] - turn * y  # weight to port (+y) rolls the ship to port
    pitch = board.joints[1] + turn * x  # weight forward (+x) puts the bow down
    return hypot(roll, pitch)


def points_along(board: Board, area: int) -> tuple[float, ...]:
    """`CANDIDATE_U` from the next free point of `area` on."""
    start = board.count_in(area) % len(CANDIDATE_U)
    return CANDIDATE_U[start:] + CANDIDATE_U[:start]


@dataclass(frozen=True, slots=True)
class _Trial:
    placement: Placement
    expected_falls: float
    clean: int = 0  # noise draws without a fall before the trial stopped

    @property
    def rank(self) -> tuple[float, int]:
        """Lower is better: the fewest falls, then the most clean draws."""
        return (self.expected_falls, -self.clean)


@register_bot(RiffRaff.name)
class CarefulBot(Bot):
    """Cards: low (stable) areas while its supply is large, its highest card to become
    captain when it can finish. Placements: Monte-Carlo trials of noisy placements on copies
    of the ship (`samples` noise draws, the same for each of up to `candidates` placements
    of its heaviest pieces, and when each of those drops something, of up to `wider` more of
    its other pieces, ranked by `heel_after`), keeping the first that drops nothing, else the
    one whose trials ran cleanest; within `budget` simulated seconds of trials per decision
    (and at the web table `think_within`'s wall time). Announces two pieces when the best
    trial placement drops nothing at all. Catches (when it chooses): what the catch model
    gives a person's hands, if that counts."""

    name = "careful"
    description = "plans its cards; tries noisy placements on copies of the ship, fewest falls"
    # each trial is up to `samples` settle windows of up to 3.5 simulated seconds, ending at
    # the first fall; the budget bounds a decision (benchmarks/riffraff_bench.py times them)
    parameters = {  # noqa: RUF012  (read-only class data)
        "samples": Bounded(int, 1, MAX_SAMPLES),
        "candidates": Bounded(int, 1, MAX_CANDIDATES),
        "wider": Bounded(int, 0, MAX_WIDER),
        "budget": Bounded(int, 1, MAX_BUDGET),
    }
    game: RiffRaff
    samples: int = 3
    candidates: int = 6
    wider: int = MAX_WIDER
    budget: int = BUDGET
    deadline: float | None = None  # time.monotonic() by which to decide (the web table's)
    _last: tuple[object, _Trial] | None = None  # the latest `best` and what it was tried for

    def think_within(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds

    def choose(self, state: RiffRaffState) -> Action:
        phase = state.phase
        if phase is Phase.CARDS:
            return Card(self.card(state))
        if phase is Phase.CAPTAIN:
            return Captain(self.favourite(state, self.game.highest_seats(state)))
        if phase is Phase.NEXT:
            return Next(self.favourite(state, self.game.next_candidates(state)))
        if phase is Phase.ANNOUNCE:
            return Announce(2 if self.remembered_best(state).expected_falls == 0 else 1)
        if phase is Phase.PLACE:
            return Place(self.remembered_best(state).placement)
        if phase is Phase.CATCH:
            return self.catch(state)
        raise ValueError(f"careful cannot act in phase {phase}")

    # --- cards and decisions -------------------------------------------------------------
    def card(self, state: RiffRaffState) -> int:
        """Its highest card to finish; else a deck card, or one of the lowest yard, on the
        side the ship leans away from (loading it rights the ship)."""
        seat = state.chosen.index(None)
        hand = sorted(set(state.hands[seat]))
        if state.supply_size(seat) <= FINISH_SUPPLY:
            return hand[-1]
        low = [c for c in hand if c in DECK_AREAS] or [
            c for c in hand if _level(c) == _level(hand[0])
        ]
        roll, pitch = state.board.joints[:2]
        return max(low, key=lambda c: (area_lift(c, roll, pitch), -c))

    def favourite(self, state: RiffRaffState, seats: list[int]) -> int:
        """Itself if it may, else the seat with the most pieces left (the least danger)."""
        me = self.game.to_move(state)
        if me in seats:
            return int(me)
        return max(seats, key=lambda s: (state.supply_size(s), -s))

    def catch(self, state: RiffRaffState) -> Catch:
        """What its hands manage, drawn from the catch model with the bot's own generator,
        so that it catches no better than a person would; never only its own pieces of this
        turn (they would not count)."""
        caught = sample_exact(catch_outcomes(state.falling), self.rng)
        return Catch(caught if not set(caught) <= set(state.placed) else ())

    # --- placements -------------------------------------------------------------------------
    def remembered_best(self, state: RiffRaffState) -> _Trial:
        """`best`, tried once for the announcement and the placement that follows it (the
        same ship, seat and supply)."""
        seat = state.active
        key = (state.board, seat, None if seat is None else state.card(seat), state.supplies)
        if self._last is None or self._last[0] != key:
            self._last = (key, self.best(state))
        return self._last[1]

    def best(self, state: RiffRaffState) -> _Trial:
        """The first candidate whose trials drop nothing; when each of the first
        `candidates` drops something, up to `wider` more, of every piece type held. A trial
        stops at its first fall, in the middle of its window: a candidate that drops
        something cannot beat one that drops nothing, and among those that drop something
        the one with the most clean draws before its fall is kept. Once the decision's trials
        have run `budget` simulated seconds, or its wall-clock `deadline` (set at the web
        table only) has passed, the best so far is kept."""
        seat = state.active
        if seat is None:
            raise ValueError("no seat is placing")
        seeds = [self.rng.getrandbits(64) for _ in range(self.samples)]  # the same for all
        best: _Trial | None = None
        spent = 0.0
        for placement in ranked_candidates(state, seat, self.candidates, self.wider):
            if best is not None and self._out_of_time(spent):
                break
            trial, seconds = self.trial(state, placement, seeds, 1)
            spent += seconds
            if best is None or trial.rank < best.rank:
                best = trial
            if best.expected_falls == 0:
                break
        if best is None:
            raise ValueError("no placement to try")
        return best

    def _out_of_time(self, spent: float) -> bool:
        """Whether the decision has used its budget (or passed its deadline)."""
        return spent >= self.budget or self._past_deadline()

    def _past_deadline(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def trial(
        self,
        state: RiffRaffState,
        placement: Placement,
        seeds: list[int],
        bound: int | None = None,
    ) -> tuple[_Trial, float]:
        """The mean number of fallen pieces over noisy copies of `placement`, one per seed
        (every candidate sees the same noise draws, so differences come from the choice),
        and the simulated seconds it took; once the falls reach `bound` the rest is not
        tried (their mean is then a floor). Past the deadline a trial stops after the draw
        it is in (see `_cut_short`)."""
        pending = self.game.apply(_as_placing(state), Place(placement))
        falls, seconds, clean = 0, 0.0, 0
        for tried, seed in enumerate(seeds):
            if tried and self._past_deadline():
                return self._cut_short(placement, falls, tried), seconds
            enough = None if bound is None else bound - falls
            result = self.game.placement_result(
                pending, seed, frames=False, hurry=TRIAL_SECONDS, enough_falls=enough
            )
            falls += len(result.fallen)
            seconds += result.seconds
            clean += not result.fallen
            if bound is not None and falls >= bound:
                break
        return _Trial(placement, falls / len(seeds), clean if falls else len(seeds)), seconds

    @staticmethod
    def _cut_short(placement: Placement, falls: int, tried: int) -> _Trial:
        """A trial stopped by the deadline after `tried` noise draws: its mean over those,
        ranked behind a trial as good that ran all its draws."""
        return _Trial(placement, falls / tried, tried - 1 if falls else -1)


def _level(area: int) -> int:
    """0 for the deck, 1-3 for the yards from the lowest up."""
    return 0 if area in DECK_AREAS else (area - 3) // 2


def area_lift(area: int, roll: float, pitch: float) -> float:
    """How much the ship lifts `area` (radians): roll is positive to starboard (areas 2, 4
    and the even yard halves), pitch positive bow down (areas 1 and 2)."""
    port = area % 2 == 1
    side = roll if port else -roll
    if area not in DECK_AREAS:
        return side
    return side + (-pitch if area in (1, 2) else pitch)


def _as_placing(state: RiffRaffState) -> RiffRaffState:
    """The state as if the placement came now (an announcement is still to be made)."""
    if state.phase is Phase.ANNOUNCE:
        return replace(state, phase=Phase.PLACE, announced=1)
    return state
