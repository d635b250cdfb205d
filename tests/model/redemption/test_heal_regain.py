"""Decision prev-regain-harmful: a character healed out of a discard pile under the previous heal wording
regains the abilities or effects it lost going back to face value in the pile (RED-HEAL-PREV-REGAINS).
Only the beneficial ones (beneficial-only, the default), or every one, harmful ones included (everything)?

Expected values are worked out by hand from the rules: a numbers redirect moves the stated amount (at most
the printed numbers) from its target to the redirecting card and lasts to the end of the phase it was used
in (RED-RD-NUMBERS-TRANSFER, RED-RD-UNTIL-END-OF-PHASE); in a discard pile a card is at face value, its
printed numbers and no status; a heal clears poison, disease and paralysis and ends what is tied to them,
and removes decreases of special abilities, not of numbers (RED-HEAL-CLEARS-STATUS,
RED-HEAL-RESTORES-DECREASE, decision heal-decrease-scope); a character is defeated when the opposing
strength is at least its toughness; initiative goes to the losing side, at a tie to the player who did not
play the last card.

The position (previous heal wording): p0 has m (Hero 0/5 with a heal ability), h2 (Hero 2/6) and k (Hero
4/9) in territory and pad0, pad1, pad2 (0/0 enhancements) and sb (side battle) in hand; p1 has e (Evil
1/5) in territory and rn (numbers redirect stating 0/2), pz (poison, 0/0) and dc (discard) in hand.

1. m and h2 attack, e blocks: 0 + 2 < 5 and 1 < 5, 1 < 6: a stalemate; p1 blocked last, p0 has
   initiative and plays pad0 on m (still a tie: p1 has it).
2. p1 plays rn on e -> h2: 0/2 moves, h2 is 2/4. Tie: p0 plays pad1 on m; p1 plays pz on e -> h2: h2 is
   poisoned. Tie: p0 plays pad2 on m; p1 plays dc on e -> h2. The previous wording has no heal window for a
   discard by an ability (decision redline-window = inserted): h2 goes to its owner p0's pile at once, at
   face value there (2/6, no poison). m 0 < 5 and e 1 < 5: a tie, p1 played last, p0 has initiative.
3. p0 heals h2 with m (in battle; h2 was discarded earlier this turn, so it is healable): h2 goes to its
   owner p0's territory, still in the battle phase, where rn's redirect lasts.
   - beneficial-only: the lowering is harmful and stays lost: h2 is 2/6 and the redirect is over.
   - everything: the lowering comes back, and the heal does not remove a lowering of numbers: h2 is 2/4.
   Either way h2 has no poison: under everything it comes back and the heal clears it at once.
4. p0 plays sb on m -> h2 k, h2 on p0's side and k on p1's: a side battle h2 against k 4/9.
   - beneficial-only: 4 < 6 and 2 < 9, a stalemate; p0 played last, so p1 has initiative and passes:
     nobody is defeated, h2 and k go back to p0's territory.
   - everything: 4 >= 4, h2 is defeated and k is not: p0 is losing and has initiative; p0 passes and
     Battle Resolution opens p0's heal window for h2.
"""

from __future__ import annotations

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.numbers import numbers
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero, position
from cardrules.model.redemption.state import Effect, Phase, PromptKind, RecordStatus, State
from tests.model.redemption.helpers import act, acts, medic

BENEFICIAL = RuleConfig(heal_version="previous")
EVERYTHING = RuleConfig.of({"prev-regain-harmful": "everything"}, heal_version="previous")


