"""Round-robin tournaments between bots: every seat count, every seating, seeded and resumable.

The schedule: for each seat count k (ascending), the *lineups* are the k-combinations of the
bots (in the given order); when k exceeds the number of bots, a lineup holds every bot once and
the remaining seats are filled by each combination with repetition. Every lineup is played in
each of its distinct seat orders (its *seatings*). Game `i` plays seating `i mod S` (S seatings
in all), so N games cycle through the schedule and every seating gets N / S of them.

Game `i` draws its dice seed and its bots' seeds exactly as a simulation does
(`simulate.game_seeds(seed, i, k)`), so a game's result depends only on the tournament's
arguments and `i`: never on the backend, the number of jobs or an interruption.

Results are stored as JSON lines next to the report: first the tournament's arguments, then one
line per finished game. Running the same tournament again reads them and plays only the games
still missing; a file of a different tournament is refused.
"""

from __future__ import annotations

import functools
import itertools
import json
import multiprocessing
import signal
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spieltisch.analysis.backends import BACKENDS
from spieltisch.analysis.simulate import game_seeds, seed_drawing_bots
from spieltisch.bots.base import Bot, make_bot
from spieltisch.bots.match import play_match
from spieltisch.core.errors import InvalidOptions
from spieltisch.core.protocol import Game, JsonValue
from spieltisch.core.registry import game_class, make_game

__all__ = [
    "BACKENDS",
    "GameResult",
    "TablePlayer",
    "TournamentConfig",
    "TournamentError",
    "load_results",
    "parse_players",
    "play_game",
    "results_path",
    "run_tournament",
    "schedule",
]

Progress = Callable[[int], None]


class TournamentError(ValueError):
    """A tournament that cannot run as asked; the message says what is allowed."""


@dataclass(frozen=True)
class TournamentConfig:
    game: str
    bots: tuple[str, ...]
    players: tuple[int, ...]
    games: int
    seed: int = 0
    options: Mapping[str, JsonValue] = field(default_factory=dict)

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "game": self.game,
            "bots": list(self.bots),
            "players": list(self.players),
            "games": self.games,
            "seed": self.seed,
            "options": dict(self.options),
        }


@dataclass(frozen=True)
class GameResult:
    """One finished game: who sat where, who won, the scores and the number of actions."""

    index: int
    seats: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    actions: int

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "index": self.index,
            "seats": list(self.seats),
            "winners": list(self.winners),
            "scores": list(self.scores),
            "actions": self.actions,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameResult:
        return cls(
            int(data["index"]),
            tuple(str(s) for s in data["seats"]),
            tuple(int(s) for s in data["winners"]),
            tuple(int(s) for s in data["scores"]),
            int(data["actions"]),
        )


# --- the request ----------------------------------------------------------------------------
def parse_players(text: str) -> tuple[int, ...]:
    """Seat counts like '2-4', '3' or '2,4' as ascending distinct numbers."""
    counts: set[int] = set()
    for part in (p.strip() for p in text.split(",") if p.strip()):
        low, dash, high = part.partition("-")
        try:
            counts.update(range(int(low), int(high) + 1) if dash else [int(part)])
        except ValueError:
            raise TournamentError(f"'{part}' is not a seat count or a range like 2-4") from None
    if not counts:
        raise TournamentError("give at least one seat count, e.g. --players 2-4")
    return tuple(sorted(counts))


