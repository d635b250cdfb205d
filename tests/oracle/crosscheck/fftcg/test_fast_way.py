"""The fast way of the transition cross-check (:mod:`oracle.crosscheck.fast`) is exact: it gives
the same reports and the same comparisons per clause as the plain way on agreeing states, on the
deliberately broken encodings, and on a deliberately wrong model, also with its caches warm."""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Iterator

import pytest
import z3

from cardrules.model.fftcg.actions import DeclareAttack
from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.engine import legal_actions, step
from cardrules.model.fftcg.state import State
from cardrules.oracle.crosscheck import fast as smt_fast
from cardrules.oracle.crosscheck import fftcg as smt_fftcg
from cardrules.oracle.crosscheck import transitions as smt_transitions
from cardrules.oracle.crosscheck.fftcg import crosscheck_many
from cardrules.specs.smt.fftcg import actions as smt_actions
from cardrules.specs.smt.fftcg import rules as smt_rules

from .helpers import ROOTS, explore, fw, position, root_first_strike, root_party


@pytest.fixture
def fresh_checkers() -> Iterator[None]:
    smt_fftcg._checker.cache_clear()
    yield
    smt_fftcg._checker.cache_clear()


@pytest.fixture
def fast_verdicts(monkeypatch: pytest.MonkeyPatch) -> list[bool | None]:
    """What the fast way answered for each state (True: agreement shown; None: the plain way asked)."""
    seen: list[bool | None] = []
    original = smt_transitions.agrees

    def spy(*args: Any) -> bool | None:
        verdict = original(*args)
        seen.append(verdict)
        return verdict

    monkeypatch.setattr(smt_transitions, "agrees", spy)
    return seen


def _both(states: list[State], config: RuleConfig) -> tuple[Any, Any]:
    fast = crosscheck_many(states, config)
    smt_fftcg._checker.cache_clear()
    with smt_fast.plain_way():
        plain = crosscheck_many(states, config)
    return fast, plain


def _shown(d: Any) -> tuple[Any, ...]:
    """A disagreement as compared here: all of it, but the successors listed by a ``uniqueness``
    one, which are whichever two z3 happened to give (free values: any solver state may differ)."""
    return (d.what, d.action, d.clause_ids, str(d.model), str(d.state), None if d.what == "uniqueness" else str(d.smt))


def _same(fast: Any, plain: Any) -> None:
    assert [_shown(d) for d in fast.disagreements] == [_shown(d) for d in plain.disagreements]
    assert fast.clauses == plain.clauses
    assert (fast.states, fast.actions, fast.out_of_scope) == (plain.states, plain.actions, plain.out_of_scope)


@pytest.mark.clause("FF-PARTY-FORM-VALID", "FF-BASE-ATTACK-STEPS", "FF-PARTY-BLOCKED-SUM")
@pytest.mark.parametrize("root", ROOTS, ids=lambda r: r.__name__)
def test_the_fast_way_shows_agreement_and_counts_as_the_plain_way(root: Callable[[], State], fresh_checkers: None,
                                                                 fast_verdicts: list[bool | None]) -> None:
    config = RuleConfig.of(broken=["party-split-in-hundreds"]) if root is root_party else RuleConfig()
    states = explore(root(), config, limit=60)
    fast, plain = _both(states, config)
    _same(fast, plain)
    assert not fast.disagreements and fast.actions > fast.states
    # the fast way decided every one of these agreeing states itself (none went to the plain way)
    assert fast_verdicts[:len(states)] == [True] * len(states)


def _blocked_party() -> State:
    state = position([fw("a1", power=5000), fw("a2", power=3000)], [fw("b1", "fire", 2000)])
    for text in ("attack a1 a2", "pass", "block b1", "pass"):
        state = step(state, next(a for a in legal_actions(state) if str(a) == text))
    return state


def _every_member_blockable(L: Any, c: Any, s: Any, b: int) -> z3.BoolRef:
    return z3.And(s.turn_player != L.owners[b], s.field[b], z3.Not(s.dull[b]),
                  *[z3.Implies(s.attacker[a], smt_rules.may_block_alone(c, a, b)) for a in range(L.n)])


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-SEVEN-DAMAGE-LOSES", "FF-PARTY-BLOCK-ANY-MEMBER")
@pytest.mark.parametrize("mutant", ["split-in-500s", "dropped-frame-condition", "every-member-blockable"])
def test_broken_encodings_are_reported_alike(mutant: str, monkeypatch: pytest.MonkeyPatch, fresh_checkers: None,
                                             fast_verdicts: list[bool | None]) -> None:
    """The mutants of tests/oracle/crosscheck/fftcg/test_crosscheck.py: the same disagreements either way."""
    if mutant == "split-in-500s":
        monkeypatch.setattr(smt_rules, "split_unit", lambda v: 500)
        states = [_blocked_party()]
    elif mutant == "dropped-frame-condition":
        original = smt_actions.unchanged
        monkeypatch.setattr(smt_actions, "unchanged", lambda s, s2, changed: original(s, s2, changed | {"pdamage"}))
        states = [position([fw("a1"), fw("a2")], [fw("b1")])]
    else:
        monkeypatch.setattr(smt_rules, "can_block", _every_member_blockable)
        state = position([fw("a1", "fire", 2000, p_icon=True, unblockable_by_cost=4), fw("a2", "ice", 3000, p_icon=True)],
                         [fw("b1", "water", 4000, cost=5)])
        for text in ("attack a1 a2", "pass"):
            state = step(state, next(a for a in legal_actions(state) if str(a) == text))
        states = [state]
    fast, plain = _both(states, RuleConfig())
    assert fast.disagreements
    _same(fast, plain)
    assert None in fast_verdicts  # a disagreeing state always goes to the plain way, which reports it


@pytest.mark.clause("FF-BASE-ATTACK-DULLS", "FF-PARTY-FORM-DECLARATION")
def test_a_wrong_model_value_is_caught_with_the_caches_warm(monkeypatch: pytest.MonkeyPatch,
                                                            fresh_checkers: None) -> None:
    """After a clean run (solvers, encoded actions and decoded successors cached), a model whose
    declaration of a single Forward also advances the turn counter is caught at every such
    declaration and nowhere else: by hand, each state offering 'attack X' for one Forward X gives
    one successor disagreement."""
    config = RuleConfig()
    states = explore(root_first_strike(), config, limit=50) + explore(root_party(), config, limit=50)
    assert not crosscheck_many(states, config).disagreements

    def wrong_step(state: State, action: Any, cfg: RuleConfig = config) -> State:
        after = step(state, action, cfg)
        if isinstance(action, DeclareAttack) and len(action.forwards) == 1:
            after = dataclasses.replace(after, turn=after.turn + 1)
        return after

    monkeypatch.setattr(smt_fftcg, "step", wrong_step)
    report = crosscheck_many(states, config)
    expected = {(id(s), f"attack {a.forwards[0]}") for s in states for a in legal_actions(s, config)
                if isinstance(a, DeclareAttack) and len(a.forwards) == 1}
    assert expected
    assert {d.what for d in report.disagreements} == {"successor"}
    assert len(report.disagreements) == len(expected)
    assert {d.action for d in report.disagreements} == {text for _, text in expected}
    # only the turn differs, by the one the wrong model added
    assert all(set(d.smt) == set(d.model) == {"turn"} and d.model["turn"] == d.smt["turn"] + 1
               for d in report.disagreements)
