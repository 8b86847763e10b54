"""Many seeded bot-against-bot games, in parallel, with win rates and game statistics.

Game `i` of a simulation with seed `s` draws its dice seed and one seed per bot from
`random.Random(f"{s}:{i}")` (see `game_seeds`), so it is the same game whichever process plays it:
at dice level `play_match(game, bots, dice_seed)` with `make_bot(game, name, bot_seed)` replays
it exactly.
Games are played in chunks whose size depends only on the number of games, and the chunks are
added up in game order, so `jobs` never changes a result, not even in the last digit.

Win rates count a shared win as 1/k to each of the k winners. Their 95% confidence interval is
the Wilson score interval with these fractional wins as successes (conservative for shared
wins, which vary less than a win-or-lose game). `mean_decision_runs` counts the runs of
decisions by one seat; chance outcomes in between do not end it.

Each process makes its bots once and reseeds their generators before every game, as `make_bot`
would seed new ones; so a bot may keep caches between games, but no other memory of them.

Turn level: when every seat's bot decides a Pickomino turn from the turn's own position
(`greedy`, `optimal`, `winner`: each gives the exact chances of every way its turn ends,
`turn_outcome`), a game is played a whole turn at a time, one seeded draw per turn picks how
the turn ends (`analysis.turn_play`, with the game's dice generator). That is
the same game in distribution as rolling every die, and faster (bots cache the chances by what
their turn depends on, and the processes share the turns they solve), but not the same games
as `play_match`: the report says
`"level": "turn"`, the games' statistics see only the positions between turns, and records of
games (`play_match`, replays, tournaments) always hold the dice. `dice=True` (`--dice`) plays
every roll, as any seat that needs dice (`random`, other games) does anyway.

Karolinchen games are played by `Karolinchen.play_out`, the rolls between decisions on one
mutable table: the same games, dice and statistics as one action at a time.
"""

from __future__ import annotations

import ctypes
import gc
import multiprocessing
import random
import signal
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from math import sqrt
from typing import TYPE_CHECKING, Any

from spieltisch.analysis import karolinchen_stats  # noqa: F401  (registers its statistics)
from spieltisch.analysis.game_stats import StatsHook, Totals, add_totals, stats_hook
from spieltisch.analysis.karolinchen_stats import playout_totals
from spieltisch.analysis.shared_records import SharedRecords
from spieltisch.bots.base import Bot, make_bot, read_bot_spec
from spieltisch.bots.karolinchen import playout_seat
from spieltisch.core.errors import InvalidOptions
from spieltisch.core.protocol import CHANCE, Game, JsonValue
from spieltisch.core.registry import game_class, make_game
from spieltisch.games.karolinchen.rules import Karolinchen
from spieltisch.games.pickomino.rules import Pickomino

if TYPE_CHECKING:
    from spieltisch.analysis.turn_play import TurnDrawer

__all__ = [
    "START_SEAT_MODES",
    "SimulationConfig",
    "SimulationError",
    "SimulationResult",
    "check_config",
    "chunk_size",
    "game_options",
    "game_seeds",
    "parse_start_seat",
    "plays_turns",
    "run_simulation",
    "wilson_interval",
    "win_shares",
]

START_SEAT_MODES = ("rotate", "random")
Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""
_DIGITS = 6


class SimulationError(ValueError):
    """A simulation that cannot run as asked; the message says what is allowed."""


@dataclass(frozen=True)
class SimulationConfig:
    """What to simulate. `start_seat` is 'rotate' (game i starts at seat i mod players),
    'random' (the rules draw it) or a fixed seat number. `dice`: roll every die even where
    whole turns could be drawn (see `plays_turns`)."""

    game: str
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    jobs: int = 1
    start_seat: str | int = "rotate"
    options: Mapping[str, JsonValue] = field(default_factory=dict)
    dice: bool = False


def parse_start_seat(text: str) -> str | int:
    """'rotate', 'random' or a seat number, as typed on a command line."""
    word = text.strip().lower()
    if word in START_SEAT_MODES:
        return word
    if word.isdigit():
        return int(word)
    raise SimulationError(f"start seat '{text}' must be 'rotate', 'random' or a seat number")


