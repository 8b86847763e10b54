"""The motion broadcast and the catch window, for a game whose chance outcome is a physics
simulation (Riff Raff's placements; the game's hooks, `server.hooks.Physics`, work it out).

When such an outcome is worked out at a table, the server keeps the sampled motion (a `Show`)
and broadcasts it once, the same message to every seat and spectator, just before the new
state. Clients play it in real time, except that the stretches in which a piece falls play
`slow_motion` times slower: real time r(t) = (t + (slow_motion - 1) * (the falling time
before t)) / speed, where `speed` (1 normally) lets tests and demos run faster.

Catching (a person to catch by hand): the window opens when the show is broadcast. A falling
piece can be caught until `margin` seconds (for the network) after the moment it lands in the
slowed playback; the window closes that long after the last piece lands, and then the server
plays the empty catch for the person itself. Catches that arrive later are refused, so a
changed client cannot catch late.

The open window is stored with its show (`Show.to_json`, as a deadline of kind 'catch';
`server.scheduler`), so a restarted server, or a worker that takes the table over, reopens it
with the time it has left and sends the motion to clients that connect while it plays. A
window that ran out meanwhile, or was never stored, gets the empty catch at once (see
`server.tables` and `server.news`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from spieltisch.core.protocol import JsonValue

__all__ = [
    "CatchTiming",
    "CatchWindow",
    "Fall",
    "Motion",
    "Show",
    "make_show",
    "merged_spans",
    "open_window",
    "playback_time",
    "timing_for",
    "window_json",
]

DIGITS = 5
"""Decimals of the broadcast motion (0.01 mm, 1e-5 rad): enough for the eye, half the size."""


@dataclass(frozen=True)
class CatchTiming:
    """How the settle animation is played and how long a catch is accepted."""

    slow_motion: float = 4.0  # falling stretches play this many times slower
    margin: float = 0.6  # seconds after a piece lands that a catch still counts (network)
    speed: float = 1.0  # the whole playback this many times faster (quick tests and demos)


GUIDED_SLOWER = 2.5
"""In a guided first game falling cargo plays this many times slower still, so that the
learner reads how to catch while the first pieces fall."""


def timing_for(timing: CatchTiming, guided: bool) -> CatchTiming:
    """The timing of a table's motions: slower still in a guided first game."""
    return replace(timing, slow_motion=timing.slow_motion * GUIDED_SLOWER) if guided else timing


@dataclass
class CatchWindow:
    """A person's open catch: who, at which table version, until when each piece counts."""

    seat: int
    version: int
    deadlines: dict[int, float]  # piece number -> wall-clock time it can be caught until
    closes: float  # wall-clock time the server plays the empty catch


