"""The review of a finished Karolinchen game: each decision against the `expert` bot's choice.

Karolinchen has one real decision, the card to lay next (and, with `auto_take=false`,
whether to take the dice for it). For each decision with more than one legal action the
review asks the `expert` bot what it would play, and estimates the mover's chance to win
after every legal action by seeded rollouts: the game is played on to its end with every
seat played by `expert` searching one roll less (`ROLLOUT_BOT`, `expert:depth=0`: it lays
the card that gains the most over its best rival, counting the next roll's expected take;
the full search plays about 50 times slower, too slow for hundreds of games per choice).
Every action of a decision is rolled out with the same seeds (common
random numbers), so the dice are the same for each choice and the difference between two
choices is measured with far less noise than either chance alone.

Each chance comes with its 95% Wilson interval. The best action is the one with the highest
estimated chance; the loss of the played action is the best one's chance minus its own, with
the 95% interval of the paired differences. A loss is graded as Pickomino's win-chance losses
are (`grades`), but only where its interval excludes zero: a loss the rollouts cannot tell
from none is "good". The expert's choice is shown beside it, and each player's summary
counts the decisions that agreed with it; the expert is not always right (a race where it
lays the card that takes nothing is in the tests). No exact value is computed: the game is
too long to search to its end, so every chance is a rollout estimate.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from spieltisch.analysis.review import player_names
from spieltisch.analysis.review.grades import GRADES, Grade, grade
from spieltisch.analysis.review.intervals import mean_interval, wilson_interval
from spieltisch.bots.base import make_bot
from spieltisch.bots.karolinchen import ExpertBot
from spieltisch.core.errors import RecordError
from spieltisch.core.record import GameRecord, record_game, replay_states
from spieltisch.games.karolinchen.rules import Karolinchen
from spieltisch.games.karolinchen.state import Action, KarolinchenState, Phase

__all__ = [
    "ROLLOUTS",
    "CardChoice",
    "CardDecision",
    "KarolinchenPlayer",
    "KarolinchenReview",
    "review_card_decision",
    "review_karolinchen",
    "wilson_interval",
]

ROLLOUT_BOT = "expert:depth=0"
"""The bot that plays every seat in the rollouts."""
ROLLOUTS = 200
"""Rollouts per legal action of a decision (a chance's 95% interval is about +-0.07 wide)."""


@dataclass(frozen=True)
class CardChoice:
    """A legal action and the mover's win chance after it, with its 95% interval."""

    action: str
    p_win: float
    low: float
    high: float


@dataclass(frozen=True)
class CardDecision:
    """A decision with a real choice; `step` is its action's index in the record."""

    step: int
    seat: int
    played: str
    expert: str
    best: str  # the action with the highest estimated win chance
    win_lost: float  # the best action's chance minus the played one's
    low: float  # the 95% interval of that loss
    high: float
    grade: Grade
    choices: tuple[CardChoice, ...]


@dataclass(frozen=True)
class KarolinchenPlayer:
    seat: int
    name: str
    decisions: int
    agreed: int  # decisions where the played action was the expert's
    grades: dict[str, int]
    win_lost: float  # the sum of the decisions' losses
    won: bool


@dataclass(frozen=True)
class KarolinchenReview:
    game: str
    players: tuple[str, ...]
    rollouts: int
    decisions: tuple[CardDecision, ...]
    summary: tuple[KarolinchenPlayer, ...]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def review_karolinchen(
    record: GameRecord, rollouts: int = ROLLOUTS, rollout_bot: str = ROLLOUT_BOT
) -> KarolinchenReview:
    """The review of a finished Karolinchen game record (`RecordError` if it is not one)."""
    game = record_game(record)
    if not isinstance(game, Karolinchen):
        raise RecordError(f"this is a {record.game} record, not a Karolinchen one")
    states = replay_states(record)
    if states[-1].phase is not Phase.OVER:
        raise RecordError("the game is not finished: only a finished game is reviewed")
    expert = ExpertBot(game, random.Random(0))  # draws nothing: the seed changes nothing
    player = make_bot(game, rollout_bot, 0).choose
    decisions = []
    for step, (state, text) in enumerate(zip(states, record.actions, strict=False)):
        if state.phase in (Phase.CHOOSE, Phase.TAKE) and len(game.legal_actions(state)) > 1:
            played = game.read_action(state, text)
            seeds = [f"{record.seed}:{step}:{i}" for i in range(rollouts)]
            decisions.append(_decision(game, state, played, (expert, player), seeds, step))
    names = player_names(record.players, game.num_players)
    summary = _summaries(names, decisions, game.winners(states[-1]))
    return KarolinchenReview(game.name, tuple(names), rollouts, tuple(decisions), summary)


def review_card_decision(
    game: Karolinchen,
    state: KarolinchenState,
    played: Action,
    rollouts: int = ROLLOUTS,
    rollout_bot: str = ROLLOUT_BOT,
) -> CardDecision:
    """The review of one decision (`step` 0), rolled out with seeds '0' to rollouts - 1."""
    bots = ExpertBot(game, random.Random(0)), make_bot(game, rollout_bot, 0).choose
    return _decision(game, state, played, bots, [str(i) for i in range(rollouts)], 0)


def _decision(
    game: Karolinchen,
    state: KarolinchenState,
    played: Action,
    bots: tuple[ExpertBot, Callable[[KarolinchenState], Action]],
    seeds: Sequence[str],
    step: int,
) -> CardDecision:
    """The decision `played` in `state` against the expert's, each action rolled out with
    `bots[1]` playing every seat."""
    advice = bots[0].choose(state)
    wins = {a: _rollout_wins(game, state, a, bots[1], seeds) for a in game.legal_actions(state)}
    chances = {a: sum(w) / len(w) for a, w in wins.items()}
    best = played if chances[played] >= max(chances.values()) else _first_best(chances)
    differences = [b - p for b, p in zip(wins[best], wins[played], strict=True)]
    lost, low, high = mean_interval(differences)
    return CardDecision(
        step,
        state.seat,
        game.format_action(played),
        game.format_action(advice),
        game.format_action(best),
        lost,
        low,
        high,
        _grade(played == best, lost, low),
        tuple(
            CardChoice(game.format_action(a), p, *wilson_interval(p, len(seeds)))
            for a, p in chances.items()
        ),
    )


def _first_best(chances: dict[Action, float]) -> Action:
    return max(chances, key=chances.__getitem__)


def _grade(is_best: bool, lost: float, low: float) -> Grade:
    """Best for the best estimate; else graded by the loss where the rollouts show one (its
    interval excludes zero), else good."""
    if is_best:
        return "best"
    return grade(lost, by_win=True) if low > 0 else "good"


def _rollout_wins(
    game: Karolinchen,
    state: KarolinchenState,
    action: Action,
    choose: Callable[[KarolinchenState], Action],
    seeds: Sequence[str],
) -> list[int]:
    """1 for each seeded rollout after `action` that the mover wins, else 0."""
    seat, after = state.seat, game.apply(state, action)
    if after.phase is Phase.OVER:
        return [int(after.seat == seat)] * len(seeds)
    seats = [choose] * game.num_players
    return [
        int(game.play_out(after, seats, random.Random(seed)).state.seat == seat) for seed in seeds
    ]


def _summaries(
    names: Sequence[str], decisions: Sequence[CardDecision], winners: Sequence[int]
) -> tuple[KarolinchenPlayer, ...]:
    found = []
    for seat, name in enumerate(names):
        mine = [d for d in decisions if d.seat == seat]
        found.append(
            KarolinchenPlayer(
                seat,
                name,
                len(mine),
                sum(d.played == d.expert for d in mine),
                {g: sum(d.grade == g for d in mine) for g in GRADES},
                sum(d.win_lost for d in mine),
                seat in winners,
            )
        )
    return tuple(found)
