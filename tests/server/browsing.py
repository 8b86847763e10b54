"""Policies and readings shared by the browser tests: what a simple player clicks next."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page

__all__ = ["MAX_TABS", "badges", "click_a_move", "pickomino_choice", "tab_to", "version"]

MAX_TABS = 80
"""Presses of Tab that `tab_to` tries before it gives up."""


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


def version(page: Page) -> str:
    """The version of the table the page shows now ("" before the first state)."""
    return str(page.evaluate("document.body.dataset.version || ''"))


def click_a_move(page: Page) -> bool:
    """Play one sensible Pickomino move by clicking; False once the result is shown."""
    page.wait_for_selector(".board [data-action], #result")
    if page.query_selector("#result"):
        return False
    before = version(page)
    for selector in (
        "[data-action='steal']",
        "[data-action='grill']",
        ".turn:not(:has(.worm-yes)) [data-action='take w']",
        ".dice-group.choosable",
        "[data-action='roll']",
        "[data-action='stop']",
    ):
        target = page.query_selector(f".board {selector}")
        if target:
            target.click()
            break
    page.wait_for_function(
        "v => document.body.dataset.version !== v || !!document.querySelector('#result')",
        arg=before,
    )
    return True


def tab_to(page: Page, selector: str) -> None:
    """Press Tab until `selector` has the focus."""
    for _ in range(MAX_TABS):
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")
