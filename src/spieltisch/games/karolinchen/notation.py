"""Karolinchen's text notation, JSON forms and one-screen rendering.

Fruits are written as their die colour's letter (see `data.FRUITS`): r g y p o b. Actions:
`lay y` (or just `y`, `mirabelles`, `yellow`), `take` and `leave` (when taking the dice for a
new card is a choice); chance outcomes `=gggbby` (the rolled dice), `tails rgy` (each seat's
tail fruit) and `first 2` (the start seat).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, TypeGuard

from spieltisch.core.errors import IllegalAction
from spieltisch.core.protocol import JsonValue
from spieltisch.games.karolinchen.data import (
    COUNTS,
    DICE,
    FRUITS,
    LETTERS,
    NUM_FRUITS,
    TOTAL_FRUITS,
    fruit_from_word,
)
from spieltisch.games.karolinchen.state import (
    LEAVE,
    TAKE,
    Action,
    Dice,
    FirstSeat,
    KarolinchenState,
    Lay,
    Leave,
    Phase,
    Tails,
    Take,
)

if TYPE_CHECKING:
    from spieltisch.games.karolinchen.rules import Karolinchen

__all__ = [
    "Paint",
    "card_cells",
    "dice_text",
    "format_action",
    "fruits_text",
    "middle_text",
    "read_action",
    "render",
    "state_from_json",
    "state_to_json",
    "view_json",
]

Paint = Callable[[str, int], str]
"""Colours `text` in the colour of `fruit` (the terminal passes one; plain text by default)."""


def _plain(text: str, fruit: int) -> str:
    return text


def fruits_text(fruits: Sequence[int]) -> str:
    """'cherries (r), plums (p)'."""
    return ", ".join(f"{FRUITS[f].name} ({LETTERS[f]})" for f in fruits) or "none"


def dice_text(counts: Sequence[int]) -> str:
    """Dice as letters in table order, e.g. (0, 3, 1, 0, 0, 2) -> 'gggybb'."""
    return _dice_text(tuple(counts))


@cache
def _dice_text(counts: tuple[int, ...]) -> str:
    return "".join(LETTERS[f] * n for f, n in enumerate(counts))


def format_action(action: Action) -> str:
    if isinstance(action, Lay):
        return f"lay {LETTERS[action.fruit]}" if 0 <= action.fruit < NUM_FRUITS else "lay ?"
    if isinstance(action, Take):
        return "take"
    if isinstance(action, Leave):
        return "leave"
    if isinstance(action, Dice):
        return "=" + _dice_text(action.counts)
    if isinstance(action, Tails):
        return "tails " + "".join(LETTERS[f] for f in action.fruits)
    return f"first {action.seat}"


def _fruit(word: str) -> int:
    fruit = fruit_from_word(word)
    if fruit is None:
        raise IllegalAction(f"'{word}' is not a fruit; fruits are {' '.join(LETTERS)}")
    return fruit


def _read_dice(text: str) -> Dice:
    counts = [0] * NUM_FRUITS
    for letter in text.replace(" ", "").replace(",", ""):
        counts[_fruit(letter)] += 1
    return Dice(tuple(counts))


def read_action(game: Karolinchen, state: KarolinchenState, text: str) -> Action:
    words = text.strip().lower().split()
    if not words:
        raise IllegalAction("type the fruit of the card to lay, e.g. 'g' or 'gooseberries'")
    head, rest = words[0], words[1:]
    if head.startswith("="):
        return _read_dice(text.strip()[1:])
    if head == "first" and len(rest) == 1 and rest[0].isdecimal():
        return FirstSeat(int(rest[0]))
    if head == "tails" and len(rest) == 1:
        return Tails(tuple(_fruit(letter) for letter in rest[0]))
    if head == "take" and not rest:
        return TAKE
    if head == "leave" and not rest:
        return LEAVE
    if head == "lay" and len(rest) == 1:
        return Lay(_fruit(rest[0]))
    if not rest and fruit_from_word(head) is not None:
        return Lay(_fruit(head))
    allowed = ", ".join(format_action(a) for a in game.legal_actions(state)[:8])
    raise IllegalAction(f"'{text.strip()}' is not an action; you can play: {allowed or 'nothing'}")


# --- JSON ----------------------------------------------------------------------------------
def state_to_json(state: KarolinchenState) -> dict[str, JsonValue]:
    return {
        "phase": state.phase.value,
        "seat": state.seat,
        "middle": list(state.middle),
        "cards": [list(cards) for cards in state.cards],
        "eaten": list(state.eaten),
        "covered": list(state.covered),
        "turn": state.turn,
    }


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_list(value: Any, key: str, length: int | None = None) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(_is_int(v) and v >= 0 for v in value):
        raise ValueError(f"'{key}' must be a list of whole numbers, none negative")
    if length is not None and len(value) != length:
        raise ValueError(f"'{key}' must have {length} entries")
    return tuple(value)


def _read_cards(game: Karolinchen, data: Mapping[str, Any]) -> tuple[tuple[int, ...], ...]:
    raw = data.get("cards")
    if not isinstance(raw, list) or len(raw) != game.num_players:
        raise ValueError(f"'cards' must list the laid cards of {game.num_players} seats")
    cards = tuple(_int_list(seat_cards, "cards") for seat_cards in raw)
    for seat_cards in cards:
        if len(set(seat_cards)) != len(seat_cards) or any(f >= NUM_FRUITS for f in seat_cards):
            raise ValueError(f"each seat's cards must be different fruits 0 to {NUM_FRUITS - 1}")
    return cards


def _check_position(state: KarolinchenState) -> None:
    """Counts that fit the cards, the dice and the phase."""
    phase = state.phase
    if (phase is Phase.TAILS) != (not any(state.cards)) or not (
        phase is Phase.TAILS or all(state.cards)
    ):
        raise ValueError("every seat has laid cards, except while the tails are drawn")
    for seat in range(len(state.cards)):
        if state.progress(seat) > state.laid_fruits(seat):
            raise ValueError("eaten and covered fruits must fit on the laid cards")
    if sum(state.covered) > DICE:
        raise ValueError(f"at most {DICE} dice lie on the cards")
    if phase is Phase.CHOOSE and (state.free(state.seat) or not state.hand(state.seat)):
        raise ValueError("a seat chooses a card only when its card is full and its hand is not")
    resting = phase in (Phase.CHOOSE, Phase.TAKE, Phase.OVER)
    if resting and sum(state.middle) != state.dice_in_middle:
        raise ValueError("'middle' must hold every die that is not on a card")
    if not resting and any(state.middle):
        raise ValueError("'middle' must be all zero while dice are rolled or set up")


def state_from_json(game: Karolinchen, data: Mapping[str, JsonValue]) -> KarolinchenState:
    """Rebuild and check a state: cards, counts, dice and seat in range."""
    if not isinstance(data, Mapping):
        raise ValueError("a Karolinchen state must be a JSON object")
    players = game.num_players
    phase, seat, turn = data.get("phase"), data.get("seat"), data.get("turn")
    if not isinstance(phase, str) or phase not in {p.value for p in Phase}:
        raise ValueError(f"'phase' must be one of {', '.join(p.value for p in Phase)}")
    if not _is_int(seat) or not 0 <= seat < players:
        raise ValueError(f"'seat' must be a seat from 0 to {players - 1}")
    if not _is_int(turn) or turn < 0:
        raise ValueError("'turn' must be a whole number")
    state = KarolinchenState(
        Phase(phase),
        seat,
        _int_list(data.get("middle"), "middle", NUM_FRUITS),
        _read_cards(game, data),
        _int_list(data.get("eaten"), "eaten", players),
        _int_list(data.get("covered"), "covered", players),
        turn,
    )
    _check_position(state)
    return state


# --- views -----------------------------------------------------------------------------------
def _seat_json(state: KarolinchenState, seat: int) -> dict[str, JsonValue]:
    laid = bool(state.cards[seat])
    return {
        "eaten": state.eaten[seat],
        "covered": state.covered[seat],
        "progress": state.progress(seat),
        "current": LETTERS[state.current(seat)] if laid else None,
        "free": state.free(seat) if laid else None,
        "hand": [LETTERS[f] for f in state.hand(seat)] if laid else [],
        "fruits": "".join(LETTERS[f] * COUNTS[f] for f in state.cards[seat]),
    }


def view_json(game: Karolinchen, state: KarolinchenState, seat: int | None) -> dict[str, JsonValue]:
    """Everything is public in Karolinchen; the seat to move also gets its legal actions."""
    mover = game.to_move(state)
    over = state.phase is Phase.OVER
    return {
        "game": game.name,
        "viewer": seat,
        "state": state_to_json(state),
        "to_move": mover,
        "fruits": [
            {"letter": f.letter, "name": f.name, "colour": f.colour, "count": f.size}
            for f in FRUITS
        ],
        "middle": dice_text(state.middle),
        "worms": [_seat_json(state, s) for s in range(game.num_players)],
        "legal_actions": [format_action(a) for a in game.legal_actions(state)]
        if seat is not None and mover == seat
        else [],
        "winners": list(game.winners(state)) if over else None,
    }


# --- the one-screen picture ------------------------------------------------------------------
def card_cells(state: KarolinchenState, seat: int, paint: Paint = _plain) -> str:
    """The current card fruit by fruit: '·' eaten, the die's letter if covered, '○' free."""
    fruit = state.current(seat)
    start = state.laid_fruits(seat) - COUNTS[fruit]
    cells = []
    for index in range(start, start + COUNTS[fruit]):
        if index < state.eaten[seat]:
            cells.append("·")
        elif index < state.progress(seat):
            cells.append(paint(LETTERS[fruit].upper(), fruit))
        else:
            cells.append("○")
    return "".join(cells)


