"""Heal readings the catalogue records as decisions, each selected in the model: the default and the
alternative played on one small position where they part.

Expected values are worked out by hand from the heal text (seed 001) and the clause statements: a
character is defeated when the opposing total strength is at least its toughness; initiative goes
to the losing side, or at a tie to the player who did not play the last card; Battle Resolution
offers the controller of a character it is about to discard a heal window (RED-BR-HEAL-WINDOW).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero, position
from cardrules.model.redemption.state import Alignment, DiscardCause, DiscardEvent, Effect, Phase, PromptKind, State, Status
from tests.model.redemption.helpers import PREVIOUS, act, acts, illegal, medic, texts
from tests.model.redemption.test_heal import discard_fight, heal_actions, poison_fight

E = Effect
REVISED = RuleConfig()


def _config(heal_version: str = "revised", **options: str) -> RuleConfig:
    return RuleConfig.of({k.replace("_", "-"): v for k, v in options.items()}, heal_version=heal_version)


# --- heal-tc-when ----------------------------------------------------------------------------------------

ANY_TIME = _config(heal_tc_when="any-time-outside-battle")


def _tc_in_territory(phase: Phase) -> State:
    """p0's turn, ``phase``. In p0's territory: t (Hero with a heal ability and Territory Class) and h
    (poisoned); m (heal ability, no Territory Class) sits there too."""
    cards = [medic("t", 0, 1, 1, tc=True), medic("m", 0, 1, 1), hero("h", 0, 1, 5), evil("e", 1, 1, 5)]
    s = position(cards, {0: {"territory": ["t", "m", "h"]}, 1: {"territory": ["e"]}}, 2, phase=phase)
    return replace(s, statuses=frozenset({("h", Status.POISONED)}))


@pytest.mark.parametrize("phase", [Phase.DRAW, Phase.UPKEEP, Phase.BATTLE])
@pytest.mark.clause("RED-HEAL-CHARACTER-TC", "RED-HEAL-ENH-PHASES", "RED-BASE-TERRITORY-CLASS")
def test_territory_class_heal_outside_the_enhancement_phases(phase: Phase) -> None:
    # No battle is fought and nothing waits for an answer. Default (enhancement-moments): t may heal
    # only when an enhancement could be played outside battle, the preparation and discard phases,
    # so nothing now. any-time-outside-battle: whenever an ability may be used outside battle, so t
    # heals the poisoned h now; m has no Territory Class and never heals outside battle.
    s = _tc_in_territory(phase)
    assert heal_actions(s, REVISED) == []
    assert heal_actions(s, ANY_TIME) == ["heal h with t"]
    illegal(s, "heal h with m", "RED-HEAL-CHARACTER-TC", ANY_TIME)
    assert not act(s, "heal h with t", ANY_TIME).has_status("h", Status.POISONED)


@pytest.mark.clause("RED-HEAL-CHARACTER-TC", "RED-HEAL-ENH-PHASES")
def test_territory_class_heal_in_the_preparation_phase_under_both() -> None:
    # The preparation phase is a moment of both readings.
    s = _tc_in_territory(Phase.PREPARATION)
    assert heal_actions(s, REVISED) == heal_actions(s, ANY_TIME) == ["heal h with t"]


@pytest.mark.clause("RED-HEAL-CHARACTER-TC", "RED-HEAL-TARGETS-HEALED", "RED-BASE-TERRITORY-CLASS")
def test_territory_class_heal_from_territory_during_a_battle() -> None:
    # poison_fight: h (p0) is poisoned, fighting, and p0 has initiative. t (p0's Territory Class
    # medic) stays in p0's territory, out of the battle. Default: outside battle t heals only at the
    # enhancement moments (preparation, discard, a heal window), not while p0 holds initiative in
    # battle. any-time-outside-battle: t, not fighting, may heal the poisoned fighter h now.
    s = poison_fight()
    cards = {c.id: c for c in s.cards}
    cards["t"] = medic("t", 0, 1, 1, tc=True)
    s = replace(s, cards=tuple(sorted(cards.values(), key=lambda c: c.id)),
                zones=(replace(s.zones[0], territory=s.zones[0].territory | {"t"}), s.zones[1]))
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, 0)
    assert heal_actions(s, REVISED) == []
    assert heal_actions(s, ANY_TIME) == ["heal h with t"]
    after = act(s, "heal h with t", ANY_TIME)
    assert not after.has_status("h", Status.POISONED) and "t" in after.zones[0].territory


# --- redline-destination ---------------------------------------------------------------------------------


def _resolution_window(config: RuleConfig, owner: int) -> State:
    """h 3/3 (printed owner ``owner``, in p0's territory, so p0 has permanent control) attacks, e 3/3
    blocks: 3 >= 3 both ways, mutual destruction; Battle Resolution is to discard both and opens
    p0's window for h. p0 holds hl (good blue heal, like h)."""
    cards = [hero("h", owner, 3, 3), evil("e", 1, 3, 3), good_enh("hl", 0, ability=E.HEAL)]
    s = position(cards, {0: {"territory": ["h"], "hand": ["hl"]}, 1: {"territory": ["e"]}}, 2)
    s = acts(s, ["attack 1 h", "block e", "pass"], config)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player, s.prompt.cards) == (PromptKind.HEAL_WINDOW, 0, ("h",))
    return s