@dataclass
class Show:
    """One placement's motion, ready to broadcast (`body` is the JSON object's text)."""

    version: int  # the table version right after the physics outcome
    seat: int  # the seat that placed
    falls: tuple[Fall, ...]
    spans: list[tuple[float, float]]  # merged stretches of simulated time in which pieces fall
    duration: float  # real seconds the playback lasts
    body: str
    sent: float | None = None  # wall-clock time of the broadcast (None: not yet sent)
    window: CatchWindow | None = field(default=None)

    def message(self, now: float) -> str:
        """The broadcast message, telling how far into the playback it is sent and, while a
        person catches, how long each piece can still be caught."""
        elapsed = 0.0 if self.sent is None else max(0.0, now - self.sent)
        catch = json.dumps(window_json(self.window, now)) if self.window else "null"
        return f'{{"type":"settle","elapsed":{elapsed:.3f},"catch":{catch},{self.body[1:]}'

    def running(self, now: float) -> bool:
        return self.sent is not None and now < self.sent + self.duration

    def to_json(self) -> dict[str, Any]:
        """Everything about the show, for another worker of the site (see `from_json`)."""
        window = self.window
        return {
            "version": self.version,
            "seat": self.seat,
            "falls": [[f.body, f.time, f.air] for f in self.falls],
            "spans": [list(span) for span in self.spans],
            "duration": self.duration,
            "body": self.body,
            "sent": self.sent,
            "window": None
            if window is None
            else [window.seat, window.version, list(window.deadlines.items()), window.closes],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Show:
        window = data["window"]
        return cls(
            data["version"],
            data["seat"],
            tuple(Fall(int(b), t, a) for b, t, a in data["falls"]),
            [(a, b) for a, b in data["spans"]],
            data["duration"],
            data["body"],
            data["sent"],
            None
            if window is None
            else CatchWindow(window[0], window[1], {int(b): t for b, t in window[2]}, window[3]),
        )


class Fall(NamedTuple):
    """A piece that falls in a motion: which, when it lands (simulated seconds from the
    start) and how long it is in the air before."""

    body: int
    time: float
    air: float


@dataclass(frozen=True)
class Motion:
    """A chance outcome worked out by a game's physics, with its frames (poses in the order of
    `bodies`): `placed` is the piece placed, `falls` the pieces that fall."""

    seat: int  # who placed
    outcome: Any  # the game's chance outcome
    frames: tuple[Any, ...]  # each with `time`, `joints` and `poses`
    bodies: tuple[int, ...]
    placed: int
    falls: tuple[Fall, ...]


def merged_spans(falls: Sequence[Fall]) -> list[tuple[float, float]]:
    """The stretches of simulated time in which at least one piece is in the air."""
    spans: list[tuple[float, float]] = []
    for start, end in sorted((max(0.0, f.time - f.air), f.time) for f in falls):
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], end))
        else:
            spans.append((start, end))
    return spans


def playback_time(
    t: float, spans: list[tuple[float, float]], slow_motion: float, speed: float = 1.0
) -> float:
    """Real seconds from the start of the playback to simulated time `t`."""
    falling = sum(max(0.0, min(t, end) - start) for start, end in spans)
    return (t + (slow_motion - 1) * falling) / speed


def _round(values: Any) -> list[float]:
    return [round(float(v), DIGITS) for v in values]


def make_show(version: int, motion: Motion, timing: CatchTiming) -> Show:
    """The broadcast of one placement's motion (`version`: the table's after the outcome)."""
    frames = motion.frames
    spans = merged_spans(motion.falls)
    end = max([frames[-1].time if frames else 0.0] + [f.time for f in motion.falls])
    body: dict[str, JsonValue] = {
        "version": version,
        "seat": motion.seat,
        "placed": motion.placed,
        "bodies": list(motion.bodies),
        "slow_motion": timing.slow_motion,
        "speed": timing.speed,
        "spans": [list(s) for s in spans],
        "falls": [[f.body, f.time, f.air] for f in motion.falls],
        "frames": [
            {"t": round(f.time, 4), "j": _round(f.joints), "p": [_round(p) for p in f.poses]}
            for f in frames
        ],
    }
    duration = playback_time(end, spans, timing.slow_motion, timing.speed)
    return Show(version, motion.seat, motion.falls, spans, duration, json.dumps(body))


def open_window(show: Show, seat: int, timing: CatchTiming, now: float) -> CatchWindow:
    deadlines = {
        f.body: now
        + playback_time(f.time, show.spans, timing.slow_motion, timing.speed)
        + timing.margin
        for f in show.falls
    }
    closes = max(deadlines.values(), default=now + timing.margin)
    return CatchWindow(seat, show.version, deadlines, closes)


def window_json(window: CatchWindow, now: float) -> dict[str, JsonValue]:
    """The window as the clients see it: seconds from now until each piece and the window
    stop counting."""
    return {
        "seat": window.seat,
        "closes_in": round(window.closes - now, 3),
        "deadlines": {str(b): round(d - now, 3) for b, d in window.deadlines.items()},
    }
