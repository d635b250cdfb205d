"""Consistency and vacuity of the heal clauses, both wordings and the redline read as one.

Expected results are the ones the seeds' README names by hand: each wording
alone is consistent; read as one text, the redline says a healed character
goes both to its owner's territory and to the permanent controller's, and
that a character in a discard pile can and cannot be healed.
"""

from __future__ import annotations

import io
import json

import pytest
import z3

from cardrules.oracle.cli import main
from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force
from cardrules.specs.smt.budget import Budget
from cardrules.specs.smt.redemption import heal
from cardrules.specs.smt.consistency import (
    ClauseConstraint,
    Situation,
    Verdict,
    check_vacuity,
    conflicting_situation,
    find_contradictions,
)

REVISED = RuleSet(versions={"heal": frozenset({"revised"})})
PREVIOUS = RuleSet(versions={"heal": frozenset({"previous"})})
REDLINE = RuleSet(versions={"heal": frozenset({"revised", "previous"})})

DESTINATION = ("RED-HEAL-WINDOW", "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER")
PILE = ("RED-HEAL-NOT-IN-DISCARD-PILE", "RED-HEAL-PREV-ENH-TWO-WAYS")
AT_RESOLUTION_DESTINATION = ("RED-HEAL-AT-RESOLUTION", "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER")


@pytest.fixture(scope="module")
def redline_report():
    return find_contradictions(heal.heal_situation(REDLINE), clauses_in_force("heal", REDLINE))


@pytest.mark.clause(*clauses_in_force("heal", REVISED))
def test_revised_wording_alone_is_consistent() -> None:
    report = find_contradictions(heal.heal_situation(REVISED), clauses_in_force("heal", REVISED))
    assert report.verdict is Verdict.CONSISTENT
    assert report.contradictions == ()


@pytest.mark.clause(*clauses_in_force("heal", PREVIOUS))
def test_previous_wording_alone_is_consistent() -> None:
    report = find_contradictions(heal.heal_situation(PREVIOUS), clauses_in_force("heal", PREVIOUS))
    assert report.verdict is Verdict.CONSISTENT


@pytest.mark.clause(*DESTINATION)
def test_redline_destination_contradiction_is_found_with_owner_not_controller(redline_report) -> None:
    assert redline_report.verdict is Verdict.CONTRADICTION
    found = {c.clause_ids: c for c in redline_report.contradictions}
    assert DESTINATION in found
    situation = found[DESTINATION].situation
    # owner's territory vs permanent controller's territory only clash when they differ
    assert situation["owner"] != situation["permanent controller"]
    assert situation["place"] == "being discarded"
    # the same clash for a discard by Battle Resolution
    assert AT_RESOLUTION_DESTINATION in found


@pytest.mark.clause(*PILE, "RED-HEAL-HEALABLE", "RED-HEAL-ENH-ON-MATCHING-BRIGADE")
def test_redline_discard_pile_contradiction_is_found(redline_report) -> None:
    found = {c.clause_ids: c for c in redline_report.contradictions}
    assert PILE in found
    situation = found[PILE].situation
    assert situation["place"] == "discard pile"
    assert situation["discarded this turn"] is True
    assert situation["healed with"] == "an enhancement from hand"
    # the revised wording forbids the same heal twice more: not healable, and not a legal home
    assert ("RED-HEAL-HEALABLE", "RED-HEAL-PREV-ENH-TWO-WAYS") in found
    assert ("RED-HEAL-ENH-ON-MATCHING-BRIGADE", "RED-HEAL-PREV-ENH-TWO-WAYS") in found
    # and nothing else: every contradiction involves one clause of each wording
    assert len(found) == 5


