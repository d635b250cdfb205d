"""Decision br-rescue-draw under each option, over whole explorations: under the chosen reading the model and
the rule-level Battle Resolution encoding agree on every rescue resolved; under undetermined the encoding
shows, at each drawn rescue, the contradiction that reading brings into the clauses.

The position: p0's h0 3/3 attacks p1 (Lost Soul s1 in bondage), whose e 3/3 may block; p0 holds a 0/1
enhancement g (h0 survives), p1 a 0/1 x (e survives): blocking gives mutual destruction (3 >= 3 both
ways), g or x or both turn it into a win or a stalemate, so each outcome of a rescue is reached.
"""

from __future__ import annotations

import json

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero, position, soul
from cardrules.model.redemption.state import BattleKind, Mission, Outcome, State
from cardrules.model.redemption import standing as model_standing
from cardrules.oracle.crosscheck.redemption.decisions import crosscheck_many

from .option_checks import explored, rule_level_agrees

OPTIONS = ("not-success-is-failure", "undetermined")


def _config(option: str) -> RuleConfig:
    return RuleConfig.of({"br-rescue-draw": option})


def _start() -> State:
    cards = [hero("h0", 0, 3, 3), evil("e", 1, 3, 3), soul("s1", 1), good_enh("g", 0, 0, 1), evil_enh("x", 1, 0, 1)]
    return position(cards, {0: {"territory": ["h0"], "hand": ["g"]}, 1: {"territory": ["e"], "hand": ["x"],
                                                                        "bondage": ["s1"]}}, 2)


def _drawn_rescue(state: State) -> bool:
    """A rescue attempt about to be resolved in a draw (its outcome, as the model reckons it)."""
    battle = state.active_battle
    if battle is None or battle.kind is not BattleKind.RESCUE or state.prompt is None:
        return False
    return model_standing.outcome(state, battle, RuleConfig()) in (Outcome.MUTUAL_DESTRUCTION, Outcome.STALEMATE)


@pytest.mark.clause("RED-BR-RESCUE-FAIL", "RED-BR-RESCUE-SUCCESS", "RED-BR-MISSION-RESULT")
def test_the_chosen_reading_agrees_over_the_exploration() -> None:
    states = explored(_start(), _config("not-success-is-failure"))
    draws = {s.last_mission for s in states if s.last_outcome in (Outcome.MUTUAL_DESTRUCTION, Outcome.STALEMATE)}
    assert draws == {Mission.FAILURE}
    assert {s.last_outcome for s in states} >= {Outcome.MUTUAL_DESTRUCTION, Outcome.STALEMATE, Outcome.SIDE0_WINS}
    rule_level_agrees(states, _config("not-success-is-failure"), "br-resolution")


@pytest.mark.clause("RED-BR-RESCUE-FAIL", "RED-BR-MISSION-RESULT")
def test_under_undetermined_the_clauses_contradict_at_a_drawn_rescue() -> None:
    """The model plays undetermined: a drawn rescue is neither success nor failure. z3 reads the option
    and finds no answer there, because RED-BR-MISSION-RESULT (step 2 settles success or failure) then
    contradicts RED-BR-RESCUE-FAIL (the finding ``smt consistency`` reports); every other resolution
    agrees. So the cross-check shows the contradiction, state by state, rather than a pass."""
    states = explored(_start(), _config("undetermined"))
    draws = {s.last_mission for s in states if s.last_outcome in (Outcome.MUTUAL_DESTRUCTION, Outcome.STALEMATE)}
    assert draws == {Mission.UNDETERMINED}
    report = crosscheck_many(states, _config("undetermined"))
    assert report.disagreements
    for found in report.disagreements:
        assert found.what == "br-unique" and found.smt == [], str(found)
    at = {json.dumps(d.state, sort_keys=True) for d in report.disagreements}
    drawn = {json.dumps(s.to_json(), sort_keys=True) for s in states if _drawn_rescue(s)}
    assert at and at <= drawn
