"""Property-based tests: generated action sequences and positions keep Pickomino's invariants."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from spieltisch.core import CHANCE, GameRecord, replay_states
from spieltisch.games.pickomino import ROLL, Action, Phase, Pickomino, PickominoState, Stop, Take
from spieltisch.games.pickomino.data import DICE, FACE_VALUES, NUM_FACES, TILES, WORM, tile_worms

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"players": 3, "start_seat": "random"},
    {"players": 7},
    {"players": 4, "short_game": True},
    {"players": 2, "flip_when_nothing_returned": False},
    {"players": 5, "short_game": True, "flip_when_nothing_returned": False, "start_seat": 4},
]
FAST = settings(max_examples=40, deadline=None, derandomize=True)


# --- invariants of a single position -------------------------------------------------------
def check_position(game: Pickomino, state: PickominoState) -> None:
    held = [tile for stack in state.stacks for tile in stack]
    assert len(state.stacks) == game.num_players
    assert len(set(held) | set(state.grill)) == len(held) + len(state.grill), "a tile twice"
    assert sorted([*held, *state.grill, *state.out_of_game]) == list(TILES), "16 tiles"
    assert list(state.grill) == sorted(set(state.grill)), "the grill ascends"
    assert all(0 <= count <= DICE for count in state.kept)
    assert sum(state.kept) <= DICE
    assert state.dice_left == DICE - sum(state.kept)
    assert state.total == sum(n * v for n, v in zip(state.kept, FACE_VALUES, strict=True))
    assert state.has_worm == (state.kept[WORM] > 0)
    assert game.scores(state) == tuple(sum(map(tile_worms, s)) for s in state.stacks)
    assert (state.phase is Phase.OVER) == (state.grill == ())
    if state.phase is Phase.CHOOSE:
        assert sum(state.rolled) == state.dice_left
        assert any(state.rolled[f] and not state.kept[f] for f in range(NUM_FACES))
    else:
        assert not any(state.rolled)
    if state.phase in (Phase.START, Phase.OVER):
        assert not any(state.kept)


def check_step(game: Pickomino, before: PickominoState, after: PickominoState) -> None:
    """What may change from one position to the next."""
    assert after.turn in (before.turn, before.turn + 1), "the turn counter never decreases"
    assert set(before.out_of_game) <= set(after.out_of_game), "face down is for good"
    assert len(after.out_of_game) <= len(before.out_of_game) + 1
    sizes_before = sum(map(len, before.stacks))
    assert abs(sum(map(len, after.stacks)) - sizes_before) <= 1
    if after.turn == before.turn:
        assert after.seat == before.seat or before.phase is Phase.START
        assert after.stacks == before.stacks and after.grill == before.grill
        kept_faces = [f for f in range(NUM_FACES) if before.kept[f]]
        assert all(after.kept[f] == before.kept[f] for f in kept_faces), "set aside stays"
    else:
        assert after.kept == (0,) * NUM_FACES
        assert after.phase in (Phase.ROLL, Phase.OVER)
        if after.phase is Phase.ROLL:
            assert after.seat == (before.seat + 1) % game.num_players


# --- generated games -----------------------------------------------------------------------
def choose(game: Pickomino, state: PickominoState, choice: int) -> Action:
    """Chance: mostly a fair draw, sometimes any outcome; a player: any legal action."""
    legal = game.legal_actions(state)
    if game.to_move(state) == CHANCE and choice % 3:
        return game.sample_chance(state, random.Random(choice))
    return legal[choice % len(legal)]


def choice_stream(prefix: list[int], seed: int, length: int) -> list[int]:
    """The generated choices first (they shrink well), then `length` more from `seed`."""
    rng = random.Random(seed)
    return prefix + [rng.randrange(2**16) for _ in range(length)]


@FAST
@given(
    options=st.sampled_from(OPTION_SETS),
    prefix=st.lists(st.integers(min_value=0, max_value=2**16), max_size=40),
    seed=st.integers(min_value=0, max_value=2**32),
    length=st.integers(min_value=0, max_value=400),
)
def test_generated_games_keep_the_invariants(
    options: dict[str, Any], prefix: list[int], seed: int, length: int
) -> None:
    choices = choice_stream(prefix, seed, length)
    game = Pickomino(options)
    state = game.new_state()
    states, texts = [state], []
    check_position(game, state)
    for choice in choices:
        if game.is_over(state):
            break
        action = choose(game, state, choice)
        assert action in game.legal_actions(state)
        snapshot, identity = game.state_to_json(state), hash(state)
        after = game.apply(state, action)
        assert game.state_to_json(state) == snapshot, "apply never mutates its input"
        assert hash(state) == identity
        check_position(game, after)
        check_step(game, state, after)
        text = game.format_action(action)
        assert game.parse_action(state, text) == action
        texts.append(text)
        states.append(after)
        state = after
    record = GameRecord(game.name, game.options_json(), game.rules_version, tuple(texts))
    assert replay_states(record) == states


@settings(max_examples=15, deadline=None, derandomize=True)
@given(options=st.sampled_from(OPTION_SETS), seed=st.integers(min_value=0, max_value=2**32))
def test_generated_games_reach_a_well_formed_end(options: dict[str, Any], seed: int) -> None:
    game = Pickomino(options)
    rng = random.Random(seed)
    state = game.new_state()
    for _ in range(50_000):
        if game.is_over(state):
            break
        state = game.apply(state, choose(game, state, rng.randrange(2**16)))
    assert game.is_over(state)
    assert state.grill == ()
    scores = game.scores(state)
    winners = game.winners(state)
    best = max(scores)
    assert winners and all(scores[w] == best for w in winners)
    highest = [max(state.stacks[w], default=0) for w in winners]
    assert len(set(highest)) == 1
    assert all(
        max(stack, default=0) <= highest[0]
        for stack, s in zip(state.stacks, scores, strict=True)
        if s == best
    )


# --- generated positions: stops against an independent statement of the rules --------------
@st.composite
def decisions(draw: st.DrawFn) -> tuple[Pickomino, PickominoState]:
    """A 'stop or roll on' position: tiles anywhere (one at least on the grill), dice set aside."""
    players = draw(st.integers(min_value=2, max_value=7))
    places = draw(st.lists(st.integers(-2, players - 1), min_size=16, max_size=16))
    places[draw(st.integers(0, 15))] = -1
    grill = tuple(t for t, place in zip(TILES, places, strict=True) if place == -1)
    stacks = tuple(
        tuple(draw(st.permutations([t for t, p in zip(TILES, places, strict=True) if p == s])))
        for s in range(players)
    )
    kept = [0] * NUM_FACES
    for face in draw(st.lists(st.integers(0, NUM_FACES - 1), min_size=1, max_size=DICE)):
        kept[face] += 1
    options = {
        "players": players,
        "short_game": draw(st.booleans()),
        "flip_when_nothing_returned": draw(st.booleans()),
    }
    seat, turn = draw(st.integers(0, players - 1)), draw(st.integers(0, 99))
    return Pickomino(options), PickominoState(
        grill, stacks, seat, Phase.DECIDE, tuple(kept), turn=turn
    )


def expected_take(state: PickominoState, claim: str) -> int | None:
    """The tile a stop with `claim` takes, from the spec's words; None if it cannot."""
    total = sum(n * v for n, v in zip(state.kept, FACE_VALUES, strict=True))
    if not state.kept[WORM]:
        return None
    if claim == "steal":
        tops = [s[-1] for i, s in enumerate(state.stacks) if s and i != state.seat]
        return total if total in tops else None
    reachable = [t for t in state.grill if t <= total]
    return max(reachable) if reachable else None


