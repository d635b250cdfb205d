"""Decision sb-initiated-when (RED-SB-ONCE-PER-TURN): when has a player 'initiated' their side battle of the
turn, and does negating the side battle card give the allowance back?

- started-stays-counted (default): counted when the side battle starts; a later negation keeps it counted;
- negation-restores: counted when it starts, and negating the card (as if never used, RED-BASE-NEGATE)
  gives the allowance back;
- on-use: counted as soon as the card is used, even if it is answered before its side battle starts.

Expected values are worked out by hand from the clause text. Base position (helpers.game): p0's Hero h0 1/5
fights p1's Evil e0 1/5: a stalemate, p1 blocked last, so p0 has initiative; p0 holds sb0 and sb1, two
side battle cards (good, blue) it may play on h0. Once p0's allowance (one per turn) is used, a side
battle card p0 plays selects nothing (RED-SB-RESTRICT-AFTER, decision sb-restriction-scope =
ability-blanked): it is offered only as 'play sb1 on h0' with no targets.
"""

from __future__ import annotations

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh
from cardrules.model.redemption.state import BattleKind, Effect, RecordStatus, State
from tests.model.redemption.helpers import act, acts, game, texts

DEFAULT = RuleConfig()
RESTORES = RuleConfig.of({"sb-initiated-when": "negation-restores"})
ON_USE = RuleConfig.of({"sb-initiated-when": "on-use"})
ALL = pytest.mark.parametrize("config", [DEFAULT, RESTORES, ON_USE],
                              ids=["started-stays-counted", "negation-restores", "on-use"])

pytestmark = pytest.mark.clause("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER")


def answered(answer: str, config: RuleConfig) -> State:
    """p0 plays sb0 on h0 selecting e0 (p1's only character in the main battle) and e1 (p1's territory):
    the side battle would leave p1 with no character in the main battle, so p1 (holding ``answer``, an
    interrupt or a negate it may play on e0) gets special initiative against sb0 (decision
    sb-answer-before-start) and answers it before the side battle starts."""
    kind = Effect.NEGATE if answer == "ng1" else Effect.INTERRUPT
    cards = [evil("e1", 1, 1, 5), good_enh("sb1", 0, ability=Effect.SIDE_BATTLE), evil_enh(answer, 1, ability=kind)]
    s = game(2, cards, {0: {"hand": ["sb1"]}, 1: {"territory": ["e1"], "hand": [answer]}}, config=config)
    s = act(s, "play sb0 on h0 -> e0 e1", config)
    return act(s, f"play {answer} on e0 -> #1", config)


@pytest.mark.clause("RED-BASE-NEGATE", "RED-BASE-SPECIAL-INITIATIVE")
@ALL
def test_a_card_negated_before_its_side_battle_starts(config: RuleConfig) -> None:
    s = answered("ng1", config)
    # Negated before the start: no side battle began under any reading. Only on-use counted the use, so
    # p0's second card is blank there; under the others p0 may still select with sb1 (e0 and e1 again).
    assert s.record(1).status is RecordStatus.NEGATED and len(s.battles) == 1
    on_use = config is ON_USE
    assert s.side_battles == ((1, 0) if on_use else (0, 0))
    plays = [t for t in texts(s, config) if t.startswith("play sb1")]
    assert plays == (["play sb1 on h0"] if on_use else ["play sb1 on h0 -> e0 e1"])


@pytest.mark.clause("RED-BASE-INTERRUPT", "RED-BASE-SPECIAL-INITIATIVE")
@ALL
def test_an_interrupted_card_counts_once(config: RuleConfig) -> None:
    s = answered("int1", config)
    # Interrupted (pending): counted already under on-use only.
    assert s.record(1).status is RecordStatus.PENDING and len(s.battles) == 1
    assert s.side_battles == ((1, 0) if config is ON_USE else (0, 0))
    # p0 passes: sb0 is still on h0 and e0, e1 may still be selected, so it reactivates and its side
    # battle starts (decision red-base-interrupt-reactivation). It is one side battle: p0 has initiated
    # exactly one under every reading (on-use does not count it a second time, nor stop it as over the
    # allowance it was counted against when used).
    s = act(s, "pass", config)
    assert [b.kind for b in s.battles] == [BattleKind.CHALLENGE, BattleKind.SIDE]
    assert s.side_battles == (1, 0) and s.record(1).status is RecordStatus.ACTIVE


