"""Who may answer a side battle ability before its side battle starts: the model against the side battle
encoding (output ``answerer``, RED-BASE-SPECIAL-INITIATIVE, decision ``sb-answer-before-start``), and a
hand-made mutant of either side is caught.

Position (tests.model.redemption.helpers.game): p0's Hero h0 fights p1's Evil e0 (a stalemate, p0 has
initiative) and holds sb0, a side battle card; p1 keeps e1 in its territory. sb0 on e0 and e1 takes e0,
p1's only character in the battle, out of it: p1 may answer first when they hold an interrupt (int1,
playable on e0); p0's own choices never give p0 special initiative.
"""

from __future__ import annotations

from typing import Iterator

import pytest
import z3

from cardrules.model.redemption import side_battle
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import evil, evil_enh
from cardrules.model.redemption.state import Effect, State
from cardrules.oracle.crosscheck.redemption import decisions as smt_redemption
from cardrules.oracle.crosscheck.redemption.side_battles import side_battle_answer
from cardrules.specs.smt.consistency import ClauseConstraint
from cardrules.specs.smt.redemption import side_battle_clauses as sb_clauses
from cardrules.specs.smt.redemption import side_battle_vars as sb
from tests.model.redemption.helpers import game


def position(answer: bool, config: RuleConfig = RuleConfig()) -> State:
    hand = ["int1"] if answer else ["pad1"]
    held = evil_enh("int1", 1, ability=Effect.INTERRUPT) if answer else evil_enh("pad1", 1)
    cards = [evil("e1", 1, 1, 5), held]
    return game(2, cards, {1: {"territory": ["e1"], "hand": hand}}, config=config)


@pytest.fixture
def fresh() -> Iterator[None]:
    smt_redemption.clear_caches()
    yield
    smt_redemption.clear_caches()


@pytest.mark.clause("RED-BASE-SPECIAL-INITIATIVE", "RED-SB-SUSPEND")
def test_the_encoding_names_who_may_answer(fresh: None) -> None:
    # By hand: p1 holds int1 and e0 is their only fighter: p1 (player 1) may answer; without an answer
    # in hand nobody is offered it; under sb-answer-before-start = never nobody may.
    assert side_battle_answer(position(True), 0, "e0", "e1").answerer == {1}
    assert side_battle_answer(position(False), 0, "e0", "e1").answerer == {-1}
    never = RuleConfig.of({"sb-answer-before-start": "never"})
    assert side_battle_answer(position(True, never), 0, "e0", "e1", never).answerer == {-1}


@pytest.mark.clause("RED-BASE-SPECIAL-INITIATIVE", "RED-SB-SUSPEND")
@pytest.mark.parametrize("answer", [True, False])
def test_model_and_encoding_agree(answer: bool, fresh: None) -> None:
    report = smt_redemption.CrosscheckReport()
    found = smt_redemption.crosscheck_state(position(answer), RuleConfig(), report)
    assert found == [] and report.decisions["sb-answer-before-start"] > 0


@pytest.mark.clause("RED-BASE-SPECIAL-INITIATIVE")
def test_a_model_that_never_lets_anyone_answer_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    monkeypatch.setattr(side_battle, "answerer", lambda state, record, config: None)
    found = smt_redemption.crosscheck_state(position(True), RuleConfig())
    assert "sb-answer-before-start" in {d.what for d in found}


@pytest.mark.clause("RED-BASE-SPECIAL-INITIATIVE")
def test_an_encoding_that_ignores_the_hand_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    def broken(v: sb.SBVars, rs: object) -> ClauseConstraint:
        good = sb_clauses.answer_before_start(v, rs)  # type: ignore[arg-type]
        return ClauseConstraint(good.clause_id, good.premise, z3.substitute(good.conclusion, (v.answer_1, z3.BoolVal(True))))

    monkeypatch.setitem(sb_clauses.REG.factories, "RED-BASE-SPECIAL-INITIATIVE", broken)
    found = smt_redemption.crosscheck_state(position(False), RuleConfig())
    assert "sb-answer-before-start" in {d.what for d in found}
