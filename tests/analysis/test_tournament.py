"""Tournaments: the schedule, determinism across jobs and backends, resuming, ratings, report."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from spieltisch.analysis.ratings import comparisons, fit_elo, rate
from spieltisch.analysis.tournament import (
    GameResult,
    TournamentConfig,
    TournamentError,
    load_results,
    parse_players,
    results_path,
    run_tournament,
    schedule,
)
from spieltisch.cli.main import main

CONFIG = TournamentConfig("pickomino", ("optimal", "greedy", "random"), (2, 3, 4), 30, seed=5)


def test_schedule_covers_every_seating_of_every_seat_count() -> None:
    seatings = schedule(CONFIG)
    # 2 seats: 3 pairs in 2 orders; 3 seats: 6 orders; 4 seats: 3 lineups (one bot twice) x 12
    assert len(seatings) == 6 + 6 + 36
    assert seatings[:2] == [("optimal", "greedy"), ("greedy", "optimal")]
    assert len(set(seatings)) == len(seatings)
    assert all(set(s) == set(CONFIG.bots) for s in seatings if len(s) >= 3)


def test_parse_players_reads_ranges_and_lists() -> None:
    assert parse_players("2-4") == (2, 3, 4)
    assert parse_players("4,2") == (2, 4)
    with pytest.raises(TournamentError, match="not a seat count"):
        parse_players("two")


def test_results_do_not_depend_on_jobs(tmp_path: Path) -> None:
    alone = run_tournament(CONFIG, tmp_path / "a.games.jsonl", jobs=1)
    parallel = run_tournament(CONFIG, tmp_path / "b.games.jsonl", jobs=2)
    assert alone == parallel
    assert [r.index for r in alone] == list(range(CONFIG.games))


def test_an_interrupted_tournament_continues_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "t.games.jsonl"

    def stop_after_twelve(done: int) -> None:
        if done >= 12:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tournament(CONFIG, path, progress=stop_after_twelve)
    assert len(load_results(path, CONFIG)) == 12
    with path.open("a") as out:
        out.write('{"index": 13, "seats"')  # a line cut short by the interruption
    seen: list[int] = []
    resumed = run_tournament(CONFIG, path, progress=seen.append)
    assert seen[0] == 12
    assert resumed == run_tournament(CONFIG, tmp_path / "fresh.games.jsonl")


def test_results_of_another_tournament_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.games.jsonl"
    run_tournament(CONFIG, path)
    other = TournamentConfig(CONFIG.game, CONFIG.bots, CONFIG.players, CONFIG.games, seed=6)
    with pytest.raises(TournamentError, match="different tournament; give another --out"):
        run_tournament(other, path)


def test_requests_that_cannot_run_are_explained() -> None:
    with pytest.raises(TournamentError, match="2 to 4 players, not 5"):
        run_tournament(TournamentConfig("riffraff", ("random", "careful"), (5,), 1), Path("unused"))
    with pytest.raises(TournamentError, match="no bot 'nobody'"):
        run_tournament(TournamentConfig("pickomino", ("greedy", "nobody"), (2,), 1), Path("x"))


def test_pairwise_comparisons_rank_winners_then_scores() -> None:
    bots = ("a", "b", "c")
    result = GameResult(0, ("c", "a", "b"), (1,), (3, 5, 3), 10)
    wins, played = comparisons(result, bots)
    assert wins[0, 1] == 1.0 and wins[0, 2] == 1.0  # a won
    assert wins[1, 2] == 0.5 and wins[2, 1] == 0.5  # b and c tie on score
    assert played.sum() == 6


def test_elo_fit_orders_bots_and_averages_1500() -> None:
    wins = np.array([[0.0, 30.0], [10.0, 0.0]])
    played = np.array([[0.0, 40.0], [40.0, 0.0]])
    elo = fit_elo(wins, played)
    assert elo.mean() == pytest.approx(1500)
    assert 150 < elo[0] - elo[1] < 200  # 75% expected score is about 191 points


@pytest.mark.slow
def test_ratings_are_reproducible_with_intervals_around_them(tmp_path: Path) -> None:
    results = run_tournament(CONFIG, tmp_path / "t.games.jsonl")
    first = rate(results, CONFIG.bots, seed=1)
    assert first == rate(results, CONFIG.bots, seed=1)
    for elo, low, high in zip(first.elo, first.low, first.high, strict=True):
        assert low <= elo <= high
    assert first.elo[2] < first.elo[1]  # random is the weakest


@pytest.mark.slow
def test_tournament_command_writes_report_and_continues(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "out" / "report.html"
    args = ["tournament", "karolinchen", "--bots", "greedy,random", "--players", "2-3"]
    args += ["--games", "16", "--jobs", "2", "--out", str(report), "--json"]
    assert main(args) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games_played"] == 16
    assert [row["bot"] for row in summary["bots"]] == ["greedy", "random"]
    page = report.read_text()
    assert page.count("data:image/png;base64,") == 4 and "Head to head" in page
    lines = results_path(report).read_text().splitlines()
    assert len(lines) == 17
    assert main(args) == 0  # everything is stored: nothing is played again
    assert json.loads(capsys.readouterr().out) == summary


def test_tournament_command_explains_a_bad_request(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "pickomino", "--bots", "greedy", "--games", "2"]) == 2
    assert "at least two different bots" in capsys.readouterr().err
