"""Side battle limits (seed 000): one side battle a turn per initiating player, and its two targets.

Expected values are worked out by hand from the clause text; see the comments.
Base position (helpers.game): p0's Hero h0 (1/5) fights p1's Evil e0 (1/5); stalemate, p0 has
initiative and holds sb0, a side battle enhancement it plays on h0."""

from __future__ import annotations

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.engine import legal_actions
from cardrules.model.redemption.scenario import evil, evil_enh, hero
from cardrules.model.redemption.state import BattleKind, Effect, RecordStatus
from tests.model.redemption.helpers import act, game, illegal, side_cards

pytestmark = pytest.mark.clause("RED-SB-SIDES-BATTLE-PLAYERS")



# --- once per turn -------------------------------------------------------------------


def _two_sb_game(config: RuleConfig = RuleConfig()):
    # p0 also holds sb9 (a second side battle card, evil so it fits e1); p1 holds sbp (its own).
    cards = [
        evil("e1", 1, 1, 5), evil("e2", 1, 1, 5), hero("k0", 0, 1, 5),
        evil_enh("sb9", 0, ability=Effect.SIDE_BATTLE), evil_enh("sbp", 1, ability=Effect.SIDE_BATTLE),
        evil_enh("pad", 1, 0, 0),
    ]
    zones = {0: {"hand": ["sb9"], "territory": ["k0"]}, 1: {"territory": ["e1", "e2"], "hand": ["sbp", "pad"]}}
    s = game(2, cards, zones, config=config)
    # Case 4: p1 keeps e0, p0 takes e1. e1 vs e0 both 1/5: stalemate, p1 to play.
    s = act(s, "play sb0 on h0 -> e0 e1", config)
    # p1 plays pad (0/0, no ability) on e0 so that p0 has initiative again.
    return act(s, "play pad on e0", config)


@pytest.mark.clause("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER")
def test_initiator_cannot_start_a_second_side_battle() -> None:
    s = _two_sb_game()
    assert s.prompt is not None and s.prompt.player == 0 and s.side_battles == (1, 0)
    # p0's second card: only the blank play (no targets) is offered.
    plays = [a.text() for a in legal_actions(s) if a.text().startswith("play sb9")]
    assert plays == ["play sb9 on e1"]
    error = illegal(s, "play sb9 on e1 -> h0 k0", "RED-SB-ONCE-PER-TURN")
    assert "RED-SB-RESTRICT-AFTER" in error.clause_ids
    # The blank play is allowed: sb9 goes on e1, nothing is selected, no new battle.
    blank = act(s, "play sb9 on e1")
    assert len(blank.battles) == 2 and blank.records[-1].status is RecordStatus.BLANKED


@pytest.mark.clause("RED-SB-ONCE-PER-TURN")
def test_other_player_keeps_their_allowance() -> None:
    # After p0's side battle, p1 can still initiate one (nested here).
    s = _two_sb_game()
    s = act(s, "play sb9 on e1")  # blank; now p1 has initiative (stalemate, p0 played last)
    assert s.prompt is not None and s.prompt.player == 1
    s = act(s, "play sbp on e0 -> e0 e2")
    assert s.side_battles == (1, 1)
    assert len(s.battles) == 3


@pytest.mark.clause("RED-SB-RESTRICT-AFTER")
def test_restriction_variant_card_unplayable() -> None:
    config = RuleConfig.of({"sb-restriction-scope": "card-unplayable"})
    s = _two_sb_game(config)
    assert not any(a.text().startswith("play sb9") for a in legal_actions(s, config))
    illegal(s, "play sb9 on e1", "RED-SB-RESTRICT-AFTER", config)


@pytest.mark.clause("RED-SB-ONCE-PER-TURN")
def test_broken_variant_two_allows_a_second() -> None:
    config = RuleConfig.of(broken=["two-side-battles-per-turn"])
    s = _two_sb_game(config)
    s = act(s, "play sb9 on e1 -> h0 k0", config)
    assert s.side_battles == (2, 0)