@FAST
@given(decisions())
def test_a_stop_takes_the_tile_the_spec_names(position: tuple[Pickomino, PickominoState]) -> None:
    game, state = position
    legal = game.legal_actions(state)
    assert (Stop("steal") in legal) == (expected_take(state, "steal") is not None)
    assert (Stop("grill") in legal) == (expected_take(state, "grill") is not None)
    takes = [expected_take(state, claim) for claim in ("steal", "grill")]
    assert (Stop("none") in legal) == (takes == [None, None])
    assert (ROLL in legal) == (sum(state.kept) < DICE and not all(state.kept))
    for claim in ("steal", "grill"):
        tile = expected_take(state, claim)
        if tile is None:
            continue
        after = game.apply(state, Stop(claim))
        assert after.stacks[state.seat] == (*state.stacks[state.seat], tile)
        assert after.turn == state.turn + 1
        if claim == "steal":
            assert after.grill == state.grill
        else:
            assert tile not in after.grill


@FAST
@given(decisions())
def test_a_failed_stop_returns_and_turns_down_as_the_spec_says(
    position: tuple[Pickomino, PickominoState],
) -> None:
    game, state = position
    if Stop("none") not in game.legal_actions(state):
        return
    after = game.apply(state, Stop("none"))
    own = state.stacks[state.seat]
    returned = own[-1] if own else None
    grill = sorted([*state.grill, *([returned] if returned else [])])
    if returned is None:
        flips = game.options.flip_when_nothing_returned
    else:
        flips = game.options.short_game or returned != grill[-1]
    expected = tuple(grill[:-1] if flips and grill else grill)
    assert after.grill == expected
    assert after.stacks[state.seat] == own[:-1]
    others = [i for i in range(game.num_players) if i != state.seat]
    assert all(after.stacks[i] == state.stacks[i] for i in others)
    check_position(game, after)


@FAST
@given(decisions(), st.integers(min_value=0, max_value=2**16))
def test_any_roll_or_take_from_a_position_keeps_the_invariants(
    position: tuple[Pickomino, PickominoState], seed: int
) -> None:
    game, state = position
    rng = random.Random(seed)
    check_position(game, state)
    turn = state.turn
    while state.turn == turn and not game.is_over(state):
        action = choose(game, state, rng.randrange(2**16))
        if isinstance(action, Take):
            assert state.rolled[action.face] and not state.kept[action.face]
        after = game.apply(state, action)
        check_position(game, after)
        check_step(game, state, after)
        state = after
