"""Ratings, head-to-head results and win rates of a tournament's bots.

Each game is read as pairwise comparisons between the bots at the table: the winners rank
first, the others by their score (higher is better); of two seats the better-ranked scores 1,
equal ranks score 1/2 each. Two seats of the same bot are not compared.

The ratings are a documented Elo: the Bradley-Terry model P(a beats b) = 1 / (1 + 10 ** ((Rb -
Ra) / 400)) fitted by maximum likelihood to all comparisons at once (Hunter's MM iteration;
the order of the games does not matter), with one virtual draw of every bot against a
1500-rated anchor so that a bot that never loses keeps a finite rating. Ratings are shifted to
average 1500. The 95% interval of each rating is the 2.5 and 97.5 percentile over bootstrap
resamples of the games (drawn with a generator seeded by the tournament's seed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from spieltisch.analysis.simulate import wilson_interval
from spieltisch.analysis.tournament import GameResult

__all__ = [
    "BOOTSTRAP_SAMPLES",
    "BotSummary",
    "Ratings",
    "comparisons",
    "fit_elo",
    "head_to_head",
    "rate",
    "summarize_bots",
]

BOOTSTRAP_SAMPLES = 200
ELO_BASE = 1500.0
ELO_SCALE = 400.0 / np.log(10.0)
_ITERATIONS = 500
_TOLERANCE = 1e-9


def _ranks(result: GameResult) -> list[tuple[int, int]]:
    """A sort key per seat: winners first, then by score (smaller is better)."""
    return [
        (0 if seat in result.winners else 1, -score) for seat, score in enumerate(result.scores)
    ]


def comparisons(result: GameResult, bots: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """The game's pairwise scores `wins[a, b]` and comparison counts `played[a, b]`."""
    size = len(bots)
    wins, played = np.zeros((size, size)), np.zeros((size, size))
    ranks = _ranks(result)
    for first in range(len(result.seats)):
        for second in range(first + 1, len(result.seats)):
            a, b = bots.index(result.seats[first]), bots.index(result.seats[second])
            if a == b:
                continue
            score = 1.0 if ranks[first] < ranks[second] else 0.0
            score = 0.5 if ranks[first] == ranks[second] else score
            wins[a, b] += score
            wins[b, a] += 1.0 - score
            played[a, b] += 1
            played[b, a] += 1
    return wins, played


def fit_elo(wins: np.ndarray, played: np.ndarray) -> np.ndarray:
    """Bradley-Terry ratings on the Elo scale (mean 1500) of summed pairwise results."""
    size = len(wins)
    strength = np.ones(size)
    total_wins = wins.sum(axis=1) + 0.5  # the virtual draw against the anchor
    for _ in range(_ITERATIONS):
        pair_sums = strength[:, None] + strength[None, :]
        denominator = (played / pair_sums).sum(axis=1) + 1.0 / (strength + 1.0)
        updated = total_wins / denominator
        if np.max(np.abs(np.log(updated) - np.log(strength))) < _TOLERANCE:
            strength = updated
            break
        strength = updated
    ratings = ELO_SCALE * np.log(strength)
    return ratings - ratings.mean() + ELO_BASE  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Ratings:
    bots: tuple[str, ...]
    elo: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]


def rate(results: Sequence[GameResult], bots: Sequence[str], seed: int) -> Ratings:
    """The bots' Elo ratings with bootstrap 95% intervals."""
    per_game = [comparisons(result, bots) for result in results]
    wins = np.array([w for w, _ in per_game])
    played = np.array([p for _, p in per_game])
    elo = fit_elo(wins.sum(axis=0), played.sum(axis=0))
    generator = np.random.default_rng(seed)
    samples = []
    for _ in range(BOOTSTRAP_SAMPLES):
        weights = np.bincount(
            generator.integers(0, len(results), len(results)), minlength=len(results)
        ).astype(float)
        samples.append(
            fit_elo(np.tensordot(weights, wins, axes=1), np.tensordot(weights, played, axes=1))
        )
    low, high = np.percentile(np.array(samples), [2.5, 97.5], axis=0)
    return Ratings(
        tuple(bots),
        tuple(round(float(v), 1) for v in elo),
        tuple(round(float(v), 1) for v in low),
        tuple(round(float(v), 1) for v in high),
    )


def head_to_head(results: Sequence[GameResult], bots: Sequence[str]) -> list[list[float | None]]:
    """`table[a][b]`: bot a's mean pairwise score against bot b (None: they never met)."""
    wins, played = np.zeros((len(bots), len(bots))), np.zeros((len(bots), len(bots)))
    for result in results:
        game_wins, game_played = comparisons(result, bots)
        wins += game_wins
        played += game_played
    return [
        [float(wins[a, b] / played[a, b]) if played[a, b] else None for b in range(len(bots))]
        for a in range(len(bots))
    ]


@dataclass(frozen=True)
class BotSummary:
    """One bot's games, win share (a shared win counts 1/k per seat), interval and places."""

    bot: str
    seats: int
    wins: float
    win_rate: float
    low: float
    high: float
    places: dict[int, list[int]]  # per seat count: how often it finished 1st, 2nd, ...


def summarize_bots(results: Sequence[GameResult], bots: Sequence[str]) -> list[BotSummary]:
    """Win rates over all seats a bot took, with Wilson 95% intervals, and its places."""
    summaries = []
    for bot in bots:
        seats, wins = 0, 0.0
        places: dict[int, list[int]] = {}
        for result in results:
            ranks = _ranks(result)
            for seat, name in enumerate(result.seats):
                if name != bot:
                    continue
                seats += 1
                if seat in result.winners:
                    wins += 1.0 / len(result.winners)
                place = sum(1 for other in ranks if other < ranks[seat])
                counts = places.setdefault(len(result.seats), [0] * len(result.seats))
                counts[place] += 1
        low, high = wilson_interval(wins, seats) if seats else (0.0, 1.0)
        rate_ = wins / seats if seats else 0.0
        summaries.append(
            BotSummary(bot, seats, wins, rate_, low, high, dict(sorted(places.items())))
        )
    return summaries
