"""Karolinchen at the terminal and in simulations: commentary, colours, pace, statistics."""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest

from spieltisch.analysis.karolinchen_stats import karolinchen_collect
from spieltisch.bots import make_bot, play_match
from spieltisch.cli.main import main
from spieltisch.cli.play import PlaySession, seat_names
from spieltisch.cli.present import KarolinchenPresenter, presenter_for
from spieltisch.cli.terminal import Console, Style
from spieltisch.core.record import load_record, replay, replay_states
from spieltisch.games.karolinchen import Phase
from tests.karolinchen.helpers import game_for, position

NAMES = ["Lino", "Heidi", "Nick", "Sophia"]


def example_round_lines() -> list[str]:
    game = game_for(4)
    presenter = presenter_for(game, NAMES)
    state = position(["g", "b", "o", "r"], phase=Phase.ROLL, seat=0)
    lines = []
    for text in ("=gggbby", "lay y", "=r"):
        action = game.parse_action(state, text)
        after = game.apply(state, action)
        lines += [line.text for line in presenter.log(state, action, after)]
        state = after
    return lines


def test_every_step_of_the_example_round_is_told() -> None:
    assert example_round_lines() == [
        "Lino's roll: [G] [G] [G] [Y] [B] [B]",
        "Lino takes [G][G][G] for the gooseberries",
        "— Heidi: blueberry (blue) —",
        "Heidi takes [B] for the blueberry",
        "Heidi's blueberry card is full!",
        "Heidi lays the mirabelles card (4 fruits)",
        "Heidi takes [Y] for the mirabelles",
        "— Nick: apricots (orange) —",
        "No orange die in the middle: Nick rolls the one die.",
        "Nick's roll: [R]",
        "No orange die for Nick's card.",
        "— Sophia: cherries (red) —",
        "Sophia takes [R] for the cherries",
        "All dice gone: time to eat! Fruits eaten: Lino 3, Heidi 2, Nick 0, Sophia 1.",
        "Heidi's worm grows: the blueberry card is all eaten.",
        "— Lino: gooseberries (green) —",
        "Lino rolls all 6 dice.",
    ]


def test_dice_are_coloured_only_when_colours_are_on() -> None:
    game = game_for(2)
    state = position(["o", "r"], middle="ggyyb", covered=(2, 0), seat=0)
    presenter = presenter_for(game, ["You", "greedy"])
    assert isinstance(presenter, KarolinchenPresenter)
    plain = presenter.board(state)
    assert "\033[" not in plain
    assert "Middle   [G] [G] [Y] [Y] [B]" in plain
    presenter.style = Style(True)
    coloured = presenter.board(state)
    assert "\033[1;32m[G]\033[0m" in coloured  # green, with its letter for colour-blind eyes
    assert "\033[1;38;5;208m" in presenter.dice((0, 0, 0, 0, 1, 0))  # orange


def test_prompt_shows_what_each_card_takes_now() -> None:
    game = game_for(2)
    state = position(["o", "r"], middle="ggyyb", covered=(2, 0), seat=0)
    prompt = presenter_for(game, ["You", "greedy"]).prompt(state, 0)
    assert (
        prompt == "lay r cherries, g gooseberries +2, y mirabelles +2, p plums or b blueberry +1 > "
    )


class Script:
    def __init__(self, answer: Callable[[str], str]) -> None:
        self.answer = answer
        self.out: list[str] = []
        self.sleeps: list[float] = []
        self.console = Console(self.answer, self.out.append, self.sleeps.append, pace=0.5)


def test_a_person_plays_a_whole_game_at_a_readable_pace(tmp_path: Path) -> None:
    game = game_for(3)
    seats = ["you", "greedy", "expert"]
    helper = make_bot(game, "greedy", 1)
    holder: dict[str, PlaySession] = {}
    typos: list[str] = []

    def answer(prompt: str) -> str:
        table = holder["table"]
        if not typos:
            typos.append(prompt)
            return "lay kiwi"
        return game.format_action(helper.choose(table.state))

    script = Script(answer)
    save = tmp_path / "game.json"
    table = PlaySession(game, seats, seat_names(seats), script.console, 9, save)
    holder["table"] = table
    assert table.play() == 0
    text = "\n".join(script.out)
    assert "  'kiwi' is not a fruit; fruits are r g y p o b" in text
    assert "time to eat!" in text
    assert "Final scores" in text
    assert any(line.startswith("You lay the ") for line in script.out)
    assert " of 21 fruits" in text
    assert script.sleeps and all(s > 0 for s in script.sleeps)  # every step gets its moment
    record = load_record(save)
    assert replay(record) == table.state
    assert len(game.winners(table.state)) == 1


def test_simulate_reports_eating_phases_and_the_first_players_wins(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["simulate", "karolinchen", "--seats", "greedy,random", "--games", "40", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    stats = report["stats"]
    assert set(stats) >= {"mean_eating_phases", "first_player_win_rate"}
    assert 2 <= stats["mean_eating_phases"] <= 20
    assert 0 <= stats["first_player_win_rate"] <= 1
    assert len(stats["mean_fruits"]) == 2 and max(stats["mean_fruits"]) <= 21


def test_stats_of_one_game_count_what_happened() -> None:
    game = game_for(2, start_seat=1)
    match = play_match(game, [make_bot(game, "greedy", 1), make_bot(game, "greedy", 2)], 3)
    states = replay_states(match.record)
    numbers = karolinchen_collect(game, states, list(match.actions))
    eatings = sum(sum(after.covered) < sum(before.covered) for before, after in pairwise(states))
    assert numbers["eating_phases"] == eatings
    assert numbers["turns"] == states[-1].turn + 1
    assert numbers["first_player_wins"] == int(game.winners(states[-1]) == (1,))
    assert numbers["fruits"] == list(game.scores(states[-1]))


def test_a_card_letter_that_is_also_a_command_lays_the_card() -> None:
    game = game_for(2)
    state = position(["o", "r"], middle="ggyyb", covered=(2, 0), seat=0)
    answers = iter(["b", "quit", ""])
    script = Script(lambda _prompt: next(answers))
    table = PlaySession(game, ["you", "greedy"], seat_names(["you", "greedy"]), script.console, 1)
    table.state = state
    table.play()
    assert table.record.actions[0] == "lay b"  # blueberry, not the board


def test_the_replay_tells_the_story_of_each_roll() -> None:
    game = game_for(2)
    bots = [make_bot(game, "greedy", seat) for seat in range(2)]
    record = play_match(game, bots, 3, ("Ann", "Bob")).record
    lines = presenter_for(game, ["Ann", "Bob"]).summary(replay_states(record), record.actions)
    assert lines[0].startswith("   1 · =") and "The dice are rolled into the middle" in lines[0]
    assert all("chance:" not in line for line in lines)
    assert any("takes [" in line for line in lines)


def test_the_view_tells_the_fruit_of_every_laid_place_so_covered_dice_keep_their_colour() -> None:
    game = game_for(2)
    state = position(["gb", "r"], middle="yy", covered=(4, 0), seat=0)
    worm = game.view(state, 0)["worms"][0]
    assert worm["fruits"] == "gggggb"  # five gooseberries, then the blueberry
    assert worm["current"] == "b"  # the card's colour is not the colour of every covered die
