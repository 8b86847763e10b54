"""The terminal's words: the help names every way to set worms aside, and Riff Raff's pieces
are called what the web client calls them."""

from __future__ import annotations

import re
from dataclasses import replace

from spieltisch.cli.present import presenter_for
from spieltisch.core.registry import make_game
from spieltisch.games.riffraff.data import PIECE_NAMES, PIECE_WORDS, piece_index

NOTATION_ONLY = re.compile(r"\b(flacon|box)(es)?\b")
"""The notation's names of the bottle and the crate, which people never read."""


def test_the_pickomino_help_says_that_w_or_6_sets_aside_worms() -> None:
    presenter = presenter_for(make_game("pickomino"), ["You", "bot"])
    help_text = "\n".join(presenter.help_lines())
    assert re.search(r"\bw or 6\b.*\bworms\b", help_text), help_text


def test_riffraff_pieces_are_bottles_and_crates_as_on_the_web() -> None:
    assert PIECE_WORDS[PIECE_NAMES.index("flacon")] == "bottle"
    assert PIECE_WORDS[PIECE_NAMES.index("box")] == "crate"
    for word, name in zip(PIECE_WORDS, PIECE_NAMES, strict=True):
        assert piece_index(word) == piece_index(name)  # what is shown can be typed


def test_riffraff_terminal_text_never_says_flacon_or_box() -> None:
    game = make_game("riffraff")
    presenter = presenter_for(game, ["You", "bot"])
    state = game.new_state()
    shown = "\n".join([*presenter.help_lines(), presenter.board(state)])
    assert "bottle" in shown and "crate" in shown, shown
    assert not NOTATION_ONLY.search(shown), shown


def test_a_pickomino_stack_of_one_tile_reads_1_tile_1_worm() -> None:
    game = make_game("pickomino")
    state = replace(game.new_state(), stacks=((21,), (21, 25)))
    lines = game.render(state).splitlines()
    one = next(line for line in lines if "seat 0" in line)
    two = next(line for line in lines if "seat 1" in line)
    assert re.search(r"\b1 tile,\s+1 worm$", one), one
    assert re.search(r"\b2 tiles,\s+3 worms$", two), two
