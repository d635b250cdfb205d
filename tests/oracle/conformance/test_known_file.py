"""The known-differences file (``cardrules-known/1``): its entries turn exactly the differences they match into
``known`` (with the reason), reported apart, never a failure nor a suspect; an entry that matched nothing is
listed as stale; every problem with the file is one line naming the file, the entry and the field (exit 3)."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cardrules.oracle.cli import main
from cardrules.oracle.conformance.known import KnownError, classify, load_known, parse_known
from cardrules.oracle.conformance.report import print_report, results_json, run_passed, suspects, write_junit
from cardrules.oracle.conformance.runner import VectorResult

from .test_report_groups import BLOCK, SPLIT, record, vector

pytestmark = pytest.mark.infrastructure("the conformance runner's known-differences file")

HEADER = 'format = "cardrules-known/1"\n'


def known_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "known.toml"
    path.write_text(HEADER + body)
    return path


def split_and_block_results() -> list[VectorResult]:
    """v-split differs at a split, v-block at a block (both blamed on the split clause), v-other at a split
    blamed on the block clause only; v-ok passes."""
    return [
        vector("v-split", "fail", record(2, "split a1 1", "$.players[1].damage", "1", "2", (SPLIT,))),
        vector("v-block", "fail", record(1, "block f1 a1", "$.players[0].field[0].dull", "true", "false", (SPLIT,))),
        vector("v-other", "fail", record(4, "split b1 2", "$.players[0].damage", "2", "3", (BLOCK,))),
        VectorResult("fftcg-default", "v-ok", "play", (SPLIT, BLOCK), "pass", passed_steps=[(SPLIT,), (BLOCK,)]),
    ]


def test_a_clause_and_action_entry_turns_exactly_those_differences_into_known(tmp_path: Path) -> None:
    known = load_known(known_file(tmp_path, f"""
[[known]]
clause = "{SPLIT}"
action = "split"
reason = "our split rounds the other way; fix planned"

[[known]]
vector = "no-such-vector"
reason = "fixed long ago"
"""))
    results = split_and_block_results()
    outcome = classify(results, known)
    assert {r.vector: r.verdict for r in outcome.results} == {
        "v-split": "known", "v-block": "fail", "v-other": "fail", "v-ok": "pass"}
    assert outcome.reasons("fftcg-default", "v-split") == ("our split rounds the other way; fix planned",)
    assert [e.index for e in outcome.stale] == [1]
    assert not run_passed(outcome.results)
    out = io.StringIO()
    print_report(results, out, known=known)
    text = out.getvalue()
    assert (f"known differences ({known.path}; not counted: no failure, no suspect):\n"
            "  fftcg-default v-split: our split rounds the other way; fix planned\n"
            "  stale entry, matched nothing: known[1]: vector no-such-vector (fixed long ago)\n") in text
    assert "1/3 vectors passed: 1 pass, 2 fail, 1 known (not counted)" in text
    report = results_json(results, "x", ["fftcg-default"], known=known)
    assert report["known"]["vectors"] == 1 and report["known"]["stale"] == [1]
    assert [e["matched"] for e in report["known"]["entries"]] == [1, 0]
    assert [g["count"] for g in report["groups"]] == [1, 1]  # v-block and v-other only
    write_junit(results, str(tmp_path / "junit.xml"), known=known)
    skipped = ET.parse(tmp_path / "junit.xml").getroot().findall(".//skipped")
    assert [s.get("message") for s in skipped] == ["known: our split rounds the other way; fix planned"]


def test_known_vectors_leave_the_suspects_and_a_run_whose_only_failures_are_known_passes(tmp_path: Path) -> None:
    results = split_and_block_results()
    assert SPLIT in suspects(results)
    known = load_known(known_file(tmp_path, f"""
[[known]]
clause = "{SPLIT}"
reason = "not written yet"

[[known]]
vector = "v-other"
suite = "fftcg-default"
field = "state.players[*]"
reason = "the damage of a lone Forward"
"""))
    outcome = classify(results, known)
    assert {r.vector: r.verdict for r in outcome.results} == {
        "v-split": "known", "v-block": "known", "v-other": "known", "v-ok": "pass"}
    assert run_passed(outcome.results) and suspects(outcome.results, outcome.differences) == []


def test_a_vector_with_a_known_and_an_unknown_difference_still_fails_on_the_unknown_one(tmp_path: Path) -> None:
    result = vector("v", "fail", record(2, "split a1 1", "$.players[1].damage", "1", "2", (SPLIT,)),
                    record(5, "block f1 a1", "legal actions", "[a]", "[]", (BLOCK,)))
    known = parse_known({"format": "cardrules-known/1", "known": [
        {"clause": SPLIT, "field": "state.players[*].damage", "reason": "r"}]}, "k.toml")
    outcome = classify([result], known)
    assert outcome.results[0].verdict == "fail"
    assert [s.verdict for s in outcome.differences] == ["known", "fail"]
    assert suspects(outcome.results, outcome.differences) == [BLOCK]


@pytest.mark.parametrize(("body", "message"), [
    ('[[known]]\nvector = "v"\n', "known.toml: known[0].reason: 'reason' is a required property"),
    ('[[known]]\nvector = "v"\nclause = "FF-BASE-BLOCK"\nreason = "r"\n',
     "known.toml: known[0]: gives both 'vector' and 'clause'"),
    ('[[known]]\nreason = "r"\n', "known.toml: known[0]: needs one of 'vector' and 'clause'"),
    ('[[known]]\nclause = "FF-NO-SUCH"\nreason = "r"\n', "known.toml: known[0].clause: unknown clause 'FF-NO-SUCH'"),
    ('[[known]]\nvector = "v"\nreason = "r"\n[[known]]\nvector = "w"\nreason = "r"\nwhy = "x"\n',
     "known.toml: known[1].why: Additional properties are not allowed"),
    ('[[known]]\nclause = "FF-BASE-BLOCK"\naction = "split a1"\nreason = "r"\n',
     "known.toml: known[0].action: 'split a1' is not one word"),
    ('[[known]]\nvector = "v"\nreason = ""\n', "known.toml: known[0].reason: '' should be non-empty"),
])
def test_each_problem_is_one_line_naming_the_file_the_entry_and_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, message: str
) -> None:
    path = known_file(tmp_path, body)
    with pytest.raises(KnownError) as error:
        load_known(path)
    assert str(error.value).replace(str(tmp_path) + "/", "").startswith(message)
    code = main(["conformance", "run", "--quiet", "--adapter", "true", "--suite", str(tmp_path), "--known", str(path)])
    err = capsys.readouterr().err
    assert code == 3 and len(err.splitlines()) == 1 and "Traceback" not in err


def test_a_file_of_another_format_or_not_toml_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "known.toml"
    path.write_text('format = "cardrules-known/2"\nknown = []\n')
    with pytest.raises(KnownError, match=r"known.toml: format: 'cardrules-known/1' was expected"):
        load_known(path)
    path.write_text("format = \n")
    assert main(["conformance", "run", "--quiet", "--adapter", "true", "--known", str(path)]) == 3
    assert "known.toml" in capsys.readouterr().err
