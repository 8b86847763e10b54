"""The review of a finished Pickomino game: what each decision cost, and how lucky each roll was.

Each turn is solved twice, as the bots solve it: for the most expected worms of the turn (the
`optimal` bot's `TurnTable`, a steal also counting the victim's loss) and, where a model for
this many players is shipped (2 to 4), for the best chance to win the game (the `winner`
bot's `WinValuation`). Both values are fixed for the whole turn, so one solve of each serves
every decision and roll of that turn.

A decision is reviewed when the mover had a real choice: more than one legal action, not all
worth the same. Its loss is the best choice's value minus the played one's, in worms and in
win chance; the grade comes from the win chance where a model applies, else from the worms
(`grades`). The luck of a roll is measured as GNU Backgammon measures it: the value after the
best play for the roll that came, minus the average of that over every roll the dice could
have shown (the value of rolling, which the solver already holds). Over a turn, the turn's
result is its expected value at the start plus the luck of its rolls minus the losses of its
decisions, in worms exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any, Literal

from spieltisch.analysis.review import player_names
from spieltisch.analysis.review.chart import TurnChances, win_chart
from spieltisch.analysis.review.grades import GRADES, SAME, Grade, grade
from spieltisch.core.errors import RecordError
from spieltisch.core.record import GameRecord, record_game, replay_states
from spieltisch.games.pickomino.notation import dice_text
from spieltisch.games.pickomino.rules import Pickomino
from spieltisch.games.pickomino.solver import (
    TurnSolution,
    TurnTable,
    Valuation,
    action_values,
    position_index,
    solve_table,
)
from spieltisch.games.pickomino.state import ROLL, Action, Dice, Phase, PickominoState, Stop
from spieltisch.games.pickomino.winner import WinValuation, win_share
from spieltisch.games.pickomino.winprob import WinModel, shipped_model

__all__ = [
    "Choice",
    "Decision",
    "PickominoReview",
    "PlayerReview",
    "RollLuck",
    "best_after_roll",
    "puzzles",
    "review_decision",
    "review_pickomino",
    "review_states",
    "roll_luck",
    "solves_puzzle",
    "win_model",
]


@dataclass(frozen=True)
class Choice:
    """One legal action of a decision: the expected worms of the turn when playing it (and
    the rest of the turn for the most worms) and the chance that the turn then fails, and the
    win chance (playing the rest of the turn for the win)."""

    action: str
    expected_worms: float
    p_fail: float
    p_win: float | None


@dataclass(frozen=True)
class Decision:
    """A decision with a real choice. `step` is its action's index in the record, `turn` the
    count of turns played before it."""

    step: int
    turn: int
    seat: int
    kept: str  # dice set aside before it, e.g. '44w'
    total: int  # their sum
    rolled: str  # the roll to choose from ('' when rolling on or stopping)
    played: str
    best: str  # the best choice by the measure that grades (the played one if it is best)
    worms_lost: float
    win_lost: float | None
    grade: Grade
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class RollLuck:
    """The luck of one roll for the seat that rolled: in worms of the turn and win chance."""

    step: int
    turn: int
    seat: int
    roll: str
    worms: float
    win: float | None


@dataclass(frozen=True)
class PlayerReview:
    """One seat's figures. The luck-adjusted worms are the worms minus the seat's worm luck;
    the luck-adjusted win also counts the others' win-chance luck (`_adjusted_win`)."""

    seat: int
    name: str
    decisions: int
    grades: dict[str, int]
    worms_lost: float
    average_worms_lost: float
    win_lost: float | None
    luck_worms: float
    luck_win: float | None
    worms: int
    luck_adjusted_worms: float
    win_share: float
    luck_adjusted_win: float | None


@dataclass(frozen=True)
class PickominoReview:
    game: str
    players: tuple[str, ...]
    graded_by: Literal["win chance", "worms"]
    decisions: tuple[Decision, ...]
    rolls: tuple[RollLuck, ...]
    summary: tuple[PlayerReview, ...]
    chart: tuple[TurnChances, ...]  # each seat's win chance before every turn (with a model)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class _TurnValues:
    """A turn solved for the most worms and, with a model, for the win."""

    table: TurnTable
    worms: TurnSolution
    win: tuple[WinValuation, TurnSolution] | None


class _Solver:
    """Solves each turn once (a review asks about each turn's positions in order)."""

    def __init__(self, game: Pickomino, model: WinModel | None) -> None:
        self.game, self.model = game, model
        self._key: tuple[object, ...] | None = None
        self._values: _TurnValues | None = None

    def turn(self, state: PickominoState) -> _TurnValues:
        key = (state.grill, state.stacks, state.seat, state.turn)
        if self._values is None or key != self._key:
            table = TurnTable.from_state(self.game, state)
            win = None
            if self.model is not None:
                valuation = WinValuation(self.game, state, self.model)
                win = valuation, solve_table(valuation)
            self._key, self._values = key, _TurnValues(table, _worms_solution(table), win)
        return self._values


