"""The game protocol, errors, chance sampling, records, replay and the registry.

The names below load their module on first use: a command that needs only `core.errors` (as
every command's argument parsing does) loads no records, registry or protocol."""

from typing import TYPE_CHECKING

from spieltisch.core.lazy import lazy_names

if TYPE_CHECKING:
    from spieltisch.core.chance import sample_exact
    from spieltisch.core.errors import IllegalAction, InvalidOptions, RecordError
    from spieltisch.core.protocol import CHANCE, Game, JsonValue, Mover
    from spieltisch.core.record import (
        GameRecord,
        load_record,
        replay,
        replay_states,
        save_record,
    )
    from spieltisch.core.registry import game_class, game_names, make_game, register_game

__all__ = [
    "CHANCE",
    "Game",
    "GameRecord",
    "IllegalAction",
    "InvalidOptions",
    "JsonValue",
    "Mover",
    "RecordError",
    "game_class",
    "game_names",
    "load_record",
    "make_game",
    "register_game",
    "replay",
    "replay_states",
    "sample_exact",
    "save_record",
]

__getattr__ = lazy_names(
    __name__,
    {
        "chance": ["sample_exact"],
        "errors": ["IllegalAction", "InvalidOptions", "RecordError"],
        "protocol": ["CHANCE", "Game", "JsonValue", "Mover"],
        "record": ["GameRecord", "load_record", "replay", "replay_states", "save_record"],
        "registry": ["game_class", "game_names", "make_game", "register_game"],
    },
)