BOTH_OLD_DESTINATION = _config("previous", redline_destination="both-old")


@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER", "RED-HEAL-AT-RESOLUTION")
def test_both_destination_sentences_old_contradict_when_owner_and_controller_differ() -> None:
    # Previous wording, default (permanent-control-new): a healed discard goes to its owner, p1.
    s = _resolution_window(PREVIOUS, owner=1)
    assert texts(s, PREVIOUS) == ["discard", "heal h with hl"]
    assert "h" in act(s, "heal h with hl", PREVIOUS).zones[1].territory
    # both-old: the previous wording also sends it to its permanent controller's territory, p0's.
    # Owner p1 and permanent controller p0 differ: no territory satisfies both, so the heal cannot
    # be carried out; only letting the discard complete remains.
    s = _resolution_window(BOTH_OLD_DESTINATION, owner=1)
    assert texts(s, BOTH_OLD_DESTINATION) == ["discard"]
    error = illegal(s, "heal h with hl", "RED-HEAL-TO-PERMANENT-CONTROLLER", BOTH_OLD_DESTINATION)
    assert "RED-HEAL-PREV-TO-OWNER" in error.clause_ids


@pytest.mark.parametrize("config", [
    BOTH_OLD_DESTINATION,
    _config("revised", redline_destination="both-old"),
], ids=["previous", "revised"])
@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER")
def test_both_old_destination_agrees_when_owner_is_controller(config: RuleConfig) -> None:
    # h owned by p0 and permanently controlled by p0: both sentences name p0; the heal goes ahead.
    s = _resolution_window(config, owner=0)
    assert texts(s, config) == ["discard", "heal h with hl"]
    assert "h" in act(s, "heal h with hl", config).zones[0].territory


@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER")
def test_both_old_destination_in_the_revised_wording_and_with_pile_only() -> None:
    # Revised: the owner's-territory sentence is not in force either way: p0's territory.
    revised = _config("revised", redline_destination="both-old")
    assert "h" in act(_resolution_window(revised, owner=1), "heal h with hl", revised).zones[0].territory
    # Previous with prev-owner-scope = pile-only: the owner's sentence speaks of pile heals only,
    # so a window heal has one destination, the permanent controller's (p0).
    pile_only = _config("previous", redline_destination="both-old", prev_owner_scope="pile-only")
    assert "h" in act(_resolution_window(pile_only, owner=1), "heal h with hl", pile_only).zones[0].territory


# --- redline-healable --------------------------------------------------------------------------------------


