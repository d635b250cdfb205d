"""The Sphinx site builds with warnings as errors and renders every clause."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from cardrules.specs.catalogue import default_catalogue

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_docs_build_with_warnings_as_errors_and_anchor_every_clause(tmp_path: Path) -> None:
    out = tmp_path / "html"
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    catalogue = default_catalogue()
    for area in catalogue.areas:
        page = (out / "areas" / f"{area.id}.html").read_text()
        for clause in catalogue.select(area=area.id):
            assert f'id="clause-{clause.id.lower()}"' in page, f"{clause.id} has no anchor on {area.id}.html"
            assert clause.id in page
        for clause in catalogue.select(area=area.id):
            for decision in clause.decisions:
                assert decision.id in page
    trace = (out / "traceability.html").read_text()
    assert all(c.id in trace for c in catalogue.clauses)
    # the rule-change page shows both wordings consistent alone and the redline's clashes together
    revision = (out / "heal-revision.html").read_text()
    assert revision.count("consistent (z3 finds no situation") == 2
    assert "5 minimal sets of clauses that cannot all hold" in revision
    properties = (out / "properties.html").read_text()
    assert "one-side-battle-per-player-per-turn" in properties and "party-min-two" in properties
    scenarios = (out / "scenarios.html").read_text()
    assert "fftcg-party-basics" in scenarios and "split-in-hundreds" in scenarios
