"""The exact Pickomino turn solver: dynamic programming over the turn's chance nodes.

A turn position after a set-aside is (faces used, dice left, sum); it is worth the better of
stopping and rolling on. Rolling is worth the expectation, over every roll, of the best face
to set aside (or of failing when no face is left). The solver values every reachable position
at once, level by level (fewer dice left first), with numpy.

Only the faces still free matter for a roll, so a roll of n dice with a free faces is
enumerated as the counts of those a faces plus one "other" bucket: C(n + a, a) outcomes
instead of C(n + 5, 5). Positions are grouped by (n, a) and each group is one gather, one
max and one matrix product.

Following a policy forward from the first roll gives the chance of each way the turn ends
(`turn_outcome`): the optimal policy, or the `greedy` bot's fixed rule (`greedy_outcome`).
The simulator draws whole turns from them, so they are cached: `cached_outcome` by table
and by the table's stop values (many grills value their stops alike), `greedy_outcome` by
table and by the sums at which greedy stops.
"""

from __future__ import annotations

import math
import operator
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import numpy as np
import numpy.typing as npt

from spieltisch.games.pickomino.data import DICE, FACE_VALUES, NUM_FACES, TILES, WORM, tile_worms
from spieltisch.games.pickomino.state import ROLL, Action, Phase, PickominoState, Stop, Take

if TYPE_CHECKING:
    from spieltisch.games.pickomino.rules import Pickomino

__all__ = [
    "SOLVED_RECORD",
    "ActionOdds",
    "ClaimingValuation",
    "SolveExchange",
    "TurnOdds",
    "TurnOutcome",
    "TurnSolution",
    "TurnTable",
    "Valuation",
    "action_odds",
    "best_action",
    "cached_outcome",
    "cached_solution",
    "choose_action",
    "greedy_outcome",
    "position_index",
    "share_solved_turns",
    "solve_table",
    "solve_turn",
    "solve_values",
    "tile_odds",
    "turn_outcome",
    "turn_structure",
]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.intp]