@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER")
def test_alternative_reconstruction_makes_the_previous_wording_contradict_itself() -> None:
    both_old = RuleSet(versions={"heal": frozenset({"previous"})}, decisions={"redline-destination": "both-old"})
    ids = clauses_in_force("heal", both_old)
    assert "RED-HEAL-TO-PERMANENT-CONTROLLER" in ids
    report = find_contradictions(heal.heal_situation(both_old), ids)
    # The previous wording has no heal window (redline-window = inserted), so the two
    # destinations clash on a character healed at Battle Resolution.
    assert "RED-HEAL-WINDOW" not in ids
    assert AT_RESOLUTION_DESTINATION in {c.clause_ids for c in report.contradictions}


@pytest.mark.clause("RED-HEAL-PREV-HEALABLE", "RED-HEAL-AT-RESOLUTION", "RED-HEAL-PREV-DISCARDED-MEANS")
def test_previous_healable_read_without_the_clarification_contradicts_battle_resolution() -> None:
    # prev-healable-pending = earlier-only: a character Battle Resolution is about to discard
    # is not healable, yet RED-HEAL-AT-RESOLUTION says it can be healed.
    earlier = RuleSet(versions={"heal": frozenset({"previous"})}, decisions={"prev-healable-pending": "earlier-only"})
    report = find_contradictions(heal.heal_situation(earlier), clauses_in_force("heal", earlier))
    found = {c.clause_ids: c for c in report.contradictions}
    assert ("RED-HEAL-AT-RESOLUTION", "RED-HEAL-PREV-HEALABLE") in found
    assert found[("RED-HEAL-AT-RESOLUTION", "RED-HEAL-PREV-HEALABLE")].situation["place"] == "being discarded"


@pytest.mark.clause("RED-HEAL-PREV-TO-OWNER")
def test_previous_owner_scope_pile_only_removes_the_window_clash() -> None:
    pile_only = RuleSet(versions={"heal": frozenset({"revised", "previous"})}, decisions={"prev-owner-scope": "pile-only"})
    report = find_contradictions(heal.heal_situation(pile_only), clauses_in_force("heal", pile_only))
    found = {c.clause_ids for c in report.contradictions}
    assert DESTINATION not in found  # a window heal no longer goes to the owner
    assert PILE in found


@pytest.mark.clause("RED-HEAL-PREV-REGAINS", "RED-HEAL-PREV-ATTACHED-RETURN", "RED-HEAL-PREV-SEARCH")
def test_vacuity_each_wording_has_no_dead_clause_but_the_union_has_three() -> None:
    for rule_set in (REVISED, PREVIOUS):
        results = check_vacuity(heal.heal_situation(rule_set), clauses_in_force("heal", rule_set))
        assert all(r.verdict is Verdict.CONSISTENT for r in results), [r.clause_id for r in results if r.verdict is not Verdict.CONSISTENT]
    # read as one text, no heal out of a pile is possible, so the clauses about one never apply
    results = check_vacuity(heal.heal_situation(REDLINE), clauses_in_force("heal", REDLINE))
    dead = {r.clause_id for r in results if r.verdict is Verdict.CONTRADICTION}
    assert dead == {"RED-HEAL-PREV-REGAINS", "RED-HEAL-PREV-ATTACHED-RETURN", "RED-HEAL-PREV-SEARCH"}


@pytest.mark.clause("RED-HEAL-NOT-IN-DISCARD-PILE", "RED-HEAL-WINDOW")
def test_a_deliberately_broken_encoding_is_caught() -> None:
    """Mis-encode 'no heal from a discard pile' as 'no heal while being discarded': the check objects."""
    good = heal.heal_situation(REVISED)
    v = heal.HealVars.make()
    broken_constraint = ClauseConstraint("RED-HEAL-NOT-IN-DISCARD-PILE", v.place == heal.BEING_DISCARDED, z3.Not(v.healed))
    broken = Situation(
        good.name, good.inputs, good.outputs, good.background, good.domain,
        {**good.constraints, "RED-HEAL-NOT-IN-DISCARD-PILE": broken_constraint}, good.describe,
    )
    report = find_contradictions(broken, clauses_in_force("heal", REVISED))
    assert report.verdict is Verdict.CONTRADICTION
    assert ("RED-HEAL-WINDOW", "RED-HEAL-NOT-IN-DISCARD-PILE") in {tuple(sorted(c.clause_ids, reverse=True)) for c in report.contradictions}


