"""Small generated suites shared by the conformance tests (generated once per session)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cardrules.oracle.conformance.generate import SuiteResult, generate_suite
from cardrules.oracle.conformance.output import write_suites
from cardrules.oracle.conformance.plan import make_plan
from cardrules.properties.scenarios import load_scenarios

ADAPTERS = Path(__file__).parent / "adapters"
REFERENCE = [sys.executable, "-m", "cardrules.oracle.cli", "conformance", "adapter"]
SMALL = {"fftcg": 400, "redemption": 40}


def small_results() -> list[SuiteResult]:
    """FFTCG default (bounds as shipped), Redemption heal=previous and one FFTCG option (small bounds)."""
    scenarios = load_scenarios()
    plans = [
        (make_plan("fftcg", {}, {}), SMALL),
        (make_plan("redemption", {"heal": ("previous",)}, {}), SMALL),
        (make_plan("fftcg", {}, {"party-disband-timing": "after-damage-resolution"}), {"fftcg": 120}),
    ]
    return [generate_suite(plan, scenarios, seed=0, max_states=bounds) for plan, bounds in plans]


@pytest.fixture(scope="session")
def suites_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("conformance") / "suites"
    write_suites(out, small_results(), seed=0)
    return out


@pytest.fixture(scope="session")
def fftcg_suite(suites_dir: Path) -> Path:
    return suites_dir / "fftcg-default.json"
