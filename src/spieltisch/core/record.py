"""Game records: options + seed + every action (chance outcomes included) + rules version.

Replay is a fold of `apply`; save files, golden tests and bug reports all use this format.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spieltisch.core.errors import IllegalAction, InvalidOptions, RecordError
from spieltisch.core.protocol import Game
from spieltisch.core.registry import make_game

__all__ = ["FORMAT", "GameRecord", "load_record", "replay", "replay_states", "save_record"]

FORMAT = "spieltisch-record/1"


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to reproduce a game exactly."""

    game: str
    options: dict[str, Any]
    rules_version: str
    actions: tuple[str, ...] = ()
    seed: int | None = None
    players: tuple[str, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def start(
        cls, game: Game[Any, Any], seed: int | None = None, players: tuple[str, ...] = ()
    ) -> GameRecord:
        return cls(game.name, game.options_json(), game.rules_version, (), seed, players)

    def with_action(self, game: Game[Any, Any], action: Any) -> GameRecord:
        text = game.format_action(action)
        return GameRecord(
            self.game,
            self.options,
            self.rules_version,
            (*self.actions, text),
            self.seed,
            self.players,
            self.meta,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "rules_version": self.rules_version,
            "options": self.options,
            "seed": self.seed,
            "players": list(self.players),
            "actions": list(self.actions),
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a record, naming the first thing that is wrong with it."""
        if not isinstance(data, Mapping):
            raise RecordError("a game record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"not a game record: 'format' must be '{FORMAT}'")
        return cls(
            game=_typed(data, "game", str),
            options=_typed(data, "options", dict),
            rules_version=_typed(data, "rules_version", str),
            actions=tuple(_string_list(data, "actions")),
            seed=_optional_int(data, "seed"),
            players=tuple(_string_list(data, "players")),
            meta=_optional_dict(data, "meta"),
        )


def _typed(data: Mapping[str, Any], key: str, kind: type[Any]) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise RecordError(f"record field '{key}' must be a {kind.__name__}")
    return value


def _string_list(data: Mapping[str, Any], key: str) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RecordError(f"record field '{key}' must be a list of strings")
    return value


def _optional_dict(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    if value is not None and not isinstance(value, dict):
        raise RecordError(f"record field '{key}' must be an object or null")
    return dict(value or {})


def _optional_int(data: Mapping[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise RecordError(f"record field '{key}' must be a whole number or null")
    return value


def record_game(record: GameRecord) -> Game[Any, Any]:
    """The game of a record, refusing a record made under other rules."""
    try:
        game = make_game(record.game, record.options)
    except (KeyError, InvalidOptions) as error:
        raise RecordError(f"record cannot be replayed: {error}") from None
    if game.rules_version != record.rules_version:
        raise RecordError(
            f"record was made with {record.game} rules {record.rules_version}, "
            f"this version plays rules {game.rules_version}"
        )
    return game


def replay_states(record: GameRecord) -> list[Any]:
    """Every state of the game, from the start to the end of the record."""
    game = record_game(record)
    states = [game.new_state()]
    for number, text in enumerate(record.actions, 1):
        try:
            states.append(game.apply(states[-1], game.parse_action(states[-1], text)))
        except IllegalAction as error:
            raise RecordError(f"record action {number} ('{text}') is illegal: {error}") from None
    return states


def replay(record: GameRecord) -> Any:
    """The final state of a record."""
    return replay_states(record)[-1]


def save_record(record: GameRecord, path: Path) -> None:
    """Write atomically, so a crash never leaves half a save file."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(record.to_json(), indent=1) + "\n", encoding="utf-8")
    temporary.replace(path)


def load_record(path: Path) -> GameRecord:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise RecordError(f"cannot read game record {path}: {error}") from None
    return GameRecord.from_json(data)
