"""Heal abilities, revised wording (the default), and the clauses both wordings share.

Every expected value is worked out by hand in the comments: numbers give the
battle standing (a character is defeated when the opposing total strength is
at least its toughness), and initiative goes to the losing side, or at a tie
to the player who did not play the last card.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero, position
from cardrules.model.redemption.state import Card, CardType, Alignment, DiscardCause, Effect, Phase, PromptKind, RecordStatus, Status
from cardrules.model.redemption.validate import load_state
from tests.model.redemption.helpers import PREVIOUS, act, acts, illegal, medic, texts

E = Effect


def heal_actions(state, config=RuleConfig()) -> list[str]:
    return [t for t in texts(state, config) if t.startswith("heal ")]


# --- statuses and decreases (both wordings) ------------------------------------------------


def poison_fight():
    """h 5/5 (p0) attacks, e 1/5 (p1) blocks: 5 >= 5 e defeated, 1 < 5 h not: p0 winning,
    so p1 (losing) has initiative. p1 plays pz (poison, +4/+0) on e -> h: e is 5/5,
    5 >= 5 both ways: mutual destruction, a tie; p1 played last, so p0 has initiative."""
    cards = [hero("h", 0, 5, 5), evil("e", 1, 1, 5), evil_enh("pz", 1, 4, 0, E.POISON), good_enh("hl", 0, ability=E.HEAL)]
    s = position(cards, {0: {"territory": ["h"], "hand": ["hl"]}, 1: {"territory": ["e"], "hand": ["pz"]}}, 2)
    return acts(s, ["attack 1 h", "block e", "play pz on e -> h"])


@pytest.mark.parametrize("config", [RuleConfig(), PREVIOUS], ids=["revised", "previous"])
@pytest.mark.clause(
    "RED-HEAL-CLEARS-STATUS", "RED-HEAL-INSTANT", "RED-HEAL-TARGETS-HEALED", "RED-HEAL-PURPOSE", "RED-HEAL-HEALABLE",
    "RED-HEAL-PREV-HEALABLE", "RED-HEAL-PREV-ENH-IN-OR-OUT", "RED-BASE-STATUSES",
)
def test_heal_in_battle_clears_poison_and_ends_its_effect(config: RuleConfig) -> None:
    s = poison_fight()
    assert s.has_status("h", Status.POISONED) and s.prompt.player == 0  # type: ignore[union-attr]
    # Only the poisoned h is healable: e has no status, so no heal targets e.
    assert "play hl on h -> h" in texts(s, config) and "play hl on h -> e" not in texts(s, config)
    s = act(s, "play hl on h -> h", config)
    assert not s.statuses
    # The poison ability's ongoing effect ended at once; the heal took effect once (instantaneous).
    assert [r.status for r in s.records] == [RecordStatus.ENDED, RecordStatus.ACTIVE]
    # hl adds 0/0: still a tie; p0 played last, so p1 has initiative.
    assert s.prompt.kind is PromptKind.PLAY and s.prompt.player == 1  # type: ignore[union-attr]


@pytest.mark.clause("RED-HEAL-RESTORES-DECREASE", "RED-HEAL-CLEARS-STATUS", "RED-HEAL-TARGETS-HEALED")
def test_heal_removes_a_decrease_and_the_ability_comes_back() -> None:
    # h 1/5 and medic m 1/5 (p0) attack; e 1/5 blocks: 2 < 5 and 1 < 5: stalemate, p1 played
    # last, p0 has initiative. p0 plays pad0 (0/0): still a tie, p1 has initiative; p1 plays
    # dz (decrease) on e -> m: p0 has initiative again.
    cards = [
        hero("h", 0, 1, 5), medic("m", 0, 1, 5), evil("e", 1, 1, 5), good_enh("pad0", 0), good_enh("hl", 0, ability=E.HEAL),
        evil_enh("dz", 1, ability=E.DECREASE), evil_enh("pad1", 1),
    ]
    s = position(cards, {0: {"territory": ["h", "m"], "hand": ["pad0", "hl"]}, 1: {"territory": ["e"], "hand": ["dz", "pad1"]}}, 2)
    s = acts(s, ["attack 1 h m", "block e", "play pad0 on h", "play dz on e -> m"])
    assert s.decreased == {"m"} and s.prompt.player == 0  # type: ignore[union-attr]
    # A decrease alone does not make m healable; poison h and m by hand to give the heals targets.
    s = replace(s, statuses=frozenset({("h", Status.POISONED), ("m", Status.POISONED)}))
    assert heal_actions(s) == []  # m's heal ability is decreased
    illegal(s, "heal h with m", "RED-HEAL-RESTORES-DECREASE")
    s = act(s, "play hl on h -> m")
    assert s.decreased == frozenset() and not s.has_status("m", Status.POISONED)
    assert s.records[1].status is RecordStatus.ENDED  # the decrease ended with the heal
    # Tie, p0 played last: p1 plays pad1, p0 has initiative and m's ability works again.
    s = act(s, "play pad1 on e")
    assert heal_actions(s) == ["heal h with m"]
    s = act(s, "heal h with m")
    assert not s.statuses


# --- heal window for a discard by an ability -------------------------------------------------


def discard_fight(config: RuleConfig = RuleConfig()):
    """h 1/5 and h2 1/5 (p0's territory; h2 owned by p1) attack; e 1/5 blocks: stalemate,
    p0 has initiative and plays pad0 (0/0): tie, p1 has it and plays dc (discard) on e -> h2.
    p0 keeps h in battle, so no special initiative; p0 holds hl (good, blue heal) and hr (good,
    red heal): the window opens for p0."""
    cards = [
        hero("h", 0, 1, 5), hero("h2", 1, 1, 5), evil("e", 1, 1, 5), good_enh("pad0", 0),
        good_enh("hl", 0, ability=E.HEAL), good_enh("hr", 0, ability=E.HEAL, brigades=("red",)),
        evil_enh("dc", 1, ability=E.DISCARD),
    ]
    s = position(cards, {0: {"territory": ["h", "h2"], "hand": ["pad0", "hl", "hr"]}, 1: {"territory": ["e"], "hand": ["dc"]}}, 2)
    return acts(s, ["attack 1 h h2", "block e", "play pad0 on h", "play dc on e -> h2"], config)


@pytest.mark.clause("RED-HEAL-WINDOW", "RED-HEAL-WINDOW-SUSPENDS", "RED-HEAL-WINDOW-MEANS", "RED-HEAL-HEALABLE")
def test_discard_by_an_ability_waits_for_the_heal_window() -> None:
    s = discard_fight()
    assert s.prompt.kind is PromptKind.HEAL_WINDOW and (s.prompt.player, s.prompt.cards) == (0, ("h2",))  # type: ignore[union-attr]
    # Suspended: the discard ability is announced, not in effect; h2 is still in battle.
    assert s.record(2).status is RecordStatus.ANNOUNCED and s.fighter("h2") is not None
    assert "h2" not in s.zones[1].discard and s.discards == ()
    # Only hl (blue, like h2) can heal h2; hr (red) cannot.
    assert texts(s) == ["discard", "heal h2 with hl"]
    illegal(s, "heal h2 with hr", "RED-HEAL-WINDOW-MEANS")
    illegal(s, "pass", "RED-HEAL-WINDOW")


@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-DISCARD-NOT-COMPLETED", "RED-HEAL-WINDOW", "RED-HEAL-INSTANT")
def test_healed_in_the_window_goes_to_the_permanent_controller_and_the_discard_never_completed() -> None:
    s = act(discard_fight(), "heal h2 with hl")
    # h2 is owned by p1 but p0 has permanent control: p0's territory.
    assert "h2" in s.zones[0].territory and s.fighter("h2") is None
    assert s.discards == ()  # no discard trigger would see it
    assert s.record(2).status is RecordStatus.FIZZLED and "hl" in s.zones[0].discard
    # h 1/5 (with pad0) vs e 1/5 (with dc): tie, p1 played last: p0 has initiative.
    assert s.prompt.kind is PromptKind.PLAY and s.prompt.player == 0  # type: ignore[union-attr]


@pytest.mark.clause("RED-HEAL-WINDOW", "RED-HEAL-DISCARD-NOT-COMPLETED")
def test_declining_the_window_completes_the_discard_and_it_counts() -> None:
    s = act(discard_fight(), "discard")
    assert "h2" in s.zones[1].discard  # its owner's pile
    assert [(d.card, d.cause, d.pile, d.controller) for d in s.discards] == [("h2", DiscardCause.ABILITY, 1, 0)]
    assert s.record(2).status is RecordStatus.ACTIVE


@pytest.mark.clause("RED-HEAL-WINDOW")
def test_no_window_without_a_possible_heal() -> None:
    # Same fight, but p0 holds no heal: the discard completes at once.
    cards = [hero("h", 0, 1, 5), hero("h2", 0, 1, 5), evil("e", 1, 1, 5), good_enh("pad0", 0), evil_enh("dc", 1, ability=E.DISCARD)]
    s = position(cards, {0: {"territory": ["h", "h2"], "hand": ["pad0"]}, 1: {"territory": ["e"], "hand": ["dc"]}}, 2)
    s = acts(s, ["attack 1 h h2", "block e", "play pad0 on h", "play dc on e -> h2"])
    assert "h2" in s.zones[0].discard and s.prompt.kind is PromptKind.PLAY  # type: ignore[union-attr]


# --- Battle Resolution ---------------------------------------------------------------------


@pytest.mark.clause("RED-HEAL-AT-RESOLUTION", "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-DISCARD-NOT-COMPLETED", "RED-BR-HEAL-WINDOW")
def test_heal_a_character_battle_resolution_would_discard() -> None:
    # h 3/3 vs e 3/3: 3 >= 3 both ways, mutual destruction; both are to be discarded.
    cards = [hero("h", 0, 3, 3), evil("e", 1, 3, 3), good_enh("hl", 0, ability=E.HEAL)]
    s = position(cards, {0: {"territory": ["h"], "hand": ["hl"]}, 1: {"territory": ["e"]}}, 2)
    s = acts(s, ["attack 1 h", "block e", "pass"])
    assert texts(s) == ["discard", "heal h with hl"]
    s = act(s, "heal h with hl")
    # p0's window is done; p1's opens for e, who has no heal.
    assert (s.prompt.player, s.prompt.cards) == (1, ("e",)) and texts(s) == ["discard"]  # type: ignore[union-attr]
    s = act(s, "discard")
    assert "h" in s.zones[0].territory and "e" in s.zones[1].discard and s.battles == ()
    assert [d.card for d in s.discards] == ["e"]  # e's discard counts, the healed h's does not


@pytest.mark.clause("RED-HEAL-AT-RESOLUTION", "RED-HEAL-CHARACTER-TC", "RED-HEAL-WINDOW-MEANS")
def test_a_character_heal_ability_in_the_resolution_window() -> None:
    # h 3/3 and medic m 0/9 vs e 3/3: 3 >= 3 e down; 3 >= 3 h down, 3 < 9 m not: Hero side
    # is not all down, Evil side is: Hero wins; h is still discarded (defeated). m, in the
    # battle, may heal h; mt (Territory Class, in p0's territory) may too; mx (no Territory
    # Class, in territory) may not.
    cards = [hero("h", 0, 3, 3), medic("m", 0, 0, 9), medic("mt", 0, 0, 1, tc=True), medic("mx", 0, 0, 1), evil("e", 1, 3, 3)]
    s = position(cards, {0: {"territory": ["h", "m", "mt", "mx"]}, 1: {"territory": ["e"]}}, 2)
    s = acts(s, ["attack 1 h m", "block e", "pass"])
    assert s.prompt.cards == ("h",)  # type: ignore[union-attr]
    assert heal_actions(s) == ["heal h with m", "heal h with mt"]
    s = act(s, "heal h with mt")
    assert "h" in s.zones[0].territory


# --- preparation and discard phases -----------------------------------------------------------


def phase_position(phase: Phase = Phase.PREPARATION, config: RuleConfig = RuleConfig()):
    """p0's turn. h (p0, blue) poisoned, x (p1's Hero, blue) paralyzed, e (p1, crimson) diseased.
    p0 holds hl (good blue heal), hr (good red heal), rs (good blue 'restore abilities');
    p1 holds eh (evil crimson heal)."""
    cards = [
        hero("h", 0, 1, 5), hero("x", 1, 1, 5), evil("e", 1, 1, 5),
        good_enh("hl", 0, ability=E.HEAL), good_enh("hr", 0, ability=E.HEAL, brigades=("red",)),
        good_enh("rs", 0, ability=E.RESTORE), evil_enh("eh", 1, ability=E.HEAL),
    ]
    s = position(cards, {0: {"territory": ["h"], "hand": ["hl", "hr", "rs"]}, 1: {"territory": ["x", "e"], "hand": ["eh"]}}, 2, phase=phase)
    return replace(s, statuses=frozenset({("h", Status.POISONED), ("x", Status.PARALYZED), ("e", Status.DISEASED)}))


@pytest.mark.parametrize("phase", [Phase.PREPARATION, Phase.DISCARD])
@pytest.mark.clause("RED-HEAL-ENH-PHASES", "RED-HEAL-ENH-ON-MATCHING-BRIGADE", "RED-HEAL-HEALABLE", "RED-HEAL-RESTORE-IS-HEAL")
def test_healing_enhancements_in_preparation_and_discard_phases(phase: Phase) -> None:
    s = phase_position(phase)
    # Matching alignment and brigade, in the holder's own territory (decision
    # heal-territory-whose = own-territory): hl and rs (blue, good) on h, not on p1's x; eh (evil
    # crimson) on e, by p1 in p0's phase; hr (red) on nobody.
    assert heal_actions(s) == ["heal e with eh", "heal h with hl", "heal h with rs"]
    illegal(s, "heal h with hr", "RED-HEAL-ENH-ON-MATCHING-BRIGADE")
    illegal(s, "heal x with hl", "RED-HEAL-ENH-ON-MATCHING-BRIGADE")
    s2 = act(s, "heal e with eh")
    assert not s2.has_status("e", Status.DISEASED) and "eh" in s2.zones[1].discard and s2.prompt is None
    s3 = act(s, "heal h with rs")  # 'restore abilities' is a heal
    assert not s3.has_status("h", Status.POISONED) and "rs" in s3.zones[0].discard


@pytest.mark.clause("RED-HEAL-ENH-ON-MATCHING-BRIGADE")
def test_any_territory_variant() -> None:
    config = RuleConfig.of({"heal-territory-whose": "any-territory"})
    s = phase_position(config=config)
    # x (p1's, blue, paralyzed) lies in p1's territory: p0's blue heals hl and rs now reach it.
    assert heal_actions(s, config) == [
        "heal e with eh", "heal h with hl", "heal h with rs", "heal x with hl", "heal x with rs",
    ]
    s3 = act(s, "heal x with rs", config)
    assert not s3.has_status("x", Status.PARALYZED) and "rs" in s3.zones[0].discard


@pytest.mark.clause("RED-HEAL-ENH-PHASES", "RED-HEAL-HEALABLE", "RED-HEAL-ONLY-CHARACTERS")
def test_no_heal_outside_those_phases_or_without_a_healable_character() -> None:
    s = phase_position(Phase.BATTLE)
    assert heal_actions(s) == []
    illegal(s, "heal h with hl", "RED-HEAL-ENH-PHASES")
    calm = replace(phase_position(), statuses=frozenset())
    assert heal_actions(calm) == []  # nobody is healable
    illegal(calm, "heal h with hl", "RED-HEAL-HEALABLE")
    illegal(phase_position(), "heal hr with hl", "RED-HEAL-ONLY-CHARACTERS")


@pytest.mark.clause("RED-HEAL-CHARACTER-TC", "RED-BASE-TERRITORY-CLASS")
def test_character_heal_outside_battle_needs_territory_class() -> None:
    cards = [hero("h", 0, 1, 5), medic("mt", 0, 1, 5, tc=True), medic("mx", 0, 1, 5)]
    s = position(cards, {0: {"territory": ["h", "mt", "mx"]}}, 2, phase=Phase.DISCARD)
    s = replace(s, statuses=frozenset({("h", Status.POISONED)}))
    assert heal_actions(s) == ["heal h with mt"]
    illegal(s, "heal h with mx", "RED-HEAL-CHARACTER-TC")
    assert not act(s, "heal h with mt").statuses


@pytest.mark.clause("RED-BASE-PARALYZED-NO-BATTLE", "RED-HEAL-CLEARS-STATUS")
def test_healed_paralysis_lets_the_character_battle() -> None:
    cards = [hero("h", 0, 1, 5), evil("e", 1, 1, 5), good_enh("hl", 0, ability=E.HEAL)]
    s = position(cards, {0: {"territory": ["h"], "hand": ["hl"]}, 1: {"territory": ["e"]}}, 2, phase=Phase.PREPARATION)
    s = replace(s, statuses=frozenset({("h", Status.PARALYZED)}))
    assert "attack 1 h" not in texts(act(s, "next"))
    s = acts(s, ["heal h with hl", "next"])
    assert "attack 1 h" in texts(s)


@pytest.mark.clause("RED-HEAL-NOT-IN-DISCARD-PILE")
def test_revised_no_heal_from_the_discard_pile() -> None:
    # h2 discarded by dc this turn (declined window); the battle ends; discard phase.
    s = act(discard_fight(), "discard")
    s = acts(s, ["pass", "next"])  # h 1 vs e 1/5: stalemate, both return; then the discard phase
    assert s.phase is Phase.DISCARD and "h2" in s.zones[1].discard
    assert heal_actions(s) == []
    illegal(s, "heal h2 with hl", "RED-HEAL-NOT-IN-DISCARD-PILE")


@pytest.mark.infrastructure("the model's contracts: the card subset it models, its formats, and that every refusal names a clause")
def test_character_cards_may_only_carry_a_heal() -> None:
    with pytest.raises(ValueError):
        Card("c", CardType.CHARACTER, 0, Alignment.GOOD, frozenset({"blue"}), 1, 1, ability=E.DISCARD)


# --- properties over random legal play (both wordings) ---------------------------------------

from hypothesis import given, settings  # noqa: E402

from cardrules.model.redemption.actions import Heal  # noqa: E402
from cardrules.model.redemption.state import State  # noqa: E402
from cardrules.properties.redemption.strategies import transitions  # noqa: E402
from cardrules.properties.redemption.game import RedemptionGame  # noqa: E402
from cardrules.properties.redemption.heal_invariants import healed_clean, no_heal_from_pile  # noqa: E402
from tests.properties.redemption.test_random_play import INVARIANTS  # noqa: E402

WORDINGS = [RuleConfig(), PREVIOUS]


def heal_problem(before: State, action: object, after: State, config: RuleConfig) -> str | None:
    """The registered heal properties (properties.redemption.heal_invariants), as a problem text."""
    game = RedemptionGame(config)
    if not healed_clean(game, before, action, after):
        return "a healed character kept a status, or was healed from a discard into no territory"
    if config.heal_version == "revised" and not no_heal_from_pile(game, before, action, after):
        return "a character left a discard pile by a heal under the revised wording"
    return None


@pytest.mark.parametrize("config", WORDINGS, ids=["revised", "previous"])
@pytest.mark.clause(
    "RED-HEAL-CLEARS-STATUS", "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER", "RED-HEAL-NOT-IN-DISCARD-PILE",
)
@settings(deadline=None)
@given(data=__import__("hypothesis").strategies.data())
def test_heal_properties_over_random_play(config: RuleConfig, data) -> None:
    for before, action, after in data.draw(transitions(config)):
        assert heal_problem(before, action, after, config) is None, (action.text(), heal_problem(before, action, after, config))
        for invariant in INVARIANTS:
            assert invariant(after) is None, (action.text(), invariant.__name__, invariant(after))


@pytest.mark.clause("RED-HEAL-WINDOW-SUSPENDS", "RED-RD-NUMBERS-ONGOING")
def test_active_ongoing_effects_keep_working_during_the_window() -> None:
    # h 1/5 and h2 1/5 (p0) vs e 1/5 (p1): stalemate, p0 has initiative and plays rn (redirect
    # numbers) on h -> e: e 1/5 -> 0/0, rn 0/0 -> 1/5. p0's side 1 + 1 + 1 = 3 >= 0: e defeated;
    # e's 0 < 5: p0 winning, p1 (losing) has initiative and plays dc on e -> h2; p0 holds hl.
    cards = [
        hero("h", 0, 1, 5), hero("h2", 0, 1, 5), evil("e", 1, 1, 5), good_enh("rn", 0, ability=E.REDIRECT_NUMBERS),
        good_enh("hl", 0, ability=E.HEAL), evil_enh("dc", 1, ability=E.DISCARD),
    ]
    s = position(cards, {0: {"territory": ["h", "h2"], "hand": ["rn", "hl"]}, 1: {"territory": ["e"], "hand": ["dc"]}}, 2)
    s = acts(s, ["attack 1 h h2", "block e", "play rn on h -> e", "play dc on e -> h2"])
    from cardrules.model.redemption.numbers import numbers

    assert s.prompt.kind is PromptKind.HEAL_WINDOW  # type: ignore[union-attr]
    # The discard waits; the numbers redirect (already active) keeps working.
    assert s.record(2).status is RecordStatus.ANNOUNCED and s.record(1).status is RecordStatus.ACTIVE
    assert numbers(s, "e") == (0, 0) and numbers(s, "rn") == (1, 5)
    s = act(s, "heal h2 with hl")
    # h2 back in p0's territory; p1 is still losing: p1 has initiative.
    assert "h2" in s.zones[0].territory and s.prompt.player == 1  # type: ignore[union-attr]


@pytest.mark.infrastructure("the model's contracts: the card subset it models, its formats, and that every refusal names a clause")
def test_heal_action_text_and_old_json() -> None:
    from cardrules.model.redemption.actions import parse
    from tests.model.redemption.helpers import game

    assert parse("heal h with hl").text() == "heal h with hl"
    # A state written before the heal and redirect fields existed still reads.
    data = game(2).to_json()
    for name in ("decreased", "discards", "searches", "placed"):
        data.pop(name)
    assert load_state(data) == game(2)


@pytest.mark.infrastructure("the model's contracts: the card subset it models, its formats, and that every refusal names a clause")
@pytest.mark.parametrize("config", WORDINGS, ids=["revised", "previous"])
@settings(deadline=None)
@given(data=__import__("hypothesis").strategies.data())
def test_unlisted_heals_are_refused_with_a_clause(config: RuleConfig, data) -> None:
    from hypothesis import strategies as st

    from cardrules.model.errors import IllegalAction
    from cardrules.model.redemption.engine import legal_actions, step

    runs = data.draw(transitions(config, steps=25))
    if not runs:
        return
    state = runs[-1][2]
    listed = legal_actions(state, config)
    ids = [c.id for c in state.cards]
    for _ in range(4):
        probe = Heal(data.draw(st.sampled_from(ids)), data.draw(st.sampled_from(ids)))
        if probe in listed:
            step(state, probe, config)
            continue
        with pytest.raises(IllegalAction) as info:
            step(state, probe, config)
        assert info.value.clause_ids
