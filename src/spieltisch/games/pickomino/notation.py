"""Pickomino's text notation, JSON forms and one-screen rendering.

Actions: `roll`, `take 4` (or just `4`), `take w` (a worm), `steal`, `grill`, `stop` (a stop
that takes no tile), chance outcomes `=1144555w` (the rolled dice) and `first 2` (start seat).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeGuard

from spieltisch.core.errors import IllegalAction
from spieltisch.core.protocol import JsonValue
from spieltisch.games.pickomino.data import (
    DICE,
    FACE_SYMBOLS,
    NUM_FACES,
    TILES,
    face_from_symbol,
    tile_worms,
)
from spieltisch.games.pickomino.state import (
    ROLL,
    Action,
    Dice,
    FirstSeat,
    Phase,
    PickominoState,
    Roll,
    Stop,
    Take,
)

if TYPE_CHECKING:
    from spieltisch.games.pickomino.rules import Pickomino

__all__ = [
    "dice_text",
    "face_name",
    "faces_text",
    "format_action",
    "read_action",
    "render",
    "state_from_json",
    "state_to_json",
    "stop_preview",
    "view_json",
]

_STOP_WORDS = {"steal": "steal", "grill": "grill", "g": "grill"}


def face_name(face: int) -> str:
    return "worms" if face == NUM_FACES - 1 else f"{FACE_SYMBOLS[face]}s"


def faces_text(faces: Sequence[int]) -> str:
    return ", ".join(FACE_SYMBOLS[f] for f in faces) or "none"


def dice_text(counts: Sequence[int]) -> str:
    """Dice as symbols in face order, e.g. (2, 0, 0, 1, 0, 3) -> '114www'."""
    return "".join(FACE_SYMBOLS[f] * n for f, n in enumerate(counts))


def format_action(action: Action) -> str:
    if isinstance(action, Roll):
        return "roll"
    if isinstance(action, Take):
        return f"take {FACE_SYMBOLS[action.face]}"
    if isinstance(action, Stop):
        return "stop" if action.claim == "none" else action.claim
    if isinstance(action, Dice):
        return "=" + dice_text(action.counts)
    return f"first {action.seat}"


def _read_dice(text: str) -> Dice:
    counts = [0] * NUM_FACES
    for symbol in text.replace(" ", "").replace(",", ""):
        face = face_from_symbol(symbol)
        if face is None:
            raise IllegalAction(f"'{symbol}' is not a die face; faces are 1 2 3 4 5 w")
        counts[face] += 1
    return Dice(tuple(counts))


def read_action(game: Pickomino, state: PickominoState, text: str) -> Action:
    words = text.strip().lower().split()
    if not words:
        raise IllegalAction("type an action, e.g. 'roll', 'stop' or a face such as '4' or 'w'")
    head, rest = words[0], words[1:]
    if head.startswith("="):
        return _read_dice(text.strip()[1:])
    if head == "first" and len(rest) == 1 and rest[0].isdecimal():
        return FirstSeat(int(rest[0]))
    if head in ("roll", "r") and not rest:
        return ROLL
    if head in ("stop", "s") and not rest:
        return Stop(game.claims(state)[0])  # steal before grill, as the spec's default
    if head in _STOP_WORDS and not rest:
        return Stop(_STOP_WORDS[head])  # type: ignore[arg-type]
    if head in ("take", "t") and len(rest) == 1:
        head, rest = rest[0], []
    face = face_from_symbol(head) if not rest else None
    if face is not None:
        return Take(face)
    allowed = ", ".join(format_action(a) for a in game.legal_actions(state)[:8])
    raise IllegalAction(f"'{text.strip()}' is not an action; you can play: {allowed}")


# --- JSON ----------------------------------------------------------------------------------
def state_to_json(state: PickominoState) -> dict[str, JsonValue]:
    return {
        "grill": list(state.grill),
        "stacks": [list(stack) for stack in state.stacks],
        "seat": state.seat,
        "phase": state.phase.value,
        "kept": list(state.kept),
        "rolled": list(state.rolled),
        "turn": state.turn,
    }


def _int_list(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise ValueError(f"'{key}' must be a list of whole numbers")
    return tuple(value)


def _check_dice(name: str, counts: tuple[int, ...]) -> None:
    if len(counts) != NUM_FACES or min(counts) < 0 or sum(counts) > DICE:
        raise ValueError(f"'{name}' must be {NUM_FACES} counts of at most {DICE} dice in all")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_roll(game: Pickomino, state: PickominoState) -> None:
    """A roll waits only in the choose phase: the dice left, with a face not yet set aside."""
    if state.phase is not Phase.CHOOSE:
        if any(state.rolled):
            raise ValueError("'rolled' must be all zero outside the choose phase")
    elif sum(state.rolled) != state.dice_left or not game.choosable_faces(state):
        raise ValueError("'rolled' must show the dice left and a face not yet set aside")


def state_from_json(game: Pickomino, data: Mapping[str, JsonValue]) -> PickominoState:
    """Rebuild and check a state: every tile at most once, counts and seat in range."""
    if not isinstance(data, Mapping):
        raise ValueError("a Pickomino state must be a JSON object")
    stacks_raw = data.get("stacks")
    if not isinstance(stacks_raw, list) or len(stacks_raw) != game.num_players:
        raise ValueError(f"'stacks' must list {game.num_players} stacks")
    stacks = tuple(_int_list({"stack": s}, "stack") for s in stacks_raw)
    grill = _int_list(data, "grill")
    tiles = list(grill) + [t for stack in stacks for t in stack]
    if (
        len(set(tiles)) != len(tiles)
        or not set(tiles) <= set(TILES)
        or list(grill) != sorted(grill)
    ):
        raise ValueError("tiles must be distinct numbers 21..36, the grill in ascending order")
    kept, rolled = _int_list(data, "kept"), _int_list(data, "rolled")
    _check_dice("kept", kept)
    _check_dice("rolled", rolled)
    seat, turn, phase = data.get("seat"), data.get("turn"), data.get("phase")
    if not _is_int(seat) or not 0 <= seat < game.num_players:
        raise ValueError(f"'seat' must be a seat from 0 to {game.num_players - 1}")
    if not _is_int(turn) or turn < 0:
        raise ValueError("'turn' must be a whole number")
    if not isinstance(phase, str) or phase not in {p.value for p in Phase}:
        raise ValueError(f"'phase' must be one of {', '.join(p.value for p in Phase)}")
    state = PickominoState(grill, stacks, seat, Phase(phase), kept, rolled, turn)
    _check_roll(game, state)
    return state


# --- views -----------------------------------------------------------------------------------
def stop_preview(game: Pickomino, state: PickominoState) -> dict[str, JsonValue]:
    """What a stop would do now: the tile a steal and a grill take would give, or a failure."""
    victim = game.steal_victim(state)
    return {
        "steal": None if victim is None else {"tile": state.top(victim), "from": victim},
        "grill": game.grill_tile(state),
        "fails": victim is None and game.grill_tile(state) is None,
    }


def view_json(game: Pickomino, state: PickominoState, seat: int | None) -> dict[str, JsonValue]:
    """Everything is public in Pickomino; the seat to move also gets its legal actions."""
    mover = game.to_move(state)
    over = state.phase is Phase.OVER
    return {
        "game": game.name,
        "viewer": seat,
        "state": state_to_json(state),
        "to_move": mover,
        "out": list(state.out_of_game),
        "tops": [state.top(s) for s in range(game.num_players)],
        "scores": list(game.scores(state)),
        "sum": state.total,
        "dice_left": state.dice_left,
        "has_worm": state.has_worm,
        "stop": stop_preview(game, state) if state.phase is Phase.DECIDE else None,
        "legal_actions": [format_action(a) for a in game.legal_actions(state)]
        if seat is not None and mover == seat
        else [],
        "winners": list(game.winners(state)) if over else None,
    }


# --- the one-screen picture ------------------------------------------------------------------
def _grill_line(state: PickominoState) -> str:
    out = set(state.out_of_game)
    cells = []
    for tile in TILES:
        cells.append(str(tile) if tile in state.grill else "##" if tile in out else "··")
    return " ".join(cells)


def _worms_line() -> str:
    """The worms of each tile, under the tile in the grill line."""
    return " ".join(f"{tile_worms(tile):>2}" for tile in TILES)


def _stack_line(game: Pickomino, state: PickominoState, seat: int, name: str) -> str:
    stack = state.stacks[seat]
    top = f"top {stack[-1]} ({tile_worms(stack[-1])}w)" if stack else "no tiles"
    marker = "▶" if seat == state.seat and state.phase is not Phase.OVER else " "
    worms = game.scores(state)[seat]
    tiles = "tile, " if len(stack) == 1 else "tiles,"
    worm_word = "worm" if worms == 1 else "worms"  # "1 tile,   1 worm"
    return f" {marker} {name:<12} {top:<13} {len(stack):>2} {tiles} {worms:>3} {worm_word}"


def _stop_line(game: Pickomino, state: PickominoState, names: Sequence[str]) -> str:
    preview = stop_preview(game, state)
    parts = []
    steal = preview["steal"]
    if isinstance(steal, dict):
        parts.append(f"steal {steal['tile']} from {names[steal['from']]}")
    if preview["grill"] is not None:
        parts.append(f"take {preview['grill']} from the grill")
    if not parts:
        reason = "no worm yet" if not state.has_worm else f"no tile for {state.total}"
        return f"Stop now   fails ({reason})"
    return "Stop now   " + " or ".join(parts)


def render(game: Pickomino, state: PickominoState, names: Sequence[str] | None = None) -> str:
    """The table on one screen: grill, stacks, roll, dice set aside, sum and what a stop does."""
    names = names or [f"seat {s}" for s in range(game.num_players)]
    lines = [
        f"Grill      {_grill_line(state)}",
        f"Worms      {_worms_line()}",
        "           (·· in a stack, ## turned down)",
    ]
    lines += [_stack_line(game, state, s, names[s]) for s in range(game.num_players)]
    if state.phase is Phase.OVER:
        winners = " and ".join(names[s] for s in game.winners(state))
        return "\n".join([*lines, f"Game over: {winners} won"])
    kept = " ".join(dice_text(state.kept)) or "-"
    worm = "worm ✓" if state.has_worm else "no worm yet"
    left = f"{state.dice_left} {'die' if state.dice_left == 1 else 'dice'} left"
    lines.append(f"Set aside  {kept}   sum {state.total}, {worm}, {left}")
    if state.phase is Phase.CHOOSE:
        lines.append(f"Roll       {' '.join(dice_text(state.rolled))}")
        lines.append(f"Choose     {faces_text(game.choosable_faces(state))}")
    elif state.phase is Phase.DECIDE:
        lines.append(_stop_line(game, state, names))
    return "\n".join(lines)
