"""Every difference of a run, grouped by kind (blamed clause, action kind, field with list indices as ``[*]``),
each group with its count, its vectors and its shortest example, printed before the per-vector blocks; and the
verdicts set apart (skipped, reading, unsupported) never fail a run nor make a suspect."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from cardrules.oracle.conformance.grouping import field_of, generalise
from cardrules.oracle.conformance.report import (
    by_clause, groups_of, print_report, results_json, run_passed, summary_line, suspects, write_junit,
)
from cardrules.oracle.conformance.runner import DifferenceRecord, VectorResult

pytestmark = pytest.mark.infrastructure("the conformance report's grouping of differences and its verdict accounting")

SPLIT = "FF-BASE-PARTY-SPLIT"
BLOCK = "FF-BASE-BLOCK"


def record(step: int, action: str | None, path: str, expected: str, got: str, blamed: tuple[str, ...],
           verdict: str = "fail", **more: Any) -> DifferenceRecord:
    """A difference at ``step`` (after ``action``) in the state at the JSON path ``path``."""
    where = f"step {step} state {path}" if path.startswith("$") else f"step {step} {path}"
    return DifferenceRecord(step=step, action=action, where=where, field="", expected=expected, got=got,
                            blamed=blamed, verdict=verdict, **more)


def vector(name: str, verdict: str, *records: DifferenceRecord, passed: int = 0, **fields: Any) -> VectorResult:
    """A vector's result: its first difference is the first record, as the runner reports it; ``fields``: the
    runner's ``skipped_for`` and ``reading``."""
    result = VectorResult("fftcg-default", name, "play", (SPLIT, BLOCK), verdict, passed_steps=[(BLOCK,)] * passed,
                          **fields)
    if records:
        first = records[0]
        result.step, result.where, result.expected, result.got = first.step, first.where, first.expected, first.got
        result.blamed = first.blamed
    result.differences = list(records)
    return result


def report_of(results: list[VectorResult], **options: Any) -> str:
    out = io.StringIO()
    print_report(results, out, **options)
    return out.getvalue()


def test_generalised_fields() -> None:
    assert generalise("$.players[1].damage") == "state.players[*].damage"
    assert field_of("step 3 state $.players[0].field[2].damage") == "state.players[*].field[*].damage"
    assert field_of("start legal actions") == "legal_actions"
    assert field_of("step 4 legal actions") == "legal_actions"
    assert field_of("refuse 'split a1 2' clauses") == "refuse.clauses"
    assert field_of("perft node counts") == "perft.nodes"
    assert field_of("after the refusal state $.turn") == "state.turn"


def test_three_vectors_failing_on_the_same_split_field_make_one_group_whose_example_is_the_shortest() -> None:
    # a split that deals the damage to the wrong Forward: the damage of player 0, 1 and 0 differs, at the split
    # step 5, 2 and 7 of three vectors; a fourth vector's block step offers a wrong legal action
    long_got = "{" + "x" * 400 + "}"
    results = [
        vector("v-five", "fail", record(5, "split a1 2 a2 1", "$.players[0].damage", "3", "4", (SPLIT, BLOCK)),
               passed=4),
        vector("v-two", "fail", record(2, "split b1 1", "$.players[1].damage", "1", long_got, (SPLIT,)), passed=1),
        vector("v-seven", "fail", record(7, "split c1 3", "$.players[0].damage", "5", "6", (SPLIT,)), passed=6),
        vector("v-block", "fail", record(3, "block f1 a1", "legal actions", "[a]", "[a,b]", (BLOCK,),
                                         extra=("end-turn",)), passed=2),
        VectorResult("fftcg-default", "v-ok", "play", (SPLIT, BLOCK), "pass", passed_steps=[(BLOCK,)] * 3),
    ]
    groups = groups_of(results)
    assert [(g.clause, g.action, g.field, g.count, g.vectors) for g in groups] == [
        (SPLIT, "split", "state.players[*].damage", 3, 3),
        (BLOCK, "block", "legal_actions", 1, 1),
    ]
    assert groups[0].example.vector == "v-two"
    text = report_of(results)
    lines = text.splitlines()
    assert lines[0] == "differences by kind (4 differences in 2 groups; clause, action, field):"
    assert lines[1] == f"  #1 {SPLIT}, split, state.players[*].damage: 3 differences in 3 vectors"
    assert lines[2:7] == ["    example: fftcg-default v-two step 2 (split b1 1)",
                          "      where:    step 2 state $.players[1].damage",
                          "      expected: 1",
                          f"      got:      {long_got}",
                          f"      blamed:   {SPLIT}"]
    assert lines[7] == f"  #2 {BLOCK}, block, legal_actions: 1 difference in 1 vector"
    assert "      extra actions (1):" in lines and text.index("differences by kind") < text.index("\nclause ")
    assert text.index("\nclause ") < text.index("vectors that did not pass:")
    assert [g["count"] for g in results_json(results, "x", ["s"])["groups"]] == [3, 1]


