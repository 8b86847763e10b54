"""The protocol's promises, checked for every game in the registry and a few option sets each.

A new game is covered as soon as it is registered. Options: every game is played with its
defaults and, when its player count can vary, with `players` at the minimum and maximum
(the shared option name); `EXTRA_OPTIONS` adds game-specific variants. Views carry the
viewer's legal actions as text under "legal_actions" (empty unless the viewer is to move).

Chance that cannot be enumerated (Riff Raff's physics): at such a node `chance_outcomes` and
`legal_actions` are empty, the outcome comes from `sample_chance` only, and the checks that an
action is listed as legal are skipped for it (apply still has to accept it). Games whose
random actions are slow to simulate may cap the generated sequences in `SEQUENCE_LIMIT`.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spieltisch.core import (
    CHANCE,
    Game,
    GameRecord,
    IllegalAction,
    InvalidOptions,
    game_class,
    game_names,
    make_game,
    replay,
    replay_states,
)

EXTRA_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "pickomino": [
        {"players": 3, "start_seat": "random"},
        {"short_game": True},
        {"players": 4, "flip_when_nothing_returned": False},
    ],
    "riffraff": [{"players": 3, "catching": "choose", "start_seat": 1, "steadiness": "0.5"}],
}
SEQUENCE_LIMIT: dict[str, int] = {"riffraff": 40}
"""Riff Raff simulates every placement (about 0.1 s each): shorter generated sequences."""
SEEDS = (0, 1, 2)
MAX_ACTIONS = 100_000
"""A random game longer than this is taken not to terminate."""
SAMPLE = 80
"""At most this many states of a game get the expensive checks."""
MALFORMED_TEXTS = ("", "   ", "no such action at all", "@@@", "\x00", "take take take", "=?")


def _option_sets(name: str) -> list[dict[str, Any]]:
    cls = game_class(name)
    sets: list[dict[str, Any]] = [{}]
    if cls.min_players != cls.max_players:
        sets += [{"players": cls.min_players}, {"players": cls.max_players}]
    return sets + EXTRA_OPTIONS.get(name, [])


def _cases() -> Iterator[Any]:
    for name in game_names():
        for options in _option_sets(name):
            key = json.dumps(options, sort_keys=True)
            label = ",".join(f"{k}={v}" for k, v in sorted(options.items())) or "defaults"
            # every Riff Raff placement runs the physics: only its defaults are in the quick subset
            slow = name == "riffraff" and options != {}
            marks = [pytest.mark.slow] if slow else []
            yield pytest.param(name, key, id=f"{name}[{label}]", marks=marks)


CASES = list(_cases())
case = pytest.mark.parametrize(("name", "options"), CASES)
# the quick subset plays the first seed of each game; the other seeds are for the whole run
seeds = pytest.mark.parametrize(
    "seed", [pytest.param(s, marks=[pytest.mark.slow] if s else []) for s in SEEDS]
)


@dataclass(frozen=True)
class Playthrough:
    game: Game[Any, Any]
    states: list[Any]  # states[i] is before actions[i]; states[-1] is the end
    actions: list[Any]

    def sample(self) -> list[int]:
        """Indices of states: all of a short game, an even spread with the end otherwise."""
        count = len(self.states)
        if count <= SAMPLE:
            return list(range(count))
        return sorted({count * i // SAMPLE for i in range(SAMPLE)} | {count - 1})


def play_random(name: str, options: str, seed: int) -> Playthrough:
    """A game of uniformly random legal choices; chance from the game's own sampler."""
    game = make_game(name, json.loads(options))
    rng = random.Random(seed)
    states, actions = [game.new_state()], list[Any]()
    mover = game.to_move(states[-1])
    while mover is not None:
        assert len(actions) < MAX_ACTIONS, f"no end after {MAX_ACTIONS} actions"
        state = states[-1]
        if mover == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            action = rng.choice(game.legal_actions(state))
        actions.append(action)
        states.append(game.apply(state, action))
        mover = game.to_move(states[-1])
    return Playthrough(game, states, actions)


@functools.cache
def playthrough(name: str, options: str, seed: int) -> Playthrough:
    return play_random(name, options, seed)


def _unlisted_chance(game: Game[Any, Any], state: Any) -> bool:
    """A chance node whose outcomes cannot be listed (they are only sampled)."""
    return game.to_move(state) == CHANCE and not game.legal_actions(state)


