"""Playing enhancements and the timing core: abilities, special initiative,
interrupt, negate, and the record of what was played in which battle.

Every card played in battle leaves a :class:`PlayRecord` with the path of
battles it was played in, its status and what it did (:class:`Undo`), so
that interrupt (undo, leave pending), negate (undo, cancel), the side battle
negation cascade, heal (:mod:`model.redemption.heal`) and redirect
(:mod:`model.redemption.redirect`) can act on it.

This area knows the targets and effects of the core abilities (discard,
statuses, decrease, interrupt, negate). The dispatcher
(:mod:`model.redemption.engine`) checks a play, routes the ability to the area
that owns it (side battle, heal, redirect or this one) and passes its own
effect router in where an effect is carried out later
(:data:`model.redemption.handoff.ApplyEffect`).

Clause IDs: RED-BASE-ENHANCEMENTS, RED-BASE-INITIATIVE,
RED-BASE-SPECIAL-INITIATIVE, RED-BASE-INTERRUPT, RED-BASE-NEGATE,
RED-BASE-STATUSES, RED-SB-NEGATE-CASCADE, RED-SB-NO-INTERRUPT-FROM-SUSPENDED,
RED-SB-ONCE-PER-TURN, RED-SB-RESTRICT-AFTER.
"""

from __future__ import annotations

from cardrules.model.fastcopy import replace

from cardrules.model.errors import IllegalAction
from cardrules.model.redemption.actions import Play
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.handoff import ApplyEffect
from cardrules.model.redemption.side_battle_undo import undo_side_battle
from cardrules.model.redemption.initiative import play_prompt, play_prompt_unless_waiting
from cardrules.model.redemption.ops import (
    add_fighter,
    battle_index,
    discard_fighter,
    edit_zones,
    forget_discard,
    note_discard,
    remove_fighter,
    remove_from,
    replace_fighter,
    set_battle,
    set_record,
)
from cardrules.model.redemption.state import (
    HEAL_EFFECTS,
    INTERRUPTIBLE,
    CardType,
    DiscardCause,
    Effect,
    PlayRecord,
    Prompt,
    PromptKind,
    RecordStatus,
    State,
    Status,
    Undo,
)
from cardrules.specs.catalogue.registry import implements

STATUS_OF: dict[Effect, Status] = {
    Effect.PARALYZE: Status.PARALYZED,
    Effect.POISON: Status.POISONED,
    Effect.DISEASE: Status.DISEASED,
}
DISCARDS: frozenset[Effect] = frozenset({Effect.DISCARD, Effect.DISCARD_OPPOSING})
NEGATABLE: frozenset[Effect] = INTERRUPTIBLE | {Effect.SIDE_BATTLE}
CHARACTER_TARGETS: frozenset[Effect] = INTERRUPTIBLE - {Effect.DISCARD_OPPOSING}

_set_record = set_record


# --- where a card may go --------------------------------------------------------


@implements("RED-BASE-ENHANCEMENTS")
def hosts(state: State, player: int, card_id: str) -> tuple[str, ...]:
    """Characters of ``player``'s side in the active battle that enhancement
    ``card_id`` may be played on: same alignment, a shared brigade
    (RED-BASE-ENHANCEMENTS; decision ``red-base-enhancement-timing``)."""
    battle = state.active_battle
    if battle is None:
        return ()
    card = state.card(card_id)
    return tuple(
        sorted(
            f.card
            for side, f in battle.fighters()
            if battle.players[side] == player
            and state.card(f.card).alignment is card.alignment
            and state.card(f.card).brigades & card.brigades
        )
    )


def characters_in_battle(state: State) -> tuple[str, ...]:
    return tuple(sorted(f.card for b in state.battles for _, f in b.fighters()))


@implements("RED-RD-TARGET-PERSPECTIVE")
def opposing_characters(state: State, player: int) -> tuple[str, ...]:
    """Characters in battle on a side not controlled by ``player``: the targets of a
    discard-opposing ability carried out by ``player`` (its restriction is read
    from the perspective of whoever uses it, RED-RD-TARGET-PERSPECTIVE)."""
    return tuple(
        sorted(
            f.card
            for b in state.battles
            if player in b.players
            for side, f in b.fighters()
            if b.players[side] != player
        )
    )


