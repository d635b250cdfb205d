"""What a heal may target, who would use it, and why a heal is illegal: pure
reads of the state for the heal area (:mod:`model.redemption.heal`), below the
rule areas (layer 1 of the model).

Which heal clauses apply is read from the catalogue (:mod:`model.redemption.wording`).

Clause IDs: RED-HEAL-HEALABLE, RED-HEAL-PREV-HEALABLE, RED-HEAL-ONLY-CHARACTERS,
RED-HEAL-PURPOSE, RED-HEAL-PREV-DISCARDED-MEANS, RED-HEAL-PREV-NOT-FROM-HAND-DECK,
RED-HEAL-NOT-IN-DISCARD-PILE, RED-HEAL-RESTORE-IS-HEAL; and, for who may heal whom with what,
RED-HEAL-CHARACTER-TC, RED-HEAL-TARGETS-HEALED, RED-HEAL-WINDOW-MEANS, RED-HEAL-ENH-PHASES,
RED-HEAL-ENH-ON-MATCHING-BRIGADE, RED-HEAL-TO-PERMANENT-CONTROLLER, RED-HEAL-PREV-TO-OWNER.
"""

from __future__ import annotations

from cardrules.model.errors import IllegalAction
from cardrules.model.redemption.actions import Heal, Play
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.state import (
    HEAL_EFFECTS,
    Alignment,
    Battle,
    Card,
    CardType,
    DiscardCause,
    DiscardEvent,
    Phase,
    PromptKind,
    State,
    Status,
)
from cardrules.model.redemption.wording import in_force
from cardrules.specs.catalogue.registry import implements

OUTSIDE_BATTLE_PHASES: frozenset[Phase] = frozenset({Phase.PREPARATION, Phase.DISCARD})
"""Outside battle, heals are used in the preparation and discard phases (RED-HEAL-ENH-PHASES)."""


def has_status(state: State, card_id: str) -> bool:
    """Poisoned, diseased or paralyzed."""
    return any(state.has_status(card_id, s) for s in Status)


def being_discarded(state: State, card_id: str) -> bool:
    """The character is in an open heal window (its discard is pending)."""
    prompt = state.prompt
    return prompt is not None and prompt.kind is PromptKind.HEAL_WINDOW and card_id in prompt.cards


@implements(
    "RED-HEAL-PREV-HEALABLE",
    "RED-HEAL-PREV-DISCARDED-MEANS",
    "RED-HEAL-PREV-NOT-FROM-HAND-DECK",
    "RED-HEAL-NOT-IN-DISCARD-PILE",
)
def recently_discarded(state: State, card_id: str, config: RuleConfig) -> DiscardEvent | None:
    """Previous wording: the discard event of a character discarded earlier this turn
    and still in the discard pile, if it can be healed from there.

    'Recently discarded' means by a special ability or a game rule
    (RED-HEAL-PREV-DISCARDED-MEANS); one discarded from hand or deck cannot be
    targeted (RED-HEAL-PREV-NOT-FROM-HAND-DECK). Never under the revised
    wording, nor wherever RED-HEAL-NOT-IN-DISCARD-PILE is in force.
    """
    if not in_force(config, "RED-HEAL-PREV-HEALABLE") or in_force(config, "RED-HEAL-NOT-IN-DISCARD-PILE"):
        return None
    for event in reversed(state.discards):
        if event.card == card_id:
            if event.cause in (DiscardCause.HAND, DiscardCause.DECK):
                return None
            return event if card_id in state.zones[event.pile].discard else None
    return None


@implements("RED-HEAL-HEALABLE", "RED-HEAL-PREV-HEALABLE", "RED-HEAL-PREV-DISCARDED-MEANS")
def pending_discard_healable(config: RuleConfig) -> bool:
    """A character whose discard is pending is healable: always under the
    revised wording (RED-HEAL-HEALABLE); under the previous one when the
    old clarification makes 'being discarded' mean discarded
    (RED-HEAL-PREV-DISCARDED-MEANS, decision ``prev-healable-pending``), or when the redline's
    'being' is read as old text next to 'was discarded earlier in the same turn' (decision
    ``redline-healable = both-old``: the old healable list names a character being discarded too)."""
    if not in_force(config, "RED-HEAL-PREV-HEALABLE"):
        return True
    return config.option("prev-healable-pending") == "clarification-covers" or \
        config.option("redline-healable") == "both-old"


