"""Heal abilities (seed 001), in both wordings: the revised one (default) and the
previous one reconstructed from the redline (``RuleConfig.heal_version``).

Which clauses apply is read from the catalogue (:mod:`model.redemption.wording`),
so the redline decisions that move clauses between wordings change the model too.
What a heal may target is read from :mod:`model.redemption.healable`.

Model readings by default (the catalogue records the ones marked with a decision id; the
model selects every alternative named here through ``RuleConfig.option``):

- a healing enhancement played in battle follows the base rules (on a character
  of its player's side, by the player with initiative) and targets a healable
  character of the active battle; outside battle, and in a heal window, it is
  played on the character it heals and then goes to its owner's discard pile
  (decision ``heal-enhancement-after-use``);
- a character's heal ability is used in battle by the player with initiative
  (a character of their side in the active battle), in a heal window, and (with
  Territory Class) from its territory in the preparation and discard phases
  (decision ``heal-tc-when``);
- a heal window for a discard by an ability opens only when the controller has
  some heal for that character (a window with only ``discard`` is skipped); the
  Battle Resolution window always opens (RED-BR-HEAL-WINDOW) (decision ``heal-window-opens``);
- a character healed in a heal window leaves the battle for a territory; the
  enhancements on it go to their owners' discard piles (decision ``heal-window-attachments``,
  and the extension point of that name);
- previous wording: a healed discard is counted by discard triggers (the
  not-completed sentence is revised text, decision ``redline-not-completed``).

The dispatcher routes heal actions and played healing enhancements here. A heal
in a Battle Resolution heal window hands ``Then.NEXT_HEAL_WINDOW`` back (the
dispatcher goes on in :mod:`model.redemption.resolution`); a discard by an
ability asks :func:`open_window` before it completes, and letting it complete
is in :mod:`model.redemption.abilities`.
"""

from __future__ import annotations

from cardrules.model.fastcopy import replace

from cardrules.model.redemption.actions import Heal
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.handoff import Handed, Then
from cardrules.model.redemption.healable import (
    OUTSIDE_BATTLE_PHASES,
    ability_sources,
    being_discarded,
    destinations_clash,
    enhancement_targets_in_battle as enhancement_targets_in_battle,
    explain,
    has_status,
    healing_enhancements,
    holder,
    matches,
    pending_discard_healable,
    pile_targets,
    recently_discarded,
    self_heals,
    status_targets_in_territory,
    target_battles,
)
from cardrules.model.redemption.initiative import play_prompt
from cardrules.model.redemption.ops import (
    add_to,
    discard_card,
    lasting,
    note_discard,
    remove_fighter,
    remove_from,
    replace_fighter,
    set_battle,
    set_record,
)
from cardrules.model.redemption.state import (
    BattleKind,
    CardType,
    DiscardCause,
    DiscardEvent,
    Effect,
    Fighter,
    OriginKind,
    PlayRecord,
    Prompt,
    PromptKind,
    RecordStatus,
    Search,
    State,
)
from cardrules.model.redemption.wording import in_force
from cardrules.model.extension import extension_point, index_below, some_of
from cardrules.specs.catalogue.registry import implements

TIED_TO_CONDITION: frozenset[Effect] = frozenset({Effect.POISON, Effect.DISEASE, Effect.PARALYZE, Effect.DECREASE})
"""Effects whose ongoing result a heal ends (the status, or the decrease)."""


# --- who may heal with what -------------------------------------------------------