@implements("RED-BASE-INTERRUPT")
def may_be_interrupted(record: PlayRecord) -> bool:
    """Whether an interrupt can act on the ability of ``record`` now (RED-BASE-INTERRUPT): an
    interruptible effect in effect or announced; a heal ability in effect (the interrupt undoes the
    heal); a side battle ability only while announced, before its side battle starts (decision
    ``sb-answer-before-start``: once started, its battle is on top and the ability belongs to the
    battle it suspended)."""
    if record.effect in INTERRUPTIBLE:
        return record.status in (RecordStatus.ACTIVE, RecordStatus.ANNOUNCED)
    if record.effect in HEAL_EFFECTS:
        return record.status is RecordStatus.ACTIVE
    return record.effect is Effect.SIDE_BATTLE and record.status is RecordStatus.ANNOUNCED


@implements("RED-BASE-INTERRUPT", "RED-SB-NO-INTERRUPT-FROM-SUSPENDED")
def interruptible_records(state: State) -> tuple[PlayRecord, ...]:
    """Abilities an interrupt may target: those an interrupt can act on now
    (:func:`may_be_interrupted`) that were played in the active battle. Abilities of a side
    battle that has ended are no longer targetable (RED-SB-NO-INTERRUPT-FROM-SUSPENDED)."""
    battle = state.active_battle
    if battle is None:
        return ()
    return tuple(r for r in state.records if r.battle == battle.id and may_be_interrupted(r))


@implements("RED-BASE-NEGATE")
def negatable_records(state: State) -> tuple[PlayRecord, ...]:
    """Abilities a negate may target: those of the active battle still in
    effect, announced or pending, side battle abilities included."""
    battle = state.active_battle
    if battle is None:
        return ()
    return tuple(
        r
        for r in state.records
        if r.effect in NEGATABLE
        and r.status in (RecordStatus.ACTIVE, RecordStatus.ANNOUNCED, RecordStatus.PENDING)
        and r.battle == battle.id
    )


@implements("RED-SB-NO-INTERRUPT-FROM-SUSPENDED")
def main_battle_only(state: State, records: tuple[PlayRecord, ...], config: RuleConfig) -> tuple[PlayRecord, ...]:
    """The interrupt targets ``records`` left once a side battle is over (RED-SB-NO-INTERRUPT-FROM-SUSPENDED,
    decision ``sb-interrupt-main-battle``). resumed-battle (default): all of them, the abilities of the
    battle that resumed. bottom-battle: only abilities of the turn's main battle may be targeted then, so
    in a side battle that resumed after a side battle it suspended was over, none may (the main battle's
    are not in the battle being fought, RED-BASE-INTERRUPT)."""
    if config.option("sb-interrupt-main-battle") != "bottom-battle" or len(state.battles) < 2:
        return records
    top = state.battles[-1].id
    resumed = any(r.battle == top and r.effect is Effect.SIDE_BATTLE and r.undo.opened >= 0 for r in state.records)
    return () if resumed else records


def core_targets(state: State, player: int, effect: Effect, config: RuleConfig) -> tuple[tuple[str, ...], ...]:
    """Every legal target tuple for a core ability (discard, status, decrease,
    interrupt, negate) used by ``player``; the dispatcher routes the other kinds."""
    if effect in CHARACTER_TARGETS:
        return tuple((c,) for c in characters_in_battle(state))
    if effect is Effect.DISCARD_OPPOSING:
        return tuple((c,) for c in opposing_characters(state, player))
    if effect is Effect.INTERRUPT:
        return tuple((f"#{r.id}",) for r in main_battle_only(state, interruptible_records(state), config))
    return tuple((f"#{r.id}",) for r in negatable_records(state))


# --- playing a card ---------------------------------------------------------------


@implements("RED-BASE-ENHANCEMENTS", "RED-BASE-INITIATIVE", "RED-BASE-SPECIAL-INITIATIVE")
def check_card(state: State, play: Play) -> None:
    """Raise IllegalAction unless the card may be played now on that character:
    an enhancement in the hand of the player with initiative, on a character of
    their side with matching alignment and brigade (RED-BASE-ENHANCEMENTS,
    RED-BASE-INITIATIVE); under special initiative only the interrupt or negate
    of the announced ability (RED-BASE-SPECIAL-INITIATIVE)."""
    action = play.text()
    prompt = state.prompt
    assert prompt is not None and state.active_battle is not None
    player = prompt.player
    if play.card not in state.zones[player].hand or state.card(play.card).type is not CardType.ENHANCEMENT:
        if state.has_card(play.card) and state.card(play.card).ability in HEAL_EFFECTS and any(
            play.card in z.hand for z in state.zones
        ):
            raise IllegalAction(
                action, f"only player {player}, who has initiative, may play now", ("RED-HEAL-PREV-ENH-INITIATIVE", "RED-BASE-INITIATIVE")
            )
        raise IllegalAction(action, f"{play.card} is not an enhancement in your hand", ("RED-BASE-ENHANCEMENTS",))
    if play.on not in hosts(state, player, play.card):
        raise IllegalAction(
            action,
            f"{play.on} is not a character of yours in this battle with matching alignment and brigade",
            ("RED-BASE-ENHANCEMENTS",),
        )
    effect = state.card(play.card).ability
    if prompt.kind is PromptKind.SPECIAL_INITIATIVE:
        if effect not in (Effect.INTERRUPT, Effect.NEGATE) or play.targets != (f"#{prompt.record}",):
            raise IllegalAction(
                action,
                f"special initiative allows only an interrupt or negate of #{prompt.record}",
                ("RED-BASE-SPECIAL-INITIATIVE",),
            )


