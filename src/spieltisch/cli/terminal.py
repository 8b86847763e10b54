"""Terminal helpers shared by the interactive commands: input/output, colours and pacing.

Everything the play loop does with the terminal goes through a `Console`, so tests can
script a whole game with plain functions and no real terminal.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["Console", "Style", "colour_wanted", "terminal_console"]

_CODES = {
    "bold": "1",
    "dim": "2",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
    "orange": "38;5;208",
}


def colour_wanted(stream: TextIO) -> bool:
    """Colours only on a real terminal, and never when NO_COLOR is set (no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Style:
    """ANSI styling that turns itself into plain text when colours are off."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, *styles: str) -> str:
        if not self.enabled or not styles or not text:
            return text
        codes = ";".join(_CODES[s] for s in styles)
        return f"\033[{codes}m{text}\033[0m"


class Console:
    """Line input, text output and a pacing pause, all injectable.

    `read_line(prompt)` returns one line without its newline and raises `EOFError` at the end
    of input (Ctrl-D) or `KeyboardInterrupt` (Ctrl-C); `write(text)` prints one or more lines.
    """

    def __init__(
        self,
        read_line: Callable[[str], str],
        write: Callable[[str], None],
        sleep: Callable[[float], None] = time.sleep,
        colour: bool = False,
        pace: float = 0.8,
        line_editing: bool = False,
    ) -> None:
        self.read_line = read_line
        self.write = write
        self.sleep = sleep
        self.style = Style(colour)
        self.pace = pace
        self.line_editing = line_editing

    def pause(self, steps: float = 1.0) -> None:
        """Wait `steps` times the pace, so a person can follow what the bots do."""
        if self.pace > 0 and steps > 0:
            self.sleep(self.pace * steps)

    def ask(self, prompt: str) -> str:
        """One answer, stripped; the prompt is bold (marked for readline so editing works)."""
        styled = self.style(prompt, "bold")
        if self.line_editing and styled != prompt:
            styled = re.sub(r"(\033\[[0-9;]*m)", "\001\\1\002", styled)
        return self.read_line(styled).strip()


def _write_stdout(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def terminal_console(fast: bool = False) -> Console:
    """The console of the real terminal: `input` with line editing where available."""
    editing = False
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (importing it gives `input` history and editing)

            editing = True
        except ImportError:  # pragma: no cover - not on every platform
            pass
    return Console(
        input,
        _write_stdout,
        colour=colour_wanted(sys.stdout),
        pace=0 if fast or not sys.stdout.isatty() else 0.8,  # no pauses into a pipe or file
        line_editing=editing,
    )
