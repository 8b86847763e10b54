"""PettingZoo and Gymnasium environments pass their libraries' own checks."""

from __future__ import annotations

import hashlib
import random
import sys
import time
from functools import partial
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, performance_benchmark, render_test, seed_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from spieltisch.adapters.gymnasium import SingleSeatEnv
from spieltisch.adapters.pettingzoo import SpieltischAEC, env
from spieltisch.core import IllegalAction

pytestmark = pytest.mark.filterwarnings(
    "ignore::UserWarning"
)  # the checkers' advice on Dict spaces

# Riff Raff runs the physics on every placement: fewer cycles keep the test quick.
CASES = [
    ("pickomino", {"players": 3}, 150),
    ("pickomino", {"players": 2, "short_game": True, "start_seat": "random"}, 150),
    ("karolinchen", {"players": 3, "auto_take": False}, 150),
    ("karolinchen", {"players": 2, "tail_fruits": "random", "start_seat": 1}, 150),
    ("riffraff", {"players": 2}, 12),
]


@pytest.mark.parametrize(("name", "options", "cycles"), CASES)
def test_pettingzoo_passes_its_api_seed_and_render_tests(
    name: str, options: dict[str, Any], cycles: int
) -> None:
    make = partial(env, name, options)
    api_test(make(render_mode="ansi"), num_cycles=cycles)
    seed_test(partial(make, render_mode="ansi"), num_cycles=cycles)
    render_test(make)


class FiveTimesFasterClock:
    """`performance_benchmark` plays for 5 s of `time.time()`; with this clock, for 1 s."""

    @staticmethod
    def time() -> float:
        return time.time() * 5


@pytest.mark.parametrize(("name", "options", "cycles"), CASES[::2])
def test_pettingzoo_performance_benchmark_runs(
    name: str, options: dict[str, Any], cycles: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.modules[performance_benchmark.__module__], "time", FiveTimesFasterClock)
    performance_benchmark(env(name, options))


def test_pettingzoo_env_is_order_enforced() -> None:
    aec = env("pickomino")
    assert isinstance(aec, OrderEnforcingWrapper)
    assert isinstance(aec.unwrapped, SpieltischAEC)
    with pytest.raises(AssertionError, match="reset"):
        aec.step(0)
    for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(aec, name)
    aec.reset(seed=1)
    assert aec.agents == aec.unwrapped.agents and aec.agent_selection == "player_0"


def test_pettingzoo_human_render_mode_prints_the_picture(
    capsys: pytest.CaptureFixture[str],
) -> None:
    aec = env("karolinchen", render_mode="human")
    aec.reset(seed=1)
    assert "Middle" in capsys.readouterr().out
    assert aec.render() is None
    assert "Middle" in capsys.readouterr().out


def test_pettingzoo_game_runs_to_the_end_with_shared_rewards() -> None:
    aec = env("pickomino", {"players": 2}, render_mode="ansi")
    aec.reset(seed=11)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, _ = aec.last()
        totals[agent] += reward
        legal = observation["action_mask"].nonzero()[0]
        aec.step(None if termination or truncation else int(legal[-1]))
    assert sum(totals.values()) == pytest.approx(1.0)
    assert "Grill" in aec.render()


def test_pettingzoo_refuses_an_illegal_action() -> None:
    aec = env("karolinchen")
    aec.reset(seed=1)
    mask = aec.observe(aec.agent_selection)["action_mask"]
    illegal = int((mask == 0).nonzero()[0][0])
    with pytest.raises(IllegalAction, match="not legal now"):
        aec.step(illegal)


def seeded_play_digest(name: str, options: dict[str, Any], seeds: range) -> str:
    """A digest of everything the AEC loop shows over seeded random games: each step's agent,
    every agent's observation and mask, rewards, terminations and truncations."""
    aec = env(name, options)
    digest = hashlib.sha256()
    for seed in seeds:
        choose = random.Random(seed)
        aec.reset(seed=seed)
        for agent in aec.agent_iter():
            observation, reward, termination, truncation, _ = aec.last()
            digest.update(f"{agent} {reward} {termination} {truncation}".encode())
            for other in aec.agents:
                for part in aec.observe(other).values():  # the vector, then the mask
                    digest.update(part.dtype.str.encode() + part.tobytes())
            legal = observation["action_mask"].nonzero()[0]
            aec.step(None if termination or truncation else int(choose.choice(legal)))
    return digest.hexdigest()


