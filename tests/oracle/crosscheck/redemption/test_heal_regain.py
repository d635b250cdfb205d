"""Decision prev-regain-harmful, cross-checked with the z3 heal encoding over a whole exploration of a small
position under each option: handed the raw positions only (a numbers redirect in force naming the healed
card), the encoding must allow exactly the heals the model offers and agree on whether the card healed out
of a pile is still lowered.

The position, and what each option does in it, are worked out by hand in
``tests/model/redemption/test_heal_regain.py`` (steps 1 to 3, without the poison and the side battle):
under the previous wording p1 lowers h2 by 0/2 with rn, discards it with dc, and p0 heals it out of the
pile with m in the same battle phase; beneficial-only: h2 comes back at 2/6, everything: at 2/4.
"""

from __future__ import annotations

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero, position
from cardrules.model.redemption.state import Effect, State
from cardrules.oracle.crosscheck.redemption.decisions import crosscheck_many
from tests.model.redemption.helpers import medic
from tests.oracle.crosscheck.redemption.option_checks import explored, fresh_solvers, rule_level_agrees

BENEFICIAL = RuleConfig(heal_version="previous")
EVERYTHING = RuleConfig.of({"prev-regain-harmful": "everything"}, heal_version="previous")


def _start() -> State:
    """p0: m (Hero 0/5 with a heal ability) and h2 (Hero 2/6) in territory, pad0 and pad1 (0/0) in hand;
    p1: e (Evil 1/5) in territory, rn (numbers redirect stating 0/2) and dc (discard) in hand."""
    cards = [medic("m", 0, 0, 5), hero("h2", 0, 2, 6), evil("e", 1, 1, 5), good_enh("pad0", 0), good_enh("pad1", 0),
             evil_enh("rn", 1, ability=Effect.REDIRECT_NUMBERS, stated_amount=(0, 2)),
             evil_enh("dc", 1, ability=Effect.DISCARD)]
    return position(cards, {0: {"territory": ["m", "h2"], "hand": ["pad0", "pad1"]},
                            1: {"territory": ["e"], "hand": ["rn", "dc"]}}, 2)


pytestmark = pytest.mark.slow


def _reaches_the_pile_heal(states: tuple[State, ...]) -> bool:
    """Some state has h2 in p0's pile, rn's redirect naming it, and p0 to play (m may heal it)."""
    return any("h2" in s.zones[0].discard and any(r.card == "rn" and r.targets == ("h2",) for r in s.records)
               and s.prompt is not None and s.prompt.player == 0 for s in states)


@pytest.mark.clause("RED-HEAL-PREV-REGAINS", "RED-HEAL-PREV-HEALABLE", "RED-HEAL-PREV-TO-OWNER")
@pytest.mark.parametrize("config", [BENEFICIAL, EVERYTHING], ids=["beneficial-only", "everything"])
def test_the_heal_encoding_agrees_over_the_exploration(config: RuleConfig) -> None:
    states = explored(_start(), config)
    assert _reaches_the_pile_heal(states)
    report = crosscheck_many(states, config)
    heal = [d for d in report.disagreements if d.what.startswith("heal-")]
    assert not heal, "\n".join(str(d) for d in heal[:3])
    assert report.decisions.get("out-of-scope", 0) == 0 and report.decisions.get("encoding-no-answer", 0) == 0
    assert report.decisions.get("heal-offered", 0) > 0 and report.decisions.get("heal-results", 0) > 0


@pytest.mark.clause("RED-HEAL-PREV-REGAINS", "RED-RD-UNTIL-END-OF-PHASE")
@pytest.mark.parametrize("config", [BENEFICIAL, EVERYTHING], ids=["beneficial-only", "everything"])
def test_every_encoding_agrees_over_the_exploration(config: RuleConfig) -> None:
    """The redirect encoding too: under beneficial-only it ends rn's redirect when h2 is healed out of the
    pile (h2 regains no harmful effect), under everything the redirect goes on to the end of the phase."""
    rule_level_agrees(explored(_start(), config), config, "heal-uses", "heal-offered", "heal-results", "rd-expiry")


@pytest.mark.clause("RED-HEAL-PREV-REGAINS", "RED-RD-UNTIL-END-OF-PHASE")
def test_a_redirect_encoding_blind_to_the_pile_heal_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A redirect encoding that lets a numbers redirect last to the end of its phase whatever heals its
    target keeps rn's redirect in force after m heals h2 out of the pile, where the model ends it."""
    from cardrules.specs.smt.redemption import redirect as smt_redirect

    with fresh_solvers():
        monkeypatch.setattr(smt_redirect, "regain_ends", lambda v, rs: smt_redirect.z3.BoolVal(False))
        report = crosscheck_many(explored(_start(), BENEFICIAL), BENEFICIAL)
    assert any(d.what == "rd-expiry" and d.action == "heal h2 with m" for d in report.disagreements)


@pytest.mark.clause("RED-HEAL-PREV-REGAINS")
def test_a_model_regaining_everything_by_default_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model as it was before the fix (the lowering kept through the pile under beneficial-only)
    disagrees with the encoding on h2 healed out of the pile."""
    from cardrules.model.redemption import heal as model_heal

    with fresh_solvers():
        monkeypatch.setattr(model_heal, "regain", lambda state, back, config: state)
        report = crosscheck_many(explored(_start(), BENEFICIAL), BENEFICIAL)
    assert any(d.what == "heal-lowered-after" and d.action == "heal h2 with m" for d in report.disagreements)