def chunk_size(games: int) -> int:
    """Games per task: about 64 tasks, at most 100 games each; independent of the jobs."""
    return max(1, min(100, games // 64))


def game_seeds(seed: int, index: int, players: int) -> tuple[int, tuple[int, ...]]:
    """The dice seed and the bots' seeds of game `index`."""
    draw = random.Random(f"{seed}:{index}")
    dice_seed = draw.getrandbits(64)
    return dice_seed, tuple(draw.getrandbits(64) for _ in range(players))


def seed_drawing_bots(bots: Sequence[Bot], seeds: Sequence[int]) -> None:
    """Seed each bot's generator as `make_bot(game, name, seed)` would; a bot that never draws
    keeps its generator as it is (the games come out the same, and sooner)."""
    for bot, seed in zip(bots, seeds, strict=True):
        if bot.draws:
            bot.rng.seed(seed)


def game_options(config: SimulationConfig, index: int) -> dict[str, JsonValue]:
    """The game options of game `index`: the given ones, the seats and the start seat."""
    options: dict[str, JsonValue] = {**config.options, "players": len(config.bots)}
    if config.start_seat == "rotate":
        if _has_start_seat(config.game):
            options["start_seat"] = index % len(config.bots)
    else:
        options["start_seat"] = config.start_seat
    return options


def _has_start_seat(game_name: str) -> bool:
    players = game_class(game_name).min_players
    return "start_seat" in make_game(game_name, {"players": players}).options_json()


# --- checking the request ---------------------------------------------------------------------
def check_config(config: SimulationConfig) -> None:
    """Raise `SimulationError` naming the first thing that would stop the simulation."""
    if config.games < 1:
        raise SimulationError(f"the number of games must be at least 1, not {config.games}")
    if config.jobs < 1:
        raise SimulationError(f"the number of jobs must be at least 1, not {config.jobs}")
    try:
        cls = game_class(config.game)
    except KeyError as error:
        raise SimulationError(str(error.args[0])) from None
    if not cls.min_players <= len(config.bots) <= cls.max_players:
        raise SimulationError(
            f"{cls.title} needs {cls.min_players} to {cls.max_players} seats, "
            f"not {len(config.bots)}"
        )
    for key in ("players", "start_seat"):
        if key in config.options:
            where = "--seats" if key == "players" else "--start-seat"
            raise SimulationError(f"option {key} is set by {where}, not as a game option")
    start = config.start_seat
    if isinstance(start, str) and start not in START_SEAT_MODES:
        raise SimulationError(f"start seat '{start}' must be 'rotate', 'random' or a seat number")
    if start != "rotate" and not _has_start_seat(config.game):
        raise SimulationError(f"{cls.title} has no start seat option; leave the start seat out")
    for variant in _variant_indices(config):
        try:
            game = make_game(config.game, game_options(config, variant))
        except InvalidOptions as error:
            raise SimulationError(str(error)) from None
    for bot in config.bots:
        try:
            make_bot(game, bot)  # a name, or a spec with parameters where bots take them
        except KeyError as error:
            raise SimulationError(str(error.args[0])) from None


def plays_turns(config: SimulationConfig) -> bool:
    """Whether games are drawn a whole turn at a time: Pickomino without `dice`, and every
    seat's bot gives the chances of its turn's ends."""
    if config.dice or config.game != Pickomino.name:
        return False
    from spieltisch.bots.pickomino import TurnPlayer

    return all(issubclass(read_bot_spec(config.game, bot)[0], TurnPlayer) for bot in config.bots)


def _variant_indices(config: SimulationConfig) -> range:
    """Game indices that cover every distinct set of options (the rotating start seats)."""
    rotates = config.start_seat == "rotate" and _has_start_seat(config.game)
    return range(len(config.bots) if rotates else 1)


# --- playing, in a worker or in this process --------------------------------------------------
@dataclass
class _Tally:
    """The sums over some games: winner sets, turns and the game's own statistics."""

    games: int = 0
    winners: Counter[tuple[int, ...]] = field(default_factory=Counter)
    turns: int = 0
    totals: Totals = field(default_factory=dict)

    def add(self, other: _Tally) -> None:
        self.games += other.games
        self.winners.update(other.winners)
        self.turns += other.turns
        add_totals(self.totals, other.totals)


_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters
_SHARED_SOLVES = 1 << 15  # solved turns the processes of one simulation share at most
_KEPT_FREE = 32 << 20  # bytes


def keep_freed_memory() -> None:
    """Ask glibc's malloc to keep freed memory for reuse rather than give it back to the
    system at once: the Pickomino turn solver's arrays of a few hundred kB would otherwise
    fault their pages in anew at every solve, most of a simulation's system time. Where
    the C library is another, nothing changes."""
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return
    mallopt(_M_MMAP_THRESHOLD, _KEPT_FREE)
    mallopt(_M_TRIM_THRESHOLD, 2 * _KEPT_FREE)


class _Table:
    """One process's games and bots, built once and reused for every game it plays."""

    def __init__(self, config: SimulationConfig) -> None:
        keep_freed_memory()
        self.config = config
        self.hook: StatsHook | None = stats_hook(config.game)
        self.variants = len(_variant_indices(config))
        self.turns = plays_turns(config)
        self.games: list[Game[Any, Any]] = []
        self.bots: list[list[Bot]] = []
        for variant in range(self.variants):
            game = make_game(config.game, game_options(config, variant))
            self.games.append(game)
            self.bots.append([make_bot(game, name) for name in config.bots])
        self.drawers = [self._turn_drawers(bots) for bots in self.bots] if self.turns else []

    @staticmethod
    def _turn_drawers(bots: list[Bot]) -> list[TurnDrawer]:
        from spieltisch.analysis.turn_play import TurnDrawer

        return [TurnDrawer(bot) for bot in bots]

    def play(self, index: int, tally: _Tally) -> None:
        """Play game `index` to the end and add it to `tally`."""
        variant = index % self.variants
        game, bots = self.games[variant], self.bots[variant]
        dice_seed, bot_seeds = game_seeds(self.config.seed, index, len(bots))
        seed_drawing_bots(bots, bot_seeds)
        dice = random.Random(dice_seed)
        totals: Totals | None = None
        if self.turns and isinstance(game, Pickomino):
            from spieltisch.analysis.turn_play import play_turns

            states: list[Any] = play_turns(game, self.drawers[variant], dice)
            actions: list[Any] = []
            turns = len(states) - 1
        elif isinstance(game, Karolinchen):
            playout = game.play_out(game.new_state(), [playout_seat(bot) for bot in bots], dice)
            states, actions, turns = [playout.state], [], playout.decision_runs
            totals = playout_totals(game, playout)
        else:
            states, actions, turns = self._play_dice(game, bots, dice)
        tally.games += 1
        tally.turns += turns
        tally.winners[tuple(game.winners(states[-1]))] += 1
        if self.hook is not None:
            if totals is None:
                totals = self.hook.collect(game, states, actions)
            add_totals(tally.totals, totals)

    def _play_dice(
        self, game: Game[Any, Any], bots: list[Bot], dice: random.Random
    ) -> tuple[list[Any], list[Any], int]:
        """Every state (only the last one when no statistics need them), every action and
        the runs of decisions by one seat."""
        keep = self.hook is not None
        state = game.new_state()
        states: list[Any] = [state]
        actions: list[Any] = []
        turns, last = 0, None
        mover = game.to_move(state)
        while mover is not None:
            if mover == CHANCE:
                action = game.sample_chance(state, dice)
            else:
                if mover != last:
                    turns, last = turns + 1, mover
                action = bots[mover].choose(state)
            state = game.apply(state, action)
            if keep:
                states.append(state)
                actions.append(action)
            mover = game.to_move(state)
        return states if keep else [state], actions, turns

    def play_chunk(self, start: int, stop: int) -> _Tally:
        tally = _Tally()
        for index in range(start, stop):
            self.play(index, tally)
        return tally


_WORKER_TABLE: _Table | None = None


def _start_worker(config: SimulationConfig, solved: SharedRecords | None) -> None:
    """Pool initializer: Ctrl-C is the parent's to handle; share solved turns; build the
    table once."""
    global _WORKER_TABLE
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if solved is not None:
        from spieltisch.games.pickomino.solver import share_solved_turns

        share_solved_turns(solved)
    _WORKER_TABLE = _Table(config)


def _shared_solves(config: SimulationConfig) -> SharedRecords | None:
    """Where the processes of turn-level play share the turns they solve: the same turns
    come up in many games, whichever process plays them."""
    if not plays_turns(config):
        return None
    from spieltisch.games.pickomino.solver import SOLVED_RECORD

    return SharedRecords(SOLVED_RECORD, _SHARED_SOLVES)


def _worker_chunk(task: tuple[int, int, int]) -> tuple[int, _Tally]:
    number, start, stop = task
    if _WORKER_TABLE is None:
        raise RuntimeError("simulation worker was not started")
    part = _WORKER_TABLE.play_chunk(start, stop)
    gc.freeze()  # see _frozen_between_chunks; the worker ends with the simulation
    return number, part


@contextmanager
def _frozen_between_chunks() -> Iterator[Callable[[], None]]:
    """A call for after each chunk: what outlives its games (the bots' and the solver's
    caches, hundreds of thousands of objects) leaves the cycle collector's care, which walked
    all of it again at each full collection: a quarter of the time of turn-level play.
    Undone at the end; nothing is frozen where objects were frozen before."""
    if gc.get_freeze_count():
        yield lambda: None
        return
    try:
        yield gc.freeze
    finally:
        gc.unfreeze()


def _chunks(games: int) -> list[tuple[int, int, int]]:
    size = chunk_size(games)
    return [(n, start, min(start + size, games)) for n, start in enumerate(range(0, games, size))]


def run_simulation(
    config: SimulationConfig, progress: Callable[[int], None] | None = None
) -> SimulationResult:
    """Play `config.games` games; `progress(games_done)` is called after every chunk.

    Raises `SimulationError` for a request that cannot run. On Ctrl-C the worker processes are
    terminated and `KeyboardInterrupt` propagates.
    """
    check_config(config)
    chunks = _chunks(config.games)
    parts: list[_Tally | None] = [None] * len(chunks)
    done = 0
    if config.jobs == 1:
        table = _Table(config)
        with _frozen_between_chunks() as between_chunks:
            for number, start, stop in chunks:
                parts[number] = table.play_chunk(start, stop)
                between_chunks()
                done += stop - start
                if progress is not None:
                    progress(done)
    else:
        processes = min(config.jobs, len(chunks))
        initargs = config, _shared_solves(config)
        with multiprocessing.Pool(processes, _start_worker, initargs) as pool:
            for number, part in pool.imap_unordered(_worker_chunk, chunks):
                parts[number] = part
                done += part.games
                if progress is not None:
                    progress(done)
            pool.close()
            pool.join()
    total = _Tally()
    for tally in parts:
        if tally is None:
            raise RuntimeError("a chunk of games went missing")
        total.add(tally)
    return SimulationResult(config, total)


# --- results ----------------------------------------------------------------------------------
def win_shares(winners: Mapping[tuple[int, ...], int], players: int) -> list[Fraction]:
    """Each seat's wins, a shared win counting 1/k to each of its k winners."""
    wins = [Fraction(0)] * players
    for seats, count in winners.items():
        for seat in seats:
            wins[seat] += Fraction(count, len(seats))
    return wins


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a success rate (successes may be fractional)."""
    rate = successes / trials
    spread = z * z / trials
    center = (rate + spread / 2) / (1 + spread)
    half = z * sqrt(rate * (1 - rate) / trials + spread / (4 * trials)) / (1 + spread)
    return max(0.0, center - half), min(1.0, center + half)


def _rounded(value: JsonValue) -> JsonValue:
    if isinstance(value, float):
        return round(value, _DIGITS)
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    return value


class SimulationResult:
    """The outcome of a simulation, reported in game order whatever the number of jobs."""

    def __init__(self, config: SimulationConfig, tally: _Tally) -> None:
        self.config = config
        self.games = tally.games
        self.winners = dict(sorted(tally.winners.items()))
        self.wins = win_shares(self.winners, len(config.bots))
        self.mean_decision_runs = tally.turns / tally.games
        self.level = "turn" if plays_turns(config) else "dice"
        hook = stats_hook(config.game)
        self.stats: dict[str, JsonValue] = (
            hook.summarize(tally.totals, tally.games) if hook is not None else {}
        )

    @property
    def shared_games(self) -> int:
        return sum(count for seats, count in self.winners.items() if len(seats) > 1)

    def seats_json(self) -> list[dict[str, JsonValue]]:
        rows: list[dict[str, JsonValue]] = []
        for seat, (bot, wins) in enumerate(zip(self.config.bots, self.wins, strict=True)):
            low, high = wilson_interval(float(wins), self.games)
            rate = float(wins / self.games)
            rows.append(
                {
                    "seat": seat,
                    "bot": bot,
                    "wins": float(wins),
                    "win_rate": rate,
                    "ci95": [low, high],
                }
            )
        return rows

    def to_json(self) -> dict[str, JsonValue]:
        """The report: game, level ('turn': drawn a whole turn at a time, or 'dice'), games,
        seed, seats, mean_decision_runs and the game's own stats."""
        data: dict[str, JsonValue] = {
            "game": self.config.game,
            "level": self.level,
            "games": self.games,
            "seed": self.config.seed,
            "seats": self.seats_json(),
            "mean_decision_runs": self.mean_decision_runs,
            "stats": self.stats,
        }
        return _rounded(data)  # type: ignore[no-any-return]
