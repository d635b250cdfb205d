"""Whole start positions spread over worker processes: the results of the sequential run, in order.

``cardrules explore --scope S --workers N`` gives each worker whole positions and folds the outcomes in
the positions' order (:mod:`cardrules.properties.engines.by_position`). The Ray form is tested on a
two-node cluster in ``test_ray_cluster.py``.

This checks the search's exactness, not a rule clause, so it carries no clause marker.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from cardrules.oracle.verify.scopes import explore_scope, positions_of, scopes_named
from cardrules.properties.engines.by_position import map_in_order, peak_per_worker
from cardrules.properties.scenarios import RuleSetSpec

pytestmark = pytest.mark.infrastructure("spreading positions over workers keeps the sequential results")


def slow_square(n: int) -> int:
    """Later items finish first (an earlier item sleeps longer), so order is not luck."""
    import time

    time.sleep(0.02 * (6 - n))
    return n * n


def test_results_come_back_in_the_items_order_from_other_processes() -> None:
    found = list(map_in_order(slow_square, [1, 2, 3, 4, 5], workers=2))
    assert [result for result, _ in found] == [1, 4, 9, 16, 25]
    pids = {use.pid for _, use in found}
    assert os.getpid() not in pids and 1 <= len(pids) <= 2
    table = peak_per_worker([use for _, use in found])
    assert sum(tasks for _, tasks, _ in table) == 5
    assert all(peak > 0 for _, _, peak in table)


def test_one_worker_runs_here() -> None:
    found = list(map_in_order(slow_square, [3, 2], workers=1))
    assert [result for result, _ in found] == [9, 4]
    assert {use.pid for _, use in found} == {os.getpid()}


def _comparable(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("seconds", "workers")}


def test_a_scope_on_two_workers_is_the_sequential_exploration() -> None:
    (scope,) = scopes_named(["fftcg-small"])
    positions = positions_of(scope)[:16]
    rule_set = RuleSetSpec("default")
    sequential = explore_scope(scope, rule_set, positions)
    spread = explore_scope(scope, rule_set, positions, workers=2)
    assert _comparable(spread.to_json()) == _comparable(sequential.to_json())
    assert spread.positions == 16 and spread.states == sequential.states > 16
    assert sum(tasks for _, tasks, _ in spread.workers) == 16
    assert sequential.workers == []
