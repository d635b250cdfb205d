"""Battle Resolution scenarios (seed 001, Battle Resolution) and the base
battle rules. Numbers are chosen by hand; each comment gives the arithmetic."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardrules.model.redemption.initiative import initiative
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.engine import legal_actions
from cardrules.model.redemption.resolution import mission_result
from cardrules.model.redemption.scenario import evil, good_enh, hero, position, soul
from cardrules.model.redemption.state import BattleKind, Effect, Mission, Outcome, PromptKind, Status
from tests.model.redemption.helpers import act, acts, illegal


def duel(hs: int, ht: int, es: int, et: int, *, souls: int = 1, extra=(), zones=None, config: RuleConfig = DEFAULT):
    """p0's Hero h (hs/ht) attacks p1, who blocks with e (es/et); p1 has ``souls`` Lost Souls."""
    cards = [hero("h", 0, hs, ht), evil("e", 1, es, et), *[soul(f"s{i}", 1) for i in range(souls)], *extra]
    z = {0: {"territory": ["h"]}, 1: {"territory": ["e"], "bondage": [f"s{i}" for i in range(souls)]}}
    for p, given in (zones or {}).items():
        for k, v in given.items():
            z.setdefault(p, {}).setdefault(k, [])
            z[p][k] = [*z[p][k], *v]
    s = position(cards, z, 2)
    return acts(s, ["attack 1 h", "block e"], config)


def finish(s, config: RuleConfig = DEFAULT):
    """Pass, then let every heal window close."""
    s = act(s, "pass", config)
    while s.prompt is not None and s.prompt.kind is PromptKind.HEAL_WINDOW:
        s = act(s, "discard", config)
    return s


@pytest.mark.clause("RED-BR-FOUR-OUTCOMES", "RED-BR-RESCUE-SUCCESS", "RED-BR-STEP4-DISCARD-RETURN", "RED-BASE-DEFEAT")
def test_hero_wins_rescue_succeeds() -> None:
    # h 3/3 vs e 2/2: 3 >= 2 e defeated; 2 < 3 h not: Hero wins. p1 has a Lost Soul: rescue succeeds.
    s = finish(duel(3, 3, 2, 2))
    assert s.last_outcome is Outcome.SIDE0_WINS and s.last_mission is Mission.SUCCESS
    assert s.zones[0].redemption == {"s0"} and not s.zones[1].bondage
    assert "e" in s.zones[1].discard and "h" in s.zones[0].territory


@pytest.mark.clause("RED-BR-FOUR-OUTCOMES", "RED-BR-RESCUE-FAIL")
def test_evil_wins_rescue_fails() -> None:
    # h 2/2 vs e 3/3: 3 >= 2 h defeated; 2 < 3 e not: Evil wins; rescue fails.
    s = finish(duel(2, 2, 3, 3))
    assert s.last_outcome is Outcome.SIDE1_WINS and s.last_mission is Mission.FAILURE
    assert "h" in s.zones[0].discard and "e" in s.zones[1].territory and s.zones[1].bondage == {"s0"}


@pytest.mark.clause("RED-BR-FOUR-OUTCOMES", "RED-BASE-MUTUAL-STALEMATE", "RED-BR-RESCUE-FAIL")
def test_mutual_destruction() -> None:
    # h 3/3 vs e 3/3: both 3 >= 3: both defeated -> mutual destruction; rescue fails (decision br-rescue-draw).
    s = finish(duel(3, 3, 3, 3))
    assert s.last_outcome is Outcome.MUTUAL_DESTRUCTION and s.last_mission is Mission.FAILURE
    assert "h" in s.zones[0].discard and "e" in s.zones[1].discard


@pytest.mark.clause("RED-BR-FOUR-OUTCOMES", "RED-BASE-MUTUAL-STALEMATE", "RED-BR-RETURN-PERMANENT-CONTROLLER")
def test_stalemate_everyone_returns() -> None:
    # h 1/5 vs e 1/5: 1 < 5 both ways: stalemate; both go back to their territories.
    s = finish(duel(1, 5, 1, 5))
    assert s.last_outcome is Outcome.STALEMATE and s.last_mission is Mission.FAILURE
    assert "h" in s.zones[0].territory and "e" in s.zones[1].territory


