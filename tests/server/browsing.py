"""Policies and readings shared by the browser tests: what a simple player clicks next."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page

__all__ = ["badges", "pickomino_choice"]


def pickomino_choice(page: Page) -> str:
    """The action a simple player takes: steal, take a tile, worms first, the largest face."""
    legal = page.eval_on_selector_all(
        ".board button[data-action]", "nodes => nodes.map(n => n.dataset.action)"
    )
    for wanted in ("steal", "grill"):
        if wanted in legal:
            return str(wanted)
    takes = [a for a in legal if a.startswith("take ")]
    if "take w" in takes and not page.query_selector(".board .worm-yes"):
        return "take w"
    if takes:
        return str(max(takes, key=lambda a: "5" if a == "take w" else a[-1]))
    return "roll" if "roll" in legal else str(legal[0])


def badges(page: Page) -> dict[str, int]:
    """The +N of each hand card that can be laid now (0 without a badge)."""
    found = page.eval_on_selector_all(
        ".board button[data-action^='lay']",
        "nodes => nodes.map(n => [n.dataset.action.slice(4),"
        " (n.querySelector('.kc-gain') || {}).textContent || '+0'])",
    )
    return {letter: int(text[1:]) for letter, text in found}
