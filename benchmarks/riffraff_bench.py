"""Riff Raff speed figures: one placement's settle window, and seeded 2- and 4-player games of
`careful` bots: each search's wall and processor time by pieces on board (0-8, 8-16, 16-24,
24 and more; median, 95th percentile, most) and the whole game's processor time.

On a shared machine the wall times grow with the load (printed beside them); compare
processor times, and run it with `nice -n -10`. `--spec` plays another bot (such as
`careful:budget=12`), `--no-settle` only the games.

The loaded ships are played, not built: two careful players (steadiness 0.5) load the ship
in mirrored pairs of noisy placements (the same piece at the same point to port and to
starboard, fore and aft; the raised side first), low areas more often than high ones, at
the next free point along the area, every piece type in turn, until the board holds the
wanted number of pieces. Pieces that
fall are gone, as in a game. So the board rests as real play leaves it and is nearly upright
(`test_settle` checks its tilt). Each figure is the median processor time over noisy
placements of a box at several points, on three boards loaded with different seeds;
`on_board` is what the emptiest of them really holds.

    python benchmarks/riffraff_bench.py [--json] [--repeats N] [--no-bot] [--no-settle]
                                        [--spec SPEC]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from dataclasses import asdict, dataclass
from itertools import cycle

import numpy as np

from spieltisch.bots import make_bot
from spieltisch.bots.riffraff import area_lift, points_along
from spieltisch.core import make_game
from spieltisch.games.riffraff.board import REST, Board, Placement, footprint_problem
from spieltisch.games.riffraff.physics import free_body, generator, simulate_placement
from spieltisch.games.riffraff.state import Phase

PAIRS = ((1, 4), (2, 3), (5, 6), (4, 1), (3, 2), (7, 8), (6, 5), (1, 4), (2, 3), (9, 10))
"""Areas loaded one after the other: deck quarters diagonally opposite, yard halves."""
BOARDS = ((8, 30), (24, 80))  # pieces on board, the target median settle (ms)
BOARD_SEEDS = (1, 2, 3)  # each figure is taken over the boards of these loading seeds
ORDER = (3, 7, 2, 0, 1, 6, 5, 4)  # box, chest, flacon, boat, barrel, rat, plank, sailor
STEADINESS = 0.5
CARGO = 32  # the pieces of a 2-player game
BOX_SPOTS = [(5, 0.6), (6, 0.55), (8, 0.5), (1, 0.5), (4, 0.6), (9, 0.45)]


def _allowed(piece: int, area: int, u: float) -> Placement | None:
    """The placement of `piece` at `u` (or a little further out), along the area or turned."""
    for yaw in (0.0, 90.0):
        for step in (0.0, 0.15, 0.3):
            placement = Placement(piece, area, min(u + step, 1.0), 0.0, yaw)
            if footprint_problem(placement) is None:
                return placement
    return None


def played_board(count: int, seed: int = 1) -> Board:
    """The ship as two careful players leave it after loading `count` pieces (fewer when the
    supply runs out first)."""
    board, seeds = REST, np.random.default_rng(seed)
    kinds = cycle(ORDER)
    for turn in range(4 * CARGO):
        if len(board.pieces) >= count:
            break
        if turn % 2 == 0:  # the raised side of the pair first, as careful chooses its card
            piece, pair = next(kinds), PAIRS[turn // 2 % len(PAIRS)]
            pair = tuple(sorted(pair, key=lambda a: -area_lift(a, *board.joints[:2])))
        area = pair[turn % 2]
        placement = _allowed(piece, area, points_along(board, area)[0])
        body = _free(board, piece)
        if placement is None or body is None:
            continue
        noise = generator(int(seeds.integers(2**63)))
        result = simulate_placement(board, placement, body, noise, STEADINESS, frames=False)
        board = result.board
    return board


def _free(board: Board, piece: int) -> int | None:
    """A piece of type `piece` not yet on board, or None."""
    try:
        return free_body(board, piece, CARGO)
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class Settling:
    """Medians over the placements: wall and processor time (ms), simulated seconds."""

    wall_ms: float
    cpu_ms: float
    seconds: float
    pieces: int


def settle_figures(count: int, repeats: int) -> Settling:
    """One noisy box placement's settle window, `repeats` times on each of the boards that
    loading `count` pieces with BOARD_SEEDS leaves (a loaded ship is chaotic: one board alone
    can be one where nearly every placement starts a cascade)."""
    wall, cpu, seconds, held = [], [], [], []
    for seed in BOARD_SEEDS:
        board = played_board(count, seed)
        held.append(len(board.pieces))
        free = free_body(board, 3, 64)  # a box
        for index, (area, u) in zip(range(repeats), cycle(BOX_SPOTS), strict=False):
            started, ticks = time.perf_counter(), time.process_time()
            result = simulate_placement(
                board, Placement(3, area, u), free, generator(index), frames=False
            )
            wall.append(time.perf_counter() - started)
            cpu.append(time.process_time() - ticks)
            seconds.append(result.seconds)
    median = statistics.median
    return Settling(median(wall) * 1000, median(cpu) * 1000, median(seconds), min(held))


FILLS = ((0, 8), (8, 16), (16, 24), (24, 99))  # pieces on board when a decision is made
SEARCHING = (Phase.ANNOUNCE, Phase.PLACE)  # the decisions that try placements


@dataclass(frozen=True, slots=True)
class Decisions:
    """Wall and processor times (s) of decisions with a fill of `low` to `high` - 1 pieces."""

    low: int
    high: int
    count: int
    median_wall: float
    p95_wall: float
    max_wall: float
    median_cpu: float
    p95_cpu: float
    max_cpu: float


@dataclass(frozen=True, slots=True)
class CarefulGame:
    """One seeded game of `careful` bots: its decisions by fill and the whole game."""

    players: int
    spec: str
    searches: int
    fills: tuple[Decisions, ...]
    slowest_cpu: float  # the slowest decision of any kind (processor time)
    game_cpu_s: float  # the whole game: decisions, physics and rules


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _by_fill(timed: list[tuple[int, float, float]]) -> tuple[Decisions, ...]:
    """A row for each fill with decisions, and one for all (0 to 99)."""
    rows = []
    for low, high in (*FILLS, (0, 99)):
        wall = [w for n, w, _ in timed if low <= n < high]
        cpu = [c for n, _, c in timed if low <= n < high]
        if not wall:
            continue
        rows.append(
            Decisions(
                low,
                high,
                len(wall),
                statistics.median(wall),
                _percentile(wall, 0.95),
                max(wall),
                statistics.median(cpu),
                _percentile(cpu, 0.95),
                max(cpu),
            )
        )
    return tuple(rows)


def careful_game(players: int = 4, seed: int = 1, spec: str = "careful") -> CarefulGame:
    """Plays one seeded game of `spec` bots (steadiness 1, catching by the model), as
    `spieltisch simulate` does: one bot per seat for the whole game. Each search (an
    announcement, or a placement on a ship the bot has not searched yet) is timed: the web
    table makes a fresh bot for every decision, so there an announcement and the placement
    after it are a search each, as costly as one here."""
    game = make_game("riffraff", {"players": players})
    rng = random.Random(seed)
    bots = [make_bot(game, spec, seed=seed + seat) for seat in range(players)]
    state, timed, slowest, game_cpu = game.new_state(), [], 0.0, 0.0
    searched: dict[int, object] = {}  # seat: the ship, seat and supply of its last search
    while not game.is_over(state):
        seat = game.to_move(state)
        if seat == -1:
            ticks = time.process_time()
            state = game.apply(state, game.sample_chance(state, rng))
            game_cpu += time.process_time() - ticks
            continue
        started, ticks = time.perf_counter(), time.process_time()
        action = bots[seat].choose(state)
        wall, spent = time.perf_counter() - started, time.process_time() - ticks
        game_cpu += spent
        slowest = max(slowest, spent)
        ship = (state.board, state.supplies)
        if state.phase in SEARCHING and searched.get(seat) != ship:
            searched[seat] = ship
            timed.append((len(state.board.pieces), wall, spent))
        state = game.apply(state, action)
    return CarefulGame(players, spec, len(timed), _by_fill(timed), slowest, game_cpu)


def settle_json(count: int, repeats: int) -> dict[str, float | int]:
    """One board's figures as the issue asks for them (processor time)."""
    got = settle_figures(count, repeats)
    return {
        "pieces": count,
        "on_board": got.pieces,
        "median_ms": round(got.cpu_ms, 1),
        "simulated_s": round(got.seconds, 3),
    }


