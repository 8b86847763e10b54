"""Game records: JSON, save files, corrupt files, replay, and seeded matches between bots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spieltisch.bots import bot_names, make_bot, play_match
from spieltisch.core import (
    GameRecord,
    RecordError,
    load_record,
    make_game,
    replay,
    replay_states,
    save_record,
)
from spieltisch.core.record import FORMAT

GAME = make_game("pickomino", {"players": 3})
OPENING = ("=1144555w", "take 5", "roll", "=11www", "take w", "grill")


def opening_record(**changes: Any) -> GameRecord:
    record = GameRecord.start(GAME, seed=42, players=("Ann", "Bob", "Cem"))
    state = GAME.new_state()
    for text in OPENING:
        action = GAME.parse_action(state, text)
        record = record.with_action(GAME, action)
        state = GAME.apply(state, action)
    data = {**record.to_json(), **changes}
    return GameRecord.from_json(data)


def written(tmp_path: Path, content: str | bytes) -> Path:
    path = tmp_path / "game.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


# --- the record and its JSON -------------------------------------------------------------
def test_a_record_holds_options_seed_actions_and_rules_version() -> None:
    record = opening_record()
    assert record.to_json() == {
        "format": FORMAT,
        "game": "pickomino",
        "rules_version": GAME.rules_version,
        "options": GAME.options_json(),
        "seed": 42,
        "players": ["Ann", "Bob", "Cem"],
        "actions": list(OPENING),
        "meta": {},
    }


def test_a_record_round_trips_through_json() -> None:
    record = GameRecord(
        "pickomino", GAME.options_json(), "1", OPENING, None, ("a",), {"event": "club night"}
    )
    again = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert again == record
    assert again.to_json() == record.to_json()


def test_with_action_leaves_the_record_as_it_was() -> None:
    start = GameRecord.start(GAME)
    longer = start.with_action(GAME, GAME.parse_action(GAME.new_state(), "=wwwwwwww"))
    assert start.actions == ()
    assert longer.actions == ("=wwwwwwww",)
    assert (longer.game, longer.options, longer.seed) == (start.game, start.options, start.seed)


def test_optional_fields_may_be_missing_or_null() -> None:
    data = {"format": FORMAT, "game": "pickomino", "options": {}, "rules_version": "1"}
    record = GameRecord.from_json(data)
    assert (record.actions, record.players, record.seed, record.meta) == ((), (), None, {})
    assert GameRecord.from_json({**data, "meta": None, "seed": None}).meta == {}


def test_replay_reproduces_every_position() -> None:
    record = opening_record()
    states = replay_states(record)
    assert len(states) == len(OPENING) + 1
    assert states[0] == GAME.new_state()
    final = replay(record)
    assert final == states[-1]
    assert final.stacks == ((30,), (), ())  # three 5s and three worms
    assert final.seat == 1


# --- save files --------------------------------------------------------------------------
def test_save_and_load_round_trip(tmp_path: Path) -> None:
    record = opening_record()
    path = tmp_path / "club.record.json"
    save_record(record, path)
    assert load_record(path) == record
    assert path.read_text(encoding="utf-8").endswith("\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.record.json"]


def test_saving_again_replaces_the_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_record(GameRecord.start(GAME), path)
    save_record(opening_record(), path)
    assert load_record(path) == opening_record()
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "cannot read game record"),
        ("{not json", "cannot read game record"),
        (b"\xff\xfe\x00garbage", "cannot read game record"),
        ("[1, 2, 3]", "a game record must be a JSON object"),
        ('"pickomino"', "a game record must be a JSON object"),
        ("{}", "not a game record: 'format' must be 'spieltisch-record/1'"),
    ],
)
def test_an_unreadable_save_file_is_a_record_error(
    tmp_path: Path, content: str | bytes, message: str
) -> None:
    with pytest.raises(RecordError, match=message):
        load_record(written(tmp_path, content))


def test_a_missing_save_file_is_a_record_error(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read game record"):
        load_record(tmp_path / "nowhere.json")


WRONG_FIELDS = {
    "wrong format": ("format", "spieltisch-record/0", "'format' must be"),
    "format missing": ("format", None, "'format' must be"),
    "game a number": ("game", 7, "record field 'game' must be a str"),
    "options a list": ("options", [], "record field 'options' must be a dict"),
    "rules version a number": ("rules_version", 1, "record field 'rules_version' must be a str"),
    "actions a string": ("actions", "roll", "record field 'actions' must be a list of strings"),
    "action a number": ("actions", ["roll", 3], "'actions' must be a list of strings"),
    "players a string": ("players", "Ann", "record field 'players' must be a list of strings"),
    "seed a string": ("seed", "42", "record field 'seed' must be a whole number or null"),
    "seed a boolean": ("seed", True, "'seed' must be a whole number or null"),
    "seed a float": ("seed", 4.2, "'seed' must be a whole number or null"),
    "meta a number": ("meta", 5, "record field 'meta' must be an object or null"),
    "meta a list": ("meta", [["a", 1]], "'meta' must be an object or null"),
}


@pytest.mark.parametrize(("key", "value", "message"), WRONG_FIELDS.values(), ids=WRONG_FIELDS)
def test_a_field_of_the_wrong_type_is_a_record_error(
    tmp_path: Path, key: str, value: Any, message: str
) -> None:
    data = opening_record().to_json()
    data[key] = value
    with pytest.raises(RecordError, match=message):
        load_record(written(tmp_path, json.dumps(data)))


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (
            [*OPENING[:2], "steal", *OPENING[3:]],
            "record action 3 \\('steal'\\) is illegal: no worm",
        ),
        ([*OPENING[:2], "take 5"], "record action 3 \\('take 5'\\) is illegal"),
        (["=1144555"], "record action 1 \\('=1144555'\\) is illegal: a roll must show exactly 8"),
        (["=1144555w", "dance"], "record action 2 \\('dance'\\) is illegal"),
        (["roll"], "record action 1 \\('roll'\\) is illegal"),
    ],
)
def test_an_illegal_action_in_a_save_file_is_a_record_error(
    tmp_path: Path, actions: list[str], message: str
) -> None:
    data = {**opening_record().to_json(), "actions": actions}
    record = load_record(written(tmp_path, json.dumps(data)))
    with pytest.raises(RecordError, match=message):
        replay(record)


def test_a_record_of_other_rules_is_a_record_error(tmp_path: Path) -> None:
    data = {**opening_record().to_json(), "rules_version": "0"}
    record = load_record(written(tmp_path, json.dumps(data)))
    with pytest.raises(
        RecordError, match="made with pickomino rules 0, this version plays rules 1"
    ):
        replay(record)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("game", "chess", "record cannot be replayed: .*unknown game 'chess'"),
        ("options", {"players": 9}, "record cannot be replayed: .*players must be from 2 to 7"),
        ("options", {"colour": "red"}, "record cannot be replayed: unknown option colour"),
        ("options", {"players": "many"}, "record cannot be replayed: option players"),
    ],
)
def test_a_record_of_an_unknown_game_or_options_is_a_record_error(
    key: str, value: Any, message: str
) -> None:
    record = GameRecord.from_json({**opening_record().to_json(), key: value})
    with pytest.raises(RecordError, match=message):
        replay(record)


def test_record_error_is_a_value_error() -> None:
    assert issubclass(RecordError, ValueError)


# --- seeded matches between bots ---------------------------------------------------------
def _match(seed: int, bot: str = "random", players: int = 3) -> Any:
    game = make_game("pickomino", {"players": players})
    bots = [make_bot(game, bot, seed=100 + seat) for seat in range(players)]
    return play_match(game, bots, seed, players=[f"{bot} {s}" for s in range(players)])


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_play_match_is_deterministic_for_a_seed(bot: str) -> None:
    first, second = _match(7, bot), _match(7, bot)
    assert first.record == second.record
    assert first.actions == second.actions
    assert first.state == second.state
    assert first.record.to_json() == second.record.to_json()


def test_play_match_with_another_seed_plays_another_game() -> None:
    assert _match(7).record.actions != _match(8).record.actions


def test_a_match_record_replays_to_the_final_position() -> None:
    result = _match(11, "greedy", players=4)
    game = make_game("pickomino", result.record.options)
    assert game.is_over(result.state)
    assert result.record.seed == 11
    assert result.record.players == ("greedy 0", "greedy 1", "greedy 2", "greedy 3")
    assert result.record.actions == tuple(game.format_action(a) for a in result.actions)
    assert replay(GameRecord.from_json(json.loads(json.dumps(result.record.to_json())))) == (
        result.state
    )


def test_play_match_needs_one_bot_per_seat() -> None:
    game = make_game("pickomino", {"players": 3})
    with pytest.raises(ValueError, match="needs 3 bots"):
        play_match(game, [make_bot(game, "random")], seed=1)


def test_bots_are_found_by_name() -> None:
    assert {"random", "greedy"} <= set(bot_names("pickomino"))
    with pytest.raises(KeyError, match="no bot 'genius' for pickomino"):
        make_bot(GAME, "genius")
