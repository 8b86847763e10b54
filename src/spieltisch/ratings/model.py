"""Weng-Lin ratings (Plackett-Luce model) per player and game, as pure functions.

A rating is a belief about a player's skill in one game: a normal distribution with mean `mu`
and standard deviation `sigma`. Everyone starts at `MU0`, `SIGMA0`; a finished game updates the
ratings of everyone at the table from the finishing order alone (equal places are ties), by the
Plackett-Luce update of Weng and Lin (2011) as `openskill` implements it. Bots have fixed
ratings: they take part in every update as opponents but never change.

The shown number maps `mu` to a familiar 1,500-based scale: `1500 + ELO_PER_MU * (mu - MU0)`.
`ELO_PER_MU` is chosen so that between two settled players (small sigma) a gap of 400 points
means 10 to 1 odds of finishing ahead, as on the Elo scale: the model gives the better one
`1 / (1 + exp(-d / c))` with `c = sqrt(2) * BETA` for a gap `d` in mu, and Elo gives
`1 / (1 + 10 ** (-D / 400))` for a gap `D` in points. The number is marked provisional ("?")
while `sigma` is above `RatingSettings.provisional_sigma`; `docs/ratings.md` says why the
thresholds are where they are.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from openskill.models import PlackettLuce

__all__ = [
    "BETA",
    "ELO_BASE",
    "ELO_PER_MU",
    "MU0",
    "SIGMA0",
    "TAU",
    "Rating",
    "RatingSettings",
    "Shown",
    "finishing_places",
    "on_leaderboard",
    "shown",
    "update",
]

MU0 = 25.0
"""Every player's first mean skill."""
SIGMA0 = MU0 / 3
"""Every player's first uncertainty."""
BETA = SIGMA0 / 2
"""The spread of one game's performance around a player's skill."""
TAU = SIGMA0 / 100
"""Added (in quadrature) to sigma before each update, so a rating keeps moving with the player."""
ELO_BASE = 1500.0
ELO_PER_MU = 400.0 / (math.log(10.0) * math.sqrt(2.0) * BETA)
"""Shown points per unit of mu (about 29.5): see the module's description."""

_MODEL = PlackettLuce(mu=MU0, sigma=SIGMA0, beta=BETA, tau=TAU)


@dataclass(frozen=True)
class Rating:
    """One player's skill in one game: mean `mu`, uncertainty `sigma`."""

    mu: float = MU0
    sigma: float = SIGMA0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mu) and math.isfinite(self.sigma) and self.sigma > 0):
            raise ValueError(f"a rating needs a finite mu and a positive sigma, not {self}")


@dataclass(frozen=True)
class RatingSettings:
    """The thresholds of what is shown, as settings (defaults: `docs/ratings.md`)."""

    provisional_sigma: float = 5.0
    """A rating is provisional ("?") while its sigma is above this (about 10 games)."""
    leaderboard_sigma: float = 3.5
    """A leaderboard lists a player only when sigma is at most this (about 25 games) ..."""
    leaderboard_recent: timedelta = timedelta(days=7)
    """... and the player's last rated game in that game is at most this old."""


@dataclass(frozen=True)
class Shown:
    """A rating as players see it: a whole number, with '?' while provisional."""

    points: int
    provisional: bool

    def __str__(self) -> str:
        return f"{self.points}?" if self.provisional else str(self.points)


def shown(rating: Rating, settings: RatingSettings | None = None) -> Shown:
    """The rating on the 1,500-based scale, provisional while sigma is high."""
    settings = settings or RatingSettings()
    points = round(ELO_BASE + ELO_PER_MU * (rating.mu - MU0))
    return Shown(points, rating.sigma > settings.provisional_sigma)


def on_leaderboard(
    rating: Rating, last_rated: datetime, now: datetime, settings: RatingSettings | None = None
) -> bool:
    """Whether a player is settled and active enough to be listed on the game's leaderboard."""
    settings = settings or RatingSettings()
    return rating.sigma <= settings.leaderboard_sigma and (
        now - last_rated <= settings.leaderboard_recent
    )


def finishing_places(
    winners: Sequence[int], scores: Sequence[int], left: Sequence[int] = ()
) -> list[int]:
    """Each seat's place (0 is first; equal places are ties) from a finished game: the winners
    first, then the others by score (more is better), and the seats in `left` (who left or
    timed out) after everyone, tied among themselves."""
    seats = range(len(scores))
    for seat in (*winners, *left):
        if seat not in seats:
            raise ValueError(f"seat {seat} is not one of the game's {len(scores)} seats")
    keys = [
        (True, True, 0) if seat in left else (False, seat not in winners, -scores[seat])
        for seat in seats
    ]
    return [sum(1 for other in keys if other < keys[seat]) for seat in seats]


def update(
    ratings: Sequence[Rating], places: Sequence[int], fixed: Sequence[bool] | None = None
) -> list[Rating]:
    """Everyone's rating after one game in which seat i finished at `places[i]` (smaller is
    better, equal is a tie). Seats marked `fixed` (bots) count as opponents and keep their
    ratings. Raises ValueError for a table of fewer than two or mismatched lengths."""
    fixed = [False] * len(ratings) if fixed is None else list(fixed)
    if len(ratings) < 2 or not len(ratings) == len(places) == len(fixed):
        raise ValueError("an update needs two or more ratings with one place and flag each")
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    after = _MODEL.rate(teams, ranks=[float(p) for p in places])
    return [
        old if keep else Rating(team[0].mu, team[0].sigma)
        for old, keep, team in zip(ratings, fixed, after, strict=True)
    ]