@pytest.mark.clause("RED-BR-CHALLENGE-RESULT", "RED-BASE-RESCUE-OR-CHALLENGE")
def test_challenge_success_and_failure() -> None:
    # p1 has no Lost Soul: a battle challenge. Hero wins (3/3 vs 2/2) -> success;
    # stalemate (1/5 vs 1/5) -> failure; under br-challenge-success = challenger-not-beaten the stalemate succeeds.
    won = duel(3, 3, 2, 2, souls=0)
    assert won.battles[0].kind is BattleKind.CHALLENGE
    assert finish(won).last_mission is Mission.SUCCESS
    assert finish(duel(1, 5, 1, 5, souls=0)).last_mission is Mission.FAILURE
    assert finish(duel(2, 2, 3, 3, souls=0)).last_mission is Mission.FAILURE
    lenient = RuleConfig.of({"br-challenge-success": "challenger-not-beaten"})
    assert finish(duel(1, 5, 1, 5, souls=0, config=lenient), lenient).last_mission is Mission.SUCCESS


@pytest.mark.clause("RED-BR-RESCUE-FAIL", "RED-BR-MISSION-RESULT")
def test_rescue_fails_without_access() -> None:
    # A rescue attempt whose defender no longer has any Lost Soul fails even though the Hero won.
    s = duel(3, 3, 2, 2)
    battle = s.battles[0]
    lost_access = replace(s, zones=(s.zones[0], replace(s.zones[1], bondage=frozenset())))
    assert mission_result(lost_access, battle, Outcome.SIDE0_WINS, DEFAULT) is Mission.FAILURE
    assert mission_result(s, battle, Outcome.SIDE0_WINS, DEFAULT) is Mission.SUCCESS
    side = replace(battle, kind=BattleKind.SIDE)
    assert mission_result(s, side, Outcome.SIDE0_WINS, DEFAULT) is Mission.NONE


@pytest.mark.clause("RED-BASE-BLOCKING", "RED-BR-RESCUE-SUCCESS")
def test_unblocked_rescue_succeeds_at_once() -> None:
    # No blocker: the Evil side is empty (beaten), the Hero (toughness 3 > 0) is not: Hero wins.
    s = position([hero("h", 0, 1, 3), soul("s0", 1)], {0: {"territory": ["h"]}, 1: {"bondage": ["s0"]}}, 2)
    s = acts(s, ["attack 1 h", "noblock"])
    assert s.battles == () and s.last_mission is Mission.SUCCESS and s.zones[0].redemption == {"s0"}


@pytest.mark.clause("RED-BR-HEAL-WINDOW", "RED-BR-ORDER", "RED-BR-STEP1-OUTCOME")
def test_heal_window_before_discard() -> None:
    # Mutual destruction (3/3 vs 3/3): both to be discarded. Each controlling
    # player gets the window in seat order; until it closes the card is still in battle.
    s = act(duel(3, 3, 3, 3), "pass")
    assert s.prompt is not None and s.prompt.kind is PromptKind.HEAL_WINDOW
    assert (s.prompt.player, s.prompt.cards) == (0, ("h",))
    assert s.fighter("h") is not None and "h" not in s.zones[0].discard
    # Step 1 and 2 are already fixed while step 4 waits.
    assert s.battles[0].outcome is Outcome.MUTUAL_DESTRUCTION and s.battles[0].mission is Mission.FAILURE
    illegal(s, "pass", "RED-BR-HEAL-WINDOW")
    s = act(s, "discard")
    assert (s.prompt.player, s.prompt.cards) == (1, ("e",))  # type: ignore[union-attr]
    assert "h" in s.zones[0].discard
    s = act(s, "discard")
    assert s.battles == () and s.prompt is None


