"""Decision heal-ability-suspended-battle: may a fighter of a suspended battle use its heal ability
while a side battle is fought above it?

Position, worked out by hand: p0's medic m (1/5, heal ability, no Territory Class) attacks p1 and e0
(1/5) blocks: 1 < 5 both ways, a stalemate, and p1 played last, so p0 has initiative. p0 plays sb0 on
m, setting its Hero h1 (0/1, territory) against p1's Hero k1 (1/5, territory): each battling player
keeps their own (case 2), so h1 is side 0 and k1 side 1. In the side battle 1 >= 1 h1 is defeated and
0 < 5 k1 is not: p0 is losing and has initiative. h1 is then poisoned (a healable character of a
battle on the stack).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import evil, good_enh, hero, position
from cardrules.model.redemption.state import Effect, PromptKind, State, Status
from tests.model.redemption.helpers import act, acts, medic, side_cards, texts

ANY = RuleConfig.of({"heal-ability-suspended-battle": "any-battle-on-stack"})


def side_battle_over_medic(config: RuleConfig) -> State:
    cards = [medic("m", 0, 1, 5), evil("e0", 1, 1, 5), hero("h1", 0, 0, 1), hero("k1", 1, 1, 5),
             good_enh("sb0", 0, ability=Effect.SIDE_BATTLE)]
    s = position(cards, {0: {"territory": ["m", "h1"], "hand": ["sb0"]}, 1: {"territory": ["e0", "k1"]}}, 2)
    s = acts(s, ["attack 1 m", "block e0", "play sb0 on m -> h1 k1"], config)
    assert side_cards(s.battles[1].sides) == (("h1",), ("k1",))
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, 0)
    return replace(s, statuses=frozenset({("h1", Status.POISONED)}))


def heals(state: State, config: RuleConfig) -> list[str]:
    return [t for t in texts(state, config) if t.startswith("heal ")]


@pytest.mark.clause("RED-HEAL-CHARACTER-TC", "RED-HEAL-TARGETS-HEALED", "RED-SB-SUSPEND")
def test_by_default_a_fighter_of_the_paused_battle_cannot_heal() -> None:
    # m is in battle, but in the paused one; only fighters of the battle being fought may use a heal
    # ability in battle, and p0's only one there (h1) has none: no heal is on offer.
    assert heals(side_battle_over_medic(RuleConfig()), RuleConfig()) == []


@pytest.mark.clause("RED-HEAL-CHARACTER-TC", "RED-HEAL-TARGETS-HEALED", "RED-HEAL-CLEARS-STATUS", "RED-SB-SUSPEND")
def test_any_battle_on_stack_lets_the_paused_fighter_heal() -> None:
    s = side_battle_over_medic(ANY)
    # m counts as in battle though its battle is paused: it may heal the poisoned h1 above it.
    assert heals(s, ANY) == ["heal h1 with m"]
    s = act(s, "heal h1 with m", ANY)
    assert not s.has_status("h1", Status.POISONED)