@pytest.mark.infrastructure("the consistency command: unknown verdicts and input errors")
def test_unknown_is_reported_as_unknown_never_as_consistent() -> None:
    x, o, p = z3.Ints("x o p")
    hard = z3.Or(z3.And(o > 1, p > 1, o * p == x), z3.And(o > 0, o * o * o == x * x + 7 * x + 1))
    situation = Situation(
        "hard", (x,), (o, p), x > 10**6, z3.BoolVal(True),
        {"RED-HEAL-PURPOSE": ClauseConstraint("RED-HEAL-PURPOSE", z3.BoolVal(True), hard)},
        lambda model: {},
    )
    report = find_contradictions(situation, ["RED-HEAL-PURPOSE"], budget=Budget(rlimit=2000))
    assert report.verdict is Verdict.UNKNOWN
    assert report.reason


@pytest.mark.infrastructure("the consistency command: unknown verdicts and input errors")
def test_conflicting_situation_rejects_clauses_the_situation_does_not_encode() -> None:
    with pytest.raises(KeyError, match="does not encode RED-SB"):
        conflicting_situation(heal.heal_situation(), ["RED-SB-NOT-A-HEAL-CLAUSE"])


@pytest.mark.clause(*DESTINATION)
def test_cli_consistency_exit_codes_and_json() -> None:
    out = io.StringIO()
    assert main(["smt", "consistency", "--version", "revised"], out=out) == 0
    assert "heal, revised: 18 clauses: consistent" in out.getvalue()
    out = io.StringIO()
    assert main(["smt", "consistency", "--json"], out=out) == 1
    runs = json.loads(out.getvalue())
    assert [r["versions"] for r in runs] == [["revised"], ["previous"], ["previous", "revised"]]
    assert [r["verdict"] for r in runs] == ["consistent", "consistent", "contradiction"]
    assert list(DESTINATION) in [c["clauses"] for c in runs[2]["contradictions"]]


@pytest.mark.infrastructure("the consistency command: unknown verdicts and input errors")
def test_cli_rejects_unknown_decisions_and_areas(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["smt", "consistency", "--decision", "redline-window=maybe"]) == 3
    assert "has no option 'maybe'" in capsys.readouterr().err
    assert main(["smt", "vacuity", "--area", "party"]) == 3
    assert "no SMT situation for area 'party'" in capsys.readouterr().err


@pytest.mark.parametrize(("option", "can_heal"), [("outside-battle-only", False), ("in-battle-too", True)])
@pytest.mark.clause("RED-HEAL-PREV-ENH-TWO-WAYS", "RED-HEAL-PREV-ENH-INITIATIVE")
def test_previous_two_ways_in_battle_follows_its_decision(option: str, can_heal: bool) -> None:
    # Previous wording: in the battle phase the player with initiative plays a healing
    # enhancement on a character in their own pile, discarded this turn by an ability, legal on
    # it as it was. Healed only if the two ways apply in battle too (prev-two-ways-in-battle).
    rule_set = RuleSet(versions={"heal": frozenset({"previous"})}, decisions={"prev-two-ways-in-battle": option})
    situation = heal.heal_situation(rule_set)
    v = heal.HealVars.make()
    solver = z3.Solver()
    solver.add(situation.background, situation.domain,
               *[situation.constraints[c].formula for c in clauses_in_force("heal", rule_set)])
    solver.add(v.is_heal, v.is_character, v.means == heal.ENHANCEMENT, v.phase == heal.BATTLE,
               v.place == heal.DISCARD_PILE, v.cause == heal.BY_ABILITY, v.this_turn, v.holders_pile,
               v.has_initiative, v.able, v.same_target, v.targeted, v.healed)
    assert solver.check() == (z3.sat if can_heal else z3.unsat)