MASKS = 1 << NUM_FACES
ALL_FACES = MASKS - 1
SUMS = DICE * max(FACE_VALUES) + 1  # 0..40
LEVELS = DICE + 1  # dice left 0..8
SIZE = MASKS * LEVELS * SUMS
EXTRA_SLOT = SIZE  # values: a face the roll does not show (-inf); masses: failed rolls
_ENDS = np.arange(SIZE)
_STOP_BINS = _ENDS % SUMS * 2 + ((_ENDS // (LEVELS * SUMS)) >> WORM & 1)  # (sum, worm) of each
_VALUES = np.array(FACE_VALUES, dtype=np.intp)


def position_index(mask: int, dice_left: int, total: int) -> int:
    return (mask * LEVELS + dice_left) * SUMS + total


# --- the structure of a turn (independent of the table) ------------------------------------
@dataclass(frozen=True)
class _Level:
    """Every position with `dice` left that can roll, and every roll of each (rolls showing
    no free face left out): one step of the solve, and of following a policy forward. Each
    roll's `F` slots are the position's free faces in face order, then padding."""

    dice: int
    positions: Ints  # (N,) flat position indices
    rows: Ints  # (P,) each roll's position, as a row of `positions` (in row order)
    starts: Ints  # (N,) each position's first roll
    probs: Floats  # (P,) each roll's probability
    offers: Ints  # (F, P) the child of setting aside a slot's face (the extra slot: not shown)
    faces: Ints  # (F, P) the slot's face (0 for padding)
    counts: Ints  # (F, P) the dice showing it
    fail: Floats  # (N,) chance that a roll shows no free face: the turn fails


@dataclass(frozen=True)
class _Structure:
    """The positions some set-asides reach, numbered as places: place k is the position
    `places[k]`, place `extra` (= R, the count of places) the extra slot. The levels hold
    places, so the solver's arrays have R + 1 entries instead of SIZE + 1."""

    levels: tuple[_Level, ...]  # in solving order: fewer dice left first
    places: Ints  # (R,) the position index of each place
    stop_bins: Ints  # (R,) each place's stop value as a flat index of (SUMS, 2): sum * 2 + worm
    root: int  # the place the turn starts from, before its first roll

    @property
    def extra(self) -> int:
        return len(self.places)


def _reachable() -> npt.NDArray[np.bool_]:
    """reach[mask, dice_left, sum]: positions some sequence of set-asides leads to."""
    reach = np.zeros((MASKS, LEVELS, SUMS), dtype=bool)
    reach[0, DICE, 0] = True
    for face, value in enumerate(FACE_VALUES):
        low = 1 << face  # masks whose highest face is `face` extend the masks below `low`
        for count in range(1, DICE + 1):
            shift = count * value
            reach[low : 2 * low, : LEVELS - count, shift:] |= reach[:low, count:, : SUMS - shift]
    return reach


@dataclass(frozen=True)
class _CountTable:
    """Every vector of 6 counts with a total of at most 8 dice (3003 rows), with facts on it."""

    counts: Ints  # (rows, 6)
    totals: Ints  # dice counted in each row
    width: Ints  # 1 + index of the last non-zero count (0 for no dice)
    ways: Floats  # product of the counts' factorials (multinomial denominators)


_FACTORIAL = np.cumprod(np.arange(DICE + 1, dtype=np.float64).clip(min=1))


def _count_table() -> _CountTable:
    rows = np.zeros((1, 0), dtype=np.intp)
    for _ in range(NUM_FACES):
        choices = DICE + 1 - rows.sum(axis=1)
        starts = np.repeat(np.cumsum(choices) - choices, choices)
        column = np.arange(choices.sum()) - starts
        rows = np.column_stack([np.repeat(rows, choices, axis=0), column])
    width = np.where(rows > 0, np.arange(1, NUM_FACES + 1), 0).max(axis=1)
    return _CountTable(rows, rows.sum(axis=1), width, _FACTORIAL[rows].prod(axis=1))


def _roll_table(table: _CountTable, dice: int, free: int) -> tuple[Ints, Floats]:
    """Rolls of `dice` dice seen through `free` faces: their counts and probabilities.

    The dice showing a used face are pooled in one bucket, which each die falls in with
    probability (6 - free) / 6. The roll showing no free face at all is left out.
    """
    fits = table.totals == dice if free == NUM_FACES else table.totals <= dice
    keep = fits & (table.width <= free) & (table.totals > 0)
    rest = dice - table.totals[keep]
    ways = _FACTORIAL[dice] / table.ways[keep] / _FACTORIAL[rest]
    other = (NUM_FACES - free) / NUM_FACES
    probs = ways * (1 / NUM_FACES) ** (dice - rest) * other**rest
    return table.counts[keep, :free], probs


def _free_faces() -> Ints:
    """free[mask] lists the faces not in `mask` first, in face order."""
    used = (np.arange(MASKS)[:, None] >> np.arange(NUM_FACES)) & 1
    return np.argsort(used, axis=1, kind="stable").astype(np.intp)


# Index step from a position to its child when k dice of face f are set aside:
# the face joins the mask, k dice leave the hand and k times the face's value joins the sum.
_STEP = (1 << np.arange(NUM_FACES))[:, None] * LEVELS * SUMS + np.arange(LEVELS)[None, :] * (
    _VALUES[:, None] - SUMS
)


def _rolls_of(
    dice: int, free: int, masks: Ints, sums: Ints, table: _CountTable, faces: Ints
) -> tuple[Ints, ...]:
    """Positions with `dice` left and `free` faces unused at `masks` and `sums`, and their
    rolls as `_Level` holds them: positions, probs, offers, faces, counts, fail."""
    positions = (masks * LEVELS + dice) * SUMS + sums
    rolls, probs = _roll_table(table, dice, free)  # (R, free), (R,)
    count = len(positions)
    shown = faces[masks, :free]  # (N, free)
    steps = _STEP[shown[:, :, None], rolls.T[None, :, :]]  # (N, free, R)
    offers = np.where(rolls.T[None] > 0, positions[:, None, None] + steps, EXTRA_SLOT)
    slots = (free, count * len(probs))
    return (
        positions,
        np.tile(probs, count),
        np.moveaxis(offers, 1, 0).reshape(slots),
        np.repeat(shown.T, len(probs), axis=1),
        np.tile(rolls.T, count),
        np.full(count, ((NUM_FACES - free) / NUM_FACES) ** dice),
    )


def _padded(parts: list[Ints], fill: int) -> Ints:
    """(F, P) arrays with fewer slots padded with `fill`, joined along the rolls."""
    slots = max(len(part) for part in parts)
    joined = np.full((slots, sum(part.shape[1] for part in parts)), fill, dtype=np.intp)
    start = 0
    for part in parts:
        joined[: len(part), start : start + part.shape[1]] = part
        start += part.shape[1]
    return joined


def _level(dice: int, groups: list[tuple[Ints, ...]]) -> _Level:
    positions = np.concatenate([group[0] for group in groups])
    probs = np.concatenate([group[1] for group in groups])
    per_position = np.concatenate(
        [np.full(len(group[0]), len(group[1]) // len(group[0])) for group in groups]
    )
    return _Level(
        dice,
        positions,
        np.repeat(np.arange(len(positions)), per_position),
        np.cumsum(per_position) - per_position,
        probs,
        _padded([group[2] for group in groups], EXTRA_SLOT),
        _padded([group[3] for group in groups], 0),
        _padded([group[4] for group in groups], 0),
        np.concatenate([group[5] for group in groups]),
    )


@cache
def turn_structure() -> _Structure:
    """Build the table-independent structure (once per process)."""
    reach = _reachable()
    table, faces = _count_table(), _free_faces()
    popcount = ((np.arange(MASKS)[:, None] >> np.arange(NUM_FACES)) & 1).sum(axis=1)
    places = np.flatnonzero(reach)  # in position_index order
    place_of = np.full(SIZE + 1, len(places))  # the extra slot for the rest
    place_of[places] = np.arange(len(places))
    levels = []
    for dice in range(1, DICE + 1):
        masks, sums = np.nonzero(reach[:ALL_FACES, dice, :])
        free = NUM_FACES - popcount[masks]
        groups = [
            _rolls_of(dice, count, masks[free == count], sums[free == count], table, faces)
            for count in range(1, NUM_FACES + 1)
            if (free == count).any()
        ]
        level = _level(dice, groups)
        levels.append(
            replace(level, positions=place_of[level.positions], offers=place_of[level.offers])
        )
    root = int(place_of[position_index(0, DICE, 0)])
    return _Structure(tuple(levels), places, _STOP_BINS[places], root)


# --- solving --------------------------------------------------------------------------------
@dataclass(frozen=True)
class TurnSolution:
    """Values of every position of a turn under the optimal policy.

    `value[i]`: best expected result after a set-aside (stop or roll on); `roll_value[i]`:
    expected result of rolling on; both indexed by `position_index`.
    """

    stop_values: Floats  # (SUMS, 2): stopping with sum s, with (1) or without (0) a worm
    fail_value: float
    value: Floats
    roll_value: Floats
    fail_chance: Floats | None = None  # chance that the turn fails from each position
    roll_fail_chance: Floats | None = None  # the same when rolling on from there
    seconds: float = 0.0

    @property
    def expected(self) -> float:
        """The value of the whole turn, from the first roll."""
        return float(self.roll_value[position_index(0, DICE, 0)])

    @property
    def p_fail(self) -> float:
        if self.fail_chance is None:
            raise ValueError("solve with fails=True to know the chance of failing")
        return float(self.fail_chance[position_index(0, DICE, 0)])

    def rolls_on(self, mask: int, dice_left: int, total: int) -> bool:
        """Whether the optimal policy rolls on (ties go to stopping)."""
        if dice_left == 0 or mask == ALL_FACES:
            return False
        i = position_index(mask, dice_left, total)
        worm = mask >> WORM & 1
        return bool(self.roll_value[i] > self.stop_values[total, worm])


class _Solved(NamedTuple):
    """A turn solved place by place (see `_Structure`); `value` and `fail_chance` end with
    the extra slot."""

    value: Floats
    roll_value: Floats
    choices: tuple[Ints, ...]  # per level: (P,) the place each roll leads to
    fail_chance: Floats | None
    roll_fail_chance: Floats | None


def solve_values(stop_values: Floats, fail_value: float, *, fails: bool = False) -> TurnSolution:
    """Solve one turn for stop values per (sum, worm) and the value of a failed turn; with
    `fails`, also the chance of failing from every position."""
    places = turn_structure().places
    started = time.perf_counter()  # the dynamic programming alone, not the structure
    stops = _stops_by_position(stop_values)
    solved = _solve_places(stops[places], fail_value, fails=fails)
    seconds = time.perf_counter() - started
    value = np.append(stops, -np.inf)  # the extra slot: a face the roll does not show
    value[places] = solved.value[:-1]
    roll_value = _by_position(np.full(SIZE, -np.inf), solved.roll_value)
    fail_chance = roll_fails = None
    if solved.fail_chance is not None and solved.roll_fail_chance is not None:
        fail_chance = _by_position((fail_value >= stops).astype(np.float64), solved.fail_chance)
        roll_fails = _by_position(np.zeros(SIZE), solved.roll_fail_chance)
    return TurnSolution(
        stop_values, fail_value, value, roll_value, fail_chance, roll_fails, seconds
    )


def _by_position(rest: Floats, by_place: Floats) -> Floats:
    """`rest`, one value per position, with the places' values written over it."""
    rest[turn_structure().places] = by_place[: turn_structure().extra]
    return rest


def _solve_places(stops: Floats, fail_value: float, *, fails: bool = False) -> _Solved:
    """The dynamic programming over the places, whose stop values are `stops`."""
    value = np.append(stops, -np.inf)  # the extra slot: a face the roll does not show
    roll_value = np.full(len(stops), -np.inf)
    fail_chance = np.append(fail_value >= stops, False).astype(np.float64) if fails else None
    roll_fails = np.zeros(len(stops)) if fails else None
    choices = []
    for level in turn_structure().levels:
        best, reached = _first_best(level.offers, np.take(value, level.offers))
        rolled = np.add.reduceat(best * level.probs, level.starts) + level.fail * fail_value
        roll_value[level.positions] = rolled
        stop = value[level.positions]
        value[level.positions] = np.maximum(stop, rolled)
        choices.append(reached)
        if fail_chance is not None and roll_fails is not None:
            flows = fail_chance[reached] * level.probs
            rolled_fails = np.add.reduceat(flows, level.starts) + level.fail
            roll_fails[level.positions] = rolled_fails
            here = fail_chance[level.positions]
            fail_chance[level.positions] = np.where(rolled > stop, rolled_fails, here)
    return _Solved(value, roll_value, tuple(choices), fail_chance, roll_fails)


def _first_best(offers: Ints, scores: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], Ints]:
    """For each roll (column): the best score of its slots, and the offer of the first slot
    with that score (the first best free face, as the bots choose)."""
    best = scores.max(axis=0)
    reached: Ints = offers[-1]
    for slot in range(len(offers) - 2, -1, -1):
        reached = np.where(scores[slot] == best, offers[slot], reached)
    return best, reached


# --- the table a turn is played against -------------------------------------------------------
@dataclass(frozen=True)
class TurnTable:
    """What a turn can win or lose: the grill, the own top tile and the others' top tiles.

    A failed turn costs the own top tile's worms; a steal also counts the victim's loss,
    weighted by `steal_weight` (by default 1 / (players - 1)).
    """

    grill: tuple[int, ...] = TILES
    own_top: int | None = None
    other_tops: tuple[int, ...] = ()
    steal_weight: float = 1.0

    @classmethod
    def from_state(
        cls, game: Pickomino, state: PickominoState, steal_weight: float | None = None
    ) -> TurnTable:
        seat = state.seat
        others = tuple(
            top
            for other in range(game.num_players)
            if other != seat and (top := state.top(other)) is not None
        )
        weight = 1 / (game.num_players - 1) if steal_weight is None else steal_weight
        return cls(state.grill, state.top(seat), others, weight)

    @property
    def fail_value(self) -> float:
        return -float(tile_worms(self.own_top)) if self.own_top is not None else 0.0

    def grill_tile(self, total: int) -> int | None:
        reachable = [tile for tile in self.grill if tile <= total]
        return reachable[-1] if reachable else None

    def claim(self, total: int) -> tuple[str, int | None]:
        """The best stop with a worm and `total`: ('steal'|'grill'|'none', tile); a steal
        wins a tie."""
        grill = self.grill_tile(total)
        steal = self.claim_value("steal", total) if total in self.other_tops else None
        if steal is not None and (grill is None or steal >= self.claim_value("grill", total)):
            return "steal", total
        if grill is not None:
            return "grill", grill
        return "none", None

    def claim_value(self, claim: str, total: int) -> float:
        """The worms a stop with a worm and `total` brings by `claim` (the fail value if none)."""
        if claim == "steal" and total in self.other_tops:
            return (1 + self.steal_weight) * tile_worms(total)
        tile = self.grill_tile(total) if claim == "grill" else None
        return float(tile_worms(tile)) if tile is not None else self.fail_value

    def stop_values(self) -> Floats:
        """(SUMS, 2) array: the value of stopping with each sum, without / with a worm."""
        values = np.full((SUMS, 2), self.fail_value)
        values[:, 1] = self.tile_values(self.tiles_by_sum())
        return values

    def tiles_by_sum(self) -> Ints:
        """The tile a stop with a worm takes at each sum as `claim` picks it (0: none)."""
        tiles = _grill_tiles_by_sum(self.grill)
        for top in self.other_tops:
            grill = tiles[top]
            if not grill or (1 + self.steal_weight) * tile_worms(top) >= tile_worms(grill):
                tiles[top] = top
        return tiles

    def tile_values(self, tiles: Ints) -> Floats:
        """What taking `tiles` (0: none, a fail) is worth, as `claim_value` counts it."""
        worms = _WORMS[tiles]
        stolen = np.zeros(SUMS, dtype=bool)
        stolen[list(self.other_tops)] = True
        stolen = stolen[tiles]
        values: Floats = np.where(stolen, (1 + self.steal_weight) * worms, worms)
        return np.where(tiles > 0, values, self.fail_value)


_WORMS = np.array([tile_worms(tile) if tile >= TILES[0] else 0 for tile in range(SUMS)], float)


def _grill_tiles_by_sum(grill: tuple[int, ...]) -> Ints:
    """The highest grill tile not above each sum (0: none)."""
    tiles = np.array((0, *grill), dtype=np.intp)
    found: Ints = tiles[np.searchsorted(grill, np.arange(SUMS), side="right")]
    return found


def solve_table(table: Valuation, *, fails: bool = False) -> TurnSolution:
    """The turn solved for any valuation of its ends (a `TurnTable`: the most worms)."""
    return solve_values(table.stop_values(), table.fail_value, fails=fails)


# --- the outcome of a turn under the optimal policy -------------------------------------------
@dataclass(frozen=True)
class TurnOutcome:
    """`seconds`: the whole `turn_outcome` (building the turn's structure when it is the
    first in the process, the dynamic programming and following the policy forward);
    `solve_seconds`: the dynamic programming alone."""

    expected: float
    p_fail: float
    p_tile: dict[int, float]  # tile -> chance of ending the turn with it (stolen or grilled)
    seconds: float
    solve_seconds: float = 0.0


def _final_mass(choices: Sequence[Ints], rolls_on: npt.NDArray[np.bool_]) -> Floats:
    """Chance that the turn stops at each place when each roll of each level leads to
    `choices` and the player rolls on where `rolls_on`; the extra slot: failed rolls."""
    structure = turn_structure()
    root, extra = structure.root, structure.extra
    mass = np.zeros(extra + 1)
    mass[root] = 1.0
    for level, reached in zip(structure.levels[::-1], choices[::-1], strict=True):
        here = mass[level.positions]
        rolls = rolls_on[level.positions] | (level.positions == root)  # the first roll
        rolling = here * rolls
        mass[extra] += rolling @ level.fail
        mass[level.positions] = here * ~rolls
        flows = rolling[level.rows] * level.probs
        mass += np.bincount(reached, flows, minlength=extra + 1)
    return mass


def _stops_by_position(stop_values: Floats) -> Floats:
    """The value of stopping at each position."""
    return np.ravel(stop_values)[_STOP_BINS]


def _optimal_turn(stop_values: Floats, fail_value: float) -> tuple[float, _Stops, float]:
    """The optimal turn's value and stops, and the seconds of its dynamic programming."""
    started = time.perf_counter()
    stops = np.ravel(stop_values)[turn_structure().stop_bins]
    solved = _solve_places(stops, fail_value)
    seconds = time.perf_counter() - started
    mass = _final_mass(solved.choices, solved.roll_value > stops)  # ties go to stopping
    expected = float(solved.roll_value[turn_structure().root])
    return expected, _stop_chances(mass), seconds


class _Stops(NamedTuple):
    """Where a turn ends: the chance to stop with a worm and each sum, and the chance to end
    taking nothing whatever the sum (a failed roll, or a stop without a worm)."""

    with_worm: tuple[float, ...]
    without: float


def _stop_chances(mass: Floats) -> _Stops:
    """From `_final_mass`: the chances of `_Stops`."""
    bins = turn_structure().stop_bins
    stops = np.bincount(bins, mass[:-1], minlength=SUMS * 2).reshape(SUMS, 2)
    return _Stops(tuple(stops[:, 1].tolist()), float(mass[-1] + stops[:, 0].sum()))


class ClaimingValuation(Protocol):
    """A valuation that also says which claim a stop with a worm and a sum makes."""

    @property
    def fail_value(self) -> float: ...

    def stop_values(self) -> Floats: ...

    def claim(self, total: int) -> tuple[str, int | None]: ...


def turn_outcome(table: ClaimingValuation) -> TurnOutcome:
    """Expected value, chance of failing and chance of each tile when the turn is played to
    maximise `table` (a `TurnTable`: the most worms), timed from scratch."""
    started = time.perf_counter()
    expected, stops, solve_seconds = _optimal_turn(table.stop_values(), table.fail_value)
    tiles = [table.claim(total)[1] or 0 for total in range(SUMS)]
    seconds = time.perf_counter() - started
    return _outcome(tiles, expected, stops, seconds, solve_seconds)


def _outcome(
    tiles: Sequence[int], expected: float, stops: _Stops, seconds: float, solve: float = 0.0
) -> TurnOutcome:
    """The turn's ends where a stop with a worm and the sum s takes `tiles[s]` (0: none).
    Plain Python: the simulator asks for the ends of many tables that share their stops."""
    p_fail = stops.without
    p_tile: dict[int, float] = {}
    for tile, chance in zip(tiles, stops.with_worm, strict=True):
        if not chance:
            continue
        if tile:
            p_tile[tile] = p_tile.get(tile, 0.0) + chance
        else:
            p_fail += chance
    return TurnOutcome(expected, p_fail, dict(sorted(p_tile.items())), seconds, solve)


# --- decisions in a game position -------------------------------------------------------------
@dataclass(frozen=True)
class ActionOdds:
    """What a legal action is worth under optimal play from there on."""

    action: Action
    expected_worms: float
    p_fail: float


def _used_mask(state: PickominoState) -> int:
    return sum(1 << face for face, count in enumerate(state.kept) if count)


class Valuation(Protocol):
    """What ending a turn is worth: the stop values per (sum, worm) and per claim."""

    @property
    def fail_value(self) -> float: ...

    def claim_value(self, claim: str, total: int) -> float: ...

    def stop_values(self) -> Floats: ...


def action_values(
    game: Pickomino, state: PickominoState, valuation: Valuation, solution: TurnSolution
) -> list[tuple[Action, float, int | None]]:
    """(action, value, position reached or None for a stop) for each legal action."""
    mask, total = _used_mask(state), state.total
    found: list[tuple[Action, float, int | None]] = []
    for action in game.legal_actions(state):
        if isinstance(action, Take):
            count = state.rolled[action.face]
            child = position_index(
                mask | 1 << action.face,
                state.dice_left - count,
                total + count * FACE_VALUES[action.face],
            )
            found.append((action, float(solution.value[child]), child))
        elif isinstance(action, Stop):
            found.append((action, valuation.claim_value(action.claim, total), None))
        else:
            here = position_index(mask, state.dice_left, total)
            found.append((action, float(solution.roll_value[here]), here))
    return found


def choose_action(
    game: Pickomino, state: PickominoState, valuation: Valuation, solution: TurnSolution
) -> Action:
    """The best action: the first best face; stop unless rolling is strictly better."""
    choices = action_values(game, state, valuation, solution)
    if state.phase is Phase.DECIDE:
        stops = [(a, v) for a, v, _ in choices if isinstance(a, Stop)]
        best_stop = max(stops, key=lambda item: item[1])  # the first best: steal before grill
        rolls = [v for a, v, _ in choices if a == ROLL]
        return ROLL if rolls and rolls[0] > best_stop[1] else best_stop[0]
    return max(choices, key=lambda item: item[1])[0]


def best_action(game: Pickomino, state: PickominoState, table: TurnTable) -> Action:
    """The action that maximises the expected worms of the turn."""
    return choose_action(game, state, table, cached_solution(table))


def action_odds(game: Pickomino, state: PickominoState, valuation: Valuation) -> list[ActionOdds]:
    """Every legal action with its value and chance of failing the turn."""
    solution = solve_values(valuation.stop_values(), valuation.fail_value, fails=True)
    fails, roll_fails = solution.fail_chance, solution.roll_fail_chance
    assert fails is not None and roll_fails is not None  # solved with fails=True
    odds = []
    for action, value, position in action_values(game, state, valuation, solution):
        if position is None:
            p_fail = 1.0 if isinstance(action, Stop) and action.claim == "none" else 0.0
        else:
            p_fail = float((roll_fails if action == ROLL else fails)[position])
        odds.append(ActionOdds(action, value, p_fail))
    return odds


def solve_turn(
    game: Pickomino, state: PickominoState, steal_weight: float | None = None
) -> TurnOdds:
    """The solved turn of the player to move in `state`, ready to answer about its choices."""
    return TurnOdds(game, TurnTable.from_state(game, state, steal_weight))


@dataclass(frozen=True)
class TurnOdds:
    game: Pickomino
    table: TurnTable

    def action_odds(self, state: PickominoState) -> list[ActionOdds]:
        return action_odds(self.game, state, self.table)

    def best_action(self, state: PickominoState) -> Action:
        return best_action(self.game, state, self.table)

    @property
    def expected_worms(self) -> float:
        return cached_solution(self.table).expected


@lru_cache(maxsize=128)
def _solve_normalised(table: TurnTable) -> TurnSolution:
    return solve_table(table)


@lru_cache(maxsize=16384)
def _outcome_normalised(table: TurnTable) -> TurnOutcome:
    tiles = _claimed_tiles(table, table.steal_weight)
    worm_values = _tile_values(table, tiles)
    expected, stops, seconds = _optimal_stops(worm_values, table.fail_value)
    return _outcome(tiles, expected, stops, seconds)


def _claimed_tiles(table: TurnTable, steal_weight: float) -> list[int]:
    """`TurnTable.tiles_by_sum` in plain Python (fast for one table), stealing where a
    steal counted with `steal_weight` is worth at least the grill tile."""
    grill = table.grill
    tiles = [0] * (grill[0] if grill else SUMS)
    for low, high in zip(grill, (*grill[1:], SUMS), strict=True):
        tiles += [low] * (high - low)  # each grill tile up to the next one
    for top in table.other_tops:
        grilled = tiles[top]
        if not grilled or (1 + steal_weight) * _TILE_WORMS[top] >= _TILE_WORMS[grilled]:
            tiles[top] = top
    return tiles


def _tile_values(table: TurnTable, tiles: list[int]) -> tuple[float, ...]:
    """`TurnTable.tile_values` in plain Python."""
    fail = table.fail_value
    values = [_TILE_WORMS[tile] if tile else fail for tile in tiles]
    for top in table.other_tops:
        if tiles[top] == top:  # stolen: only a top tile is taken at its own sum
            values[top] *= 1 + table.steal_weight
    return tuple(values)


_TILE_WORMS = [tile_worms(tile) if tile >= TILES[0] else 0 for tile in range(SUMS)]


_SolvedStops = tuple[float, _Stops, float]  # expected, stops, seconds


def _solve_stops(worm_values: tuple[float, ...], fail_value: float) -> _SolvedStops:
    """The optimal turn's value and stops when a stop with a worm and the sum s is worth
    `worm_values[s]`, and the seconds it took."""
    started = time.perf_counter()
    values = np.full((SUMS, 2), fail_value)
    values[:, 1] = worm_values
    expected, stops, _ = _optimal_turn(values, fail_value)
    return expected, stops, time.perf_counter() - started


SOLVED_RECORD = 2 * SUMS + 4
"""Numbers in a shared solved turn: its worm values by sum and fail value (the key), its
value, its chances to stop with a worm by sum and to take nothing, and its seconds."""


class SolveExchange(Protocol):
    """Where processes that solve turns side by side share them, as records of floats."""

    def append(self, record: Sequence[float]) -> None: ...

    def take_new(self) -> list[list[float]]: ...


class _OptimalStops:
    """`_solve_stops` of recent stop values (many tables share theirs), shared with other
    processes through an exchange where one is set (`share_solved_turns`). A solved turn is
    a pure function of its key, so whoever solved it, the result is the same."""

    KEPT = 16384

    def __init__(self) -> None:
        self.kept: dict[tuple[tuple[float, ...], float], _SolvedStops] = {}
        self.exchange: SolveExchange | None = None

    def __call__(self, worm_values: tuple[float, ...], fail_value: float) -> _SolvedStops:
        key = worm_values, fail_value
        found = self.kept.get(key)
        if found is None and self.exchange is not None:
            for record in self.exchange.take_new():
                self._keep(*_from_record(record))
            found = self.kept.get(key)
        if found is None:
            found = _solve_stops(worm_values, fail_value)
            self._keep(key, found)
            if self.exchange is not None:
                self.exchange.append(_record(key, found))
        return found

    def _keep(self, key: tuple[tuple[float, ...], float], solved: _SolvedStops) -> None:
        if len(self.kept) >= self.KEPT:
            self.kept.clear()
        self.kept[key] = solved


def _record(key: tuple[tuple[float, ...], float], solved: _SolvedStops) -> list[float]:
    (worm_values, fail_value), (expected, stops, seconds) = key, solved
    return [*worm_values, fail_value, expected, *stops.with_worm, stops.without, seconds]


def _from_record(
    record: list[float],
) -> tuple[tuple[tuple[float, ...], float], _SolvedStops]:
    worm_values, (fail_value, expected) = tuple(record[:SUMS]), record[SUMS : SUMS + 2]
    with_worm, (without, seconds) = tuple(record[SUMS + 2 : -2]), record[-2:]
    return (worm_values, fail_value), (expected, _Stops(with_worm, without), seconds)


_optimal_stops = _OptimalStops()


def share_solved_turns(exchange: SolveExchange | None) -> None:
    """Share the optimal turns this process solves, and take those of others, through
    `exchange` (None: no more sharing)."""
    _optimal_stops.exchange = exchange


def cached_outcome(table: TurnTable) -> TurnOutcome:
    """`turn_outcome` of recent tables; its `seconds` are those of the first solve."""
    return _outcome_normalised(_normalised(table))


# --- the outcome of a turn under greedy's fixed rule -------------------------------------------
_GREEDY_WORM = 1000  # above any count * value * 6 + face: worms come first


@cache
def _greedy_choices() -> tuple[Ints, ...]:
    """Per level, the position each roll leads to under the `greedy` bot's choice: worms while
    none are set aside, else the face with the largest total (the higher face on a tie)."""
    choices = []
    for level in turn_structure().levels:
        faces, counts = level.faces, level.counts
        score = np.where(counts > 0, counts * _VALUES[faces] * NUM_FACES + faces, -1)
        score = np.where((faces == WORM) & (counts > 0), _GREEDY_WORM, score)
        choices.append(_first_best(level.offers, score)[1])
    return tuple(choices)


@lru_cache(maxsize=1024)
def _greedy_stops(takes: tuple[bool, ...]) -> _Stops:
    """Greedy's stop chances when it stops, with a worm, at the sums where `takes` is true."""
    bins = turn_structure().stop_bins  # sum * 2 + worm
    rolls_on = ~((bins % 2 == 1) & np.array(takes)[bins // 2])
    return _stop_chances(_final_mass(_greedy_choices(), rolls_on))


@lru_cache(maxsize=16384)
def _greedy_normalised(table: TurnTable) -> TurnOutcome:
    started = time.perf_counter()
    tiles = _claimed_tiles(table, math.inf)  # greedy steals whenever it can
    stops = _greedy_stops(tuple(tile > 0 for tile in tiles))
    values = _tile_values(table, tiles)
    expected = stops.without * table.fail_value
    expected += sum(map(operator.mul, stops.with_worm, values))
    return _outcome(tiles, expected, stops, time.perf_counter() - started)


def greedy_outcome(table: TurnTable) -> TurnOutcome:
    """Like `cached_outcome`, for the `greedy` bot's fixed rule: it stops as soon as a tile
    can be taken, stealing when it can; `expected` values the ends as `table` does."""
    return _greedy_normalised(_normalised(table))


def _normalised(table: TurnTable) -> TurnTable:
    others = tuple(sorted(table.other_tops))
    if others == table.other_tops:
        return table
    return TurnTable(table.grill, table.own_top, others, table.steal_weight)


def cached_solution(table: TurnTable) -> TurnSolution:
    """Solutions of recent tables (a pure function of the table, so safe to share)."""
    return _solve_normalised(_normalised(table))


# --- probabilities of reaching a sum ----------------------------------------------------------
def tile_odds(grill: tuple[int, ...] = TILES) -> dict[int, dict[str, float]]:
    """For each tile number T: the best chance to end a turn with a worm and a sum >= T
    (`at_least`) and = T (`exactly`), each maximised on its own."""
    totals = np.arange(SUMS)
    odds = {}
    for tile in grill:
        at_least = np.zeros((SUMS, 2))
        at_least[:, 1] = totals >= tile
        exactly = np.zeros((SUMS, 2))
        exactly[:, 1] = totals == tile
        odds[tile] = {
            "at_least": solve_values(at_least, 0.0).expected,
            "exactly": solve_values(exactly, 0.0).expected,
        }
    return odds
