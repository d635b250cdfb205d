"""Side battle control (seed 000): the four control cases, and a player outside the battle who uses a
side battle ability (decision sb-user-outside-battle).

Expected values are worked out by hand from the clause text; see the comments.
Base position (helpers.game): p0's Hero h0 (1/5) fights p1's Evil e0 (1/5); stalemate, p0 has
initiative and holds sb0, a side battle enhancement it plays on h0."""

from __future__ import annotations

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.engine import legal_actions
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero
from cardrules.model.redemption.state import BattleKind, Effect, PromptKind, RecordStatus
from tests.model.redemption.helpers import act, acts, game, illegal, side_cards

pytestmark = pytest.mark.clause("RED-SB-SIDES-BATTLE-PLAYERS")



# --- the four control cases -----------------------------------------------------------


@pytest.mark.clause("RED-SB-CONTROL-OUTSIDERS")
@pytest.mark.parametrize("players,owners", [(3, (2, 2)), (4, (2, 3))])
def test_case1_outsiders_user_chooses(players: int, owners: tuple[int, int]) -> None:
    # Both fighters are controlled by players outside the battle (2, or 2 and 3):
    # the user (p0) decides, through a separate action.
    cards = [hero("xa", owners[0], 1, 5), hero("xb", owners[1], 1, 5)]
    zones: dict[int, dict[str, list[str]]] = {}
    for card_id, owner in (("xa", owners[0]), ("xb", owners[1])):
        zones.setdefault(owner, {"territory": []})["territory"].append(card_id)
    s = act(game(players, cards, zones), "play sb0 on h0 -> xa xb")
    assert s.prompt is not None and s.prompt.kind is PromptKind.CHOOSE_SIDES and s.prompt.player == 0
    assert [a.text() for a in legal_actions(s)] == ["sides xa xb", "sides xb xa"]
    chosen = act(s, "sides xb xa")
    # sides X Y: the first battling player (p0) gets X.
    assert chosen.battles[1].players == (0, 1)
    assert side_cards(chosen.battles[1].sides) == (("xb",), ("xa",))
    other = act(s, "sides xa xb")
    assert side_cards(other.battles[1].sides) == (("xa",), ("xb",))
    illegal(s, "sides xa h0", "RED-SB-TARGETS-TWO")


@pytest.mark.clause("RED-SB-CONTROL-ONE-INSIDER")
@pytest.mark.parametrize("players", [3, 4])
def test_case2_insider_keeps_other_player_takes_the_rest(players: int) -> None:
    # e1 is p1's (in battle), y is owned by the last player (an outsider).
    # p1 keeps e1; the other battling player p0 controls y. No choice.
    outsider = players - 1
    cards = [evil("e1", 1, 1, 5), evil("y", outsider, 1, 5)]
    s = game(players, cards, {1: {"territory": ["e1"]}, outsider: {"territory": ["y"]}})
    s = act(s, "play sb0 on h0 -> e1 y")
    assert s.prompt is not None and s.prompt.kind is PromptKind.PLAY
    assert side_cards(s.battles[1].sides) == (("y",), ("e1",))


@pytest.mark.clause("RED-SB-CONTROL-ONE-INSIDER")
def test_case2_each_battling_player_keeps_their_own() -> None:
    # h0 is p0's, k1 is p1's Hero in territory: 'a different player' is the
    # other battling player (decision sb-different-player): each keeps theirs.
    s = game(3, [hero("k1", 1, 1, 5)], {1: {"territory": ["k1"]}})
    s = act(s, "play sb0 on h0 -> h0 k1")
    assert side_cards(s.battles[1].sides) == (("h0",), ("k1",))


