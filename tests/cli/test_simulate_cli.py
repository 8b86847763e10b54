"""`spieltisch simulate` on the command line: JSON, the table, errors and Ctrl-C."""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Sequence

import pytest

from spieltisch.cli import simulate
from spieltisch.cli.main import main

SEATS = ["--seats", "random,greedy"]


def parser() -> argparse.ArgumentParser:
    """The `simulate` sub-command on its own, as `spieltisch` registers it."""
    root = argparse.ArgumentParser(prog="spieltisch")
    simulate.add_parser(root.add_subparsers(dest="command", required=True))
    return root


def call(argv: Sequence[str]) -> int:
    args = parser().parse_args(["simulate", *argv])
    return int(args.run(args))


def test_json_has_exactly_the_report_fields(capsys: pytest.CaptureFixture[str]) -> None:
    status = call(["pickomino", *SEATS, "--games", "6", "--seed", "3", "--json"])
    out, err = capsys.readouterr()
    assert status == 0
    assert err == ""  # no progress bar in JSON mode
    report = json.loads(out)
    fields = ["game", "level", "games", "seed", "seats", "mean_decision_runs", "stats"]
    assert list(report) == fields
    assert (report["game"], report["games"], report["seed"]) == ("pickomino", 6, 3)
    assert report["level"] == "dice"  # a random seat needs every roll
    assert [list(seat) for seat in report["seats"]] == [
        ["seat", "bot", "wins", "win_rate", "ci95"]
    ] * 2
    assert [seat["bot"] for seat in report["seats"]] == ["random", "greedy"]
    assert set(report["stats"]) >= {"mean_worms", "fail_rate", "steals_per_game"}


def test_same_arguments_same_output_whatever_the_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["pickomino", "--seats", "greedy,greedy", "--games", "12", "--json"]
    outputs = []
    for jobs in ("1", "2", "1"):
        assert call([*argv, "--jobs", jobs]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] == outputs[2]


def test_turn_level_unless_dice_are_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["pickomino", "--seats", "optimal,greedy", "--games", "4", "--json"]
    assert call(argv) == 0
    assert json.loads(capsys.readouterr().out)["level"] == "turn"
    assert call([*argv, "--dice"]) == 0
    assert json.loads(capsys.readouterr().out)["level"] == "dice"
    assert call(argv[:-1]) == 0
    assert "whole turns drawn" in capsys.readouterr().out


def test_options_and_start_seat(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["pickomino", *SEATS, "--games", "4", "--json", "--option", "short_game=true"]
    for start in ("rotate", "random", "1"):
        assert call([*argv, "--start-seat", start]) == 0
        assert json.loads(capsys.readouterr().out)["games"] == 4


def test_table_with_speed_and_no_bar_in_a_log(capsys: pytest.CaptureFixture[str]) -> None:
    assert call(["pickomino", *SEATS, "--games", "5"]) == 0
    out, err = capsys.readouterr()
    assert "win rate" in out and "greedy" in out and "mean worms" in out
    assert "games/s" in out.splitlines()[-1]
    assert "games" not in err  # stderr is no terminal here: no redrawn bar lines


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert call(["pickomino", *SEATS, "--games", "5"]) == 0
    assert "5/5 games" in terminal.getvalue()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seats", "random,wizard"], "unknown seat 'wizard'"),
        (["--seats", "random,greedy", "--option", "colour=red"], "unknown option colour"),
        (["--seats", "random,greedy", "--option", "short_game"], "not KEY=VALUE"),
        (["--seats", "random,greedy", "--games", "0"], "games must be at least 1"),
        (["--seats", "random,greedy", "--jobs", "0"], "jobs must be at least 1"),
        (["--seats", "random,greedy", "--start-seat", "5"], "start_seat"),
        (["--seats", "random,greedy", "--start-seat", "last"], "'rotate', 'random'"),
        (["--seats", "greedy"], "2 to 7 seats"),
    ],
)
def test_bad_input_is_explained_with_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert call(["pickomino", *argv, "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("spieltisch: error:") and message in err


def test_ctrl_c_stops_with_status_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("spieltisch.analysis.simulate.run_simulation", interrupted)
    assert call(["pickomino", *SEATS, "--games", "50"]) == 130
    out, err = capsys.readouterr()
    assert out == ""
    assert "interrupted after 0 of 50 games" in err


def test_through_the_spieltisch_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "pickomino", *SEATS, "--games", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 3
