"""Output to a reader that has gone (`spieltisch ... | head`) ends quietly, as Unix tools do."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from spieltisch.core.record import save_record
from tests.cli.test_replay import finished_record

COMMANDS = [
    ["pickomino", "odds", "--json"],
    ["pickomino", "solve", "--json"],
    ["simulate", "pickomino", "--seats", "greedy,greedy", "--games", "20", "--json"],
]


def run_into_closed_pipe(args: list[str]) -> tuple[int, str]:
    """Run the command with its standard output already closed by the reader."""
    process = subprocess.Popen(
        [sys.executable, "-m", "spieltisch", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    error = process.stderr.read().decode()
    return process.wait(timeout=120), error


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_reader_that_left_ends_the_command_quietly(args: list[str]) -> None:
    status, error = run_into_closed_pipe(args)
    assert status in (0, 141) and "Traceback" not in error and "Broken" not in error, error


def test_a_replay_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_record(finished_record(), path)
    status, error = run_into_closed_pipe(["replay", str(path)])
    assert status in (0, 141) and "Traceback" not in error, error