@implements("RED-HEAL-WINDOW", "RED-HEAL-WINDOW-MEANS", "RED-HEAL-AT-RESOLUTION", "RED-HEAL-ENH-ON-MATCHING-BRIGADE")
def window_heals(state: State, player: int, cards: tuple[str, ...], resolution: bool, config: RuleConfig) -> list[Heal]:
    """Heals ``player`` may use on characters being discarded (their controller).

    An ability's discard has a window only while RED-HEAL-WINDOW is in force;
    Battle Resolution's window (RED-BR-HEAL-WINDOW) only needs
    RED-HEAL-AT-RESOLUTION, which both wordings have. Under the previous
    wording a pending discard is healable only with ``prev-healable-pending =
    clarification-covers`` (RED-HEAL-PREV-HEALABLE). The means must be able to heal that
    very character (RED-HEAL-WINDOW-MEANS): an enhancement from hand of
    matching alignment and brigade (RED-HEAL-ENH-ON-MATCHING-BRIGADE), or a
    heal ability of one of the player's characters in the battle, or of one
    with Territory Class in their territory. A character whose two destination clauses name two
    players (decision ``redline-destination = both-old``, :func:`destinations_clash`) cannot be healed.
    """
    if not in_force(config, "RED-HEAL-AT-RESOLUTION" if resolution else "RED-HEAL-WINDOW"):
        return []
    if not pending_discard_healable(config):
        return []
    if in_force(config, "RED-HEAL-PREV-TO-OWNER") and in_force(config, "RED-HEAL-TO-PERMANENT-CONTROLLER"):
        cards = tuple(c for c in cards if not destinations_clash(state, c, config))
    out: list[Heal] = []
    sources = [c for c in ability_sources(state, player, in_battle=True, from_territory=True, config=config)
               if c not in cards]
    for target in cards:
        card = state.card(target)
        out.extend(Heal(target, e.id) for e in healing_enhancements(state, player) if matches(e, card.alignment, card.brigades))
        out.extend(Heal(target, x) for x in sources)
    return out + self_heals(state, player, cards, config)


@implements("RED-HEAL-TARGETS-HEALED", "RED-HEAL-PREV-HEALABLE", "RED-HEAL-CHARACTER-TC")
def battle_ability_heals(state: State, player: int, config: RuleConfig) -> list[Heal]:
    """In battle, the player with initiative may activate a heal ability of a
    character of theirs in the active battle; it targets a healable character
    (RED-HEAL-TARGETS-HEALED): one with a status in a battle on the stack (decision
    ``heal-in-battle-targets``), or (previous wording) one discarded earlier this turn. With decision
    ``heal-tc-when = any-time-outside-battle`` a Territory Class character of theirs in their territory,
    not fighting, may use its heal ability then too (RED-HEAL-CHARACTER-TC)."""
    targets = sorted(f.card for b in target_battles(state, config) for _, f in b.fighters() if has_status(state, f.card))
    targets += [e.card for e in pile_targets(state, range(state.players), config)]
    from_territory = config.option("heal-tc-when") == "any-time-outside-battle"
    out = [Heal(t, x) for x in ability_sources(state, player, in_battle=True, from_territory=from_territory, config=config)
           for t in targets]
    return out + battle_pile_enhancement_heals(state, player, config)


@implements("RED-HEAL-PREV-ENH-TWO-WAYS", "RED-HEAL-PREV-ENH-INITIATIVE", "RED-HEAL-PREV-PILE-SAME-CHARACTER")
def battle_pile_enhancement_heals(state: State, player: int, config: RuleConfig) -> list[Heal]:
    """Previous wording, decision ``prev-two-ways-in-battle = in-battle-too``: in battle the
    player with initiative may also play a healing enhancement the pile way, on a character
    in their discard pile discarded this turn, matched as it was (RED-HEAL-PREV-ENH-TWO-WAYS).
    By default the list is for play outside battle only, and this offers nothing."""
    if not in_force(config, "RED-HEAL-PREV-ENH-TWO-WAYS") or config.option("prev-two-ways-in-battle") != "in-battle-too":
        return []
    piles = range(state.players) if config.option("prev-pile-owner") == "any-pile" else (player,)
    events = pile_targets(state, piles, config)
    return [Heal(e.card, enh.id) for enh in healing_enhancements(state, player) for e in events
            if matches(enh, e.alignment, e.brigades)]


