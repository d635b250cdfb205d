"""The previous heal wording (reconstructed from the redline) and where it differs from
the revised one: in the actions offered and in where a healed character ends up.

Expected values are worked out by hand in the comments.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardrules.model.errors import IllegalAction
from cardrules.model.redemption.actions import parse
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.engine import step
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero, position
from cardrules.model.redemption.state import Alignment, DiscardCause, DiscardEvent, Effect, Phase, PromptKind, Search, Status
from cardrules.model.redemption.wording import heal_clauses
from tests.model.redemption.helpers import PREVIOUS, act, acts, illegal, medic, texts
from tests.model.redemption.test_heal import discard_fight, heal_actions, poison_fight

E = Effect
REVISED = RuleConfig()
WINDOWED = RuleConfig.of({"redline-window": "unchanged"}, heal_version="previous")
"""Previous wording read with the heal window as unchanged text (decision redline-window;
by default the window was inserted by the revision and the previous wording lacks it)."""


# --- where the healed character goes ------------------------------------------------------------


@pytest.mark.clause("RED-HEAL-PREV-TO-OWNER", "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-WINDOW")
def test_window_heal_destination_differs_when_owner_and_controller_differ() -> None:
    # h2 is owned by p1 and permanently controlled by p0 (it came from p0's territory).
    # The previous wording has a window only with redline-window = unchanged.
    revised = act(discard_fight(REVISED), "heal h2 with hl", REVISED)
    previous = act(discard_fight(WINDOWED), "heal h2 with hl", WINDOWED)
    assert "h2" in revised.zones[0].territory and "h2" not in revised.zones[1].territory
    assert "h2" in previous.zones[1].territory and "h2" not in previous.zones[0].territory
    # Decision prev-owner-scope = pile-only: a window heal keeps the permanent controller.
    pile_only = RuleConfig.of({"prev-owner-scope": "pile-only", "redline-window": "unchanged"}, heal_version="previous")
    assert "h2" in act(discard_fight(pile_only), "heal h2 with hl", pile_only).zones[0].territory


@pytest.mark.clause("RED-HEAL-DISCARD-NOT-COMPLETED", "RED-HEAL-PREV-DISCARDED-MEANS")
def test_healed_discard_counts_only_under_previous() -> None:
    revised = act(discard_fight(REVISED), "heal h2 with hl", REVISED)
    previous = act(discard_fight(WINDOWED), "heal h2 with hl", WINDOWED)
    assert revised.discards == ()
    assert [(d.card, d.cause, d.healed) for d in previous.discards] == [("h2", DiscardCause.ABILITY, True)]
    # Reading redline-not-completed = half-old: the previous wording also says it never completed.
    half_old = RuleConfig.of({"redline-not-completed": "half-old", "redline-window": "unchanged"}, heal_version="previous")
    assert act(discard_fight(half_old), "heal h2 with hl", half_old).discards == ()


# --- healing out of the discard pile -----------------------------------------------------------------


def pile_fight(config: RuleConfig):
    """h 1/5 and h2 1/5 (p0's) attack; e 1/5 blocks: stalemate, p1 last, p0 has initiative.
    p0 plays bo (+0/+2) on h2: h2 1/7, still a tie, p1 has initiative and plays dc on e -> h2.
    Where the wording has a heal window (revised; previous only with redline-window =
    unchanged) p0 has hl, the window opens and p0 lets the discard complete; under the
    previous wording's default the discard completes at once. Either way h2 and bo go to
    p0's pile. h 1 vs e 1/5: tie, p1 played last, p0 passes: stalemate; then the discard phase."""
    cards = [
        hero("h", 0, 1, 5), hero("h2", 0, 1, 5), evil("e", 1, 1, 5), good_enh("bo", 0, 0, 2),
        good_enh("hl", 0, ability=E.HEAL), evil_enh("dc", 1, ability=E.DISCARD),
    ]
    s = position(cards, {0: {"territory": ["h", "h2"], "hand": ["bo", "hl"]}, 1: {"territory": ["e"], "hand": ["dc"]}}, 2)
    window = ["discard"] if "RED-HEAL-WINDOW" in heal_clauses(config) else []
    return acts(s, ["attack 1 h h2", "block e", "play bo on h2", "play dc on e -> h2", *window, "pass", "next"], config)


@pytest.mark.clause(
    "RED-HEAL-PREV-HEALABLE", "RED-HEAL-PREV-ENH-TWO-WAYS", "RED-HEAL-PREV-ENH-IN-OR-OUT", "RED-HEAL-PREV-SEARCH",
    "RED-HEAL-PREV-TO-OWNER", "RED-HEAL-PREV-ATTACHED-RETURN", "RED-HEAL-PREV-REGAINS", "RED-HEAL-NOT-IN-DISCARD-PILE",
)
def test_pile_heal_is_offered_only_under_previous() -> None:
    revised, previous = pile_fight(REVISED), pile_fight(PREVIOUS)
    assert previous.phase is Phase.DISCARD and {"h2", "bo"} <= previous.zones[0].discard
    assert [(d.card, d.enhancements) for d in previous.discards] == [("h2", ("bo",))]
    assert heal_actions(revised, REVISED) == []
    assert heal_actions(previous, PREVIOUS) == ["heal h2 with hl"]
    healed = act(previous, "heal h2 with hl", PREVIOUS)
    # Owner's territory, bo back on it, the pile searched, hl spent.
    assert "h2" in healed.zones[0].territory and healed.placed == {("bo", "h2")}
    assert healed.searches == (Search(0, 0, "h2"),)
    assert healed.zones[0].discard == {"hl"}
    # It regains what it had: sent into a battle (next turn's battle phase, by hand), h2 carries
    # bo again: toughness 5 + 2 = 7.
    later = replace(healed, phase=Phase.BATTLE, battles_started=0)
    later = act(later, "attack 1 h2", PREVIOUS)
    assert later.battles[0].sides[0][0].enhancements == ("bo",) and later.placed == frozenset()


@pytest.mark.clause("RED-HEAL-PREV-ENH-TWO-WAYS", "RED-HEAL-PREV-TO-OWNER")
def test_holder_pile_and_owner_territory() -> None:
    # As discard_fight, but p0 declines: h2 (owned by p1) lies in p1's pile. p0 healed nothing;
    # p0's hl cannot reach p1's pile (decision prev-pile-owner = holder-only); with any-pile it
    # can, and h2 goes to its owner p1's territory, not to p0 who controlled it.
    # No heal window in the previous wording (redline-window = inserted): the discard by dc
    # completes at once and p0, with initiative again, passes.
    def to_discard_phase(config: RuleConfig):
        return acts(discard_fight(config), ["pass", "next"], config)

    s = to_discard_phase(PREVIOUS)
    assert "h2" in s.zones[1].discard and heal_actions(s, PREVIOUS) == []
    any_pile = RuleConfig.of({"prev-pile-owner": "any-pile"}, heal_version="previous")
    s = to_discard_phase(any_pile)
    assert heal_actions(s, any_pile) == ["heal h2 with hl"]
    s = act(s, "heal h2 with hl", any_pile)
    assert "h2" in s.zones[1].territory and s.searches == (Search(0, 1, "h2"),)


@pytest.mark.clause("RED-HEAL-PREV-DISCARDED-MEANS", "RED-HEAL-PREV-HEALABLE", "RED-HEAL-AT-RESOLUTION")
def test_a_game_rule_discard_is_recent_too() -> None:
    # h 3/3 vs e 3/3: mutual destruction; p0 lets h be discarded (a game rule: Battle
    # Resolution), p1 too. In the discard phase, previous wording: h may be healed from p0's pile.
    cards = [hero("h", 0, 3, 3), evil("e", 1, 3, 3), good_enh("hl", 0, ability=E.HEAL)]
    s = position(cards, {0: {"territory": ["h"], "hand": ["hl"]}, 1: {"territory": ["e"]}}, 2)
    s = acts(s, ["attack 1 h", "block e", "pass", "discard", "discard", "next"], PREVIOUS)
    assert [(d.card, d.cause) for d in s.discards] == [("h", DiscardCause.RULE), ("e", DiscardCause.RULE)]
    assert heal_actions(s, PREVIOUS) == ["heal h with hl"]


def pile_position(cause: DiscardCause | None, brigades: frozenset[str] = frozenset({"red"})):
    """Discard phase; y (p0's Hero, printed blue) in p0's pile. ``cause``: how it got there this
    turn (``None``: not this turn). The event records y as it was: red (it had another brigade
    in battle). p0 holds hl (blue heal) and hr (red heal)."""
    cards = [hero("y", 0, 1, 5, brigades=("blue",)), good_enh("hl", 0, ability=E.HEAL), good_enh("hr", 0, ability=E.HEAL, brigades=("red",))]
    s = position(cards, {0: {"discard": ["y"], "hand": ["hl", "hr"]}}, 2, phase=Phase.DISCARD)
    if cause is not None:
        s = replace(s, discards=(DiscardEvent("y", cause, 0, 0, Alignment.GOOD, brigades),))
    return s


@pytest.mark.clause("RED-HEAL-PREV-AS-BEFORE-DISCARD", "RED-HEAL-PREV-PILE-SAME-CHARACTER")
def test_pile_target_is_matched_as_it_was_before_the_discard() -> None:
    s = pile_position(DiscardCause.ABILITY)
    # Face value says blue (hl would match); as it was before the discard it was red: only hr.
    assert heal_actions(s, PREVIOUS) == ["heal y with hr"]
    illegal(s, "heal y with hl", "RED-HEAL-PREV-PILE-SAME-CHARACTER", PREVIOUS)
    assert "y" in act(s, "heal y with hr", PREVIOUS).zones[0].territory


@pytest.mark.parametrize("cause", [DiscardCause.HAND, DiscardCause.DECK])
@pytest.mark.clause("RED-HEAL-PREV-NOT-FROM-HAND-DECK", "RED-HEAL-PREV-DISCARDED-MEANS")
def test_discarded_from_hand_or_deck_cannot_be_healed(cause: DiscardCause) -> None:
    s = pile_position(cause)
    assert heal_actions(s, PREVIOUS) == []
    illegal(s, "heal y with hr", "RED-HEAL-PREV-NOT-FROM-HAND-DECK", PREVIOUS)


@pytest.mark.clause("RED-HEAL-PREV-HEALABLE")
def test_discarded_in_an_earlier_turn_is_not_healable() -> None:
    s = pile_position(None)
    assert heal_actions(s, PREVIOUS) == []
    illegal(s, "heal y with hr", "RED-HEAL-PREV-HEALABLE", PREVIOUS)


@pytest.mark.clause("RED-HEAL-PREV-HEALABLE", "RED-HEAL-TARGETS-HEALED")
def test_character_heal_ability_in_battle_reaches_the_pile_only_under_previous() -> None:
    # A p0 medic m 1/5 in battle; y (p0's, red) discarded by an ability this turn lies in p0's pile.
    # h... m 1 vs e 1/5: stalemate, p1 blocked last, p0 has initiative.
    cards = [medic("m", 0, 1, 5), evil("e", 1, 1, 5), hero("y", 0, 1, 5)]
    s = position(cards, {0: {"territory": ["m"], "discard": ["y"]}, 1: {"territory": ["e"]}}, 2)
    s = replace(s, discards=(DiscardEvent("y", DiscardCause.ABILITY, 0, 0, Alignment.GOOD, frozenset({"blue"})),))
    s = acts(s, ["attack 1 m", "block e"])
    assert heal_actions(s, REVISED) == []
    assert heal_actions(s, PREVIOUS) == ["heal y with m"]
    s = act(s, "heal y with m", PREVIOUS)
    assert "y" in s.zones[0].territory and s.searches == (Search(0, 0, "y"),)


@pytest.mark.clause("RED-HEAL-PREV-ENH-INITIATIVE", "RED-HEAL-PREV-ENH-IN-OR-OUT")
def test_in_battle_only_the_player_with_initiative_heals() -> None:
    # poison_fight: p0 has initiative. p1 holds eh (evil heal) for e, which we poison by hand.
    s = poison_fight()
    s = replace(s, statuses=s.statuses | {("e", Status.DISEASED)})
    cards = {c.id: c for c in s.cards}
    cards["eh"] = evil_enh("eh", 1, ability=E.HEAL)
    s = replace(s, cards=tuple(sorted(cards.values(), key=lambda c: c.id)))
    s = replace(s, zones=(s.zones[0], replace(s.zones[1], hand=frozenset({"eh"}))))
    for text in ("play eh on e -> e", "heal e with eh"):
        with pytest.raises(IllegalAction) as info:
            step(s, parse(text), PREVIOUS)
        assert "RED-HEAL-PREV-ENH-INITIATIVE" in info.value.clause_ids
    # p0, with initiative, may heal in battle (the in-battle half of RED-HEAL-PREV-ENH-IN-OR-OUT).
    assert "play hl on h -> h" in texts(s, PREVIOUS)


@pytest.mark.clause("RED-HEAL-WINDOW", "RED-HEAL-AT-RESOLUTION", "RED-HEAL-PREV-HEALABLE", "RED-BR-HEAL-WINDOW")
def test_previous_wording_has_no_heal_window_but_keeps_battle_resolution() -> None:
    # Decision redline-window = inserted (the default): the previous wording lacks the window.
    assert "RED-HEAL-WINDOW" not in heal_clauses(PREVIOUS) and "RED-HEAL-WINDOW" in heal_clauses(WINDOWED)
    assert "RED-HEAL-AT-RESOLUTION" in heal_clauses(PREVIOUS)
    # The discard by dc completes at once: h2 is in its owner p1's pile, p0 has initiative again.
    s = discard_fight(PREVIOUS)
    assert "h2" in s.zones[1].discard and s.prompt.kind is PromptKind.PLAY  # type: ignore[union-attr]
    # h 3/3 vs e 3/3: mutual destruction. Battle Resolution's step 4 window stays in both
    # wordings (RED-BR-HEAL-WINDOW, RED-HEAL-AT-RESOLUTION): p0 may heal h with hl (good, blue,
    # like h); by the old clarification a character about to be discarded counts as discarded,
    # so it is healable (prev-healable-pending = clarification-covers).
    cards = [hero("h", 0, 3, 3), evil("e", 1, 3, 3), good_enh("hl", 0, ability=E.HEAL)]
    start = position(cards, {0: {"territory": ["h"], "hand": ["hl"]}, 1: {"territory": ["e"]}}, 2)
    r = acts(start, ["attack 1 h", "block e", "pass"], PREVIOUS)
    assert texts(r, PREVIOUS) == ["discard", "heal h with hl"]
    # Read without the clarification (prev-healable-pending = earlier-only) h is not healable yet.
    earlier = RuleConfig.of({"prev-healable-pending": "earlier-only"}, heal_version="previous")
    r = acts(start, ["attack 1 h", "block e", "pass"], earlier)
    assert texts(r, earlier) == ["discard"]
    illegal(r, "heal h with hl", "RED-HEAL-PREV-HEALABLE", earlier)


@pytest.mark.clause("RED-HEAL-NOT-IN-DISCARD-PILE")
def test_redline_discard_pile_both_old_bans_pile_heals_in_previous() -> None:
    both_old = RuleConfig.of({"redline-discard-pile": "both-old"}, heal_version="previous")
    assert heal_actions(pile_fight(both_old), both_old) == []


@pytest.mark.infrastructure("the model's rule versions match the catalogue's")
def test_membership_matches_the_catalogue() -> None:
    # 18 revised clauses; 22 previous (10 shared + 12 previous-only), from heal.toml: the three
    # heal-window clauses are revised only (redline-window = inserted), and come back with
    # redline-window = unchanged (25).
    assert len(heal_clauses(REVISED)) == 18 and len(heal_clauses(PREVIOUS)) == 22
    assert len(heal_clauses(WINDOWED)) == 25


@pytest.mark.clause("RED-HEAL-PREV-ENH-TWO-WAYS", "RED-HEAL-ENH-ON-MATCHING-BRIGADE", "RED-HEAL-ENH-PHASES")
def test_outside_battle_previous_reaches_only_the_holders_territory() -> None:
    from tests.model.redemption.test_heal import phase_position

    # p1's paralyzed Hero x: both wordings reach only the holder's own territory (revised:
    # heal-territory-whose = own-territory; previous: the holder's territory of the two ways),
    # so only h for p0, e for p1. Read as any territory, the revised lets p0's blue heals reach x.
    own = ["heal e with eh", "heal h with hl", "heal h with rs"]
    assert heal_actions(phase_position(), REVISED) == own
    assert heal_actions(phase_position(config=PREVIOUS), PREVIOUS) == own
    any_territory = RuleConfig.of({"heal-territory-whose": "any-territory"})
    assert heal_actions(phase_position(config=any_territory), any_territory) == [*own, "heal x with hl", "heal x with rs"]


@pytest.mark.clause("RED-HEAL-PREV-ENH-TWO-WAYS", "RED-HEAL-PREV-ENH-INITIATIVE", "RED-HEAL-PREV-TO-OWNER")
def test_two_ways_in_battle_only_under_its_option() -> None:
    # h 1/5 (p0) attacks, e 1/5 blocks: stalemate, p1 blocked last, p0 has initiative. y (p0's
    # Hero, blue as it was) was discarded by an ability earlier this turn and lies in p0's pile;
    # p0 holds hl (good blue heal). Nothing in battle has a status.
    cards = [hero("h", 0, 1, 5), evil("e", 1, 1, 5), hero("y", 0, 1, 5), good_enh("hl", 0, ability=E.HEAL)]
    s = position(cards, {0: {"territory": ["h"], "discard": ["y"], "hand": ["hl"]}, 1: {"territory": ["e"]}}, 2)
    s = replace(s, discards=(DiscardEvent("y", DiscardCause.ABILITY, 0, 0, Alignment.GOOD, frozenset({"blue"})),))
    s = acts(s, ["attack 1 h", "block e"])
    # Default (prev-two-ways-in-battle = outside-battle-only): the two ways are for play outside
    # battle; in battle hl can only go on a fighter, and no fighter needs healing.
    assert heal_actions(s, PREVIOUS) == []
    # in-battle-too: p0, with initiative, may play hl the pile way; y goes to its owner's (p0's)
    # territory, the pile is searched, hl is spent.
    both = RuleConfig.of({"prev-two-ways-in-battle": "in-battle-too"}, heal_version="previous")
    assert heal_actions(s, both) == ["heal y with hl"]
    healed = act(s, "heal y with hl", both)
    assert "y" in healed.zones[0].territory and healed.searches == (Search(0, 0, "y"),)
    assert "hl" in healed.zones[0].discard


# --- decision redline-resolution-sentence ------------------------------------------------------


@pytest.mark.parametrize("version,option,heals", [
    ("previous", "old", ["heal h with hl"]),
    ("previous", "inserted", []),
    ("revised", "inserted", ["heal h with hl"]),
])
@pytest.mark.clause("RED-HEAL-AT-RESOLUTION", "RED-BR-HEAL-WINDOW")
def test_whether_the_resolution_heal_sentence_is_in_the_previous_wording(version: str, option: str,
                                                                       heals: list[str]) -> None:
    # h 3/3 vs e 3/3: 3 >= 3 both ways, mutual destruction; both are to be discarded and p0's window
    # opens for h (p0 holds hl, a healing enhancement). Read as inserted, the sentence letting Battle
    # Resolution's discards be healed is not in the previous wording: the window still opens (the
    # glossary's step 4) but offers no heal there; the revised wording has the sentence either way.
    config = RuleConfig.of({"redline-resolution-sentence": option}, heal_version=version)
    cards = [hero("h", 0, 3, 3), evil("e", 1, 3, 3), good_enh("hl", 0, ability=E.HEAL)]
    s = position(cards, {0: {"territory": ["h"], "hand": ["hl"]}, 1: {"territory": ["e"]}}, 2)
    s = acts(s, ["attack 1 h", "block e", "pass"], config)
    assert s.prompt is not None and (s.prompt.kind, s.prompt.cards) == (PromptKind.HEAL_WINDOW, ("h",))
    assert [t for t in texts(s, config) if t.startswith("heal ")] == heals