@implements("RED-HEAL-HEALABLE", "RED-HEAL-PREV-HEALABLE", "RED-HEAL-ONLY-CHARACTERS", "RED-HEAL-PURPOSE")
def healable(state: State, card_id: str, config: RuleConfig) -> bool:
    """Whether a card may be the target of a heal.

    Only characters (RED-HEAL-ONLY-CHARACTERS). Revised: being discarded, or
    poisoned, diseased or paralyzed (RED-HEAL-HEALABLE). Previous: discarded
    earlier this turn, or one of the statuses (RED-HEAL-PREV-HEALABLE); a
    character whose discard is pending too, by the old clarification
    (decision ``prev-healable-pending``).
    Either way a heal undoes a discard or a status (RED-HEAL-PURPOSE).
    """
    if not state.has_card(card_id) or state.card(card_id).type is not CardType.CHARACTER:
        return False
    pending = being_discarded(state, card_id) and pending_discard_healable(config)
    return has_status(state, card_id) or pending or recently_discarded(state, card_id, config) is not None


@implements("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER")
def destinations_clash(state: State, card_id: str, config: RuleConfig) -> bool:
    """Both destination sentences apply to a character healed in its heal window and name two
    players: its permanent controller's territory (RED-HEAL-TO-PERMANENT-CONTROLLER) and its owner's
    (RED-HEAL-PREV-TO-OWNER, decision ``prev-owner-scope = every-healed-discard``). Only under the
    previous wording read with decision ``redline-destination = both-old`` (both sentences old
    text): the wording then contradicts itself, no heal of that character can be carried out, and
    none is offered."""
    if config.option("prev-owner-scope") != "every-healed-discard" or not in_force(config, "RED-HEAL-PREV-TO-OWNER") \
            or not in_force(config, "RED-HEAL-TO-PERMANENT-CONTROLLER"):
        return False
    found = state.fighter(card_id)
    return found is not None and found[2].permanent != state.card(card_id).owner


def matches(enhancement: Card, alignment: Alignment | None, brigades: frozenset[str]) -> bool:
    """An enhancement may go on a character of this alignment and brigades (RED-BASE-ENHANCEMENTS)."""
    return enhancement.alignment is alignment and bool(enhancement.brigades & brigades)


@implements("RED-HEAL-RESTORE-IS-HEAL")
def is_heal(card: Card) -> bool:
    """The card's ability is a heal; 'restore abilities' is one too (RED-HEAL-RESTORE-IS-HEAL)."""
    return card.ability in HEAL_EFFECTS



def holder(state: State, source: str) -> int | None:
    """The player who would use ``source``: holding it in hand, or controlling the character."""
    if not state.has_card(source):
        return None
    for player, zones in enumerate(state.zones):
        if source in zones.hand or source in zones.territory:
            return player
    found = state.fighter(source)
    if found is not None:
        return state.battles[found[0]].players[found[1]]
    return None


# --- who may heal what -----------------------------------------------------------------


@implements("RED-HEAL-CHARACTER-TC", "RED-BASE-TERRITORY-CLASS", "RED-HEAL-RESTORES-DECREASE")
def ability_sources(state: State, player: int, *, in_battle: bool, from_territory: bool,
                    config: RuleConfig | None = None) -> tuple[str, ...]:
    """Characters of ``player`` whose heal ability may be activated now.

    In battle: a character on ``player``'s side of the active battle (decision
    ``heal-ability-suspended-battle = active-battle-only``), or of any battle on the stack, suspended
    ones included (``any-battle-on-stack``). Outside battle: only a character with Territory Class,
    from its territory (RED-HEAL-CHARACTER-TC, RED-BASE-TERRITORY-CLASS). A character whose
    ability is decreased cannot use it until healed (RED-HEAL-RESTORES-DECREASE).
    """
    found: list[str] = []
    battles: tuple[Battle, ...] = ()
    if in_battle and state.active_battle is not None:
        stacked = config is not None and config.option("heal-ability-suspended-battle") == "any-battle-on-stack"
        battles = state.battles if stacked else (state.active_battle,)
    for battle in battles:
        found.extend(f.card for side, f in battle.fighters() if battle.players[side] == player)
    if from_territory:
        found.extend(c for c in state.zones[player].territory if state.card(c).territory_class)
    return tuple(
        sorted(c for c in set(found) if is_heal(state.card(c)) and c not in state.decreased and not being_discarded(state, c))
    )


def healing_enhancements(state: State, player: int) -> tuple[Card, ...]:
    """The healing enhancements in ``player``'s hand."""
    return tuple(state.card(c) for c in sorted(state.zones[player].hand) if state.card(c).type is CardType.ENHANCEMENT and is_heal(state.card(c)))


