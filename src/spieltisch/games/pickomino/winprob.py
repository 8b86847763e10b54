"""The chance that a seat wins a Pickomino game from a position between two turns.

A position is described from one seat's point of view (`position_features`): for each seat in
playing order starting with that one, its worms, its top tile (one-hot, as it can be stolen
or returned), the worms of the tile below it, its highest tile (the tie-break) and its stack
size; then the tiles on the grill, whose turn it is, the lead and how much is left. A small
neural network (`WinModel`, two hidden layers, numpy only) maps these to the chance of
winning, a shared win counting 1/k. Models are trained by `analysis.winner_training` from
self-play and shipped as `.npz` files in `models/`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from spieltisch.games.pickomino.data import TILES, tile_worms

__all__ = [
    "WinModel",
    "feature_count",
    "fill_features",
    "model_path",
    "position_features",
    "shipped_model",
]

Floats = npt.NDArray[np.float64]
Stacks = Sequence[Sequence[int]]
_FIRST_TILE = TILES[0]
_SEAT_FEATURES = 4 + len(TILES)


def feature_count(players: int) -> int:
    return players * _SEAT_FEATURES + len(TILES) + players + 3


_WORMS = {tile: tile_worms(tile) for tile in TILES}


def _fill_seat(stack: Sequence[int], worms: int, row: Floats, at: int) -> None:
    row[at] = worms / 10
    if stack:
        row[at + 1 + stack[-1] - _FIRST_TILE] = 1.0
        row[at + 1 + len(TILES)] = _WORMS[stack[-2]] / 4 if len(stack) > 1 else 0.0
        row[at + 2 + len(TILES)] = (max(stack) - _FIRST_TILE + 1) / len(TILES)
        row[at + 3 + len(TILES)] = len(stack) / 8


def fill_features(
    grill: Sequence[int], stacks: Stacks, to_move: int, seat: int, row: Floats
) -> None:
    """Write the features of a position into `row` (zeros of length `feature_count`)."""
    players = len(stacks)
    order = [(seat + k) % players for k in range(players)]
    worms = [sum(_WORMS[tile] for tile in stacks[other]) for other in order]
    for k, other in enumerate(order):
        _fill_seat(stacks[other], worms[k], row, k * _SEAT_FEATURES)
    at = players * _SEAT_FEATURES
    for tile in grill:
        row[at + tile - _FIRST_TILE] = 1.0
    at += len(TILES)
    row[at + (to_move - seat) % players] = 1.0
    row[at + players] = (worms[0] - max(worms[1:])) / 10
    row[at + players + 1] = len(grill) / len(TILES)
    row[at + players + 2] = sum(_WORMS[tile] for tile in grill) / 40


def position_features(grill: Sequence[int], stacks: Stacks, to_move: int, seat: int) -> Floats:
    """The features of a position between turns, seen by `seat`; `to_move` is next to play."""
    row = np.zeros(feature_count(len(stacks)))
    fill_features(grill, stacks, to_move, seat, row)
    return row


@dataclass(frozen=True)
class WinModel:
    """A multilayer perceptron with ReLU hidden layers and a logistic output."""

    players: int
    weights: tuple[Floats, ...]  # W1, b1, W2, b2, ..., w_out, b_out

    def logits(self, features: Floats) -> Floats:
        hidden = features
        *layers, out_w, out_b = self.weights
        for w, b in zip(layers[::2], layers[1::2], strict=True):
            hidden = np.maximum(hidden @ w + b, 0.0)
        result: Floats = (hidden @ out_w + out_b)[:, 0]
        return result

    def predict(self, features: Floats) -> Floats:
        """The win chance of each row of `features` (shape (N, feature_count))."""
        result: Floats = 1.0 / (1.0 + np.exp(-self.logits(features)))
        return result

    def save(self, path: Path) -> None:
        arrays = {f"w{i}": w for i, w in enumerate(self.weights)}
        arrays["players"] = np.array(self.players)
        np.savez_compressed(path, allow_pickle=False, **arrays)

    @classmethod
    def load(cls, path: Path) -> WinModel:
        try:
            with np.load(path) as data:
                count = len([key for key in data.files if key.startswith("w")])
                weights = tuple(np.asarray(data[f"w{i}"], dtype=np.float64) for i in range(count))
                players = int(data["players"])
        except (OSError, KeyError, ValueError) as error:
            raise ValueError(f"{path} is not a win-chance model: {error}") from error
        model = cls(players, weights)
        model._check()
        return model

    def _check(self) -> None:
        width = feature_count(self.players)
        if len(self.weights) % 2 or not self.weights or self.weights[0].shape[0] != width:
            raise ValueError(f"a model for {self.players} players needs {width} inputs")


def model_path(players: int) -> Path:
    """Where the shipped model for `players` seats lives in the package."""
    return Path(str(resources.files(__package__) / "models" / f"winprob-{players}p.npz"))


@cache
def shipped_model(players: int) -> WinModel:
    path = model_path(players)
    if not path.exists():
        raise ValueError(
            f"no win-chance model for {players} players; build one with "
            f"'spieltisch pickomino train-winner --players {players}'"
        )
    return WinModel.load(path)