@pytest.mark.clause("RED-SB-CONTROL-SAME-UNMIXED")
@pytest.mark.parametrize("players", [3, 4])
def test_case3_neither_in_battle_user_chooses(players: int) -> None:
    # e1, e2 both p1's, both in p1's territory: the user p0 decides.
    cards = [evil("e1", 1, 1, 5), evil("e2", 1, 1, 5)]
    s = act(game(players, cards, {1: {"territory": ["e1", "e2"]}}), "play sb0 on h0 -> e1 e2")
    assert s.prompt is not None and s.prompt.kind is PromptKind.CHOOSE_SIDES
    s = act(s, "sides e2 e1")
    assert side_cards(s.battles[1].sides) == (("e2",), ("e1",))


@pytest.mark.clause("RED-SB-CONTROL-SAME-UNMIXED")
def test_case3_both_in_battle_user_chooses() -> None:
    # p1 blocked with e0 and e3; both are selected, both in battle: user chooses.
    s = game(3, [evil("e3", 1, 1, 5)], {1: {"territory": ["e3"]}}, blockers="e0 e3")
    s = act(s, "play sb0 on h0 -> e0 e3")
    assert s.prompt is not None and s.prompt.kind is PromptKind.CHOOSE_SIDES
    s = act(s, "sides e3 e0")
    assert side_cards(s.battles[1].sides) == (("e3",), ("e0",))
    assert s.battles[0].sides[1] == ()


@pytest.mark.clause("RED-SB-CONTROL-SAME-MIXED")
@pytest.mark.parametrize("players", [3, 4])
def test_case4_controller_keeps_the_one_in_battle(players: int) -> None:
    # h0 (p0, in battle) and k0 (p0, territory): p0 keeps h0, p1 takes k0.
    s = game(players, [hero("k0", 0, 1, 5)], {0: {"territory": ["k0"]}})
    s = act(s, "play sb0 on h0 -> h0 k0")
    assert side_cards(s.battles[1].sides) == (("h0",), ("k0",))


@pytest.mark.clause("RED-SB-CONTROL-SAME-MIXED", "RED-SB-CONTROL-SAME-UNMIXED")
def test_in_battle_meaning_variant() -> None:
    # Nested: in a side battle between xa (p2) and xb (p2) with p0 = xa, p1 = xb,
    # p1 selects e0? No: e0 is not in the side battle. Under the default any
    # battle on the stack counts, so h0 (main battle, suspended) vs k0
    # (territory), both p0's, is case 4; under suspended-battle-only... the
    # directly suspended battle is the side battle, h0 is not in it: case 3.
    cards = [hero("xa", 2, 1, 5), hero("xb", 2, 1, 5), hero("k0", 0, 1, 5), evil_enh("sb1", 1, ability=Effect.SIDE_BATTLE), good_enh("gb", 1, ability=Effect.SIDE_BATTLE)]
    zones = {2: {"territory": ["xa", "xb"]}, 0: {"territory": ["k0"]}, 1: {"hand": ["gb"]}}
    for variant, expect_prompt in (("any-battle-on-stack", PromptKind.PLAY), ("suspended-battle-only", PromptKind.CHOOSE_SIDES)):
        config = RuleConfig.of({"sb-in-battle-meaning": variant})
        s = game(3, cards, zones, config=config)
        s = acts(s, ["play sb0 on h0 -> xa xb", "sides xa xb"], config)
        # side battle xa (p0) vs xb (p1): stalemate, p0 (user) played last -> p1 plays gb on xb.
        s = act(s, "play gb on xb -> h0 k0", config)
        assert s.prompt is not None and s.prompt.kind is expect_prompt
        if expect_prompt is PromptKind.PLAY:
            assert side_cards(s.battles[2].sides) == (("h0",), ("k0",))


# --- a player outside the battle uses a side battle ability (decision sb-user-outside-battle) --------

OUTSIDER = RuleConfig.of({"sb-user-outside-battle": "any-player"})


