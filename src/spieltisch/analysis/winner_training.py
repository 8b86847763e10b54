"""Training the win-chance models of the Pickomino `winner` bot.

Games are played a whole turn at a time: the exact solver gives the chance of every way a
turn ends under a policy (fail, or each tile), and one seeded draw picks the end. This is the
same distribution as rolling the dice, thousands of times faster. Seats play `optimal` (the
most worms per turn), or the `winner` policy of an earlier model, so the model can be
improved on its own games. Every position between two turns gives one example per seat: the
features seen by that seat and the seat's final share of the win. A small multilayer
perceptron is fitted to them with Adam on the cross-entropy.
"""

from __future__ import annotations

import multiprocessing
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from spieltisch.games.pickomino.rules import Pickomino
from spieltisch.games.pickomino.solver import TurnOutcome, TurnTable, cached_outcome, turn_outcome
from spieltisch.games.pickomino.state import Phase, PickominoState
from spieltisch.games.pickomino.winner import WinValuation, outcome_ends, win_share
from spieltisch.games.pickomino.winprob import WinModel, feature_count, position_features

__all__ = ["Examples", "TrainConfig", "Training", "fit_model", "play_examples", "train_winner"]

Floats = npt.NDArray[np.float64]
Policy = Callable[[Pickomino, PickominoState], TurnOutcome]


def optimal_policy(game: Pickomino, state: PickominoState) -> TurnOutcome:
    return cached_outcome(TurnTable.from_state(game, state))


def winner_policy(model: WinModel, lookahead: int = 0) -> Policy:
    def policy(game: Pickomino, state: PickominoState) -> TurnOutcome:
        return turn_outcome(WinValuation(game, state, model, lookahead))

    return policy


def sample_turn(
    game: Pickomino, state: PickominoState, outcome: TurnOutcome, rng: random.Random
) -> PickominoState:
    """The position after the turn, its end drawn from `outcome`."""
    draw = rng.random()
    ends = outcome_ends(state, outcome)
    for end, chance in ends:
        draw -= chance
        if draw < 0:
            return game.turn_result(state, *end)
    return game.turn_result(state, *ends[-1][0])  # the chances summed to a hair under 1


def play_game(
    game: Pickomino, policies: list[Policy], rng: random.Random
) -> tuple[list[PickominoState], PickominoState]:
    """The positions at the start of every turn, and the final position."""
    state = game.new_state()
    seen = []
    while state.phase is not Phase.OVER:
        seen.append(state)
        outcome = policies[state.seat](game, state)
        state = sample_turn(game, state, outcome, rng)
    return seen, state


@dataclass
class Examples:
    features: Floats
    labels: Floats

    def __len__(self) -> int:
        return len(self.labels)


