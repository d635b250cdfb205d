"""The runner's report shows what an engine author needs: one block of whole lines per failure, the missing and
extra legal actions in full, a perft failure's divide, and ``unsupported`` vectors counted apart (no failure,
no suspect, exit 0 when the rest pass)."""

from __future__ import annotations

import io
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from cardrules.oracle.cli import main
from cardrules.oracle.conformance.report import (
    VALUE_LINES, print_report, results_json, run_passed, suspects, write_junit,
)
from cardrules.oracle.conformance.runner import VectorResult, run_vector
from cardrules.oracle.conformance.schema import load_suite

from .conftest import ADAPTERS

pytestmark = pytest.mark.infrastructure("the conformance runner's reports and exit status")

OPTION_SUITE = "fftcg-party-disband-timing-after-damage-resolution.json"
UNSUPPORTED = [sys.executable, str(ADAPTERS / "unsupported_options.py")]
PARTY_BUG = [sys.executable, str(ADAPTERS / "party_damage_per_member.py")]


def report_of(results: list[VectorResult]) -> str:
    out = io.StringIO()
    print_report(results, out)
    return out.getvalue()


def failed(number: int, **fields: Any) -> VectorResult:
    """A made-up failure of vector ``v{number}``."""
    values: dict[str, Any] = {"where": f"step 3 state $.players[0].hand[{number}]", "step": 3,
                              "expected": f"E{number}-" + "e" * 500, "got": f"G{number}-" + "g" * 700,
                              "blamed": ("FF-BASE-BLOCK",)}
    values.update(fields)
    return VectorResult("suite-a", f"v{number}", "play", ("FF-BASE-BLOCK",), "fail", **values)


class _Changed:
    """The reference model in-process, with ``drop`` never offered and ``extra`` offered too."""

    fresh = False

    def __init__(self, drop: str, extra: tuple[str, ...] = ()) -> None:
        from cardrules.oracle.mutation.checks import InProcessAdapter

        self.inner, self.drop, self.extra = InProcessAdapter(), drop, extra

    def request(self, message: dict, deadline: float) -> dict:
        reply = self.inner.request(message, deadline)
        if message.get("op") == "legal_actions" and reply.get("ok"):
            reply["actions"] = [a for a in reply["actions"] if a != self.drop] + list(self.extra)
        return reply

    def close(self) -> None:
        pass


def test_several_long_failures_get_a_block_each_with_every_line_whole() -> None:
    results = [failed(n) for n in range(11)] + [VectorResult("suite-a", "ok", "play", ("FF-BASE-BLOCK",), "pass")]
    text = report_of(results)
    lines = text.splitlines()
    for n in range(11):
        heading = f"  fail suite-a v{n} step 3"
        assert lines.count(heading) == 1, text
        block = lines[lines.index(heading) + 1: lines.index(heading) + 5]
        assert block == [f"    where:    step 3 state $.players[0].hand[{n}]",
                         f"    expected: E{n}-" + "e" * 500,
                         f"    got:      G{n}-" + "g" * 700,
                         "    blamed:   FF-BASE-BLOCK"]
    assert sum(line.startswith("    got:") for line in lines) == 11
    assert lines[-1] == "1/12 vectors passed: 1 pass, 11 fail; suspect clauses: FF-BASE-BLOCK"


def test_a_value_with_line_breaks_keeps_them_and_a_very_long_one_is_cut_at_a_line_boundary() -> None:
    stderr = [f"line {n} of the adapter's standard error" for n in range(VALUE_LINES + 10)]
    crash = VectorResult("suite-a", "v1", "play", ("FF-BASE-BLOCK",), "crashed", where="adapter",
                         got="the adapter exited (exit status 1); stderr: " + "\n".join(stderr))
    lines = report_of([crash]).splitlines()
    first = lines.index("    got:      the adapter exited (exit status 1); stderr: line 0 of the adapter's standard error")
    assert lines[first + 1: first + VALUE_LINES] == [" " * 14 + line for line in stderr[1:VALUE_LINES]]
    rest = sum(len(line) + 1 for line in stderr[VALUE_LINES:])
    assert lines[first + VALUE_LINES] == " " * 14 + f"... ({rest} more characters; see --json)"


def test_a_legal_actions_failure_shows_the_missing_and_extra_actions_in_full(fftcg_suite: Path, tmp_path: Path) -> None:
    suite = load_suite(fftcg_suite)
    vector = next(v for v in suite["vectors"] if v["kind"] == "play" and "end-turn" in v["legal_actions"])
    extra = tuple(f"concede {n} " + "x" * 300 for n in range(3))
    result = run_vector(_Changed("end-turn", extra), suite, vector, 60)
    assert (result.verdict, result.where, result.missing, result.extra) == (
        "fail", "start legal actions", ("end-turn",), tuple(sorted(extra)))
    lines = report_of([result]).splitlines()
    at = lines.index("    missing actions (1):")
    assert lines[at + 1: at + 6] == ["      end-turn", "    extra actions (3):", *(f"      {a}" for a in sorted(extra))]
    entry = results_json([result], "x", ["s"])["vectors"][0]
    assert (entry["missing"], entry["extra"]) == (["end-turn"], sorted(extra))
    write_junit([result], str(tmp_path / "junit.xml"))
    failure = ET.parse(tmp_path / "junit.xml").getroot().find(".//failure")
    text = "" if failure is None else failure.text or ""
    assert "\n  missing actions (1):\n    end-turn\n" in text and f"\n    {extra[2]}\n" in text


