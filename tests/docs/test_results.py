"""The result files of docs/results/ read, and every page's ``cardrules-results`` directive names one.

Read with the site extension's own reader (``docs/_ext/cardrules_results.py``), so no site build
is needed: a malformed file, or a page naming a file that does not exist, fails here first.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from docutils.core import publish_doctree
from docutils.nodes import system_message

from tests.paths import REPO

pytestmark = pytest.mark.infrastructure("the measured figures the docs render from docs/results/")

DOCS = REPO / "docs"


def _extension() -> ModuleType:
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        return importlib.import_module("cardrules_results")
    finally:
        sys.path.pop(0)


results = _extension()
FILES = sorted(results.RESULTS_DIR.glob("*.toml"))


def test_there_are_result_files_and_they_live_in_docs_results() -> None:
    assert results.RESULTS_DIR == DOCS / "results"
    assert {"side_by_side", "parallel", "verify_time", "crosscheck_rate", "mutation_score"} <= {f.stem for f in FILES}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_result_file_is_valid(path: Path) -> None:
    result = results.read_result(path.stem)
    assert result.rows and result.columns
    for text in [result.note or "", *(g.goal for g in result.goals), *(g.figure for g in result.goals)]:
        tree = publish_doctree(text, settings_overrides={"report_level": 5, "halt_level": 5})
        problems = [m.astext() for m in tree.findall(system_message)]
        assert not problems, f"{path}: bad inline markup in {text!r}: {problems}"


def test_every_directive_names_an_existing_result_file() -> None:
    pages = sorted(DOCS.glob("*.rst"))
    named = {page.name: results.referenced_results(page.read_text()) for page in pages}
    assert named["performance.rst"] and named["conformance.rst"]
    for page, names in named.items():
        for name in names:
            assert (results.RESULTS_DIR / f"{name}.toml").is_file(), f"docs/{page} names docs/results/{name}.toml"


def test_a_malformed_file_is_refused_naming_the_file_and_the_field(tmp_path: Path) -> None:
    good = 'measured = 2026-12-01\ncommand = "python3 benchmarks/verify.py"\nmachine = "idle"\ncolumns = ["a", "b"]\n'
    cases = {
        "rows": good,
        "rows[0]": good + "rows = [[1]]\n",
        "machine": good.replace('"idle"', '"busy"') + "rows = [[1, 2]]\n",
        "measured": good.replace("2026-12-01", '"2026-12-01"') + "rows = [[1, 2]]\n",
        "colour": good + "rows = [[1, 2]]\ncolour = 1\n",
        "goal[0]": good + 'rows = [[1, 2]]\n[[goal]]\ngoal = "g"\n',
    }
    for field, text in cases.items():
        (tmp_path / "bad.toml").write_text(text)
        with pytest.raises(results.ResultError, match=r"bad\.toml: field '" + re.escape(field) + "'"):
            results.read_result("bad", tmp_path)
    with pytest.raises(results.ResultError, match=r"missing\.toml: no such result file"):
        results.read_result("missing", tmp_path)


def test_a_missing_file_is_said_plainly_on_the_page(tmp_path: Path) -> None:
    with pytest.raises(results.ResultMissing):
        results.read_result("not_measured_yet", tmp_path)
    text = results.missing_paragraph("not_measured_yet").astext()
    assert text.startswith("No figures are recorded here yet")
    assert "docs/results/not_measured_yet.toml" in text and "--record" in text
