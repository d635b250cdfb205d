"""A worker process that dies (killed, out of memory) is said as such, never a traceback or a silent gap:
``run_jobs`` raises :class:`~cardrules.oracle.jobs.WorkerLost`, and the command line prints it as one line."""

from __future__ import annotations

import os

import pytest

from cardrules.oracle.jobs import WorkerLost, run_jobs

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