@implements(
    "RED-HEAL-ENH-PHASES",
    "RED-HEAL-ENH-ON-MATCHING-BRIGADE",
    "RED-HEAL-PREV-ENH-IN-OR-OUT",
    "RED-HEAL-PREV-ENH-TWO-WAYS",
    "RED-HEAL-PREV-PILE-SAME-CHARACTER",
    "RED-HEAL-PREV-AS-BEFORE-DISCARD",
    "RED-HEAL-CHARACTER-TC",
)
def outside_battle_heals(state: State, config: RuleConfig) -> list[Heal]:
    """Heals any player may use in the preparation or discard phase (RED-HEAL-ENH-PHASES).

    Revised: a healing enhancement goes on a healable character of matching
    brigade in a territory (RED-HEAL-ENH-ON-MATCHING-BRIGADE; whose territory:
    decision ``heal-territory-whose``). Previous: on a character in the
    holder's territory, or in the holder's discard pile if discarded this turn
    (RED-HEAL-PREV-ENH-TWO-WAYS, decision ``prev-pile-owner``), matched against
    the character as it was before the discard (RED-HEAL-PREV-AS-BEFORE-DISCARD,
    RED-HEAL-PREV-PILE-SAME-CHARACTER). A character's heal ability only with
    Territory Class (RED-HEAL-CHARACTER-TC).

    The moments: enhancements in the preparation and discard phases while RED-HEAL-ENH-PHASES is in
    force, else (previous wording, decision ``redline-enh-phases = inserted``) whenever no battle is
    fought and nothing waits for an answer; a Territory Class character's ability in the preparation
    and discard phases (decision ``heal-tc-when = enhancement-moments``), or whenever no battle is
    fought and nothing waits for an answer (``any-time-outside-battle``).
    """
    if state.prompt is not None or state.battles:
        return []
    phases = state.phase in OUTSIDE_BATTLE_PHASES
    enhancements_now = phases or not in_force(config, "RED-HEAL-ENH-PHASES")
    abilities_now = phases or config.option("heal-tc-when") == "any-time-outside-battle"
    if not (enhancements_now or abilities_now):
        return []
    out: list[Heal] = []
    everyone = range(state.players)
    for player in everyone:
        if in_force(config, "RED-HEAL-PREV-ENH-TWO-WAYS"):
            territories: tuple[int, ...] | range = (player,)
        elif config.option("heal-territory-whose") == "own-territory":
            territories = (player,)
        else:
            territories = everyone
        piles = everyone if config.option("prev-pile-owner") == "any-pile" else (player,)
        in_territory = status_targets_in_territory(state, territories)
        in_piles = pile_targets(state, piles, config)
        for enh in healing_enhancements(state, player) if enhancements_now else ():
            out.extend(Heal(t, enh.id) for t in in_territory if matches(enh, state.card(t).alignment, state.card(t).brigades))
            out.extend(Heal(e.card, enh.id) for e in in_piles if matches(enh, e.alignment, e.brigades))
        any_territory = status_targets_in_territory(state, everyone)
        any_pile = [e.card for e in pile_targets(state, everyone, config)]
        for source in ability_sources(state, player, in_battle=False, from_territory=True) if abilities_now else ():
            out.extend(Heal(t, source) for t in [*any_territory, *any_pile])
    return out


@implements("RED-HEAL-PREV-ENH-INITIATIVE")
def heal_actions(state: State, config: RuleConfig) -> list[Heal]:
    """Every heal action legal now.

    In battle only the player with initiative heals (the PLAY prompt's player;
    RED-HEAL-PREV-ENH-INITIATIVE, and the base initiative rule in either wording).
    """
    prompt = state.prompt
    if state.winner is not None:
        return []
    if prompt is None:
        return outside_battle_heals(state, config)
    if prompt.kind is PromptKind.HEAL_WINDOW:
        return window_heals(state, prompt.player, prompt.cards, prompt.record < 0, config)
    if prompt.kind is PromptKind.PLAY:
        return battle_ability_heals(state, prompt.player, config)
    return []


# --- carrying out a heal --------------------------------------------------------------


@extension_point("redemption", "healed-destination", "Whose territory a character healed in its heal window "
                 "goes to; given the state, the fighter (its card and permanent controller) and the rule "
                 "configuration, returns a player index.", "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER",
                 parameters=("state", "fighter", "config"),
                 returns=index_below("a player index: an int from 0 to the number of players - 1",
                                     lambda state, fighter, config: len(state.zones)))
@implements("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER")
def catalogue_destination(state: State, fighter: Fighter, config: RuleConfig) -> int:
    """Revised: the player with permanent control (RED-HEAL-TO-PERMANENT-CONTROLLER).
    Previous: its owner (RED-HEAL-PREV-TO-OWNER; decision ``prev-owner-scope``:
    ``pile-only`` keeps the permanent controller for window heals).
    """
    if in_force(config, "RED-HEAL-PREV-TO-OWNER") and config.option("prev-owner-scope") == "every-healed-discard":
        return state.card(fighter.card).owner
    return fighter.permanent


@implements("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER")
def destination(state: State, fighter: Fighter, config: RuleConfig) -> int:
    """Whose territory a character healed in its heal window goes to (the ``healed-destination`` point)."""
    player = config.hook("healed-destination", catalogue_destination)(state, fighter, config)
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < len(state.zones):
        raise ValueError(f"the healed-destination extension point returned {player!r}, not a player index")
    return player


