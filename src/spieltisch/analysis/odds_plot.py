"""Pickomino's tile odds as a chart: for each tile, the best chance to end a turn with a worm
and at least (or exactly) that sum. PNG or SVG, chosen by the file's extension."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from spieltisch.analysis.report import new_figure

__all__ = ["PLOT_FORMATS", "plot_tile_odds"]

PLOT_FORMATS = (".png", ".svg")


def plot_tile_odds(odds: Mapping[int, Mapping[str, float]], path: Path) -> None:
    """Draw `tile_odds` output to `path` (.png or .svg); raises ValueError for another type."""
    suffix = path.suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise ValueError(f"the chart file must end in .png or .svg, not '{path.name}'")
    tiles = list(odds)
    figure = new_figure(8, 4)
    axes = figure.add_subplot()
    width = 0.4
    at_least = [100 * odds[t]["at_least"] for t in tiles]
    exactly = [100 * odds[t]["exactly"] for t in tiles]
    axes.bar([i - width / 2 for i in range(len(tiles))], at_least, width, label="at least")
    axes.bar([i + width / 2 for i in range(len(tiles))], exactly, width, label="exactly")
    axes.set_xticks(range(len(tiles)), [str(t) for t in tiles])
    axes.set_xlabel("tile (sum of the dice set aside)")
    axes.set_ylabel("best chance this turn (%)")
    axes.set_ylim(0, 100)
    axes.set_title("Pickomino: the chance to end a turn with a worm and this sum")
    axes.grid(axis="y", alpha=0.3)
    axes.legend()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format=suffix[1:], metadata={"Date": None} if suffix == ".svg" else {})
