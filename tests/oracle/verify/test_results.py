"""Recorded verify results (oracle/verify/results.py): what the spec site's traceability page shows."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from cardrules.oracle.cli import main
from cardrules.oracle.verify.results import (
    VERIFY_RESULT,
    RecordedVerify,
    read_verify_result,
    verify_summary,
    write_result,
)
from cardrules.oracle.verify.rows import Row
from tests.paths import REPO

pytestmark = pytest.mark.infrastructure("recorded results for the site")


ROWS = [
    Row("one-side-battle", "s1", "default", "explore", "holds", 0, 0.0, ("RED-SB-ONCE-PER-TURN",)),
    Row("one-side-battle", "s1", "default", "hypothesis", "holds", 0, 0.0, ("RED-SB-ONCE-PER-TURN",)),
    Row("party-min-two", "s2", "default", "explore", "violated", 0, 0.0, ("FF-PARTY-MIN-TWO", "FF-PARTY-SPLIT-THOUSANDS")),
    Row("party-min-two", "s2", "mutant", "explore", "caught", 0, 0.0, ("FF-PARTY-MIN-TWO",)),
]


def test_summary_counts_checks_runs_and_verdicts_per_clause() -> None:
    summary = verify_summary(ROWS, now=datetime(2026, 11, 30, tzinfo=timezone.utc))
    assert summary["checks"] == 4
    assert summary["runs"] == 4  # (scenario, rule set, engine) triples, all different here
    assert summary["failed"] == 1
    assert summary["verdicts"] == {"caught": 1, "holds": 2, "violated": 1}
    assert summary["clauses"]["RED-SB-ONCE-PER-TURN"] == {"holds": 2}
    assert summary["clauses"]["FF-PARTY-MIN-TWO"] == {"caught": 1, "violated": 1}
    assert summary["recorded"] == "2026-11-30T00:00:00+00:00"


def test_clause_line_says_how_the_checks_ended() -> None:
    recorded = RecordedVerify(verify_summary(ROWS), current=True)
    assert recorded.clause_line("RED-SB-ONCE-PER-TURN") == "2 checks, all passed"
    assert recorded.clause_line("FF-PARTY-MIN-TWO") == "1 of 2 failed"
    assert recorded.clause_line("RED-HEAL-WINDOW") == "no property checks it"


def test_a_written_summary_reads_back_as_current(tmp_path: Path) -> None:
    write_result(VERIFY_RESULT, verify_summary(ROWS), tmp_path)
    recorded = read_verify_result(tmp_path)
    assert isinstance(recorded, RecordedVerify) and recorded.current
    assert not [p for p in tmp_path.iterdir() if p.name != VERIFY_RESULT]  # no temporary file left behind


def test_a_summary_of_other_inputs_reads_back_as_stale(tmp_path: Path) -> None:
    summary = verify_summary(ROWS)
    summary["inputs_sha256"] = "0" * 64  # computed from another catalogue
    write_result(VERIFY_RESULT, summary, tmp_path)
    recorded = read_verify_result(tmp_path)
    assert isinstance(recorded, RecordedVerify) and not recorded.current


@pytest.mark.parametrize("content", ["{not json", json.dumps({"format": "something-else/1"}), "[]"])
def test_a_missing_or_corrupt_summary_is_a_reason_not_a_crash(tmp_path: Path, content: str) -> None:
    assert "nothing recorded in" in str(read_verify_result(tmp_path))
    (tmp_path / VERIFY_RESULT).write_text(content, encoding="utf-8")
    reason = read_verify_result(tmp_path)
    assert isinstance(reason, str) and VERIFY_RESULT in reason


def test_a_selective_verify_run_records_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CARDRULES_RESULTS_DIR", str(tmp_path))
    code = main(["verify", "--scenario", "fftcg-party-basics", "--engine", "explore", "--no-mutants", "--quiet"])
    assert code == 0
    assert not (tmp_path / VERIFY_RESULT).exists()


@pytest.mark.parametrize(("argv", "complete"), [
    (["verify"], True),
    (["verify", "--examples", "200", "--quiet", "--json"], True),
    (["verify", "--engine", "explore", "--engine", "hypothesis", "--engine", "smt"], True),
    (["verify", "--engine", "smt"], False),
    (["verify", "--scenario", "fftcg-party-basics"], False),
    (["verify", "--no-mutants"], False),
    (["verify", "--decision", "party-damage-source=per-member"], False),
])
def test_only_a_run_of_everything_counts_as_complete(argv: list[str], complete: bool) -> None:
    from cardrules.oracle.cli import build_parser
    from cardrules.oracle.cli.verify import complete_selection

    assert complete_selection(build_parser().parse_args(argv)) is complete


def test_the_traceability_page_shows_a_recorded_score_per_area_and_warns_when_stale() -> None:
    """The site's 'Conformance mutation score' table: per area the mutants killed of those counted."""
    import importlib
    import sys

    from cardrules.oracle.verify.results import SCORE_FORMAT, RecordedScore

    sys.path.insert(0, str(REPO / "docs" / "_ext"))
    try:
        docs = importlib.import_module("cardrules_recorded")
    finally:
        sys.path.pop(0)
    summary = {"format": SCORE_FORMAT, "recorded": "2026-12-01T00:00:00+00:00", "commit": "abc1234",
               "model_sha256": "0" * 64, "suites": ["fftcg-default"], "vectors": 12, "goal": 0.95, "goal_met": False,
               "areas": {"party": {"mutants": 3, "equivalent": 1, "not_applied": 0, "killed": 1, "counted": 2,
                                   "score": 0.5, "killed_by": {}}},
               "survivors": ["m2"]}
    text = "\n".join(docs.score_lines(RecordedScore(summary, current=False)))
    assert "1 suites (12 vectors)" in text and "is **not met**" in text
    assert "   * - party\n     - 3\n     - 1\n     - 1 of 2\n     - 50.0%" in text
    assert "1 mutants survived" in text and "this score is stale" in text
    assert "No recorded score to show: nothing here." in "\n".join(docs.score_lines("nothing here"))


@pytest.mark.parametrize("folder", ["a file", "under a file", "under /proc", "a NUL byte"])
def test_a_results_folder_that_cannot_be_written_is_a_note_and_the_run_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], folder: str) -> None:
    from cardrules.oracle.verify.results import record

    (tmp_path / "plain").write_text("x")
    path = {"a file": str(tmp_path / "plain"), "under a file": str(tmp_path / "plain" / "results"),
            "under /proc": "/proc/cardrules-results", "a NUL byte": str(tmp_path / "r\0")}[folder]
    if folder == "a NUL byte":  # no environment variable can hold one: the same call, with the folder given
        monkeypatch.setattr("cardrules.oracle.verify.results.results_dir", lambda: Path(path))
    else:
        monkeypatch.setenv("CARDRULES_RESULTS_DIR", path)
    record("verify.json", {"format": "x"}, "cardrules verify", quiet=False)
    err = capsys.readouterr().err
    assert err.startswith("cardrules verify: result not recorded (")
    assert (tmp_path / "plain").read_text() == "x"
