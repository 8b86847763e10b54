"""OpenSpiel's MCTS bot against spieltisch's bots, through the OpenSpiel adapter.

    python examples/openspiel_mcts.py --game pickomino --opponent greedy --games 4

Seat 0 is OpenSpiel's MCTS with random rollouts; the other seats are spieltisch bots. The dice
come from one seeded generator, MCTS and the bots from their own, so a run is reproducible.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from spieltisch.adapters.openspiel import SHORT_NAMES, SpieltischState
from spieltisch.bots import make_bot


def play_game(game: pyspiel.Game, opponent: str, simulations: int, seed: int) -> list[float]:
    """One game: MCTS in seat 0, `opponent` elsewhere; returns each seat's win share."""
    draw = random.Random(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(draw.getrandbits(32)))
    searcher = mcts.MCTSBot(
        game, 2.0, simulations, evaluator, random_state=np.random.RandomState(draw.getrandbits(32))
    )
    state: SpieltischState = game.new_initial_state()
    rules, encoder = state.rules, state.encoder
    bots = {
        seat: make_bot(rules, opponent, draw.getrandbits(64))
        for seat in range(1, game.num_players())
    }
    dice = random.Random(draw.getrandbits(64))
    while not state.is_terminal():
        player = state.current_player()
        if state.is_chance_node():
            action = encoder.chance_index(rules.sample_chance(state.position, dice))
        elif player == 0:
            action = searcher.step(state)
        else:
            action = encoder.index_of(state.position, bots[player].choose(state.position))
        state.apply_action(action)
    return list(state.returns())


def main(argv: Sequence[str] | None = None) -> list[float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(SHORT_NAMES), default="pickomino")
    parser.add_argument("--opponent", default="greedy", help="a spieltisch bot for the other seats")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=50, help="MCTS simulations per move")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    game = pyspiel.load_game(SHORT_NAMES[args.game], {"players": args.players})
    totals = [0.0] * args.players
    for index in range(args.games):
        returns = play_game(game, args.opponent, args.simulations, args.seed * 1_000 + index)
        totals = [total + value for total, value in zip(totals, returns, strict=True)]
    names = ["mcts"] + [args.opponent] * (args.players - 1)
    for seat, (name, wins) in enumerate(zip(names, totals, strict=True)):
        print(f"seat {seat} {name}: {wins:g} wins of {args.games}")
    return totals


if __name__ == "__main__":
    main()
