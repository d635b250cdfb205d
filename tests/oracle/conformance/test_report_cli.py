"""``cardrules conformance run``'s report options: --json's new parts, --first-only, --known, --live and --random."""

from __future__ import annotations

import json
import sys
import types
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from cardrules.oracle.cli import main

from .conftest import ADAPTERS

PARTY_BUG = f"{sys.executable} {ADAPTERS / 'party_damage_per_member.py'}"


def json_run(capsys: pytest.CaptureFixture[str], *options: str) -> tuple[int, dict[str, Any]]:
    code = main(["conformance", "run", "--quiet", "--json", *options])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.clause("FF-PARTY-UNBLOCKED-ONE")
def test_json_gives_the_declaration_groups_and_what_was_set_apart(
    fftcg_suite: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = json_run(capsys, "--adapter", PARTY_BUG, "--suite", str(fftcg_suite))
    assert code == 1
    assert {"declaration", "groups", "skipped", "reading", "known"} <= set(report)
    assert report["declaration"] is None or report["declaration"]["profile"] == "full"  # the reference model's
    first = report["groups"][0]  # hand-checked: the damage after the pass out of Damage Resolution
    assert (first["clause"], first["action"], first["field"]) == (
        "FF-PARTY-UNBLOCKED-ONE", "pass", "state.players[*].damage")
    assert first["count"] >= first["vectors"] >= 1
    assert report["skipped"]["vectors"] == report["reading"]["vectors"] == report["known"]["vectors"] == 0
    failing = [v for v in report["vectors"] if v["verdict"] == "fail"]
    assert failing and all(v["differences"][0]["where"] == v["where"] for v in failing)


EXTRA_ACTION = '''
import sys
from cardrules.oracle.conformance.adapter import ReferenceAdapter, serve


class ExtraAction(ReferenceAdapter):
    def legal_actions(self):
        actions = super().legal_actions()
        return actions + ["concede"] if actions else actions


sys.exit(serve(ExtraAction()))
'''


@pytest.mark.infrastructure("every difference of a vector, or with --first-only its first")
def test_keep_going_reports_every_difference_and_first_only_the_first(
    fftcg_suite: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "extra_action.py"
    script.write_text(EXTRA_ACTION)
    suite = json.loads(fftcg_suite.read_text())
    # by hand: an engine offering one action too many while the game goes on differs at the start and after every
    # step that does not end the game, so a play vector of two steps or more differs more than once
    longest = max((v for v in suite["vectors"] if v["kind"] == "play"), key=lambda v: len(v["steps"]))
    assert len(longest["steps"]) >= 2 and longest["steps"][0]["legal_actions"]
    options = ["--adapter", f"{sys.executable} {script}", "--suite", str(fftcg_suite)]
    code, every = json_run(capsys, *options)
    entry = next(v for v in every["vectors"] if v["vector"] == longest["id"])
    assert code == 1 and len(entry["differences"]) >= 2
    assert {d["where"].split(" legal actions")[0] for d in entry["differences"]} >= {"start", "step 1"}
    legal = next(g for g in every["groups"] if g["field"] == "legal_actions" and g["action"] == "start")
    assert legal["example"]["extra"] == ["concede"]
    code, first_only = json_run(capsys, *options, "--first-only")
    entry = next(v for v in first_only["vectors"] if v["vector"] == longest["id"])
    assert code == 1 and len(entry["differences"]) == 1 and entry["differences"][0]["where"] == "start legal actions"


@pytest.mark.infrastructure("--random belongs to the live oracle")
def test_random_games_without_live_are_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "run", "--quiet", "--adapter", "true", "--random", "5"]) == 3
    assert capsys.readouterr().err.strip() == (
        "cardrules: error: --random plays random games against the live oracle: give --live too")


@pytest.mark.infrastructure("--live hands the run to the live oracle's command module, no --suite needed")
def test_live_dispatches_to_run_live(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []
    module = types.ModuleType("cardrules.oracle.cli.conformance_live")
    module.run_live = lambda args, out: seen.append((args.adapter, args.random, args.seed)) or 0  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "cardrules.oracle.cli.conformance_live", module)
    assert main(["conformance", "run", "--quiet", "--adapter", "my-engine", "--live", "--random", "4", "--seed", "9"]) == 0
    assert seen == [("my-engine", 4, 9)]


WITHOUT_PREEMPTIVE = '''
import sys
from cardrules.oracle.conformance.adapter import ReferenceAdapter, serve


class WithoutPreemptive(ReferenceAdapter):
    def hello(self):
        reply = super().hello()
        reply["engine"] = "no-preemptive"
        reply["games"]["fftcg"]["features"].remove("preemptive-strike")
        return reply


sys.exit(serve(WithoutPreemptive()))
'''


@pytest.mark.clause("FF-BASE-PREEMPTIVE")
def test_an_engine_without_a_feature_passes_and_the_report_ends_with_what_it_lacks(
    fftcg_suite: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cardrules.specs.catalogue.features import load_features

    script = tmp_path / "without_preemptive.py"
    script.write_text(WITHOUT_PREEMPTIVE)
    junit = tmp_path / "junit.xml"
    adapter = f"{sys.executable} {script}"
    code, report = json_run(capsys, "--adapter", adapter, "--suite", str(fftcg_suite))
    assert code == 0 and report["suspects"] == [] and report["groups"] == []
    preemptive = next(f for f in load_features()["fftcg"] if f.id == "preemptive-strike")
    suite = json.loads(fftcg_suite.read_text())
    # by hand: a vector needs the feature when one of its clauses belongs to it and a Forward with
    # Pre-emptive Strike is on the table in one of its states (without one the ability cannot show)
    def has_preemptive(v: dict[str, Any]) -> bool:
        states = [v["state"]] + [step["state"] for step in v.get("steps", [])]
        return any(f.get("preemptive") is True for s in states for p in s["players"] for f in p["forwards"])

    needing = {v["id"] for v in suite["vectors"] if set(v["clauses"]) & set(preemptive.clauses) and has_preemptive(v)}
    skipped = {v["vector"] for v in report["vectors"] if v["verdict"] == "skipped"}
    assert needing and skipped == needing
    assert report["skipped"]["features"] == [{"feature": "preemptive-strike", "vectors": len(needing)}]
    assert main(["conformance", "run", "--quiet", "--adapter", adapter, "--suite", str(fftcg_suite),
                 "--junit", str(junit)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("adapter: no-preemptive, protocol 2, profile full, states compared at every-step\n")
    assert text.endswith(
        "\nwhat the engine lacks:\n"
        f"  features not declared ({len(needing)} vectors skipped, never sent):\n"
        f"    fftcg preemptive-strike ({preemptive.title}): {len(needing)} vectors skipped\n")
    messages = {s.get("message") for s in ET.parse(junit).getroot().iter("skipped")}
    assert messages == {"not implemented: preemptive-strike"}