@pytest.mark.clause("RED-HEAL-PREV-HEALABLE", "RED-HEAL-AT-RESOLUTION", "RED-BR-HEAL-WINDOW")
def test_being_discarded_read_as_old_text_of_the_healable_list() -> None:
    # Previous wording read without the old clarification (prev-healable-pending = earlier-only):
    # the list names a character discarded earlier in the turn, and h is only about to be
    # discarded, so not healable: the window offers no heal. Read with 'being discarded' as old
    # text of the list (both-old), h being discarded is healable, and hl (blue, good) heals it.
    earlier = _config("previous", prev_healable_pending="earlier-only")
    both = _config("previous", prev_healable_pending="earlier-only", redline_healable="both-old")
    assert texts(_resolution_window(earlier, owner=0), earlier) == ["discard"]
    s = _resolution_window(both, owner=0)
    assert texts(s, both) == ["discard", "heal h with hl"]
    assert "h" in act(s, "heal h with hl", both).zones[0].territory
    # With the clarification (the default) a pending discard is healable under both readings.
    default_both = _config("previous", redline_healable="both-old")
    assert texts(_resolution_window(default_both, owner=0), default_both) == ["discard", "heal h with hl"]


# --- redline-enh-phases ------------------------------------------------------------------------------------

INSERTED_PHASES = _config("previous", redline_enh_phases="inserted")


def _enhancement_outside(phase: Phase) -> State:
    """p0's turn, ``phase``, no battle: h (p0's Hero, blue) poisoned in p0's territory; p0 holds hl
    (good blue heal)."""
    cards = [hero("h", 0, 1, 5), evil("e", 1, 1, 5), good_enh("hl", 0, ability=E.HEAL)]
    s = position(cards, {0: {"territory": ["h"], "hand": ["hl"]}, 1: {"territory": ["e"]}}, 2, phase=phase)
    return replace(s, statuses=frozenset({("h", Status.POISONED)}))


@pytest.mark.parametrize("phase", [Phase.UPKEEP, Phase.BATTLE])
@pytest.mark.clause("RED-HEAL-ENH-PHASES", "RED-HEAL-PREV-ENH-IN-OR-OUT", "RED-HEAL-PREV-ENH-TWO-WAYS")
def test_phases_sentence_inserted_opens_every_moment_outside_battle(phase: Phase) -> None:
    # Default (unchanged): both wordings limit healing enhancements outside battle to the
    # preparation and discard phases, so hl cannot be played in the upkeep or battle phase. Read as
    # inserted by the revision, the previous wording only says a healing enhancement may be played
    # outside battle: hl goes on h in the holder's territory now. The revised wording keeps the
    # sentence under either reading.
    s = _enhancement_outside(phase)
    assert heal_actions(s, PREVIOUS) == []
    assert heal_actions(s, _config("revised", redline_enh_phases="inserted")) == []
    assert heal_actions(s, INSERTED_PHASES) == ["heal h with hl"]
    assert not act(s, "heal h with hl", INSERTED_PHASES).has_status("h", Status.POISONED)


@pytest.mark.clause("RED-HEAL-ENH-PHASES", "RED-HEAL-PREV-ENH-TWO-WAYS", "RED-HEAL-PREV-HEALABLE")
def test_phases_sentence_inserted_lets_the_pile_way_follow_the_battle() -> None:
    # h 1/5 and h2 1/5 (p0) attack; e 1/5 blocks: stalemate, p1 blocked last, p0 has initiative and
    # plays bo (+0/+2) on h2: a tie, p1 has initiative and plays dc (discard) on e -> h2. The previous
    # wording has no heal window: h2 and bo go to p0's pile at once, discarded this turn. p0 passes,
    # p1 passes: stalemate, and the battle phase goes on with no battle. Default: the pile way waits
    # for the discard phase; inserted: hl may go on h2 in p0's pile now, and h2 comes back to its
    # owner's (p0's) territory with bo on it.
    cards = [hero("h", 0, 1, 5), hero("h2", 0, 1, 5), evil("e", 1, 1, 5), good_enh("bo", 0, 0, 2),
             good_enh("hl", 0, ability=E.HEAL), evil_enh("dc", 1, ability=E.DISCARD)]
    s = position(cards, {0: {"territory": ["h", "h2"], "hand": ["bo", "hl"]}, 1: {"territory": ["e"], "hand": ["dc"]}}, 2)
    s = acts(s, ["attack 1 h h2", "block e", "play bo on h2", "play dc on e -> h2", "pass"], INSERTED_PHASES)
    assert s.phase is Phase.BATTLE and not s.battles and s.prompt is None and "h2" in s.zones[0].discard
    assert heal_actions(s, PREVIOUS) == []
    assert heal_actions(s, INSERTED_PHASES) == ["heal h2 with hl"]
    healed = act(s, "heal h2 with hl", INSERTED_PHASES)
    assert "h2" in healed.zones[0].territory and healed.placed == {("bo", "h2")}