@pytest.mark.clause("RED-BR-RETURN-PERMANENT-CONTROLLER")
def test_survivor_goes_to_permanent_controller() -> None:
    # h is owned by p2 but in p0's territory (p0 has permanent control). Stalemate: h returns to p0, not p2.
    cards = [hero("h", 2, 1, 5), evil("e", 1, 1, 5)]
    s = position(cards, {0: {"territory": ["h"]}, 1: {"territory": ["e"]}}, 3)
    s = finish(acts(s, ["attack 1 h", "block e"]))
    assert "h" in s.zones[0].territory and "h" not in s.zones[2].territory


@pytest.mark.clause("RED-BR-STEP3-END-ABILITIES", "RED-BR-UNAFFECTED-NORMAL")
def test_end_of_battle_ability_reads_step2() -> None:
    # p0 is losing (h 1/1 vs e 1/1 is mutual; make h 2/2 vs e 3/3: h defeated, Evil wins, p0 to play).
    # p0 plays dr (+2/+2, draw-on-success) on h: h 4/4 vs e 3/3: 4 >= 3 e defeated, 3 < 4 h not: Hero wins.
    # p1 (losing) passes. Step 2: success; step 3: p0 draws one card (c1), dr is discarded (ordinary rules).
    extra = [good_enh("dr", 0, 2, 2, Effect.DRAW_ON_SUCCESS), hero("c1", 0, 1, 1)]
    s = duel(2, 2, 3, 3, extra=extra, zones={0: {"hand": ["dr"], "deck": ["c1"]}})
    s = act(s, "play dr on h")
    assert s.prompt.player == 1  # type: ignore[union-attr]
    s = finish(s)
    assert s.last_mission is Mission.SUCCESS and "c1" in s.zones[0].hand and "dr" in s.zones[0].discard
    # Without success (stalemate: h 1/5 vs e 1/5, p0 plays dr: h 3/7 vs e 1/5, 3 < 5 still stalemate,
    # p1 then passes): no draw.
    s = duel(1, 5, 1, 5, extra=extra, zones={0: {"hand": ["dr"], "deck": ["c1"]}})
    s = finish(act(s, "play dr on h"))
    assert s.last_mission is Mission.FAILURE and "c1" in s.zones[0].deck


@pytest.mark.clause("RED-BR-STEP4-DISCARD-RETURN", "RED-BR-FOUR-OUTCOMES", "RED-BASE-DEFEAT")
def test_several_characters_per_side() -> None:
    # Heroes a 2/4 and b 2/2 (total strength 4) vs e 3/3: e defeated (4 >= 3);
    # against e's 3: b (2) defeated, a (4) not. Evil side beaten, Hero side not: Hero wins.
    # Decision br-discard-which: b is still discarded; under losing-side-only it returns.
    cards = [hero("a", 0, 2, 4), hero("b", 0, 2, 2), evil("e", 1, 3, 3)]
    base = position(cards, {0: {"territory": ["a", "b"]}, 1: {"territory": ["e"]}}, 2)
    s = finish(acts(base, ["attack 1 a b", "block e"]))
    assert s.last_outcome is Outcome.SIDE0_WINS and "b" in s.zones[0].discard and "a" in s.zones[0].territory
    lenient = RuleConfig.of({"br-discard-which": "losing-side-only"})
    s = finish(acts(base, ["attack 1 a b", "block e"], lenient), lenient)
    assert {"a", "b"} <= s.zones[0].territory


@pytest.mark.clause("RED-BASE-WIN-FIVE-SOULS")
def test_fifth_rescued_soul_wins() -> None:
    cards = [hero("h", 0, 1, 3), soul("s0", 1), *[soul(f"r{i}", 1) for i in range(4)]]
    s = position(cards, {0: {"territory": ["h"], "redemption": [f"r{i}" for i in range(4)]}, 1: {"bondage": ["s0"]}}, 2)
    s = acts(s, ["attack 1 h", "noblock"])
    assert s.winner == 0 and legal_actions(s) == ()
    illegal(s, "next", "RED-BASE-WIN-FIVE-SOULS")