@lru_cache(maxsize=32)
def _worms_solution(table: TurnTable) -> TurnSolution:
    """The turn solved for the most worms, with the chance of failing from each position.
    A few are kept (about a megabyte each): a table recurs when a turn takes nothing."""
    return solve_table(table, fails=True)


def win_model(players: int) -> WinModel | None:
    """The shipped win-chance model for this many players, or None (5 to 7 players)."""
    try:
        return shipped_model(players)
    except ValueError:
        return None


def review_pickomino(record: GameRecord) -> PickominoReview:
    """The review of a finished Pickomino game record (`RecordError` if it is not one)."""
    game = record_game(record)
    if not isinstance(game, Pickomino):
        raise RecordError(f"this is a {record.game} record, not a Pickomino one")
    states = replay_states(record)
    if states[-1].phase is not Phase.OVER:
        raise RecordError("the game is not finished: only a finished game is reviewed")
    actions = [game.read_action(s, text) for s, text in zip(states, record.actions, strict=False)]
    names = player_names(record.players, game.num_players)
    return review_states(game, states, actions, names, win_model(game.num_players))


def review_states(
    game: Pickomino,
    states: Sequence[PickominoState],
    actions: Sequence[Action],
    names: Sequence[str],
    model: WinModel | None,
) -> PickominoReview:
    """The review of a game given as its states and the action played in each (but the last)."""
    solver = _Solver(game, model)
    decisions: list[Decision] = []
    rolls: list[RollLuck] = []
    for step, (state, action) in enumerate(zip(states, actions, strict=False)):
        if state.phase in (Phase.CHOOSE, Phase.DECIDE):
            found = _decision(game, state, action, solver.turn(state), step)
            if found is not None:
                decisions.append(found)
        elif state.phase is Phase.ROLL and isinstance(action, Dice):
            rolls.append(_roll_luck(game, state, action, solver.turn(state), step))
    summary = _summaries(game, states[-1], names, decisions, rolls, model is not None)
    graded_by: Literal["win chance", "worms"] = "worms" if model is None else "win chance"
    chart = () if model is None else win_chart(game, states, model)
    return PickominoReview(
        game.name, tuple(names), graded_by, tuple(decisions), tuple(rolls), summary, chart
    )


def review_decision(
    game: Pickomino, state: PickominoState, played: Action, model: WinModel | None
) -> Decision | None:
    """The review of one decision (`step` 0), or None if the choice was forced."""
    return _decision(game, state, played, _Solver(game, model).turn(state), 0)


def roll_luck(
    game: Pickomino, state: PickominoState, dice: Dice, model: WinModel | None
) -> RollLuck:
    """The luck of one roll from `state` (phase ROLL) for the mover (`step` 0)."""
    return _roll_luck(game, state, dice, _Solver(game, model).turn(state), 0)


def puzzles(review: PickominoReview, seat: int) -> list[Decision]:
    """The seat's mistakes and blunders: the positions to replay as puzzles."""
    return [d for d in review.decisions if d.seat == seat and d.grade in ("mistake", "blunder")]


def solves_puzzle(decision: Decision, answer: str) -> bool:
    """Whether `answer` (an action in notation) is a good enough answer to the decision: it
    loses less than an inaccuracy, by the measure that graded the decision."""
    by_win = decision.win_lost is not None
    values = {
        c.action: c.p_win if by_win and c.p_win is not None else c.expected_worms
        for c in decision.choices
    }
    if answer not in values:
        return False
    return grade(max(values.values()) - values[answer], by_win=by_win) in ("best", "good")


# --- decisions ----------------------------------------------------------------------------
def _values(
    game: Pickomino, state: PickominoState, valuation: Valuation, solution: TurnSolution
) -> dict[Action, float]:
    return {action: value for action, value, _ in action_values(game, state, valuation, solution)}


def _all_same(values: Mapping[Action, float]) -> bool:
    return max(values.values()) - min(values.values()) <= SAME


