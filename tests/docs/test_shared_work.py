"""The site's expensive work done once per build (``docs/_ext/cardrules_shared.py``), without a site build:
which work the pages ask for, that worker processes give the directives' own results, and that the area
pages' conformance examples are the vectors ``cardrules conformance generate`` chooses."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cardrules.oracle.conformance.generate import generate_suite
from cardrules.oracle.conformance.plan import make_plan
from cardrules.specs.catalogue import default_catalogue
from tests.docs.extensions import docs_extension

pytestmark = pytest.mark.infrastructure("the spec site's shared build work")


SHARED = docs_extension("cardrules_shared")
EXAMPLES = docs_extension("cardrules_examples")
CHANGES = docs_extension("cardrules_changes")


def test_the_work_is_read_from_the_pages_directives_with_the_pages_that_need_it(tmp_path: Path) -> None:
    (tmp_path / "change.rst").write_text(
        "Title\n=====\n\n.. cardrules-version-diff:: heal\n\n"
        ".. cardrules-rule-diff:: heal=previous heal=revised\n\n"
        "   .. cardrules-rule-diff:: heal=previous heal=revised\n\n"  # the same diff twice: done once
        ".. cardrules-version-diff::\n")  # no area: no work (the directive reports the missing argument)
    (tmp_path / "again.rst").write_text(".. cardrules-version-diff:: heal\n")
    # the vectors are shown on each clause's own page of formal content: one per clause of the catalogue
    areas = {f"areas/{clause.id.lower()}" for clause in default_catalogue().clauses}
    assert "areas/red-sb-once-per-turn" in areas and "areas/ff-party-split-thousands" in areas
    assert SHARED.wanted(tmp_path) == {
        ("suite", "fftcg", ()): areas,
        ("suite", "redemption", (("heal", ("revised",)),)): areas,
        ("suite", "redemption", (("heal", ("previous",)),)): areas,
        ("rule-diff", "heal=previous", "heal=revised"): {"change"},
        ("version-diff", "heal"): {"again", "change"},
    }


@pytest.mark.slow
def test_worker_processes_give_the_directives_own_lines_and_leave_the_rest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = {("version-diff", "no-such-area"): frozenset({"change"}), ("version-diff", "heal"): frozenset({"change"}),
            ("rule-diff", "heal=previous", "heal=revised"): frozenset({"elsewhere"})}
    monkeypatch.setattr(SHARED, "wanted", lambda srcdir: work)
    SHARED.start(SimpleNamespace(srcdir=str(tmp_path)))
    SHARED.finish(None, None, ["change", "index"])
    try:
        assert set(SHARED._done) == {("version-diff", "heal")}  # the diff no page to read needs was stopped,
        # and the failed piece is left to its page, which computes it and says what is wrong
        lines = SHARED._done[("version-diff", "heal")]
        # both wordings are consistent alone; read as one text they clash (the heal-revision page says so)
        assert sum("consistent (z3 finds no situation" in line for line in lines) == 2
        assert any(line.startswith("``previous`` and ``revised`` read as one text: ") for line in lines)
        assert lines == CHANGES.version_diff_lines("heal")
    finally:
        SHARED._done.clear()


def _in_a_fresh_interpreter(name: str, *arguments: Any) -> Any:
    """``name(*arguments)`` run in a new interpreter: a suite's vectors depend on what the model has
    cached from earlier runs in the same process (see ``cardrules_shared``), so each is computed afresh."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(_call, (name, arguments))


def _call(name: str, arguments: tuple[Any, ...]) -> Any:
    if name == "suite_vectors":
        return docs_extension("cardrules_examples").suite_vectors(*arguments)
    suite = generate_suite(make_plan(*arguments), seed=0).suite
    assert suite is not None
    return suite["suite"], suite["vectors"]


@pytest.mark.slow
def test_the_area_pages_examples_are_the_play_and_refusal_vectors_conformance_generate_chooses() -> None:
    suite_id, vectors = _in_a_fresh_interpreter("suite_vectors", "fftcg", ())
    generated_id, generated = _in_a_fresh_interpreter("generate_suite", "fftcg", {}, {})
    assert suite_id == generated_id == "fftcg-default"
    chosen = [v for v in generated if v["kind"] in ("play", "refusal")]
    assert len(vectors) > 20 and vectors == [_without_v4(v) for v in chosen]


def _without_v4(vector: dict[str, Any]) -> dict[str, Any]:
    """A suite's vector without what ``cardrules-vectors/4`` adds to it (``requires``, each step's
    ``observable``), which the site does not show."""
    out = {key: value for key, value in vector.items() if key != "requires"}
    if "steps" in vector:
        out["steps"] = [{k: v for k, v in step.items() if k != "observable"} for step in vector["steps"]]
    return out