def healed_from_the_pile(config: RuleConfig) -> State:
    """Steps 1 to 3 of the module docstring: h2 is back in p0's territory."""
    cards = [medic("m", 0, 0, 5), hero("h2", 0, 2, 6), hero("k", 0, 4, 9), evil("e", 1, 1, 5),
             good_enh("pad0", 0), good_enh("pad1", 0), good_enh("pad2", 0), good_enh("sb", 0, ability=Effect.SIDE_BATTLE),
             evil_enh("rn", 1, ability=Effect.REDIRECT_NUMBERS, stated_amount=(0, 2)),
             evil_enh("pz", 1, ability=Effect.POISON), evil_enh("dc", 1, ability=Effect.DISCARD)]
    s = position(cards, {0: {"territory": ["m", "h2", "k"], "hand": ["pad0", "pad1", "pad2", "sb"]},
                         1: {"territory": ["e"], "hand": ["rn", "pz", "dc"]}}, 2)
    s = acts(s, ["attack 1 m h2", "block e", "play pad0 on m", "play rn on e -> h2"], config)
    assert numbers(s, "h2", config) == (2, 4)
    s = acts(s, ["play pad1 on m", "play pz on e -> h2", "play pad2 on m", "play dc on e -> h2"], config)
    assert "h2" in s.zones[0].discard and not s.statuses
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, 0)
    return act(s, "heal h2 with m", config)


@pytest.mark.clause("RED-HEAL-PREV-REGAINS", "RED-HEAL-PREV-TO-OWNER", "RED-HEAL-CLEARS-STATUS",
                    "RED-RD-NUMBERS-TRANSFER", "RED-RD-UNTIL-END-OF-PHASE")
@pytest.mark.parametrize(("config", "h2_numbers", "redirect"), [
    (BENEFICIAL, (2, 6), RecordStatus.ENDED), (EVERYTHING, (2, 4), RecordStatus.ACTIVE),
], ids=["beneficial-only", "everything"])
def test_what_h2_brings_back_from_the_pile(config: RuleConfig, h2_numbers: tuple[int, int],
                                           redirect: RecordStatus) -> None:
    s = healed_from_the_pile(config)
    assert "h2" in s.zones[0].territory and "h2" not in s.zones[0].discard
    assert numbers(s, "h2", config) == h2_numbers
    assert next(r for r in s.records if r.card == "rn").status is redirect
    # The poison is gone under both: lost in the pile, and cleared by the heal where it comes back.
    assert not s.statuses
    assert next(r for r in s.records if r.card == "pz").status is RecordStatus.ENDED


@pytest.mark.clause("RED-HEAL-PREV-REGAINS", "RED-BASE-DEFEAT", "RED-BASE-INITIATIVE", "RED-BR-HEAL-WINDOW")
def test_beneficial_only_h2_survives_the_side_battle() -> None:
    s = acts(healed_from_the_pile(BENEFICIAL), ["play sb on m -> h2 k", "sides h2 k"], BENEFICIAL)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, 1)
    s = act(s, "pass", BENEFICIAL)
    assert len(s.battles) == 1 and {"h2", "k"} <= s.zones[0].territory


@pytest.mark.clause("RED-HEAL-PREV-REGAINS", "RED-BASE-DEFEAT", "RED-BASE-INITIATIVE", "RED-BR-HEAL-WINDOW")
def test_everything_h2_falls_in_the_side_battle() -> None:
    s = acts(healed_from_the_pile(EVERYTHING), ["play sb on m -> h2 k", "sides h2 k"], EVERYTHING)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, 0)
    s = act(s, "pass", EVERYTHING)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player, s.prompt.cards) == (PromptKind.HEAL_WINDOW, 0, ("h2",))


@pytest.mark.clause("RED-HEAL-PREV-REGAINS", "RED-HEAL-RESTORES-DECREASE")
def test_everything_with_numbers_decreases_healed_h2_is_whole() -> None:
    # Decision heal-decrease-scope = abilities-and-numbers: the heal also removes a lowering of
    # numbers, ending the redirect, so even the regained lowering is gone: h2 is 2/6.
    config = RuleConfig.of({"prev-regain-harmful": "everything", "heal-decrease-scope": "abilities-and-numbers"},
                           heal_version="previous")
    s = healed_from_the_pile(config)
    assert numbers(s, "h2", config) == (2, 6)


