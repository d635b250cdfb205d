"""The z3 search of ``cardrules diff`` (oracle/rulechange/smt_search.py): z3 finds a situation on which two
rule sets disagree, it is decoded into a position and played on the model under both.

Expected values from the clause text: under the revised heal wording a character healed in Battle
Resolution's heal window goes to the territory of the player with permanent control of it
(RED-HEAL-TO-PERMANENT-CONTROLLER), under the heal-to-owner proposal to its owner's; the revised wording
never heals a card in a discard pile (RED-HEAL-NOT-IN-DISCARD-PILE) where the previous one heals a
character discarded this turn with an enhancement played on the pile way (RED-HEAL-PREV-ENH-TWO-WAYS);
a player may start one side battle a turn (RED-SB-ONCE-PER-TURN, after it the card's ability is
blanked: RED-SB-RESTRICT-AFTER), two under the two-side-battles proposal.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.oracle.rulechange.proposals import load_proposal
from cardrules.oracle.rulechange.smt_search import SearchResult, search_differences, search_markdown, search_text
from cardrules.properties.scenarios.rulesets import NamedRuleSet, parse_rule_set_expression
from cardrules.specs.smt.budget import Budget

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = Path(__file__).parent / "smt_search_fixtures"
BUDGET = Budget(rlimit=60_000_000)


def named(text: str) -> NamedRuleSet:
    if text.endswith(".toml"):
        proposal = load_proposal(Path(text), allow_code=True)
        return NamedRuleSet(proposal.id, proposal.game, proposal.spec, proposal.hooks, proposal)
    return parse_rule_set_expression(text)


def search(a: str, b: str, budget: Budget = BUDGET) -> dict[str, SearchResult]:
    return {r.area: r for r in search_differences("redemption", named(a), named(b), budget=budget)}


def territory(outcome: dict[str, object], player: int) -> object:
    after = outcome["after"]
    assert isinstance(after, dict)
    return after["heal t with hx"].get(f"P{player} territory")


@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-AT-RESOLUTION")
def test_heal_to_owner_is_found_and_confirmed_on_the_model() -> None:
    results = search("heal=revised", str(ROOT / "docs/proposals/heal-to-owner.toml"))
    heal = results["heal"]
    assert heal.verdict == "difference"
    assert heal.situation["place"] == "being discarded" and heal.situation["discarded by"] == "Battle Resolution"
    assert heal.situation["owner"] != heal.situation["permanent controller"]
    owner = int(str(heal.situation["owner"]).split()[-1])
    controller = 1 - owner
    # both allow the heal; A sends the character to its permanent controller, B to its owner
    assert heal.model_outcomes["A"]["actions"] == heal.model_outcomes["B"]["actions"] == ["heal t with hx"]
    assert "t" in territory(heal.model_outcomes["A"], controller)  # type: ignore[operator]
    assert "t" in territory(heal.model_outcomes["B"], owner)  # type: ignore[operator]
    assert results["side-battle"].verdict == "no-difference"


@pytest.mark.clause("RED-HEAL-NOT-IN-DISCARD-PILE", "RED-HEAL-PREV-ENH-TWO-WAYS", "RED-HEAL-PREV-TO-OWNER")
def test_the_two_heal_wordings_are_told_apart_on_the_model() -> None:
    """Two situations tell the wordings apart, and z3 may give either: a card in a discard pile, discarded
    this turn (only the previous wording heals it), or a character healed in Battle Resolution's heal window
    whose owner is not its permanent controller (the previous wording sends it to its owner: decision
    prev-owner-scope, every-healed-discard)."""
    heal = search("heal=revised", "heal=previous")["heal"]
    assert heal.verdict == "difference"
    if heal.situation["place"] == "discard pile":
        assert heal.situation["discarded this turn"] is True
        assert heal.model_outcomes["A"]["actions"] == []
        assert heal.model_outcomes["B"]["actions"] == ["heal t with hx"]
    else:
        assert heal.situation["place"] == "being discarded"
        owner = int(str(heal.situation["owner"]).split()[-1])
        assert "t" in territory(heal.model_outcomes["A"], 1 - owner)  # type: ignore[operator]
        assert "t" in territory(heal.model_outcomes["B"], owner)  # type: ignore[operator]


@pytest.mark.clause("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER")
def test_a_second_side_battle_is_found_and_confirmed_on_the_model() -> None:
    results = search("default", str(ROOT / "docs/proposals/two-side-battles.toml"))
    battle = results["side-battle"]
    assert battle.verdict == "difference"
    assert battle.situation["count"] == 1  # one side battle started earlier this turn
    # A: the card may still be played, its ability blanked; B: the side battle starts
    assert battle.model_outcomes["A"]["actions"] == ["play sb0 on h0"]
    assert battle.model_outcomes["B"]["actions"] == ["play sb0 on h0 -> e1 e2"]
    opened = battle.model_outcomes["B"]["after"]["play sb0 on h0 -> e1 e2"]["battle 1"]
    assert opened[0] == "side"
    assert results["heal"].verdict == "no-difference"


@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER")
def test_no_difference_is_proved_when_there_is_none() -> None:
    for a, b in (("default", "default"), ("heal=revised", "heal=revised,prev-owner-scope=every-healed-discard")):
        results = search(a, b)
        assert {r.verdict for r in results.values()} == {"no-difference"}
        assert "no difference in any state of the encoded area" in results["heal"].reason
        assert "not modelled" in results["heal"].limits


@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER")
def test_a_planted_wrong_z3_clause_is_an_encoding_disagreement() -> None:
    heal = search("heal=revised", str(FIXTURES / "wrong-destination.toml"))["heal"]
    assert heal.verdict == "encoding-disagreement"
    assert "the two encodings disagree" in heal.reason
    # z3 under B sends the character to its owner; the model, with no code behind the change, does as under A
    assert heal.z3_outcomes["A"]["heal.destination"] != heal.z3_outcomes["B"]["heal.destination"]
    assert heal.model_outcomes["A"] == heal.model_outcomes["B"]


@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER")
def test_a_changed_clause_with_no_z3_constraint_is_not_encoded() -> None:
    heal = search("heal=revised", str(FIXTURES / "text-only-heal.toml"))["heal"]
    assert heal.verdict == "not-encoded" and "RED-HEAL-TO-PERMANENT-CONTROLLER" in heal.reason


@pytest.mark.clause("RED-HEAL-NOT-IN-DISCARD-PILE")
def test_a_spent_rlimit_is_unknown_and_the_reports_say_each_verdict() -> None:
    results = search("heal=revised", "heal=previous", Budget(rlimit=2_000))
    assert results["heal"].verdict == "unknown" and "resource limit" in results["heal"].reason
    text = search_text(list(results.values()))
    assert "  heal: unknown" in text
    assert any(line.startswith("- **heal**: unknown") for line in search_markdown(list(results.values())))
    assert results["heal"].to_json()["verdict"] == "unknown"


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS")
def test_an_fftcg_split_with_a_zero_share_tells_the_readings_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decision party-zero-share: by default any member's share may be 0; under each-hit-if-possible every
    member gets at least 1000 when the power allows it, else each share is 0 or 1000. B allows fewer splits,
    so the step found is a split A allows and B refuses: one with a zero share, or one above 1000."""
    import cardrules.properties.scenarios.loader as loader

    only = [s for s in loader.load_scenarios() if s.name == "fftcg-party-basics"]
    monkeypatch.setattr(loader, "load_scenarios", lambda: tuple(only))
    a, b = named("default"), named("party-zero-share=each-hit-if-possible")
    [result] = search_differences("fftcg", a, b, budget=BUDGET)
    assert result.area == "transitions from fftcg-party-basics" and result.verdict == "difference"
    assert result.action.startswith("split ")
    shares = [int(part.split("=")[1]) for part in result.action.split()[1:]]
    assert (0 in shares or max(shares) > 1000) and result.model_outcomes["A"]["actions"] == [result.action]
    assert result.model_outcomes["B"]["actions"] == []
    [same] = search_differences("fftcg", a, named("default"), budget=BUDGET)
    assert same.verdict == "no-difference"
