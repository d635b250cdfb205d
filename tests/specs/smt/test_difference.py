"""The z3 difference search over consistency situations (specs/smt/difference.py), without the model.

Expected situations are worked out from the clause text: the revised heal wording forbids a heal of a
card in a discard pile (RED-HEAL-NOT-IN-DISCARD-PILE) where the previous one heals a character played
on the pile way (RED-HEAL-PREV-ENH-TWO-WAYS); a character healed in its heal window goes to the player
with permanent control (RED-HEAL-TO-PERMANENT-CONTROLLER) or, changed, to its owner; one side battle
a turn (RED-SB-ONCE-PER-TURN, RED-SB-RESTRICT-AFTER) against two.
"""

from __future__ import annotations

from typing import Mapping

import pytest
import z3

from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force
from cardrules.specs.smt.budget import Budget
from cardrules.specs.smt.consistency import ClauseConstraint
from cardrules.specs.smt.difference import Outcome, Side, find_difference, same_meaning
from cardrules.specs.smt.redemption import heal as h
from cardrules.specs.smt.situations import SITUATIONS

BUDGET = Budget(rlimit=60_000_000)


def side(label: str, area: str, versions: tuple[str, ...] = (), decisions: Mapping[str, str] | None = None) -> Side:
    rule_set = RuleSet(versions={area: frozenset(versions)} if versions else {}, decisions=dict(decisions or {}))
    return Side(label, SITUATIONS[area](rule_set), tuple(clauses_in_force(area, rule_set)))


def with_clauses(base: Side, label: str, extra: dict[str, ClauseConstraint]) -> Side:
    from dataclasses import replace

    situation = replace(base.situation, constraints={**base.situation.constraints, **extra})
    return Side(label, situation, tuple(dict.fromkeys([*base.clause_ids, *extra])))


def to_owner(situation: object) -> dict[str, ClauseConstraint]:
    """RED-HEAL-TO-PERMANENT-CONTROLLER changed: healed while being discarded -> the owner's territory."""
    v = {str(x): x for x in (*situation.inputs, *situation.outputs)}  # type: ignore[attr-defined]
    premise = z3.And(v["heal.healed"], v["heal.place"] == h.BEING_DISCARDED)
    return {"RED-HEAL-TO-PERMANENT-CONTROLLER": ClauseConstraint(
        "RED-HEAL-TO-PERMANENT-CONTROLLER", premise, v["heal.destination"] == v["heal.owner"])}


@pytest.mark.clause("RED-HEAL-NOT-IN-DISCARD-PILE", "RED-HEAL-PREV-ENH-TWO-WAYS")
def test_the_two_heal_wordings_differ_on_a_card_in_a_discard_pile() -> None:
    revised, previous = side("A", "heal", ("revised",)), side("B", "heal", ("previous",))
    assert same_meaning(revised, previous, BUDGET) is Outcome.DIFFERENCE

    def pile(v: Mapping[str, z3.ExprRef]) -> z3.BoolRef:
        return v["heal.place"] == h.DISCARD_PILE

    found = find_difference("heal", revised, previous, restrict=pile, budget=BUDGET)
    assert found.outcome is Outcome.DIFFERENCE
    assert found.inputs["heal.place"] == h.DISCARD_PILE
    # the revised wording never heals a card in a pile; the previous one does here
    assert found.seen["A"]["heal.healed"] is False
    assert found.seen["B"]["heal.healed"] is True


@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-AT-RESOLUTION")
def test_a_changed_destination_is_found_where_owner_and_controller_differ() -> None:
    base = side("A", "heal", ("revised",))
    changed = with_clauses(side("B", "heal", ("revised",)), "B", to_owner(base.situation))
    found = find_difference("heal", base, changed, budget=BUDGET)
    assert found.outcome is Outcome.DIFFERENCE and found.kind == "disjoint"
    owner, controller = found.inputs["heal.owner"], found.inputs["heal.permanent_controller"]
    assert owner != controller and found.inputs["heal.place"] == h.BEING_DISCARDED
    # nothing lowered the card's numbers here, so it comes back unlowered under both
    assert found.seen["A"] == {"heal.healed": True, "heal.destination": controller, "heal.lowered_after": False}
    assert found.seen["B"] == {"heal.healed": True, "heal.destination": owner, "heal.lowered_after": False}


