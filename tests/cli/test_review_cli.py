"""The review command: a finished game's errors and summary as text or JSON, and clear errors
for records it does not review."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from spieltisch.bots.base import make_bot
from spieltisch.bots.match import play_match
from spieltisch.cli import review
from spieltisch.core.record import GameRecord, save_record
from spieltisch.core.registry import make_game
from tests.analysis.test_review_riffraff import LIGHT_CAREFUL, riffraff_record
from tests.cli.test_replay import finished_record


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    review.add_parser(parser.add_subparsers())
    return parser.parse_args(["review", *argv])


def run(tmp_path: Path, record: GameRecord, *flags: str) -> tuple[int, list[str]]:
    path = tmp_path / "game.json"
    save_record(record, path)
    out: list[str] = []
    return review.run(parse(str(path), *flags), out.append), out


def test_prints_the_errors_and_each_players_summary(tmp_path: Path) -> None:
    status, out = run(tmp_path, finished_record())
    assert status == 0
    assert out[0] == "Pickomino review · 3 players · graded by win chance"
    listed = [line for line in out if line.startswith("  turn ")]
    assert listed and all(", best " in line or " good" in line for line in listed)
    assert not any(line.endswith("  best") for line in listed)
    summary = out[out.index("Summary") :]
    assert [line.strip() for line in summary if not line.startswith("    ")][1:] == [
        "Ann",
        "Bob",
        "Cid",
    ]
    assert any(line.strip().startswith("win chance lost") for line in summary)


def test_all_lists_every_reviewed_decision(tmp_path: Path) -> None:
    _, errors = run(tmp_path, finished_record())
    _, every = run(tmp_path, finished_record(), "--all")
    count = sum(line.startswith("  turn ") for line in every)
    assert count > sum(line.startswith("  turn ") for line in errors)
    assert any(line.endswith("  best") for line in every)


def test_json_holds_the_whole_review(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _ = run(tmp_path, finished_record(), "--json")
    data = json.loads(capsys.readouterr().out)
    assert status == 0
    assert data["players"] == ["Ann", "Bob", "Cid"]
    decision = data["decisions"][0]
    assert set(decision) >= {"played", "best", "worms_lost", "win_lost", "grade", "choices"}
    assert sum(player["decisions"] for player in data["summary"]) == len(data["decisions"])
    assert all(set(roll) >= {"roll", "worms", "win"} for roll in data["rolls"])


def test_an_unfinished_game_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = finished_record()
    unfinished = GameRecord(
        record.game, record.options, record.rules_version, record.actions[:30], record.seed
    )
    status, out = run(tmp_path, unfinished)
    assert status == 2 and not out
    assert "not finished" in capsys.readouterr().err


def test_an_unfinished_riffraff_game_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = make_game("riffraff", {"players": 2})
    status, _ = run(tmp_path, GameRecord.start(game))
    assert status == 2
    assert "not finished" in capsys.readouterr().err


@pytest.mark.slow
def test_a_bot_that_is_not_careful_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _ = run(tmp_path, riffraff_record(), "--bot", "random", "--trials", "2")
    assert status == 2
    assert "not a careful bot" in capsys.readouterr().err


@pytest.mark.slow
def test_a_riffraff_game_is_reviewed_against_careful(tmp_path: Path) -> None:
    status, out = run(tmp_path, riffraff_record(), "--trials", "2", "--bot", LIGHT_CAREFUL)
    assert status == 0
    assert out[0].startswith("Riff Raff review · 2 players · risk (the chance of dropping")
    listed = [line for line in out if line.startswith("  action ")]
    assert listed and not any(line.endswith("  best") for line in listed)
    assert any("% risk)" in line for line in listed)
    summary = out[out.index("Summary") :]
    assert any(line.strip().startswith("placements ") for line in summary)


def test_too_few_trials_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _ = run(
        tmp_path, GameRecord.start(make_game("riffraff", {"players": 2})), "--trials", "1"
    )
    assert status == 2
    assert "--trials must be at least 2" in capsys.readouterr().err


def karolinchen_record() -> GameRecord:
    game = make_game("karolinchen", {"players": 2})
    bots = [make_bot(game, name, seat) for seat, name in enumerate(["random", "expert"])]
    return play_match(game, bots, 4, ("Ann", "Bob")).record


def test_a_karolinchen_game_is_reviewed_against_the_expert(tmp_path: Path) -> None:
    status, out = run(tmp_path, karolinchen_record(), "--rollouts", "20", "--all")
    assert status == 0
    assert out[0].startswith("Karolinchen review · 2 players · win chances by 20 seeded")
    listed = [line for line in out if line.startswith("  action ")]
    assert listed and all(", expert lay " in line for line in listed)
    assert "  Ann" in out or "  Ann (won)" in out


def test_too_few_rollouts_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _ = run(tmp_path, karolinchen_record(), "--rollouts", "1")
    assert status == 2
    assert "--rollouts must be at least 2" in capsys.readouterr().err
