"""The runner: the reference adapter passes everything, a buggy engine is blamed on the right clause,
and adapters that crash, hang, print garbage or flood get their verdict while the suite goes on."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cardrules.oracle.cli import main
from cardrules.oracle.conformance.report import suspects
from cardrules.oracle.conformance.runner import run_suites
from cardrules.oracle.conformance.schema import load_suite

from .conftest import ADAPTERS, REFERENCE

pytestmark = pytest.mark.clause("FF-PARTY-UNBLOCKED-ONE", "FF-BASE-UNBLOCKED-DAMAGE")


def test_the_reference_adapter_passes_every_generated_suite(suites_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junit = suites_dir.parent / "junit.xml"
    code = main(["conformance", "run", "--adapter", " ".join(REFERENCE), "--suite", str(suites_dir),
                 "--json", "--junit", str(junit)])
    report = json.loads(capsys.readouterr().out)
    assert code == 0, [v for v in report["vectors"] if v["verdict"] != "pass"][:3]
    assert report["summary"]["vectors"] == report["summary"]["pass"] > 30
    assert report["suspects"] == []
    root = ET.parse(junit).getroot()
    assert len(root.findall(".//testcase")) == report["summary"]["vectors"]


def test_a_party_dealing_one_damage_per_member_is_blamed_on_the_unblocked_party_clause(fftcg_suite: Path) -> None:
    suite = load_suite(fftcg_suite)
    results = run_suites([sys.executable, str(ADAPTERS / "party_damage_per_member.py")], [suite], 20)
    failed = [r for r in results if r.verdict != "pass"]
    assert failed and all(r.verdict == "fail" for r in failed)
    assert all("FF-PARTY-UNBLOCKED-ONE" in r.blamed for r in failed)
    assert suspects(results) == ["FF-PARTY-UNBLOCKED-ONE"]
    assert len(results) == len(suite["vectors"])


def _uses(vector: dict, action: str) -> bool:
    return any(s["action"] == action for s in vector["steps"]) or vector.get("refuse", {}).get("action") == action


def _small_suite(fftcg_suite: Path, trigger: str = "end-turn") -> dict:
    """Eight play or refusal vectors in suite order: the first four that apply ``trigger`` and the first four
    that do not (which vectors the set cover chooses, and so their order, changes with its features)."""
    suite = load_suite(fftcg_suite)
    vectors = [v for v in suite["vectors"] if v["kind"] in ("play", "refusal")]
    hit = [v for v in vectors if _uses(v, trigger)][:4]
    miss = [v for v in vectors if not _uses(v, trigger)][:4]
    suite["vectors"] = [v for v in vectors if any(v is w for w in hit + miss)]
    return suite


@pytest.mark.parametrize(("mode", "verdict"), [("die", "crashed"), ("hang", "timeout"), ("garbage", "garbage"),
                                               ("flood", "garbage")])
def test_a_misbehaving_adapter_gets_a_verdict_for_that_vector_and_the_rest_still_runs(
    fftcg_suite: Path, mode: str, verdict: str
) -> None:
    suite = _small_suite(fftcg_suite)
    trigger = "end-turn"
    affected = [_uses(v, trigger) for v in suite["vectors"]]
    assert any(affected) and not all(affected)
    results = run_suites([sys.executable, str(ADAPTERS / "faulty.py"), mode, trigger], [suite], 1.5)
    assert len(results) == len(suite["vectors"])
    for result, hit in zip(results, affected):
        assert result.verdict == (verdict if hit else "pass"), (result.vector, result.got)


def test_an_adapter_that_exits_at_once_crashes_every_vector_without_stopping_the_run(fftcg_suite: Path) -> None:
    suite = _small_suite(fftcg_suite)
    results = run_suites([sys.executable, str(ADAPTERS / "faulty.py"), "exit"], [suite], 2)
    assert [r.verdict for r in results] == ["crashed"] * len(suite["vectors"])
    assert "exit status 3" in results[0].got


def test_bad_inputs_exit_3_naming_the_problem(tmp_path: Path, fftcg_suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "run", "--adapter", "/no/such/engine", "--suite", str(fftcg_suite)]) == 3
    assert "cannot start adapter" in capsys.readouterr().err
    assert main(["conformance", "run", "--adapter", "'unclosed", "--suite", str(fftcg_suite)]) == 3
    broken = json.loads(fftcg_suite.read_text())
    broken["vectors"][2]["narrative"] = ["not", "text"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(broken))
    assert main(["conformance", "run", "--adapter", " ".join(REFERENCE), "--suite", str(bad)]) == 3
    assert "$.vectors[2].narrative" in capsys.readouterr().err


@pytest.mark.parametrize(("manifest", "says"), [
    ('{"suites": [{"file": 5}]}', "$.suites[0].file must be a file name, got 5"),
    ('{"suites": [{"file": null}]}', "$.suites[0].file must be a file name, got null"),
    ('{"suites": [{"file": "../outside.json"}]}', "$.suites[0].file '../outside.json' is not inside"),
    ('{"suites": [{"file": "missing.json"}]}', "$.suites[0].file 'missing.json' does not exist"),
    ('{"suites": {"file": "a.json"}}', "$.suites must be an array"),
    ('["a.json"]', "$.suites must be an array"),
    ('{"suites": ["a.json"]}', "$.suites[0] must be an object"),
    ("{not json", "not a conformance manifest"),
])
def test_a_malformed_manifest_exits_3_naming_the_entry(tmp_path: Path, manifest: str, says: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "suites"
    folder.mkdir()
    (folder / "manifest.json").write_text(manifest)
    (tmp_path / "outside.json").write_text("{}")
    assert main(["conformance", "run", "--adapter", " ".join(REFERENCE), "--suite", str(folder)]) == 3
    assert says in capsys.readouterr().err


def test_schema_command_prints_the_shipped_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["properties"]["format"]["enum"] == ["cardrules-vectors/4", "cardrules-vectors/3", "cardrules-vectors/2",
                                                      "cardrules-vectors/1"]


def test_the_text_report_has_one_row_per_clause_and_the_first_difference(fftcg_suite: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    adapter = f"{sys.executable} {ADAPTERS / 'party_damage_per_member.py'}"
    assert main(["conformance", "run", "--adapter", adapter, "--suite", str(fftcg_suite)]) == 1
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("FF-PARTY-UNBLOCKED-ONE "))
    assert "suspect" in row and "expected" in row and "got" in row
    assert "suspect clauses: FF-PARTY-UNBLOCKED-ONE" in out


class _RenamingRefusals:
    """The reference model in-process, except that an ``illegal`` reply names other clauses (or none)."""

    fresh = False

    def __init__(self, clauses: list[str] | None) -> None:
        from cardrules.oracle.mutation.checks import InProcessAdapter

        self.inner, self.clauses = InProcessAdapter(), clauses

    def request(self, message: dict, deadline: float) -> dict:
        reply = self.inner.request(message, deadline)
        if reply.get("error") == "illegal":
            reply.pop("clauses", None)
            if self.clauses is not None:
                reply["clauses"] = self.clauses
        return reply

    def close(self) -> None:
        pass


def _refusals(fftcg_suite: Path) -> tuple[dict, list[dict]]:
    suite = load_suite(fftcg_suite)
    refusals = [v for v in suite["vectors"] if v["kind"] == "refusal" and v["refuse"]["clauses"]]
    assert refusals
    return suite, refusals


def test_a_refusal_for_the_wrong_reason_fails_blamed_on_the_clauses_that_should_have_refused(fftcg_suite: Path) -> None:
    from cardrules.oracle.conformance.runner import run_vector

    suite, refusals = _refusals(fftcg_suite)
    assert suite["format"] == "cardrules-vectors/4"
    for vector in refusals:
        right = run_vector(_RenamingRefusals(list(reversed(vector["refuse"]["clauses"]))), suite, vector, 60)
        assert right.verdict == "pass"  # the same clauses in another order
        wrong = run_vector(_RenamingRefusals(["FF-BASE-SEVEN-DAMAGE-LOSES"]), suite, vector, 60)
        assert (wrong.verdict, wrong.where) == ("fail", f"refuse {vector['refuse']['action']!r} clauses")
        assert "FF-BASE-SEVEN-DAMAGE-LOSES" in wrong.got and set(wrong.blamed) == set(vector["refuse"]["clauses"])
        silent = run_vector(_RenamingRefusals(None), suite, vector, 60)
        assert silent.verdict == "fail" and "no 'clauses'" in silent.got


def test_a_version_1_suite_still_runs_without_comparing_refusal_clauses_and_an_unknown_version_is_bad_input(
    tmp_path: Path, fftcg_suite: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cardrules.oracle.conformance.runner import run_vector

    suite, refusals = _refusals(fftcg_suite)
    old = {**suite, "format": "cardrules-vectors/1"}
    assert all(run_vector(_RenamingRefusals(None), old, v, 60).verdict == "pass" for v in refusals)
    future = tmp_path / "future.json"
    future.write_text(json.dumps({**suite, "format": "cardrules-vectors/9"}))
    assert main(["conformance", "run", "--adapter", " ".join(REFERENCE), "--suite", str(future)]) == 3
    err = capsys.readouterr().err
    assert "$.format" in err and "cardrules-vectors/9" in err and "regenerate" in err


def test_an_engine_that_skips_the_state_checks_fails_every_invalid_vector_and_only_those(
    suites_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An ``invalid`` vector (cardrules-vectors/3) holds a reachable Redemption position with one thing broken
    (a card in two places, a record numbered past ``next_record``, ...): the reference refuses to load each
    (``bad-request``); an engine that loads states without checking them fails each, and nothing else."""
    from cardrules.model.redemption import validate as red_validate
    from cardrules.oracle.conformance.runner import run_vector
    from cardrules.oracle.mutation.checks import InProcessAdapter

    suite = load_suite(suites_dir / "redemption-heal-previous.json")
    invalid = [v for v in suite["vectors"] if v["kind"] == "invalid"]
    assert len(invalid) >= 10
    assert {v["problem"]["where"].split("[")[0].split(".")[0] for v in invalid} >= {"cards", "records", "battles"}
    others = [v for v in suite["vectors"] if v["kind"] != "invalid"][:5]
    assert all(run_vector(InProcessAdapter(), suite, v, 60).verdict == "pass" for v in invalid + others)
    monkeypatch.setattr(red_validate, "problems", lambda state: [])
    results = [run_vector(InProcessAdapter(), suite, v, 60) for v in invalid]
    assert all((r.verdict, r.where, r.got) == ("fail", "load of an invalid state", "loaded") for r in results)
    assert all(run_vector(InProcessAdapter(), suite, v, 60).verdict == "pass" for v in others)


def test_an_invalid_vector_needs_version_3(suites_dir: Path, tmp_path: Path) -> None:
    from cardrules.oracle.conformance.schema import SuiteError, validate_suite

    suite = load_suite(suites_dir / "redemption-heal-previous.json")
    assert suite["format"] == "cardrules-vectors/4"
    with pytest.raises(SuiteError, match="needs cardrules-vectors/3"):
        validate_suite({**suite, "format": "cardrules-vectors/2"})
    validate_suite({**suite, "format": "cardrules-vectors/2",
                    "vectors": [v for v in suite["vectors"] if v["kind"] != "invalid"]})