def play_examples(players: int, games: range, seed: int, model: WinModel | None = None) -> Examples:
    """Examples from the seeded games numbered `games`. Without a model every seat plays
    `optimal` and every seat's view is an example. With one, one seat (rotating) plays
    `winner` with that model against `optimal` seats, and only its view is an example: the
    chances the bot will be asked about."""
    rows: list[Floats] = []
    labels: list[float] = []
    for index in games:
        game = Pickomino({"players": players, "start_seat": index % players})
        learner = (index // players) % players
        policies: list[Policy] = [optimal_policy] * players
        if model is not None:
            policies[learner] = winner_policy(model)
        seen, final = play_game(game, policies, random.Random(f"{seed}/{index}"))
        views = range(players) if model is None else (learner,)
        for state in seen[1:]:
            for seat in views:
                rows.append(position_features(state.grill, state.stacks, state.seat, seat))
                labels.append(win_share(game, final, seat))
    width = feature_count(players)
    return Examples(np.array(rows).reshape(-1, width), np.array(labels))


# --- fitting ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class TrainConfig:
    hidden: tuple[int, ...] = (64, 64)
    epochs: int = 12
    batch: int = 512
    rate: float = 1e-3
    seed: int = 0


def _initial_weights(width: int, config: TrainConfig, rng: np.random.Generator) -> list[Floats]:
    weights = []
    for size in (*config.hidden, 1):
        weights += [rng.normal(0, np.sqrt(2 / width), (width, size)), np.zeros(size)]
        width = size
    return weights


def _gradients(weights: list[Floats], x: Floats, y: Floats) -> tuple[float, list[Floats]]:
    """Mean cross-entropy of a batch and its gradient by each weight array."""
    activations = [x]
    for w, b in zip(weights[:-2:2], weights[1:-2:2], strict=True):
        activations.append(np.maximum(activations[-1] @ w + b, 0.0))
    logits = (activations[-1] @ weights[-2] + weights[-1])[:, 0]
    p = 1 / (1 + np.exp(-logits))
    eps = 1e-12
    loss = float(-np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))
    delta = ((p - y) / len(y))[:, None]
    grads: list[Floats] = []
    for layer in range(len(weights) // 2 - 1, -1, -1):
        grads = [activations[layer].T @ delta, delta.sum(axis=0), *grads]
        if layer:
            delta = (delta @ weights[2 * layer].T) * (activations[layer] > 0)
    return loss, grads


def fit_model(
    players: int,
    train: Examples,
    config: TrainConfig = TrainConfig(),
    report: Callable[[int, float], None] | None = None,
) -> WinModel:
    """Fit a model with Adam; `report(epoch, mean loss)` after each epoch."""
    rng = np.random.default_rng(config.seed)
    weights = _initial_weights(feature_count(players), config, rng)
    moments = [np.zeros_like(w) for w in weights]
    squares = [np.zeros_like(w) for w in weights]
    step = 0
    for epoch in range(config.epochs):
        order = rng.permutation(len(train))
        losses = []
        for start in range(0, len(order), config.batch):
            rows = order[start : start + config.batch]
            loss, grads = _gradients(weights, train.features[rows], train.labels[rows])
            step += 1
            _adam(weights, grads, moments, squares, step, config.rate)
            losses.append(loss)
        if report:
            report(epoch, float(np.mean(losses)))
    return WinModel(players, tuple(weights))


def _adam(
    weights: list[Floats],
    grads: list[Floats],
    moments: list[Floats],
    squares: list[Floats],
    step: int,
    rate: float,
) -> None:
    for w, g, m, v in zip(weights, grads, moments, squares, strict=True):
        m *= 0.9
        m += 0.1 * g
        v *= 0.999
        v += 0.001 * g * g
        m_hat = m / (1 - 0.9**step)
        v_hat = v / (1 - 0.999**step)
        w -= rate * m_hat / (np.sqrt(v_hat) + 1e-8)


def mean_loss(model: WinModel, examples: Examples) -> float:
    p = np.clip(model.predict(examples.features), 1e-12, 1 - 1e-12)
    y = examples.labels
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


# --- rounds of training -----------------------------------------------------------------------
@dataclass(frozen=True)
class Training:
    """What `train_winner` does: `rounds` rounds of `games` games each; round 1 is `optimal`
    self-play, every later round has the last model's `winner` play against `optimal`."""

    players: int = 2
    games: int = 40_000
    rounds: int = 2
    seed: int = 1
    jobs: int = 1
    fit: TrainConfig = TrainConfig()


Progress = Callable[[str], None]
_CHUNK = 500


def _examples_task(task: tuple[int, range, int, WinModel | None]) -> Examples:
    players, games, seed, model = task
    return play_examples(players, games, seed, model)


def round_examples(training: Training, round_number: int, model: WinModel | None) -> Examples:
    """The examples of one round, gathered in game order whatever the number of jobs."""
    seed = training.seed * 1000 + round_number
    tasks = [
        (training.players, range(start, min(start + _CHUNK, training.games)), seed, model)
        for start in range(0, training.games, _CHUNK)
    ]
    if training.jobs == 1:
        parts = [_examples_task(task) for task in tasks]
    else:
        with multiprocessing.Pool(min(training.jobs, len(tasks))) as pool:
            parts = pool.map(_examples_task, tasks)
    return Examples(
        np.concatenate([part.features for part in parts]),
        np.concatenate([part.labels for part in parts]),
    )


def train_winner(training: Training, progress: Progress = print) -> WinModel:
    """The model of the last round; each round's examples come from the model before it."""
    model: WinModel | None = None
    for number in range(1, training.rounds + 1):
        started = time.perf_counter()
        examples = round_examples(training, number, model)
        progress(
            f"round {number}: {len(examples):,} positions from {training.games:,} games "
            f"in {time.perf_counter() - started:.0f} s"
        )
        model = fit_model(
            training.players,
            examples,
            training.fit,
            lambda epoch, loss: progress(f"  epoch {epoch + 1}: cross-entropy {loss:.4f}"),
        )
    if model is None:
        raise ValueError("train at least one round")
    return model
