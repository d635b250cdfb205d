"""A worker process that dies (killed, out of memory) is said as such, never a traceback or a silent gap:
``run_jobs`` and :class:`~cardrules.oracle.jobs.PinnedWorkers` raise :class:`~cardrules.oracle.jobs.WorkerLost`,
and the command line prints it as one line."""

from __future__ import annotations

import os
import time

import pytest

from cardrules.oracle.jobs import PinnedWorkers, WorkerLost, run_jobs

pytestmark = pytest.mark.infrastructure("worker processes that die are reported")


def _dies_on_three(n: int) -> int:
    if n == 3:
        os._exit(9)  # as a process killed mid-job ends: no exception, no result
    return n * n


def test_a_worker_that_dies_is_a_worker_lost_error() -> None:
    with pytest.raises(WorkerLost, match="ended abruptly while running job"):
        run_jobs([1, 2, 3, 4], _dies_on_three, 2)


def test_jobs_that_end_give_their_results_in_order() -> None:
    assert run_jobs([1, 2, 4, 5], _dies_on_three, 2) == [1, 4, 16, 25]


def _square_or_fail(n: int) -> int:
    if n < 0:
        raise ValueError(f"no square for {n}")
    return n * n


def _never_ends() -> None:
    while True:
        time.sleep(1)


def test_pinned_workers_run_what_each_is_given_and_keep_it_apart() -> None:
    with PinnedWorkers(2, "squaring") as workers:
        workers.give(0, _square_or_fail, 3)
        workers.give(1, _square_or_fail, 4)
        with pytest.raises(RuntimeError, match="worker 1 is still running a job"):
            workers.give(1, _square_or_fail, 5)
        finished: dict[int, int] = {}
        while workers.busy:
            finished.update(workers.done())
    assert finished == {0: 9, 1: 16}


def test_a_pinned_worker_that_dies_is_a_worker_lost_error() -> None:
    with pytest.raises(WorkerLost, match="ended abruptly while squaring"):
        with PinnedWorkers(1, "squaring") as workers:
            workers.give(0, _dies_on_three, 3)
            workers.done()


def test_a_pinned_workers_error_is_raised_without_waiting_for_the_other_worker() -> None:
    """The job's own exception, raised here; the other worker, in a job that never ends, is stopped (the
    ``with`` block is left, or this test would never end)."""
    with pytest.raises(ValueError, match="no square for -2"):
        with PinnedWorkers(2, "squaring") as workers:
            workers.give(0, _never_ends)
            workers.give(1, _square_or_fail, -2)
            while workers.busy:
                workers.done()


class _TwoArguments(Exception):
    def __init__(self, first: str, second: str) -> None:
        super().__init__(f"{first} and {second}")


def _raises_two_arguments() -> None:
    raise _TwoArguments("this", "that")


def test_a_pinned_workers_error_carries_the_workers_traceback_or_is_said_plainly() -> None:
    """An exception is raised here with where it happened in the worker (a note); one that cannot be made again
    from what pickles arrives as a RuntimeError naming it, never as an error about unpickling."""
    with pytest.raises(ValueError, match="no square for -1") as raised:
        with PinnedWorkers(1, "squaring") as workers:
            workers.give(0, _square_or_fail, -1)
            workers.done()
    assert any("_square_or_fail" in note for note in raised.value.__notes__)
    with pytest.raises(RuntimeError, match="_TwoArguments: this and that"):
        with PinnedWorkers(1, "raising") as workers:
            workers.give(0, _raises_two_arguments)
            workers.done()


def test_a_pinned_worker_that_died_idle_is_a_worker_lost_error_when_given_a_job() -> None:
    with pytest.raises(WorkerLost, match="ended abruptly while squaring"):
        with PinnedWorkers(1, "squaring") as workers:
            workers._processes[0].kill()
            workers._processes[0].join()
            workers.give(0, _square_or_fail, 2)
            workers.done()