@pytest.mark.clause("RED-SB-ONCE-PER-TURN")
def test_allowance_resets_next_turn() -> None:
    from cardrules.model.redemption.turn import next_phase
    from dataclasses import replace

    s = replace(_two_sb_game(), battles=(), prompt=None)
    for _ in range(5):
        if s.active == 0:
            s = next_phase(s) if s.phase.value != "draw" else s
    assert s.side_battles == (0, 0) and s.active == 1


# --- targets ----------------------------------------------------------------------------


@pytest.mark.clause("RED-SB-SAME-ALIGNMENT")
def test_hero_against_evil_is_not_a_side_battle() -> None:
    s = game(2, [evil("e1", 1, 1, 5)], {1: {"territory": ["e1"]}})
    illegal(s, "play sb0 on h0 -> e1 h0", "RED-SB-SAME-ALIGNMENT")


@pytest.mark.clause("RED-SB-SAME-ALIGNMENT", "RED-SB-CONTROL-ONE-INSIDER")
def test_hero_against_evil_side_battle_under_the_literal_reading() -> None:
    # Decision sb-pair-alignment = any-alignment: the clarification only says same-alignment
    # fights are side battles, so a Hero-against-Evil pair is a legal selection too. h0 is p0's
    # (in battle), e1 p1's (territory): case 2, each battling player keeps their own.
    config = RuleConfig.of({"sb-pair-alignment": "any-alignment"})
    s = game(2, [evil("e1", 1, 1, 5)], {1: {"territory": ["e1"]}}, config=config)
    assert "play sb0 on h0 -> e1 h0" in [a.text() for a in legal_actions(s, config)]
    s = act(s, "play sb0 on h0 -> e1 h0", config)
    assert s.battles[1].kind is BattleKind.SIDE
    assert side_cards(s.battles[1].sides) == (("h0",), ("e1",))


@pytest.mark.clause("RED-SB-TARGETS-TWO")
def test_exactly_two_targets() -> None:
    s = game(2, [evil("e1", 1, 1, 5)], {1: {"territory": ["e1"]}})
    illegal(s, "play sb0 on h0 -> e1", "RED-SB-TARGETS-TWO")
    illegal(s, "play sb0 on h0 -> e1 e1", "RED-SB-TARGETS-TWO")


@pytest.mark.clause("RED-SB-TARGET-ZONES")
def test_targets_in_play_or_users_hand() -> None:
    # k0 is in p0's (the user's) hand: allowed. k1 is in p1's hand: not allowed.
    # s1 in discard pile: not allowed.
    cards = [hero("k0", 0, 1, 5), hero("k1", 1, 1, 5), hero("kd", 0, 1, 5)]
    s = game(2, cards, {0: {"hand": ["k0"], "discard": ["kd"]}, 1: {"hand": ["k1"]}})
    illegal(s, "play sb0 on h0 -> h0 k1", "RED-SB-TARGET-ZONES")
    illegal(s, "play sb0 on h0 -> h0 kd", "RED-SB-TARGET-ZONES")
    # h0 (p0, in battle) and k0 (p0's hand, counts as p0's, not in battle): case 4.
    s2 = act(s, "play sb0 on h0 -> h0 k0")
    assert side_cards(s2.battles[1].sides) == (("h0",), ("k0",))
    # Side battle h0 1/5 vs k0 1/5: stalemate, p1 to play; p1 passes? p1 has initiative and passes:
    s2 = act(s2, "pass")
    # k0 came from hand, not from a battle: to its owner's (p0) territory.
    assert "k0" in s2.zones[0].territory


@pytest.mark.clause("RED-SB-TARGET-ZONES")
def test_in_play_variant_territory_only() -> None:
    config = RuleConfig.of({"sb-in-play-zones": "territory-only"})
    s = game(2, [evil("e1", 1, 1, 5)], {1: {"territory": ["e1"]}}, config=config)
    illegal(s, "play sb0 on h0 -> e0 e1", "RED-SB-TARGET-ZONES", config)


