"""Consistency and vacuity of the side battle, Battle Resolution and redirect clauses
(:mod:`specs.smt.redemption`), under the seed reading and the variants the catalogue offers.

Expected: every seed reading is consistent with no dead clause. One variant is genuinely
contradictory: ``br-rescue-draw = undetermined`` leaves a drawn rescue neither successful nor
failed, while RED-BR-MISSION-RESULT says resolution settles it.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
import z3

from cardrules.specs.catalogue import default_catalogue
from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force
from cardrules.specs.smt.consistency import Verdict, check_vacuity, find_contradictions
from cardrules.specs.smt.redemption import SITUATIONS
from cardrules.specs.smt.redemption import resolution as br
from cardrules.specs.smt.redemption import side_battle_clauses as sb_clauses
from cardrules.specs.smt.redemption import side_battle_terms as sb_terms
from cardrules.specs.smt.redemption import side_battle_vars as sb

AREAS = tuple(SITUATIONS)
EXPECTED_DEAD: dict[tuple[str, str], tuple[str, ...]] = {
    ("sb-in-play-zones", "territory-only"): ("RED-SB-CONTROL-SAME-MIXED",),
    # the literal reading of the clarification makes it a sufficient condition only: it forbids nothing
    ("sb-pair-alignment", "any-alignment"): ("RED-SB-SAME-ALIGNMENT",),
}
"""Variants under which some clause can never apply (findings, see the tests below)."""
VARIANTS: tuple[tuple[str, str, str], ...] = (
    ("side-battle", "sb-in-play-zones", "territory-only"),
    ("side-battle", "sb-restriction-scope", "card-unplayable"),
    ("side-battle", "sb-pair-alignment", "any-alignment"),
    ("side-battle", "sb-territory-survivor-enhancements", "played-in-side-battle-only"),
    ("side-battle", "sb-user-outside-battle", "any-player"),
    ("battle-resolution", "br-outcome-several-characters", "any-defeated"),
    ("battle-resolution", "br-challenge-success", "challenger-not-beaten"),
    ("battle-resolution", "br-discard-which", "losing-side-only"),
    ("battle-resolution", "br-heal-window-player", "permanent-controller"),
    ("battle-resolution", "sb-return-territory", "permanent-controller"),
    ("redirect", "rd-amount", "stated-only"),
    ("redirect", "rd-in-battle", "any-battle"),
    ("redirect", "rd-numbers-which-battle", "same-battle-only"),
)


def _check(area: str, rule_set: RuleSet) -> tuple[Verdict, list[str]]:
    situation = SITUATIONS[area](rule_set)
    ids = clauses_in_force(area, rule_set)
    assert set(ids) <= set(situation.constraints), f"{area}: clauses without a constraint"
    report = find_contradictions(situation, ids)
    dead = [r.clause_id for r in check_vacuity(situation, ids) if r.verdict is not Verdict.CONSISTENT]
    return report.verdict, dead


@pytest.mark.clause(*clauses_in_force("side-battle", RuleSet()), *clauses_in_force("battle-resolution", RuleSet()),
                    *clauses_in_force("redirect", RuleSet()))
@pytest.mark.parametrize("area", AREAS)
def test_seed_reading_is_consistent_and_no_clause_is_vacuous(area: str) -> None:
    verdict, dead = _check(area, RuleSet())
    assert verdict is Verdict.CONSISTENT
    assert dead == []
    assert len(clauses_in_force(area, RuleSet())) == {"side-battle": 18, "battle-resolution": 12, "redirect": 18}[area]


def _variant_params() -> list[Any]:
    """One parameter per variant, marked with the clause that carries its decision (catalogue)."""
    decisions = default_catalogue().decisions
    return [pytest.param(a, d, o, id=f"{a}:{d}={o}", marks=pytest.mark.clause(decisions[d][0].id))
            for a, d, o in VARIANTS]


@pytest.mark.parametrize(("area", "decision", "option"), _variant_params())
def test_variants_are_consistent_and_no_clause_is_vacuous(area: str, decision: str, option: str) -> None:
    verdict, dead = _check(area, RuleSet(decisions={decision: option}))
    assert verdict is Verdict.CONSISTENT
    assert dead == list(EXPECTED_DEAD.get((decision, option), ()))


@pytest.mark.clause("RED-SB-CONTROL-SAME-MIXED", "RED-SB-RETURN-TO-BATTLE", "RED-SB-TARGET-ZONES")
def test_territory_only_reading_makes_case_four_dead() -> None:
    """A finding: if only characters in a territory are 'in play' (sb-in-play-zones =
    territory-only), no selected character is in a battle, so case 4 of the control rules
    (exactly one fighter in a battle) can never apply, which argues for the chosen reading
    (territory-or-battle). (RED-SB-RETURN-TO-BATTLE reads the ``ended`` input, which the
    situation does not tie to a legal start, so it is not reported dead here.)"""
    _, dead = _check("side-battle", RuleSet(decisions={"sb-in-play-zones": "territory-only"}))
    assert dead == ["RED-SB-CONTROL-SAME-MIXED"]


@pytest.mark.clause("RED-BR-MISSION-RESULT", "RED-BR-RESCUE-FAIL")
def test_rescue_draw_undetermined_contradicts_mission_result() -> None:
    """A finding: under br-rescue-draw = undetermined, a rescue ending in mutual destruction or
    stalemate (with access) is neither success nor failure, but RED-BR-MISSION-RESULT says
    resolution settles it. The minimal conflict also needs the outcome (FOUR-OUTCOMES, STEP1)."""
    rule_set = RuleSet(decisions={"br-rescue-draw": "undetermined"})
    report = find_contradictions(SITUATIONS["battle-resolution"](rule_set), clauses_in_force("battle-resolution", rule_set))
    assert report.verdict is Verdict.CONTRADICTION
    assert [c.clause_ids for c in report.contradictions] == [
        ("RED-BR-FOUR-OUTCOMES", "RED-BR-MISSION-RESULT", "RED-BR-STEP1-OUTCOME", "RED-BR-RESCUE-FAIL")
    ]
    situation = report.contradictions[0].situation
    assert situation["kind"] == "rescue attempt" and situation["access to a Lost Soul"] is True


@pytest.mark.clause("RED-BASE-PARALYZED-NO-BATTLE", *clauses_in_force("side-battle", RuleSet()))
def test_side_battle_clauses_with_the_base_paralysis_rule_stay_consistent() -> None:
    situation = SITUATIONS["side-battle"](RuleSet())
    ids = (*clauses_in_force("side-battle", RuleSet()), *sb.BASE_CLAUSES)
    assert find_contradictions(situation, ids).verdict is Verdict.CONSISTENT
    assert all(r.verdict is Verdict.CONSISTENT for r in check_vacuity(situation, ids))


@pytest.mark.infrastructure("the z3 encoding is independent of the model")
def test_encoding_does_not_import_the_model() -> None:
    """Independence: loading the whole Redemption encoding loads no ``model.*`` module."""
    code = ("import sys, cardrules.specs.smt.redemption; "
            "print(sorted(m for m in sys.modules if m == 'cardrules.model' or m.startswith('cardrules.model.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(("option", "goes_back"), [("heal-placement", False), ("back-to-previous-battle", True)])
@pytest.mark.clause("RED-SB-RETURN-TO-BATTLE", "RED-SB-DEFEAT-NORMAL")
def test_a_fighter_healed_at_side_battle_resolution_follows_its_decision(option: str, goes_back: bool) -> None:
    """Fighter x came from another battle, was defeated in the side battle and healed in the heal
    window. Decision sb-healed-fighter-destination: it goes where the heal rules place it (not
    back), or back to its previous battle as a survivor. z3 must force that answer either way."""
    rule_set = RuleSet(decisions={"sb-healed-fighter-destination": option})
    situation = sb_clauses.started_side_battle_situation(rule_set)
    v = sb.SBVars.make()
    facts = [situation.background, situation.domain, *[c.formula for c in situation.constraints.values()],
             v.ended, sb_terms.in_a_battle(v.zone_x, rule_set), v.defeated_x, v.healed_x]
    solver = z3.Solver()
    solver.add(*facts)
    assert solver.check(v.back_x) == (z3.sat if goes_back else z3.unsat)
    assert solver.check(z3.Not(v.back_x)) == (z3.unsat if goes_back else z3.sat)


@pytest.mark.parametrize("option", ["rescue-attempt-only", "challenge-can-become-rescue"])
@pytest.mark.clause("RED-BR-RESCUE-SUCCESS", "RED-BR-CHALLENGE-RESULT", "RED-BR-UNAFFECTED-NORMAL")
def test_access_in_a_battle_challenge_follows_its_decision(option: str) -> None:
    """A battle challenge the Hero side wins at step 2, with access to a Lost Soul (gained during
    the battle). Decision br-rescue-access: impossible by the background (access only matters
    for a rescue), or judged as a rescue that moves a Lost Soul."""
    rule_set = RuleSet(decisions={"br-rescue-access": option})
    situation = br.resolution_situation(rule_set)
    v = br.BRVars.make(br.K_CONSISTENCY)
    solver = z3.Solver()
    solver.add(situation.background, situation.domain, *[c.formula for c in situation.constraints.values()],
               v.kind == br.CHALLENGE, v.outcome_step2 == br.SIDE0_WINS)
    if option == "rescue-attempt-only":
        assert solver.check(v.access) == z3.unsat
        assert solver.check(v.soul_rescued) == z3.unsat
    else:
        assert solver.check(v.access, z3.Not(v.soul_rescued)) == z3.unsat
        assert solver.check(v.access, v.soul_rescued, v.mission == br.SUCCESS) == z3.sat
