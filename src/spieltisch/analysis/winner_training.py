"""Training the win-chance models of the Pickomino `winner` bot.

Games are played a whole turn at a time: the exact solver gives the chance of every way a
turn ends under a policy (fail, or each tile), and one seeded draw picks the end. This is the
same distribution as rolling the dice, thousands of times faster. Seats play `optimal` (the
most worms per turn), or the `winner` policy of an earlier model, so the model can be
improved on its own games. Every position between two turns gives one example per seat: the
features seen by that seat, the seat's final share of the win, and every position the turn
could have led to with its chance. A small multilayer perceptron is fitted to the final
results with Adam on the cross-entropy, then refitted to TD(lambda) targets: each turn's
exact expectation of the model's win chance, so that the luck of the dice no longer has to
be averaged out by the fit (`lambda_targets`).
"""

from __future__ import annotations

import multiprocessing
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from spieltisch.analysis.training_plan import TrainConfig, Training
from spieltisch.games.pickomino.rules import Pickomino
from spieltisch.games.pickomino.solver import TurnOutcome, TurnTable, cached_outcome, turn_outcome
from spieltisch.games.pickomino.state import Phase, PickominoState
from spieltisch.games.pickomino.winner import TurnEnd, WinValuation, outcome_ends, win_share
from spieltisch.games.pickomino.winprob import WinModel, feature_count, position_features

__all__ = [
    "Backups",
    "Examples",
    "TrainConfig",
    "Training",
    "fit_model",
    "join_examples",
    "lambda_targets",
    "play_examples",
    "train_winner",
]

Floats = npt.NDArray[np.float64]
Floats32 = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]
Policy = Callable[[Pickomino, PickominoState], TurnOutcome]
_DEFAULT_FIT = TrainConfig()


def optimal_policy(game: Pickomino, state: PickominoState) -> TurnOutcome:
    return cached_outcome(TurnTable.from_state(game, state))


def winner_policy(model: WinModel, lookahead: int = 0) -> Policy:
    def policy(game: Pickomino, state: PickominoState) -> TurnOutcome:
        return turn_outcome(WinValuation(game, state, model, lookahead))

    return policy


@dataclass(frozen=True)
class Turn:
    """A turn of a self-play game: its position, every way it could end with its chance,
    and the index of the end the draw took."""

    state: PickominoState
    ends: list[tuple[TurnEnd, float]]
    taken: int


def draw_end(ends: list[tuple[TurnEnd, float]], rng: random.Random) -> int:
    """The index of the end one seeded draw picks by the ends' chances."""
    draw = rng.random()
    for index, (_, chance) in enumerate(ends):
        draw -= chance
        if draw < 0:
            return index
    return len(ends) - 1  # the chances summed to a hair under 1


def play_game(
    game: Pickomino, policies: list[Policy], rng: random.Random
) -> tuple[list[Turn], PickominoState]:
    """Every turn of a game played a turn at a time, and the final position (a random start
    seat is drawn first, with the same generator)."""
    state = game.new_state()
    if state.phase is Phase.START:
        state = game.apply(state, game.sample_chance(state, rng))
    turns = []
    while state.phase is not Phase.OVER:
        ends = outcome_ends(state, policies[state.seat](game, state))
        taken = draw_end(ends, rng)
        turns.append(Turn(state, ends, taken))
        state = game.turn_result(state, *ends[taken][0])
    return turns, state


@dataclass
class Backups:
    """For each example, every position its turn can lead to, seen by the example's seat:
    the chance of it and, where it ends the game, the seat's share of the win (else NaN).
    Example i's positions are rows `first[i]:first[i + 1]`; `taken[i]` is the row the game
    went to and `following[i]` the same seat's example at the next turn (-1: game over)."""

    features: Floats32
    chances: Floats
    finals: Floats
    first: Ints
    taken: Ints
    following: Ints


@dataclass
class Examples:
    """Positions between turns, each seen by one seat, with that seat's final share of the win
    and the positions one turn later (for the bootstrapped targets of `lambda_targets`)."""

    features: Floats32
    labels: Floats
    backups: Backups

    def __len__(self) -> int:
        return len(self.labels)


