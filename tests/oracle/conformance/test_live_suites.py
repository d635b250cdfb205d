"""The live oracle: suites computed from the reference model under the declared readings, run as files are."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from cardrules.oracle.conformance.adapter import ReferenceAdapter
from cardrules.oracle.conformance.declaration import LEGACY, parse_hello
from cardrules.oracle.conformance.generate import generate_suite
from cardrules.oracle.conformance.live import LiveError, live_plans, live_suites, live_twin, suite_differences
from cardrules.oracle.conformance.output import write_suites
import cardrules.model.fftcg.config as fftcg_config
from cardrules.oracle.conformance.plan import SuitePlan, default_plans
from cardrules.oracle.conformance.runner import run_adapter
from cardrules.oracle.conformance.schema import load_suite
from cardrules.specs.catalogue import default_catalogue
from .conftest import ADAPTERS, REFERENCE


def declaring(readings: dict[str, str], implements: dict[str, str] | None = None) -> list[str]:
    """An adapter declaring every feature and ``readings``, loading rule sets with ``implements``."""
    games = ReferenceAdapter().hello()["games"]
    for entry in games.values():
        entry["readings"] = {}
    decisions = default_catalogue().decisions
    for decision, option in readings.items():
        games[decisions[decision][0].game]["readings"][decision] = option
    spec: dict[str, Any] = {"games": games}
    if implements is not None:
        spec["implements"] = implements
    return [sys.executable, str(ADAPTERS / "protocol_declaring.py"), json.dumps(spec)]


def verdicts(argv: list[str], suites: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(r.suite, r.vector, r.verdict) for r in run_adapter(argv, suites, 10.0).results]


def file_suite(plan: SuitePlan, tmp: Path, generated: Any = None) -> dict[str, Any]:
    """The plan's suite as ``conformance generate`` writes it (``generated``, or generated here), read back."""
    write_suites(tmp, [generated if generated is not None else generate_suite(plan, seed=0)], 0)
    return load_suite(tmp / f"{plan.id}.json")


@pytest.mark.infrastructure("the live oracle gives the generated suite file's vectors and verdicts")
def test_live_agrees_with_the_file_of_the_fftcg_default_suite(tmp_path: Path) -> None:
    live = live_suites(LEGACY, ["fftcg"], 0)
    assert [s["suite"] for s in live] == ["fftcg-default"]
    plan = live_plans(LEGACY, ["fftcg"])[0]
    from_file = file_suite(plan, tmp_path / "suites")
    assert [v["id"] for v in live[0]["vectors"]] == [v["id"] for v in from_file["vectors"]]
    through_live = verdicts(REFERENCE, live)
    assert through_live == verdicts(REFERENCE, [from_file])
    assert {v for _, _, v in through_live} == {"pass"}


def sampled_plans() -> list[SuitePlan]:
    """The version suites of both games and the first option suite of each game: every default plan
    (58 today, each generated twice or more here) would take the better part of an hour on two cores."""
    plans = default_plans()
    versions = [p for p in plans if not p.decisions]
    options = [p for game in ("fftcg", "redemption") for p in [q for q in plans if q.decisions and q.game == game][:1]]
    return versions + options


@pytest.mark.slow
@pytest.mark.infrastructure("the live oracle gives the generated suite files' vectors and verdicts")
def test_live_agrees_with_the_files_of_the_version_suites_and_a_sample_of_option_suites(tmp_path: Path) -> None:
    # every plan of a file has a live twin of the same id (test_every_generated_suite_has_a_live_twin_...);
    # benchmarks/live_vs_files.py compares every plan, this test a sample
    compared = 0
    for number, plan in enumerate(sampled_plans()):
        argv = declaring(dict(plan.decisions)) if plan.decisions else REFERENCE
        declaration = parse_hello(ReferenceAdapter().hello() | {"games": json.loads(argv[-1])["games"]}) \
            if plan.decisions else LEGACY
        live = [s for s in live_suites(declaration, [plan.game], 0) if s["suite"] == plan.id]
        result = generate_suite(plan, seed=0)
        if result.suite is None or not live:  # generate writes no file, or no live plan has this id
            continue
        compared += 1
        from_file = file_suite(plan, tmp_path / f"suites-{number}", result)
        assert [v["id"] for v in live[0]["vectors"]] == [v["id"] for v in from_file["vectors"]], plan.id
        assert verdicts(argv, live) == verdicts(argv, [from_file]), plan.id
    assert compared >= 3  # at least the three version suites