def check_config(config: TournamentConfig) -> None:
    """Raise `TournamentError` naming the first thing that would stop the tournament."""
    try:
        cls = game_class(config.game)
    except KeyError as error:
        raise TournamentError(str(error.args[0])) from None
    if len(set(config.bots)) != len(config.bots) or len(config.bots) < 2:
        raise TournamentError("a tournament needs at least two different bots, e.g. --bots a,b")
    for count in config.players:
        if not cls.min_players <= count <= cls.max_players:
            raise TournamentError(
                f"{cls.title} is played by {cls.min_players} to {cls.max_players} players, "
                f"not {count}"
            )
    if "players" in config.options:
        raise TournamentError("the seat counts are set by --players, not as a game option")
    if config.games < 1:
        raise TournamentError(f"the number of games must be at least 1, not {config.games}")
    for count in config.players:
        try:
            game = make_game(config.game, {**config.options, "players": count})
        except InvalidOptions as error:
            raise TournamentError(str(error)) from None
        for bot in config.bots:
            try:
                make_bot(game, bot)
            except KeyError as error:
                raise TournamentError(str(error.args[0])) from None


def _lineups(bots: Sequence[str], count: int) -> Iterator[tuple[str, ...]]:
    if count <= len(bots):
        yield from itertools.combinations(bots, count)
        return
    for extra in itertools.combinations_with_replacement(bots, count - len(bots)):
        yield tuple(sorted((*bots, *extra), key=bots.index))


def schedule(config: TournamentConfig) -> list[tuple[str, ...]]:
    """Every seating of the tournament, in schedule order."""
    seatings: list[tuple[str, ...]] = []
    for count in config.players:
        for lineup in _lineups(config.bots, count):
            seatings += sorted(set(itertools.permutations(lineup)), key=_order_key(config.bots))
    return seatings


def _order_key(bots: Sequence[str]) -> Callable[[tuple[str, ...]], tuple[int, ...]]:
    return lambda seating: tuple(bots.index(bot) for bot in seating)


# --- playing ---------------------------------------------------------------------------------
class TablePlayer:
    """One process's games and bots per seating, built once and reseeded for every game."""

    def __init__(self, config: TournamentConfig) -> None:
        self.config = config
        self.tables: dict[tuple[str, ...], tuple[Game[Any, Any], list[Bot]]] = {}

    def table(self, seating: tuple[str, ...]) -> tuple[Game[Any, Any], list[Bot]]:
        if seating not in self.tables:
            game = make_game(self.config.game, {**self.config.options, "players": len(seating)})
            self.tables[seating] = (game, [make_bot(game, spec) for spec in seating])
        return self.tables[seating]

    @functools.cached_property
    def seatings(self) -> list[tuple[str, ...]]:
        return schedule(self.config)

    def play(self, index: int, seating: tuple[str, ...] | None = None) -> GameResult:
        """Game `index`: the schedule's seating, or `seating` (any of the bots at any seat
        count of `check_config`), with the seeds of game `index` either way."""
        seating = seating or self.seatings[index % len(self.seatings)]
        game, bots = self.table(seating)
        dice_seed, bot_seeds = game_seeds(self.config.seed, index, len(seating))
        seed_drawing_bots(bots, bot_seeds)
        match = play_match(game, bots, dice_seed, seating)
        return GameResult(
            index,
            seating,
            tuple(game.winners(match.state)),
            tuple(game.scores(match.state)),
            len(match.actions),
        )


def play_game(config: TournamentConfig, index: int) -> GameResult:
    """Game `index` of the tournament, played on its own."""
    return TablePlayer(config).play(index)


def play_games(config: TournamentConfig, indices: Sequence[int]) -> list[GameResult]:
    player = TablePlayer(config)
    return [player.play(index) for index in indices]


_WORKER: TablePlayer | None = None


def _start_worker(config: TournamentConfig) -> None:
    """Pool initializer: Ctrl-C is the parent's to handle."""
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER = TablePlayer(config)


def _worker_games(indices: list[int]) -> list[GameResult]:
    if _WORKER is None:
        raise RuntimeError("tournament worker was not started")
    return [_WORKER.play(index) for index in indices]


