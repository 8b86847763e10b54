"""The bots' calibration: seatings, the fit (against data drawn from known ratings and against
its own definition), the command's determinism, and the stored data file."""

from __future__ import annotations

import contextlib
import io
import json
import math
import random
import shlex
from collections.abc import Sequence
from pathlib import Path

import pytest

from spieltisch.analysis.tournament import GameResult, TournamentConfig
from spieltisch.cli.main import build_parser, main
from spieltisch.ratings.bots import BOTS_FILE, bot_ratings, read_bot_file
from spieltisch.ratings.calibrate import fit_ratings, seating
from spieltisch.ratings.model import (
    BETA,
    MU0,
    SIGMA0,
    Rating,
    finishing_places,
    shown,
    update,
)

BOTS = ("low", "middle", "high")
TRUE_MU = (21.0, 25.0, 29.0)  # their mean is MU0, the fit's anchor


def drawn_result(index: int, rng: random.Random, seats: int) -> GameResult:
    """A game whose finishing order is drawn from the Plackett-Luce model of `TRUE_MU`."""
    lineup = [rng.randrange(len(BOTS)) for _ in range(seats)]
    c = BETA * math.sqrt(seats)
    left, order = list(range(seats)), []
    while left:
        weights = [math.exp(TRUE_MU[lineup[seat]] / c) for seat in left]
        order.append(left.pop(rng.choices(range(len(left)), weights)[0]))
    scores = [0] * seats
    for place, seat in enumerate(order):
        scores[seat] = seats - place
    return GameResult(index, tuple(BOTS[b] for b in lineup), (order[0],), tuple(scores), 0)


def drawn_results(games: int, seed: int) -> list[GameResult]:
    rng = random.Random(seed)
    return [drawn_result(i, rng, rng.choice((2, 3, 4))) for i in range(games)]


def test_the_fit_finds_the_ratings_the_games_were_drawn_from() -> None:
    fits = fit_ratings(drawn_results(3000, seed=5), BOTS)
    for fit, mu in zip(fits, TRUE_MU, strict=True):
        assert abs(fit.rating.mu - mu) < 4 * fit.rating.sigma
        assert 0.05 < fit.rating.sigma < 0.5
    assert sum(fit.rating.mu for fit in fits) / len(fits) == pytest.approx(MU0)


def online_ratings(results: Sequence[GameResult]) -> dict[str, Rating]:
    """The players' update run over the games in order, each bot as one player (a bot in
    several seats of a game takes the mean of its seats' new ratings)."""
    ratings = {bot: Rating() for bot in BOTS}
    for result in results:
        places = finishing_places(result.winners, result.scores)
        after = update([ratings[bot] for bot in result.seats], places)
        for bot in set(result.seats):
            mine = [a for a, seat in zip(after, result.seats, strict=True) if seat == bot]
            ratings[bot] = Rating(
                sum(r.mu for r in mine) / len(mine), sum(r.sigma for r in mine) / len(mine)
            )
    return ratings


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_the_players_update_lands_on_the_same_scale_as_the_fit(seed: int) -> None:
    """Run over the same games, the update finds the same gaps as the fit and the truth, up
    to its own noise (its sigma stays near 1.6: the dynamics term keeps it moving)."""
    online = online_ratings(drawn_results(3000, seed))
    for lower, upper in ((0, 1), (1, 2)):
        gap = online[BOTS[upper]].mu - online[BOTS[lower]].mu
        assert abs(gap - (TRUE_MU[upper] - TRUE_MU[lower])) < 3


def log_posterior(mus: Sequence[float], results: Sequence[GameResult]) -> float:
    """The fit's objective written out plainly: prior plus Plackett-Luce terms, ties sharing
    their denominator."""
    total = sum(-((mu - MU0) ** 2) / (2 * SIGMA0**2) for mu in mus)
    for result in results:
        places = finishing_places(result.winners, result.scores)
        c = BETA * math.sqrt(len(places))
        strength = [mus[BOTS.index(bot)] / c for bot in result.seats]
        for seat, place in enumerate(places):
            running = [strength[s] for s in range(len(places)) if places[s] >= place]
            total += strength[seat] - math.log(sum(math.exp(s) for s in running))
    return total


