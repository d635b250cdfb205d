"""The generator: schema-valid suites, minimised by set cover, deterministic, written atomically (issue 10)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from cardrules.oracle.conformance.generate import Candidate, greedy_cover, generate_suite
from cardrules.oracle.conformance.output import write_suites
from cardrules.oracle.conformance.plan import default_plans, make_plan
from cardrules.oracle.conformance.schema import SuiteError, load_suite, validate_suite
from cardrules.properties.scenarios import load_scenarios

from .conftest import small_results

pytestmark = pytest.mark.clause("FF-PARTY-UNBLOCKED-ONE", "FF-PARTY-SPLIT-THOUSANDS", "RED-HEAL-WINDOW")


def test_every_suite_validates_and_the_manifest_lists_it_with_its_digest(suites_dir: Path) -> None:
    manifest = json.loads((suites_dir / "manifest.json").read_text())
    made = [s for s in manifest["suites"] if "file" in s]
    assert [s["suite"] for s in made] == [
        "fftcg-default", "redemption-heal-previous", "fftcg-party-disband-timing-after-damage-resolution"]
    for entry in made:
        path = suites_dir / entry["file"]
        assert hashlib.sha256(path.read_bytes()).hexdigest() == entry["sha256"]
        suite = load_suite(path)
        assert len(suite["vectors"]) == entry["vectors"] > 0
        assert entry["candidates"] > entry["chosen_by_set_cover"] > 0
        kinds = {v["kind"] for v in suite["vectors"]}
        assert kinds == {"play", "refusal", "perft"}


def test_fftcg_default_covers_every_clause_in_force(suites_dir: Path) -> None:
    manifest = json.loads((suites_dir / "manifest.json").read_text())
    entry = next(s for s in manifest["suites"] if s["suite"] == "fftcg-default")
    assert entry["uncovered"] == [] and entry["excused"] == {}
    assert all(n > 0 for n in entry["coverage"].values()) and len(entry["coverage"]) == 34


def test_refusal_vectors_name_the_clauses_of_the_model_refusal(fftcg_suite: Path) -> None:
    refusals = [v for v in load_suite(fftcg_suite)["vectors"] if v["kind"] == "refusal"]
    assert refusals and all(v["refuse"]["clauses"] for v in refusals)
    assert all(set(v["refuse"]["clauses"]) <= set(v["clauses"]) for v in refusals)


def test_generation_is_deterministic_byte_for_byte(tmp_path: Path, suites_dir: Path) -> None:
    write_suites(tmp_path / "again", small_results(), seed=0)
    for path in sorted(suites_dir.iterdir()):
        assert (tmp_path / "again" / path.name).read_bytes() == path.read_bytes(), path.name


def test_writing_replaces_the_folder_atomically(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "stale.json").write_text("{}")
    write_suites(out, [], seed=0)
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no staging folder left behind


def test_an_option_without_a_difference_is_skipped_and_an_unexcused_gap_is_reported() -> None:
    scenarios = [s for s in load_scenarios() if s.name == "fftcg-party-basics"]
    skipped = generate_suite(make_plan("fftcg", {}, {"party-brave-members": "all-dull"}), scenarios,
                             max_states={"fftcg": 30})
    assert skipped.suite is None and "no difference" in skipped.skipped
    tiny = generate_suite(make_plan("fftcg", {}, {}), scenarios, max_states={"fftcg": 5}, excused={})
    assert tiny.uncovered and all(tiny.coverage[c] == 0 for c in tiny.uncovered)


def test_greedy_cover_takes_the_largest_gain_then_the_shortest_then_the_id() -> None:
    def cand(features: set[str], length: int) -> Candidate:
        return Candidate(0, 0, "a", "play", frozenset(features), length)

    candidates = [cand({"x", "y"}, 3), cand({"x", "y"}, 2), cand({"z"}, 1), cand({"x"}, 1)]
    assert greedy_cover(candidates, ["d", "c", "b", "a"]) == [1, 2]


def test_plans_cover_both_heal_versions_and_the_scenario_options() -> None:
    ids = [p.id for p in default_plans()]
    assert ids[:3] == ["fftcg-default", "redemption-heal-revised", "redemption-heal-previous"]
    assert "fftcg-party-split-unit-hundreds" in ids and "redemption-sb-per-turn-limit-two" in ids


def test_a_malformed_suite_is_named_with_the_json_path(fftcg_suite: Path) -> None:
    data = json.loads(fftcg_suite.read_text())
    data["vectors"][0]["steps"][0]["action"] = 5
    with pytest.raises(SuiteError) as error:
        validate_suite(data, "x.json")
    assert error.value.where == "$.vectors[0].steps[0].action"
    del data["vectors"][0]["steps"][0]["action"]
    data["vectors"][1]["kind"] = "dance"
    with pytest.raises(SuiteError, match=r"\$\.vectors\[0\]|\$\.vectors\[1\]"):
        validate_suite(data, "x.json")
