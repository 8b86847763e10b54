"""Every `spieltisch` command shown in the README runs, so no example can break silently.

The commands are read from the README's `sh` blocks and run as shown in a temporary folder,
with these changes only: long runs play fewer games (`--games` at most `FEWER_GAMES`),
`train-winner` writes its model to the temporary folder (not over the shipped one), `serve`
gets a free port and a temporary database and is stopped once it answers (a site's `serve`,
with `--broker`, gets the test run's PostgreSQL and Redis and at most `MOST_WORKERS`
workers), and `play` reads no input (the game is left unfinished). Files a command reads
(`game.json`) are made first.
"""

from __future__ import annotations

import os
import random
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from spieltisch.core import CHANCE, make_game
from spieltisch.core.record import GameRecord, save_record
from tests.cli.test_replay import finished_record
from tests.server.live import free_port
from tests.server.sites import need_redis, shared_db

README = Path(__file__).resolve().parents[1] / "README.md"
FEWER_GAMES = {"riffraff": 1, "tournament": 2, "train-winner": 30}
"""The most games each kind of long run plays here (others: 4)."""
RUN_TIMEOUT = 600
MOST_WORKERS = 2


def readme_commands() -> list[str]:
    """The `spieltisch` lines of the README's sh blocks, without their comments."""
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    lines = [line.split("  #")[0].strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if re.match(r"(MUJOCO_GL=\w+ )?spieltisch ", line)]


def as_run_here(command: str, folder: Path) -> tuple[list[str], dict[str, str]]:
    """The command's words and environment, changed only as the module says."""
    env = dict(os.environ)
    words = shlex.split(command.replace("[", "").replace("]", ""))
    while "=" in words[0]:
        key, value = words.pop(0).split("=", 1)
        env[key] = value
    words = [sys.executable, "-m", "spieltisch", *words[1:]]
    if "--games" in words:
        at = words.index("--games") + 1
        kind = next((k for k in FEWER_GAMES if k in words), "")
        words[at] = str(min(int(words[at]), FEWER_GAMES.get(kind, 4)))
    if "train-winner" in words:
        words += ["--out", str(folder / "model.npz")]
    if "--broker" in words:
        words[words.index("--broker") + 1] = need_redis()
        words[words.index("--db") + 1] = shared_db(folder)
    elif "--db" in words:
        words[words.index("--db") + 1] = f"sqlite:///{folder / 'tables.sqlite3'}"
    if "--workers" in words:
        at = words.index("--workers") + 1
        words[at] = str(min(int(words[at]), MOST_WORKERS))
    return words, env


def write_record(command: str, path: Path) -> None:
    """A record for commands that read one: Riff Raff's first moves, else a Pickomino game."""
    if "riffraff" not in command:
        save_record(finished_record(), path)
        return
    game, rng = make_game("riffraff", {"players": 2}), random.Random(1)
    state, actions = game.new_state(), list[Any]()
    while len(actions) < 12:
        mover = game.to_move(state)
        action = game.sample_chance(state, rng) if mover == CHANCE else game.legal_actions(state)[0]
        actions.append(game.format_action(action))
        state = game.apply(state, action)
    save_record(
        GameRecord(
            "riffraff", game.options_json(), game.rules_version, tuple(actions), 1, ("A", "B"), {}
        ),
        path,
    )


def serve_until_it_answers(words: list[str], env: dict[str, str], folder: Path) -> None:
    port = free_port()
    if "--port" in words:
        words[words.index("--port") + 1] = str(port)
    else:
        words += ["--port", str(port)]
    words += ["--data-dir", str(folder / "data")]
    process = subprocess.Popen(words, cwd=folder, env=env, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        pytest.fail(f"'{' '.join(words)}' did not answer (exit status {process.poll()})")
    finally:
        process.terminate()
        process.wait(timeout=30)


SLOW_COMMANDS = ("serve", "db", "tournament", "train-winner", "riffraff", "--plot")
"""Commands that start a server or run many games or the physics: seconds each."""


def command_marks(command: str) -> list[pytest.MarkDecorator]:
    words = command.split()
    marks = [pytest.mark.workers] if "--broker" in words else []
    return [*marks, pytest.mark.slow] if any(w in SLOW_COMMANDS for w in words) else marks


@pytest.mark.parametrize(
    "command", [pytest.param(c, marks=command_marks(c)) for c in readme_commands()]
)
def test_the_readme_command_runs(command: str, tmp_path: Path) -> None:
    words, env = as_run_here(command, tmp_path)
    if "game.json" in words and "--save" not in words:
        write_record(command, tmp_path / "game.json")
    if "serve" in words:
        serve_until_it_answers(words, env, tmp_path)
        return
    done = subprocess.run(
        words,
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=RUN_TIMEOUT,
    )
    assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"


def test_the_readme_shows_commands() -> None:
    commands = readme_commands()
    assert len(commands) > 15
    assert any("pickomino solve" in c for c in commands)