def _chunks(indices: Sequence[int], jobs: int) -> list[list[int]]:
    size = max(1, min(20, len(indices) // (4 * jobs)))
    return [list(indices[start : start + size]) for start in range(0, len(indices), size)]


def _run_local(
    config: TournamentConfig, pending: Sequence[int], jobs: int
) -> Iterator[list[GameResult]]:
    if jobs == 1:
        player = TablePlayer(config)
        for index in pending:
            yield [player.play(index)]
        return
    chunks = _chunks(pending, jobs)
    with multiprocessing.Pool(min(jobs, len(chunks)), _start_worker, (config,)) as pool:
        yield from pool.imap_unordered(_worker_games, chunks)
        pool.close()
        pool.join()


def _run_ray(
    config: TournamentConfig, pending: Sequence[int], jobs: int, address: str | None
) -> Iterator[list[GameResult]]:
    try:
        import ray
    except ImportError:
        raise TournamentError(
            "--backend ray needs Ray: install the extra with pip install 'spieltisch[rl]'"
        ) from None
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False)
    remote_games = ray.remote(play_games)
    waiting = [remote_games.remote(config, chunk) for chunk in _chunks(pending, jobs)]
    try:
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            yield ray.get(done[0])
    finally:
        for task in waiting:
            ray.cancel(task, force=True)


# --- the results file ------------------------------------------------------------------------
def results_path(report: Path) -> Path:
    """The results file that belongs to a report: 'report.html' -> 'report.games.jsonl'."""
    return report.with_name(report.stem + ".games.jsonl")


def load_results(path: Path, config: TournamentConfig) -> dict[int, GameResult]:
    """The finished games stored in `path` (none when it does not exist yet)."""
    if not path.exists():
        return {}
    lines = path.read_text(encoding="utf-8").splitlines()
    try:
        header = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        header = None
    if header != {"tournament": config.to_json()}:
        raise TournamentError(
            f"{path} holds the results of a different tournament; give another --out or "
            "delete the file to start again"
        )
    results: dict[int, GameResult] = {}
    for line in lines[1:]:
        try:
            result = GameResult.from_json(json.loads(line))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            continue  # a line cut short by an interruption: that game is played again
        if 0 <= result.index < config.games:
            results[result.index] = result
    return results


def _open_results(path: Path, config: TournamentConfig) -> Any:
    if not path.exists() or path.stat().st_size == 0:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"tournament": config.to_json()}) + "\n", encoding="utf-8")
    else:
        text = path.read_text(encoding="utf-8")
        if not text.endswith("\n"):  # drop a line cut short by an interruption
            path.write_text(text[: text.rfind("\n") + 1], encoding="utf-8")
    return path.open("a", encoding="utf-8")


def run_tournament(
    config: TournamentConfig,
    path: Path,
    jobs: int = 1,
    backend: str = "local",
    progress: Progress | None = None,
    ray_address: str | None = None,
) -> list[GameResult]:
    """Play the games of `config` not yet in `path`, appending each as it finishes; return
    all results in game order. `progress(games_done)` counts the stored games too.

    On Ctrl-C the workers stop, the finished games stay stored, and `KeyboardInterrupt`
    propagates; the same call later continues where it stopped.
    """
    check_config(config)
    if jobs < 1:
        raise TournamentError(f"the number of jobs must be at least 1, not {jobs}")
    if backend not in BACKENDS:
        raise TournamentError(f"backend '{backend}' is not one of {', '.join(BACKENDS)}")
    results = load_results(path, config)
    pending = [index for index in range(config.games) if index not in results]
    if progress is not None:
        progress(len(results))
    if pending:
        batches: Iterable[list[GameResult]] = (
            _run_local(config, pending, jobs)
            if backend == "local"
            else _run_ray(config, pending, jobs, ray_address)
        )
        with _open_results(path, config) as out:
            for batch in batches:
                for result in batch:
                    results[result.index] = result
                    out.write(json.dumps(result.to_json()) + "\n")
                out.flush()
                if progress is not None:
                    progress(len(results))
    return [results[index] for index in range(config.games)]