def test_the_fit_is_the_maximum_of_its_objective() -> None:
    results = drawn_results(60, seed=9)
    tied = GameResult(60, ("low", "high", "middle"), (2,), (3, 3, 9), 0)  # a tie for second
    results.append(tied)
    mus = [fit.rating.mu for fit in fit_ratings(results, BOTS)]
    best = log_posterior(mus, results)
    for bot in range(len(BOTS)):
        for step in (-0.01, 0.01):
            moved = [mu + step * (b == bot) for b, mu in enumerate(mus)]
            assert log_posterior(moved, results) < best


def test_a_seating_is_drawn_from_the_seed_and_covers_the_bots() -> None:
    config = TournamentConfig("pickomino", ("a", "b", "c"), (2, 3, 5), 100, seed=4)
    seatings = [seating(config, index) for index in range(100)]
    assert seatings == [seating(config, index) for index in range(100)]
    assert {len(s) for s in seatings} == {2, 3, 5}
    for seats in seatings:
        assert len(set(seats)) == min(len(seats), 3)  # different bots, each once if room
    other = TournamentConfig("pickomino", ("a", "b", "c"), (2, 3, 5), 100, seed=5)
    assert seatings != [seating(other, index) for index in range(100)]


TINY = ["ratings", "calibrate", "--game", "karolinchen", "--bots", "random,greedy"]
TINY += ["--players", "2,3", "--games", "6", "--seed", "3"]


def calibrate(words: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(words)
    return status, out.getvalue()


def test_the_same_command_makes_the_same_file(tmp_path: Path) -> None:
    first, second, other = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"
    assert calibrate([*TINY, "--out", str(first)])[0] == 0
    assert calibrate([*TINY, "--out", str(second), "--jobs", "2"])[0] == 0
    assert first.read_text() == second.read_text()
    assert calibrate([*TINY[:-1], "4", "--out", str(other)])[0] == 0
    assert first.read_text() != other.read_text()
    entry = read_bot_file(first)["games"]["karolinchen"]
    assert entry["command"] == " ".join(["spieltisch", *TINY])
    assert set(entry["bots"]) == {"random", "greedy"}


def test_the_command_keeps_other_games_and_prints_json(tmp_path: Path) -> None:
    path = tmp_path / "bots.json"
    path.write_text(json.dumps({"games": {"pickomino": {"bots": {}}}}))
    status, printed = calibrate([*TINY, "--out", str(path), "--json"])
    assert status == 0
    data = read_bot_file(path)
    assert set(data["games"]) == {"karolinchen", "pickomino"}
    assert json.loads(printed) == data["games"]["karolinchen"]


def test_a_bad_calibration_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bots.json"
    assert main([*TINY[:5], "random,nobody", "--out", str(path)]) == 2
    assert "no bot 'nobody' for karolinchen" in capsys.readouterr().err
    assert main([*TINY, "--players", "9", "--out", str(path)]) == 2
    assert "2 to 6 players, not 9" in capsys.readouterr().err
    assert not path.exists()


def test_the_command_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["ratings", "calibrate", "--help"])
    assert done.value.code == 0
    assert "Weng-Lin" in capsys.readouterr().out


@pytest.mark.parametrize("game", ["pickomino", "karolinchen", "riffraff"])
def test_the_stored_values_are_what_their_command_says(game: str, tmp_path: Path) -> None:
    entry = read_bot_file(BOTS_FILE)["games"][game]
    words = shlex.split(entry["command"])
    assert words[0] == "spieltisch"
    args = build_parser("ratings").parse_args(words[1:])
    assert (args.game, args.seed, args.games) == (game, entry["seed"], entry["games"])
    assert args.bots.split(",") == list(entry["bots"])
    # the same shape as a fresh run makes, and every number consistent with mu and sigma
    calibrate([*TINY, "--out", str(tmp_path / "tiny.json")])
    tiny = read_bot_file(tmp_path / "tiny.json")["games"]["karolinchen"]
    assert set(entry) == set(tiny)
    assert all(set(values) == set(tiny["bots"]["random"]) for values in entry["bots"].values())
    ratings = bot_ratings(game)
    for bot, values in entry["bots"].items():
        assert shown(ratings[bot]).points == values["shown"]
        low, high = values["shown_95"]
        assert low < values["shown"] < high
        assert ratings[bot] == Rating(values["mu"], values["sigma"])
    assert sum(r.mu for r in ratings.values()) / len(ratings) == pytest.approx(MU0, abs=1e-3)


def test_a_game_without_calibration_has_no_bot_ratings(tmp_path: Path) -> None:
    assert bot_ratings("pickomino", tmp_path / "none.json") == {}