def test_a_perft_failure_shows_the_divide_of_the_first_actions(fftcg_suite: Path) -> None:
    suite = load_suite(fftcg_suite)
    vector = next(v for v in suite["vectors"] if v["kind"] == "perft" and v["depth"] > 1 and "end-turn" in v["divide"])
    result = run_vector(_Changed("end-turn"), suite, vector, 60)
    assert (result.verdict, result.where, result.missing, result.extra) == ("fail", "perft node counts", ("end-turn",), ())
    assert result.divide and all(vector["divide"][a] == want != got for a, want, got in result.divide)
    text = report_of([result])
    assert "    perft divide, actions from the start position whose counts differ:" in text
    action, want, got = result.divide[0]
    row = next(line for line in text.splitlines() if line.startswith(f"      {action} "))
    assert row.split() == [*action.split(), "expected", str(want), "got", str(got)]
    assert results_json([result], "x", ["s"])["vectors"][0]["divide"][0] == {"action": action, "expected": want, "got": got}


def test_the_divide_row_of_a_made_up_failure() -> None:
    result = failed(1, where="perft node counts", expected="[13,97]", got="[12,85]", step=0, missing=("end-turn",),
                    divide=(("remove a1", 8, 7), ("remove b1", 12, 11)))
    text = report_of([result])
    assert ("    missing actions (1):\n      end-turn\n"
            "    perft divide, actions from the start position whose counts differ:\n"
            "      remove a1  expected  8  got 7\n      remove b1  expected 12  got 11\n") in text


def test_an_engine_without_the_decision_options_passes_with_those_vectors_unsupported(
    suites_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suites = ["--suite", str(suites_dir / "fftcg-default.json"), "--suite", str(suites_dir / OPTION_SUITE)]
    junit = suites_dir.parent / "unsupported-junit.xml"
    assert main(["conformance", "run", "--quiet", "--adapter", " ".join(UNSUPPORTED), *suites, "--json",
                 "--junit", str(junit)]) == 0
    report = json.loads(capsys.readouterr().out)
    unsupported = {v["vector"] for v in report["vectors"] if v["verdict"] == "unsupported"}
    option = load_suite(suites_dir / OPTION_SUITE)
    assert unsupported == {v["id"] for v in option["vectors"]}
    assert report["summary"]["pass"] == report["summary"]["counted"] == report["summary"]["vectors"] - len(unsupported)
    assert report["summary"]["passed"] is True and report["suspects"] == []
    assert all(c["failed"] == 0 for c in report["clauses"])
    assert len(ET.parse(junit).getroot().findall(".//skipped")) == len(unsupported)
    assert main(["conformance", "run", "--quiet", "--adapter", " ".join(UNSUPPORTED), *suites]) == 0
    text = capsys.readouterr().out
    assert "\nunsupported (not counted: no failure, no suspect):\n" in text
    assert f"  {option['suite']}: {len(unsupported)} vectors, load: unsupported: " in text
    last = text.splitlines()[-1]
    assert last == (f"{report['summary']['pass']}/{report['summary']['pass']} vectors passed: "
                    f"{report['summary']['pass']} pass, 0 fail, {len(unsupported)} unsupported (not counted)")
    assert "suspect" not in last and "vectors that did not pass" not in text


@pytest.mark.clause("FF-PARTY-UNBLOCKED-ONE")
def test_a_real_failure_among_unsupported_vectors_still_fails_and_is_the_only_suspect(
    suites_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    adapter = " ".join(UNSUPPORTED + PARTY_BUG)
    suites = ["--suite", str(suites_dir / "fftcg-default.json"), "--suite", str(suites_dir / OPTION_SUITE)]
    assert main(["conformance", "run", "--quiet", "--adapter", adapter, *suites, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    verdicts = {v["verdict"] for v in report["vectors"]}
    assert verdicts == {"pass", "fail", "unsupported"} and report["summary"]["passed"] is False
    assert report["suspects"] == ["FF-PARTY-UNBLOCKED-ONE"]
    unsupported = {v["vector"] for v in report["vectors"] if v["verdict"] == "unsupported"}
    assert not unsupported & {name for c in report["clauses"] for name in c["failed_vectors"]}


def test_a_run_where_nothing_passed_fails_even_if_nothing_failed() -> None:
    unsupported = [VectorResult("suite-b", f"u{n}", "play", ("FF-BASE-BLOCK",), "unsupported", where="load",
                                expected="ok", got="unsupported: no", blamed=("FF-BASE-BLOCK",)) for n in range(5)]
    assert not run_passed(unsupported) and suspects(unsupported) == []
    assert report_of(unsupported).splitlines()[-1] == ("0/0 vectors passed: 0 pass, 0 fail, 5 unsupported (not counted)"
                                                       "; no vector was checked (every one unsupported): the run fails")
    passing = VectorResult("suite-a", "p", "play", ("FF-BASE-BLOCK",), "pass")
    assert run_passed([passing, *unsupported]) and not run_passed([passing, failed(1), *unsupported])
    assert suspects([passing, failed(1), *unsupported]) == ["FF-BASE-BLOCK"]
