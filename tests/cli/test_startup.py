"""The command starts fast: argument parsing loads no heavy library, and a command loads only
what it runs (checked in fresh interpreters, whose modules are what the command imported)."""

from __future__ import annotations

import json
import subprocess
import sys

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


def loaded_after(code: str) -> set[str]:
    """The top-level modules a fresh interpreter holds after running `code`."""
    script = f"import sys, json\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_parser_and_help_load_no_heavy_library() -> None:
    code = "from spieltisch.cli.main import build_parser\nbuild_parser().format_help()"
    assert not loaded_after(code) & set(HEAVY)


def test_solve_loads_no_library_it_does_not_use() -> None:
    code = (
        "import contextlib, io\nfrom spieltisch.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['pickomino', 'solve', '--json'])"
    )
    loaded = loaded_after(code)
    assert "spieltisch.games.pickomino.solver" in loaded
    assert "numpy" in loaded  # the solver's own
    assert not loaded & (set(HEAVY) - {"numpy"})
    assert "spieltisch.analysis.winner_training" not in loaded


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