@extension_point("redemption", "heal-window-attachments", "Which enhancements stay on a character healed in its "
                 "heal window when it goes to a territory; given the state (the character already out of battle), "
                 "the fighter (its card and the enhancements on it) and the rule configuration, returns a tuple of "
                 "those that stay on it; the others go to their owners' discard piles.",
                 "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-WINDOW", parameters=("state", "fighter", "config"),
                 returns=some_of("a tuple of distinct ids of enhancements on the fighter (possibly empty)",
                                 lambda state, fighter, config: fighter.enhancements))
@implements("RED-HEAL-TO-PERMANENT-CONTROLLER")
def catalogue_attachments(state: State, fighter: Fighter, config: RuleConfig) -> tuple[str, ...]:
    """None stay: enhancements stay in battle only while their character does, so a character healed out of
    battle loses them to their owners' discard piles (decision ``heal-window-attachments`` = to-discard);
    with ``stay-on-character`` every one stays on it in its territory."""
    if config.option("heal-window-attachments") == "stay-on-character":
        return fighter.enhancements
    return ()


@implements("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER", "RED-HEAL-WINDOW")
def to_territory(state: State, fighter: Fighter, config: RuleConfig) -> State:
    """A character healed in its heal window, already out of battle, goes to a territory (:func:`destination`),
    with the enhancements the ``heal-window-attachments`` extension point keeps on it (placed there); the
    other enhancements go to their owners' discard piles."""
    kept = config.hook("heal-window-attachments", catalogue_attachments)(state, fighter, config)
    for enh in fighter.enhancements:
        if enh not in kept:
            state = discard_card(state, enh)
    state = add_to(state, destination(state, fighter, config), "territory", fighter.card)
    return replace(state, placed=state.placed | {(enh, fighter.card) for enh in kept})


@implements("RED-HEAL-CLEARS-STATUS", "RED-HEAL-RESTORES-DECREASE", "RED-HEAL-INSTANT")
def clear_conditions(state: State, target: str, config: RuleConfig) -> State:
    """A heal, once (RED-HEAL-INSTANT): the statuses go, every ongoing effect tied
    to them ends at once (RED-HEAL-CLEARS-STATUS), and any decrease of the
    character's ability is removed (RED-HEAL-RESTORES-DECREASE; decision
    ``heal-decrease-scope``: abilities, not numbers). With ``abilities-and-numbers`` a decrease of
    its strength and toughness goes too: the model's only one is a numbers redirect taking them
    away, which then ends (the move is one effect, so the redirecting card's gain ends with it)."""
    tied = TIED_TO_CONDITION
    if config.option("heal-decrease-scope") == "abilities-and-numbers":
        tied = tied | {Effect.REDIRECT_NUMBERS}
    state = replace(state, statuses=frozenset(s for s in state.statuses if s[0] != target), decreased=state.decreased - {target})
    for record in state.records:
        if record.effect in tied and record.status is RecordStatus.ACTIVE and record.targets[:1] == (target,):
            state = set_record(state, replace(record, status=RecordStatus.ENDED))
    return state


@implements("RED-SB-RETURN-TO-BATTLE", "RED-HEAL-AT-RESOLUTION")
def back_to_previous_battle(state: State, target: str, resolution: bool, config: RuleConfig) -> bool:
    """A fighter healed at its side battle's resolution that came from another battle stays in the
    side battle, not defeated any more, and so returns to its previous battle with its
    enhancements (RED-SB-RETURN-TO-BATTLE) only under decision ``sb-healed-fighter-destination =
    back-to-previous-battle``; by default it goes where the heal rules place it."""
    if not resolution or config.option("sb-healed-fighter-destination") != "back-to-previous-battle":
        return False
    found = state.fighter(target)
    if found is None or state.battles[found[0]].kind is not BattleKind.SIDE:
        return False
    return found[2].origin.kind is OriginKind.BATTLE


