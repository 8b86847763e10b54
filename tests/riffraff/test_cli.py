"""Riff Raff in the terminal and its commands: drop, render, a scripted person."""

from __future__ import annotations

import json

import pytest

from spieltisch.cli.main import main
from spieltisch.cli.play import PlaySession
from spieltisch.cli.riffraff_cmds import png_bytes
from spieltisch.cli.terminal import Console
from spieltisch.core import make_game


def test_drop_prints_the_settled_tilt_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["riffraff", "drop", "--piece", "box", "--area", "5", "--u", "0.8", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["on_board"] is True and report["rests_on_area"] == 5
    assert -15 < report["roll"] < -3


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
    assert "You place box 3 u=0.5 v=0 yaw=90 up" in text
