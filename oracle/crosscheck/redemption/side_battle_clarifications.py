"""The side battle clarifications, model against the side battle encoding (see
:mod:`oracle.crosscheck.redemption.side_battles`, which runs them on every position): what an interrupt may
target once a side battle is over and who gets special initiative from a paused battle
(RED-SB-NO-INTERRUPT-FROM-SUSPENDED), and what negating a side battle card negates and undoes
(RED-SB-NEGATE-CASCADE, decision ``sb-negate-resolution``)."""

from __future__ import annotations

from cardrules.oracle.crosscheck.disagreement import Disagreement
from cardrules.model.redemption.actions import Play
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.engine import legal_actions, step
from cardrules.model.redemption.state import Effect, PlayRecord, PromptKind, RecordStatus, State
from cardrules.specs.smt.redemption import side_battle_vars as sb
from cardrules.oracle.crosscheck.redemption.common import (
    CrosscheckReport, Query, config_key, refused_by_base_rules, sb_query,
)


SB_INTERRUPTIBLE: frozenset[Effect] = frozenset({Effect.DISCARD, Effect.DISCARD_OPPOSING, Effect.PARALYZE,
                                                  Effect.POISON, Effect.DISEASE, Effect.DECREASE,
                                                  Effect.HEAL, Effect.RESTORE})
"""Printed abilities an interrupt acts on while in effect (RED-BASE-INTERRUPT: an effect that can be undone and
held; a heal is undone by giving its target back what it removed). A side battle ability is interruptible only
before its side battle starts, which the side battle encoding does not model (see
:func:`~.side_battles._model_side_battle`)."""

def crosscheck_interrupt_plays(state: State, config: RuleConfig = DEFAULT,
                               report: CrosscheckReport | None = None) -> list[Disagreement]:
    """The abilities an interrupt card of the player who must act may target, where the side battle
    encoding decides it: an ability of a side battle that has ended is no longer targetable
    (RED-SB-NO-INTERRUPT-FROM-SUSPENDED). Raw facts only: a record is an ability of a side battle if
    it was played in a nested battle (its battle path), ended if that battle is no longer on the
    stack, and in the active battle if that battle is on top."""
    found: list[Disagreement] = []
    if state.prompt is None or state.prompt.kind is not PromptKind.PLAY or not state.battles:
        return found
    user = state.prompt.player
    cards = [c for c in sorted(state.zones[user].hand) if state.card(c).ability is Effect.INTERRUPT]
    if not cards:
        return found
    on_stack = {b.id for b in state.battles}
    top = state.battles[-1].id
    v, query = sb.SBVars.make(), sb_query(config_key(config))
    legal = legal_actions(state, config)
    for card_id in cards:
        plays = [a for a in legal if isinstance(a, Play) and a.card == card_id]
        if not plays and refused_by_base_rules(state, user, card_id):
            continue
        offered = {a.targets[0] for a in plays if a.targets}
        for record in state.records:
            if (state.card(record.card).ability not in SB_INTERRUPTIBLE or len(record.battle_path) < 2
                    or record.status not in (RecordStatus.ACTIVE, RecordStatus.ANNOUNCED)):
                continue
            ended = record.battle_path[-1] not in on_stack
            smt = query.allowed([v.ended == ended, v.ability_in_active == (record.battle_path[-1] == top),
                                 v.victim_in_paused == False], [v.interrupt_targetable])  # noqa: E712
            if len(smt) != 1:
                continue  # the side battle clauses leave it to the base rules
            if report:
                report.count("sb-interrupt-target")
            model = f"#{record.id}" in offered
            if smt != {(model,)}:
                found.append(Disagreement("sb-interrupt-target", state.to_json(), f"play {card_id} -> #{record.id}",
                                          sorted(smt), model, ("RED-SB-NO-INTERRUPT-FROM-SUSPENDED",)))
    return found


def crosscheck_paused_victims(state: State, config: RuleConfig = DEFAULT,
                              report: CrosscheckReport | None = None) -> list[Disagreement]:
    """A discard played in a side battle on a character of a battle paused below it: its player
    gets no special initiative against it (RED-SB-NO-INTERRUPT-FROM-SUSPENDED, ``victim_in_paused``).
    Raw facts: the target fights in a battle below the top of the stack; the model's answer is
    whether the play leaves a special initiative prompt."""
    found: list[Disagreement] = []
    if state.prompt is None or state.prompt.kind is not PromptKind.PLAY or len(state.battles) < 2:
        return found
    below = {f.card for b in state.battles[:-1] for _, f in b.fighters()}
    v, query = sb.SBVars.make(), sb_query(config_key(config))
    for play in legal_actions(state, config):
        if (not isinstance(play, Play) or state.card(play.card).ability not in (Effect.DISCARD, Effect.DISCARD_OPPOSING)
                or not play.targets or play.targets[0] not in below):
            continue
        if report:
            report.count("sb-paused-victim")
        smt = query.allowed([v.victim_in_paused], [v.victim_may_interrupt])
        after = step(state, play, config)
        model = after.prompt is not None and after.prompt.kind is PromptKind.SPECIAL_INITIATIVE
        if smt != {(model,)}:
            found.append(Disagreement("sb-paused-victim", state.to_json(), play.text(), sorted(smt), model,
                                      ("RED-SB-NO-INTERRUPT-FROM-SUSPENDED",)))
    return found