@pytest.mark.clause("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER")
def test_a_second_side_battle_is_allowed_by_a_limit_of_two_only() -> None:
    one = side("A", "side-battle")
    v = {str(x): x for x in (*one.situation.inputs, *one.situation.outputs)}
    used, count, effect = v["sb.used"], v["sb.count"], v["sb.takes_effect"]
    two = with_clauses(side("B", "side-battle"), "B", {
        "RED-SB-ONCE-PER-TURN": ClauseConstraint("RED-SB-ONCE-PER-TURN", used, z3.And(
            z3.Implies(count >= 2, z3.Not(effect)), v["sb.count_after"] == count + z3.If(effect, 1, 0))),
        "RED-SB-RESTRICT-AFTER": ClauseConstraint("RED-SB-RESTRICT-AFTER", z3.And(used, count >= 2),
                                                  z3.And(v["sb.card_playable"], z3.Not(effect))),
    })

    def one_user(v: Mapping[str, z3.ExprRef]) -> z3.BoolRef:
        """Two players, player 0 uses the ability, in the main battle, before any side battle ended."""
        return z3.And(v["sb.players"] == 2, v["sb.user"] == 0, v["sb.used"], z3.Not(v["sb.nested"]),
                      z3.Not(v["sb.ended"]))

    found = find_difference("side-battle", one, two, restrict=one_user, budget=BUDGET)
    assert found.outcome is Outcome.DIFFERENCE and found.allowed_by == "B"
    # a side battle that takes effect after exactly one earlier this turn
    assert found.inputs["sb.count"] == 1 and found.seen["B"]["sb.takes_effect"] is True
    assert found.seen["B"]["sb.count_after"] == 2


@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER")
def test_the_same_clauses_mean_the_same_and_an_unread_decision_changes_nothing() -> None:
    assert find_difference("heal", side("A", "heal", ("revised",)), side("B", "heal", ("revised",)),
                           budget=BUDGET).kind == "same-meaning"
    # prev-owner-scope is about the previous wording's RED-HEAL-PREV-TO-OWNER, not in force under the revised one
    found = find_difference("heal", side("A", "heal", ("revised",)),
                            side("B", "heal", ("revised",), {"prev-owner-scope": "every-healed-discard"}),
                            budget=BUDGET)
    assert found.outcome is Outcome.NONE and found.kind == "same-meaning"


@pytest.mark.clause("RED-SB-ONCE-PER-TURN")
def test_a_spent_budget_is_unknown_never_no_difference() -> None:
    found = find_difference("heal", side("A", "heal", ("revised",)), side("B", "heal", ("previous",)),
                            budget=Budget(rlimit=2_000))
    assert found.outcome is Outcome.UNKNOWN and "resource limit" in found.reason


def toy(label: str, hidden_is: bool | None) -> Side:
    """A toy situation: input ``p``; outputs ``seen`` (shown) and ``hidden``; both rule sets say ``seen == p``;
    ``hidden_is``: what the changed clause says of ``hidden`` when ``p`` (None: something impossible)."""
    from cardrules.specs.smt.consistency import Situation

    p, seen, hidden = z3.Bool("toy.p"), z3.Bool("toy.seen"), z3.Bool("toy.hidden")
    conclusion = z3.And(hidden, z3.Not(hidden)) if hidden_is is None else hidden == hidden_is
    constraints = {"SEEN": ClauseConstraint("SEEN", z3.BoolVal(True), seen == p),
                   "HIDDEN": ClauseConstraint("HIDDEN", p, conclusion)}
    situation = Situation("toy", (p,), (seen, hidden), z3.BoolVal(True), z3.BoolVal(True), constraints, lambda m: {})
    return Side(label, situation, ("SEEN", "HIDDEN"))


@pytest.mark.infrastructure("the search's shortcut for clauses that differ only in outputs no player sees")
def test_a_change_of_an_unseen_output_is_no_difference_unless_it_forbids_everything(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import cardrules.specs.smt.difference as difference

    monkeypatch.setattr(difference, "OBSERVED", {"toy": (difference.Observed("toy.seen"),)})
    assert difference.unobserved_only("toy", toy("A", True), toy("B", False), BUDGET)
    found = find_difference("toy", toy("A", True), toy("B", False), budget=BUDGET)
    assert found.outcome is Outcome.NONE and found.kind == "unobserved-only"
    # B's clause cannot be met when p holds: B allows nothing there, A allows seen = p
    assert not difference.unobserved_only("toy", toy("A", True), toy("B", None), BUDGET)
    found = find_difference("toy", toy("A", True), toy("B", None), budget=BUDGET)
    assert found.outcome is Outcome.NONE  # B allows nothing where p holds: no outcome of B to compare
