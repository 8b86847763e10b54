"""The review of a finished Riff Raff game: each placement's risk and each card choice, against
the `careful` bot.

Riff Raff has no exact value to compare choices by: a game is a long chain of physics
simulations. What a player controls is where each piece goes and which area each card names,
and the harm of a poor choice is a piece that falls (it comes back to the supply). So the
review measures **risk**: the chance that a placement drops something (any piece, the
placed one or cargo already aboard), estimated by `trials` noisy copies of the placement on
the ship as it was, with the placing seat's steadiness (the table's noise), each copy
simulated as the careful bot's own trials are (`bots.riffraff.TRIAL_SECONDS`).

- A **placement** is compared with the placement careful suggests for the same ship, seat and
  supply (careful searched with a generator seeded from the record's seed and the step).
  Both are tried with the same noise draws (common random numbers), so their difference is
  measured with less noise than either risk.
- A **card choice** is compared with careful's card. Where they differ, each card's area is
  tried with careful's first candidate placement on it (its heaviest piece, at the next free
  point), on the ship as it was when the card was chosen; other players may load before the
  card's turn comes, so this is an estimate of the area's risk, not of the later placement.
  A card's other worth (becoming captain, playing first, a high card to finish) is not
  valued: only the risk of its area is. Where the cards agree nothing is tried.

The **risk added** is the played choice's risk minus the lower of the two (never negative);
its 95% interval comes from the paired differences of the trials. The grade uses the
thresholds below, but only where the interval excludes zero: a difference the trials cannot
tell from none is "good". A choice at least as safe as careful's is "best". Every seed is
derived from the record's seed and the step, so a review is the same each time it is made.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal, TypeVar

from spieltisch.analysis.review import player_names
from spieltisch.analysis.review.grades import GRADES, Grade
from spieltisch.analysis.review.intervals import mean_interval, wilson_interval
from spieltisch.bots.base import make_bot
from spieltisch.bots.riffraff import TRIAL_SECONDS, CarefulBot, candidate_placements
from spieltisch.core.errors import RecordError
from spieltisch.core.record import GameRecord, record_game, replay_states
from spieltisch.games.riffraff.board import Placement
from spieltisch.games.riffraff.rules import RiffRaff
from spieltisch.games.riffraff.state import Card, Phase, Place, RiffRaffState

__all__ = [
    "REVIEW_BOT",
    "RISK_BLUNDER",
    "RISK_INACCURACY",
    "RISK_MISTAKE",
    "TRIALS",
    "RiffRaffPlayer",
    "RiffRaffReview",
    "RiskChoice",
    "RiskDecision",
    "review_placement",
    "review_riffraff",
    "risk_grade",
]

TRIALS = 8
"""Noisy copies of each placement tried (a risk's 95% interval is about +-0.3 wide at 8;
a placement's trials take about a second of CPU, see docs/review.md)."""
REVIEW_BOT = "careful"
"""The bot whose placements and cards the played ones are compared with."""
RISK_INACCURACY = 0.10
RISK_MISTAKE = 0.20
RISK_BLUNDER = 0.40
"""Risk added (the chance of dropping something, 0 to 1) from which a choice is an
inaccuracy, a mistake, a blunder; see docs/review.md for why."""

Kind = Literal["card", "place"]
A = TypeVar("A", Card, Place)


@dataclass(frozen=True)
class RiskChoice:
    """A choice with its risk (the share of trials that dropped something, with its 95%
    Wilson interval) and the mean number of pieces that fell per trial."""

    action: str
    risk: float
    low: float
    high: float
    falls: float


@dataclass(frozen=True)
class RiskDecision:
    """A reviewed card choice or placement; `step` is its action's index in the record."""

    step: int
    seat: int
    kind: Kind
    played: str
    suggested: str  # careful's choice
    best: str  # the lower-risk of the two (the played one where it is as safe)
    risk_added: float  # the played choice's risk minus the best one's
    low: float  # the 95% interval of that difference
    high: float
    grade: Grade
    choices: tuple[RiskChoice, ...]  # empty for a card that agrees with careful's
    fell: int | None  # a placement: the pieces that fell in the game itself


@dataclass(frozen=True)
class RiffRaffPlayer:
    seat: int
    name: str
    decisions: int
    agreed: int  # decisions where the played choice was careful's
    grades: dict[str, int]
    placements: int
    mean_risk: float  # the average risk of the player's placements
    risk_added: float  # the sum over the player's decisions
    fell: int  # pieces that fell after the player's placements, in the game itself
    won: bool


@dataclass(frozen=True)
class RiffRaffReview:
    game: str
    players: tuple[str, ...]
    trials: int
    bot: str
    decisions: tuple[RiskDecision, ...]
    summary: tuple[RiffRaffPlayer, ...]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def review_riffraff(
    record: GameRecord, trials: int = TRIALS, bot: str = REVIEW_BOT
) -> RiffRaffReview:
    """The review of a finished Riff Raff game record (`RecordError` if it is not one)."""
    game = record_game(record)
    if not isinstance(game, RiffRaff):
        raise RecordError(f"this is a {record.game} record, not a Riff Raff one")
    states = replay_states(record)
    if states[-1].phase is not Phase.OVER:
        raise RecordError("the game is not finished: only a finished game is reviewed")
    decisions = []
    for step, (state, text) in enumerate(zip(states, record.actions, strict=False)):
        rng = random.Random(f"{record.seed}:{step}")
        careful = _careful(game, bot, rng)
        if state.phase is Phase.PLACE:
            played = game.read_action(state, text)
            assert isinstance(played, Place)
            fell = _fell_after(states, step)
            decisions.append(
                _placement(game, state, played, careful, _seeds(rng, trials), step, fell)
            )
        elif state.phase is Phase.CARDS and len(game.legal_actions(state)) > 1:
            played = game.read_action(state, text)
            assert isinstance(played, Card)
            found = _card(game, state, played, careful, _seeds(rng, trials), step)
            if found is not None:
                decisions.append(found)
    names = player_names(record.players, game.num_players)
    summary = _summaries(names, decisions, game.winners(states[-1]))
    return RiffRaffReview(game.name, tuple(names), trials, bot, tuple(decisions), summary)


def review_placement(
    game: RiffRaff, state: RiffRaffState, played: Place, trials: int = TRIALS, seed: int = 0
) -> RiskDecision:
    """The review of one placement (`step` 0), careful and the trials seeded by `seed`."""
    rng = random.Random(seed)
    careful = _careful(game, REVIEW_BOT, rng)
    return _placement(game, state, played, careful, _seeds(rng, trials), 0, None)


def risk_grade(added: float, low: float) -> Grade:
    """The grade of a choice that added `added` risk, the low end of its interval `low`."""
    if added <= 0:
        return "best"
    if low <= 0:
        return "good"
    if added >= RISK_BLUNDER:
        return "blunder"
    if added >= RISK_MISTAKE:
        return "mistake"
    return "inaccuracy" if added >= RISK_INACCURACY else "good"


def _careful(game: RiffRaff, spec: str, rng: random.Random) -> CarefulBot:
    bot = make_bot(game, spec, rng.getrandbits(64))
    if not isinstance(bot, CarefulBot):
        raise ValueError(f"{spec} is not a careful bot")
    return bot


def _seeds(rng: random.Random, trials: int) -> list[int]:
    return [rng.getrandbits(64) for _ in range(trials)]


def _placement(
    game: RiffRaff,
    state: RiffRaffState,
    played: Place,
    careful: CarefulBot,
    seeds: Sequence[int],
    step: int,
    fell: int | None,
) -> RiskDecision:
    suggested = careful.choose(state)
    assert isinstance(suggested, Place)
    tried = {p: _trial(game, state, p.placement, seeds) for p in (played, suggested)}
    return _decision(game, state, "place", (played, suggested), tried, step, fell)


def _card(
    game: RiffRaff,
    state: RiffRaffState,
    played: Card,
    careful: CarefulBot,
    seeds: Sequence[int],
    step: int,
) -> RiskDecision | None:
    """A card choice; None where an area has no placement careful would try."""
    seat = state.chosen.index(None)
    suggested = Card(careful.card(state))
    if suggested == played:
        text = game.format_action(played)
        return RiskDecision(step, seat, "card", text, text, text, 0.0, 0.0, 0.0, "best", (), None)
    tried = {}
    for card in (played, suggested):
        placing = _placing_on(state, seat, card.number)
        candidates = candidate_placements(placing, seat, 1)
        if not candidates:
            return None
        tried[card] = _trial(game, placing, candidates[0], seeds)
    return _decision(game, state, "card", (played, suggested), tried, step, None)


def _decision(
    game: RiffRaff,
    state: RiffRaffState,
    kind: Kind,
    pair: tuple[A, A],
    tried: Mapping[A, list[int]],
    step: int,
    fell: int | None,
) -> RiskDecision:
    """The played choice (`pair[0]`) against careful's (`pair[1]`), from their trials' falls."""
    played, suggested = pair
    dropped = {a: [int(f > 0) for f in falls] for a, falls in tried.items()}
    risks = {a: sum(d) / len(d) for a, d in dropped.items()}
    best = played if risks[played] <= risks[suggested] else suggested
    added, low, high = mean_interval(
        [p - b for p, b in zip(dropped[played], dropped[best], strict=True)]
    )
    seat = state.active if kind == "place" else state.chosen.index(None)
    assert seat is not None
    return RiskDecision(
        step,
        seat,
        kind,
        game.format_action(played),
        game.format_action(suggested),
        game.format_action(best),
        added,
        low,
        high,
        risk_grade(added, low),
        tuple(_choice(game, a, risks[a], tried[a]) for a in dict.fromkeys(pair)),
        fell,
    )


def _choice(game: RiffRaff, action: Card | Place, risk: float, falls: list[int]) -> RiskChoice:
    low, high = wilson_interval(risk, len(falls))
    return RiskChoice(game.format_action(action), risk, low, high, sum(falls) / len(falls))


def _trial(
    game: RiffRaff, state: RiffRaffState, placement: Placement, seeds: Sequence[int]
) -> list[int]:
    """The pieces that fell in each noisy copy of `placement`, one per seed."""
    pending = game.apply(state, Place(placement))
    return [len(game.simulate(pending, seed, hurry=TRIAL_SECONDS).fallen) for seed in seeds]


def _placing_on(state: RiffRaffState, seat: int, card: int) -> RiffRaffState:
    """The state as if `seat` had laid `card` and were placing its first piece now."""
    played = list(state.played)
    played[seat] = (*played[seat], card)
    return replace(
        state,
        phase=Phase.PLACE,
        played=tuple(played),
        active=seat,
        announced=1,
        loaded=0,
        placed=(),
        to_play=(),
        pending=None,
        falling=(),
    )


def _fell_after(states: Sequence[RiffRaffState], step: int) -> int | None:
    """The pieces that fell when the placement at `step` settled in the game itself."""
    if step + 2 >= len(states):
        return None
    before, after = states[step + 1], states[step + 2]
    if before.phase is not Phase.SETTLE:
        return None
    return len(after.falling) if after.phase is Phase.CATCH else 0


def _summaries(
    names: Sequence[str], decisions: Sequence[RiskDecision], winners: Sequence[int]
) -> tuple[RiffRaffPlayer, ...]:
    found = []
    for seat, name in enumerate(names):
        mine = [d for d in decisions if d.seat == seat]
        placed = [d for d in mine if d.kind == "place"]
        risks = [next(c.risk for c in d.choices if c.action == d.played) for d in placed]
        found.append(
            RiffRaffPlayer(
                seat,
                name,
                len(mine),
                sum(d.played == d.suggested for d in mine),
                {g: sum(d.grade == g for d in mine) for g in GRADES},
                len(placed),
                sum(risks) / len(risks) if risks else 0.0,
                sum(d.risk_added for d in mine),
                sum(d.fell or 0 for d in placed),
                seat in winners,
            )
        )
    return tuple(found)
