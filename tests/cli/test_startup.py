"""The command starts fast: argument parsing loads no heavy library, and a command loads only
what it runs (checked in fresh interpreters, whose modules are what the command imported)."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys

import pytest

from spieltisch.cli.main import COMMAND_MODULES, build_parser
from spieltisch.games import GAME_PACKAGES

HEAVY = (
    "numpy",
    "scipy",
    "mujoco",
    "fastapi",
    "sqlalchemy",
    "alembic",
    "uvicorn",
    "matplotlib",
    "ray",
)
NOT_FOR_PARSING = (
    "spieltisch.bots",
    "spieltisch.cli.present",
    "spieltisch.cli.riffraff_present",
    "spieltisch.cli.terminal",
    "spieltisch.analysis.simulate",
    "spieltisch.analysis.tournament",
    "spieltisch.analysis.report",
    "spieltisch.analysis.review",
)
"""Spieltisch modules that building the parser must not load: presenters, bots, analyses."""
SOLVE = (
    "import contextlib, io\nfrom spieltisch.cli.main import main\n"
    "with contextlib.redirect_stdout(io.StringIO()):\n"
    "    main(['pickomino', 'solve', '--json'])"
)


def loaded_after(code: str) -> set[str]:
    """The top-level modules a fresh interpreter holds after running `code`."""
    script = f"import sys, json\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def game_modules(loaded: set[str]) -> set[tuple[str, str]]:
    """(game, module) of each loaded module of a game package, e.g. ('pickomino', 'rules')."""
    parts = (name.split(".") for name in loaded if name.startswith("spieltisch.games."))
    return {(part[2], part[3]) for part in parts if len(part) >= 4}


def test_parser_and_help_load_no_heavy_library() -> None:
    code = "from spieltisch.cli.main import build_parser\nbuild_parser().format_help()"
    assert not loaded_after(code) & set(HEAVY)


def test_parser_loads_no_game_rules_bots_or_presenters() -> None:
    code = "from spieltisch.cli.main import build_parser\nbuild_parser().format_help()"
    loaded = loaded_after(code)
    assert not {name for name in loaded if name.startswith(NOT_FOR_PARSING)}
    assert {module for _, module in game_modules(loaded)} <= {"data"}


def test_solve_loads_of_the_games_only_the_solver_and_its_state() -> None:
    loaded = loaded_after(SOLVE)
    assert not {name for name in loaded if name.startswith(NOT_FOR_PARSING)}
    data = {(game, "data") for game in GAME_PACKAGES}
    assert game_modules(loaded) - data == {("pickomino", "solver"), ("pickomino", "state")}


def test_solve_loads_of_the_commands_only_its_own() -> None:
    loaded = {name for name in loaded_after(SOLVE) if name.startswith("spieltisch.cli.")}
    assert loaded == {f"spieltisch.cli.{name}" for name in ("main", "common", "pickomino_cmds")}


def test_solve_loads_neither_records_nor_the_registry_nor_pathlib() -> None:
    unused = {"pathlib", "spieltisch.core.record", "spieltisch.core.registry"}
    assert not loaded_after(SOLVE) & unused


def commands_of(parser: argparse.ArgumentParser) -> list[str]:
    (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(commands.choices)


def test_each_command_is_added_by_its_module_in_the_order_of_the_help() -> None:
    assert commands_of(build_parser()) == list(COMMAND_MODULES)
    for name in COMMAND_MODULES:
        assert commands_of(build_parser(name)) == [name]
    assert commands_of(build_parser("--help")) == list(COMMAND_MODULES)


@pytest.mark.parametrize(
    "words",
    [
        ["pickomino", "solve", "--json", "--grill", "21-30", "--tops", "31"],
        ["play", "pickomino", "--seats", "greedy,optimal"],
        ["simulate", "karolinchen", "--seats", "random,greedy", "--games", "3"],
    ],
)
def test_a_command_alone_parses_its_words_as_every_command_does(words: list[str]) -> None:
    assert vars(build_parser(words[0]).parse_args(words)) == vars(build_parser().parse_args(words))


def test_solve_loads_no_library_it_does_not_use() -> None:
    loaded = loaded_after(SOLVE)
    assert "spieltisch.games.pickomino.solver" in loaded
    assert "numpy" in loaded  # the solver's own
    assert not loaded & (set(HEAVY) - {"numpy"})
    assert "spieltisch.analysis.winner_training" not in loaded


def blas_threads_after_solve(asked: str | None) -> str:
    """OPENBLAS_NUM_THREADS in a fresh interpreter after a solve, started with `asked`."""
    env = {name: value for name, value in os.environ.items() if name != "OPENBLAS_NUM_THREADS"}
    env |= {"OPENBLAS_NUM_THREADS": asked} if asked else {}
    code = f"{SOLVE}\nimport os\nprint(os.environ['OPENBLAS_NUM_THREADS'])"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_solve_starts_numpy_with_one_blas_thread_unless_the_user_sets_more() -> None:
    assert blas_threads_after_solve(None) == "1"
    assert blas_threads_after_solve("2") == "2"


def test_solve_json_times_the_solve_and_its_dynamic_programming() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "spieltisch", "pickomino", "solve", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(done.stdout)
    assert 0 < report["solve_ms"] <= report["seconds"] * 1000


def test_games_are_named_before_they_are_loaded() -> None:
    code = "from spieltisch.core.registry import game_names\nprint(game_names())"
    loaded = loaded_after(code)
    assert not {m for m in loaded if m.startswith("spieltisch.games.")}


def test_each_game_package_registers_the_game_of_its_name() -> None:
    from spieltisch.core.registry import game_class, game_names

    assert game_names() == ["karolinchen", "pickomino", "riffraff"]
    for name in game_names():
        assert game_class(name).name == name


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_a_game_package_gives_each_name_it_lists_and_no_other(game: str) -> None:
    package = importlib.import_module(f"spieltisch.games.{game}")
    assert [name for name in package.__all__ if not hasattr(package, name)] == []
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        _ = package.Nothing
