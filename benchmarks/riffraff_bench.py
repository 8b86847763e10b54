"""Riff Raff speed figures: one placement's settle window, and the careful bot's decision.

The loaded ships are built directly, not played: pieces laid flat in mirrored pairs (port and
starboard, fore and aft) on the deck and the yards of the upright ship, so the ship starts
balanced. Each figure is the median wall time over placements of a box at several points.
"""

from __future__ import annotations

import random
import statistics
import time
from itertools import cycle

from spieltisch.bots import make_bot
from spieltisch.core import make_game
from spieltisch.games.riffraff.board import Board, PiecePose, Placement
from spieltisch.games.riffraff.data import PIECES, SHIP, area_shape
from spieltisch.games.riffraff.physics import generator, simulate_placement
from spieltisch.games.riffraff.state import Phase

HALF_SQRT2 = 0.7071067811865476  # a quarter turn about z: cos and sin of 45 degrees
FLAT = (3, 7, 0, 5, 6, 2)  # box, chest, boat, plank, rat, flacon: pieces that lie still
SPOTS = [(area, u) for u in (0.35, 0.75) for area in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)] + [
    (area, 0.55) for area in (1, 2, 3, 4)
]
BOX_SPOTS = [(5, 0.6), (6, 0.55), (8, 0.5), (1, 0.5), (4, 0.6), (9, 0.45)]


def _surface_height(area: int) -> float:
    shape = area_shape(area)
    if shape.yard is None:
        return SHIP.pivot_height + SHIP.deck_height
    return SHIP.pivot_height + SHIP.deck_height + SHIP.yards[shape.yard].height


def loaded_board(count: int) -> Board:
    """The upright ship with `count` pieces (up to 24) lying on the areas in mirrored pairs."""
    pieces = []
    kinds = cycle(FLAT)
    used: dict[int, int] = {}
    for (area, u), _ in zip(SPOTS, range(count), strict=False):
        kind = next(kinds)
        body = kind + len(PIECES) * used.get(kind, 0)
        used[kind] = used.get(kind, 0) + 1
        shape = area_shape(area)
        x, y = shape.point(u, 0.0)
        z = _surface_height(area) + PIECES[kind].size[2] / 2 + 0.0005
        along = shape.u_axis  # the piece's long axis along the area: turned for the yards
        quat = (
            (1.0, 0.0, 0.0, 0.0)
            if along[1] == 0
            else (0.7071067811865476, 0.0, 0.0, 0.7071067811865476)
        )
        pieces.append(PiecePose(body, area, (x, y, z, *quat)))
    return Board(pieces=tuple(sorted(pieces, key=lambda p: p.body)))


def settle_ms(count: int, repeats: int) -> float:
    """Median wall time (ms) of one noisy box placement's settle window on `loaded_board`."""
    board = loaded_board(count)
    free = next(b for b in range(3, 64, len(PIECES)) if b not in board.bodies())
    samples = []
    for index, (area, u) in zip(range(repeats), cycle(BOX_SPOTS), strict=False):
        started = time.perf_counter()
        simulate_placement(board, Placement(3, area, u), free, generator(index), frames=False)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1000


def careful_decision_s(repeats: int) -> float:
    """Median wall time (s) of the careful bot choosing a placement in played positions."""
    game = make_game("riffraff", {"players": 2, "start_seat": 0})
    rng = random.Random(1)
    bot = make_bot(game, "careful", seed=2)
    state = game.new_state()
    samples = []
    while len(samples) < repeats and not game.is_over(state):
        if state.phase is Phase.PLACE:
            started = time.perf_counter()
            action = bot.choose(state)
            samples.append(time.perf_counter() - started)
        elif game.to_move(state) == -1:
            action = game.sample_chance(state, rng)
        else:
            action = rng.choice(game.legal_actions(state))
        state = game.apply(state, action)
    return statistics.median(samples)


def report(quick: bool) -> None:
    repeats = 5 if quick else 15
    for count, target in ((8, 30), (24, 80)):
        label = f"Riff Raff settle window, {count} pieces (target {target} ms)"
        print(f"{label:<53}{settle_ms(count, repeats):.1f} ms")
    seconds = careful_decision_s(3 if quick else 8)
    print(f"{'Riff Raff careful bot, one placement (target 2 s)':<53}{seconds:.2f} s")


if __name__ == "__main__":
    report(quick=True)