def negated_after_it_ended(config: RuleConfig) -> State:
    """p0 plays sb0 on h0 selecting e1 and e2 (1/5 each, p1's territory; p1 keeps e0 in the main battle, so
    nobody may answer first). Case 3 (both p1's, neither in a battle): p0 gives e1 to itself, e2 to p1.
    1 < 5 both ways: a stalemate; p0 used the card, so p1 has initiative and passes; both survive and go
    back to p1's territory, and the main battle resumes with p1 to play (p0 played sb0 there last). p1
    negates sb0 (record #1, in effect in the main battle) with ng1 on e0."""
    cards = [evil("e1", 1, 1, 5), evil("e2", 1, 1, 5), good_enh("sb1", 0, ability=Effect.SIDE_BATTLE),
             evil_enh("ng1", 1, ability=Effect.NEGATE)]
    s = game(2, cards, {0: {"hand": ["sb1"]}, 1: {"territory": ["e1", "e2"], "hand": ["ng1"]}}, config=config)
    s = acts(s, ["play sb0 on h0 -> e1 e2", "sides e1 e2", "pass"], config)
    assert len(s.battles) == 1 and {"e1", "e2"} <= s.zones[1].territory and s.side_battles == (1, 0)
    return act(s, "play ng1 on e0 -> #1", config)


@pytest.mark.clause("RED-BASE-NEGATE", "RED-SB-NEGATE-CASCADE")
@ALL
def test_a_card_negated_after_its_side_battle(config: RuleConfig) -> None:
    s = negated_after_it_ended(config)
    assert s.record(1).status is RecordStatus.NEGATED
    # The side battle had started: counted under every reading. Only negation-restores gives the allowance
    # back ('as if never used'), so p0, who has initiative (p1 played ng1 last), may select again with sb1.
    restores = config is RESTORES
    assert s.side_battles == ((0, 0) if restores else (1, 0))
    plays = [t for t in texts(s, config) if t.startswith("play sb1")]
    assert plays == (["play sb1 on h0 -> e0 e1", "play sb1 on h0 -> e0 e2", "play sb1 on h0 -> e1 e2"]
                     if restores else ["play sb1 on h0"])


@pytest.mark.clause("RED-RD-CARRIER-CHANGES", "RED-RD-ONLY-INTERRUPTED", "RED-BASE-INTERRUPT")
@ALL
def test_a_redirected_card(config: RuleConfig) -> None:
    # sb0 selects e0 and e1; p1 interrupts it (int1 on e0, special initiative), p0 plays pad0 (no ability) on
    # h0, and p1, with initiative, redirects sb0 with rd1 onto e1 and e2 (1/5 each, p1's territory).
    cards = [evil("e1", 1, 1, 5), evil("e2", 1, 1, 5), good_enh("pad0", 0),
             evil_enh("int1", 1, ability=Effect.INTERRUPT), evil_enh("rd1", 1, ability=Effect.REDIRECT_ABILITY)]
    s = game(2, cards, {0: {"hand": ["pad0"]}, 1: {"territory": ["e1", "e2"], "hand": ["int1", "rd1"]}}, config=config)
    s = acts(s, ["play sb0 on h0 -> e0 e1", "play int1 on e0 -> #1", "play pad0 on h0", "play rd1 on e0 -> #1 e1 e2"],
             config)
    # Counted when it starts (the default and negation-restores): against its initiator, the redirecting
    # player p1 (decision sb-redirected-initiator). on-use: against p0 when p0 used sb0, and the redirect,
    # no new use of the card, counts nobody again.
    assert s.side_battles == ((1, 0) if config is ON_USE else (0, 1))
