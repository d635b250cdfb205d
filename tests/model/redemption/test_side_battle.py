"""Side battles (seed 000): suspending and resuming the paused battle, survivors going home, nesting,
negation and interrupts, heals at a side battle's resolution.

Expected values are worked out by hand from the clause text; see the comments.
Base position (helpers.game): p0's Hero h0 (1/5) fights p1's Evil e0 (1/5); stalemate, p0 has
initiative and holds sb0, a side battle enhancement it plays on h0."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.engine import legal_actions
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero, position
from cardrules.model.redemption.state import BattleKind, Effect, PromptKind, RecordStatus
from tests.model.redemption.helpers import act, acts, game, illegal, side_cards

pytestmark = pytest.mark.clause("RED-SB-SIDES-BATTLE-PLAYERS")



# --- suspend / resume -----------------------------------------------------------


@pytest.mark.clause("RED-SB-SUSPEND", "RED-SB-INSTANTANEOUS", "RED-SB-TARGETS-TWO")
def test_side_battle_suspends_main_and_pushes_new_battle() -> None:
    # p0 selects p1's e0 (in battle) and p1's e1 (territory): case 4, so no
    # choice is needed and the side battle starts at once (instantaneous).
    s = game(2, [evil("e1", 1, 1, 5)], {1: {"territory": ["e1"]}})
    s = act(s, "play sb0 on h0 -> e0 e1")
    assert [b.kind for b in s.battles] == [BattleKind.RESCUE if s.zones[1].bondage else BattleKind.CHALLENGE, BattleKind.SIDE]
    assert s.battles[1].opened_by == 1
    assert s.records[0].targets == ("e0", "e1")
    # e0 left the main battle for the side battle: the main battle's Evil side is empty meanwhile.
    assert side_cards(s.battles[0].sides) == (("h0",), ())


@pytest.mark.clause("RED-SB-RESUME", "RED-SB-RETURN-TO-BATTLE", "RED-SB-RETURN-TO-TERRITORY", "RED-SB-CONTROL-SAME-MIXED")
def test_survivors_return_and_main_battle_resumes() -> None:
    # Case 4: p1 keeps e0 (was in battle), p0 gets e1 (territory). Side 0 = p0 = e1, side 1 = p1 = e0.
    # e1 is 1/5 and e0 1/5: stalemate; the user p0 played last, so p1 has
    # initiative. p1 plays ev1 (+2/+0) on e0: e0 is 3/5, e1 toughness 5 > 3, still stalemate,
    # now p1 played last, so p0 has initiative; p0 passes: the side battle ends.
    s = game(
        2,
        [evil("e1", 1, 1, 5), evil_enh("ev1", 1, 2, 0)],
        {1: {"territory": ["e1"], "hand": ["ev1"]}},
    )
    s = act(s, "play sb0 on h0 -> e0 e1")
    assert side_cards(s.battles[1].sides) == (("e1",), ("e0",))
    assert s.prompt is not None and s.prompt.player == 1
    s = act(s, "play ev1 on e0")
    assert s.prompt is not None and s.prompt.player == 0
    s = act(s, "pass")
    # Nobody defeated, so no heal window. e0 came from the main battle: back to
    # its old side with ev1 still on it. e1 came from territory: owner's (p1)
    # territory, no enhancement on it anyway.
    assert len(s.battles) == 1
    assert side_cards(s.battles[0].sides) == (("h0",), ("e0",))
    assert s.battles[0].sides[1][0].enhancements == ("ev1",)
    assert "e1" in s.zones[1].territory
    # Main battle resumes: h0 1/5 vs e0 3/5 -> stalemate; last card in the main
    # battle was sb0 by p0, so p1 has initiative.
    assert s.prompt is not None and s.prompt.kind is PromptKind.PLAY and s.prompt.player == 1


@pytest.mark.clause("RED-SB-RETURN-TO-TERRITORY")
def test_survivor_from_territory_loses_enhancements_goes_to_owner() -> None:
    # 4 players. x2 (owner p2) sits in p3's territory, so p3 has permanent control.
    # p0 selects h0 (in battle) and x2: case 2 (p0 controls h0, p3 is outside):
    # p0 keeps h0, p1 takes x2. x2 is 1/5, h0 1/5: stalemate, user p0 played
    # last, p1 has initiative and plays gx (good, +1/+0) on x2: x2 2/5 vs h0
    # toughness 5: still stalemate; p0 has initiative and passes.
    cards = [hero("x2", 2, 1, 5), good_enh("gx", 1, 1, 0)]
    s = game(4, cards, {3: {"territory": ["x2"]}, 1: {"hand": ["gx"]}})
    s = act(s, "play sb0 on h0 -> h0 x2")
    assert side_cards(s.battles[1].sides) == (("h0",), ("x2",))
    s = acts(s, ["play gx on x2", "pass"])
    # x2 did not come from a battle: gx discarded (to its owner p1), x2 to its OWNER p2.
    assert "x2" in s.zones[2].territory and "x2" not in s.zones[3].territory
    assert "gx" in s.zones[1].discard
    # h0 came from the main battle and goes back to it keeping sb0 (played in the main battle).
    assert s.battles[0].sides[0][0].enhancements == ("sb0",)


@pytest.mark.clause("RED-SB-RETURN-TO-TERRITORY")
def test_return_territory_variant_permanent_controller() -> None:
    # Same as above under decision sb-return-territory = permanent-controller: x2 goes to p3.
    config = RuleConfig.of({"sb-return-territory": "permanent-controller"})
    cards = [hero("x2", 2, 1, 5), good_enh("gx", 1, 1, 0)]
    s = game(4, cards, {3: {"territory": ["x2"]}, 1: {"hand": ["gx"]}}, config=config)
    s = acts(s, ["play sb0 on h0 -> h0 x2", "play gx on x2", "pass"], config)
    assert "x2" in s.zones[3].territory


@pytest.mark.clause("RED-SB-RETURN-TO-BATTLE", "RED-SB-DEFEAT-NORMAL")
def test_defeated_in_side_battle_discarded_after_heal_window() -> None:
    # Case 4 again: side 0 (p0) = e1 (3/2), side 1 (p1) = e0 (1/5).
    # e1 strength 3 < e0 toughness 5; e0 strength 1 < e1 toughness 2: stalemate, p1 to play.
    # p1 plays ev1 (+1/+0) on e0: e0 strength 2 >= e1 toughness 2 -> e1 defeated,
    # p1's side wins; p0 (losing) has initiative and passes.
    s = game(2, [evil("e1", 1, 3, 2), evil_enh("ev1", 1, 1, 0)], {1: {"territory": ["e1"], "hand": ["ev1"]}})
    s = acts(s, ["play sb0 on h0 -> e0 e1", "play ev1 on e0", "pass"])
    # Normal battle resolution: heal window for the player controlling e1 in the side battle (p0).
    assert s.prompt is not None and s.prompt.kind is PromptKind.HEAL_WINDOW
    assert s.prompt.player == 0 and s.prompt.cards == ("e1",)
    s = act(s, "discard")
    assert "e1" in s.zones[1].discard  # owner's discard pile
    # The survivor e0 returns to the main battle with ev1 (played on it in the side battle).
    assert side_cards(s.battles[0].sides) == (("h0",), ("e0",))
    assert s.battles[0].sides[1][0].enhancements == ("ev1",)


# --- nesting -----------------------------------------------------------------------------


@pytest.mark.clause("RED-SB-SUSPEND", "RED-SB-RESUME", "RED-SB-RETURN-TO-BATTLE")
def test_nested_side_battles_unwind_in_order() -> None:
    # Main: h0 vs e0. p0: sb0 selects xa, xb (p2's Heroes; case 1) -> p0 xa, p1 xb.
    # Side battle 1: xa 1/5 vs xb 1/5, stalemate, p1 to play: p1 plays gb
    # (good side battle card) on xb selecting xb and h0 — xb (p1, in battle)
    # and h0 (p0, in the suspended main battle): case 2, p1 keeps xb, p0 h0.
    cards = [hero("xa", 2, 1, 5), hero("xb", 2, 1, 5), good_enh("gb", 1, ability=Effect.SIDE_BATTLE)]
    s = game(3, cards, {2: {"territory": ["xa", "xb"]}, 1: {"hand": ["gb"]}})
    s = acts(s, ["play sb0 on h0 -> xa xb", "sides xa xb", "play gb on xb -> h0 xb"])
    assert len(s.battles) == 3
    assert [b.players for b in s.battles] == [(0, 1)] * 3
    assert side_cards(s.battles[2].sides) == (("h0",), ("xb",))
    # Battle 3: h0 1/5 (with sb0) vs xb 1/5 (with gb): stalemate, p1 played last -> p0 passes.
    s = act(s, "pass")
    # xb back to side battle 1 (side 1) keeping gb; h0 back to the main battle keeping sb0.
    assert len(s.battles) == 2
    assert side_cards(s.battles[1].sides) == (("xa",), ("xb",))
    assert s.battles[1].sides[1][0].enhancements == ("gb",)
    assert side_cards(s.battles[0].sides) == (("h0",), ("e0",))
    # Side battle 1: stalemate, last card gb by p1 -> p0 passes; xa, xb to p2's territory, gb discarded.
    s = act(s, "pass")
    assert len(s.battles) == 1 and {"xa", "xb"} <= s.zones[2].territory and "gb" in s.zones[1].discard


# --- negation and interrupt clarifications --------------------------------------------------


def _discard_from_side_battle(blockers: str):
    # Side battle between p2's xa (p0) 0/2 and xb (p1) 2/5 (case 1, user picks
    # "sides xa xb"). xb strength 2 >= xa toughness 2: xa defeated, p1's side
    # wins, p0 (losing) has initiative. p0 plays dis (good, DISCARD, 0/0) on xa,
    # targeting e0 in the suspended main battle.
    cards = [
        hero("xa", 2, 0, 2), hero("xb", 2, 2, 5), good_enh("dis", 0, ability=Effect.DISCARD),
        evil("e9", 1, 0, 2), evil_enh("int", 1, ability=Effect.INTERRUPT), evil_enh("neg", 1, ability=Effect.NEGATE),
    ]
    zones = {2: {"territory": ["xa", "xb"]}, 0: {"hand": ["dis"]}, 1: {"territory": ["e9"], "hand": ["int", "neg"]}}
    s = game(3, cards, zones, blockers=blockers)
    return acts(s, ["play sb0 on h0 -> xa xb", "sides xa xb", "play dis on xa -> e0"])


@pytest.mark.clause("RED-SB-NO-INTERRUPT-FROM-SUSPENDED", "RED-BASE-SPECIAL-INITIATIVE")
def test_no_special_initiative_for_suspended_character() -> None:
    # e0 is p1's only character in the main battle; the discard comes from the
    # side battle, so p1 gets no special initiative: e0 is discarded at once.
    s = _discard_from_side_battle("e0")
    assert s.prompt is not None and s.prompt.kind is PromptKind.PLAY
    assert "e0" in s.zones[1].discard


@pytest.mark.clause("RED-BASE-SPECIAL-INITIATIVE")
def test_same_battle_discard_gives_special_initiative() -> None:
    # Contrast: the same discard played in the main battle (e0 is p1's only
    # character there) opens special initiative for p1 before it takes effect.
    cards = [good_enh("dis", 0, ability=Effect.DISCARD), evil_enh("int", 1, ability=Effect.INTERRUPT)]
    s = game(2, cards, {0: {"hand": ["dis"]}, 1: {"hand": ["int"]}})
    s = act(s, "play dis on h0 -> e0")
    assert s.prompt is not None and s.prompt.kind is PromptKind.SPECIAL_INITIATIVE and s.prompt.player == 1
    assert "e0" not in s.zones[1].discard
    assert [a.text() for a in legal_actions(s)] == ["decline", "play int on e0 -> #1"]
    interrupted = act(s, "play int on e0 -> #1")
    assert interrupted.records[0].status is RecordStatus.PENDING and interrupted.fighter("e0") is not None
    declined = act(s, "decline")
    assert "e0" in declined.zones[1].discard


@pytest.mark.clause("RED-SB-NO-INTERRUPT-FROM-SUSPENDED")
def test_side_battle_ability_not_interruptible_after_side_battle() -> None:
    # Blockers e0 and e9. After the discard of e0 (record #2) p0 is still losing
    # (xa 0/2 vs xb 2/5): p0 passes, side battle resolves: xa defeated (heal
    # window for p0, then discard), xb survives to p2's territory.
    s = _discard_from_side_battle("e0 e9")
    s = acts(s, ["pass", "discard"])
    assert len(s.battles) == 1
    # Main: h0 1/5 vs e9 0/2: nobody defeated (1 < 2, 0 < 5): stalemate; last
    # card in the main battle was sb0 (p0) -> p1 has initiative.
    assert s.prompt is not None and s.prompt.player == 1
    illegal(s, "play int on e9 -> #2", "RED-SB-NO-INTERRUPT-FROM-SUSPENDED")


@pytest.mark.clause("RED-SB-NEGATE-CASCADE", "RED-BASE-NEGATE")
def test_negating_side_battle_card_negates_effects_played_in_it() -> None:
    s = _discard_from_side_battle("e0 e9")
    s = acts(s, ["pass", "discard"])
    # p1 negates sb0's ability (#1, played in the main battle): the discard (#2)
    # played during the side battle is negated too, so e0 comes back to the
    # main battle's Evil side; the side battle's own result stands (xa stays
    # discarded, xb in p2's territory).
    s = act(s, "play neg on e9 -> #1")
    statuses = {r.id: r.status for r in s.records}
    assert statuses[1] is RecordStatus.NEGATED and statuses[2] is RecordStatus.NEGATED
    assert sorted(f.card for f in s.battles[0].sides[1]) == ["e0", "e9"]
    assert "e0" not in s.zones[1].discard
    assert "xa" in s.zones[2].discard and "xb" in s.zones[2].territory


@pytest.mark.parametrize("option", ["heal-placement", "back-to-previous-battle"])
@pytest.mark.clause("RED-SB-RETURN-TO-BATTLE", "RED-HEAL-AT-RESOLUTION", "RED-HEAL-TO-PERMANENT-CONTROLLER")
def test_a_fighter_healed_at_side_battle_resolution(option: str) -> None:
    # p0 plays sb0 on h0 -> e0 e1: both p1's, e0 in battle, e1 (5/5) in territory: case 4, p1
    # keeps e0, p0 controls e1. e1 5 >= e0's toughness 5: e0 defeated; e0 1 < 5: e1 not. p1 is
    # losing, has initiative, passes; at resolution p1 heals e0 with eh (evil heal, then spent).
    # Decision sb-healed-fighter-destination: heal-placement sends e0 to the territory of its
    # permanent controller (p1) and the main battle resumes with h0 alone; back-to-previous-battle
    # counts e0 as a survivor that goes back to the main battle, on p1's side.
    config = RuleConfig.of({"sb-healed-fighter-destination": option})
    cards = [evil("e1", 1, 5, 5), evil_enh("eh", 1, ability=Effect.HEAL)]
    s = game(2, cards, {1: {"territory": ["e1"], "hand": ["eh"]}}, config=config)
    s = act(s, "play sb0 on h0 -> e0 e1", config)
    assert side_cards(s.battles[1].sides) == (("e1",), ("e0",))
    s = act(s, "pass", config)
    assert s.prompt is not None and s.prompt.kind is PromptKind.HEAL_WINDOW and s.prompt.cards == ("e0",)
    s = act(s, "heal e0 with eh", config)
    assert len(s.battles) == 1 and "e1" in s.zones[1].territory and "eh" in s.zones[1].discard
    if option == "heal-placement":
        assert side_cards(s.battles[0].sides) == (("h0",), ()) and "e0" in s.zones[1].territory
    else:
        assert side_cards(s.battles[0].sides) == (("h0",), ("e0",)) and "e0" not in s.zones[1].territory


@pytest.mark.parametrize(("option", "player", "heal"), [("battle-controller", 0, "heal y with eh0"),
                                                         ("permanent-controller", 2, "heal y with eh2")])
@pytest.mark.clause("RED-HEAL-WINDOW", "RED-SB-CONTROL-ONE-INSIDER", "RED-BASE-SPECIAL-INITIATIVE")
def test_heal_window_goes_to_the_controller_the_decision_names(option: str, player: int, heal: str) -> None:
    # 3 players. p0 plays sb0 on h0 -> e1 y: e1 is p1's (territory), y is p2's, an outsider's
    # (case 2): p1 keeps e1, p0 controls y in the side battle; p2 keeps permanent control.
    # y 1/5 vs e1 1/5: stalemate, p0 (the user) played last, so p1 plays dc on e1 -> y.
    # That would leave p0 with no character in the side battle: p0 has special initiative
    # and declines. Then y's heal window opens for 'its controller' (decision heal-window-player):
    # p0, who plays for it in the battle (holding eh0), or p2, its permanent controller (eh2).
    config = RuleConfig.of({"heal-window-player": option})
    cards = [evil("e1", 1, 1, 5), evil("y", 2, 1, 5), evil_enh("dc", 1, ability=Effect.DISCARD),
             evil_enh("eh0", 0, ability=Effect.HEAL), evil_enh("eh2", 2, ability=Effect.HEAL)]
    zones = {0: {"hand": ["eh0"]}, 1: {"territory": ["e1"], "hand": ["dc"]}, 2: {"territory": ["y"], "hand": ["eh2"]}}
    s = game(3, cards, zones, config=config)
    s = acts(s, ["play sb0 on h0 -> e1 y", "play dc on e1 -> y"], config)
    assert s.prompt is not None and s.prompt.kind is PromptKind.SPECIAL_INITIATIVE and s.prompt.player == 0
    s = act(s, "decline", config)
    assert s.prompt is not None and s.prompt.kind is PromptKind.HEAL_WINDOW
    assert (s.prompt.player, s.prompt.cards) == (player, ("y",))
    assert [a.text() for a in legal_actions(s, config)] == ["discard", heal]


@pytest.mark.clause("RED-SB-RETURN-TO-TERRITORY", "RED-BR-UNAFFECTED-NORMAL")
@pytest.mark.parametrize(("option", "pk_placed"), [("all-discarded", False), ("played-in-side-battle-only", True)])
def test_what_a_territory_survivor_takes_home(option: str, pk_placed: bool) -> None:
    # p0's k 1/1 sits in p0's territory with pk (0/0) placed on it. h 1/5 attacks, e 2/6 blocks
    # (stalemate, p0 has initiative); p0 plays sb on h -> j k and puts k on its own side against j
    # 1/5 (p0's hand): j's 1 >= k's 1, k's 1 < 5: p0 losing, p0 plays pad0 (0/4) on k: k 1/5,
    # stalemate; p0 played last, p1 passes. Both survive and go to their owner's (p0's) territory.
    # The seed discards the enhancements "played on them" in the side battle: pad0 under both
    # readings; pk, carried in from the territory, too (all-discarded) or stays placed on k
    # (played-in-side-battle-only).
    config = RuleConfig.of({"sb-territory-survivor-enhancements": option})
    cards = [hero("h", 0, 1, 5), hero("k", 0, 1, 1), evil("e", 1, 2, 6), good_enh("sb", 0, ability=Effect.SIDE_BATTLE),
             good_enh("pk", 0), good_enh("pad0", 0, 0, 4), hero("j", 0, 1, 5)]
    base = position(cards, {0: {"territory": ["h", "k"], "hand": ["sb", "pad0", "j"]}, 1: {"territory": ["e"]}}, 2)
    base = replace(base, placed=frozenset({("pk", "k")}))
    s = acts(base, ["attack 1 h", "block e", "play sb on h -> j k", "sides k j"], config)
    assert s.battles[-1].sides[0][0].enhancements == ("pk",)
    s = acts(s, ["play pad0 on k", "pass"], config)
    assert len(s.battles) == 1 and {"j", "k"} <= s.zones[0].territory
    assert "pad0" in s.zones[0].discard
    assert (("pk", "k") in s.placed) is pk_placed and ("pk" in s.zones[0].discard) is not pk_placed