# --- heal-window-opens -------------------------------------------------------------------------------------


def _unhealable_discard(config: RuleConfig) -> State:
    """h 1/5 and h2 1/5 (p0) attack; e 1/5 blocks: stalemate, p0 has initiative, plays pad0 (0/0) on
    h: a tie, p1 has initiative and plays dc on e -> h2. p0 holds no heal at all."""
    cards = [hero("h", 0, 1, 5), hero("h2", 0, 1, 5), evil("e", 1, 1, 5), good_enh("pad0", 0),
             evil_enh("dc", 1, ability=E.DISCARD)]
    s = position(cards, {0: {"territory": ["h", "h2"], "hand": ["pad0"]}, 1: {"territory": ["e"], "hand": ["dc"]}}, 2)
    return acts(s, ["attack 1 h h2", "block e", "play pad0 on h", "play dc on e -> h2"], config)


@pytest.mark.clause("RED-HEAL-WINDOW", "RED-HEAL-WINDOW-SUSPENDS")
def test_window_opens_for_every_discard_by_an_ability_under_always() -> None:
    # Default (when-a-heal-exists): p0 has nothing to heal h2 with, so no window: the discard
    # completes at once and p0 (a tie, p1 played last) has initiative.
    s = _unhealable_discard(REVISED)
    assert "h2" in s.zones[0].discard and s.prompt is not None and s.prompt.kind is PromptKind.PLAY
    # always: the window opens for h2's controller p0 all the same, the discard waits (h2 still
    # fights) and p0 may only let it complete; then h2 is in p0's pile as before.
    always = _config(heal_window_opens="always")
    s = _unhealable_discard(always)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player, s.prompt.cards) == (PromptKind.HEAL_WINDOW, 0, ("h2",))
    assert s.fighter("h2") is not None and texts(s, always) == ["discard"]
    s = act(s, "discard", always)
    assert "h2" in s.zones[0].discard and s.prompt is not None and s.prompt.kind is PromptKind.PLAY
    # The previous wording has no such window (redline-window = inserted): always changes nothing.
    prev_always = _config("previous", heal_window_opens="always")
    assert "h2" in _unhealable_discard(prev_always).zones[0].discard


# --- heal-window-attachments and heal-enhancement-after-use ---------------------------------------------------


def _carrying_discard(config: RuleConfig) -> State:
    """As discard_fight, but p0 plays pad0 (0/0) on h2, not on h: still a tie with p0 last, p1 plays dc
    on e -> h2 and p0's window opens for h2 (owned by p1, permanently controlled by p0) carrying pad0."""
    cards = [
        hero("h", 0, 1, 5), hero("h2", 1, 1, 5), evil("e", 1, 1, 5), good_enh("pad0", 0),
        good_enh("hl", 0, ability=E.HEAL), evil_enh("dc", 1, ability=E.DISCARD),
    ]
    s = position(cards, {0: {"territory": ["h", "h2"], "hand": ["pad0", "hl"]}, 1: {"territory": ["e"], "hand": ["dc"]}}, 2)
    s = acts(s, ["attack 1 h h2", "block e", "play pad0 on h2", "play dc on e -> h2"], config)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.cards) == (PromptKind.HEAL_WINDOW, ("h2",))
    return s


@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-WINDOW")
def test_enhancements_on_a_character_healed_in_its_window() -> None:
    # Healed with hl, h2 leaves the battle for p0's territory (permanent controller).
    # Default (to-discard): pad0 goes to its owner p0's pile. stay-on-character: pad0 stays on h2.
    s = act(_carrying_discard(REVISED), "heal h2 with hl", REVISED)
    assert "h2" in s.zones[0].territory and "pad0" in s.zones[0].discard and s.placed == frozenset()
    stay = _config(heal_window_attachments="stay-on-character")
    s = act(_carrying_discard(stay), "heal h2 with hl", stay)
    assert "h2" in s.zones[0].territory and "pad0" not in s.zones[0].discard and s.placed == {("pad0", "h2")}
    # hl, spent, goes to p0's pile under heal-enhancement-after-use = to-discard (the default) ...
    assert "hl" in s.zones[0].discard
    # ... and stays on h2 too with stays-on-character.
    both = _config(heal_window_attachments="stay-on-character", heal_enhancement_after_use="stays-on-character")
    s = act(_carrying_discard(both), "heal h2 with hl", both)
    assert s.placed == {("pad0", "h2"), ("hl", "h2")} and "hl" not in s.zones[0].discard


