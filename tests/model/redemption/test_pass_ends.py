"""Decision red-base-pass-ends: does one pass by the player with initiative end play in a battle, or
only two passes in succession?

Expected values are worked out by hand from the base rules: a character is defeated when the opposing
side's total strength is at least its toughness; initiative goes to the losing side, at a tie to the
battling player who did not play the last card (the blocker counts as having done so).

The position (tests.model.redemption.helpers.game): p0's h0 1/5 attacks, p1's e0 1/5 blocks: 1 < 5
both ways, a stalemate, and p0 has initiative. p1 holds x 4/0 (evil, crimson, matching e0); p0 passes
(its side battle card sb0 stays in hand throughout).
- one-pass (default): the pass ends play: a stalemate, nobody discarded, x stays in p1's hand.
- both-pass: p1 is asked to play after p0's pass and plays x on e0: e0 5/5, so 5 >= 5 defeats h0 and
  1 < 5 spares e0: p1 wins, p0 (losing) has initiative again and passes; p1, asked again, passes too:
  play ends with the Evil side winning, h0 is discarded (p0 lets the discard complete) and x with it
  goes to p1's discard pile.
"""

from __future__ import annotations

import pytest

from cardrules.model.errors import ScenarioError
from cardrules.model.fastcopy import replace
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.scenario import evil_enh
from cardrules.model.redemption.state import Outcome, Prompt, PromptKind
from cardrules.model.redemption.validate import load_state
from tests.model.redemption.helpers import act, acts, game, texts

BOTH = RuleConfig.of({"red-base-pass-ends": "both-pass"})
X = [evil_enh("x", 1, 4, 0)]


@pytest.mark.clause("RED-BASE-INITIATIVE", "RED-BASE-MUTUAL-STALEMATE")
def test_one_pass_ends_play() -> None:
    s = act(game(2, X, {1: {"hand": ["x"]}}), "pass")
    assert s.battles == () and s.last_outcome is Outcome.STALEMATE
    assert s.zones[1].hand == frozenset({"x"}) and s.zones[0].territory == frozenset({"h0"})


@pytest.mark.clause("RED-BASE-INITIATIVE", "RED-BASE-DEFEAT", "RED-BR-FOUR-OUTCOMES")
def test_both_pass_the_other_player_may_still_play() -> None:
    s = act(game(2, X, {1: {"hand": ["x"]}}, config=BOTH), "pass", BOTH)
    assert len(s.battles) == 1 and s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, 1)
    assert texts(s, BOTH) == ["pass", "play x on e0"]
    s = act(s, "play x on e0", BOTH)
    assert s.prompt is not None and s.prompt.player == 0
    s = acts(s, ["pass"], BOTH)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, 1)
    s = act(s, "pass", BOTH)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player, s.prompt.cards) == (PromptKind.HEAL_WINDOW, 0, ("h0",))
    s = act(s, "discard", BOTH)
    assert s.battles == () and s.last_outcome is Outcome.SIDE1_WINS
    assert s.zones[0].discard == frozenset({"h0"}) and s.zones[1].discard == frozenset({"x"})
    assert s.zones[1].territory == frozenset({"e0"}) and not s.passed


@pytest.mark.clause("RED-BASE-INITIATIVE")
def test_both_pass_two_passes_give_the_one_pass_result() -> None:
    s = acts(game(2, X, {1: {"hand": ["x"]}}, config=BOTH), ["pass", "pass"], BOTH)
    assert s.battles == () and s.last_outcome is Outcome.STALEMATE and s.zones[1].hand == frozenset({"x"})
    assert s.to_json() == act(game(2, X, {1: {"hand": ["x"]}}), "pass", DEFAULT).to_json()


@pytest.mark.clause("RED-BASE-INITIATIVE")
def test_a_state_claiming_a_pass_away_from_a_play_prompt_is_refused() -> None:
    """``passed`` says the other battling player is asked to play after a pass: a state with it set at a
    heal window (or with an unknown card in ``reduced``) is refused on load, naming the field."""
    s = game(2)
    assert load_state(replace(s, passed=True).to_json()).passed  # at a play prompt: accepted
    with pytest.raises(ScenarioError) as info:
        load_state(replace(s, passed=True, prompt=Prompt(PromptKind.HEAL_WINDOW, 0, -1, ("h0",))).to_json())
    assert info.value.where == "passed"
    with pytest.raises(ScenarioError) as info:
        load_state(replace(s, reduced=(("zz", 1, 1),)).to_json())
    assert info.value.where == "reduced[0]"
