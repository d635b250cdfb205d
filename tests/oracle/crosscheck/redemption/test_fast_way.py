"""The faster Redemption cross-checks are exact: the battle fragment's fast way and the
rule decisions' unsat-core pruning of deciding clauses give the same reports and the same
comparisons per clause as the plain way, and a wrong model answer is still caught with every
cache warm."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from cardrules.model.redemption.state import Outcome
from cardrules.oracle.crosscheck import fast as smt_fast
from cardrules.oracle.crosscheck.redemption import decisions as smt_redemption
from cardrules.oracle.crosscheck.redemption import battle as smt_redemption_battle
from cardrules.oracle.crosscheck.redemption import resolution as smt_redemption_resolution
from cardrules.oracle.crosscheck import transitions as smt_transitions
from cardrules.properties.games import make_game
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.scenarios import load_scenarios


@pytest.fixture
def fresh() -> Iterator[None]:
    smt_redemption.clear_caches()
    smt_redemption_battle._checker.cache_clear()
    yield
    smt_redemption.clear_caches()
    smt_redemption_battle._checker.cache_clear()


def _states(name: str, limit: int) -> tuple[list[Any], Any]:
    scenario = next(s for s in load_scenarios() if s.name == name)
    game = make_game(scenario.game, scenario.rule_sets[0])
    bounds = Bounds(max_depth=scenario.max_depth, max_states=limit, max_turns=scenario.max_turns)
    return list(explore(game, [game.state_from_json(scenario.state)], [], bounds, progress=False).states), game.config


def _same(fast: Any, plain: Any) -> None:
    assert [str(d) for d in fast.disagreements] == [str(d) for d in plain.disagreements]
    assert fast.clauses == plain.clauses and fast.states == plain.states and fast.out_of_scope == plain.out_of_scope


@pytest.mark.clause("RED-BR-FOUR-OUTCOMES", "RED-BR-HEAL-WINDOW")
def test_battle_fragment_fast_and_plain_ways_agree(fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    states, config = _states("redemption-plain-battle", 120)
    fragment = [s for s in states if smt_redemption_battle.in_scope(s)]
    verdicts: list[bool | None] = []
    original = smt_transitions.agrees

    def spy(*args: Any) -> bool | None:
        verdicts.append(original(*args))
        return verdicts[-1]

    monkeypatch.setattr(smt_transitions, "agrees", spy)
    fast = smt_redemption_battle.crosscheck_many(fragment, config)
    # the fast way decided every state itself (True: agreement shown), none went to the plain way
    assert verdicts and verdicts == [True] * len(verdicts)
    monkeypatch.setattr(smt_transitions, "agrees", original)
    smt_redemption_battle._checker.cache_clear()
    with smt_fast.plain_way():
        plain = smt_redemption_battle.crosscheck_many(fragment, config)
    assert fast.actions > 100 and not fast.disagreements
    _same(fast, plain)


@pytest.mark.clause("RED-SB-SIDES-BATTLE-PLAYERS", "RED-SB-CONTROL-SAME-MIXED")
def test_deciding_clauses_pruned_by_an_unsat_core_count_as_one_by_one(fresh: None) -> None:
    """Which clauses decided each answer (the comparisons per clause): the same with the unsat-core
    pruning as when every clause is checked one by one."""
    states, config = _states("redemption-side-battles-3p", 60)
    fast = smt_redemption.crosscheck_many(states, config)
    smt_redemption.clear_caches()
    with smt_fast.plain_way():
        plain = smt_redemption.crosscheck_many(states, config)
    assert fast.clauses and not fast.disagreements
    _same(fast, plain)
    assert fast.decisions == plain.decisions


@pytest.mark.clause("RED-BR-FOUR-OUTCOMES")
def test_a_wrong_model_answer_is_caught_with_the_caches_warm(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """After a clean run (solvers, z3 answers by raw inputs and deciding clauses cached), the model's
    outcomes read with the two sides' wins swapped disagree at every resolution that one side won:
    the cached z3 answers are the right ones, and the model's are compared afresh."""
    states, config = _states("redemption-rescue-and-resolution", 299)
    clean = smt_redemption.crosscheck_many(states, config)
    assert not clean.disagreements
    swapped = dict(smt_redemption_resolution._OUTCOME)
    swapped[Outcome.SIDE0_WINS], swapped[Outcome.SIDE1_WINS] = swapped[Outcome.SIDE1_WINS], swapped[Outcome.SIDE0_WINS]
    monkeypatch.setattr(smt_redemption_resolution, "_OUTCOME", swapped)
    report = smt_redemption.crosscheck_many(states, config)
    outcomes = [d for d in report.disagreements if d.what == "br-outcome"]
    assert outcomes
    assert {(d.smt, d.model) for d in outcomes} <= {("side0-wins", "side1-wins"), ("side1-wins", "side0-wins")}