def _outsider_game(cards: list, zones: dict, *, blockers: str = "e0", config: RuleConfig = OUTSIDER,
                   cards_in_hand: tuple[str, ...] = ("sb2",)):
    """3 players: the base battle (p0's h0 1/5 against p1's e0 1/5, p0 has initiative) and p2, outside
    the battle, holding the side battle enhancement(s) ``cards_in_hand`` (good, blue, 0/0)."""
    extra = [good_enh(c, 2, ability=Effect.SIDE_BATTLE) for c in cards_in_hand]
    merged = {p: dict(z) for p, z in zones.items()}
    merged.setdefault(2, {})
    merged[2] = {**merged[2], "hand": [*merged[2].get("hand", []), *cards_in_hand]}
    return game(3, [*cards, *extra], merged, blockers=blockers, config=config)


@pytest.mark.clause("RED-SB-SIDES-BATTLE-PLAYERS", "RED-SB-CONTROL-OUTSIDERS")
def test_by_default_a_player_outside_the_battle_cannot_use_a_side_battle_ability() -> None:
    # battling-players-only (the chosen reading): p2 fights no battle, so p2 has no moment to use sb2.
    cards = [hero("xa", 2, 1, 5), hero("xb", 2, 1, 5)]
    s = _outsider_game(cards, {2: {"territory": ["xa", "xb"]}}, config=RuleConfig())
    assert not [a for a in legal_actions(s) if a.text().startswith("use")]
    illegal(s, "use sb2 -> xa xb", "RED-SB-SIDES-BATTLE-PLAYERS")


@pytest.mark.clause("RED-SB-CONTROL-OUTSIDERS", "RED-SB-RETURN-TO-TERRITORY", "RED-SB-RESUME")
def test_case1_outside_user_assigns_the_sides() -> None:
    # any-player: p2 uses sb2 on its own xa and xb (both 1/5, p2's territory). Neither is controlled by
    # a battling player (case 1): "the player that used the side battle ability decides", p2. The sides
    # are still the two battling players', p0 (side 0) and p1 (side 1). sb2 is on no character: it goes
    # to its owner's (p2's) discard pile, and the side battle counts against p2's allowance only.
    cards = [hero("xa", 2, 1, 5), hero("xb", 2, 1, 5)]
    s = _outsider_game(cards, {2: {"territory": ["xa", "xb"]}})
    s = act(s, "use sb2 -> xa xb", OUTSIDER)
    assert s.prompt is not None and s.prompt.kind is PromptKind.CHOOSE_SIDES and s.prompt.player == 2
    assert [a.text() for a in legal_actions(s, OUTSIDER)] == ["sides xa xb", "sides xb xa"]
    assert "sb2" in s.zones[2].discard and "sb2" not in s.zones[2].hand
    assert s.side_battles == (0, 0, 1)
    s = act(s, "sides xb xa", OUTSIDER)
    assert s.battles[1].players == (0, 1) and side_cards(s.battles[1].sides) == (("xb",), ("xa",))
    # 1/5 against 1/5: a tie, and neither battling player played the last card (p2 did): the first
    # battling player, p0, has initiative (the option's reading); p0 passes and the side battle ends.
    assert s.prompt is not None and s.prompt.kind is PromptKind.PLAY and s.prompt.player == 0
    s = act(s, "pass", OUTSIDER)
    # Both survivors came from a territory: back to their owner's, p2's. The main battle resumes as it
    # was (h0 1/5 against e0 1/5, p1 blocked last): p0 has initiative again.
    assert len(s.battles) == 1 and {"xa", "xb"} <= s.zones[2].territory
    assert s.prompt is not None and s.prompt.kind is PromptKind.PLAY and s.prompt.player == 0


