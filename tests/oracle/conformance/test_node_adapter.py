"""A conformance adapter in another language: a tiny FFTCG engine in JavaScript for Node.js.

The engine (``adapters/fftcg_node_adapter.js``) plays single attackers under
the default rule set and deliberately has no Pre-emptive Strike. Suites are
generated here from two small positions (``node_subset/``): one inside the
subset, where every vector must pass, and one with a Pre-emptive Strike
attacker of 3000 against a blocker of 5000, where the rules give the attacker's
damage a part of its own before the blocker strikes back (FF-BASE-PREEMPTIVE),
so exactly the vectors that reach that part must fail, at that step, blamed on that clause.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from cardrules.oracle.conformance.generate import generate_suite
from cardrules.oracle.conformance.plan import make_plan
from cardrules.oracle.conformance.report import by_clause
from cardrules.oracle.conformance.runner import run_suites
from cardrules.properties.scenarios import load_scenario

from .conftest import ADAPTERS

NODE = shutil.which("node")
pytestmark = [
    pytest.mark.skipif(NODE is None, reason="Node.js (`node`) is not installed; the JavaScript adapter cannot run"),
    pytest.mark.clause("FF-BASE-PREEMPTIVE", "FF-BASE-BLOCKED-EXCHANGE", "FF-BASE-UNBLOCKED-DAMAGE"),
]
POSITIONS = Path(__file__).parent / "node_subset"


def _suite(scenario_file: str, decisions: dict[str, str] | None = None) -> dict[str, Any]:
    result = generate_suite(make_plan("fftcg", {}, decisions or {}), [load_scenario(POSITIONS / scenario_file)],
                            seed=0, max_states={"fftcg": 2000})
    assert result.suite is not None
    return result.suite


def _run(suite: dict[str, Any]) -> list[Any]:
    assert NODE is not None
    return run_suites([NODE, str(ADAPTERS / "fftcg_node_adapter.js")], [suite], 10)


def test_the_javascript_engine_passes_every_vector_inside_its_subset() -> None:
    suite = _suite("node-subset-single-attackers.json")
    results = _run(suite)
    assert len(results) == len(suite["vectors"]) >= 3
    assert [(r.vector, r.verdict, r.where, r.got) for r in results if r.verdict != "pass"] == []


def test_without_pre_emptive_strike_the_javascript_engine_fails_exactly_where_that_part_comes_blamed_on_its_clause() -> None:
    suite = _suite("node-subset-preemptive.json")
    results = _run(suite)
    preemptive_part = {v["id"] for v in suite["vectors"]
                       if any(step["state"]["step"] == "damage-preemptive" for step in v.get("steps", []))}
    failed = [r for r in results if r.verdict != "pass"]
    assert preemptive_part and {r.vector for r in failed} == preemptive_part
    for r in failed:
        assert (r.verdict, r.where, r.expected, r.got) == ("fail", f"step {r.step} state $.step",
                                                           "damage-preemptive", "damage-resolution")
        assert "FF-BASE-PREEMPTIVE" in r.blamed
    assert by_clause(results)["FF-BASE-PREEMPTIVE"].failed == len(failed)


def test_a_rule_set_the_javascript_engine_does_not_implement_is_unsupported_not_failed() -> None:
    suite = _suite("node-subset-single-attackers.json")
    suite["rule_set"] = {**suite["rule_set"], "decisions": {"party-zero-share": "each-hit-if-possible"}}
    results = _run(suite)
    assert {r.verdict for r in results} == {"unsupported"}