class _ExampleBuilder:
    """Collects the examples of games in order (column lists, turned into arrays once)."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.rows: list[Floats] = []
        self.labels: list[float] = []
        self.next_rows: list[Floats] = []
        self.chances: list[float] = []
        self.finals: list[float] = []
        self.first: list[int] = [0]
        self.taken: list[int] = []
        self.following: list[int] = []

    def add_game(
        self, game: Pickomino, turns: list[Turn], final: PickominoState, views: Sequence[int]
    ) -> None:
        shares = {seat: win_share(game, final, seat) for seat in views}
        for number, turn in enumerate(turns[1:], start=1):
            after = [game.turn_result(turn.state, *end) for end, _ in turn.ends]
            last_turn = number == len(turns) - 1
            for seat in views:
                # The same seat's example at the next turn comes one view-set later.
                following = -1 if last_turn else len(self.labels) + len(views)
                self._add(game, turn, after, seat, shares[seat], following)

    def _add(
        self,
        game: Pickomino,
        turn: Turn,
        after: list[PickominoState],
        seat: int,
        share: float,
        following: int,
    ) -> None:
        state = turn.state
        self.rows.append(position_features(state.grill, state.stacks, state.seat, seat))
        self.labels.append(share)
        self.taken.append(self.first[-1] + turn.taken)
        self.following.append(following)
        for position, (_, chance) in zip(after, turn.ends, strict=True):
            self.next_rows.append(
                position_features(position.grill, position.stacks, position.seat, seat)
            )
            self.chances.append(chance)
            over = position.phase is Phase.OVER
            self.finals.append(win_share(game, position, seat) if over else np.nan)
        self.first.append(len(self.next_rows))

    def examples(self) -> Examples:
        def table(rows: list[Floats]) -> Floats32:
            return np.array(rows, dtype=np.float32).reshape(-1, self.width)

        backups = Backups(
            table(self.next_rows),
            np.array(self.chances),
            np.array(self.finals),
            np.array(self.first, dtype=np.int64),
            np.array(self.taken, dtype=np.int64),
            np.array(self.following, dtype=np.int64),
        )
        return Examples(table(self.rows), np.array(self.labels), backups)


def play_examples(players: int, games: range, seed: int, model: WinModel | None = None) -> Examples:
    """Examples from the seeded games numbered `games`. Without a model every seat plays
    `optimal` and every seat's view is an example. With one, one seat (rotating) plays
    `winner` with that model against `optimal` seats, and only its view is an example: the
    chances the bot will be asked about."""
    builder = _ExampleBuilder(feature_count(players))
    for index in games:
        game = Pickomino({"players": players, "start_seat": index % players})
        learner = (index // players) % players
        policies: list[Policy] = [optimal_policy] * players
        if model is not None:
            policies[learner] = winner_policy(model)
        turns, final = play_game(game, policies, random.Random(f"{seed}/{index}"))
        builder.add_game(game, turns, final, range(players) if model is None else (learner,))
    return builder.examples()


def join_examples(parts: Sequence[Examples]) -> Examples:
    """The examples of `parts` one after the other, their row indices shifted to match."""
    example_offsets = np.cumsum([0, *(len(part) for part in parts)])
    row_offsets = np.cumsum([0, *(len(part.backups.chances) for part in parts)])

    def shifted(name: str, offsets: Ints) -> list[Ints]:
        arrays = [getattr(part.backups, name) for part in parts]
        return [np.where(a >= 0, a + o, a) for a, o in zip(arrays, offsets, strict=False)]

    firsts = [part.backups.first[:-1] + o for part, o in zip(parts, row_offsets, strict=False)]
    backups = Backups(
        _stacked_backup_features(parts),
        np.concatenate([part.backups.chances for part in parts]),
        np.concatenate([part.backups.finals for part in parts]),
        np.concatenate([*firsts, row_offsets[-1:]]),
        np.concatenate(shifted("taken", row_offsets)),
        np.concatenate(shifted("following", example_offsets)),
    )
    return Examples(
        np.concatenate([part.features for part in parts]),
        np.concatenate([part.labels for part in parts]),
        backups,
    )


def _stacked_backup_features(parts: Sequence[Examples]) -> Floats32:
    """The backup positions of all parts in one table, the largest array of a round. Each
    part keeps a view into it instead of its own copy, so about one copy is ever held."""
    sizes = [len(part.backups.chances) for part in parts]
    table = np.empty((sum(sizes), parts[0].features.shape[1]), dtype=np.float32)
    at = 0
    for part, size in zip(parts, sizes, strict=True):
        table[at : at + size] = part.backups.features
        part.backups.features = table[at : at + size]
        at += size
    return table


_PREDICT_BATCH = 1 << 16


def lambda_targets(model: WinModel, examples: Examples, trace: float) -> Floats:
    """TD(lambda) targets with full expectations over each turn's ends.

    The one-turn backup of an example is the chance-weighted mean, over every way its turn
    can end, of the model's win chance there (the rules' share where the game is over).
    The target mixes it with the same seat's target one turn later:
    G = backup + trace * (G_next - value of the position the game went to).
    `trace` 1 gives the final result corrected by zero-mean terms (lower variance, no bias
    from the model); 0 gives the one-turn backup alone."""
    backups = examples.backups
    unfinished = np.isnan(backups.finals)
    values = np.where(unfinished, 0.0, backups.finals)
    open_rows = np.flatnonzero(unfinished)
    for start in range(0, len(open_rows), _PREDICT_BATCH):
        rows = open_rows[start : start + _PREDICT_BATCH]
        values[rows] = model.predict(backups.features[rows].astype(np.float64))
    backup = np.add.reduceat(backups.chances * values, backups.first[:-1])
    taken = values[backups.taken]
    targets = np.empty(len(examples))
    for i in range(len(examples) - 1, -1, -1):
        following = backups.following[i]
        later = targets[following] if following >= 0 else taken[i]
        targets[i] = backup[i] + trace * (later - taken[i])
    clipped: Floats = np.clip(targets, 0.0, 1.0)
    return clipped


# --- fitting ----------------------------------------------------------------------------------
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
    config: TrainConfig = _DEFAULT_FIT,
    report: Callable[[int, float], None] | None = None,
    targets: Floats | None = None,
    start: WinModel | None = None,
) -> WinModel:
    """Fit a model with Adam to `targets` (default: the final results), from the weights of
    `start` or from random ones; `report(epoch, mean loss)` after each epoch."""
    rng = np.random.default_rng(config.seed)
    labels = train.labels if targets is None else targets
    if start is None:
        weights = _initial_weights(feature_count(players), config, rng)
    else:
        weights = [w.copy() for w in start.weights]
    moments = [np.zeros_like(w) for w in weights]
    squares = [np.zeros_like(w) for w in weights]
    step = 0
    for epoch in range(config.epochs):
        order = rng.permutation(len(train))
        losses = []
        for begin in range(0, len(order), config.batch):
            rows = order[begin : begin + config.batch]
            x = train.features[rows].astype(np.float64)
            loss, grads = _gradients(weights, x, labels[rows])
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


# --- rounds of training -----------------------------------------------------------------------
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
    return join_examples(parts)


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
        model = fit_round(training, examples, progress)
    if model is None:
        raise ValueError("train at least one round")
    return model


def fit_round(training: Training, examples: Examples, progress: Progress) -> WinModel:
    """A model fitted to the final results, then refitted to its own TD targets."""

    def report(epoch: int, loss: float) -> None:
        progress(f"  epoch {epoch + 1}: cross-entropy {loss:.4f}")

    model = fit_model(training.players, examples, training.fit, report)
    for sweep in range(1, training.sweeps + 1):
        progress(f" sweep {sweep}: TD({training.trace:g}) targets")
        targets = lambda_targets(model, examples, training.trace)
        model = fit_model(training.players, examples, training.fit, report, targets, model)
    return model
