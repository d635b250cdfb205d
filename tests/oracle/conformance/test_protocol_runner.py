"""The runner under a hello: vectors needing an undeclared feature are skipped and never sent, an engine
speaking the observable profile passes when it mirrors the model, a planted difference is found at every
step it shows with keep-going, a declared reading is reported apart, and a suite of another reading is
skipped."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from cardrules.oracle.conformance.runner import run_adapter
from cardrules.oracle.conformance.schema import load_suite
from cardrules.specs.catalogue.features import feature_ids

from .conftest import ADAPTERS

DECLARING = ADAPTERS / "protocol_declaring.py"
PREEMPTIVE = {"FF-BASE-PREEMPTIVE", "FF-PARTY-PREEMPTIVE-ALL"}


def declaring(spec: dict[str, Any]) -> list[str]:
    return [sys.executable, str(DECLARING), json.dumps(spec)]


def every_fftcg_feature_but(*lacking: str) -> dict[str, Any]:
    return {"games": {"fftcg": {"features": [f for f in feature_ids("fftcg") if f not in lacking]}}}


def _play_and_refusals(suite: dict[str, Any], count: int) -> dict[str, Any]:
    """The suite with only its first ``count`` play and refusal vectors (the steps the tests look at)."""
    return {**suite, "vectors": [v for v in suite["vectors"] if v["kind"] in ("play", "refusal")][:count]}


def _preemptive_on_table(vector: dict[str, Any]) -> bool:
    """Some Forward in some state of the vector has Pre-emptive Strike: without one, an engine lacking the
    ability plays exactly as the rules say (FF-BASE-PREEMPTIVE gives the ability's holder a part of its own)."""
    states = [vector["state"]] + [step["state"] for step in vector.get("steps", [])]
    return any(f.get("preemptive") is True for s in states for p in s["players"] for f in p["forwards"])


@pytest.mark.clause("FF-BASE-PREEMPTIVE", "FF-PARTY-PREEMPTIVE-ALL")
def test_an_engine_without_preemptive_strike_gets_exactly_the_preemptive_vectors_skipped(fftcg_suite: Path) -> None:
    suite = load_suite(fftcg_suite)
    suite["vectors"] = [v for v in suite["vectors"] if v["kind"] != "perft"]
    run = run_adapter(declaring(every_fftcg_feature_but("preemptive-strike")), [suite], 20)
    skipped = {r.vector for r in run.results if r.verdict == "skipped"}
    assert skipped == {v["id"] for v in suite["vectors"] if PREEMPTIVE & set(v["clauses"]) and _preemptive_on_table(v)}
    assert skipped  # the suite has such vectors
    assert all(r.skipped_for == ("preemptive-strike",) for r in run.results if r.verdict == "skipped")
    assert all(r.verdict == "pass" for r in run.results if r.vector not in skipped)
    assert run.declaration.protocol == 2


@pytest.mark.clause("FF-BASE-UNBLOCKED-DAMAGE", "FF-BASE-BREAK-DAMAGE")
def test_an_engine_speaking_the_observable_profile_passes_the_default_suite_when_it_mirrors_the_model(
        fftcg_suite: Path) -> None:
    suite = load_suite(fftcg_suite)
    run = run_adapter(declaring({"profile": "observable"}), [suite], 30)
    assert run.declaration.profile == "observable"
    assert [r for r in run.results if r.verdict != "pass"] == []
    assert len(run.results) == len(suite["vectors"])


@pytest.mark.clause("FF-BASE-UNBLOCKED-DAMAGE")
def test_a_planted_difference_is_found_at_every_step_it_shows_and_the_rest_is_still_checked(
        fftcg_suite: Path) -> None:
    suite = _play_and_refusals(load_suite(fftcg_suite), 40)
    hit = [v for v in suite["vectors"] if v["kind"] == "play"
           and any(s["state"]["players"][1]["damage"] > 0 for s in v["steps"])]
    assert hit
    suite["vectors"] = hit
    going = run_adapter(declaring({"plant": "p1-damage"}), [suite], 30).results
    stopping = run_adapter(declaring({"plant": "p1-damage"}), [suite], 30, keep_going=False).results
    for vector, kept, stopped in zip(hit, going, stopping):
        # the engine shows one damage too many wherever player 1 has some: every such step differs
        shown = [n for n, s in enumerate(vector["steps"], 1) if s["state"]["players"][1]["damage"] > 0]
        assert [d.step for d in kept.differences] == shown
        assert all(d.where.endswith("state $.players[1].damage") for d in kept.differences)
        assert kept.verdict == "fail" and kept.step == shown[0]
        assert len(stopped.differences) == 1 and stopped.step == shown[0]


@pytest.mark.clause("FF-PARTY-DISBAND-COMBAT-END")
def test_a_declared_reading_is_reported_apart_and_a_suite_of_another_reading_is_skipped(suites_dir: Path) -> None:
    default = _play_and_refusals(load_suite(suites_dir / "fftcg-default.json"), 60)
    option = next(load_suite(p) for p in sorted(suites_dir.glob("fftcg-*.json"))
                  if load_suite(p)["rule_set"]["decisions"] == {"party-disband-timing": "after-damage-resolution"})
    spec = {"games": {"fftcg": {"features": list(feature_ids("fftcg")),
                                "readings": {"party-disband-timing": "after-damage-resolution"}}},
            "implements": {"party-disband-timing": "after-damage-resolution"}}
    run = run_adapter(declaring(spec), [default, option], 30)
    on_default = [r for r in run.results if r.suite == default["suite"]]
    readings = [r for r in on_default if r.verdict == "reading"]
    assert readings and not [r for r in on_default if r.verdict == "fail"]
    assert all(r.reading == ("party-disband-timing=after-damage-resolution",) for r in readings)
    assert all("FF-PARTY-DISBAND-COMBAT-END" in d.blamed for r in readings for d in r.differences)
    # the option suite is the engine's own reading: it passes
    assert {r.verdict for r in run.results if r.suite == option["suite"]} == {"pass"}

    other = {**spec, "games": {"fftcg": {"features": list(feature_ids("fftcg")),
                                         "readings": {"party-disband-timing": "combat-end-step"}}}}
    other.pop("implements")
    skipped = run_adapter(declaring(other), [option], 30).results
    assert {r.verdict for r in skipped} == {"skipped"}
    assert {r.skipped_for for r in skipped} == {("reading party-disband-timing=after-damage-resolution",)}
