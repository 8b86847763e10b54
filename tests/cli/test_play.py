"""The play command: whole games with a scripted person, mistakes, confirmations, saving."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from spieltisch.bots.base import make_bot
from spieltisch.cli import play
from spieltisch.cli.play import PlaySession, bot_seeds, seat_names
from spieltisch.cli.terminal import Console, Style, colour_wanted
from spieltisch.core.errors import InvalidOptions
from spieltisch.core.record import load_record, replay, replay_states
from spieltisch.core.registry import game_names, make_game
from spieltisch.games.pickomino import Phase, PickominoState
from spieltisch.games.pickomino.data import TILES


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    play.add_parser(parser.add_subparsers())
    return parser.parse_args(["play", *argv])


class Script:
    """A console whose person answers with `answer(prompt)`; output is collected."""

    def __init__(self, answer: Callable[[str], str]) -> None:
        self.answer = answer
        self.out: list[str] = []
        self.prompts: list[str] = []
        self.sleeps: list[float] = []
        self.console = Console(self.read, self.out.append, self.sleeps.append)

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.answer(prompt)

    @property
    def text(self) -> str:
        return "\n".join(self.out)


def lines(answers: Sequence[str]) -> Callable[[str], str]:
    """Answers from a list, then the end of input (Ctrl-D)."""
    queue = list(answers)

    def answer(prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    return answer


def session(
    seats: Sequence[str], answer: Callable[[str], str], seed: int = 5, **kwargs: Any
) -> tuple[PlaySession, Script]:
    game = make_game("pickomino", {"players": len(seats), **kwargs.pop("options", {})})
    script = Script(answer)
    script.console.pace = 0
    return PlaySession(game, seats, seat_names(seats), script.console, seed, **kwargs), script


def position(**fields: Any) -> PickominoState:
    """A two-seat position in the decide phase; `kept` as symbols, e.g. kept='555w'."""
    kept = [0] * 6
    for symbol in fields.pop("kept", ""):
        kept["12345w".index(symbol)] += 1
    stacks = fields.pop("stacks", ((), ()))
    held = {tile for stack in stacks for tile in stack}
    grill = fields.pop("grill", tuple(t for t in TILES if t not in held))
    return PickominoState(grill, stacks, 0, Phase.DECIDE, tuple(kept), **fields)


# --- a whole game ------------------------------------------------------------------------------
def test_scripted_person_plays_a_whole_game_against_bots(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    typo: dict[str, Any] = {"count": 0, "state": None}
    holder: dict[str, Any] = {}

    def answer(prompt: str) -> str:
        table, script = holder["table"], holder["script"]
        if typo["state"] is not None:  # the question after a typo: told, nothing changed
            assert table.state is typo["state"]
            assert script.out[-1].startswith("  'banana' is not an action; you can play: ")
            typo["state"] = None
        elif len(table.record.actions) % 5 == 0 and typo["count"] < 5:
            typo["count"] += 1
            typo["state"] = table.state
            return "banana"
        return str(table.game.format_action(holder["helper"].choose(table.state)))

    table, script = session(["you", "greedy", "greedy"], answer, seed=11, save=save)
    holder.update(table=table, script=script, helper=make_bot(table.game, "greedy", 3))
    assert table.play() == 0

    assert typo["count"] > 0
    assert table.game.is_over(table.state)
    assert "Final scores" in script.out
    assert "greedy 1 rolls: " in script.text
    assert any(line.startswith("You roll: ") for line in script.out)
    assert any(line.startswith("You set aside ") for line in script.out)
    record = load_record(save)
    assert replay(record) == table.state
    assert record.players == ("You", "greedy 1", "greedy 2")
    assert record.seed == 11
    assert record.meta["seats"] == ["you", "greedy", "greedy"]
    assert script.sleeps == []
    assert script.out[-1] == f"Replay it with: spieltisch replay {save}"


def test_typo_changes_nothing_and_explains() -> None:
    table, script = session(["you", "greedy"], lines(["7", "take 9", "roll", ""]))
    assert table.play() == 0
    assert len(table.record.actions) == 1  # only the first roll: no typo became an action
    assert "  '7' is not an action; you can play: " in script.text
    assert "  'take 9' is not an action; you can play: " in script.text
    assert "  'roll' is not possible now: choose a face of the roll to set aside" in script.out
    assert len(script.prompts) == 5  # the empty line just asks again
    assert "Input ended: the game is left unfinished." in script.text


def test_hot_seat_with_a_random_bot_to_the_end() -> None:
    holder: dict[str, Any] = {}

    def answer(prompt: str) -> str:
        table = holder["table"]
        return str(table.game.format_action(holder["helper"].choose(table.state)))

    table, script = session(["you", "random", "you"], answer, seed=2)
    holder.update(table=table, helper=make_bot(table.game, "random", 1))
    assert table.names == ["Player 1", "random", "Player 2"]
    assert table.play() == 0
    assert script.prompts[0].startswith("Player 1, set aside ")
    assert any(prompt.startswith("Player 2, ") for prompt in script.prompts)
    assert "random rolls: " in script.text
    assert "Final scores" in script.out


# --- stopping --------------------------------------------------------------------------------
def test_failing_stop_asks_for_confirmation() -> None:
    answers = ["stop", "help", "yes", "quit", ""]
    table, script = session(["you", "greedy"], lines(answers))
    start = position(kept="w", stacks=((25,), ()))
    table.state = start
    assert table.play() == 0
    warning = script.out.index(
        "  stopping now fails (no tile for 5): 25 back to the grill, 36 turned down."
    )
    assert script.out[warning + 1] == "  Type 'stop!' or 'yes' to stop anyway, or 'roll'."
    assert "You fail (no tile for 5): 25 back to the grill, 36 turned down" in script.out
    assert table.record.actions[0] == "stop"
    assert script.prompts[0] == "roll or stop (fails) > "


def test_bang_stops_at_once_and_roll_cancels_the_question() -> None:
    table, script = session(["you", "greedy"], lines(["stop", "roll"]))
    table.state = position(kept="w")
    table.play()
    assert table.record.actions[:1] == ("roll",)
    table, script = session(["you", "greedy"], lines(["stop!"]))
    table.state = position(kept="w")
    table.play()
    assert "stopping now fails" not in script.text
    assert "You fail (no tile for 5): no tile to return, 36 turned down" in script.out


def test_stop_steals_by_default_and_grill_declines() -> None:
    steal_here = position(kept="2wwwww", stacks=((), (27,)))
    table, script = session(["you", "greedy"], lines(["stop"]))
    table.state = steal_here
    table.play()
    assert script.prompts[0] == "roll, stop (steal 27 from greedy) or grill (take 26) > "
    assert "You steal 27 from greedy" in script.out
    table, script = session(["you", "greedy"], lines(["grill"]))
    table.state = steal_here
    table.play()
    assert "You take 26 from the grill" in script.out


def test_help_board_and_odds() -> None:
    table, script = session(["you", "greedy"], lines(["help", "board", "?", "odds"]))
    table.play()
    assert "  roll          roll the dice that are left" in script.out
    assert "  quit          leave the game (you may save it)" in script.out
    assert sum(line.startswith("Grill ") for line in script.out) == 2
    odds = [line for line in script.out if "worms expected" in line and "% to fail" in line]
    assert odds or "odds are not available" in script.text


def test_odds_without_a_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    real = importlib.import_module

    def missing(name: str, package: str | None = None) -> Any:
        if name.endswith(".solver"):
            raise ImportError(name)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", missing)
    table, script = session(["you", "greedy"], lines(["odds"]))
    table.play()
    assert "odds are not available" in script.text
    assert table.record.actions == (table.record.actions[0],)


# --- leaving and saving ----------------------------------------------------------------------
def test_quit_offers_to_save(tmp_path: Path) -> None:
    target = tmp_path / "later.json"
    table, script = session(["you", "greedy"], lines(["quit", str(target)]))
    table.play()
    assert target.exists()
    states = replay_states(load_record(target))
    assert states[-1] == table.state
    assert f"Saved to {target}." in script.out
    assert f"Go on later with: spieltisch play --resume {target}" in script.out


def test_ctrl_c_saves_and_exits_130(tmp_path: Path) -> None:
    target = tmp_path / "cut.json"

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    script = Script(interrupt)
    args = parse("pickomino", "--seats", "you,greedy", "--seed", "3", "--save", str(target))
    assert play.run(args, script.console) == 130
    assert "Interrupted: the game is left unfinished." in script.text
    assert replay(load_record(target)).phase is Phase.CHOOSE


def test_end_of_input_through_run(tmp_path: Path) -> None:
    target = tmp_path / "eof.json"
    script = Script(lines(["roll"]))
    args = parse("pickomino", "--seed", "4", "--save", str(target), "--fast")
    assert play.run(args, script.console) == 0
    assert "Seed 4 (play the same dice again with --seed 4)" in script.out
    assert "Input ended: the game is left unfinished." in script.text
    assert load_record(target).actions[0].startswith("=")


def test_bots_only_game_is_paced_and_reproducible(tmp_path: Path) -> None:
    outputs = []
    for name in ("a.json", "b.json"):
        script = Script(lines([]))
        args = parse("pickomino", "--seats", "greedy,random", "--seed", "9")
        args.save = tmp_path / name
        assert play.run(args, script.console) == 0
        outputs.append([line.replace(name, "FILE") for line in script.out])
        assert script.sleeps and set(script.sleeps) == {0.8}
    assert outputs[0] == outputs[1]
    assert load_record(tmp_path / "a.json") == load_record(tmp_path / "b.json")


def test_fast_never_sleeps_and_random_seed_is_printed() -> None:
    script = Script(lines([]))
    assert play.run(parse("pickomino", "--seats", "greedy,greedy", "--fast"), script.console) == 0
    assert script.sleeps == []
    assert script.out[1].startswith("Seed ")


def test_random_start_seat_is_drawn() -> None:
    table, script = session(["greedy", "greedy"], lines([]), options={"start_seat": "random"})
    table.play()
    assert script.out[2].endswith(" starts (drawn by lot)")


def test_unwritable_save_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = parse("pickomino", "--save", str(tmp_path / "missing" / "x.json"))
    assert play.run(args, Script(lines([])).console) == 2
    assert "cannot save to" in capsys.readouterr().err


# --- arguments -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["chess"], "unknown game 'chess'"),
        (["pickomino", "--seats", "you,grumpy"], "unknown seat 'grumpy'"),
        (["pickomino", "--seats", "you"], "Pickomino needs 2 to 7 seats, --seats gives 1"),
        (["pickomino", "--names", "Ann"], "--names needs 2 names"),
        (["pickomino", "--option", "short_game=maybe"], "option short_game='maybe'"),
        (["pickomino", "--option", "colour=red"], "unknown option colour"),
    ],
)
def test_bad_arguments(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert play.run(parse(*argv), Script(lines([])).console) == 2
    assert message in capsys.readouterr().err


def test_seat_names() -> None:
    assert seat_names(["you", "greedy"]) == ["You", "greedy"]
    assert seat_names(["greedy", "you", "greedy"]) == ["greedy 1", "You", "greedy 2"]
    assert seat_names(["you", "you"]) == ["Player 1", "Player 2"]
    assert seat_names(["optimal:steal_weight=0.5", "optimal"]) == ["optimal 1", "optimal 2"]
    assert seat_names(["you", "greedy"], "Ann, Bob") == ["Ann", "Bob"]
    with pytest.raises(InvalidOptions, match="different"):
        seat_names(["you", "you"], "Ann,Ann")


def test_bot_seeds_follow_the_game_seed() -> None:
    assert bot_seeds(1, 3) == bot_seeds(1, 3)
    assert bot_seeds(1, 3) != bot_seeds(2, 3)


def test_colours_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty:
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert colour_wanted(Tty())  # type: ignore[arg-type]
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour_wanted(Tty())  # type: ignore[arg-type]
    assert Style(False)("text", "red") == "text"
    assert Style(True)("text", "red") == "\033[31mtext\033[0m"


# --- resuming --------------------------------------------------------------------------------
def greedy_person(save: Path, answers: int | None = None) -> Callable[[str], str]:
    """A person who plays like the greedy bot, reading the position from the save file."""
    left = [answers]

    def answer(prompt: str) -> str:
        if left[0] is not None:
            if left[0] == 0:
                raise EOFError
            left[0] -= 1
        record = load_record(save)
        game = make_game(record.game, record.options)
        state = replay(record)
        return str(game.format_action(make_bot(game, "greedy").choose(state)))

    return answer


def test_a_resumed_game_goes_on_as_it_would_have(tmp_path: Path) -> None:
    full, cut = tmp_path / "full.json", tmp_path / "cut.json"
    seats = ("--seats", "you,random,greedy", "--seed", "13", "--fast")
    script = Script(greedy_person(full))
    assert play.run(parse("pickomino", *seats, "--save", str(full)), script.console) == 0
    assert "Final scores" in script.out

    first = Script(greedy_person(cut, answers=6))
    assert play.run(parse("pickomino", *seats, "--save", str(cut)), first.console) == 0
    assert "Input ended: the game is left unfinished." in first.text
    assert len(load_record(cut).actions) < len(load_record(full).actions)

    second = Script(greedy_person(cut))
    assert play.run(parse("--resume", str(cut), "--fast"), second.console) == 0
    assert second.out[1].startswith("Resuming after ")
    assert "Final scores" in second.out
    assert load_record(cut).actions == load_record(full).actions
    assert load_record(cut).players == ("You", "random", "greedy")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], f"name the game to play ({', '.join(game_names())}), or --resume a saved one"),
        (["--resume", "{path}", "--option", "short_game=true"], "keeps its options and seed"),
        (["chess", "--resume", "{path}"], "holds a game of pickomino, not chess"),
        (["--resume", "{path}", "--seats", "you,greedy,greedy"], "has 2 seats, not 3"),
        (["--resume", "{missing}"], "cannot read game record"),
    ],
)
def test_bad_resume_arguments(
    tmp_path: Path, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "saved.json"
    setup = parse("pickomino", "--seats", "greedy,greedy", "--fast", "--save", str(path))
    assert play.run(setup, Script(lines([])).console) == 0
    argv = [a.format(path=path, missing=tmp_path / "none.json") for a in argv]
    capsys.readouterr()
    assert play.run(parse(*argv), Script(lines([])).console) == 2
    assert message in capsys.readouterr().err


def test_no_to_the_failing_stop_keeps_the_turn_and_says_so() -> None:
    table, script = session(["you", "greedy"], lines(["stop", "n", "quit", ""]))
    table.state = position(kept="w", stacks=((25,), ()))
    assert table.play() == 0
    assert "  not played; choose again" in script.out
    assert not any("not an action" in line for line in script.out)
    assert not table.record.actions


def test_a_very_long_line_is_refused_without_being_echoed() -> None:
    pasted = "x" * 1_000_000
    table, script = session(["you", "greedy"], lines([pasted, "quit", ""]))
    assert table.play() == 0
    assert "  that line is too long (1000000 characters); type 'help'" in script.out
    assert max(len(line) for line in script.out) < 500


def test_help_offers_odds_only_where_there_are_odds() -> None:
    for name, offered in (("pickomino", True), ("karolinchen", False), ("riffraff", False)):
        game = make_game(name, {"players": 2})
        script = Script(lines(["help", "quit", ""]))
        script.console.pace = 0
        PlaySession(
            game, ["you", "random"], seat_names(["you", "random"]), script.console, 1
        ).play()
        assert ("  odds or ?     the odds of each choice, from the solver" in script.out) is offered


def test_the_grill_shows_the_worms_of_each_tile_and_one_die_is_a_die() -> None:
    game = make_game("pickomino", {"players": 2})
    text = game.render(position(kept="1234555"))
    assert "Worms       1  1  1  1  2  2  2  2  3  3  3  3  4  4  4  4" in text
    assert ", 1 die left" in text