STAYS = _config(heal_enhancement_after_use="stays-on-character")


@pytest.mark.clause("RED-HEAL-ENH-PHASES", "RED-HEAL-INSTANT", "RED-HEAL-ENH-ON-MATCHING-BRIGADE")
def test_a_healing_enhancement_played_outside_battle_after_it_healed() -> None:
    # Preparation phase: p0 plays hl (good blue heal, +0/+3) on its poisoned h (blue). Default: the
    # heal acts once and hl goes to p0's pile. stays-on-character: hl stays on h in the territory,
    # and goes into battle with h, its +0/+3 counting there: h 1/5 + 0/3 = 1/8.
    cards = [hero("h", 0, 1, 5), evil("e", 1, 1, 5), good_enh("hl", 0, 0, 3, ability=E.HEAL)]
    s = position(cards, {0: {"territory": ["h"], "hand": ["hl"]}, 1: {"territory": ["e"]}}, 2, phase=Phase.PREPARATION)
    s = replace(s, statuses=frozenset({("h", Status.POISONED)}))
    default = act(s, "heal h with hl")
    assert "hl" in default.zones[0].discard and default.placed == frozenset()
    kept = act(s, "heal h with hl", STAYS)
    assert "hl" not in kept.zones[0].discard and kept.placed == {("hl", "h")}
    fight = acts(kept, ["next", "attack 1 h"], STAYS)
    assert fight.battles[0].sides[0][0].enhancements == ("hl",)


@pytest.mark.clause("RED-HEAL-WINDOW-MEANS", "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-INSTANT")
def test_a_healing_enhancement_played_in_a_heal_window_after_it_healed() -> None:
    # discard_fight: p0 heals h2 (owned by p1) with hl in its window; h2 goes to p0's territory.
    assert "hl" in act(discard_fight(), "heal h2 with hl").zones[0].discard
    s = act(discard_fight(STAYS), "heal h2 with hl", STAYS)
    assert "h2" in s.zones[0].territory and s.placed == {("hl", "h2")} and "hl" not in s.zones[0].discard


# --- heal-enh-placement-scope ------------------------------------------------------------------------------

EVERYWHERE = _config(heal_enh_placement_scope="everywhere")


@pytest.mark.clause("RED-HEAL-ENH-ON-MATCHING-BRIGADE", "RED-HEAL-TARGETS-HEALED")
def test_placement_sentence_everywhere_forbids_healing_a_fighter_with_an_enhancement() -> None:
    # poison_fight: h poisoned, fighting; p0 has initiative and holds hl. Default: the placement
    # sentence governs only outside battle and in a heal window, so hl heals h in battle. Everywhere:
    # a healing enhancement goes only on a character in territory or being discarded, and h is
    # neither: hl heals nobody here (it may still be played on h for its numbers, healing nothing).
    s = poison_fight()
    assert "play hl on h -> h" in texts(s, REVISED)
    assert "play hl on h -> h" not in texts(s, EVERYWHERE) and "play hl on h" in texts(s, EVERYWHERE)
    assert act(s, "play hl on h", EVERYWHERE).has_status("h", Status.POISONED)
    # The previous wording has no such sentence: hl heals h under either reading.
    prev_everywhere = _config("previous", heal_enh_placement_scope="everywhere")
    assert "play hl on h -> h" in texts(s, prev_everywhere)


@pytest.mark.clause("RED-HEAL-ENH-ON-MATCHING-BRIGADE", "RED-HEAL-WINDOW-MEANS")
def test_placement_sentence_everywhere_keeps_the_heal_window() -> None:
    # A character being discarded is one of the sentence's two places: in h2's window hl still heals it.
    assert texts(discard_fight(EVERYWHERE), EVERYWHERE) == ["discard", "heal h2 with hl"]


