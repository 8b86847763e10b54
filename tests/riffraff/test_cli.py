"""Riff Raff in the terminal and its commands: drop, render, a scripted person, pictures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spieltisch.cli.main import main
from spieltisch.cli.play import PlaySession
from spieltisch.cli.riffraff_cmds import png_bytes
from spieltisch.cli.terminal import Console
from spieltisch.core import make_game
from spieltisch.games.riffraff.state import RiffRaffState, Settled


def test_drop_prints_the_settled_tilt_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["riffraff", "drop", "--piece", "box", "--area", "5", "--u", "0.8", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["on_board"] is True and report["rests_on_area"] == 5
    assert -6 < report["roll"] < -2  # the stiffer ship heels about 3° (u 0.9: 3.6°)


def test_drop_refuses_a_footprint_across_the_mast(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["riffraff", "drop", "--piece", "plank", "--area", "5", "--u", "0.1"]) == 2
    assert "past the mast" in capsys.readouterr().err


def test_png_bytes_writes_a_png_header() -> None:
    import numpy as np

    data = png_bytes(np.zeros((2, 3, 3), dtype=np.uint8))
    assert (
        data.startswith(b"\x89PNG\r\n\x1a\n")
        and b"IHDR" in data
        and data.endswith(b"IEND\xaeB`\x82")
    )


def test_a_person_plays_a_card_unseen_and_places_a_piece() -> None:
    game = make_game("riffraff", {"players": 2, "start_seat": 1})
    placements = ["place plank u=0.1", "box u=0.5 yaw=90"]
    out: list[str] = []

    cards = ["card 3"]

    def read(prompt: str) -> str:
        if "card face down" in prompt and cards:
            return cards.pop()
        if "captain" in prompt:
            return "captain 1"
        if "one or two" in prompt:
            return "one"
        if "place a piece" in prompt and placements:
            return placements.pop(0)
        raise EOFError

    console = Console(read, out.append, lambda _: None)
    PlaySession(game, ["random", "you"], ["bot", "You"], console, seed=5).play()
    text = "\n".join(out)
    assert "bot lays a card face down" in text
    assert "You lay a card face down" in text
    assert "Cards: bot" in text
    assert "into another area" in text  # the plank was refused with the reason
    assert "You place crate 3 u=0.5 v=0 yaw=90 up" in text


def _scripted_person(out: list[str]) -> Console:
    """A person who plays card 3, names captain 1, announces one piece and places a box."""
    answers = {"card face down": ["card 3"], "one or two": ["one"], "place a piece": ["box u=0.5"]}

    def read(prompt: str) -> str:
        if "captain" in prompt:
            return "captain 1"
        for words, left in answers.items():
            if words in prompt and left:
                return left.pop()
        raise EOFError

    return Console(read, out.append, lambda _: None)


def test_the_picture_is_drawn_after_each_placement_settles() -> None:
    game = make_game("riffraff", {"players": 2, "start_seat": 1})
    settled: list[int] = []

    def picture(action: object, state: RiffRaffState) -> str | None:
        if isinstance(action, Settled):
            settled.append(len(state.board.pieces))
        return None

    out: list[str] = []
    PlaySession(
        game, ["random", "you"], ["bot", "You"], _scripted_person(out), 5, picture=picture
    ).play()
    assert "You place crate 3 u=0.5 v=0 yaw=0 up" in "\n".join(out)
    assert settled and settled[-1] >= 1  # drawn with the box placed


def test_a_failing_picture_is_told_once_and_not_tried_again() -> None:
    game = make_game("riffraff", {"players": 2, "start_seat": 1})
    calls: list[object] = []

    def picture(action: object, state: RiffRaffState) -> str | None:
        calls.append(action)
        return "no GL here"

    out: list[str] = []
    PlaySession(
        game, ["random", "you"], ["bot", "You"], _scripted_person(out), 5, picture=picture
    ).play()
    assert len(calls) == 1
    assert sum("no more pictures: no GL here" in line for line in out) == 1


def _offscreen_gl_problem() -> str | None:
    """Why MuJoCo cannot draw offscreen here (None: it can)."""
    probe = (
        "import pathlib, sys, tempfile; from spieltisch.cli.riffraff_cmds import write_png; "
        "from spieltisch.games.riffraff.board import REST; "
        "sys.exit(write_png(REST, pathlib.Path(tempfile.mkdtemp()) / 'probe.png', 8, 8) or 0)"
    )
    env = {**os.environ, "MUJOCO_GL": "osmesa"}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    return None if done.returncode == 0 else (done.stderr.strip().splitlines() or ["?"])[-1]


@pytest.mark.slow
def test_play_png_writes_the_ship_after_the_placements(tmp_path: Path) -> None:
    problem = _offscreen_gl_problem()
    if problem is not None:
        pytest.skip(
            f"no offscreen OpenGL for MuJoCo (Debian: apt-get install libosmesa6): {problem}"
        )
    picture = tmp_path / "ship.png"
    command = ["play", "riffraff", "--seats", "random,random", "--seed", "3", "--fast"]
    done = subprocess.run(
        [sys.executable, "-m", "spieltisch", *command, "--png", str(picture)],
        capture_output=True,
        text=True,
        env={**os.environ, "MUJOCO_GL": "osmesa"},
        check=True,
    )
    assert "no more pictures" not in done.stdout
    assert picture.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_play_png_is_for_riffraff_only(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "pickomino", "--seats", "random,random", "--png", "x.png"]) == 2
    assert "--png draws the ship of riffraff" in capsys.readouterr().err


# --- the terminal's words ------------------------------------------------------------------------
def test_the_terminal_tells_who_is_captain_what_fell_and_where_it_went() -> None:
    from spieltisch.cli.present import YOU
    from spieltisch.cli.riffraff_present import RiffRaffPresenter
    from spieltisch.games.riffraff import Board, Catch, Fall, FirstCaptain, Place, Placement

    game = make_game("riffraff", {"players": 2, "start_seat": "random"})
    words = RiffRaffPresenter(game, ["Ada", YOU])
    start = game.new_state()
    first = game.apply(start, FirstCaptain(1))
    assert (
        words.log(start, FirstCaptain(1), first)[0].text
        == "You are the first captain (drawn by lot)"
    )
    state = game.apply(first, game.read_action(first, "card 3"))  # Ada
    state = game.apply(state, game.read_action(state, "card 9"))  # You: captain, area 9
    assert state.active == 1
    placing = game.apply(state, Place(Placement(1, 9, 1.0)))  # seat 1 (You) loads a barrel
    outcome = Settled(1, Board(placing.board.joints, ()), (Fall(1, 0.7, 0.4),), 0.0)
    falling = game.apply(placing, outcome)
    fell = words.log(placing, outcome, falling)[0].text
    assert fell.endswith("falling: barrel (1) from area 9")
    lines = [line.text for line in words.log(falling, Catch(()), game.apply(falling, Catch(())))]
    assert lines == ["  into your supply: barrel"]


def test_a_wrong_placement_names_the_faces_and_a_wrong_card_all_ten() -> None:
    from spieltisch.core import IllegalAction

    game = make_game("riffraff", {"players": 2, "start_seat": 0})
    state = game.new_state()
    with pytest.raises(IllegalAction) as refused:
        game.read_action(state, "banana")
    assert all(f"card {n}" in str(refused.value) for n in range(1, 11))
    state = game.apply(
        game.apply(state, game.read_action(state, "card 9")), game.read_action(state, "card 3")
    )
    with pytest.raises(IllegalAction, match="faces: up, side, end"):
        game.read_action(state, "box u=0.5 sideways")
    assert game.format_action(game.read_action(state, "box u=0.5 yaw=270")).endswith("yaw=-90 up")
