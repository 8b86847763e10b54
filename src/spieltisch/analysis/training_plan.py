"""What a training of the `winner` bot's model does, apart from the training itself (which
needs numpy): the command line reads its defaults without loading it."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TrainConfig", "Training"]


@dataclass(frozen=True)
class TrainConfig:
    hidden: tuple[int, ...] = (64, 64)
    epochs: int = 12
    batch: int = 512
    rate: float = 1e-3
    seed: int = 0


@dataclass(frozen=True)
class Training:
    """What `train_winner` does: `rounds` rounds of `games` games each; round 1 is `optimal`
    self-play, every later round has the last model's `winner` play against `optimal`.
    Each round fits a model to the final results, then refits it `sweeps` times to the
    TD(`trace`) targets of `lambda_targets` under the model before."""

    players: int = 2
    games: int = 40_000
    rounds: int = 1
    seed: int = 1
    jobs: int = 1
    fit: TrainConfig = TrainConfig()
    sweeps: int = 3
    trace: float = 0.8
