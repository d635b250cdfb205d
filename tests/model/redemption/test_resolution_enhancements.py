"""Decision br-enhancements-before-heal: are a defeated character's enhancements discarded before its
Battle Resolution heal window, or do they stay on it through the window and share its fate?

Position, worked out by hand: p0's Hero h (3/3) attacks, p1's Evil e (3/3) blocks: 3 >= 3 both ways,
mutual destruction; p1 played last, so p0 has initiative and plays g (a 0/0 enhancement, no ability)
on h: still 3 vs 3, and now p0 played last, so p1 has initiative and passes. Both h and e are
defeated; p0's heal window opens for h (p0 also holds hl, a healing enhancement).
"""

from __future__ import annotations

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import evil, good_enh, hero, position
from cardrules.model.redemption.state import Effect, Phase, PromptKind, State
from tests.model.redemption.helpers import act, acts

WITH = {"br-enhancements-before-heal": "with-the-character"}


def window_for_h(config: RuleConfig) -> State:
    cards = [hero("h", 0, 3, 3), evil("e", 1, 3, 3), good_enh("g", 0), good_enh("hl", 0, ability=Effect.HEAL)]
    s = position(cards, {0: {"territory": ["h"], "hand": ["g", "hl"]}, 1: {"territory": ["e"]}}, 2)
    s = acts(s, ["attack 1 h", "block e", "play g on h", "pass"], config)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player, s.prompt.cards) == (PromptKind.HEAL_WINDOW, 0, ("h",))
    return s


def on_h(state: State) -> tuple[str, ...]:
    return next(f.enhancements for _, f in state.battles[-1].fighters() if f.card == "h")


@pytest.mark.clause("RED-BR-HEAL-WINDOW", "RED-BR-UNAFFECTED-NORMAL", "RED-BR-STEP4-DISCARD-RETURN")
def test_by_default_the_enhancements_are_gone_before_the_window() -> None:
    s = window_for_h(RuleConfig())
    # g went to p0's discard pile when the battle's cards were cleared, before the window.
    assert on_h(s) == () and "g" in s.zones[0].discard
    s = act(act(s, "discard"), "discard")
    # h's discard records nothing on it.
    assert [(d.card, d.enhancements) for d in s.discards if d.card == "h"] == [("h", ())]


@pytest.mark.clause("RED-BR-HEAL-WINDOW", "RED-BR-STEP4-DISCARD-RETURN")
def test_with_the_character_the_enhancements_stay_on_it_through_the_window() -> None:
    config = RuleConfig.of(WITH)
    s = window_for_h(config)
    assert on_h(s) == ("g",) and "g" not in s.zones[0].discard
    s = act(act(s, "discard", config), "discard", config)
    # discarded with h, and recorded as on h when it was discarded
    assert {"h", "g"} <= s.zones[0].discard
    assert [(d.card, d.enhancements) for d in s.discards if d.card == "h"] == [("h", ("g",))]


@pytest.mark.parametrize("option,brought_back", [("enhancements-first", False), ("with-the-character", True)])
@pytest.mark.clause("RED-HEAL-PREV-ATTACHED-RETURN", "RED-HEAL-PREV-ENH-TWO-WAYS", "RED-BR-HEAL-WINDOW")
def test_previous_wording_heal_from_the_pile_brings_back_what_was_on_it(option: str, brought_back: bool) -> None:
    config = RuleConfig.of({"br-enhancements-before-heal": option}, heal_version="previous")
    s = act(act(window_for_h(config), "discard", config), "discard", config)
    # the battle is over; in p0's discard phase hl may heal h, discarded this turn, from p0's pile,
    # and cards that were on h when it was discarded come back as they were placed
    s = act(s, "next", config)
    assert s.phase is Phase.DISCARD
    s = act(s, "heal h with hl", config)
    assert "h" in s.zones[0].territory
    assert (("g", "h") in s.placed) is brought_back
    assert ("g" in s.zones[0].discard) is not brought_back
