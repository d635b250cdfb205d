"""``conformance run --live``: bad input is one line and exit 3, before any suite is generated."""

from __future__ import annotations

import json
import sys

import pytest

import cardrules.model.fftcg.config as fftcg_config
from cardrules.oracle.cli import main

from .conftest import ADAPTERS


@pytest.mark.infrastructure("--live computes its suites: a --suite beside it is bad input")
def test_live_with_a_suite_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conformance", "run", "--quiet", "--live", "--adapter", "true", "--suite", "conformance"])
    assert code == 3
    assert "--suite" in capsys.readouterr().err


@pytest.mark.clause("FF-BASE-ATTACK-STEPS")
def test_a_reading_the_model_cannot_select_is_named(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # every FFTCG reading is selectable today: pretend alternating-priority is recorded only
    monkeypatch.setattr(fftcg_config, "UNMODELLED_OPTIONS", frozenset({("ff-step-passing", "alternating-priority")}))
    spec = {"games": {"fftcg": {"features": [], "readings": {"ff-step-passing": "alternating-priority"}}}}
    adapter = f"{sys.executable} {ADAPTERS / 'protocol_declaring.py'} '{json.dumps(spec)}'"
    code = main(["conformance", "run", "--quiet", "--live", "--adapter", adapter])
    err = capsys.readouterr().err
    assert code == 3
    assert "ff-step-passing" in err and "alternating-priority" in err and len(err.strip().splitlines()) == 1
