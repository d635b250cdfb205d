"""cardrules.oracle.conformance.differential: another engine checked in lockstep against the reference model."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

from cardrules.oracle.conformance.differential import Divergence, differential_machine, first_difference
from cardrules.properties.games import make_game
from cardrules.properties.scenarios import parse_rule_set


class ModelAsEngine:
    """An engine built on the reference model under some rule set (a correct or a wrong one)."""

    def __init__(self, decisions: dict[str, str] | None = None, broken: tuple[str, ...] = ()) -> None:
        spec = parse_rule_set({"name": "engine", "decisions": decisions or {}}, "engine", mutant=False)
        self.game = make_game("fftcg", replace(spec, broken=broken))  # broken: verify's broken variants

    def from_json(self, data: Any) -> Any:
        return self.game.state_from_json(data)

    def legal_actions(self, state: Any) -> list[str]:
        return [self.game.action_text(a) for a in self.game.legal_actions(state)]

    def step(self, state: Any, action: str) -> Any:
        return self.game.step(state, self.game.action_from_text(action))

    def to_json(self, state: Any) -> Any:
        return self.game.state_to_json(state)


FAST = settings(max_examples=40, stateful_step_count=12, deadline=None,
                suppress_health_check=[HealthCheck.too_slow], database=None)


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS")
def test_the_reference_model_passes_against_itself() -> None:
    machine = differential_machine(ModelAsEngine(), game="fftcg", scenario="fftcg-party-basics")
    run_state_machine_as_test(machine, settings=FAST)


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS")
def test_an_engine_splitting_blocker_damage_in_hundreds_is_caught_on_the_split_clause() -> None:
    # A blocker's damage to a party is split in multiples of 1000 (seed 003);
    # an engine that allows splits in hundreds offers more split actions as soon
    # as a blocked party reaches damage resolution: attack, pass, block, pass.
    wrong = ModelAsEngine(broken=("party-split-in-hundreds",))
    machine = differential_machine(wrong, game="fftcg", scenario="fftcg-party-basics")
    with pytest.raises(Divergence) as caught:
        # derandomized: the verdict must not depend on the run's random seed
        run_state_machine_as_test(machine, settings=settings(FAST, max_examples=300, derandomize=True))
    divergence = caught.value
    assert "legal actions differ" in divergence.what
    assert "FF-PARTY-SPLIT-THOUSANDS" in divergence.clause_ids
    assert divergence.actions[0].startswith("attack ")  # a party attack ...
    assert any(a.startswith("block ") for a in divergence.actions)  # ... that was blocked
    assert len(divergence.actions) <= 5  # shrunk to the shortest road to a split


@pytest.mark.infrastructure("how a difference between two states is reported")
def test_first_difference_names_the_json_path() -> None:
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}) == ("state.a[1].b", 2, 3)
    assert first_difference({"a": 1}, {"a": 1}) is None
    assert first_difference({"a": 1}, {}) == ("state.a", 1, "(missing)")
    assert first_difference([1, 2], [1]) == ("state (length)", 2, 1)
    assert first_difference(1, True) == ("state", 1, True)
