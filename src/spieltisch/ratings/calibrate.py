"""The bots' fixed ratings, fitted to seeded bot-against-bot games on the players' scale.

Game `i` of a calibration seats a seat count drawn uniformly from the asked counts and, for
k seats, k different bots drawn at random (every bot once and random extras when k exceeds
the number of bots), in a random order: all from `random.Random(f"{seed}:seating:{i}")`. It is
played as the tournament plays game `i` (`analysis.tournament`: the same dice and bot seeds),
so the same arguments give the same games for any number of jobs.

The fit is the maximum a posteriori estimate of every bot's mu under the model the players'
updates approximate (`ratings.model`): each bot starts from the players' prior N(MU0, SIGMA0^2),
and a game whose finishing order has places q1 < q2 < ... has the Plackett-Luce likelihood
prod_q prod_{i at q} exp(mu_i / c) / sum_{j at q or later} exp(mu_j / c), with c = BETA *
sqrt(k) for k seats (the update's c for settled ratings); equal places share their denominator
(Breslow's rule for ties). The order of the games does not matter. Each bot's sigma is its
posterior standard deviation (the inverse of the negative Hessian at the optimum) relative to the
bots' mean: because every bot has the same prior, the bots' mean mu is exactly MU0, the fixed
anchor of the scale, where a new player starts; what the games measure is each bot's distance
from it, and only that uncertainty is its sigma.
"""

from __future__ import annotations

import multiprocessing
import random
import signal
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from spieltisch.analysis.tournament import GameResult, TablePlayer, TournamentConfig, check_config
from spieltisch.core.protocol import JsonValue
from spieltisch.ratings.model import BETA, MU0, SIGMA0, Rating, finishing_places, shown

__all__ = [
    "BotFit",
    "fit_ratings",
    "play_calibration",
    "seating",
]

Progress = Callable[[int], None]
_NEWTON_STEPS = 100
_TOLERANCE = 1e-10


def seating(config: TournamentConfig, index: int) -> tuple[str, ...]:
    """Who sits where in game `index` (see the module's description)."""
    rng = random.Random(f"{config.seed}:seating:{index}")
    count = rng.choice(config.players)
    if count <= len(config.bots):
        seats = rng.sample(config.bots, count)
    else:
        seats = [*config.bots, *rng.choices(config.bots, k=count - len(config.bots))]
        rng.shuffle(seats)
    return tuple(seats)


# --- playing ---------------------------------------------------------------------------------
_WORKER: tuple[TournamentConfig, TablePlayer] | None = None


def _start_worker(config: TournamentConfig) -> None:
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _WORKER = (config, TablePlayer(config))


def _worker_games(indices: list[int]) -> list[GameResult]:
    if _WORKER is None:
        raise RuntimeError("calibration worker was not started")
    config, player = _WORKER
    return [player.play(index, seating(config, index)) for index in indices]


def play_calibration(
    config: TournamentConfig, jobs: int = 1, progress: Progress | None = None
) -> list[GameResult]:
    """Every game of the calibration, in game order. Raises `TournamentError` (a ValueError)
    naming what cannot be played."""
    check_config(config)
    if jobs < 1:
        raise ValueError(f"the number of jobs must be at least 1, not {jobs}")
    indices = list(range(config.games))
    size = max(1, min(20, config.games // (4 * jobs)))
    chunks = [indices[start : start + size] for start in range(0, config.games, size)]
    results: list[GameResult] = []
    if jobs == 1:
        player = TablePlayer(config)
        for index in indices:
            results.append(player.play(index, seating(config, index)))
            if progress is not None:
                progress(len(results))
        return results
    with multiprocessing.Pool(min(jobs, len(chunks)), _start_worker, (config,)) as pool:
        for batch in pool.imap(_worker_games, chunks):
            results += batch
            if progress is not None:
                progress(len(results))
    return results


# --- fitting ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class BotFit:
    """A bot's fitted rating and what it rests on."""

    bot: str
    rating: Rating
    seats: int

    def to_json(self) -> dict[str, JsonValue]:
        low = Rating(self.rating.mu - 1.96 * self.rating.sigma, self.rating.sigma)
        high = Rating(self.rating.mu + 1.96 * self.rating.sigma, self.rating.sigma)
        return {
            "mu": round(self.rating.mu, 4),
            "sigma": round(self.rating.sigma, 4),
            "shown": shown(self.rating).points,
            "shown_95": [shown(low).points, shown(high).points],
            "seats": self.seats,
        }


Stage = tuple[tuple[int, ...], tuple[int, ...], int]
"""One place of one game: per bot, its seats still in the running and its seats at the place;
and the game's seat count."""


def _stages(results: Sequence[GameResult], bots: Sequence[str]) -> Counter[Stage]:
    """Every game's places as likelihood terms, identical terms counted together."""
    stages: Counter[Stage] = Counter()
    for result in results:
        places = finishing_places(result.winners, result.scores)
        for place in sorted(set(places)):
            if places.count(place) == 1 and place == max(places):
                continue  # one seat alone in last place: its term is 1
            running, at = [0] * len(bots), [0] * len(bots)
            for seat, bot in enumerate(result.seats):
                running[bots.index(bot)] += places[seat] >= place
                at[bots.index(bot)] += places[seat] == place
            stages[(tuple(running), tuple(at), len(result.seats))] += 1
    return stages


def _gradient_hessian(mu: np.ndarray, stages: Counter[Stage]) -> tuple[np.ndarray, np.ndarray]:
    """The log posterior's gradient and Hessian in mu."""
    gradient = -(mu - MU0) / SIGMA0**2
    hessian = -np.eye(len(mu)) / SIGMA0**2
    for (running, at, seats), count in stages.items():
        c = BETA * np.sqrt(seats)
        weights = np.array(running) * np.exp((mu - mu.max()) / c)
        share = weights / weights.sum()
        tied = sum(at)
        gradient += count * (np.array(at) - tied * share) / c
        hessian -= count * tied * (np.diag(share) - np.outer(share, share)) / c**2
    return gradient, hessian


def fit_ratings(results: Sequence[GameResult], bots: Sequence[str]) -> list[BotFit]:
    """The bots' maximum a posteriori ratings (Newton's method on the concave log posterior)."""
    stages = _stages(results, bots)
    mu = np.full(len(bots), MU0)
    for _ in range(_NEWTON_STEPS):
        gradient, hessian = _gradient_hessian(mu, stages)
        step = np.linalg.solve(hessian, gradient)
        mu = mu - step
        if np.max(np.abs(step)) < _TOLERANCE:
            break
    _, hessian = _gradient_hessian(mu, stages)
    to_anchor = np.eye(len(bots)) - 1.0 / len(bots)  # mu minus the bots' mean
    covariance = to_anchor @ np.linalg.inv(-hessian) @ to_anchor.T
    sigma = np.sqrt(np.diag(covariance))
    seats = Counter(bot for result in results for bot in result.seats)
    return [
        BotFit(bot, Rating(float(m), float(s)), seats[bot])
        for bot, m, s in zip(bots, mu, sigma, strict=True)
    ]
