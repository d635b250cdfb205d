"""Keep-going after a step the engine answers with a failure: an ``unsupported`` (or ``error``) answer to a
step's ``apply`` is recorded with its own verdict, the engine is loaded with the vector's expected state
after that step, and the rest of the vector is checked, as after a wrong answer."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from cardrules.oracle.conformance.known import classify
from cardrules.oracle.conformance.report import later_lines, run_passed
from cardrules.oracle.conformance.runner import run_adapter
from cardrules.oracle.conformance.schema import load_suite

from .conftest import ADAPTERS

NO_BLOCK = "noblock"


def answering(kind: str, **more: Any) -> list[str]:
    """An engine answering every ``noblock`` with ``{"ok":false,"error":kind}`` (the reference model otherwise;
    ``plant="p1-damage"``: also showing one more damage for player 1 whenever P1 has damage)."""
    spec = {"fail_on": {"word": NO_BLOCK, "error": kind}, **more}
    return [sys.executable, str(ADAPTERS / "protocol_declaring.py"), json.dumps(spec)]


def no_block_steps(vector: dict[str, Any]) -> list[int]:
    return [n for n, step in enumerate(vector["steps"], 1) if step["action"] == NO_BLOCK]


def with_no_block_before_the_end(suite: dict[str, Any]) -> dict[str, Any]:
    """The suite's play vectors with a ``noblock`` step that is not their last (so steps after it are checked)."""
    chosen = [v for v in suite["vectors"] if v["kind"] == "play" and no_block_steps(v)
              and no_block_steps(v)[0] < len(v["steps"])]
    return {**suite, "vectors": chosen[:12]}


@pytest.mark.clause("FF-BASE-BLOCK")
def test_an_unsupported_step_is_recorded_and_the_vector_goes_on_to_its_end(fftcg_suite: Path) -> None:
    suite = with_no_block_before_the_end(load_suite(fftcg_suite))
    assert suite["vectors"]
    going = run_adapter(answering("unsupported"), [suite], 30).results
    stopping = run_adapter(answering("unsupported"), [suite], 30, keep_going=False).results
    for vector, kept, stopped in zip(suite["vectors"], going, stopping):
        steps = no_block_steps(vector)
        # every noblock is answered unsupported, each recorded at its own step; the others pass on the
        # reloaded expected states, so the vector is set apart as unsupported, not failed
        assert [d.step for d in kept.differences] == steps, vector["id"]
        assert {d.verdict for d in kept.differences} == {"unsupported"}
        assert kept.verdict == "unsupported" and kept.step == steps[0]
        assert kept.got.startswith("unsupported: this engine has no 'noblock' action")
        # the start and every step but the noblock ones were checked and found equal
        assert len(kept.passed_steps) == 1 + len(vector["steps"]) - len(steps)
        # without keep-going the vector ends at its first noblock, with the same verdict
        assert stopped.verdict == "unsupported" and [d.step for d in stopped.differences] == steps[:1]
        assert len(stopped.passed_steps) == steps[0]


@pytest.mark.clause("FF-BASE-BLOCK")
def test_an_error_answer_is_an_error_at_every_step_it_shows(fftcg_suite: Path) -> None:
    suite = with_no_block_before_the_end(load_suite(fftcg_suite))
    results = run_adapter(answering("internal"), [suite], 30).results
    for vector, result in zip(suite["vectors"], results):
        assert result.verdict == "error"
        assert [(d.step, d.verdict) for d in result.differences] == [(n, "error") for n in no_block_steps(vector)]
    # an error counts against the run, unlike an unsupported answer
    assert not run_passed(classify(results).results)


@pytest.mark.clause("FF-BASE-UNBLOCKED-DAMAGE", "FF-BASE-BLOCK")
def test_a_wrong_answer_after_an_unsupported_step_still_fails_the_vector(fftcg_suite: Path) -> None:
    # An unblocked attack deals damage: after the unsupported noblock the runner loads the expected state,
    # and from the first step where player 1 has damage the planted engine shows one too many.
    suite = with_no_block_before_the_end(load_suite(fftcg_suite))
    damaged = [v for v in suite["vectors"]
               if any(s["state"]["players"][1]["damage"] > 0 for s in v["steps"][no_block_steps(v)[0]:])]
    assert damaged
    suite = {**suite, "vectors": damaged}
    results = run_adapter(answering("unsupported", plant="p1-damage"), [suite], 30).results
    for vector, result in zip(damaged, results):
        no_block = no_block_steps(vector)
        shown = [n for n, s in enumerate(vector["steps"], 1) if s["state"]["players"][1]["damage"] > 0
                 and n not in no_block]
        assert result.verdict == "fail", vector["id"]
        assert [d.step for d in result.differences if d.verdict == "unsupported"] == no_block
        assert [d.step for d in result.differences if d.verdict == "fail"] == shown
        # the headline is the first wrong answer, the unsupported step is listed with the others, tagged
        assert result.step == shown[0] and result.where.endswith("state $.players[1].damage")
        lines = later_lines(result, classify([result]).differences)
        assert sum("[unsupported]" in line for line in lines) == len(no_block)
        assert len(lines) == len(result.differences)  # a heading, then every difference but the headline
