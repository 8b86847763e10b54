"""What a log tells of each Riff Raff action besides its notation: which piece went where,
what fell and from which area, who caught what and where the uncaught pieces went.

Pieces are named by their type (`data.PIECE_NAMES`); areas by their number.
"""

from __future__ import annotations

from spieltisch.core.protocol import JsonValue
from spieltisch.games.riffraff.board import piece_type
from spieltisch.games.riffraff.data import PIECE_NAMES
from spieltisch.games.riffraff.state import Action, Catch, Place, RiffRaffState, Settled

__all__ = ["piece_name", "tell"]


def piece_name(body: int) -> str:
    return PIECE_NAMES[piece_type(body)]


def tell(before: RiffRaffState, action: Action) -> dict[str, JsonValue]:
    """The public facts of `action` played in `before` (empty for cards, captains, ...)."""
    if isinstance(action, Place):
        placement = action.placement
        return {"piece": PIECE_NAMES[placement.piece], "area": placement.area}
    if isinstance(action, Settled):
        return _settled(before, action)
    if isinstance(action, Catch):
        return _catch(before, action)
    return {}


def _settled(before: RiffRaffState, outcome: Settled) -> dict[str, JsonValue]:
    """What fell, each piece with the area it fell from (the placed one: its target area)."""
    areas = {p.body: p.area for p in before.board.pieces}
    target = before.pending.area if before.pending is not None else None
    fell = [
        {"piece": piece_name(f.body), "body": f.body, "area": areas.get(f.body, target)}
        for f in outcome.fallen
    ]
    return {"piece": piece_name(outcome.body), "area": target, "fell": fell}


def _catch(before: RiffRaffState, catch: Catch) -> dict[str, JsonValue]:
    """Who caught what: `caught` leave the game; `back` are the player's own pieces of this
    turn, caught but not counted; `supply` fell uncaught into the player's supply."""
    kept = before.counted_catch(catch.bodies)
    fallen = [f.body for f in before.falling]
    return {
        "seat": before.active,
        "caught": [piece_name(b) for b in fallen if b in kept],
        "back": [piece_name(b) for b in fallen if b in catch.bodies and b not in kept],
        "supply": [piece_name(b) for b in fallen if b not in catch.bodies],
    }
