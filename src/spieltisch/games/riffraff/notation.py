"""Riff Raff's text notation, JSON forms, views and the text pictures of the ship.

Actions: `first 2` (chance: the first captain), `card 7`, `captain 1`, `next 2`, `one` / `two`
(the announcement), `place box 5 u=0.8 v=0 yaw=90 up` (area, v, yaw and face may be left out:
the area is the card's, v 0, yaw 0, face up; bare numbers are u, v, yaw in that order),
`catch none` / `catch 3 11` (piece numbers), and the physics outcome `settled {...}` whose
JSON holds the new piece, the ship's joints, every piece on board (number, area, pose), the
fallen pieces (number, landing time, time in the air) and the ship's remaining motion.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from math import cos, isfinite, pi, sin
from typing import TYPE_CHECKING, Any

from spieltisch.core.errors import IllegalAction
from spieltisch.core.protocol import JsonValue
from spieltisch.games.riffraff.board import (
    JOINT_NAMES,
    Board,
    Fall,
    PiecePose,
    Placement,
    piece_type,
)
from spieltisch.games.riffraff.data import (
    AREAS,
    CARD_NUMBERS,
    FACES,
    PIECE_NAMES,
    PIECE_WORDS,
    PIECES,
    SHIP,
    piece_index,
)
from spieltisch.games.riffraff.state import (
    Action,
    Announce,
    Captain,
    Card,
    Catch,
    FirstCaptain,
    Next,
    Phase,
    Place,
    RiffRaffState,
    Settled,
)

if TYPE_CHECKING:
    from spieltisch.games.riffraff.rules import RiffRaff

__all__ = [
    "format_action",
    "format_placement",
    "placement_json",
    "read_action",
    "render",
    "state_from_json",
    "state_to_json",
    "tilt_words",
    "view_json",
]

_WORDS = {"one": 1, "two": 2, "1": 1, "2": 2}


# --- actions as text ---------------------------------------------------------------------------
def _number(value: float) -> str:
    """Shortest exact text of a float: '0.8', '90', '-0.25'."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def format_placement(placement: Placement) -> str:
    name = PIECE_NAMES[placement.piece]
    return (
        f"{name} {placement.area} u={_number(placement.u)} v={_number(placement.v)} "
        f"yaw={_number(placement.yaw)} {placement.face}"
    )


def _board_json(board: Board) -> dict[str, JsonValue]:
    return {
        "joints": list(board.joints),
        "pieces": [[p.body, p.area, *p.pose] for p in board.pieces],
    }


def _settled_json(outcome: Settled) -> dict[str, JsonValue]:
    return {
        "body": outcome.body,
        **_board_json(outcome.board),
        "fallen": [[f.body, f.time, f.air] for f in outcome.fallen],
        "motion": outcome.motion,
    }


def format_action(action: Action) -> str:
    if isinstance(action, FirstCaptain):
        return f"first {action.seat}"
    if isinstance(action, Card):
        return f"card {action.number}"
    if isinstance(action, Captain):
        return f"captain {action.seat}"
    if isinstance(action, Next):
        return f"next {action.seat}"
    if isinstance(action, Announce):
        return "two" if action.count == 2 else "one" if action.count == 1 else str(action.count)
    if isinstance(action, Place):
        return "place " + format_placement(action.placement)
    if isinstance(action, Settled):
        return "settled " + json.dumps(_settled_json(action), separators=(",", ":"))
    return "catch " + (" ".join(str(b) for b in action.bodies) or "none")


ALLOWED_SHOWN = 6
"""How many of the grid's placements an error lists (all cards and other choices are listed)."""


def _seat_word(word: str) -> int:
    if not word.isdecimal():
        raise IllegalAction(f"'{word}' is not a seat number")
    return int(word)