@pytest.mark.clause("RED-HEAL-PREV-REGAINS", "RED-RD-UNTIL-END-OF-PHASE")
@pytest.mark.parametrize(("config", "h2_numbers"), [
    (RuleConfig.of({"rd-lapse-reduction": "reduction-stays"}, heal_version="previous"), (2, 6)),
    (RuleConfig.of({"rd-lapse-reduction": "reduction-stays", "prev-regain-harmful": "everything"},
                   heal_version="previous"), (2, 4)),
], ids=["beneficial-only", "everything"])
def test_a_kept_reduction_after_the_phase(config: RuleConfig, h2_numbers: tuple[int, int]) -> None:
    # Decision rd-lapse-reduction = reduction-stays: a redirect still lasting when its phase ends leaves
    # its target lowered for good. Under beneficial-only the heal ended rn's redirect (step 3), so nothing
    # is left to keep; under everything it lasted to the end of the battle phase and h2 keeps 0/2 off.
    # After step 3 p0 passes: the stalemate stands and the battle ends; then the battle phase ends.
    s = acts(healed_from_the_pile(config), ["pass", "next"], config)
    assert not s.battles and s.phase is Phase.DISCARD
    assert "h2" in s.zones[0].territory and numbers(s, "h2", config) == h2_numbers


@pytest.mark.clause("RED-HEAL-PREV-REGAINS", "RED-HEAL-PREV-ATTACHED-RETURN", "RED-RD-NUMBERS-TARGET")
@pytest.mark.parametrize(("config", "bo_numbers", "h2_toughness"), [
    (BENEFICIAL, (0, 2), 8), (EVERYTHING, (0, 0), 6),
], ids=["beneficial-only", "everything"])
def test_a_card_returned_on_h2(config: RuleConfig, bo_numbers: tuple[int, int], h2_toughness: int) -> None:
    """The same play with bo (+0/+2) on h2 and rn redirecting bo's numbers instead of h2's. m and h2 attack,
    e blocks (a stalemate, p0 has initiative); p0 plays bo on h2 (h2 2/8, a tie: p1 has it); p1 plays rn on
    e -> bo: bo's 0/2 moves, bo is 0/0 (a tie: p0); p0 plays pad0 on m (p1); p1 plays dc on e -> h2: h2 and
    bo go to p0's pile, at face value there; p0 heals h2 with m: h2 goes to p0's territory with bo on it
    again (RED-HEAL-PREV-ATTACHED-RETURN). beneficial-only: bo comes back as printed, 0/2, so h2 with bo
    stands at 2/8; everything: rn's lowering of bo comes back, bo is 0/0 and h2 with bo 2/6."""
    cards = [medic("m", 0, 0, 5), hero("h2", 0, 2, 6), evil("e", 1, 1, 5), good_enh("pad0", 0), good_enh("bo", 0, 0, 2),
             evil_enh("rn", 1, ability=Effect.REDIRECT_NUMBERS, stated_amount=(0, 2)),
             evil_enh("dc", 1, ability=Effect.DISCARD)]
    s = position(cards, {0: {"territory": ["m", "h2"], "hand": ["pad0", "bo"]},
                         1: {"territory": ["e"], "hand": ["rn", "dc"]}}, 2)
    s = acts(s, ["attack 1 m h2", "block e", "play bo on h2", "play rn on e -> bo"], config)
    assert numbers(s, "bo", config) == (0, 0)
    s = acts(s, ["play pad0 on m", "play dc on e -> h2", "heal h2 with m"], config)
    assert "h2" in s.zones[0].territory and s.placed == {("bo", "h2")}
    assert numbers(s, "bo", config) == bo_numbers
    assert numbers(s, "h2", config)[1] + numbers(s, "bo", config)[1] == h2_toughness