@implements("RED-HEAL-WINDOW", "RED-HEAL-AT-RESOLUTION", "RED-HEAL-DISCARD-NOT-COMPLETED", "RED-HEAL-WINDOW-SUSPENDS")
def heal_from_window(state: State, target: str, config: RuleConfig) -> Handed:
    """Heal a character whose discard is pending: it leaves the battle for a
    territory (:func:`destination`) instead of the discard pile. Revised: the
    discard never completed, so no discard event (RED-HEAL-DISCARD-NOT-COMPLETED);
    previous: the discard is counted. Then the suspended play resumes
    (RED-HEAL-WINDOW-SUSPENDS): the discarding ability fizzles, or the next
    Battle Resolution window opens (``Then.NEXT_HEAL_WINDOW``)."""
    prompt = state.prompt
    assert prompt is not None
    if back_to_previous_battle(state, target, prompt.record < 0, config):
        found = state.fighter(target)
        assert found is not None
        fighter = found[2]
    else:
        state, _, _, fighter = remove_fighter(state, target)
        state = to_territory(state, fighter, config)
    if not in_force(config, "RED-HEAL-DISCARD-NOT-COMPLETED"):
        cause = DiscardCause.ABILITY if prompt.record >= 0 else DiscardCause.RULE
        state = note_discard(state, fighter, cause, healed=True)
    if prompt.record >= 0:
        record = state.record(prompt.record)
        state = set_record(state, replace(record, status=RecordStatus.FIZZLED))
        return play_prompt(replace(state, prompt=None), config), Then.DONE
    index = len(state.battles) - 1
    battle = state.battles[index]
    state = set_battle(state, index, replace(battle, defeated=tuple(c for c in battle.defeated if c != target)))
    rest = tuple(c for c in prompt.cards if c != target)
    if rest:
        return replace(state, prompt=replace(prompt, cards=rest)), Then.DONE
    return replace(state, prompt=None), Then.NEXT_HEAL_WINDOW


@implements("RED-HEAL-PREV-ATTACHED-RETURN")
def fetch_returning(state: State, enh: str, config: RuleConfig) -> State | None:
    """``enh``, on the character when it was discarded, taken from where it is now to come back on it
    (decision ``prev-attached-from``): from its owner's discard pile if it is still there
    (``from-discard-if-there``), else from wherever it is (``from-anywhere``: a hand, a deck, a pile,
    placed on a character in a territory, or on a fighter); ``None`` when it stays where it is."""
    owner = state.card(enh).owner
    if enh in state.zones[owner].discard:
        return remove_from(state, owner, "discard", enh)
    if config.option("prev-attached-from") != "from-anywhere":
        return None
    for player, zones in enumerate(state.zones):
        for zone in ("hand", "deck", "discard"):
            if enh in getattr(zones, zone):
                return remove_from(state, player, zone, enh)
    if any(e == enh for e, _ in state.placed):
        return replace(state, placed=frozenset(p for p in state.placed if p[0] != enh))
    for _, fighter in (pair for battle in state.battles for pair in battle.fighters()):
        if enh in fighter.enhancements:
            kept = tuple(e for e in fighter.enhancements if e != enh)
            return replace_fighter(state, fighter.card, replace(fighter, enhancements=kept))
    return None


@implements(
    "RED-HEAL-PREV-TO-OWNER",
    "RED-HEAL-PREV-REGAINS",
    "RED-HEAL-PREV-ATTACHED-RETURN",
    "RED-HEAL-PREV-SEARCH",
    "RED-HEAL-PREV-AS-BEFORE-DISCARD",
)
def heal_from_pile(state: State, event: DiscardEvent, player: int, config: RuleConfig) -> State:
    """Previous wording: heal a character out of a discard pile. The heal
    searches the pile (RED-HEAL-PREV-SEARCH); the character goes to its owner's
    territory (RED-HEAL-PREV-TO-OWNER) as it was before the discard: the cards
    that were on it come back on it (RED-HEAL-PREV-ATTACHED-RETURN; from where:
    :func:`fetch_returning`), and with them what it lost in the pile (RED-HEAL-PREV-REGAINS, :func:`regain`)."""
    target = event.card
    state = replace(state, searches=(*state.searches, Search(player, event.pile, target)))
    state = remove_from(state, event.pile, "discard", target)
    owner = state.card(target).owner
    state = add_to(state, owner, "territory", target)
    back = [target]
    for enh in event.enhancements:
        fetched = fetch_returning(state, enh, config)
        if fetched is not None:
            state, back = replace(fetched, placed=fetched.placed | {(enh, target)}), [*back, enh]
    return regain(state, frozenset(back), config)


@implements("RED-HEAL-PREV-REGAINS")
def regain(state: State, back: frozenset[str], config: RuleConfig) -> State:
    """In the pile the healed character and the cards on it were at face value: a numbers redirect of them
    lowered nothing there (statuses went too, :func:`ops.discard_card`). Decision ``prev-regain-harmful``:
    ``everything`` brings every effect back, so a redirect of their numbers still lasting lowers them again
    (the heal then clears statuses and decreases, :func:`clear_conditions`); ``beneficial-only`` (default):
    a lowering is harmful and stays lost: those redirects end (the gain too, one effect), a kept reduction goes."""
    if config.option("prev-regain-harmful") == "everything":
        return state
    for record in state.records:
        if lasting(record) and record.targets[0] in back:
            state = set_record(state, replace(record, status=RecordStatus.ENDED))
    return replace(state, reduced=tuple(r for r in state.reduced if r[0] not in back))