@pytest.mark.clause("RED-SB-CONTROL-ONE-INSIDER")
def test_case2_with_an_outside_user() -> None:
    # p2 selects p1's e0 (in the battle) and its own y (1/5, territory): one is a battling player's, the
    # other a different player's (case 2): p1 keeps e0, the other battling player p0 controls y. No choice.
    s = _outsider_game([evil("y", 2, 1, 5)], {2: {"territory": ["y"]}})
    s = act(s, "use sb2 -> e0 y", OUTSIDER)
    assert s.prompt is not None and s.prompt.kind is PromptKind.PLAY and s.prompt.player == 0
    assert side_cards(s.battles[1].sides) == (("y",), ("e0",))


@pytest.mark.clause("RED-SB-CONTROL-SAME-UNMIXED")
def test_case3_with_an_outside_user() -> None:
    # p1 blocked with e0 and e3; p2 selects both: one battling player controls both and both were in a
    # battle (case 3): the user, p2, decides.
    s = _outsider_game([evil("e3", 1, 1, 5)], {1: {"territory": ["e3"]}}, blockers="e0 e3")
    s = act(s, "use sb2 -> e0 e3", OUTSIDER)
    assert s.prompt is not None and s.prompt.kind is PromptKind.CHOOSE_SIDES and s.prompt.player == 2
    s = act(s, "sides e3 e0", OUTSIDER)
    assert side_cards(s.battles[1].sides) == (("e3",), ("e0",))


@pytest.mark.clause("RED-SB-CONTROL-SAME-MIXED")
def test_case4_with_an_outside_user() -> None:
    # p2 selects p1's e0 (in the battle) and p1's e1 (territory): one battling player controls both,
    # exactly one was in battle (case 4): p1 keeps e0, p0 takes e1. No choice.
    s = _outsider_game([evil("e1", 1, 1, 5)], {1: {"territory": ["e1"]}})
    s = act(s, "use sb2 -> e0 e1", OUTSIDER)
    assert side_cards(s.battles[1].sides) == (("e1",), ("e0",))


@pytest.mark.clause("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER")
@pytest.mark.parametrize("scope", ["ability-blanked", "card-unplayable"])
def test_an_outside_user_has_their_own_allowance(scope: str) -> None:
    # p2 holds sb2 and sb2b. After p2's side battle (case 4, e1 for p0 against e0 for p1), p2 has used
    # their one side battle: sb2b may only be used blank (ability-blanked) or not at all
    # (card-unplayable). p0's allowance is untouched: p0 still plays sb0 (evil, crimson here) on e1,
    # p0's fighter now, on xa and xb, p2's (case 1, p0 chooses).
    config = RuleConfig.of({"sb-user-outside-battle": "any-player", "sb-restriction-scope": scope})
    cards = [evil("e1", 1, 1, 5), hero("xa", 2, 1, 5), hero("xb", 2, 1, 5),
             evil_enh("sb0", 0, ability=Effect.SIDE_BATTLE)]
    s = _outsider_game(cards, {1: {"territory": ["e1"]}, 2: {"territory": ["xa", "xb"]}}, config=config,
                       cards_in_hand=("sb2", "sb2b"))
    s = act(s, "use sb2 -> e0 e1", config)
    assert s.side_battles == (0, 0, 1)
    uses = [a.text() for a in legal_actions(s, config) if a.text().startswith("use")]
    assert uses == (["use sb2b"] if scope == "ability-blanked" else [])
    illegal(s, "use sb2b -> xa xb", "RED-SB-RESTRICT-AFTER", config)
    if scope == "ability-blanked":
        blank = act(s, "use sb2b", config)
        assert "sb2b" in blank.zones[2].discard and len(blank.battles) == 2 and blank.side_battles == (0, 0, 1)
        assert blank.records[-1].status is RecordStatus.BLANKED
    # p0 (first battling player, initiative at the tie) plays its own side battle card in the side battle.
    s = act(s, "play sb0 on e1 -> xa xb", config)
    assert s.prompt is not None and s.prompt.kind is PromptKind.CHOOSE_SIDES and s.prompt.player == 0
    assert s.side_battles == (1, 0, 1)


