"""Accounts' pure rules: which user names exist, when two are one, and password hashing."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spieltisch.server.accounts.names import UserNameError, name_key, read_user_name
from spieltisch.server.accounts.passwords import (
    PasswordError,
    check_new_password,
    hash_password,
    verify_nobody,
    verify_password,
)


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("Ben", "Ben"),
        ("  ana_b  ", "ana_b"),
        ("\uff22\uff45\uff4e", "Ben"),  # full-width letters are the plain ones
        ("José.M", "José.M"),
        ("Ольга", "Ольга"),
        ("さくら子", "さくら子"),  # Japanese mixes kana and Han
        ("b3n-2", "b3n-2"),
    ],
)
def test_names_that_are_accepted(typed: str, name: str) -> None:
    assert read_user_name(typed) == name


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("Bo", "3 to 20"),
        ("x" * 21, "3 to 20"),
        ("_ben", "starts and ends"),
        ("ben.", "starts and ends"),
        ("be__n", "side by side"),
        ("ben b", "cannot contain ' '"),
        ("ben@home", "cannot contain '@'"),
        ("b\u200ben", "cannot contain"),  # a zero-width space
        ("p\u0430ypal", "one script"),  # a Cyrillic a among Latin letters
    ],
)
def test_names_that_are_refused_say_why(typed: str, words: str) -> None:
    with pytest.raises(UserNameError, match=words):
        read_user_name(typed)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ben", "bEN"),
        ("Bill", "B1ll"),
        ("Bill", "BIll"),
        ("ozzy", "0zzy"),
        ("modern", "rnodern"),
        ("wave", "vvave"),
        ("ana-b", "ana_b"),
        ("José", "Jose"),
        ("pape", "\u0440\u0430\u0440\u0435"),  # the same word in Cyrillic letters
        ("Ἀλέξης", "αλεξης"),  # Greek with and without its accents and capital
    ],
)
def test_look_alike_names_have_one_key(one: str, other: str) -> None:
    assert name_key(read_user_name(one)) == name_key(read_user_name(other))


@pytest.mark.parametrize(("one", "other"), [("Ben", "Ken"), ("anna", "anne"), ("bo1", "bo2")])
def test_different_names_have_different_keys(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


@given(st.text(max_size=30))
def test_any_text_is_a_name_or_a_sentence(text: str) -> None:
    try:
        name = read_user_name(text)
    except UserNameError as error:
        assert str(error).endswith(".")
    else:
        assert read_user_name(name) == name  # reading is idempotent
        assert name_key(name) == name_key(name.upper().lower())


def test_a_password_hash_is_argon2id_salted_and_checks_only_its_password() -> None:
    stored = hash_password("correct horse battery")
    assert stored.startswith("$argon2id$")
    assert "correct horse" not in stored
    assert hash_password("correct horse battery") != stored  # a fresh salt each time
    assert verify_password(stored, "correct horse battery").right
    assert not verify_password(stored, "correct horse batterY").right
    assert not verify_password("not a hash", "correct horse battery").right


def test_a_hash_of_weaker_parameters_asks_to_be_made_anew() -> None:
    from argon2 import PasswordHasher

    weak = PasswordHasher(time_cost=1, memory_cost=8 * 1024, parallelism=1).hash("pass word")
    verdict = verify_password(weak, "pass word")
    assert verdict.right and verdict.rehash
    assert not verify_password(hash_password("pass word"), "pass word").rehash


def test_an_unknown_name_costs_the_work_of_a_known_one() -> None:
    stored = hash_password("a pass phrase")
    verify_nobody("warm up")  # its hash is made once, on first use

    def cpu(check: object) -> float:
        started = time.process_time()
        for _ in range(5):
            check()  # type: ignore[operator]
        return time.process_time() - started

    known = cpu(lambda: verify_password(stored, "a wrong guess"))
    unknown = cpu(lambda: verify_nobody("a wrong guess"))
    assert not verify_nobody("a pass phrase").right
    # the same Argon2id work: the two differ by far less than one hash (a loose bound)
    assert 0.5 < unknown / known < 2.0


@pytest.mark.parametrize(
    ("password", "words"),
    [("short", "at least 8"), ("x" * 257, "at most 256"), ("Benjamin", "not be the user name")],
)
def test_new_passwords_that_are_refused(password: str, words: str) -> None:
    with pytest.raises(PasswordError, match=words):
        check_new_password(password, "benjamin")
    check_new_password("a long pass phrase", "benjamin")
