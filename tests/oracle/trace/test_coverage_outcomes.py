"""Outcome features for the conformance generator's set cover: the branch a rule took, not only
that its clause ran.

By FF-BASE-BREAK-ZERO-POWER a Forward whose power is 0 is broken and one with power left is not: the two
calls exercise the same clause, but return different answers and take different lines, so they must give
different outcome features (and the same clause).
"""

from __future__ import annotations

import pytest

from cardrules.model.fftcg.damage import is_broken
from cardrules.model.fftcg.state import Forward
from cardrules.oracle.conformance.generate import greedy_cover
from cardrules.oracle.conformance.candidates import Candidate
from cardrules.oracle.trace.coverage import clauses_exercised, outcomes_exercised

pytestmark = [pytest.mark.clause("FF-BASE-BREAK-ZERO-POWER"), pytest.mark.usefixtures("each_tracer")]


def test_a_broken_and_an_unbroken_forward_are_one_clause_but_two_outcomes() -> None:
    zero = Forward("f", "Zero", frozenset({"fire"}), 2, 0)
    strong = Forward("g", "Strong", frozenset({"fire"}), 2, 7000)
    broken, clauses_zero, outcomes_zero = outcomes_exercised(lambda: is_broken(zero))
    standing, clauses_strong, outcomes_strong = outcomes_exercised(lambda: is_broken(strong))
    assert broken and not standing
    assert "FF-BASE-BREAK-ZERO-POWER" in clauses_zero and clauses_zero == clauses_strong
    assert clauses_zero == clauses_exercised(lambda: is_broken(zero))[1]  # the same clauses as before
    # one return statement: the same line, the two answers told apart (``ret:FILE:QUALNAME:LINE=KIND``)
    [returned_zero] = [f for f in outcomes_zero if f.startswith("ret:fftcg/damage.py:is_broken:")]
    [returned_strong] = [f for f in outcomes_strong if f.startswith("ret:fftcg/damage.py:is_broken:")]
    assert returned_zero.endswith("=True") and returned_strong.endswith("=False")
    assert returned_zero.rsplit("=", 1)[0] == returned_strong.rsplit("=", 1)[0]
    assert outcomes_zero != outcomes_strong
    assert outcomes_exercised(lambda: is_broken(zero))[2] == outcomes_zero  # the same on every run


def test_the_set_cover_keeps_a_second_vector_of_a_covered_clause_when_it_adds_an_outcome() -> None:
    clause = "FF-BASE-BREAK-ZERO-POWER"
    first = Candidate(0, 1, "a", "play", frozenset({clause, "ret:fftcg/damage.py:is_broken:True"}), 2)
    second = Candidate(0, 2, "b", "play", frozenset({clause, "ret:fftcg/damage.py:is_broken:False"}), 2)
    same = Candidate(0, 3, "c", "play", frozenset({clause, "ret:fftcg/damage.py:is_broken:True"}), 3)
    assert sorted(greedy_cover([first, second, same], ["a", "b", "c"])) == [0, 1]


@pytest.mark.infrastructure("the generator's features must not depend on what the process asked before")
def test_a_remembered_look_up_gives_the_same_features_the_first_time_and_after() -> None:
    """The option of a decision at its chosen reading is looked up in the catalogue once per process
    (a remembered function): tracing the look-up gives no feature of it, the first time (the cache just
    emptied) as every later time, so a suite generated twice in one process is the same suite."""
    from cardrules.model.redemption import config as red_config

    red_config._chosen.cache_clear()
    first = outcomes_exercised(lambda: red_config.RuleConfig().option("sb-return-territory"))
    again = outcomes_exercised(lambda: red_config.RuleConfig().option("sb-return-territory"))
    assert first[0] == again[0] == "owner"
    assert first[2] == again[2]
    assert not any(":_chosen:" in feature for feature in first[2])
    assert any(":RuleConfig.option:" in feature for feature in first[2])


def test_every_returned_value_that_has_a_kind_is_of_a_type_the_tracer_pictures() -> None:
    """The tracer asks :func:`_value_kind` only for the types it pictures (looked up once per type): so each
    value with a kind, of a built-in type or a subclass of one (an IntEnum, a NamedTuple), is of such a type,
    and values of other types have none."""
    import enum
    from typing import NamedTuple

    from cardrules.oracle.trace.coverage import _PICTURED, _value_kind

    class Level(enum.IntEnum):
        LOW = -1

    class Pair(NamedTuple):
        a: bool | None
        b: bool

    pictured = [None, True, False, 0, 3, -2, Level.LOW, (), [], frozenset(), set(), (True, None), Pair(None, True)]
    plain = ["text", 1.5, (1, 2), {"a": 1}, Forward("f", "Zero", frozenset({"fire"}), 2, 0), b"", object()]
    assert all(_value_kind(value) is not None and _PICTURED[type(value)] for value in pictured)
    assert all(_value_kind(value) is None for value in plain)
    assert [_PICTURED[type(value)] for value in plain] == [False, False, True, False, False, False, False]
