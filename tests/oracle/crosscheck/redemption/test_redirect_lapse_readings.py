"""Decision rd-lapse-reduction, read by the z3 redirect encoding (RED-RD-UNTIL-END-OF-PHASE says what a
numbers redirect whose phase has ended leaves on its target): the model and the encoding agree over whole
explorations under both options, three turns deep, so the reduction kept after the battle phase meets the
same two characters again in the next battle of player 0; a model that forgets the option is caught.
Decisions rd-numbers-loss-lasting and rd-redirected-ability-timing are not read by any encoding: the
cross-check refuses them by name.

The position: p0's h 2/3 may attack p1, whose e 3/5 may block; p0 holds rn, a numbers redirect stating
2/0 (see tests/model/redemption/test_redirect_lapse.py for the play worked out by hand).
"""

from __future__ import annotations

import pytest

from cardrules.model.redemption import redirect as model_redirect
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import evil, good_enh, hero, position
from cardrules.model.redemption.state import Effect, State
from cardrules.oracle.crosscheck.redemption.common import OutOfScope, config_key
from cardrules.oracle.crosscheck.redemption.decisions import crosscheck_many

from .option_checks import explored, fresh_solvers, rule_level_agrees

OPTIONS = ("lapse-ends-both", "reduction-stays")


def _config(option: str) -> RuleConfig:
    return RuleConfig.of({"rd-lapse-reduction": option})


def _start() -> State:
    cards = [hero("h", 0, 2, 3), evil("e", 1, 3, 5),
             good_enh("rn", 0, ability=Effect.REDIRECT_NUMBERS, stated_amount=(2, 0))]
    return position(cards, {0: {"territory": ["h"], "hand": ["rn"]}, 1: {"territory": ["e"]}}, 2)


def _states(option: str) -> tuple[State, ...]:
    return explored(_start(), _config(option), max_turns=3)


@pytest.mark.clause("RED-RD-UNTIL-END-OF-PHASE", "RED-RD-NUMBERS-ONGOING")
@pytest.mark.parametrize(("option", "kept"), [("lapse-ends-both", False), ("reduction-stays", True)])
def test_the_exploration_reaches_a_kept_reduction_only_under_reduction_stays(option: str, kept: bool) -> None:
    assert any(s.reduced == (("e", 2, 0),) for s in _states(option)) is kept
    assert all(s.reduced == () for s in _states(option)) is not kept


@pytest.mark.clause("RED-RD-UNTIL-END-OF-PHASE", "RED-RD-NUMBERS-TRANSFER", "RED-BR-FOUR-OUTCOMES")
@pytest.mark.parametrize("option", OPTIONS)
def test_crosscheck_agrees_over_the_exploration(option: str) -> None:
    rule_level_agrees(_states(option), _config(option), "rd-lapse", "br-resolution")


@pytest.mark.clause("RED-RD-UNTIL-END-OF-PHASE")
def test_a_model_forgetting_the_reduction_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model running lapse-ends-both while the encoding reads reduction-stays disagrees where the
    battle phase ends."""
    real, states = model_redirect.ended, _states("reduction-stays")  # explored before the model is broken
    with fresh_solvers():
        monkeypatch.setattr(model_redirect, "ended",
                            lambda state, record, config: real(state, record, _config("lapse-ends-both")))
        report = crosscheck_many(states, _config("reduction-stays"))
        assert any(d.what == "rd-lapse" for d in report.disagreements)


@pytest.mark.clause("RED-RD-NUMBERS-IN-BATTLE-ONLY", "RED-RD-CARRIER-CHANGES")
@pytest.mark.parametrize("variant", [{"rd-numbers-loss-lasting": "lost-for-good"},
                                     {"rd-redirected-ability-timing": "on-reactivation"}])
def test_unread_redirect_readings_are_refused(variant: dict[str, str]) -> None:
    with pytest.raises(OutOfScope, match=next(iter(variant))):
        config_key(RuleConfig.of(variant))