def _json_copy(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _texts(game: Game[Any, Any], actions: list[Any]) -> list[str]:
    return [game.format_action(a) for a in actions]


# --- the game and its options ------------------------------------------------------------
def test_the_registry_has_games() -> None:
    assert game_names()
    assert game_names() == sorted(set(game_names()))


@case
def test_game_metadata(name: str, options: str) -> None:
    game = make_game(name, json.loads(options))
    assert game.name == name
    assert isinstance(game.title, str) and game.title
    assert isinstance(game.rules_version, str) and game.rules_version
    assert 1 <= game.min_players <= game.num_players <= game.max_players


@case
def test_options_json_rebuilds_the_game(name: str, options: str) -> None:
    game = make_game(name, json.loads(options))
    data = _json_copy(game.options_json())
    assert data == game.options_json()
    assert make_game(name, data).options_json() == data
    assert make_game(name, data).new_state() == game.new_state()


@pytest.mark.parametrize("name", game_names())
def test_unknown_and_out_of_range_options_are_rejected(name: str) -> None:
    cls = game_class(name)
    with pytest.raises(InvalidOptions):
        make_game(name, {"no_such_option": 1})
    if cls.min_players != cls.max_players:
        for players in (cls.min_players - 1, cls.max_players + 1):
            with pytest.raises(InvalidOptions):
                make_game(name, {"players": players})


# --- playing -----------------------------------------------------------------------------
@case
@seeds
def test_random_games_end_and_every_action_is_legal(name: str, options: str, seed: int) -> None:
    play = playthrough(name, options, seed)
    game = play.game
    for state, action in zip(play.states[:-1], play.actions, strict=True):
        mover = game.to_move(state)
        assert mover is not None and (mover == CHANCE or 0 <= mover < game.num_players)
        assert not game.is_over(state)
        legal = game.legal_actions(state)
        assert action in legal or _unlisted_chance(game, state)
        assert game.legal_actions(state) == legal, "legal actions in a deterministic order"
    end = play.states[-1]
    assert game.to_move(end) is None
    assert game.is_over(end)
    assert game.legal_actions(end) == []


@case
@seeds
def test_legal_actions_have_distinct_texts(name: str, options: str, seed: int) -> None:
    play = playthrough(name, options, seed)
    for index in play.sample():
        legal = play.game.legal_actions(play.states[index])
        texts = _texts(play.game, legal)
        assert len(set(texts)) == len(texts) == len(legal)


@case
@seeds
def test_the_same_seed_plays_the_same_game(name: str, options: str, seed: int) -> None:
    first, second = playthrough(name, options, seed), play_random(name, options, seed)
    game = first.game
    assert _texts(game, first.actions) == _texts(game, second.actions)
    assert first.states[-1] == second.states[-1]
    assert game.state_to_json(first.states[-1]) == game.state_to_json(second.states[-1])


@case
def test_the_start_position_is_always_the_same(name: str, options: str) -> None:
    game = make_game(name, json.loads(options))
    assert game.new_state() == game.new_state()


@case
@seeds
def test_chance_outcomes_are_exact_and_sum_to_one(name: str, options: str, seed: int) -> None:
    play = playthrough(name, options, seed)
    game = play.game
    chance_nodes = [i for i in play.sample() if game.to_move(play.states[i]) == CHANCE]
    assert chance_nodes or all(game.to_move(s) != CHANCE for s in play.states)
    for index in chance_nodes:
        state = play.states[index]
        outcomes = game.chance_outcomes(state)
        if not outcomes:
            continue  # not enumerable (physics): only sampled
        probabilities = [p for _, p in outcomes]
        assert all(isinstance(p, Fraction) and p > 0 for p in probabilities)
        assert sum(probabilities) == 1
        texts = _texts(game, [o for o, _ in outcomes])
        assert len(set(texts)) == len(texts), "outcomes are distinct"
        legal = set(_texts(game, game.legal_actions(state)))
        assert set(texts) <= legal
        drawn = game.sample_chance(state, random.Random(seed * 1000 + index))
        assert game.format_action(drawn) in set(texts)
        assert game.format_action(play.actions[index]) in set(texts)


@case
@seeds
def test_illegal_actions_raise_and_change_nothing(name: str, options: str, seed: int) -> None:
    play = playthrough(name, options, seed)
    game = play.game
    pool: dict[str, Any] = {}
    for index in play.sample():
        for action in game.legal_actions(play.states[index]):
            pool.setdefault(game.format_action(action), action)
    rng = random.Random(seed)
    for index in play.sample():
        state = play.states[index]
        before = game.state_to_json(state)
        legal = set(_texts(game, game.legal_actions(state)))
        others = sorted(text for text in pool if text not in legal)
        for text in rng.sample(others, min(6, len(others))):
            with pytest.raises(IllegalAction):
                game.apply(state, pool[text])
        for text in MALFORMED_TEXTS:
            with pytest.raises(IllegalAction):
                game.parse_action(state, text)
        for data in (None, 7, ["x"], {"action": "x"}):
            with pytest.raises(IllegalAction):
                game.action_from_json(state, data)
        assert game.state_to_json(state) == before
        assert game.state_from_json(before) == state


def test_illegal_action_is_a_value_error() -> None:
    assert issubclass(IllegalAction, ValueError)


# --- what crosses a boundary -------------------------------------------------------------
@case
@seeds
def test_states_round_trip_through_json(name: str, options: str, seed: int) -> None:
    play = playthrough(name, options, seed)
    game = play.game
    for index in play.sample():
        state = play.states[index]
        data = _json_copy(game.state_to_json(state))
        assert data == game.state_to_json(state)
        again = game.state_from_json(data)
        assert again == state
        assert game.to_move(again) == game.to_move(state)
        assert game.legal_actions(again) == game.legal_actions(state)


@case
@seeds
def test_actions_round_trip_through_text(name: str, options: str, seed: int) -> None:
    play = playthrough(name, options, seed)
    game = play.game
    for state, action in zip(play.states[:-1], play.actions, strict=True):
        text = game.format_action(action)
        assert game.parse_action(state, text) == action
        data = _json_copy(game.action_to_json(action))
        assert game.action_from_json(state, data) == action
    for index in play.sample():
        state = play.states[index]
        legal = game.legal_actions(state)
        for action in legal[:: max(1, len(legal) // 12)]:
            assert game.parse_action(state, game.format_action(action)) == action


@case
@seeds
def test_views_are_json_and_only_the_mover_gets_actions(name: str, options: str, seed: int) -> None:
    play = playthrough(name, options, seed)
    game = play.game
    for index in play.sample():
        state = play.states[index]
        mover = game.to_move(state)
        legal = _texts(game, game.legal_actions(state))
        for seat in [None, *range(game.num_players)]:
            view = game.view(state, seat)
            json.dumps(view, allow_nan=False)  # raises unless the view is plain JSON
            expected = legal if seat is not None and seat == mover else []
            assert view["legal_actions"] == expected


@case
@seeds
def test_records_round_trip_and_replay(name: str, options: str, seed: int) -> None:
    play = playthrough(name, options, seed)
    game = play.game
    record = GameRecord.start(game, seed=seed, players=tuple(f"p{s}" for s in range(3)))
    for action in play.actions:
        record = record.with_action(game, action)
    assert record.actions == tuple(_texts(game, play.actions))
    assert record.rules_version == game.rules_version
    data = _json_copy(record.to_json())
    assert GameRecord.from_json(data) == record
    assert replay(GameRecord.from_json(data)) == play.states[-1]
    assert replay_states(record) == play.states


@case
@seeds
def test_scores_and_winners_at_the_end(name: str, options: str, seed: int) -> None:
    play = playthrough(name, options, seed)
    game = play.game
    end = play.states[-1]
    scores = game.scores(end)
    assert isinstance(scores, tuple)
    assert len(scores) == game.num_players
    assert all(isinstance(s, int) and not isinstance(s, bool) for s in scores)
    winners = game.winners(end)
    assert isinstance(winners, tuple)
    assert winners
    assert list(winners) == sorted(set(winners))
    assert all(0 <= w < game.num_players for w in winners)
    assert _json_copy(list(scores)) == list(scores)


# --- generated action sequences ----------------------------------------------------------
@case
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(choices=st.lists(st.integers(min_value=0, max_value=2**20), max_size=150))
def test_any_legal_sequence_keeps_the_promises(name: str, options: str, choices: list[int]) -> None:
    game = make_game(name, json.loads(options))
    state, texts = game.new_state(), []
    for choice in choices[: SEQUENCE_LIMIT.get(name, len(choices))]:
        if game.is_over(state):
            break
        legal = game.legal_actions(state)
        if game.to_move(state) == CHANCE and (choice % 2 or not legal):
            action = game.sample_chance(state, random.Random(choice))
        else:
            action = legal[choice % len(legal)]
        assert action in legal or _unlisted_chance(game, state)
        before = game.state_to_json(state)
        after = game.apply(state, action)
        assert game.state_to_json(state) == before, "apply must not change its input"
        assert game.state_from_json(_json_copy(game.state_to_json(after))) == after
        texts.append(game.format_action(action))
        state = after
    record = GameRecord(game.name, game.options_json(), game.rules_version, tuple(texts))
    assert replay(record) == state