def report(
    quick: bool,
    as_json: bool = False,
    repeats: int = 0,
    bot: bool = True,
    settle: bool = True,
    spec: str = "careful",
) -> None:
    repeats = repeats or (5 if quick else 15)
    for count, target in BOARDS if settle else ():
        got = settle_json(count, repeats)
        if as_json:
            print(json.dumps(got))
            continue
        label = f"Riff Raff settle window, {count} pieces (target {target} ms)"
        print(
            f"{label:<53}{got['median_ms']:.1f} ms processor  "
            f"({got['simulated_s']:.2f} s simulated, {got['on_board']} on board)"
        )
    if not bot:
        return
    for players in (2, 4):
        show_game(careful_game(players, spec=spec), as_json)


def show_game(got: CarefulGame, as_json: bool) -> None:
    if as_json:
        print(json.dumps({f"careful_{got.players}p": _rounded(asdict(got))}))
        return
    print(
        f"Riff Raff {got.spec}, {got.players}-player game (seed 1): {got.game_cpu_s:.1f} s "
        f"processor (target for 2 players 15 s), slowest decision {got.slowest_cpu:.2f} s; "
        f"{got.searches} searches (announce, place), by pieces on board "
        "(s; targets: max 1.5 wall, median 0.15); load average "
        + " ".join(f"{x:.1f}" for x in os.getloadavg())
    )
    print("   fill  count  wall median    p95    max  cpu median    p95    max")
    for row in got.fills:
        fill = f"{row.low}-{row.high}" if row.high < 99 else f"{row.low}+" if row.low else "all"
        print(
            f"  {fill:>5}  {row.count:5d}  {row.median_wall:11.3f} {row.p95_wall:6.3f} "
            f"{row.max_wall:6.3f}  {row.median_cpu:10.3f} {row.p95_cpu:6.3f} {row.max_cpu:6.3f}"
        )


def _rounded(value: object) -> object:
    if isinstance(value, float):
        return round(value, 4)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_rounded(v) for v in value]
    return value


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true", help="one JSON object per board")
    parser.add_argument("--repeats", type=int, default=0, help="placements per board")
    parser.add_argument("--no-bot", action="store_true", help="skip the careful games")
    parser.add_argument("--no-settle", action="store_true", help="only the careful games")
    parser.add_argument("--spec", default="careful", help="the bot of the games")
    args = parser.parse_args()
    report(
        quick=True,
        as_json=args.json,
        repeats=args.repeats,
        bot=not args.no_bot,
        settle=not args.no_settle,
        spec=args.spec,
    )