def test_a_vector_that_kept_going_counts_every_difference_in_its_group() -> None:
    # one engine bug, seen twice in one vector (steps 2 and 6), and a different field at step 4
    result = vector("v", "fail",
                    record(2, "split a1 1", "$.players[1].damage", "1", "2", (SPLIT,)),
                    record(4, "block f1 a1", "$.players[0].field[1].dull", "true", "false", (BLOCK,)),
                    record(6, "split a2 1", "$.players[1].damage", "3", "5", (SPLIT,)))
    groups = groups_of([result])
    assert [(g.clause, g.action, g.field, g.count, g.vectors) for g in groups] == [
        (SPLIT, "split", "state.players[*].damage", 2, 1),
        (BLOCK, "block", "state.players[*].field[*].dull", 1, 1),
    ]
    assert groups[0].example.step == 2
    lines = report_of([result]).splitlines()
    at = lines.index("    later differences (2):")
    assert lines[at + 1: at + 3] == ["      step 4 state $.players[0].field[1].dull: expected true, got false",
                                     "      step 6 state $.players[1].damage: expected 3, got 5"]
    assert by_clause([result])[BLOCK].failed == 1 and by_clause([result])[SPLIT].failed == 1


def test_a_skipped_vector_never_fails_the_run_nor_makes_a_suspect(tmp_path: Path) -> None:
    passing = VectorResult("fftcg-default", "v-ok", "play", (BLOCK,), "pass", passed_steps=[(BLOCK,)])
    skipped = vector("v-party", "skipped", skipped_for=("p-icon-party",))
    assert run_passed([passing, skipped]) and suspects([passing, skipped]) == []
    assert groups_of([passing, skipped]) == [] and SPLIT not in by_clause([passing, skipped])
    assert summary_line([passing, skipped]) == "1/1 vectors passed: 1 pass, 0 fail, 1 skipped (not counted)"
    assert not run_passed([skipped])
    assert summary_line([skipped]).endswith("; no vector was checked (every one skipped): the run fails")
    write_junit([passing, skipped], str(tmp_path / "junit.xml"))
    found = ET.parse(tmp_path / "junit.xml").getroot().findall(".//skipped")
    assert [s.get("message") for s in found] == ["not implemented: p-icon-party"]


def test_a_reading_vector_is_counted_apart_and_a_real_failure_beside_it_is_the_only_suspect() -> None:
    reading = vector("v-floor", "reading",
                     record(3, "split a1 2", "$.players[1].damage", "2", "1", (SPLIT,), verdict="reading"),
                     reading=("party-blocker-power-remainder=remainder-to-one",))
    real = vector("v-block", "fail", record(1, "block f1 a1", "$.players[0].field[0].dull", "true", "false", (BLOCK,)))
    passing = VectorResult("fftcg-default", "v-ok", "play", (SPLIT,), "pass", passed_steps=[(SPLIT,)])
    results = [reading, real, passing]
    assert suspects(results) == [BLOCK] and not run_passed(results)
    assert [(g.clause, g.count) for g in groups_of(results)] == [(BLOCK, 1)]
    assert summary_line(results) == "1/2 vectors passed: 1 pass, 1 fail, 1 reading (not counted)"
    assert run_passed([reading, passing])
    report = results_json(results, "x", ["s"])
    assert report["reading"]["vectors"] == 1 and report["summary"]["reading"] == 1
    assert report["reading"]["decisions"] == [{"decision": "party-blocker-power-remainder", "option": None, "vectors": 1}]