@pytest.mark.clause("RED-BASE-INITIATIVE")
def test_initiative_losing_side_then_tie_rule() -> None:
    # h 2/2 vs e 3/3: Hero losing -> p0. Stalemate 1/5 vs 1/5 after the block: p1 put the last card -> p0.
    assert duel(2, 2, 3, 3).prompt.player == 0  # type: ignore[union-attr]
    assert duel(3, 3, 2, 2).prompt.player == 1  # type: ignore[union-attr]
    s = duel(1, 5, 1, 5)
    assert initiative(s, s.battles[0], DEFAULT) == 0
    # Mutual destruction standing (3/3 vs 3/3) is also a tie: p1 blocked last, p0 has initiative.
    assert duel(3, 3, 3, 3).prompt.player == 0  # type: ignore[union-attr]


@pytest.mark.clause("RED-BASE-ENHANCEMENTS")
def test_enhancement_needs_matching_brigade_and_alignment() -> None:
    extra = [good_enh("g", 0, 1, 0, brigades=("green",)), good_enh("ok", 0, 1, 0)]
    s = duel(2, 2, 3, 3, extra=extra, zones={0: {"hand": ["g", "ok"]}})
    illegal(s, "play g on h", "RED-BASE-ENHANCEMENTS")
    s = act(s, "play ok on h")
    assert s.battles[0].sides[0][0].enhancements == ("ok",)


@pytest.mark.clause("RED-BASE-PARALYZED-NO-BATTLE", "RED-BASE-STATUSES")
def test_paralyzed_cannot_attack() -> None:
    s = position([hero("h", 0, 1, 3), hero("k", 0, 1, 3)], {0: {"territory": ["h", "k"]}}, 2)
    s = replace(s, statuses=frozenset({("h", Status.PARALYZED)}))
    assert [a.text() for a in legal_actions(s)] == ["attack 1 k", "next"]
    illegal(s, "attack 1 h", "RED-BASE-PARALYZED-NO-BATTLE")


@pytest.mark.clause("RED-BASE-INTERRUPT")
def test_interrupt_then_reactivation_on_pass() -> None:
    # p1 blocks with e (3/3) and e2 (0/1); p0's discard of e leaves p1 with e2, so no special initiative.
    from cardrules.model.redemption.scenario import evil_enh

    cards = [hero("h", 0, 2, 2), evil("e", 1, 3, 3), evil("e2", 1, 0, 1), good_enh("dis", 0, 2, 2, Effect.DISCARD),
             evil_enh("int", 1, 0, 0, Effect.INTERRUPT)]
    s = position(cards, {0: {"territory": ["h"], "hand": ["dis"]}, 1: {"territory": ["e", "e2"], "hand": ["int"]}}, 2)
    s = acts(s, ["attack 1 h", "block e e2"])
    # h 2/2 vs e+e2 (strength 3): h defeated; e2 toughness 1 <= 2 defeated, e (3) not: Evil wins -> p0.
    # p0 plays dis (+2/+2) on h discarding e: h 4/4 vs e2 0/1: Hero wins -> p1 has initiative.
    s = act(s, "play dis on h -> e")
    assert "e" in s.zones[1].discard and s.prompt.player == 1  # type: ignore[union-attr]
    # p1 interrupts #1: e comes back, #1 pending. h 4/4 vs e 3/3 + e2: total 3 < 4, e defeated (4>=3), e2 too:
    # Hero still winning -> p1 keeps initiative and passes: #1 reactivates (dis still on h, e still in battle).
    s = act(s, "play int on e2 -> #1")
    assert s.fighter("e") is not None and s.records[0].status.value == "pending"
    s = act(s, "pass")
    assert "e" in s.zones[1].discard and s.records[0].status.value == "active"
    assert len(s.battles) == 1  # play goes on after a reactivation
    never = RuleConfig.of({"red-base-interrupt-reactivation": "never"})
    t = position(cards, {0: {"territory": ["h"], "hand": ["dis"]}, 1: {"territory": ["e", "e2"], "hand": ["int"]}}, 2)
    t = acts(t, ["attack 1 h", "block e e2", "play dis on h -> e", "play int on e2 -> #1", "pass"], never)
    assert t.records[0].status.value == "fizzled" and t.fighter("e") is not None


