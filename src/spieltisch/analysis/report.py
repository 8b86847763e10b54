"""The tournament report: a summary as JSON, a text table, and one self-contained HTML file
with plots (win rates, ratings, places, game lengths) embedded as PNG.

matplotlib is an optional extra (`spieltisch[rl]`); it is imported only to draw, with the
Agg backend (no display needed).
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from typing import Any

from spieltisch.analysis.ratings import BOOTSTRAP_SAMPLES, head_to_head, rate, summarize_bots
from spieltisch.analysis.tournament import GameResult, TournamentConfig, schedule
from spieltisch.core.protocol import JsonValue
from spieltisch.core.registry import game_class

__all__ = ["format_summary", "html_report", "new_figure", "summary_json"]


def summary_json(config: TournamentConfig, results: Sequence[GameResult]) -> dict[str, JsonValue]:
    """Ratings, win rates, places and the head-to-head table of finished games."""
    ratings = rate(results, config.bots, config.seed)
    bots: list[JsonValue] = []
    for index, summary in enumerate(summarize_bots(results, config.bots)):
        bots.append(
            {
                "bot": summary.bot,
                "elo": ratings.elo[index],
                "elo_ci95": [ratings.low[index], ratings.high[index]],
                "seats_played": summary.seats,
                "wins": round(summary.wins, 6),
                "win_rate": round(summary.win_rate, 6),
                "win_rate_ci95": [round(summary.low, 6), round(summary.high, 6)],
                "places": {str(k): v for k, v in summary.places.items()},
            }
        )
    table = head_to_head(results, config.bots)
    return {
        "tournament": config.to_json(),
        "seatings": len(schedule(config)),
        "games_played": len(results),
        "bots": bots,
        "head_to_head": [[None if v is None else round(v, 6) for v in row] for row in table],
    }


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as readable text: ratings and win rates, then the head-to-head table."""
    config = summary["tournament"]
    bots = [row["bot"] for row in summary["bots"]]
    width = max(12, *(len(b) for b in bots))
    lines = [
        f"{config['game']}: {summary['games_played']} games over {summary['seatings']} seatings,"
        f" seats {', '.join(str(p) for p in config['players'])}, seed {config['seed']}",
        "",
        f"{'bot':<{width}} {'elo':>7}  {'95% interval':<15} {'win rate':>9}  95% interval",
    ]
    for row in sorted(summary["bots"], key=lambda r: -r["elo"]):
        low, high = row["elo_ci95"]
        wlow, whigh = row["win_rate_ci95"]
        lines.append(
            f"{row['bot']:<{width}} {row['elo']:>7.0f}  {low:>6.0f} to {high:<5.0f} "
            f"{100 * row['win_rate']:>8.1f}%  {100 * wlow:.1f}% to {100 * whigh:.1f}%"
        )
    lines += [
        "",
        "head to head: the row bot's mean score against the column bot (1 = always ahead)",
    ]
    lines.append(" " * width + "".join(f" {b[:10]:>10}" for b in bots))
    for bot, row in zip(bots, summary["head_to_head"], strict=True):
        cells = "".join(f" {'-' if v is None else f'{v:.3f}':>10}" for v in row)
        lines.append(f"{bot:<{width}}{cells}")
    return "\n".join(lines)