def explain_targets(play: Play, effect: Effect | None) -> IllegalAction:
    """The clause illegal targets of a core ability break."""
    action = play.text()
    if effect is Effect.INTERRUPT:
        return IllegalAction(
            action,
            "an interrupt may only target an ability in effect in the battle being fought",
            ("RED-BASE-INTERRUPT", "RED-SB-NO-INTERRUPT-FROM-SUSPENDED"),
        )
    if effect is Effect.NEGATE:
        return IllegalAction(action, "a negate may only target an ability of the battle being fought", ("RED-BASE-NEGATE",))
    return IllegalAction(action, f"targets {' '.join(play.targets) or '(none)'} are not legal here", ("RED-BASE-ENHANCEMENTS",))


@implements("RED-BASE-ENHANCEMENTS", "RED-SB-ONCE-PER-TURN")
def place_card(state: State, play: Play) -> tuple[State, PlayRecord]:
    """Put a (checked) enhancement on its character and record the play: the
    ability is active if it has targets (or acts at the end of battle), else blank."""
    prompt = state.prompt
    assert prompt is not None
    player = prompt.player
    found = state.fighter(play.on)
    assert found is not None
    index, side, fighter = found
    state = remove_from(state, player, "hand", play.card)
    state = replace_fighter(state, play.on, replace(fighter, enhancements=(*fighter.enhancements, play.card)))
    state = set_battle(state, len(state.battles) - 1, replace(state.battles[-1], last_player=player))
    effect = state.card(play.card).ability
    targets = play.targets
    if effect is Effect.SIDE_BATTLE and targets:
        targets = tuple(sorted(targets))
    record = PlayRecord(
        id=state.next_record,
        card=play.card,
        player=player,
        on=play.on,
        effect=effect,
        targets=targets,
        battle_path=tuple(b.id for b in state.battles),
        status=RecordStatus.ACTIVE if (targets or effect is Effect.DRAW_ON_SUCCESS) else RecordStatus.BLANKED,
    )
    state = replace(state, records=(*state.records, record), next_record=record.id + 1)
    return state, record


@implements("RED-BASE-SPECIAL-INITIATIVE", "RED-SB-NO-INTERRUPT-FROM-SUSPENDED")
def special_initiative_for(state: State, record: PlayRecord) -> int | None:
    """The player who gets special initiative against a discard, if any.

    An opponent's discard that would leave a battling player with no
    character in the battle being fought (RED-BASE-SPECIAL-INITIATIVE). A
    character in a suspended battle gets no such chance against an ability
    played in a side battle (RED-SB-NO-INTERRUPT-FROM-SUSPENDED).
    """
    if record.effect not in DISCARDS:
        return None
    battle = state.active_battle
    assert battle is not None
    for side, fighter in battle.fighters():
        if fighter.card == record.targets[0]:
            victim = battle.players[side]
            if victim == record.carried_by:
                return None
            others = [f for s, f in battle.fighters() if battle.players[s] == victim and f.card != fighter.card]
            return None if others else victim
    return None


@implements("RED-BASE-SPECIAL-INITIATIVE")
def announce(state: State, record: PlayRecord) -> State | None:
    """An opponent's discard that special initiative applies to is announced, and
    the victim gets the decision (RED-BASE-SPECIAL-INITIATIVE); ``None`` otherwise."""
    victim = special_initiative_for(state, record)
    if victim is None:
        return None
    state = _set_record(state, replace(record, status=RecordStatus.ANNOUNCED))
    return replace(state, prompt=Prompt(PromptKind.SPECIAL_INITIATIVE, victim, record=record.id))


