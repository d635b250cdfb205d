"""``smt crosscheck --jobs N``: the scenarios and rule sets cross-checked in worker processes give the very
runs of one process (each run is its own exploration and its own comparisons), in the same order; only the
seconds differ. A disagreement's two answers cross to the parent as the text the report shows."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardrules.oracle.crosscheck.run import crosscheck_scenarios, recorded_states, run_json
from cardrules.properties.scenarios import load_scenarios

from tests.cli import run

pytestmark = pytest.mark.infrastructure("the cross-check's worker processes give the same runs")

SMALL = ("fftcg-preemptive-blocker-survives", "redemption-stated-numbers", "redemption-plain-battle")
"""One FFTCG scenario with three rule sets, two small Redemption ones (rule decisions, the battle fragment)."""


def _bare(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if k != "seconds"}


def test_worker_processes_give_the_runs_of_one_process_in_its_order() -> None:
    scenarios = [s for s in load_scenarios() if s.name in SMALL]
    one = crosscheck_scenarios(scenarios, {}, 80, jobs=1)
    two = crosscheck_scenarios(scenarios, {}, 80, jobs=2)
    assert [_bare(run_json(r)) for r in two.runs] == [_bare(run_json(r)) for r in one.runs]
    assert (two.unknown, two.failures) == (one.unknown, one.failures) == ([], [])
    # three FFTCG rule sets, three of stated numbers, and plain battle's three twice (decisions, fragment)
    assert len(one.runs) == 12
    assert [r.label.split(" / ")[0] for r in one.runs] == [s.name for s in scenarios for r in s.rule_sets
                                                           for _ in range(2 if s.name.endswith("plain-battle") else 1)]


def test_the_command_line_gives_the_same_json_whatever_the_jobs() -> None:
    printed = []
    for jobs in ("1", "2"):
        code, out = run("smt", "crosscheck", "--game", "redemption", "--scenario", "redemption-stated-numbers",
                        "--scenario", "redemption-plain-battle", "--states", "60", "--jobs", jobs, "--quiet", "--json")
        assert code == 0
        printed.append([_bare(entry) for entry in json.loads(out)])
    assert printed[0] == printed[1]


def test_the_recorded_states_order_the_largest_first() -> None:
    sizes = recorded_states()
    # the whole explorations recorded: the identical forwards (about 24,000 states) outweigh a small position
    assert sizes["fftcg-identical-forwards / default"] > 10 * sizes["fftcg-preemptive-blocker-survives / default"]
