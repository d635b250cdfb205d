"""Decision red-base-first-initiative: who counts as having played the last card before anyone has played
in a battle?

Expected values are worked out by hand from the base rules: initiative is the losing side's; at a
stalemate or mutual destruction it goes to the battling player who did not play the last card; the
player with initiative plays a card or passes, and (chosen reading of red-base-pass-ends) a pass ends
play in the battle.

The position: p0's h0 1/5 attacks p1, whose e0 1/5 blocks: 1 < 5 both ways, nobody is defeated, a
stalemate. p0 holds a 1/0 enhancement g (blue, matching h0).
- battle-opener (default): the blocker e0 was the last card put in, so p0 has initiative.
- attacker: the turn's player p0 counts as having played last, so p1 has initiative; p1 has nothing
  to play on e0 and may only pass, which ends the battle at a stalemate, g unplayed.
"""

from __future__ import annotations

import pytest

from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero
from cardrules.model.redemption.state import Effect, Outcome, PromptKind
from tests.model.redemption.helpers import act, game, texts

ATTACKER = RuleConfig.of({"red-base-first-initiative": "attacker"})


@pytest.mark.clause("RED-BASE-INITIATIVE")
def test_battle_opener_the_blocker_played_last() -> None:
    s = game(2, [good_enh("g", 0, 1, 0)], {0: {"hand": ["g"]}})
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, 0)
    assert "play g on h0" in texts(s)
    # g makes h0 2/5 against e0's 5: still a stalemate; p0 played last, so p1 now has initiative
    s = act(s, "play g on h0")
    assert s.prompt is not None and s.prompt.player == 1


@pytest.mark.clause("RED-BASE-INITIATIVE", "RED-BASE-MUTUAL-STALEMATE")
def test_attacker_the_turns_player_counts_as_last() -> None:
    s = game(2, [good_enh("g", 0, 1, 0)], {0: {"hand": ["g"]}}, config=ATTACKER)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, 1)
    assert texts(s, ATTACKER) == ["pass"]
    s = act(s, "pass", ATTACKER)
    assert s.battles == () and s.last_outcome is Outcome.STALEMATE
    assert s.zones[0].hand == frozenset({"g", "sb0"}) and s.zones[0].territory == frozenset({"h0"})


@pytest.mark.clause("RED-BASE-INITIATIVE")
@pytest.mark.parametrize("config", [DEFAULT, ATTACKER], ids=["battle-opener", "attacker"])
def test_the_losing_side_has_initiative_under_both_readings(config: RuleConfig) -> None:
    """e0 5/5 blocks h0 1/5: h0 is defeated (5 >= 5), e0 is not (1 < 5): p0's side is losing, so p0
    has initiative whoever counts as having played last."""
    s = game(2, [evil("e0", 1, 5, 5)], config=config)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, 0)


@pytest.mark.clause("RED-BASE-INITIATIVE", "RED-SB-SUSPEND", "RED-SB-CONTROL-SAME-MIXED")
@pytest.mark.parametrize(("config", "first"), [(DEFAULT, 0), (ATTACKER, 1)], ids=["battle-opener", "attacker"])
def test_a_side_battle_opened_by_the_defender(config: RuleConfig, first: int) -> None:
    """h0 5/5 attacks, e0 1/5 blocks: e0 is defeated, so p1 is losing and has initiative; p1 uses the side
    battle card sbe on e0 and selects e0 (in the battle) and e1 1/3 (p1's territory). Same controller, one
    in battle: e0 stays on p1's side, e1 goes to p0's. e1 1/3 against e0 1/5 is a stalemate, so initiative
    is with the battling player who did not play last: battle-opener: p1 used the card, so p0; attacker:
    the turn's player p0 counts as having played last, so p1."""
    cards = [hero("h0", 0, 5, 5), evil("e0", 1, 1, 5), evil("e1", 1, 1, 3), evil_enh("sbe", 1, ability=Effect.SIDE_BATTLE)]
    s = game(2, cards, {1: {"territory": ["e1"], "hand": ["sbe"]}}, config=config)
    assert s.prompt is not None and s.prompt.player == 1
    s = act(s, "play sbe on e0 -> e0 e1", config)
    side = s.battles[-1]
    assert [f.card for f in side.sides[0]] == ["e1"] and [f.card for f in side.sides[1]] == ["e0"]
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, first)
