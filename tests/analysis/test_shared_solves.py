"""Solved turns shared among the processes of a simulation: the log in shared memory and the
solver's side of it."""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence

import pytest

from spieltisch.analysis.shared_records import SharedRecords
from spieltisch.games.pickomino import solver
from spieltisch.games.pickomino.solver import (
    SOLVED_RECORD,
    TurnTable,
    cached_outcome,
    share_solved_turns,
)


def test_records_come_back_once_in_the_order_appended() -> None:
    log = SharedRecords(2, 3)
    log.append([1.0, 2.0])
    log.append([3.0, 4.5])
    assert log.take_new() == [[1.0, 2.0], [3.0, 4.5]]
    assert log.take_new() == []
    log.append([5.0, 6.0])
    log.append([7.0, 8.0])  # beyond the capacity: dropped
    assert log.take_new() == [[5.0, 6.0]]


def test_a_record_must_have_the_width() -> None:
    with pytest.raises(ValueError, match="2 numbers"):
        SharedRecords(2, 1).append([1.0])


def _append_in_child(log: SharedRecords) -> None:
    log.append([9.0, 10.0])


def test_another_process_sees_what_one_appends() -> None:
    log = SharedRecords(2, 4)
    child = multiprocessing.Process(target=_append_in_child, args=(log,))
    child.start()
    child.join()
    assert child.exitcode == 0
    assert log.take_new() == [[9.0, 10.0]]


class ListExchange:
    """An exchange within one process: what `take_new` hands out is set by the test."""

    def __init__(self, new: list[list[float]] | None = None) -> None:
        self.appended: list[list[float]] = []
        self.new = new or []

    def append(self, record: Sequence[float]) -> None:
        self.appended.append(list(record))

    def take_new(self) -> list[list[float]]:
        new, self.new = self.new, []
        return new


def test_a_turn_solved_elsewhere_is_taken_over_unchanged() -> None:
    # a steal weight of their own: solved in no other test
    tables = [
        TurnTable((22, 25, 27, 31, 34), 24, (29,), 0.37),
        TurnTable((21, 23, 36), None, (30,), 0.37),
    ]
    elsewhere = ListExchange()
    try:
        share_solved_turns(elsewhere)
        solved = [cached_outcome(table) for table in tables]
        assert len(elsewhere.appended) == len(tables)
        assert all(len(record) == SOLVED_RECORD for record in elsewhere.appended)
        solver._optimal_stops.kept.clear()  # as in a process that solved none of them
        here = ListExchange(elsewhere.appended)
        share_solved_turns(here)
        for table, before in zip(tables, solved, strict=True):
            taken = solver._outcome_normalised.__wrapped__(table)  # past the outcome cache
            assert (taken.expected, taken.p_fail, taken.p_tile) == (
                before.expected,
                before.p_fail,
                before.p_tile,
            )
        assert here.appended == []  # nothing solved again
    finally:
        share_solved_turns(None)