@implements("RED-BASE-SPECIAL-INITIATIVE")
def settle_announced(state: State, record_id: int, config: RuleConfig, apply: ApplyEffect) -> State:
    """After the special initiative answer (or ``decline``), the announced
    ability takes effect unless it was interrupted or negated (``apply`` is the
    dispatcher's effect router: a discard may open a heal window)."""
    record = state.record(record_id)
    state = replace(state, prompt=None)
    if record.status is RecordStatus.ANNOUNCED:
        state = apply(state, record, config)
    return play_prompt_unless_waiting(state, config)


# --- effects and their undo ----------------------------------------------------------


def discard_now(state: State, record: PlayRecord) -> State:
    """Complete a discard by an ability: the character and its enhancements go to
    the discard piles, and the discard counts for triggers (a discard event)."""
    state, battle_id, side, fighter = remove_fighter(state, record.targets[0])
    state = discard_fighter(state, fighter)
    state = note_discard(state, fighter, DiscardCause.ABILITY)
    undo = Undo(fighter=fighter, battle=battle_id, side=side)
    return _set_record(state, replace(record, status=RecordStatus.ACTIVE, undo=undo))


@implements("RED-HEAL-WINDOW", "RED-HEAL-DISCARD-NOT-COMPLETED")
def complete_ability_discard(state: State, config: RuleConfig) -> State:
    """The controller lets the discard complete (closing the heal window,
    RED-HEAL-WINDOW): it happens now, and counts."""
    prompt = state.prompt
    assert prompt is not None and prompt.record >= 0
    state = discard_now(replace(state, prompt=None), state.record(prompt.record))
    return play_prompt(state, config)


def apply_effect(state: State, record: PlayRecord, config: RuleConfig | None = None) -> State:
    """Carry out a discard, status or decrease effect, recording how to undo it; the
    ability fizzles if its target is no longer valid. (The dispatcher first asks
    the heal area whether a discard opens a heal window, RED-HEAL-WINDOW.)"""
    target = record.targets[0]
    found = state.fighter(target)
    if found is None:
        return _set_record(state, replace(record, status=RecordStatus.FIZZLED))
    if record.effect in DISCARDS:
        return discard_now(state, record)
    if record.effect is Effect.DECREASE:
        added = target not in state.decreased
        state = replace(state, decreased=state.decreased | {target})
        undo = Undo(status_added=added)
    else:
        status = STATUS_OF[record.effect]  # type: ignore[index]
        added = (target, status) not in state.statuses
        state = replace(state, statuses=state.statuses | {(target, status)})
        undo = Undo(status_added=added)
    return _set_record(state, replace(record, status=RecordStatus.ACTIVE, undo=undo))


def undo_effect(state: State, record: PlayRecord) -> State:
    """Take back what a discard or status effect did (for interrupt and negate)."""
    if record.effect in DISCARDS and record.undo.fighter is not None:
        fighter = record.undo.fighter
        owner = state.card(fighter.card).owner
        if fighter.card not in state.zones[owner].discard:
            return state
        state = forget_discard(state, fighter.card)
        state = edit_zones(state, owner, discard=state.zones[owner].discard - {fighter.card})
        if battle_index(state, record.undo.battle) is not None:
            kept: list[str] = []
            for enh in fighter.enhancements:
                enh_owner = state.card(enh).owner
                if enh in state.zones[enh_owner].discard:
                    state = edit_zones(state, enh_owner, discard=state.zones[enh_owner].discard - {enh})
                    kept.append(enh)
            return add_fighter(state, record.undo.battle, record.undo.side, replace(fighter, enhancements=tuple(kept)))
        home = fighter.permanent
        return edit_zones(state, home, territory=state.zones[home].territory | {fighter.card})
    if record.effect in STATUS_OF and record.undo.status_added:
        status = STATUS_OF[record.effect]
        return replace(state, statuses=state.statuses - {(record.targets[0], status)})
    if record.effect is Effect.DECREASE and record.undo.status_added:
        return replace(state, decreased=state.decreased - {record.targets[0]})
    if record.effect in HEAL_EFFECTS:
        return undo_heal(state, record)
    return state


