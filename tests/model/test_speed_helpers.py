"""The model's speed helpers answer as the functions they stand for.

- :func:`cardrules.model.fastcopy.replace` gives the value ``dataclasses.replace`` gives (the
  Redemption model copies its states with it), ``__post_init__`` run as ``__init__`` runs it;
- :func:`cardrules.model.fftcg.memo.legal_splits` gives :func:`cardrules.model.fftcg.damage.legal_splits`'s
  splits in the same order, and says a split is one of them exactly when the tuple would; the mutation
  probe empties it with the model's other caches.

These are exactness checks of helpers, not of a rule clause.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from cardrules.model.fastcopy import replace
from cardrules.model.fftcg import damage, memo
from cardrules.model.fftcg.actions import Split
from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.redemption.state import Phase, State, Zones

pytestmark = pytest.mark.infrastructure("speed helpers of the model: the same values as the plain functions")


def _state() -> State:
    return State(cards=(), zones=(Zones(deck=("x",)), Zones()), turn=2, phase=Phase.DRAW)


def test_a_copy_with_changes_equals_the_standard_librarys() -> None:
    state = _state()
    for changes in ({"turn": 5}, {"active": 1, "phase": Phase.DRAW}, {"side_battles": (1, 0)},
                    {"zones": (Zones(), Zones(hand=frozenset({"y"})))}, {}):
        copied = replace(state, **changes)
        assert copied == dataclasses.replace(state, **changes)
        assert hash(copied) == hash(dataclasses.replace(state, **changes))
    zones = Zones(deck=("a", "b"))
    assert replace(zones, deck=("b",)) == Zones(deck=("b",))


def test_a_copy_runs_post_init_as_a_new_state_would() -> None:
    # a state given no side-battle counts gets one zero per player (State.__post_init__)
    assert replace(_state(), side_battles=()).side_battles == (0, 0)


def test_a_copy_naming_an_unknown_field_is_refused() -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'turns'"):
        replace(_state(), turns=3)


def test_a_copy_is_as_frozen_as_the_original() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        replace(_state(), turn=3).turn = 4  # type: ignore[misc]


@pytest.mark.parametrize("power,unit,members", [(5000, 1000, ("a1", "a2")), (5500, 100, ("a1", "a2", "a3")),
                                                 (800, 1000, ("a1", "a2"))])
def test_remembered_splits_are_the_models_splits(power: int, unit: int, members: tuple[str, ...]) -> None:
    config = RuleConfig()
    plain = damage.legal_splits(members, power, unit, config)
    remembered = memo.legal_splits(members, power, unit, config)
    assert tuple(remembered) == plain
    assert all(split in remembered for split in plain)
    # shares that do not add up to the divisible power are no legal split
    assert Split(tuple((m, 1) for m in members)) not in remembered
    assert "split" not in remembered


def test_the_mutation_probe_empties_the_remembered_splits() -> None:
    from cardrules.oracle.mutation.apply import clear_caches

    memo.legal_splits(("a1", "a2"), 3000, 1000, RuleConfig())
    assert memo._remembered_splits.cache_info().currsize > 0
    clear_caches()
    assert memo._remembered_splits.cache_info().currsize == 0


def test_a_traced_step_exercises_the_split_clauses_whether_or_not_they_were_asked_before() -> None:
    # the clauses a step exercises are read by watching which model functions run: a remembered answer must
    # not hide the model's split function from that watch (generated suites would then depend on the order
    # in which positions were explored)
    from cardrules.oracle.trace.coverage import clauses_exercised

    def ask() -> Any:
        return memo.legal_splits(("a1", "a2"), 5000, 1000, RuleConfig())

    ask()  # remembered now
    first = clauses_exercised(ask)[1]
    second = clauses_exercised(ask)[1]
    assert "FF-PARTY-SPLIT-THOUSANDS" in first and first == second