# --- plots ------------------------------------------------------------------------------------
def new_figure(width: float, height: float) -> Any:
    """A matplotlib figure drawn by the Agg backend (no display, no global pyplot state)."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _png(figure: Any) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _win_rate_plot(summary: dict[str, Any]) -> str:
    rows = summary["bots"]
    figure = new_figure(6, 3.2)
    axes = figure.add_subplot()
    rates = [100 * r["win_rate"] for r in rows]
    errors = [
        [100 * (r["win_rate"] - r["win_rate_ci95"][0]) for r in rows],
        [100 * (r["win_rate_ci95"][1] - r["win_rate"]) for r in rows],
    ]
    axes.bar([r["bot"] for r in rows], rates, yerr=errors, capsize=4, color="#4c78a8")
    axes.set_ylabel("win rate (%)")
    axes.set_title("Win rate over all seats played (95% Wilson interval)")
    return _png(figure)


def _rating_plot(summary: dict[str, Any]) -> str:
    rows = sorted(summary["bots"], key=lambda r: r["elo"])
    figure = new_figure(6, 0.6 + 0.5 * len(rows))
    axes = figure.add_subplot()
    elo = [r["elo"] for r in rows]
    errors = [
        [r["elo"] - r["elo_ci95"][0] for r in rows],
        [r["elo_ci95"][1] - r["elo"] for r in rows],
    ]
    axes.errorbar(elo, [r["bot"] for r in rows], xerr=errors, fmt="o", capsize=4, color="#f58518")
    axes.set_xlabel("Elo (mean 1500; 95% bootstrap interval)")
    axes.set_title("Ratings")
    return _png(figure)


def _places_plot(summary: dict[str, Any], counts: Sequence[int]) -> str:
    rows = summary["bots"]
    figure = new_figure(3.2 * len(counts), 3.2)
    for number, count in enumerate(counts, start=1):
        axes = figure.add_subplot(1, len(counts), number)
        bottoms = [0.0] * len(rows)
        for place in range(count):
            shares = []
            for row in rows:
                places = row["places"].get(str(count), [0] * count)
                total = sum(places) or 1
                shares.append(100 * places[place] / total)
            axes.bar([r["bot"] for r in rows], shares, bottom=bottoms, label=f"place {place + 1}")
            bottoms = [b + s for b, s in zip(bottoms, shares, strict=True)]
        axes.set_title(f"{count} players: places")
        axes.set_ylabel("% of its seats")
        axes.set_ylim(0, 100)
        axes.tick_params(axis="x", labelrotation=30)
    axes.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1, 1))
    return _png(figure)


def _length_plot(results: Sequence[GameResult], counts: Sequence[int]) -> str:
    figure = new_figure(6, 3.2)
    axes = figure.add_subplot()
    for count in counts:
        lengths = [r.actions for r in results if len(r.seats) == count]
        if lengths:
            axes.hist(lengths, bins=20, alpha=0.6, label=f"{count} players")
    axes.set_xlabel("actions per game (chance outcomes included)")
    axes.set_ylabel("games")
    axes.set_title("Game lengths")
    axes.legend()
    return _png(figure)


# --- the page ---------------------------------------------------------------------------------
_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.7em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
img { max-width: 100%; display: block; margin: 1em 0; }
.note { color: #555; font-size: 0.9em; }
"""


def _cell(value: float | None) -> str:
    if value is None:
        return "<td>-</td>"
    shade = int(255 - 90 * abs(value - 0.5) * 2)
    colour = f"rgb({shade},255,{shade})" if value >= 0.5 else f"rgb(255,{shade},{shade})"
    return f'<td style="background:{colour}">{value:.3f}</td>'


def html_report(
    config: TournamentConfig, results: Sequence[GameResult], summary: dict[str, Any]
) -> str:
    """One self-contained HTML page: tables and plots of the tournament."""
    title = f"{game_class(config.game).title} tournament"
    esc = html.escape
    rows = "".join(
        f"<tr><td>{esc(r['bot'])}</td><td>{r['elo']:.0f}</td>"
        f"<td>{r['elo_ci95'][0]:.0f} to {r['elo_ci95'][1]:.0f}</td><td>{r['seats_played']}</td>"
        f"<td>{100 * r['win_rate']:.1f}%</td>"
        f"<td>{100 * r['win_rate_ci95'][0]:.1f}% to {100 * r['win_rate_ci95'][1]:.1f}%</td></tr>"
        for r in sorted(summary["bots"], key=lambda r: -r["elo"])
    )
    bots = [r["bot"] for r in summary["bots"]]
    head = "".join(f"<th>{esc(b)}</th>" for b in bots)
    h2h = "".join(
        f"<tr><td>{esc(bot)}</td>{''.join(_cell(v) for v in row)}</tr>"
        for bot, row in zip(bots, summary["head_to_head"], strict=True)
    )
    counts = list(config.players)
    plots = [
        _win_rate_plot(summary),
        _rating_plot(summary),
        _places_plot(summary, counts),
        _length_plot(results, counts),
    ]
    images = "".join(f'<img alt="plot" src="data:image/png;base64,{p}">' for p in plots)
    options = ", ".join(f"{k}={v}" for k, v in config.options.items()) or "defaults"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>
<style>{_STYLE}</style></head><body>
<h1>{esc(title)}</h1>
<p>{len(results)} games over {summary["seatings"]} seatings; seats
{", ".join(str(c) for c in counts)}; bots {esc(", ".join(bots))}; seed {config.seed};
options: {esc(options)}.</p>
<h2>Ratings and win rates</h2>
<table><tr><th>bot</th><th>Elo</th><th>95% interval</th><th>seats played</th><th>win rate</th>
<th>95% interval</th></tr>{rows}</table>
<p class="note">Elo: Bradley-Terry fit of all pairwise results (winners first, then by
score), mean 1500, 95% interval from {BOOTSTRAP_SAMPLES} bootstrap resamples of the games.
Win rate: a win shared by k seats counts 1/k; Wilson interval.</p>
<h2>Head to head</h2>
<table><tr><th></th>{head}</tr>{h2h}</table>
<p class="note">The row bot's mean pairwise score against the column bot in games where both
played (1 = always placed ahead, 0.5 = even).</p>
<h2>Plots</h2>
{images}
</body></html>
"""
