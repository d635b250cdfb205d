"""Decision heal-self-when-discarded: may a character being discarded heal itself with its own ability?

Expected values are worked out by hand from the rules (a character is defeated when the opposing total
strength is at least its toughness; Battle Resolution discards the defeated after their controller's heal
window, in which the controller may heal them or let the discard complete).
"""

from __future__ import annotations

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import evil, hero, position
from cardrules.model.redemption.state import PromptKind
from tests.model.redemption.helpers import act, acts, medic, texts

SELF = RuleConfig.of({"heal-self-when-discarded": "may-heal-itself"})


def lone_medic_loses():
    """Medic m 0/3 (p0) attacks alone, e 3/3 (p1) blocks: 3 >= 3 m is defeated, 0 < 3 e is not:
    Evil wins, and Battle Resolution is to discard m. No other card of p0 can heal."""
    cards = [medic("m", 0, 0, 3), evil("e", 1, 3, 3)]
    s = position(cards, {0: {"territory": ["m"]}, 1: {"territory": ["e"]}}, 2)
    return acts(s, ["attack 1 m", "block e", "pass"])


@pytest.mark.clause("RED-HEAL-WINDOW-MEANS", "RED-HEAL-AT-RESOLUTION", "RED-BR-HEAL-WINDOW")
def test_by_default_a_character_being_discarded_cannot_heal_itself() -> None:
    s = lone_medic_loses()
    # p0's window opens for m, but m's own ability is the only heal p0 has and it may not save m:
    # letting the discard complete is all p0 can do; m goes to the discard pile and it counts.
    assert s.prompt is not None and (s.prompt.kind, s.prompt.cards) == (PromptKind.HEAL_WINDOW, ("m",))
    assert texts(s) == ["discard"]
    s = act(s, "discard")
    assert "m" in s.zones[0].discard and [d.card for d in s.discards] == ["m"]


@pytest.mark.clause("RED-HEAL-WINDOW-MEANS", "RED-HEAL-AT-RESOLUTION", "RED-BR-HEAL-WINDOW",
                    "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-DISCARD-NOT-COMPLETED")
def test_may_heal_itself_opens_the_window_and_saves_the_character() -> None:
    cards = [medic("m", 0, 0, 3), evil("e", 1, 3, 3)]
    s = position(cards, {0: {"territory": ["m"]}, 1: {"territory": ["e"]}}, 2)
    s = acts(s, ["attack 1 m", "block e", "pass"], SELF)
    # m is in the battle on p0's side, so its ability is usable there; being discarded no longer
    # stops it: p0's window opens for m, with m's own heal as the one heal on offer.
    assert s.prompt is not None and s.prompt.kind is PromptKind.HEAL_WINDOW
    assert (s.prompt.player, s.prompt.cards) == (0, ("m",))
    assert texts(s, SELF) == ["discard", "heal m with m"]
    s = act(s, "heal m with m", SELF)
    # healed from being discarded: back in the territory of its permanent controller, p0, and the
    # discard never completed, so none is recorded
    assert "m" in s.zones[0].territory and "m" not in s.zones[0].discard and s.discards == ()


@pytest.mark.clause("RED-HEAL-WINDOW-MEANS", "RED-HEAL-CHARACTER-TC", "RED-BR-HEAL-WINDOW")
def test_may_heal_itself_still_needs_a_usable_ability() -> None:
    # mx 0/3 (no Territory Class) attacks with h 0/9; e 3/3 blocks: 3 >= 3 mx is defeated,
    # 3 < 9 h is not; 0 < 3 e is not. mx, defeated, is to be discarded. mx fought, so its ability
    # is usable in the battle and it may save itself; my, a medic in territory without Territory
    # Class, can heal no one from there, so it offers nothing.
    cards = [medic("mx", 0, 0, 3), hero("h", 0, 0, 9), medic("my", 0, 0, 1), evil("e", 1, 3, 3)]
    s = position(cards, {0: {"territory": ["mx", "h", "my"]}, 1: {"territory": ["e"]}}, 2)
    s = acts(s, ["attack 1 mx h", "block e", "pass"], SELF)
    assert s.prompt is not None and s.prompt.cards == ("mx",)
    assert [t for t in texts(s, SELF) if t.startswith("heal ")] == ["heal mx with mx"]
