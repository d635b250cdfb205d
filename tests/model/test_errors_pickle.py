"""The model's errors cross to another process as themselves (the conformance generator's workers carry
recorded refusals): pickled and unpickled, a refusal keeps its action, reason and clauses, and a malformed
input its path and problem."""

from __future__ import annotations

import pickle

import pytest

from cardrules.model.errors import IllegalAction, ScenarioError

pytestmark = pytest.mark.infrastructure("the model's errors pickle (worker processes)")


def test_a_refusal_is_unpickled_with_its_clauses() -> None:
    refused = IllegalAction("attack a1", "a dull character cannot attack", ("FF-BASE-CAN-ATTACK",))
    again = pickle.loads(pickle.dumps(refused))
    assert type(again) is IllegalAction
    assert (again.action, again.reason, again.clause_ids) == ("attack a1", "a dull character cannot attack",
                                                             ("FF-BASE-CAN-ATTACK",))
    assert str(again) == "illegal action attack a1: a dull character cannot attack [FF-BASE-CAN-ATTACK]"


def test_a_malformed_input_is_unpickled_with_its_path() -> None:
    again = pickle.loads(pickle.dumps(ScenarioError("players[1].power", "expected an integer")))
    assert (again.where, again.problem, str(again)) == ("players[1].power", "expected an integer",
                                                        "players[1].power: expected an integer")