@implements("RED-HEAL-TARGETS-HEALED", "RED-HEAL-INSTANT", "RED-HEAL-PURPOSE")
def heal_target(state: State, target: str, player: int, config: RuleConfig) -> Handed:
    """Heal one character (the target of the heal, RED-HEAL-TARGETS-HEALED):
    clear its conditions, and undo its discard if it is being or was
    discarded (RED-HEAL-PURPOSE)."""
    event = recently_discarded(state, target, config)
    state = clear_conditions(state, target, config)
    if being_discarded(state, target):
        return heal_from_window(state, target, config)
    if event is not None:
        return heal_from_pile(state, event, player, config), Then.DONE
    return state, Then.DONE


@implements("RED-HEAL-ENH-PHASES", "RED-HEAL-INSTANT")
def spent_enhancement(state: State, enhancement: str, target: str, config: RuleConfig) -> State:
    """Where a healing enhancement played outside battle or in a heal window goes once it has healed
    (decision ``heal-enhancement-after-use``): its owner's discard pile (``to-discard``: the heal is
    instantaneous, RED-HEAL-INSTANT, and nothing keeps it in play), or it stays on the healed
    character (``stays-on-character``): placed on it in its territory, or among its enhancements
    where it still fights (a fighter sent back to its previous battle)."""
    if config.option("heal-enhancement-after-use") == "stays-on-character":
        if state.in_territory(target) is not None:
            return replace(state, placed=state.placed | {(enhancement, target)})
        found = state.fighter(target)
        if found is not None:
            return replace_fighter(state, target, replace(found[2], enhancements=(*found[2].enhancements, enhancement)))
    return discard_card(state, enhancement)


def do_heal(state: State, action: Heal, config: RuleConfig) -> Handed:
    """Apply a ``heal T with X`` action (listed by :func:`heal_actions`); a heal
    in a Battle Resolution window hands ``Then.NEXT_HEAL_WINDOW`` back."""
    if action not in heal_actions(state, config):
        raise explain(state, action, config)
    player = holder(state, action.source)
    assert player is not None
    source = state.card(action.source)
    used_enhancement = source.type is CardType.ENHANCEMENT
    if used_enhancement:
        state = remove_from(state, player, "hand", action.source)
    window = being_discarded(state, action.target)
    state, then = heal_target(state, action.target, player, config)
    if used_enhancement:
        state = spent_enhancement(state, action.source, action.target, config)
    if state.prompt is not None and state.prompt.kind is PromptKind.PLAY and not window:
        return play_prompt(state, config), then
    return state, then


# --- the heal window for a discard by an ability -----------------------------------------


@implements("RED-HEAL-WINDOW", "RED-HEAL-WINDOW-SUSPENDS")
def open_window(state: State, record: PlayRecord, config: RuleConfig) -> State | None:
    """A discard by an ability waits for its controller's heal (RED-HEAL-WINDOW; the
    player of its side in the battle, or its permanent controller: decision
    ``heal-window-player``):
    the discarding ability is suspended (its record stays announced), pending
    abilities wait (they are only checked on a pass), and active ongoing effects
    keep working (RED-HEAL-WINDOW-SUSPENDS). ``None`` when no heal is possible (decision
    ``heal-window-opens = when-a-heal-exists``); with ``always`` the window opens wherever
    RED-HEAL-WINDOW is in force, and with no heal to use the controller can only let the discard complete."""
    found = state.fighter(record.targets[0])
    if found is None:
        return None
    index, side, fighter = found
    if config.option("heal-window-player") == "permanent-controller":
        controller = fighter.permanent
    else:
        controller = state.battles[index].players[side]
    always = config.option("heal-window-opens") == "always" and in_force(config, "RED-HEAL-WINDOW")
    if not always and not window_heals(state, controller, (record.targets[0],), False, config):
        return None
    state = set_record(state, replace(record, status=RecordStatus.ANNOUNCED))
    return replace(state, prompt=Prompt(PromptKind.HEAL_WINDOW, controller, record=record.id, cards=(record.targets[0],)))
