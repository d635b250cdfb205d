"""The model's fast ``replace`` gives what ``dataclasses.replace`` gives: a new, frozen,
hashable value of the same class with the named fields changed, the original untouched."""

from __future__ import annotations

import dataclasses

import pytest

from cardrules.model.errors import ScenarioError
from cardrules.model.fftcg.state import Attack, Forward, Player, State, Step, replace
from cardrules.model.fftcg.validate import load_state

pytestmark = pytest.mark.infrastructure("the model's fast copy of its frozen values (a speed device, no rule clause)")


def _cloud() -> Forward:
    return Forward(id="a1", name="Cloud", elements=frozenset({"fire"}), cost=3, power=7000)


def test_replace_changes_only_the_named_fields_and_leaves_the_original() -> None:
    cloud = _cloud()
    hash(cloud)  # a cached hash on the original must not leak into the copy
    dulled = replace(cloud, dull=True, damage=2000)
    assert type(dulled) is Forward
    assert (dulled.dull, dulled.damage, dulled.power, dulled.id) == (True, 2000, 7000, "a1")
    assert (cloud.dull, cloud.damage) == (False, 0)
    assert dulled == dataclasses.replace(cloud, dull=True, damage=2000)
    assert hash(dulled) == hash(Forward(id="a1", name="Cloud", elements=frozenset({"fire"}), cost=3, power=7000,
                                        dull=True, damage=2000))
    assert dulled != cloud


def test_a_copy_is_as_frozen_as_the_original() -> None:
    copy = replace(_cloud(), dull=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        copy.dull = False  # type: ignore[misc]


def test_the_order_of_the_changes_does_not_matter() -> None:
    state = State(players=(Player(), Player()))
    one = replace(state, turn=2, step=Step.BLOCK)
    other = replace(state, step=Step.BLOCK, turn=2)
    assert one == other == State(players=(Player(), Player()), turn=2, step=Step.BLOCK)
    assert hash(one) == hash(other)


def test_a_value_without_a_cached_hash_copies_too() -> None:
    attack = Attack(attackers=("a1", "a2"), party=True, declared=("a1", "a2"))
    blocked = replace(attack, blocked=True, blocker="b1")
    assert blocked == Attack(attackers=("a1", "a2"), party=True, declared=("a1", "a2"), blocked=True, blocker="b1")
    assert attack.blocked is None


def test_an_unknown_field_is_refused_as_by_dataclasses() -> None:
    with pytest.raises(TypeError, match="no field 'colour'"):
        replace(_cloud(), colour="red")


@pytest.mark.clause("FF-BASE-ATTACK-STEPS")
def test_the_passed_flag_round_trips_and_is_refused_where_nobody_can_pass() -> None:
    """``passed`` (alternating priority) is written only when true and read back; a state claiming the turn
    player passed in Attack Declaration before any attack is refused, naming the field."""
    preparation = State(players=(Player(), Player()), step=Step.PREPARATION)
    assert "passed" not in preparation.to_json()
    handed = replace(preparation, passed=True)
    assert handed.to_json()["passed"] is True and load_state(handed.to_json()) == handed
    with pytest.raises(ScenarioError) as info:
        load_state(replace(handed, step=Step.DECLARATION).to_json())
    assert info.value.where == "passed"
