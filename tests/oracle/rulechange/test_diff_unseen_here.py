"""An option whose play no embedded scenario or named scope reaches: ``cardrules diff`` finds no difference
and says why, from the catalogue's ``unseen_here`` (so "no difference" is not read as "the same play")."""

from __future__ import annotations

import json

import pytest

from tests.cli import run_cli


@pytest.mark.clause("RED-RD-NUMBERS-IN-BATTLE-ONLY")
def test_no_difference_under_a_reading_unseen_here_says_why() -> None:
    run = run_cli("diff", "default", "rd-numbers-loss-lasting=lost-for-good", "--scenario", "redemption-heal-and-redirect",
                  "--no-smt")
    assert run.code == 0, run.out
    assert "Why no position here shows rd-numbers-loss-lasting=lost-for-good: It needs the target card to leave battle" \
        in run.out
    report = json.loads(run_cli("diff", "default", "rd-numbers-loss-lasting=lost-for-good", "--scenario",
                                "redemption-heal-and-redirect", "--no-smt", "--json").out)
    assert list(report["unseen_here"]) == ["rd-numbers-loss-lasting=lost-for-good"]


@pytest.mark.clause("RED-BASE-BLOCKING")
def test_a_reading_that_differs_prints_no_such_note() -> None:
    report = json.loads(run_cli("diff", "default", "red-base-unblocked=play-continues", "--scenario",
                                "redemption-plain-battle", "--no-smt", "--json").out)
    assert report["differs"] and report["unseen_here"] == {}