def _decision(
    game: Pickomino, state: PickominoState, played: Action, turn: _TurnValues, step: int
) -> Decision | None:
    """The review of the decision `played` in `state`, or None if the choice was forced."""
    if len(game.legal_actions(state)) < 2:
        return None
    worms = _values(game, state, turn.table, turn.worms)
    wins = None if turn.win is None else _values(game, state, *turn.win)
    if _all_same(worms) and (wins is None or _all_same(wins)):
        return None
    graded = worms if wins is None else wins
    best = played if max(graded.values()) - graded[played] <= SAME else _first_best(graded)
    worms_lost = max(worms.values()) - worms[played]
    win_lost = None if wins is None else max(wins.values()) - wins[played]
    lost = worms_lost if win_lost is None else win_lost
    fails = _fail_chances(game, state, turn)
    choices = tuple(
        Choice(game.format_action(a), worms[a], fails[a], None if wins is None else wins[a])
        for a in worms
    )
    return Decision(
        step,
        state.turn,
        state.seat,
        dice_text(state.kept),
        state.total,
        dice_text(state.rolled) if state.phase is Phase.CHOOSE else "",
        game.format_action(played),
        game.format_action(best),
        worms_lost,
        win_lost,
        grade(lost, by_win=wins is not None),
        choices,
    )


def _fail_chances(game: Pickomino, state: PickominoState, turn: _TurnValues) -> dict[Action, float]:
    """The chance that the turn fails after each legal action, the rest played for worms."""
    fails, roll_fails = turn.worms.fail_chance, turn.worms.roll_fail_chance
    assert fails is not None and roll_fails is not None  # solved with fails=True
    found = {}
    for action, _, place in action_values(game, state, turn.table, turn.worms):
        if place is None:  # a stop: it fails when it takes nothing
            found[action] = 1.0 if isinstance(action, Stop) and action.claim == "none" else 0.0
        else:
            found[action] = float((roll_fails if action == ROLL else fails)[place])
    return found


def _first_best(values: Mapping[Action, float]) -> Action:
    return max(values, key=values.__getitem__)


# --- luck -----------------------------------------------------------------------------------
def _roll_luck(
    game: Pickomino, state: PickominoState, dice: Dice, turn: _TurnValues, step: int
) -> RollLuck:
    """The luck of the roll `dice` from `state` (phase ROLL) for the mover."""
    win = None
    if turn.win is not None:
        win = _luck(game, state, dice, *turn.win)
    worms = _luck(game, state, dice, turn.table, turn.worms)
    return RollLuck(step, state.turn, state.seat, dice_text(dice.counts), worms, win)


def _luck(
    game: Pickomino,
    state: PickominoState,
    dice: Dice,
    valuation: Valuation,
    solution: TurnSolution,
) -> float:
    """The value after the best play for `dice` minus the value of rolling (the average of
    that over every roll)."""
    mask = sum(1 << face for face, count in enumerate(state.kept) if count)
    average = float(solution.roll_value[position_index(mask, state.dice_left, state.total)])
    return best_after_roll(game, state, dice, valuation, solution) - average


def best_after_roll(
    game: Pickomino,
    state: PickominoState,
    dice: Dice,
    valuation: Valuation,
    solution: TurnSolution,
) -> float:
    """The value of the best choice from the roll `dice` (the failed turn's if none is left)."""
    rolled = state.in_turn(Phase.CHOOSE, state.kept, dice.counts)
    if not game.choosable_faces(rolled):
        return valuation.fail_value
    return max(_values(game, rolled, valuation, solution).values())


# --- per player -----------------------------------------------------------------------------


def _summaries(
    game: Pickomino,
    final: PickominoState,
    names: Sequence[str],
    decisions: Sequence[Decision],
    rolls: Sequence[RollLuck],
    with_win: bool,
) -> tuple[PlayerReview, ...]:
    scores = game.scores(final)
    all_win_luck = _total([r.win for r in rolls], with_win)
    found = []
    for seat, name in enumerate(names):
        mine = [d for d in decisions if d.seat == seat]
        luck = [r for r in rolls if r.seat == seat]
        worms_lost = sum(d.worms_lost for d in mine)
        win_lost = _total([d.win_lost for d in mine], with_win)
        luck_worms = sum(r.worms for r in luck)
        luck_win = _total([r.win for r in luck], with_win)
        share = win_share(game, final, seat)
        found.append(
            PlayerReview(
                seat,
                name,
                len(mine),
                {g: sum(d.grade == g for d in mine) for g in GRADES},
                worms_lost,
                worms_lost / len(mine) if mine else 0.0,
                win_lost,
                luck_worms,
                luck_win,
                scores[seat],
                scores[seat] - luck_worms,
                share,
                _adjusted_win(share, luck_win, all_win_luck, len(names)),
            )
        )
    return tuple(found)


def _adjusted_win(
    share: float, own: float | None, everyone: float | None, players: int
) -> float | None:
    """The share of the win minus the seat's own win-chance luck, plus the others' luck
    spread evenly over the seats it was taken from (in a 2-player game the other's luck is
    exactly one's bad luck); the adjusted shares of all seats add up to 1."""
    if own is None or everyone is None:
        return None
    return share - own + (everyone - own) / (players - 1)


def _total(values: Sequence[float | None], known: bool) -> float | None:
    """The sum of values that are `known` (a model applies), else None."""
    return sum(v for v in values if v is not None) if known else None