def _worm_line(
    game: Karolinchen, state: KarolinchenState, seat: int, name: str, paint: Paint
) -> str:
    over = state.phase is Phase.OVER
    marker = "▶" if seat == state.seat and game.to_move(state) is not None else " "
    if over and seat == state.seat:
        marker = "★"
    if not state.cards[seat]:
        return f" {marker} {name:<10} (tail card not drawn yet)"
    fruit = state.current(seat)
    cells = card_cells(state, seat, paint)
    padding = " " * (6 - COUNTS[fruit])
    hand = " ".join(paint(LETTERS[f], f) for f in state.hand(seat)) or "-"
    return (
        f" {marker} {name:<10} {state.progress(seat):>2}/{TOTAL_FRUITS}"
        f"  eaten {state.eaten[seat]:>2}"
        f"  dice {state.covered[seat]}  {FRUITS[fruit].name:<12} {cells}{padding}  hand {hand}"
    )


def middle_text(state: KarolinchenState, paint: Paint = _plain) -> str:
    """The dice in the middle as '[G] [G] [B]'."""
    dice = [
        paint(f"[{LETTERS[f].upper()}]", f)
        for f in range(NUM_FRUITS)
        for _ in range(state.middle[f])
    ]
    return " ".join(dice) or "empty"


def render(
    game: Karolinchen,
    state: KarolinchenState,
    names: Sequence[str] | None = None,
    paint: Paint = _plain,
) -> str:
    """The table on one screen: the dice in the middle and one row per worm."""
    names = names or [f"seat {s}" for s in range(game.num_players)]
    if state.phase is Phase.ROLL:
        middle = f"{state.dice_in_middle} dice being rolled"
    elif state.phase in (Phase.TAILS, Phase.START, Phase.DEAL):
        middle = f"{DICE} dice, not rolled yet"
    else:
        middle = middle_text(state, paint)
    legend = "  ".join(f"{paint(f.letter, i)} {f.name}" for i, f in enumerate(FRUITS))
    lines = [f"Middle   {middle}", f"Fruits   {legend}"]
    lines += [_worm_line(game, state, s, names[s], paint) for s in range(game.num_players)]
    if state.phase is Phase.OVER:
        lines.append(f"Game over: {names[state.seat]} won")
    return "\n".join(lines)