@implements("RED-HEAL-CLEARS-STATUS", "RED-HEAL-RESTORES-DECREASE")
def heal_undo(before: State, after: State, target: str) -> Undo:
    """What a heal of ``target`` did, from the states before and after it: the statuses and the
    decrease it removed, and the status effects it ended (RED-HEAL-CLEARS-STATUS,
    RED-HEAL-RESTORES-DECREASE), so that an interrupt can take the heal back."""
    cleared = tuple(sorted((s for c, s in before.statuses if c == target and (c, s) not in after.statuses),
                           key=lambda s: s.value))
    ended = tuple(r.id for r in after.records
                  if r.status is RecordStatus.ENDED and before.record(r.id).status is not RecordStatus.ENDED)
    return Undo(cleared=cleared, restored=target in before.decreased and target not in after.decreased, ended=ended)


@implements("RED-BASE-INTERRUPT", "RED-HEAL-CLEARS-STATUS", "RED-HEAL-RESTORES-DECREASE")
def undo_heal(state: State, record: PlayRecord) -> State:
    """Take a heal back (an interrupt of a heal ability, RED-BASE-INTERRUPT): its target has again the
    statuses and the decrease the heal removed, and the status effects it ended are in effect again."""
    target, undo = record.targets[0], record.undo
    state = replace(state, statuses=state.statuses | {(target, s) for s in undo.cleared})
    if undo.restored:
        state = replace(state, decreased=state.decreased | {target})
    for ended in undo.ended:
        state = _set_record(state, replace(state.record(ended), status=RecordStatus.ACTIVE))
    return state


@implements("RED-BASE-INTERRUPT")
def interrupt(state: State, record_id: int, undo: bool = True) -> State:
    """Undo an ability's effect and leave it pending (RED-BASE-INTERRUPT); ``undo`` false only
    for the broken variant ``interrupted-heal-stays`` (the heal's effect is left in place)."""
    record = state.record(record_id)
    if record.status is RecordStatus.ACTIVE and undo:
        state = undo_effect(state, record)
    return _set_record(state, replace(record, status=RecordStatus.PENDING, undo=Undo()))


@implements("RED-BASE-NEGATE", "RED-SB-NEGATE-CASCADE")
def negate(state: State, record_id: int, config: RuleConfig) -> State:
    """Cancel an ability as if never used (RED-BASE-NEGATE). Negating a side
    battle ability also negates every interruptible effect of cards played
    during that side battle, nested ones included (RED-SB-NEGATE-CASCADE);
    the side battle's own resolution stands (decision ``sb-negate-resolution`` =
    keep-resolution), or under undo-all the whole side battle is undone
    (:func:`model.redemption.side_battle_undo.undo_side_battle`)."""
    record = state.record(record_id)
    if record.status is RecordStatus.ACTIVE:
        state = undo_effect(state, record)
    state = _set_record(state, replace(record, status=RecordStatus.NEGATED))
    if record.effect is Effect.SIDE_BATTLE and record.undo.opened >= 0:
        opened = record.undo.opened
        for inner in reversed(state.records):
            if opened in inner.battle_path and inner.effect in INTERRUPTIBLE | HEAL_EFFECTS and inner.status in (
                RecordStatus.ACTIVE,
                RecordStatus.PENDING,
                RecordStatus.ANNOUNCED,
            ):
                if inner.status is RecordStatus.ACTIVE:
                    state = undo_effect(state, inner)
                state = _set_record(state, replace(state.record(inner.id), status=RecordStatus.NEGATED))
        if record.undo.fighters:
            state = undo_side_battle(state, record)
    return state


@implements("RED-BASE-INTERRUPT")
def reactivate_pending(state: State, config: RuleConfig, apply: ApplyEffect) -> tuple[State, bool]:
    """When the player with initiative passes, pending abilities of the
    active battle get their chance: each reactivates if its card is still in
    that battle and its target still valid, else it fizzles (decision
    ``red-base-interrupt-reactivation``); ``apply`` is the dispatcher's effect
    router. Returns whether any was pending."""
    battle = state.active_battle
    assert battle is not None
    pending = [r for r in state.records if r.status is RecordStatus.PENDING and r.battle == battle.id]
    if not pending:
        return state, False
    for record in pending:
        attached = {e for _, f in state.battles[-1].fighters() for e in f.enhancements}
        if config.option("red-base-interrupt-reactivation") == "never" or record.card not in attached:
            state = _set_record(state, replace(record, status=RecordStatus.FIZZLED))
        else:
            depth = len(state.battles)
            state = apply(state, record, config)
            if state.prompt is not None and state.prompt.kind in (PromptKind.HEAL_WINDOW, PromptKind.CHOOSE_SIDES):
                return state, True
            if len(state.battles) != depth:
                return state, True  # a side battle started: the rest wait for the battle they were played in
    return state, True
