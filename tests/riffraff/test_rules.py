"""Riff Raff's rules with scripted physics outcomes (no simulation runs here)."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from spieltisch.core import CHANCE, GameRecord, IllegalAction, replay
from spieltisch.games.riffraff import (
    Announce,
    Board,
    Captain,
    Card,
    Catch,
    Fall,
    Next,
    Phase,
    PiecePose,
    Place,
    Placement,
    RiffRaff,
    RiffRaffState,
    Settled,
)
from spieltisch.games.riffraff.catching import catch_chance, catch_outcomes
from spieltisch.games.riffraff.data import PIECE_NAMES

POSE = (0.0, 0.05, 0.4, 1.0, 0.0, 0.0, 0.0)
BOX, PLANK = PIECE_NAMES.index("box"), PIECE_NAMES.index("plank")
assert BOX is not None and PLANK is not None


def game(players: int = 3, **options: object) -> RiffRaff:
    return RiffRaff({"players": players, "start_seat": 0, **options})


def cards(g: RiffRaff, state: RiffRaffState, *numbers: int) -> RiffRaffState:
    for number in numbers:
        state = g.apply(state, Card(number))
    return state


def settled(
    g: RiffRaff, state: RiffRaffState, fallen: tuple[int, ...] = (), area: int | None = None
) -> Settled:
    """The outcome of the pending placement: the new piece rests on `area` (default: the
    placement's), the pieces in `fallen` (the new one too, if its number is listed) fell."""
    assert state.pending is not None
    body = g.body_for(state, state.pending.piece)
    pieces = [p for p in state.board.pieces if p.body not in fallen]
    if body not in fallen:
        pieces.append(PiecePose(body, area or state.pending.area, POSE))
    board = Board(state.board.joints, tuple(sorted(pieces, key=lambda p: p.body)))
    return Settled(body, board, tuple(Fall(b, 0.6, 0.45) for b in fallen), 0.0)


def place(
    g: RiffRaff, state: RiffRaffState, piece: int | None = None, u: float = 0.6
) -> RiffRaffState:
    """Place `piece` (default: a box if the player has one, else the first piece held)."""
    assert state.active is not None
    area = state.card(state.active)
    assert area is not None
    if piece is None:
        supply = state.supplies[state.active]
        piece = 3 if supply[3] else next(t for t, n in enumerate(supply) if n)
    return g.apply(state, Place(Placement(piece, area, u)))


def test_card_choices_stay_hidden_until_all_are_down() -> None:
    g = game()
    state = cards(g, g.new_state(), 7)
    assert g.to_move(state) == 1
    for seat in (None, 1, 2):
        view = g.view(state, seat)
        assert view["cards"]["my_choice"] is None
        assert view["cards"]["chosen"] == [True, False, False]
        assert view["cards"]["latest"] == [None, None, None]
        assert view["cards"]["hand_sizes"] == [9, 10, 10]
    assert g.view(state, 0)["cards"]["my_choice"] == 7
    revealed = cards(g, state, 3, 9)
    assert g.view(revealed, 1)["cards"]["latest"] == [7, 3, 9]


def test_the_highest_card_makes_the_captain_and_the_order_descends() -> None:
    g = game()
    state = cards(g, g.new_state(), 4, 9, 6)
    assert state.captain == 1
    assert state.active == 1
    assert state.to_play == (0, 2)
    assert g.next_candidates(state) == [2]


def test_a_tie_for_the_highest_card_is_settled_by_the_previous_captain() -> None:
    g = game(start_seat=2)
    state = cards(g, g.new_state(), 8, 8, 2)
    assert state.phase is Phase.CAPTAIN
    assert g.to_move(state) == 2  # the previous captain decides
    assert g.legal_actions(state) == [Captain(0), Captain(1)]
    with pytest.raises(IllegalAction, match="highest card"):
        g.apply(state, Captain(2))
    state = g.apply(state, Captain(1))
    assert (state.captain, state.active, state.to_play) == (1, 1, (0, 2))


def test_the_captain_orders_players_with_equal_cards() -> None:
    g = game(players=4)
    state = cards(g, g.new_state(), 9, 3, 3, 1)
    assert state.active == 0
    state = g.apply(place(g, state), settled(g, place(g, state)))
    assert state.phase is Phase.NEXT
    assert g.to_move(state) == 0
    assert g.legal_actions(state) == [Next(1), Next(2)]
    state = g.apply(state, Next(2))
    assert state.active == 2
    state = g.apply(place(g, state), settled(g, place(g, state)))
    assert state.active == 1  # the other 3, then the 1
    state = g.apply(place(g, state), settled(g, place(g, state)))
    assert state.active == 3


def test_two_pieces_only_onto_a_yard_area_with_cargo() -> None:
    g = game()
    state = cards(g, g.new_state(), 7, 2, 1)
    assert state.phase is Phase.PLACE  # area 7 is empty: one piece, no announcement
    state = g.apply(place(g, state), settled(g, place(g, state)))
    assert state.active == 1 and state.phase is Phase.PLACE  # the deck: one piece
    state = g.apply(place(g, state), settled(g, place(g, state)))
    state = g.apply(place(g, state), settled(g, place(g, state)))
    state = cards(g, state, 8, 3, 7)  # seat 2 now loads area 7, where cargo lies
    state = g.apply(place(g, state), settled(g, place(g, state)))  # seat 0 on area 8
    assert state.active == 2 and state.phase is Phase.ANNOUNCE
    assert g.legal_actions(state) == [Announce(1), Announce(2)]
    state = g.apply(state, Announce(2))
    state = g.apply(place(g, state), settled(g, place(g, state)))
    assert state.active == 2 and state.phase is Phase.PLACE  # the second piece
    assert state.supply_size(2) == 6


def test_a_fall_during_the_first_of_two_pieces_ends_the_turn() -> None:
    g = game(catching="choose")
    state = _two_piece_turn(g)
    placed = place(g, state)
    assert placed.pending is not None
    body = g.body_for(placed, placed.pending.piece)
    state = g.apply(placed, settled(g, placed, fallen=(body,)))
    assert state.phase is Phase.CATCH and g.to_move(state) == 2
    state = g.apply(state, Catch(()))
    assert state.active == 1  # no second piece: the next player's turn
    assert state.supply_size(2) == 7  # the fallen piece came back


def _two_piece_turn(g: RiffRaff) -> RiffRaffState:
    state = cards(g, g.new_state(), 8, 3, 7)
    for _ in range(3):
        state = g.apply(place(g, state), settled(g, place(g, state)))
    state = cards(g, state, 10, 4, 8)  # seat 0 loads area 10, then seat 2 area 8
    state = g.apply(place(g, state), settled(g, place(g, state)))
    assert state.active == 2 and state.phase is Phase.ANNOUNCE
    return g.apply(state, Announce(2))


def test_catching_only_your_own_piece_does_not_count() -> None:
    g = game(catching="choose")
    state = cards(g, g.new_state(), 5, 2, 1)
    state = g.apply(place(g, state), settled(g, place(g, state)))  # a box on area 5
    state = g.apply(place(g, state), settled(g, place(g, state)))
    assert state.active == 2
    placed = place(g, state, piece=PLANK)
    own = g.body_for(placed, PLANK)
    state = g.apply(placed, settled(g, placed, fallen=(3, own)))  # seat 0's box and the plank
    before = state.supply_size(2)
    only_own = g.apply(state, Catch((own,)))
    assert only_own.supply_size(2) == before + 2 and only_own.caught[2] == 0
    both = g.apply(state, Catch((3, own)))
    assert both.supply_size(2) == before and both.caught[2] == 2
    other = g.apply(state, Catch((3,)))
    assert other.supply_size(2) == before + 1 and other.caught[2] == 1


def test_catches_are_validated() -> None:
    g = game(catching="choose")
    state = cards(g, g.new_state(), 5, 2, 1)
    placed = place(g, state)
    state = g.apply(placed, settled(g, placed, fallen=(3,)))
    with pytest.raises(IllegalAction, match="fell this turn"):
        g.apply(state, Catch((4,)))
    with pytest.raises(IllegalAction, match="at most 2"):
        g.apply(state, Catch((1, 2, 3)))
    assert g.legal_actions(state) == [Catch(()), Catch((3,))]


def test_the_catch_model_gives_exact_probabilities() -> None:
    assert catch_chance(0.1, 1) == 0
    assert catch_chance(0.9, 1) == Fraction(9, 10)
    assert catch_chance(0.375, 1) == Fraction(1, 2)
    assert catch_chance(0.375, 2) == Fraction(3, 8)
    falls = (Fall(1, 0.5, 0.375), Fall(2, 0.5, 0.2), Fall(3, 0.5, 0.6))
    outcomes = catch_outcomes(falls)
    assert sum(p for _, p in outcomes) == 1
    assert all(len(bodies) <= 2 and 2 not in bodies for bodies, _ in outcomes)  # two hands


def test_the_model_decides_catches_as_chance() -> None:
    g = game()
    state = cards(g, g.new_state(), 5, 2, 1)
    placed = place(g, state)
    state = g.apply(placed, settled(g, placed, fallen=(3,)))
    assert g.to_move(state) == CHANCE
    outcomes = g.chance_outcomes(state)
    assert [a for a, _ in outcomes] == [Catch(()), Catch((3,))]
    assert sum(p for _, p in outcomes) == 1


def test_a_player_without_cargo_wins_at_once() -> None:
    g = game()
    state = cards(g, g.new_state(), 5, 2, 1)
    last = (0, 0, 0, 1, 0, 0, 0, 0)  # seat 0 holds one box
    state = replace(state, supplies=(last, *state.supplies[1:]))
    placed = place(g, state)
    state = g.apply(placed, settled(g, placed))
    assert state.phase is Phase.OVER
    assert g.winners(state) == (0,)
    assert g.to_move(state) is None


def test_placements_refuse_footprints_in_another_area() -> None:
    g = game()
    state = cards(g, g.new_state(), 5, 2, 1)
    with pytest.raises(IllegalAction, match="mast"):
        g.apply(state, Place(Placement(PLANK, 5, 0.1)))
    with pytest.raises(IllegalAction, match="load onto area 5"):
        g.apply(state, Place(Placement(BOX, 6, 0.6)))
    assert g.apply(state, Place(Placement(PLANK, 5, 0.1, yaw=90))).phase is Phase.SETTLE
    assert g.apply(state, Place(Placement(BOX, 5, 0.537, 0.2, 13.5))).phase is Phase.SETTLE


def _play_round(g: RiffRaff, state: RiffRaffState, card: int) -> RiffRaffState:
    state = cards(g, state, *([card] * g.num_players))
    if state.phase is Phase.CAPTAIN:
        state = g.apply(state, Captain(state.captain))
    while state.phase not in (Phase.CARDS, Phase.OVER):
        if state.phase is Phase.NEXT:
            state = g.apply(state, g.legal_actions(state)[0])
        placed = place(g, state)
        state = g.apply(placed, settled(g, placed, fallen=(g.body_for(placed, 3),)))
        state = g.apply(state, g.legal_actions(state)[0])  # the catch model: nothing caught
    return state


@pytest.mark.parametrize(("players", "rounds"), [(2, 20), (3, 10)])
def test_the_game_ends_after_the_last_round_with_shared_wins(players: int, rounds: int) -> None:
    g = game(players=players)
    state = g.new_state()
    for number in range(rounds):
        assert state.phase is Phase.CARDS and state.round == number + 1
        state = _play_round(g, state, 1 + number % 10)
    assert state.phase is Phase.OVER
    assert g.winners(state) == tuple(range(players))  # everybody still holds everything


def test_a_record_replays_without_the_physics() -> None:
    g = game(catching="choose")
    state = g.new_state()
    actions: list[Any] = []
    for number in (5, 2, 1):
        actions.append(Card(number))
        state = g.apply(state, actions[-1])
    placed = place(g, state)
    assert placed.pending is not None
    actions += [Place(placed.pending), settled(g, placed, fallen=(3,)), Catch(())]
    record = GameRecord.start(g)
    for action in actions:
        record = record.with_action(g, action)
    data = json.loads(json.dumps(record.to_json()))
    final = replay(GameRecord.from_json(data))
    assert final.supply_size(0) == 8 and final.active == 1


# --- what the log tells ------------------------------------------------------------------------
def test_the_log_tells_placements_falls_and_where_caught_pieces_go() -> None:
    g = game(catching="choose")
    state = cards(g, g.new_state(), 5, 2, 1)
    state = g.apply(place(g, state), settled(g, place(g, state)))  # seat 0's box on area 5
    state = g.apply(place(g, state), settled(g, place(g, state)))
    placed = place(g, state, piece=PLANK)
    assert g.story(state, Place(placed.pending), placed) == {"piece": "plank", "area": 1}  # type: ignore[arg-type]
    own = g.body_for(placed, PLANK)
    outcome = settled(g, placed, fallen=(3, own))
    falling = g.apply(placed, outcome)
    told = g.story(placed, outcome, falling)
    assert told["fell"] == [
        {"piece": "box", "body": 3, "area": 5},
        {"piece": "plank", "body": own, "area": 1},
    ]
    assert g.story(falling, Catch((3,)), g.apply(falling, Catch((3,)))) == {
        "seat": 2,
        "caught": ["box"],
        "back": [],
        "supply": ["plank"],
    }
    assert g.story(falling, Catch((own,)), g.apply(falling, Catch((own,)))) == {
        "seat": 2,
        "caught": [],
        "back": ["plank"],
        "supply": ["box"],
    }


def test_only_the_face_down_card_is_hidden_and_only_from_the_others() -> None:
    g = game()
    assert not g.public_to(1, "card 7", 0) and not g.public_to(1, "card 7", None)
    assert g.public_to(1, "card 7", 1)
    assert g.public_to(1, "place box 7 u=0.5", 0) and g.public_to(CHANCE, "catch none", None)
