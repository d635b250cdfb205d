"""The z3 encoding of the readings ``ff-removal-windows = not-in-declaration`` and
``ff-attack-no-attacker-left = redeclare`` (``specs/clauses/ff_base.toml``), checked against the model by
the cross-check (that each action still has one successor under them: ``test_symbolic.py``).

Expected values by hand from the option texts: with no window in Attack Declaration the only action
after a declaration is the pass into Block Declaration; under redeclare, removing the only attacker
leaves no attack and play in Attack Declaration.
"""

from __future__ import annotations

import pytest

from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.engine import legal_actions, step
from cardrules.model.fftcg.actions import parse_action
from cardrules.model.fftcg.state import State, Step
from cardrules.oracle.crosscheck.fftcg import canonical, crosscheck_many, crosscheck_state, smt_legal_actions, smt_successors

from tests.oracle.crosscheck.fftcg.helpers import explore, fw, position, root_first_strike, root_party, root_restrictions

OPTIONS = ({"ff-removal-windows": "not-in-declaration"}, {"ff-attack-no-attacker-left": "redeclare"},
           {"ff-attack-no-attacker-left": "redeclare", "party-last-member": "removed-from-combat"})
IDS = ["not-in-declaration", "redeclare", "redeclare+removed-from-combat"]


def _play(state: State, config: RuleConfig, *texts: str) -> State:
    for text in texts:
        state = step(state, parse_action(text), config)
    return state


@pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-PARTY-LEAVE-FIELD")
def test_no_window_in_attack_declaration_in_both_encodings() -> None:
    config = RuleConfig.of({"ff-removal-windows": "not-in-declaration"})
    start = position([fw("a1"), fw("a2")], [fw("b1", "water", 4000)])
    assert [str(a) for a in smt_legal_actions(start, config)].count("remove b1") == 0
    declared = _play(start, config, "attack a1")
    assert [str(a) for a in smt_legal_actions(declared, config)] == ["pass"]
    assert [str(a) for a in legal_actions(declared, config)] == ["pass"]
    assert not crosscheck_state(start, config) and not crosscheck_state(declared, config)


@pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-PARTY-LEAVE-FIELD", "FF-PARTY-DISBAND-UNDER-TWO")
def test_redeclare_in_both_encodings() -> None:
    config = RuleConfig.of({"ff-attack-no-attacker-left": "redeclare"})
    start = position([fw("a1"), fw("a2"), fw("a3")], [fw("b1", "water", 4000)])
    for texts, last in ((("attack a1",), "remove a1"), (("attack a1 a2", "pass", "block b1", "remove a2"), "remove a1")):
        before = _play(start, config, *texts)
        (after,) = smt_successors(before, parse_action(last), config)
        assert after.step is Step.DECLARATION and after.attack is None
        assert canonical(after) == canonical(_play(before, config, last))
        assert not crosscheck_state(before, config)


@pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-PARTY-LEAVE-FIELD", "FF-BASE-END-OF-TURN")
@pytest.mark.parametrize("choices", OPTIONS, ids=IDS)
def test_both_encodings_agree_on_explored_states(choices: dict[str, str]) -> None:
    config = RuleConfig.of(choices)
    states = (explore(root_first_strike(), config, limit=60) + explore(root_party(), config, limit=40)
              + explore(root_restrictions(), config, limit=40))
    report = crosscheck_many(states, config)
    assert report.states == len(states) and not report.out_of_scope
    assert not report.disagreements, "\n".join(map(str, report.disagreements[:3]))
