"""CPU time of the review of whole Pickomino games (the issue asks for <= 2 s a 2-player game).

Printed: the first review in a fresh process (which also builds the solver's structure and
loads the win-chance model), then the reviews of seeded games in one process (median and
slowest game, and per reviewed decision), for games between `greedy` and `optimal` and
between two `winner` seats, and 4-player games of `greedy` and `optimal` seats; and the
Karolinchen review of 2-player games (its rollouts); and the Riff Raff review of 2-player games
between a careful bot that thinks less and the random bot (its physics trials). Times are
process CPU time (`time.process_time`).

Run alone:  .venv/bin/python benchmarks/review_bench.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from spieltisch.analysis.review.karolinchen import ROLLOUTS, review_karolinchen
from spieltisch.analysis.review.pickomino import review_pickomino
from spieltisch.analysis.review.riffraff import REVIEW_BOT, TRIALS, review_riffraff
from spieltisch.bots import make_bot, play_match
from spieltisch.core import make_game
from spieltisch.core.record import GameRecord

FIRST_REVIEW = """
import json, time
from spieltisch.analysis.review.karolinchen import ROLLOUTS, review_karolinchen
from spieltisch.analysis.review.pickomino import review_pickomino
from spieltisch.core.record import GameRecord
record = GameRecord.from_json(json.loads({record!r}))
started = time.process_time()
review = review_pickomino(record)
print(json.dumps({{"cpu": time.process_time() - started, "decisions": len(review.decisions)}}))
"""


def game_record(seats: list[str], seed: int, name: str = "pickomino") -> GameRecord:
    players = len(seats)
    game = make_game(name, {"players": players, "start_seat": seed % players})
    bots = [make_bot(game, name, seed + seat) for seat, name in enumerate(seats)]
    return play_match(game, bots, seed).record


def first_review(record: GameRecord) -> dict[str, float]:
    code = FIRST_REVIEW.format(record=json.dumps(record.to_json()))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout))


def review_times(seats: list[str], games: int) -> tuple[list[float], int]:
    """CPU seconds of the review of each of `games` seeded games, and their decisions."""
    seconds, decisions = [], 0
    for seed in range(games):
        record = game_record(seats, seed)
        started = time.process_time()
        review = review_pickomino(record)
        seconds.append(time.process_time() - started)
        decisions += len(review.decisions)
    return seconds, decisions


def report(quick: bool) -> None:
    first = first_review(game_record(["greedy", "optimal"], 0))
    print(
        f"review, 2 players: first in a fresh process          {first['cpu']:.2f} s CPU "
        f"({first['decisions']:.0f} decisions)"
    )
    for seats in (["greedy", "optimal"], ["winner", "winner"], ["greedy", "optimal"] * 2):
        seconds, decisions = review_times(seats, 4 if quick else 20)
        print(
            f"review, {len(seats)} players, {seats[0]} vs {seats[1]} "
            f"({len(seconds)} games): median "
            f"{statistics.median(seconds):.2f} s CPU, slowest {max(seconds):.2f} s, "
            f"{1000 * sum(seconds) / decisions:.2f} ms per decision"
        )
    karolinchen_report(quick)
    riffraff_report(quick)


def karolinchen_report(quick: bool) -> None:
    """CPU seconds of Karolinchen reviews of greedy-against-expert games."""
    seconds, decisions = [], 0
    for seed in range(2 if quick else 6):
        record = game_record(["greedy", "expert"], seed, "karolinchen")
        started = time.process_time()
        decisions += len(review_karolinchen(record).decisions)
        seconds.append(time.process_time() - started)
    print(
        f"review, Karolinchen, 2 players, greedy vs expert, {ROLLOUTS} rollouts a choice "
        f"({len(seconds)} games): median {statistics.median(seconds):.2f} s CPU, slowest "
        f"{max(seconds):.2f} s, {1000 * sum(seconds) / decisions:.0f} ms per decision"
    )


def riffraff_report(quick: bool) -> None:
    """CPU seconds of Riff Raff reviews at the default trials and bot."""
    seconds, placements = [], 0
    for seed in range(1 if quick else 3):
        seats = ["careful:samples=1:candidates=2:wider=0", "random"]
        record = game_record(seats, seed, "riffraff")
        started = time.process_time()
        review = review_riffraff(record)
        seconds.append(time.process_time() - started)
        placements += sum(d.kind == "place" for d in review.decisions)
    print(
        f"review, Riff Raff, 2 players, light careful vs random, {TRIALS} trials, {REVIEW_BOT} "
        f"({len(seconds)} games): median {statistics.median(seconds):.1f} s CPU, slowest "
        f"{max(seconds):.1f} s, {sum(seconds) / placements:.2f} s per placement"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer games")
    report(parser.parse_args().quick)