@pytest.mark.clause("RED-BASE-HERO-VS-EVIL", "RED-BASE-BLOCKING")
def test_only_evil_characters_block_and_only_heroes_attack() -> None:
    cards = [hero("h", 0, 1, 3), evil("x", 0, 1, 3), hero("k", 1, 1, 3), evil("e", 1, 1, 3)]
    s = position(cards, {0: {"territory": ["h", "x"]}, 1: {"territory": ["k", "e"]}}, 2)
    assert [a.text() for a in legal_actions(s)] == ["attack 1 h", "next"]
    illegal(s, "attack 1 x", "RED-BASE-RESCUE-OR-CHALLENGE")
    s = act(s, "attack 1 h")
    assert [a.text() for a in legal_actions(s)] == ["block e", "noblock"]
    illegal(s, "block k", "RED-BASE-HERO-VS-EVIL")


@pytest.mark.clause("RED-BASE-CHARACTERS", "RED-BASE-TURN-PHASES")
def test_turn_phases_and_putting_characters() -> None:
    # Draw three (a Lost Soul drawn goes to the drawer's Land of Bondage), upkeep,
    # preparation (put a character: the player gets permanent control), battle, discard, next player.
    from cardrules.model.redemption.state import Phase

    cards = [hero("c1", 0, 1, 1), soul("ls", 0), hero("c2", 0, 1, 1), hero("c3", 0, 1, 1)]
    s = position(cards, {0: {"deck": ["c1", "ls", "c2", "c3"]}}, 2, phase=Phase.DRAW)
    s = act(s, "draw")
    assert s.zones[0].hand == {"c1", "c2"} and s.zones[0].bondage == {"ls"} and s.zones[0].deck == ("c3",)
    s = acts(s, ["next", "put c1"])
    assert s.phase is Phase.PREPARATION and "c1" in s.zones[0].territory
    illegal(s, "draw", "RED-BASE-TURN-PHASES")
    s = acts(s, ["next", "next", "next"])
    assert (s.active, s.turn, s.phase) == (1, 2, Phase.DRAW)


@pytest.mark.parametrize(("option", "rescued"), [("rescue-attempt-only", False), ("challenge-can-become-rescue", True)])
@pytest.mark.clause("RED-BR-RESCUE-SUCCESS", "RED-BR-CHALLENGE-RESULT")
def test_access_gained_during_a_battle_challenge(option: str, rescued: bool) -> None:
    # p1 has no Lost Soul: h 5/5 makes a battle challenge, e 1/1 blocks. Then (by hand: no card
    # in scope does it) a Lost Soul ls reaches p1's Land of Bondage, so the Hero 'has gained
    # access'. p1, losing, passes; e (1 >= 5? no; 5 >= 1) is defeated, h is not: Hero wins.
    # Decision br-rescue-access: the challenge stays a challenge (won, no soul moves), or it is
    # judged as a rescue and ls goes to p0's Land of Redemption.
    config = RuleConfig.of({"br-rescue-access": option})
    s = position([hero("h", 0, 5, 5), evil("e", 1, 1, 1), soul("ls", 1)], {0: {"territory": ["h"]}, 1: {"territory": ["e"]}}, 2)
    s = acts(s, ["attack 1 h", "block e"], config)
    assert s.battles[0].kind is BattleKind.CHALLENGE
    zones = list(s.zones)
    zones[1] = replace(zones[1], bondage=frozenset({"ls"}))
    s = acts(replace(s, zones=tuple(zones)), ["pass", "discard"], config)
    assert ("ls" in s.zones[0].redemption) is rescued
    assert ("ls" in s.zones[1].bondage) is not rescued
