"""The cross-check compares stated redirect amounts and the end of a numbers redirect.

Scenario ``redemption-stated-numbers``: p0's h 2/4 attacks, p1's e 8/8 blocks; p0 holds r3
(a numbers redirect stating 3/3) and r5 (stating 5/5), p1 pe (1/2). Every state of its
exploration is compared under each rule set with no disagreement, the amounts moved and the
moment a battle ends while its phase goes on included; a model or an encoding broken on either
point is caught.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Iterator

import pytest
import z3

from cardrules.model.redemption import redirect as model_redirect
from cardrules.model.redemption import resolution
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.state import Phase, State
from cardrules.model.redemption.validate import load_state
from cardrules.oracle.crosscheck.redemption import decisions as smt_redemption
from cardrules.oracle.crosscheck.redemption.decisions import crosscheck_many
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.redemption.game import RedemptionGame
from cardrules.properties.scenarios import load_scenarios
from cardrules.specs.smt.redemption import position as pos
from cardrules.specs.smt.redemption import redirect as rd

SCENARIO = next(s for s in load_scenarios() if s.name == "redemption-stated-numbers")


@lru_cache(maxsize=None)
def _states(rule_set: str) -> tuple[tuple[State, ...], RuleConfig]:
    rs = next(r for r in SCENARIO.rule_sets if r.name == rule_set)
    config = RuleConfig.of(dict(rs.decisions))
    exploration = explore(RedemptionGame(config), [load_state(SCENARIO.state)], [],
                          Bounds(max_turns=SCENARIO.max_turns, max_states=SCENARIO.max_states), progress=False)
    return tuple(exploration.states), config


@pytest.fixture
def fresh() -> Iterator[None]:
    smt_redemption.clear_caches()
    yield
    smt_redemption.clear_caches()


@pytest.mark.clause("RED-RD-NUMBERS-TRANSFER", "RED-RD-UNTIL-END-OF-PHASE")
@pytest.mark.parametrize("rule_set", [r.name for r in SCENARIO.rule_sets])
def test_stated_amounts_and_the_end_of_the_battle_are_compared(rule_set: str) -> None:
    states, config = _states(rule_set)
    report = crosscheck_many(states, config)
    assert not report.disagreements, [(d.what, d.action) for d in report.disagreements[:3]]
    assert report.decisions["rd-amount"] > 0 and report.decisions["rd-numbers-target"] > 0
    # a battle ends with a numbers redirect in force, its phase goes on: compared
    assert report.decisions["rd-expiry-battle-end"] > 0 and report.decisions["rd-expiry"] > report.decisions["rd-expiry-battle-end"]


@pytest.mark.clause("RED-RD-UNTIL-END-OF-PHASE")
def test_a_model_ending_the_redirect_with_its_battle_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """The model's earlier reading: every play record dropped when the battle ends."""
    monkeypatch.setattr(resolution, "lasting", lambda record: False)
    states, config = _states("default")
    model_states = tuple(explore(RedemptionGame(config), [load_state(SCENARIO.state)], [],
                                 Bounds(max_turns=1, max_states=SCENARIO.max_states), progress=False).states)
    report = crosscheck_many(model_states, config)
    caught = [d for d in report.disagreements if d.what == "rd-expiry"]
    assert caught and all("RED-RD-UNTIL-END-OF-PHASE" in d.clause_ids for d in caught)
    assert {d.action for d in caught} <= {"pass", "discard"}  # the moves that end the battle


@pytest.mark.clause("RED-RD-UNTIL-END-OF-PHASE")
def test_a_model_writing_a_later_end_for_its_redirect_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """A model that writes the end of a numbers redirect as the discard phase (the one after the
    battle phase it was used in) keeps it in force past its phase; z3 derives the end from when the
    redirect was played, never from the model's own ``lasts_until``, so the two disagree."""
    started = model_redirect.start_numbers

    def later(*args: object) -> State:
        state = started(*args)  # type: ignore[arg-type]
        return replace(state, records=tuple(replace(r, lasts_until=(r.lasts_until[0], Phase.DISCARD))
                                            if r.lasts_until else r for r in state.records))

    monkeypatch.setattr(model_redirect, "start_numbers", later)
    config = RuleConfig.of({})
    model_states = tuple(explore(RedemptionGame(config), [load_state(SCENARIO.state)], [],
                                 Bounds(max_turns=1, max_states=SCENARIO.max_states), progress=False).states)
    report = crosscheck_many(model_states, config)
    caught = [d for d in report.disagreements if d.what == "rd-expiry"]
    assert caught and all("RED-RD-UNTIL-END-OF-PHASE" in d.clause_ids for d in caught)


@pytest.mark.clause("RED-RD-NUMBERS-TRANSFER")
def test_an_encoding_ignoring_the_stated_amount_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """z3 reads every redirect as moving the target's full printed numbers: 8/8, not 3/3."""
    monkeypatch.setattr(rd, "amount", lambda v, rs: (v.printed_s, v.printed_t))
    states, config = _states("default")
    report = crosscheck_many(states, config)
    assert "rd-amount" in {d.what for d in report.disagreements}


@pytest.mark.clause("RED-RD-NUMBERS-TRANSFER")
def test_an_encoding_moving_the_stated_amount_in_full_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """Decision rd-stated-exceeds read as stated-in-full by z3 only: r5 (5/5) on pe (1/2) differs."""
    monkeypatch.setattr(rd, "stated_moved", lambda v, rs: (v.stated_s, v.stated_t))
    states, config = _states("default")
    report = crosscheck_many(states, config)
    assert {d.what for d in report.disagreements} >= {"rd-amount"}
    assert any("r5" in d.action for d in report.disagreements)


@pytest.mark.clause("RED-RD-UNTIL-END-OF-PHASE")
@pytest.mark.parametrize(("until", "now", "over"), [
    ((1, "battle"), (1, "battle"), False),  # the battle ended, the phase goes on
    ((1, "battle"), (1, "discard"), True),
    ((1, "battle"), (2, "draw"), True),    # a later turn, an earlier phase name
    ((2, "upkeep"), (1, "discard"), False),
])
def test_the_phase_over_reading(until: tuple[int, str], now: tuple[int, str], over: bool) -> None:
    expr = pos.phase_over(until[0], pos.phase_number(until[1]), now[0], pos.phase_number(now[1]))
    assert z3.is_true(z3.simplify(expr)) is over