def status_targets_in_territory(state: State, players: range | tuple[int, ...]) -> list[str]:
    """Characters with a status in the territories of ``players``."""
    return sorted(c for p in players for c in state.zones[p].territory if has_status(state, c))


def pile_targets(state: State, piles: range | tuple[int, ...], config: RuleConfig) -> list[DiscardEvent]:
    """Discard events of the characters in ``piles`` a heal may reach there (:func:`recently_discarded`)."""
    out: list[DiscardEvent] = []
    for pile in piles:
        for card_id in sorted(state.zones[pile].discard):
            event = recently_discarded(state, card_id, config)
            if event is not None and event.pile == pile:
                out.append(event)
    return out


@implements("RED-HEAL-WINDOW-MEANS", "RED-HEAL-CHARACTER-TC", "RED-HEAL-RESTORES-DECREASE")
def self_heals(state: State, player: int, cards: tuple[str, ...], config: RuleConfig) -> list[Heal]:
    """Decision ``heal-self-when-discarded``: by default (not-itself) a character being discarded
    never heals itself. With may-heal-itself, one whose heal ability could be used now were it not
    being discarded (a fighter on ``player``'s side of the active battle, or one with Territory
    Class in ``player``'s territory, RED-HEAL-CHARACTER-TC; its ability not decreased,
    RED-HEAL-RESTORES-DECREASE) may heal itself in its window (RED-HEAL-WINDOW-MEANS)."""
    if config.option("heal-self-when-discarded") != "may-heal-itself":
        return []
    battle = state.active_battle
    fighting = {f.card for side, f in battle.fighters() if battle.players[side] == player} if battle else set()
    territory = set(state.zones[player].territory)
    out = []
    for target in cards:
        card = state.card(target)
        usable = target in fighting or (target in territory and card.territory_class)
        if is_heal(card) and usable and target not in state.decreased:
            out.append(Heal(target, target))
    return out


@implements("RED-HEAL-TARGETS-HEALED")
def target_battles(state: State, config: RuleConfig) -> tuple[Battle, ...]:
    """The battles whose fighters a heal used in battle may target: every battle on the stack, or
    only the one being fought (decision ``heal-in-battle-targets``)."""
    if config.option("heal-in-battle-targets") == "active-battle":
        return state.battles[-1:]
    return state.battles


@implements("RED-HEAL-TARGETS-HEALED", "RED-HEAL-ENH-ON-MATCHING-BRIGADE")
def enhancement_targets_in_battle(state: State, config: RuleConfig) -> tuple[tuple[str], ...]:
    """Targets of a healing enhancement played in battle: characters with a status fighting in a
    battle on the stack (RED-HEAL-TARGETS-HEALED; decision ``heal-in-battle-targets``). None where the
    placement sentence governs in battle too (RED-HEAL-ENH-ON-MATCHING-BRIGADE, decision
    ``heal-enh-placement-scope = everywhere``: a character in territory or being discarded only, and
    in battle only a heal window has one being discarded)."""
    if state.active_battle is None:
        return ()
    if config.option("heal-enh-placement-scope") == "everywhere" and in_force(config, "RED-HEAL-ENH-ON-MATCHING-BRIGADE"):
        return ()
    fighters = sorted((f for b in target_battles(state, config) for _, f in b.fighters()), key=lambda f: f.card)
    return tuple((f.card,) for f in fighters if has_status(state, f.card))


# --- why a heal is illegal -----------------------------------------------------------


@implements("RED-HEAL-ENH-PHASES", "RED-HEAL-CHARACTER-TC")
def any_moment(source: Card, config: RuleConfig) -> bool:
    """Whether ``source`` may heal outside battle at any moment, not only in the preparation and discard
    phases: an enhancement where RED-HEAL-ENH-PHASES is not in force (decision ``redline-enh-phases``),
    a character's ability with decision ``heal-tc-when = any-time-outside-battle``."""
    if source.type is CardType.ENHANCEMENT:
        return not in_force(config, "RED-HEAL-ENH-PHASES")
    return config.option("heal-tc-when") == "any-time-outside-battle"


