"""The bots' calibrated ratings, kept as data in `bots.json` beside this module.

The file holds, per game, the command and seed that made the values (`spieltisch ratings
calibrate`), the seat counts and number of games, and per bot its mu, sigma, shown rating with
a 95% interval, and the seats it played. Reading it needs no game, bot or simulation code.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from spieltisch.ratings.model import Rating

__all__ = [
    "BOTS_FILE",
    "EASY_BELOW",
    "STRONG_FROM",
    "bot_ratings",
    "read_bot_file",
    "store_calibration",
    "strength_levels",
]

BOTS_FILE = Path(__file__).with_name("bots.json")

EASY_BELOW = 1500
"""A bot shown below a new player's rating (1,500, the bots' average) is "easy"."""
STRONG_FROM = 1600
"""A bot shown this high or higher (but not the game's strongest) is "strong"; between the two
bounds it is "good"."""


def read_bot_file(path: Path = BOTS_FILE) -> dict[str, Any]:
    """The whole file: {"games": {game: {"command": ..., "bots": {bot: {...}}}}}."""
    if not path.exists():
        return {"games": {}}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def bot_ratings(game: str, path: Path = BOTS_FILE) -> dict[str, Rating]:
    """Each calibrated bot's fixed rating in `game` (none when the game was not calibrated)."""
    entry = read_bot_file(path)["games"].get(game, {"bots": {}})
    return {
        bot: Rating(float(values["mu"]), float(values["sigma"]))
        for bot, values in entry["bots"].items()
    }


def store_calibration(game: str, entry: dict[str, Any], path: Path = BOTS_FILE) -> None:
    """Write one game's calibration into the file, keeping the other games'."""
    data = read_bot_file(path)
    data["games"][game] = entry
    data["games"] = dict(sorted(data["games"].items()))
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def strength_levels(points: Mapping[str, int]) -> dict[str, str]:
    """Each bot's strength label from its shown calibrated rating: the game's highest is
    "best", the others "easy" below `EASY_BELOW`, "strong" from `STRONG_FROM` on, else "good"
    (docs/ratings.md says why)."""
    if not points:
        return {}
    top = max(points.values())
    return {bot: _level(shown, top) for bot, shown in points.items()}


def _level(shown: int, top: int) -> str:
    if shown == top:
        return "best"
    if shown < EASY_BELOW:
        return "easy"
    return "strong" if shown >= STRONG_FROM else "good"
