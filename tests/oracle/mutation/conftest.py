"""The small FFTCG suite the mutation tests share: the default rule set over the single-attacker positions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardrules.oracle.conformance.generate import generate_suite
from cardrules.oracle.conformance.plan import make_plan
from cardrules.properties.scenarios import load_scenario

POSITIONS = Path(__file__).parents[1] / "conformance" / "node_subset"


@pytest.fixture(scope="session")
def small_suite() -> dict[str, Any]:
    scenario = load_scenario(POSITIONS / "node-subset-single-attackers.json")
    result = generate_suite(make_plan("fftcg", {}, {}), [scenario], seed=0, max_states={"fftcg": 2000})
    assert result.suite is not None
    return result.suite