@pytest.mark.slow
@pytest.mark.clause("FF-BASE-ATTACK-STEPS")
def test_a_declared_reading_gets_expectations_under_that_reading() -> None:
    # Under not-in-declaration no player may remove a Forward while the attack is being declared, so the
    # legal actions there differ from the default reading's: an engine declaring and implementing the
    # option passes every live vector; one declaring it but playing the default does not.
    reading = {"ff-removal-windows": "not-in-declaration"}
    declared = declaring(reading, implements=reading)
    declaration = parse_hello(ReferenceAdapter().hello() | {"games": json.loads(declared[-1])["games"]})
    live = live_suites(declaration, ["fftcg"], 0)
    assert [s["rule_set"]["decisions"] for s in live] == [reading]
    assert {v for _, _, v in verdicts(declared, live)} == {"pass"}
    default_play = declaring(reading, implements={"ff-removal-windows": "outside-damage"})
    assert {v for _, _, v in verdicts(default_play, live)} - {"pass"}


@pytest.mark.clause("FF-BASE-ATTACK-STEPS")
def test_an_option_the_model_cannot_select_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    # every FFTCG reading is selectable today: pretend this one is recorded only
    monkeypatch.setattr(fftcg_config, "UNMODELLED_OPTIONS", frozenset({("ff-step-passing", "alternating-priority")}))
    declaration = parse_hello(ReferenceAdapter().hello() | {"games": {"fftcg": {
        "features": [], "readings": {"ff-step-passing": "alternating-priority"}}}})
    with pytest.raises(LiveError, match="ff-step-passing.*alternating-priority|alternating-priority.*ff-step-passing"):
        live_plans(declaration, ["fftcg"])


@pytest.mark.infrastructure("every suite `conformance generate` writes has a live suite under the same plan")
def test_every_generated_suite_has_a_live_twin_with_its_name_and_rule_set() -> None:
    # The live oracle generates with the same function and seed as `generate` (compared in full by
    # benchmarks/live_vs_files.py); what could drift is the plan it makes for a declaration. For every default
    # plan, an engine declaring that plan's options gets a live suite of exactly that plan: its id, expression
    # and versions too, since a kept play (targeted.KEPT_PLAYS) is named by the expression of its suite.
    plans = default_plans()
    assert len(plans) >= 50
    for plan in plans:
        declaration = parse_hello(ReferenceAdapter().hello() | {"games": json.loads(declaring(dict(plan.decisions))[-1])["games"]})
        live = live_plans(declaration, [plan.game])
        assert plan in live, f"{plan.id}: no live suite of this plan; live plans: {[q.id for q in live]}"
        assert live_twin(plan) == plan


@pytest.mark.clause("RED-BR-STEP4-DISCARD-RETURN")
def test_a_single_version_option_is_planned_live_as_its_file_under_the_default_heal_version_only() -> None:
    # br-discard-which is a Battle Resolution decision (one version): under heal=revised (the default) its file is
    # redemption-br-discard-which-losing-side-only, with no heal version named; under heal=previous no file is
    # generated, and the live plan names the version.
    reading = {"br-discard-which": "losing-side-only"}
    declaration = parse_hello(ReferenceAdapter().hello() | {"games": json.loads(declaring(reading)[-1])["games"]})
    assert [(p.id, dict(p.versions)) for p in live_plans(declaration, ["redemption"])] == [
        ("redemption-br-discard-which-losing-side-only", {}),
        ("redemption-heal-previous+br-discard-which-losing-side-only", {"heal": ("previous",)}),
    ]


def _suite(vectors: list[dict[str, Any]]) -> dict[str, Any]:
    return {"suite": "s", "clauses_in_force": ["A", "B"], "vectors": vectors}


@pytest.mark.infrastructure("the comparison of a live suite with a suite file finds every kind of difference")
def test_suite_differences_name_each_vector_that_differs_and_where() -> None:
    one = {"id": "v1", "steps": [{"action": "pass", "state": {"x": 1}, "legal_actions": ["pass"]}]}
    two = {"id": "v2", "steps": []}
    from_file = _suite([one, two])
    # the in-memory form may hold tuples where the file holds lists: the same JSON, no difference
    assert suite_differences(from_file, _suite([{**one, "steps": ({**one["steps"][0], "legal_actions": ("pass",)},)},
                                                two])) == []
    changed = {**one, "steps": [{**one["steps"][0], "state": {"x": 2}}]}
    assert suite_differences(from_file, _suite([changed, two])) == ["v1: differs at $.steps[0].state.x"]
    assert suite_differences(from_file, _suite([one, {"id": "v3", "steps": []}])) == ["v2: only in the file",
                                                                                       "v3: only live"]
    longer = {**one, "steps": one["steps"] * 2}
    assert suite_differences(from_file, _suite([longer, two])) == ["v1: differs at $.steps (1 items in the file, 2 live)"]
    assert suite_differences(from_file, _suite([two, one])) == ["the same vectors in another order"]
    assert suite_differences(from_file, {**_suite([one, two]), "clauses_in_force": ["A"]}) == ["clauses_in_force differ"]
