"""The replay command: a record turn by turn, and clear errors for files that are not records."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from spieltisch.bots.base import make_bot
from spieltisch.bots.match import play_match
from spieltisch.cli import replay
from spieltisch.cli.present import Presenter
from spieltisch.core.record import GameRecord, replay_states, save_record
from spieltisch.core.registry import make_game


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    replay.add_parser(parser.add_subparsers())
    return parser.parse_args(["replay", *argv])


def finished_record(seed: int = 21, **options: object) -> GameRecord:
    game = make_game("pickomino", {"players": 3, **options})
    bots = [make_bot(game, name, seat) for seat, name in enumerate(["greedy", "random", "greedy"])]
    result = play_match(game, bots, seed, ("Ann", "Bob", "Cid"))
    meta = {"seats": ["greedy", "random", "greedy"]}
    return GameRecord(
        result.record.game,
        result.record.options,
        result.record.rules_version,
        result.record.actions,
        seed,
        result.record.players,
        meta,
    )


def run(tmp_path: Path, record: GameRecord, *flags: str) -> tuple[int, list[str]]:
    path = tmp_path / "game.json"
    save_record(record, path)
    out: list[str] = []
    return replay.run(parse(str(path), *flags), out.append), out


def test_prints_header_turns_and_result(tmp_path: Path) -> None:
    record = finished_record()
    status, out = run(tmp_path, record)
    assert status == 0
    assert out[:5] == [
        "Pickomino · rules version 1",
        "Options   players=3, flip_when_nothing_returned=true, short_game=false, start_seat=0",
        "Seed      21",
        "Players   Ann (greedy), Bob (random), Cid (greedy)",
        f"Actions   {len(record.actions)}",
    ]
    turns = [line for line in out if line.startswith("turn ")]
    assert turns[0].startswith("turn 1 · Ann: =")
    assert turns[1].startswith("turn 2 · Bob: =")
    pattern = r"turn \d+ · (Ann|Bob|Cid): (=\S+|take \S|roll|steal|grill|stop)( \S+)* → "
    assert all(re.match(pattern, line) for line in turns), turns
    assert all(
        re.search(r"→ (takes \d\d from the grill|steals \d\d from \w+|fails \(.+\): .+)$", t)
        for t in turns
    )
    # every action is in the printout, in order
    printed = " ".join(line.split(": ", 1)[1].split(" → ")[0] for line in turns)
    assert printed == " ".join(record.actions)
    assert "Final scores" in out
    assert out[-1].endswith(("wins!", "share the win."))


def test_final_draws_the_last_position(tmp_path: Path) -> None:
    status, out = run(tmp_path, finished_record(), "--final")
    assert status == 0
    text = "\n".join(out)
    assert "Grill " in text
    assert text.rstrip().endswith("won")


def test_unfinished_record(tmp_path: Path) -> None:
    record = finished_record()
    cut = GameRecord(record.game, record.options, record.rules_version, record.actions[:5])
    status, out = run(tmp_path, cut)
    assert status == 0
    assert "Seed      not recorded" in out
    assert "Players   seat 0, seat 1, seat 2" in out
    assert re.fullmatch(r"Not finished: (seat \d|chance) to move\.", out[-2])
    assert out[-1].startswith("Scores so far: seat 0 ")
    assert [line for line in out if line.startswith("turn ")][-1].endswith("→ (unfinished)")


def test_random_start_seat_is_shown(tmp_path: Path) -> None:
    status, out = run(tmp_path, finished_record(4, start_seat="random"))
    assert status == 0
    start = next(line for line in out if line.startswith("start · "))
    assert re.fullmatch(r"start · first \d → (Ann|Bob|Cid) plays first", start)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json at all", "cannot read game record"),
        ("[1, 2]", "a game record must be a JSON object"),
        ('{"format": "something-else"}', "not a game record: 'format' must be"),
        (
            '{"format": "spieltisch-record/1", "game": "chess", "options": {}, '
            '"rules_version": "1", "actions": []}',
            "unknown game 'chess'",
        ),
        (
            '{"format": "spieltisch-record/1", "game": "pickomino", "options": {}, '
            '"rules_version": "1", "actions": ["=11112222", "take 3"]}',
            "record action 2 ('take 3') is illegal",
        ),
        (
            '{"format": "spieltisch-record/1", "game": "pickomino", "options": {}, '
            '"rules_version": "0", "actions": []}',
            "this version plays rules 1",
        ),
    ],
)
def test_corrupt_files_exit_2(
    tmp_path: Path, content: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    out: list[str] = []
    assert replay.run(parse(str(path)), out.append) == 2
    assert out == []
    error = capsys.readouterr().err
    assert error.startswith("spieltisch: error: ")
    assert message in error


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert replay.run(parse(str(tmp_path / "nowhere.json"))) == 2
    assert "cannot read game record" in capsys.readouterr().err


def test_replays_a_saved_play_session(tmp_path: Path) -> None:
    from spieltisch.cli import play
    from spieltisch.cli.terminal import Console

    path = tmp_path / "played.json"
    parser = argparse.ArgumentParser()
    play.add_parser(parser.add_subparsers())
    args = parser.parse_args(["play", "pickomino", "--seats", "greedy,random", "--seed", "8"])
    args.save, args.fast = path, True
    assert play.run(args, Console(lambda prompt: "", lambda text: None)) == 0
    out: list[str] = []
    assert replay.run(parse(str(path)), out.append) == 0
    assert "Players   greedy, random" in out
    record = json.loads(path.read_text(encoding="utf-8"))
    assert (
        len([line for line in out if line.startswith("turn ")])
        == replay_states(GameRecord.from_json(record))[-1].turn
    )


def test_generic_presenter_summary() -> None:
    record = finished_record()
    game = make_game("pickomino", record.options)
    states = replay_states(record)
    presenter = Presenter(game, ["Ann", "Bob", "Cid"])
    lines = presenter.summary(states, record.actions)
    assert len(lines) == len(record.actions)
    assert lines[0] == f"   1 · chance: {record.actions[0]}"
    assert lines[1] == f"   2 · Ann: {record.actions[1]}"
    assert "Seats      0: Ann, 1: Bob, 2: Cid" in presenter.board(states[-1])
