"""`spieltisch riffraff drop|render`: the ship's physics from the command line.

`drop` puts one piece on the empty ship without noise and tells how the ship settles, a quick
way to feel the model. `render` writes a PNG of the ship (empty, or as a saved game left it),
drawn offscreen by MuJoCo; without a display set MUJOCO_GL=osmesa (Debian: libosmesa6) or
MUJOCO_GL=egl.
"""

from __future__ import annotations

import argparse
import os
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spieltisch.cli.common import fail, print_json
from spieltisch.core.errors import RecordError
from spieltisch.core.record import load_record, replay
from spieltisch.games.riffraff.data import AREAS, FACES, PIECE_NAMES, piece_index

if TYPE_CHECKING:
    from spieltisch.games.riffraff.board import Board, Placement

__all__ = ["add_parser", "placement_pictures", "png_bytes", "run_drop", "run_render", "write_png"]


def add_parser(commands: Any) -> None:
    parser = commands.add_parser("riffraff", help="Riff Raff tools: drop a piece, render the ship")
    tools = parser.add_subparsers(dest="tool", metavar="TOOL", required=True)
    drop = tools.add_parser(
        "drop", help="one placement on the empty ship without noise: how does it settle?"
    )
    drop.add_argument("--piece", required=True, help=f"the piece: {', '.join(PIECE_NAMES)}")
    drop.add_argument("--area", type=int, required=True, help="the area, 1 to 10")
    drop.add_argument("--u", type=float, required=True, help="0 at the mast/midships, 1 outside")
    drop.add_argument("--v", type=float, default=0.0, help="-1 to 1 across the area (default 0)")
    drop.add_argument("--yaw", type=float, default=0.0, help="degrees from the area's long axis")
    drop.add_argument("--face", default="up", choices=FACES, help="the resting face")
    drop.add_argument("--json", action="store_true", help="print JSON")
    drop.set_defaults(run=run_drop)
    render = tools.add_parser("render", help="write a PNG picture of the ship")
    render.add_argument("--png", type=Path, required=True, metavar="FILE", help="the PNG to write")
    render.add_argument("--record", type=Path, metavar="FILE", help="a saved game: its last ship")
    render.add_argument("--width", type=int, default=640)
    render.add_argument("--height", type=int, default=480)
    render.set_defaults(run=run_render)


def _placement(args: argparse.Namespace) -> Placement:
    from spieltisch.games.riffraff.board import Placement, footprint_problem

    piece = piece_index(args.piece)
    if piece is None:
        raise ValueError(f"'{args.piece}' is not a piece; the pieces: {', '.join(PIECE_NAMES)}")
    if args.area not in AREAS:
        raise ValueError("the area must be from 1 to 10")
    placement = Placement(piece, args.area, args.u, args.v, args.yaw, args.face)
    problem = footprint_problem(placement)
    if problem is not None:
        raise ValueError(problem)
    return placement


def run_drop(args: argparse.Namespace) -> int:
    try:
        placement = _placement(args)
    except ValueError as error:
        return fail(str(error))
    from spieltisch.games.riffraff.board import REST
    from spieltisch.games.riffraff.notation import placement_json, tilt_words
    from spieltisch.games.riffraff.physics import simulate_placement

    result = simulate_placement(REST, placement, body=placement.piece, frames=False)
    stayed = not result.fallen
    area = result.board.pieces[0].area if stayed else None
    report = {
        **placement_json(placement),
        "roll": round(result.roll, 2),
        "pitch": round(result.pitch, 2),
        "on_board": stayed,
        "rests_on_area": area,
        "fell_after": round(result.fallen[0].time, 3) if result.fallen else None,
        "seconds": round(result.seconds, 3),
    }
    if args.json:
        print_json(report)
        return 0
    print(
        f"the ship {tilt_words(result.board)} (roll {result.roll:.1f}°, pitch {result.pitch:.1f}°)"
    )
    if stayed:
        print(
            f"the {report['piece']} stays on board (area {area}); settled in {result.seconds:.2f} s"
        )
    else:
        print(f"the {report['piece']} falls off after {report['fell_after']} s")
    return 0


def png_bytes(pixels: Any) -> bytes:
    """RGB rows (height by width by 3, uint8) as a PNG file."""
    height, width = int(pixels.shape[0]), int(pixels.shape[1])
    raw = b"".join(b"\x00" + bytes(pixels[row].tobytes()) for row in range(height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def _board(args: argparse.Namespace) -> Board:
    from spieltisch.games.riffraff.board import REST

    if args.record is None:
        return REST
    record = load_record(args.record)
    if record.game != "riffraff":
        raise RecordError(f"{args.record} holds a game of {record.game}, not riffraff")
    board: Board = replay(record).board
    return board


def write_png(board: Board, path: Path, width: int = 640, height: int = 480) -> str | None:
    """Draw the ship holding `board` offscreen and write it to `path` as a PNG; returns None,
    or why no picture was written."""
    os.environ.setdefault("MUJOCO_GL", "osmesa")  # offscreen unless told otherwise
    try:  # importing the engine loads the OpenGL backend, which may be missing too
        from spieltisch.games.riffraff.physics import render_rgb

        pixels = render_rgb(board, width, height)
    except Exception as error:  # the OpenGL backend is outside our control
        return (
            f"offscreen rendering failed ({error}); set MUJOCO_GL=osmesa (Debian package "
            "libosmesa6) or MUJOCO_GL=egl"
        )
    try:
        path.write_bytes(png_bytes(pixels))
    except OSError as error:
        return f"cannot write {path}: {error}"
    return None


def placement_pictures(path: Path) -> Callable[[Any, Any], str | None]:
    """For `play --png`: after each placement has settled, the ship drawn to `path` (the
    picture is replaced every time). The returned function takes the action just played and
    the state after it, and returns None or why no picture was written."""
    from spieltisch.games.riffraff.state import Settled

    def after(action: Any, state: Any) -> str | None:
        return write_png(state.board, path) if isinstance(action, Settled) else None

    return after


def run_render(args: argparse.Namespace) -> int:
    try:
        board = _board(args)
    except RecordError as error:
        return fail(str(error))
    problem = write_png(board, args.png, args.width, args.height)
    if problem is not None:
        return fail(problem)
    print(f"wrote {args.png} ({args.width}x{args.height})")
    return 0