# --- prev-attached-from ---------------------------------------------------------------------------------------


@pytest.mark.clause("RED-HEAL-PREV-ATTACHED-RETURN", "RED-HEAL-PREV-HEALABLE", "RED-HEAL-PREV-ENH-TWO-WAYS")
def test_cards_that_were_on_the_character_come_back_from_where() -> None:
    # Discard phase, previous wording. y (p0's Hero, blue) lies in p0's pile, discarded this turn by
    # an ability while bo (p0's +0/+2) and bx (p0's) were on it; bo is in p0's pile, bx has since
    # gone back to p0's hand (a position given as input). p0 heals y with hl (good blue heal) the
    # pile way: y comes to its owner's (p0's) territory. Default (from-discard-if-there): bo comes
    # back on y, bx stays in hand. from-anywhere: bx is taken from the hand and comes back on y too.
    cards = [hero("y", 0, 1, 5), good_enh("bo", 0, 0, 2), good_enh("bx", 0, 1, 0), good_enh("hl", 0, ability=E.HEAL)]
    s = position(cards, {0: {"discard": ["y", "bo"], "hand": ["hl", "bx"]}}, 2, phase=Phase.DISCARD)
    s = replace(s, discards=(DiscardEvent("y", DiscardCause.ABILITY, 0, 0, Alignment.GOOD, frozenset({"blue"}),
                                          enhancements=("bo", "bx")),))
    default = act(s, "heal y with hl", PREVIOUS)
    assert "y" in default.zones[0].territory and default.placed == {("bo", "y")} and "bx" in default.zones[0].hand
    anywhere = _config("previous", prev_attached_from="from-anywhere")
    healed = act(s, "heal y with hl", anywhere)
    assert healed.placed == {("bo", "y"), ("bx", "y")} and "bx" not in healed.zones[0].hand


# --- heal-decrease-scope -----------------------------------------------------------------------------------


@pytest.mark.clause("RED-HEAL-RESTORES-DECREASE", "RED-HEAL-CLEARS-STATUS", "RED-RD-NUMBERS-TRANSFER")
def test_a_heal_and_numbers_taken_by_a_redirect() -> None:
    # h 1/5 (p0) attacks, e 2/6 (p1) blocks: 1 < 6 and 2 < 5, a stalemate; p1 blocked last, p0 has
    # initiative and plays rn (a numbers redirect, 0/0) on h -> e: e's 2/6 move onto rn, e is 0/0.
    # 3 >= 0: e is defeated, 0 < 5 + 6: h is not; p1, losing, has initiative. e is diseased (set by
    # hand) and p1 plays eh (evil crimson heal) on e -> e. Default (special-abilities): the heal
    # clears the disease, but numbers are no ability: e stays 0/0 and rn keeps its 2/6.
    # abilities-and-numbers: the decrease of e's numbers goes too: e is 2/6 again and the move ends.
    from cardrules.model.redemption.numbers import numbers

    cards = [hero("h", 0, 1, 5), evil("e", 1, 2, 6), good_enh("rn", 0, ability=E.REDIRECT_NUMBERS),
             evil_enh("eh", 1, ability=E.HEAL)]
    s = position(cards, {0: {"territory": ["h"], "hand": ["rn"]}, 1: {"territory": ["e"], "hand": ["eh"]}}, 2)
    s = acts(s, ["attack 1 h", "block e", "play rn on h -> e"])
    assert numbers(s, "e") == (0, 0) and numbers(s, "rn") == (2, 6)
    assert s.prompt is not None and s.prompt.player == 1
    s = replace(s, statuses=frozenset({("e", Status.DISEASED)}))
    default = act(s, "play eh on e -> e")
    assert not default.has_status("e", Status.DISEASED) and numbers(default, "e") == (0, 0)
    both = _config(heal_decrease_scope="abilities-and-numbers")
    healed = act(s, "play eh on e -> e", both)
    assert not healed.has_status("e", Status.DISEASED)
    assert numbers(healed, "e") == (2, 6) and numbers(healed, "rn") == (0, 0)
