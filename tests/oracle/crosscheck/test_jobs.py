"""``smt crosscheck --jobs N``: the scenarios and rule sets cross-checked in worker processes give the very
runs of one process (each run is its own exploration and its own comparisons), in the same order; only the
seconds differ. A disagreement's two answers cross to the parent as the text the report shows."""

from __future__ import annotations

import json
import pickle
from dataclasses import replace
from typing import Any

import pytest
import z3

from cardrules.oracle.crosscheck.disagreement import CrosscheckReport, Disagreement
from cardrules.oracle.crosscheck.run import CrosscheckResult, Run, crosscheck_scenarios, portable, recorded_states, run_json
from cardrules.oracle.errors import InputError
from cardrules.properties.scenarios import RuleSetSpec, load_scenarios

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


def test_the_recorded_states_estimate_each_scenario_and_rule_set() -> None:
    """The estimate that orders the jobs (largest first): the states the recorded runs compared, summed over a
    scenario and rule set's comparisons."""
    sizes = recorded_states()
    # the whole explorations recorded: the identical forwards (about 24,000 states) outweigh a small position
    assert sizes["fftcg-identical-forwards / default"] > 10 * sizes["fftcg-preemptive-blocker-survives / default"]
    # plain battle's rule decisions and its battle fragment: both comparisons of its 334 states count
    assert sizes["redemption-plain-battle / default"] == 2 * 334


def test_a_disagreement_crosses_to_the_parent_as_the_text_the_report_shows() -> None:
    term = z3.Int("power") + 1000
    report = CrosscheckReport(states=1, actions=1, disagreements=[
        Disagreement("successor", {"turn": 1}, "attack a1", term, "no successor", ("FF-BASE-ATTACK-STEPS",))])
    shown = str(report.disagreements[0])
    carried = pickle.loads(pickle.dumps(portable(CrosscheckResult(runs=[Run("s / r", "what", report)]))))
    [again] = carried.runs[0].report.disagreements
    assert (again.smt, again.model, str(again)) == ("power + 1000", "no successor", shown)


def test_a_rule_set_the_model_refuses_is_bad_input_before_any_worker_starts() -> None:
    [scenario] = [s for s in load_scenarios() if s.name == "redemption-stated-numbers"]
    bad = replace(scenario, rule_sets=(RuleSetSpec("nonsense", {}, {"no-such-decision": "x"}),))
    with pytest.raises(InputError, match="no-such-decision"):
        crosscheck_scenarios([bad], {}, 10, jobs=2)