def _float(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise IllegalAction(f"'{text}' is not a number for {what}") from None
    if not isfinite(value):
        raise IllegalAction(f"{what} must be a finite number")
    return value


def _read_placement(state: RiffRaffState, words: list[str]) -> Placement:
    """'box 5 u=0.8 v=0 yaw=90 up', 'box 0.8', 'plank u=0.5 yaw=90 side'."""
    if not words:
        raise IllegalAction("name a piece to place, e.g. 'place box u=0.6'")
    piece = piece_index(words[0])
    if piece is None:
        raise IllegalAction(f"'{words[0]}' is not a piece; pieces: {', '.join(PIECE_NAMES)}")
    area = state.card(state.active) if state.active is not None else None
    values: dict[str, float] = {}
    face, numbers = "up", []
    for word in words[1:]:
        key, sep, text = word.partition("=")
        if sep:
            if key not in ("u", "v", "yaw", "area"):
                raise IllegalAction(f"'{key}' is not a placement value; use u=, v=, yaw=")
            values[key] = _float(text, key)
        elif word in FACES:
            face = word
        else:
            numbers.append(_placement_number(word))
    if numbers and numbers[0] >= 1 and numbers[0] == int(numbers[0]):
        area = int(numbers.pop(0))  # a whole number from 1 up is the area (write u=1 for u)
    for key, value in zip(("u", "v", "yaw"), numbers, strict=False):
        values.setdefault(key, value)
    if "area" in values:
        area = int(values["area"])
    if "u" not in values:
        raise IllegalAction("say where along the area: u from 0 (inner end) to 1 (outer end)")
    if area is None or state.phase is not Phase.PLACE:
        raise IllegalAction("no piece can be placed now; type 'help' to see what to do")
    yaw = normal_yaw(values.get("yaw", 0.0))
    return Placement(piece, area, values["u"], values.get("v", 0.0), yaw, face)


def normal_yaw(degrees: float) -> float:
    """The same turn from -180 (inclusive) to 180 degrees: 270 is -90."""
    return (degrees + 180.0) % 360.0 - 180.0


def _placement_number(word: str) -> float:
    try:
        return _float(word, "the placement")
    except IllegalAction:
        faces = ", ".join(FACES)
        raise IllegalAction(
            f"'{word}' is neither a number nor a face; faces: {faces}; values: u=, v=, yaw="
        ) from None


def _read_settled(text: str) -> Settled:
    try:
        data = json.loads(text)
        board = _board_from_json(data)
        fallen = tuple(Fall(int(b), float(t), float(a)) for b, t, a in data["fallen"])
        return Settled(int(data["body"]), board, fallen, float(data["motion"]))
    except (ValueError, KeyError, TypeError) as error:
        raise IllegalAction(f"not a physics outcome: {error}") from None


def _read_catch(words: list[str]) -> Catch:
    if words in (["none"], []):
        return Catch(())
    if not all(w.isdecimal() for w in words):
        raise IllegalAction("say which pieces you caught by number, e.g. 'catch 3 11', or none")
    return Catch(tuple(sorted(int(w) for w in words)))


def read_action(game: RiffRaff, state: RiffRaffState, text: str) -> Action:
    stripped = text.strip()
    words = stripped.lower().split()
    if not words:
        raise IllegalAction("type an action, e.g. 'card 7' or 'place box u=0.6'")
    head, rest = words[0], words[1:]
    if head == "settled":
        return _read_settled(stripped[len("settled") :])
    if head in ("first", "captain", "next") and len(rest) == 1:
        seat = _seat_word(rest[0])
        if head == "first":
            return FirstCaptain(seat)
        return Captain(seat) if head == "captain" else Next(seat)
    if head == "card" and len(rest) == 1 and rest[0].isdecimal():
        return Card(int(rest[0]))
    if head == "announce" and len(rest) == 1 and rest[0] in _WORDS:
        return Announce(_WORDS[rest[0]])
    if head in ("one", "two") and not rest:
        return Announce(_WORDS[head])
    if head == "place":
        return Place(_read_placement(state, rest))
    if piece_index(head) is not None:
        return Place(_read_placement(state, words))
    if head == "catch":
        return _read_catch(rest)
    if head.isdecimal() and not rest and state.phase is Phase.CARDS:
        return Card(int(head))
    raise IllegalAction(f"'{stripped}' is not an action; you can play: {_allowed(game, state)}")


def _allowed(game: RiffRaff, state: RiffRaffState) -> str:
    """The legal actions in words, every card included (placements: the grid's first few)."""
    legal = [format_action(a) for a in game.legal_actions(state)]
    if state.phase is Phase.PLACE and len(legal) > ALLOWED_SHOWN:
        legal = [*legal[:ALLOWED_SHOWN], "or any allowed placement"]
    return ", ".join(legal) or "nothing"


# --- state JSON --------------------------------------------------------------------------------
def _placement_json(placement: Placement | None) -> JsonValue:
    return None if placement is None else placement_json(placement)


def placement_json(placement: Placement) -> dict[str, JsonValue]:
    """A placement as JSON: the piece by name, the area, u, v, yaw and face."""
    return {
        "piece": PIECE_NAMES[placement.piece],
        "area": placement.area,
        "u": placement.u,
        "v": placement.v,
        "yaw": placement.yaw,
        "face": placement.face,
    }


def state_to_json(state: RiffRaffState) -> dict[str, JsonValue]:
    return {
        "phase": state.phase.value,
        "hands": [list(h) for h in state.hands],
        "played": [list(p) for p in state.played],
        "chosen": list(state.chosen),
        "supplies": [list(s) for s in state.supplies],
        "captain": state.captain,
        "round": state.round,
        "to_play": list(state.to_play),
        "active": state.active,
        "announced": state.announced,
        "loaded": state.loaded,
        "placed": list(state.placed),
        "pending": _placement_json(state.pending),
        "falling": [[f.body, f.time, f.air] for f in state.falling],
        "board": _board_json(state.board),
        "motion": state.motion,
        "caught": list(state.caught),
        "winners": list(state.winners),
    }


def _ints(data: Any, what: str, length: int | None = None) -> tuple[int, ...]:
    if not isinstance(data, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in data
    ):
        raise ValueError(f"'{what}' must be a list of whole numbers")
    if length is not None and len(data) != length:
        raise ValueError(f"'{what}' must have {length} entries")
    return tuple(data)


def _floats(data: Any, what: str, length: int | None = None) -> tuple[float, ...]:
    if not isinstance(data, list) or not all(
        isinstance(v, int | float) and not isinstance(v, bool) and isfinite(v) for v in data
    ):
        raise ValueError(f"'{what}' must be a list of numbers")
    if length is not None and len(data) != length:
        raise ValueError(f"'{what}' must have {length} entries")
    return tuple(float(v) for v in data)


def _board_from_json(data: Any) -> Board:
    if not isinstance(data, Mapping):
        raise ValueError("a board must be a JSON object")
    joints = _floats(data.get("joints"), "joints", len(JOINT_NAMES))
    pieces = []
    for entry in data.get("pieces", []):
        if not isinstance(entry, list) or len(entry) != 9:
            raise ValueError("a piece on board is [number, area, x, y, z, qw, qx, qy, qz]")
        body, area = _ints(entry[:2], "piece")
        if area not in AREAS or body < 0:
            raise ValueError(f"piece {body} lies on no area ({area})")
        x, y, z, qw, qx, qy, qz = _floats(entry[2:], "pose")
        pieces.append(PiecePose(body, area, (x, y, z, qw, qx, qy, qz)))
    bodies = [p.body for p in pieces]
    if bodies != sorted(set(bodies)):
        raise ValueError("pieces on board must be distinct and listed by number")
    return Board(joints, tuple(pieces))


def _falls_from_json(data: Any) -> tuple[Fall, ...]:
    if not isinstance(data, list):
        raise ValueError("'falling' must be a list")
    falls = []
    for entry in data:
        if not isinstance(entry, list) or len(entry) != 3:
            raise ValueError("a fall is [number, time, air]")
        (body,) = _ints(entry[:1], "fall")
        time, air = _floats(entry[1:], "fall")
        falls.append(Fall(body, time, air))
    return tuple(falls)


def _placement_from_json(data: Any) -> Placement | None:
    if data is None:
        return None
    if not isinstance(data, Mapping):
        raise ValueError("'pending' must be an object or null")
    piece = piece_index(str(data.get("piece", "")))
    if piece is None:
        raise ValueError("'pending' names no piece")
    (area,) = _ints([data.get("area")], "area")
    u, v, yaw = _floats([data.get("u"), data.get("v"), data.get("yaw")], "pending")
    face = data.get("face")
    if face not in FACES:
        raise ValueError("'pending' has no resting face")
    return Placement(piece, area, u, v, yaw, str(face))


def _seat_or_none(value: Any, players: int, what: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise ValueError(f"'{what}' must be a seat from 0 to {players - 1} or null")
    return value


def state_from_json(game: RiffRaff, data: Mapping[str, JsonValue]) -> RiffRaffState:
    """Rebuild and check a state: shapes, seats, cards and piece counts."""
    if not isinstance(data, Mapping):
        raise ValueError("a Riff Raff state must be a JSON object")
    players = game.num_players
    phase = data.get("phase")
    if not isinstance(phase, str) or phase not in {p.value for p in Phase}:
        raise ValueError(f"'phase' must be one of {', '.join(p.value for p in Phase)}")
    hands = _seat_lists(data.get("hands"), players, "hands")
    played = _seat_lists(data.get("played"), players, "played")
    for cards in (*hands, *played):
        if not set(cards) <= set(CARD_NUMBERS):
            raise ValueError("cards are numbered 1 to 10")
    chosen_raw = data.get("chosen")
    if not isinstance(chosen_raw, list) or len(chosen_raw) != players:
        raise ValueError(f"'chosen' must list {players} cards or nulls")
    chosen = tuple(None if c is None else _ints([c], "chosen")[0] for c in chosen_raw)
    supplies = tuple(_ints(s, "supply", len(PIECES)) for s in _seat_lists_raw(data, players))
    if any(c < 0 for s in supplies for c in s):
        raise ValueError("supplies cannot be negative")
    captain = _seat_or_none(data.get("captain"), players, "captain")
    active = _seat_or_none(data.get("active"), players, "active")
    rnd, announced, loaded = _ints(
        [data.get("round"), data.get("announced"), data.get("loaded")], "counters"
    )
    motion = _floats([data.get("motion")], "motion")[0]
    return RiffRaffState(
        phase=Phase(phase),
        hands=hands,
        played=played,
        chosen=chosen,
        supplies=supplies,
        captain=0 if captain is None else captain,
        round=rnd,
        to_play=_ints(data.get("to_play"), "to_play"),
        active=active,
        announced=announced,
        loaded=loaded,
        placed=_ints(data.get("placed"), "placed"),
        pending=_placement_from_json(data.get("pending")),
        falling=_falls_from_json(data.get("falling")),
        board=_board_from_json(data.get("board")),
        motion=motion,
        caught=_ints(data.get("caught"), "caught", players),
        winners=_ints(data.get("winners"), "winners"),
    )


def _seat_lists(value: Any, players: int, what: str) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, list) or len(value) != players:
        raise ValueError(f"'{what}' must list {players} seats")
    return tuple(_ints(v, what) for v in value)


def _seat_lists_raw(data: Mapping[str, Any], players: int) -> list[Any]:
    value = data.get("supplies")
    if not isinstance(value, list) or len(value) != players:
        raise ValueError(f"'supplies' must list {players} seats")
    return value


# --- views -------------------------------------------------------------------------------------
def tilt_words(board: Board) -> str:
    """'heels 4.2° to port, bow down 1.0°' or 'upright'."""
    roll, pitch = (angle * 180 / pi for angle in board.joints[:2])
    parts = []
    if abs(roll) >= 0.5:
        parts.append(f"heels {abs(roll):.1f}° to {'port' if roll < 0 else 'starboard'}")
    if abs(pitch) >= 0.5:
        parts.append(f"{'bow' if pitch > 0 else 'stern'} down {abs(pitch):.1f}°")
    return ", ".join(parts) or "upright"


def _cards_view(game: RiffRaff, state: RiffRaffState, seat: int | None) -> dict[str, JsonValue]:
    history = game.options.card_history
    return {
        "latest": [state.card(s) for s in range(game.num_players)],
        "history": [list(p) for p in state.played] if history else None,
        "chosen": [c is not None for c in state.chosen],
        "my_choice": state.chosen[seat] if seat is not None else None,
        "hand": list(state.hands[seat]) if seat is not None else None,
        "hand_sizes": [len(h) for h in state.hands],
    }


def view_json(game: RiffRaff, state: RiffRaffState, seat: int | None) -> dict[str, JsonValue]:
    """What `seat` may see: everything but the others' hands and face-down cards."""
    mover = game.to_move(state)
    board = state_to_json(state)["board"]
    roll, pitch = (angle * 180 / pi for angle in state.board.joints[:2])
    return {
        "game": game.name,
        "viewer": seat,
        "phase": state.phase.value,
        "round": state.round,
        "rounds": game.options.rounds,
        "captain": state.captain,
        "active": state.active,
        "to_play": list(state.to_play),
        "to_move": mover,
        "cards": _cards_view(game, state, seat),
        "supplies": [list(s) for s in state.supplies],
        "supply_sizes": [state.supply_size(s) for s in range(game.num_players)],
        "caught": list(state.caught),
        "board": board,
        "tilt": {"roll": roll, "pitch": pitch},
        "areas": {str(a): state.board.count_in(a) for a in AREAS},
        "announced": state.announced,
        "pending": _placement_json(state.pending),
        "falling": [[f.body, f.time, f.air] for f in state.falling],
        "scores": list(game.scores(state)),
        "legal_actions": [format_action(a) for a in game.legal_actions(state)]
        if seat is not None and mover == seat
        else [],
        "winners": list(game.winners(state)) if state.phase is Phase.OVER else None,
    }


# --- the pictures ------------------------------------------------------------------------------
_WIDTH, _HEIGHT = 41, 17
_COLUMN, _ROW = 0.012, 0.03  # metres per character
_TOP = SHIP.pivot_height + SHIP.deck_height + SHIP.mast_height + 0.03


def _rotate(board: Board, point: tuple[float, float, float]) -> tuple[float, float, float]:
    """A ship-frame point in the world: pitch about y, then roll about x, at the pivot."""
    roll, pitch = board.joints[:2]
    x, y, z = point
    x, z = x * cos(pitch) + z * sin(pitch), -x * sin(pitch) + z * cos(pitch)
    y, z = y * cos(roll) - z * sin(roll), y * sin(roll) + z * cos(roll)
    return x, y, z + SHIP.pivot_height


def _segment(
    board: Board, start: tuple[float, float, float], end: tuple[float, float, float], steps: int
) -> list[tuple[float, float, float]]:
    return [
        _rotate(board, tuple(a + (b - a) * i / steps for a, b in zip(start, end, strict=True)))  # type: ignore[arg-type]
        for i in range(steps + 1)
    ]


def _ship_points(board: Board) -> list[tuple[tuple[float, float, float], str]]:
    length, width, height = SHIP.hull_size
    deck, bottom = SHIP.deck_height, SHIP.deck_height - height
    points = []
    for z in (deck, bottom):
        for x in (-length / 2, length / 2):
            points += [(p, "=") for p in _segment(board, (x, -width / 2, z), (x, width / 2, z), 8)]
        for y in (-width / 2, width / 2):
            points += [
                (p, "=") for p in _segment(board, (-length / 2, y, z), (length / 2, y, z), 24)
            ]
    top = deck + SHIP.mast_height
    points += [(p, "|") for p in _segment(board, (0, 0, deck), (0, 0, top), 16)]
    for yard in SHIP.yards:
        z, half = deck + yard.height, yard.length / 2
        points += [(p, "-") for p in _segment(board, (0, -half, z), (0, half, z), 24)]
    return points


def _canvas(marks: list[tuple[float, float, str]]) -> list[str]:
    grid = [[" "] * _WIDTH for _ in range(_HEIGHT)]
    for across, z, char in marks:
        column = round(across / _COLUMN) + _WIDTH // 2
        row = round((_TOP - z) / _ROW)
        if 0 <= column < _WIDTH and 0 <= row < _HEIGHT:
            grid[row][column] = char
    return ["".join(row).rstrip() for row in grid]


def ship_pictures(board: Board) -> tuple[list[str], list[str]]:
    """A side view (bow to the right) and a front view from astern (port to the left), with
    each piece shown by its initial over the ship."""
    ship = _ship_points(board)
    pieces = [((p.pose[0], p.pose[1], p.pose[2]), _initial(p.body)) for p in board.pieces]
    side = _canvas([(x, z, c) for (x, _, z), c in ship + pieces])
    front = _canvas([(-y, z, c) for (_, y, z), c in ship + pieces])
    return side, front


def _initial(body: int) -> str:
    name = PIECE_NAMES[piece_type(body)]
    return "S" if name == "sailor" else name[0].upper() if name != "boat" else "o"


def _area_lines(state: RiffRaffState) -> list[str]:
    def cargo(area: int) -> str:
        names = [PIECE_WORDS[piece_type(p.body)] for p in state.board.pieces if p.area == area]
        return ", ".join(names) or "-"

    lines = []
    for port, starboard, label in ((9, 10, "upper"), (7, 8, "middle"), (5, 6, "lower")):
        lines.append(
            f"  {label:<6} yard  {port:>2}: {cargo(port):<24} {starboard:>2}: {cargo(starboard)}"
        )
    lines.append(f"  deck fore    1: {cargo(1):<24}  2: {cargo(2)}")
    lines.append(f"  deck aft     3: {cargo(3):<24}  4: {cargo(4)}")
    return lines


def _supply_text(supply: Sequence[int]) -> str:
    parts = [
        f"{n} {PIECE_WORDS[t]}" if n > 1 else PIECE_WORDS[t] for t, n in enumerate(supply) if n
    ]
    return ", ".join(parts) or "empty"


def render(game: RiffRaff, state: RiffRaffState, names: Sequence[str] | None = None) -> str:
    """The ship from the side and from astern, the cargo per area, cards and supplies."""
    names = names or [f"seat {s}" for s in range(game.num_players)]
    side, front = ship_pictures(state.board)
    lines = ["Side (bow →)".ljust(_WIDTH + 3) + "From astern (port ←)"]
    lines += [f"{a:<{_WIDTH}}   {b}" for a, b in zip(side, front, strict=True)]
    lines.append(f"Ship {tilt_words(state.board)}; {len(state.board.pieces)} pieces on board")
    lines.append("Areas (port | starboard):")
    lines += _area_lines(state)
    lines.append(
        f"Round {max(state.round, 1)} of {game.options.rounds}; captain {names[state.captain]}"
    )
    for seat in range(game.num_players):
        marker = "▶" if seat == state.active and state.phase is not Phase.OVER else " "
        card = state.card(seat)
        down = " (card down)" if state.chosen[seat] is not None else ""
        lines.append(
            f" {marker} {names[seat]:<10} card {card if card is not None else '-':>2}{down:<12} "
            f"{state.supply_size(seat):>2} pieces: {_supply_text(state.supplies[seat])}"
        )
    if state.phase is Phase.OVER:
        lines.append("Game over: " + " and ".join(names[s] for s in state.winners) + " won")
    return "\n".join(lines)