def explain(state: State, action: Heal, config: RuleConfig) -> IllegalAction:
    """The clause an unlisted heal breaks (checked most specific first)."""
    text = action.text()

    def no(reason: str, *clauses: str) -> IllegalAction:
        return IllegalAction(text, reason, clauses)

    if not state.has_card(action.target) or state.card(action.target).type is not CardType.CHARACTER:
        return no(f"{action.target} is not a character", "RED-HEAL-ONLY-CHARACTERS")
    if not state.has_card(action.source) or not is_heal(state.card(action.source)):
        return no(f"{action.source} has no heal ability", "RED-HEAL-TARGETS-HEALED")
    source = state.card(action.source)
    prompt = state.prompt
    if prompt is not None and prompt.kind not in (PromptKind.PLAY, PromptKind.HEAL_WINDOW):
        return no(f"player {prompt.player} must answer a {prompt.kind.value} decision first", "RED-BASE-INITIATIVE")
    if prompt is None and state.phase not in OUTSIDE_BATTLE_PHASES and not any_moment(source, config):
        return no("outside battle, heals are used in the preparation and discard phases", "RED-HEAL-ENH-PHASES",
                  *(("RED-HEAL-CHARACTER-TC",) if source.type is CardType.CHARACTER else ()))
    if prompt is not None and prompt.kind is PromptKind.PLAY and source.type is CardType.ENHANCEMENT:
        if holder(state, action.source) != prompt.player:
            return no("in battle only the player with initiative plays a healing enhancement", "RED-HEAL-PREV-ENH-INITIATIVE", "RED-BASE-INITIATIVE")
        return no("in battle a healing enhancement is played on a character: 'play E on C -> T'", "RED-BASE-ENHANCEMENTS")
    if prompt is not None and holder(state, action.source) != prompt.player:
        return no(f"only player {prompt.player} may act now", "RED-HEAL-WINDOW", "RED-BASE-INITIATIVE")
    in_pile = any(action.target in z.discard for z in state.zones)
    if in_pile:
        if in_force(config, "RED-HEAL-NOT-IN-DISCARD-PILE"):
            return no(f"{action.target} is in a discard pile", "RED-HEAL-NOT-IN-DISCARD-PILE")
        for event in reversed(state.discards):
            if event.card == action.target:
                if event.cause in (DiscardCause.HAND, DiscardCause.DECK):
                    return no(f"{action.target} was discarded from {event.cause.value}", "RED-HEAL-PREV-NOT-FROM-HAND-DECK", "RED-HEAL-PREV-DISCARDED-MEANS")
                break
        else:
            return no(f"{action.target} was not discarded earlier this turn", "RED-HEAL-PREV-HEALABLE")
    elif not healable(state, action.target, config):
        return no(f"{action.target} is not healable", "RED-HEAL-HEALABLE" if not in_pile and config.heal_version == "revised" else "RED-HEAL-PREV-HEALABLE")
    if prompt is not None and prompt.kind is PromptKind.HEAL_WINDOW and destinations_clash(state, action.target, config):
        return no(f"healed, {action.target} would go to its owner's and to its permanent controller's territory",
                  "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER")
    if source.type is CardType.CHARACTER:
        if action.source in state.decreased:
            return no(f"{action.source}'s ability is decreased", "RED-HEAL-RESTORES-DECREASE")
        if state.fighter(action.source) is None and not source.territory_class:
            return no(f"{action.source} has no Territory Class: its heal ability works only in battle", "RED-HEAL-CHARACTER-TC")
        return no(f"{action.source} cannot heal {action.target} now", "RED-HEAL-WINDOW-MEANS", "RED-HEAL-TARGETS-HEALED")
    if prompt is not None and prompt.kind is PromptKind.HEAL_WINDOW:
        resolution = prompt.record < 0
        if not in_force(config, "RED-HEAL-AT-RESOLUTION" if resolution else "RED-HEAL-WINDOW"):
            return no("this wording has no heal window", "RED-HEAL-PREV-HEALABLE")
        if not pending_discard_healable(config):
            return no(f"{action.target} is not discarded yet, so not healable in this wording", "RED-HEAL-PREV-HEALABLE")
        return no(f"{action.source} cannot be played on {action.target}", "RED-HEAL-WINDOW-MEANS")
    if in_force(config, "RED-HEAL-PREV-ENH-TWO-WAYS"):
        if in_pile:
            return no(f"{action.source} must match {action.target} as it was, in the holder's pile", "RED-HEAL-PREV-PILE-SAME-CHARACTER", "RED-HEAL-PREV-ENH-TWO-WAYS")
        return no(f"{action.source} goes on a matching character in the holder's territory", "RED-HEAL-PREV-ENH-TWO-WAYS")
    return no(f"{action.source} goes on a healable character of matching brigade in territory", "RED-HEAL-ENH-ON-MATCHING-BRIGADE")


def explain_play(play: Play) -> IllegalAction:
    """The clause a healing enhancement played in battle on a wrong target breaks."""
    return IllegalAction(
        play.text(),
        f"{' '.join(play.targets)} is not a healable character in this battle",
        ("RED-HEAL-HEALABLE", "RED-HEAL-TARGETS-HEALED"),
    )