@pytest.mark.clause("RED-SB-SUSPEND", "RED-SB-SIDES-BATTLE-PLAYERS")
def test_an_outside_user_nests_a_side_battle_with_the_same_two_players() -> None:
    # p0 plays sb0 on h0 -> e0 e1 (case 4: p1 keeps e0, p0 takes e1); a tie and p0 played last, so p1
    # has initiative. Now p2 uses sb2 on xa and xb (case 1, p2 chooses): a third battle on the stack,
    # fought again by p0 and p1.
    cards = [evil("e1", 1, 1, 5), hero("xa", 2, 1, 5), hero("xb", 2, 1, 5)]
    s = _outsider_game(cards, {1: {"territory": ["e1"]}, 2: {"territory": ["xa", "xb"]}})
    s = act(s, "play sb0 on h0 -> e0 e1", OUTSIDER)
    assert s.prompt is not None and s.prompt.player == 1
    s = acts(s, ["use sb2 -> xa xb", "sides xa xb"], OUTSIDER)
    assert [b.players for b in s.battles] == [(0, 1), (0, 1), (0, 1)]
    assert [b.kind for b in s.battles][1:] == [BattleKind.SIDE, BattleKind.SIDE]
    assert side_cards(s.battles[2].sides) == (("xa",), ("xb",))


@pytest.mark.clause("RED-SB-TARGET-ZONES", "RED-SB-SIDES-BATTLE-PLAYERS")
def test_an_outside_user_selects_from_their_own_hand_only() -> None:
    # "In holder's hand": p2 may select z, a Hero in p2's own hand (with xa: both p2's, case 1), but not
    # k, a Hero in p0's hand. A battling player's card is played on a character ('play'), never 'use'd,
    # and an outsider waits for a moment a battling player holds initiative to play.
    cards = [hero("xa", 2, 1, 5), hero("z", 2, 1, 5), hero("k", 0, 1, 5),
             evil_enh("sb1", 1, ability=Effect.SIDE_BATTLE)]
    s = _outsider_game(cards, {0: {"hand": ["k"]}, 1: {"hand": ["sb1"]}, 2: {"territory": ["xa"], "hand": ["z"]}})
    assert "use sb2 -> xa z" in [a.text() for a in legal_actions(s, OUTSIDER)]
    illegal(s, "use sb2 -> k xa", "RED-SB-TARGET-ZONES", OUTSIDER)
    illegal(s, "use sb1 -> h0 xa", "RED-SB-SIDES-BATTLE-PLAYERS", OUTSIDER)
    chosen = act(s, "use sb2 -> xa z", OUTSIDER)
    assert chosen.prompt is not None and chosen.prompt.kind is PromptKind.CHOOSE_SIDES and chosen.prompt.player == 2
    illegal(chosen, "use sb2 -> xa z", "RED-SB-SIDES-BATTLE-PLAYERS", OUTSIDER)


@pytest.mark.clause("RED-SB-TARGETS-TWO")
def test_use_action_text() -> None:
    # 'use S -> X Y' names an unordered pair (written sorted); 'use S' is a blank use; anything else is
    # malformed input, named as such. The same character twice is refused by the rules, not the parser.
    from cardrules.model.errors import ScenarioError
    from cardrules.model.redemption.actions import Use, parse

    assert parse("use sb2 -> xb xa") == Use("sb2", ("xa", "xb")) and parse("use sb2 -> xb xa").text() == "use sb2 -> xa xb"
    assert parse("use sb2") == Use("sb2")
    for bad in ("use", "use sb2 -> xa", "use sb2 xa xb", "use sb2 -> xa xb xc"):
        with pytest.raises(ScenarioError):
            parse(bad)
    s = _outsider_game([hero("xa", 2, 1, 5)], {2: {"territory": ["xa"]}})
    illegal(s, "use sb2 -> xa xa", "RED-SB-TARGETS-TWO", OUTSIDER)
