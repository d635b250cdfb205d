"""The Markdown minutes shown in the proposing guide are what ``cardrules diff --markdown`` writes today."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli import run_cli
from tests.paths import REPO

EXAMPLE = REPO / "docs" / "examples" / "heal-minutes.md"
COMMAND = ("diff", "heal=previous", "heal=revised", "--scenario", "redemption-heal-windows-taken",
           "--scope", "docs/examples/heal-owner-scope.toml", "--no-smt", "--quiet")
"""The command docs/proposing.rst names (run from the checkout), with ``--markdown docs/examples/heal-minutes.md``."""


@pytest.mark.slow
@pytest.mark.clause("RED-HEAL-NOT-IN-DISCARD-PILE", "RED-HEAL-TO-PERMANENT-CONTROLLER")
def test_the_minutes_example_is_regenerated_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    fresh = tmp_path / "minutes.md"
    result = run_cli(*COMMAND, "--markdown", str(fresh))
    assert result.code == 1, result.err
    assert fresh.read_text() == EXAMPLE.read_text(), (
        "docs/examples/heal-minutes.md is stale: regenerate it with the command in docs/proposing.rst")
    text = fresh.read_text()
    # hand-checked: the discard-pile refusal and the heal destination each make a class of their own
    assert "Decisive clause: RED-HEAL-NOT-IN-DISCARD-PILE." in text
    assert "Decisive clause: RED-HEAL-PREV-TO-OWNER (A) / RED-HEAL-TO-PERMANENT-CONTROLLER (B)." in text
    assert text.index("## Summary") < text.index("## Classes of difference")


@pytest.mark.infrastructure("the generated minutes example of the docs")
def test_the_proposing_guide_names_the_command_and_includes_the_file() -> None:
    page = " ".join((REPO / "docs" / "proposing.rst").read_text().split())
    assert "cardrules diff " + " ".join(COMMAND[1:]) + " --markdown docs/examples/heal-minutes.md" in page
    assert ".. literalinclude:: examples/heal-minutes.md" in page

