"""`spieltisch review FILE`: what each decision of a finished game cost, and the luck of the dice.

The review (solver, model, numpy) is imported when the command runs, not by the parser.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spieltisch.cli.common import fail, print_json
from spieltisch.core.errors import RecordError

if TYPE_CHECKING:
    from spieltisch.analysis.review.karolinchen import CardDecision, KarolinchenReview
    from spieltisch.analysis.review.pickomino import Decision, PickominoReview, PlayerReview
    from spieltisch.analysis.review.riffraff import RiffRaffReview, RiskDecision
    from spieltisch.core.record import GameRecord

__all__ = ["add_parser", "review_lines", "run"]


def add_parser(commands: Any) -> None:
    """Add the `review` command to the sub-parsers of the main parser."""
    parser = commands.add_parser(
        "review",
        help="review a finished game: each decision's cost and each roll's luck",
        description="Review a finished game record. Pickomino: for every decision with a "
        "real choice, the best choice, the expected worms and win chance lost and a grade (best, "
        "good, inaccuracy, mistake, blunder); the luck of every roll; each player's summary. "
        "Karolinchen: each card choice against the expert bot's, with every choice's win chance "
        "by seeded rollouts. Riff Raff: each placement's risk (the chance it drops something) "
        "and each card choice against the careful bot's, by seeded noisy trials. See "
        "docs/review.md for what each figure means.",
    )
    parser.add_argument("file", type=Path, metavar="FILE", help="the game record (JSON)")
    parser.add_argument("--all", action="store_true", help="list every decision, not only errors")
    parser.add_argument("--json", action="store_true", help="print the whole review as JSON")
    parser.add_argument(
        "--rollouts",
        type=int,
        default=200,
        metavar="N",
        help="Karolinchen: seeded games played out after each choice (default 200)",
    )
    parser.add_argument(
        "--trials",
        type=int,
        default=None,
        metavar="N",
        help="Riff Raff: noisy copies of each placement simulated (default "
        "analysis.review.riffraff.TRIALS)",
    )
    parser.add_argument(
        "--bot",
        default=None,
        metavar="SPEC",
        help="Riff Raff: the careful bot to compare with, e.g. careful:samples=1 (default careful)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, write: Callable[[str], None] = print) -> int:
    """Print the review; a file that is not a finished game record it reviews exits with
    status 2."""
    from spieltisch.core.record import load_record

    if args.rollouts < 2:
        return fail("--rollouts must be at least 2")
    if args.trials is not None and args.trials < 2:
        return fail("--trials must be at least 2")
    try:
        data, lines = _review(load_record(args.file), args)
    except RecordError as error:
        return fail(str(error))
    if args.json:
        print_json(data)
        return 0
    for line in lines:
        write(line)
    return 0


def _review(record: GameRecord, args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
    """The review of `record` as JSON and as text."""
    if record.game == "karolinchen":
        from spieltisch.analysis.review.karolinchen import review_karolinchen

        cards = review_karolinchen(record, args.rollouts)
        return cards.to_json(), karolinchen_lines(cards, every=args.all)
    if record.game == "riffraff":
        from spieltisch.analysis.review.riffraff import REVIEW_BOT, TRIALS, review_riffraff

        try:
            risks = review_riffraff(record, args.trials or TRIALS, args.bot or REVIEW_BOT)
        except ValueError as error:  # a bot spec that is not a careful bot
            raise RecordError(str(error)) from error
        return risks.to_json(), riffraff_lines(risks, every=args.all)
    if record.game != "pickomino":
        raise RecordError(
            f"{record.game} games are not reviewed: Pickomino, Karolinchen and Riff Raff are"
        )
    from spieltisch.analysis.review.pickomino import review_pickomino

    review = review_pickomino(record)
    return review.to_json(), review_lines(review, every=args.all)


def review_lines(review: PickominoReview, every: bool = False) -> list[str]:
    """The review as text: the decisions (all, or those that were not best), then the summary."""
    shown = [d for d in review.decisions if every or d.grade != "best"]
    lines = [
        f"Pickomino review · {len(review.players)} players · graded by {review.graded_by}",
        "",
        "Decisions" if every else "Decisions that were not the best",
    ]
    lines += [_decision_line(review, d) for d in shown] or ["  (none)"]
    return [*lines, "", *_summary_lines(review)]


def _decision_line(review: PickominoReview, decision: Decision) -> str:
    if decision.rolled:
        kept = f" with {decision.kept} kept" if decision.kept else ""
        where = f"rolled {decision.rolled}{kept}"
    else:
        where = f"kept {decision.kept} (sum {decision.total})"
    cost = f"{_loss(decision.worms_lost, 2)} worms"
    if decision.win_lost is not None:
        cost += f", {_loss(100 * decision.win_lost, 1)}% win"
    better = "" if decision.best == decision.played else f", best {decision.best}"
    name = review.players[decision.seat]
    return (
        f"  turn {decision.turn + 1:>3}  {name}: {where}: {decision.played}{better}"
        f"  ({cost})  {decision.grade}"
    )


def _loss(lost: float, digits: int) -> str:
    """A loss as a negative number with `digits` decimals, or more (up to 3) where it would
    read as zero; '0' for none."""
    if lost == 0:
        return "0"
    while digits < 3 and round(lost, digits) == 0:
        digits += 1
    return f"-{lost:.{digits}f}"


def _summary_lines(review: PickominoReview) -> list[str]:
    lines = ["Summary"]
    for player in review.summary:
        lines += [f"  {player.name}", *("    " + line for line in _player_lines(player))]
    return lines


def _player_lines(player: PlayerReview) -> list[str]:
    grades = ", ".join(f"{count} {name}" for name, count in player.grades.items())
    lines = [
        f"decisions {player.decisions}: {grades}",
        f"worms lost {player.worms_lost:.2f} ({player.average_worms_lost:.3f} per decision)",
        f"luck {player.luck_worms:+.2f} worms; worms {player.worms}, "
        f"luck-adjusted {player.luck_adjusted_worms:.2f}",
    ]
    if player.win_lost is not None and player.luck_win is not None:
        lines += [
            f"win chance lost {100 * player.win_lost:.1f} points; luck {100 * player.luck_win:+.1f}"
            f" points; won {player.win_share:g}, luck-adjusted {player.luck_adjusted_win:.2f}"
        ]
    return lines


def karolinchen_lines(review: KarolinchenReview, every: bool = False) -> list[str]:
    """A Karolinchen review as text: the decisions (all, or those that were not the best or
    not the expert's), then each player's summary."""
    shown = [d for d in review.decisions if every or not d.played == d.best == d.expert]
    lines = [
        f"Karolinchen review · {len(review.players)} players · win chances by "
        f"{review.rollouts} seeded rollouts per choice (95% intervals)",
        "",
        "Decisions" if every else "Decisions that were not the best or not the expert's",
    ]
    lines += [_card_line(review, d) for d in shown] or ["  (none)"]
    lines += ["", "Summary"]
    for player in review.summary:
        grades = ", ".join(f"{count} {name}" for name, count in player.grades.items())
        lines += [
            f"  {player.name}{' (won)' if player.won else ''}",
            f"    decisions {player.decisions}, {player.agreed} as the expert's: {grades}",
            f"    win chance lost {100 * player.win_lost:.1f} points",
        ]
    return lines


def _card_line(review: KarolinchenReview, decision: CardDecision) -> str:
    chances = {c.action: c.p_win for c in decision.choices}
    name = review.players[decision.seat]
    better = ""
    if decision.best != decision.played:
        better = (
            f", best {decision.best} ({100 * chances[decision.best]:.0f}%): "
            f"{-100 * decision.win_lost:+.1f} points [{-100 * decision.high:+.1f}, "
            f"{-100 * decision.low:+.1f}]"
        )
    return (
        f"  action {decision.step + 1:>3}  {name}: {decision.played} "
        f"({100 * chances[decision.played]:.0f}% win){better}, expert {decision.expert}"
        f"  {decision.grade}"
    )


def riffraff_lines(review: RiffRaffReview, every: bool = False) -> list[str]:
    """A Riff Raff review as text: the decisions (all, or those that were not the best), then
    each player's summary."""
    shown = [d for d in review.decisions if every or d.grade != "best"]
    lines = [
        f"Riff Raff review · {len(review.players)} players · risk (the chance of dropping "
        f"something) by {review.trials} seeded noisy trials, against {review.bot}",
        "",
        "Decisions" if every else "Decisions that were not the best",
    ]
    lines += [_risk_line(review, d) for d in shown] or ["  (none)"]
    lines += ["", "Summary"]
    for player in review.summary:
        grades = ", ".join(f"{count} {name}" for name, count in player.grades.items())
        lines += [
            f"  {player.name}{' (won)' if player.won else ''}",
            f"    decisions {player.decisions}, {player.agreed} as {review.bot}'s: {grades}",
            f"    placements {player.placements}, average risk {100 * player.mean_risk:.0f}%, "
            f"risk added {100 * player.risk_added:.0f} points, pieces fallen {player.fell}",
        ]
    return lines


def _risk_line(review: RiffRaffReview, decision: RiskDecision) -> str:
    risks = {c.action: c.risk for c in decision.choices}
    name = review.players[decision.seat]
    played = f"{decision.played}"
    if decision.played in risks:
        played += f" ({100 * risks[decision.played]:.0f}% risk)"
    other = ""
    if decision.suggested != decision.played:
        other = f", {review.bot} {decision.suggested}"
        if decision.suggested in risks:
            other += f" ({100 * risks[decision.suggested]:.0f}%)"
    added = ""
    if decision.risk_added > 0:
        added = (
            f": +{100 * decision.risk_added:.0f} points [{100 * decision.low:+.0f}, "
            f"{100 * decision.high:+.0f}]"
        )
    return f"  action {decision.step + 1:>3}  {name}: {played}{other}{added}  {decision.grade}"
