"""The report opens with what the adapter declared and ends with what the engine lacks: the features it did not
declare with the vectors skipped for each, and its declared readings with the vectors classified ``reading``."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import pytest

from cardrules.oracle.conformance import lacking
from cardrules.oracle.conformance.declaration import LEGACY, Declaration
from cardrules.oracle.conformance.report import print_report, results_json, run_passed
from cardrules.oracle.conformance.runner import VectorResult

from .test_report_groups import SPLIT, record, vector

pytestmark = pytest.mark.infrastructure("the conformance report's declaration and lacks parts")


def declared(**fields: Any) -> Declaration:
    """A protocol 2 declaration: an FFTCG engine with parties only, one reading, one macro step."""
    values: dict[str, Any] = {"engine": "node-fftcg-example", "protocol": 2, "profile": "observable",
                              "features": {"fftcg": frozenset({"party"})},
                              "readings": {"party-blocker-power-remainder": "remainder-to-one"},
                              "macro_steps": frozenset({"fftcg:damage-resolution"}), "compare_at": "decisions"}
    values.update(fields)
    return Declaration(**values)


@dataclass(frozen=True)
class Feature:
    id: str
    title: str


FEATURES = {"fftcg": (Feature("party", "Parties"), Feature("p-icon-party", "Parties of Forwards with the P icon"),
                      Feature("haste", "Haste")),
            "redemption": (Feature("heal", "Heal"),)}


def results() -> list[VectorResult]:
    return [
        VectorResult("fftcg-default", "v-ok", "play", (SPLIT,), "pass", passed_steps=[(SPLIT,)]),
        vector("v-p1", "skipped", skipped_for=("p-icon-party",)),
        vector("v-p2", "skipped", skipped_for=("p-icon-party", "haste")),
        vector("v-floor", "reading", record(2, "split a1 1", "$.players[1].damage", "2", "1", (SPLIT,),
                                            verdict="reading"), reading=("party-blocker-power-remainder=remainder-to-one",)),
    ]


def report_of(declaration: Any, run: list[VectorResult] | None = None) -> str:
    out = io.StringIO()
    print_report(results() if run is None else run, out, declaration=declaration, games=["fftcg"])
    return out.getvalue()


def test_the_declaration_comes_first_and_what_the_engine_lacks_last(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lacking, "_all_features", lambda: FEATURES)
    text = report_of(declared())
    assert text.startswith(
        "adapter: node-fftcg-example, protocol 2, profile observable, states compared at decisions\n"
        "  features declared, fftcg: party\n"
        "  readings: party-blocker-power-remainder = remainder-to-one\n"
        "  macro steps: fftcg:damage-resolution\n\n")
    assert text.endswith(
        "\nwhat the engine lacks:\n"
        "  features not declared (2 vectors skipped, never sent):\n"
        "    fftcg p-icon-party (Parties of Forwards with the P icon): 2 vectors skipped\n"
        "    fftcg haste (Haste): 1 vector skipped\n"
        "  readings declared (1 vector classified reading):\n"
        "    party-blocker-power-remainder = remainder-to-one: 1 vector\n")
    assert "1/1 vectors passed: 1 pass, 0 fail, 2 skipped, 1 reading (not counted)\n" in text
    assert run_passed(results())
    report = results_json(results(), "x", ["fftcg-default"], declaration=declared(), games=["fftcg"])
    assert report["declaration"]["features"] == {"fftcg": ["party"]}
    assert report["skipped"] == {"vectors": 2, "other_readings": [], "features": [
        {"feature": "p-icon-party", "vectors": 2}, {"feature": "haste", "vectors": 1}]}


def test_a_protocol_1_adapter_is_taken_to_implement_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lacking, "_all_features", lambda: FEATURES)
    text = report_of(LEGACY, results()[:1])
    assert text.splitlines()[0] == ("adapter: a protocol 1 adapter (no hello): full states compared at every step, "
                                    "every feature taken as implemented, the default readings")
    assert "what the engine lacks" not in text and text.endswith("1/1 vectors passed: 1 pass, 0 fail\n")


def test_the_shipped_features_an_engine_did_not_declare_are_listed_each_with_its_skipped_vectors() -> None:
    from cardrules.specs.catalogue.features import load_features

    fftcg = load_features()["fftcg"]
    text = report_of(declared())
    lacks = text[text.index("what the engine lacks:"):].splitlines()
    listed = [line.split(":")[0].strip() for line in lacks[2:2 + len(fftcg) - 1]]
    assert listed == [f"fftcg {f.id} ({f.title})" for f in fftcg if f.id != "party"]
    p_icon = next(f for f in fftcg if f.id == "p-icon-party")
    assert f"    fftcg p-icon-party ({p_icon.title}): 2 vectors skipped" in lacks