@pytest.mark.parametrize(
    ("name", "options", "expected"),
    [
        (
            "pickomino",
            {"players": 2},
            "6fcc327d8d4786f5576e205636df0aa9e24ae477d3d6cb7fc47726b5507068c9",
        ),
        (
            "pickomino",
            {"players": 4, "start_seat": "random", "short_game": True},
            "96306b0782e8d353b2e0a15de2bf1c42a94ed6a5be910bff379c8024b51cf76b",
        ),
        (
            "karolinchen",
            {"players": 3},
            "39f37b33a425467294350d4c6aa07060e10553da4e756b1f589e54fb95f3220d",
        ),
    ],
)
def test_pettingzoo_seeded_games_show_the_same_observations(
    name: str, options: dict[str, Any], expected: str
) -> None:
    """Pins what seeded games show, so that a speed-up provably changes nothing."""
    assert seeded_play_digest(name, options, range(20)) == expected


@pytest.mark.parametrize(
    ("name", "options", "opponent"),
    [
        ("pickomino", {"players": 3}, "greedy"),
        ("karolinchen", {"players": 2}, "greedy"),
        ("riffraff", {"players": 2}, "random"),
    ],
)
def test_gymnasium_single_seat_passes_check_env(
    name: str, options: dict[str, Any], opponent: str
) -> None:
    check_env(SingleSeatEnv(name, opponent, seat=1, options=options, render_mode="ansi"))


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("pickomino", {"players": 2, "short_game": True, "start_seat": "random"}),
        ("karolinchen", {"players": 3, "tail_fruits": "random", "auto_take": False}),
    ],
)
def test_gymnasium_check_env_with_other_options(name: str, options: dict[str, Any]) -> None:
    check_env(SingleSeatEnv(name, "random", seat=0, options=options))


def test_gymnasium_episode_is_reproducible_and_illegal_actions_end_it() -> None:
    def episode(seed: int) -> list[float]:
        gym_env = SingleSeatEnv("pickomino", ["greedy", "random"], seat=0, options={"players": 3})
        _, info = gym_env.reset(seed=seed)
        rewards, done = [], False
        while not done:
            action = int(info["action_mask"].nonzero()[0][-1])
            _, reward, done, _, info = gym_env.step(action)
            rewards.append(reward)
        return rewards

    assert episode(4) == episode(4)
    gym_env = SingleSeatEnv("karolinchen", "random")
    _, info = gym_env.reset(seed=0)
    illegal = int((info["action_mask"] == 0).nonzero()[0][0])
    _, reward, terminated, _, info = gym_env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)


def test_gymnasium_explains_a_wrong_number_of_opponents() -> None:
    with pytest.raises(ValueError, match="needs 1 or 2 opponent bots, not 3"):
        SingleSeatEnv("pickomino", ["random"] * 3, options={"players": 3})


def test_gymnasium_make_builds_every_registered_game() -> None:
    import gymnasium

    from spieltisch.adapters.gymnasium import env_id
    from spieltisch.core import game_names

    for name in game_names():
        made = gymnasium.make(env_id(name), opponents="random", render_mode="ansi")
        observation, info = made.reset(seed=2)
        assert made.observation_space.contains(observation)
        assert info["action_mask"].any()
        made.close()


def test_gymnasium_reset_deals_again_when_the_game_ends_before_the_agent_moves() -> None:
    # With seed 1161 the random bot wins Karolinchen before seat 0 ever chooses a card.
    gym_env = SingleSeatEnv("karolinchen", opponents="random")
    observation, info = gym_env.reset(seed=1161)
    assert info["action_mask"].any() and info["redrawn_games"] == 1
    again, info_again = gym_env.reset(seed=1161)
    assert (again == observation).all() and info_again["redrawn_games"] == 1
    _, info = gym_env.reset(seed=1162)
    assert info["redrawn_games"] == 0