def _opened_by(state: State, record_id: int) -> int | None:
    """The battle a side battle play opened, read off the play log: the battle one level above the
    play's own in the path of the next play made in a battle nested in it."""
    record = state.record(record_id)
    depth = len(record.battle_path)
    for later in state.records:
        if later.id > record_id and len(later.battle_path) > depth and later.battle_path[:depth] == record.battle_path:
            return later.battle_path[depth]
    return None


def crosscheck_side_battle_negation(state: State, config: RuleConfig = DEFAULT,
                                    report: CrosscheckReport | None = None) -> list[Disagreement]:
    """Negating a side battle ability (RED-SB-NEGATE-CASCADE): every interruptible effect of a card
    played during that side battle is negated too (compared per such card, ``sb-negate-cascade``), and
    its resolution stands or is undone (decision ``sb-negate-resolution``; :func:`_negated_resolution`).
    For each legal negate of a side battle play, the model's step is read."""
    found: list[Disagreement] = []
    if state.prompt is None or state.prompt.kind not in (PromptKind.PLAY, PromptKind.SPECIAL_INITIATIVE):
        return found
    v, query = sb.SBVars.make(), sb_query(config_key(config))
    for play in legal_actions(state, config):
        if not isinstance(play, Play) or state.card(play.card).ability is not Effect.NEGATE or not play.targets:
            continue
        negated = state.record(int(play.targets[0][1:]))
        if state.card(negated.card).ability is not Effect.SIDE_BATTLE:
            continue
        opened = _opened_by(state, negated.id)
        inner = [r for r in state.records if opened is not None and opened in r.battle_path
                 and r.status in (RecordStatus.ACTIVE, RecordStatus.PENDING, RecordStatus.ANNOUNCED)]
        after = step(state, play, config)
        for record in inner:
            interruptible = state.card(record.card).ability in SB_INTERRUPTIBLE
            if report:
                report.count("sb-negate-cascade")
            smt = query.allowed([v.sb_negated, v.effect_in_sb, v.effect_interruptible == interruptible],
                                [v.effect_negated])
            model = after.record(record.id).status is RecordStatus.NEGATED
            if len(smt) == 1 and smt != {(model,)}:
                found.append(Disagreement("sb-negate-cascade", state.to_json(), f"{play.text()} (#{record.id})",
                                          sorted(smt), model, ("RED-SB-NEGATE-CASCADE",)))
        if negated.status is RecordStatus.ACTIVE:  # in effect: its side battle started (and is over)
            found += _negated_resolution(state, after, play, negated.targets, inner, query, v, report)
    return found


def _negated_resolution(state: State, after: State, play: Play, selected: tuple[str, ...], inner: list[PlayRecord],
                        query: Query, v: sb.SBVars, report: CrosscheckReport | None) -> list[Disagreement]:
    """Whether the side battle's resolution was undone (z3's ``resolution_undone``), read off the step: a
    card that lay in a discard pile left it, other than a target of an effect the cascade took back. Where
    the encoding says it is undone, the step shows it only when the resolution discarded a selected
    character (raw: one of the play's two targets lies in a discard pile and no effect of the side battle
    targeted it); elsewhere an undone side battle may leave every card where it was, and the comparison is
    counted as unseen (``sb-negate-resolution-unseen``), not made."""
    smt = query.allowed([v.sb_negated], [v.resolution_undone])
    if len(smt) != 1:
        return []
    undone_targets = {t for r in inner for t in r.targets}
    piles = [z.discard for z in state.zones]
    returned = any(c not in after.zones[p].discard and c not in undone_targets for p, pile in enumerate(piles) for c in pile)
    shown = any(c in pile and c not in undone_targets for c in selected for pile in piles)
    if smt == {(True,)} and not shown:
        if report:
            report.count("sb-negate-resolution-unseen")
        return []
    if report:
        report.count("sb-negate-resolution")
    if smt != {(returned,)}:
        return [Disagreement("sb-negate-resolution", state.to_json(), play.text(), sorted(smt), returned,
                             ("RED-SB-NEGATE-CASCADE",))]
    return []
