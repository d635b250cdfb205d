"""Numbers through the redirect encoding (:func:`card_numbers`) and the redirect rule decisions, model against
the redirect encoding (:func:`crosscheck_redirect_plays`, :func:`crosscheck_phase_change`; see
:mod:`oracle.crosscheck.redemption.decisions`)."""

from __future__ import annotations

from typing import Any

from cardrules.oracle.crosscheck.counts import cached_with_notes
from cardrules.oracle.crosscheck.disagreement import Disagreement
from cardrules.model.redemption.actions import Action, Play
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption import redirect as model_redirect
from cardrules.model.redemption.engine import legal_actions, step
from cardrules.model.redemption.engine import target_options as model_target_options
from cardrules.model.redemption.numbers import gain_counts as model_gain_counts
from cardrules.model.redemption.numbers import numbers as model_numbers
from cardrules.model.redemption.state import CardType, Effect, Fighter, PromptKind, RecordStatus, State
import z3

from cardrules.specs.smt.redemption import position as pos
from cardrules.specs.smt.redemption import redirect as rd
from cardrules.specs.smt.redemption.common import NONE
from cardrules.oracle.crosscheck.redemption.common import (
    CrosscheckReport, EncodingNoAnswer, Key, characters_in, config_key, rd_query, refused_by_base_rules,
)
from cardrules.oracle.crosscheck.redemption.position import Log, Raw, played_in_of, raw_card, raw_stack


# --- numbers (through the redirect encoding) ---------------------------------------------------------


@cached_with_notes(maxsize=100_000)
def transfer(key: Key, printed: tuple[int, int], stated: tuple[int, int] | None, target0: tuple[int, int],
              card0: tuple[int, int], where: Raw,
              card_where: Raw) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """One active numbers redirect: (moved, target after, redirecting card after), forced by the clauses;
    ``printed``: the target card's printed numbers, ``stated``: the amount the redirect card prints
    (raw card data, ``None``: none; z3 decides what it moves, decisions ``rd-amount`` and
    ``rd-stated-exceeds``); ``where``/``card_where``: the target's and the redirecting card's raw
    places, from which z3 derives whether the target is still in a battle, and in the redirecting card's."""
    query, v = rd_query(key), rd.RDVars.make()
    given = [v.stated == False] if stated is None else [v.stated, v.stated_s == stated[0], v.stated_t == stated[1]]  # noqa: E712
    fixed = [v.what == rd.NUMBERS, v.both == False, v.place == rd.ACTIVE_BATTLE, *given,  # noqa: E712
             v.printed_s == printed[0], v.printed_t == printed[1], v.target_s0 == target0[0], v.target_t0 == target0[1],
             v.card_s0 == card0[0], v.card_t0 == card0[1], v.phase_ended == False,  # noqa: E712
             v.still_in_battle == pos.in_any_battle(pos.CardPos.of(dict(where))),
             v.same_battle == pos.same_battle(pos.CardPos.of(dict(where)), pos.CardPos.of(dict(card_where))),
             v.allowed, v.active]
    answers = query.allowed(fixed, [v.moved_s, v.moved_t, v.target_s, v.target_t, v.card_s, v.card_t], limit=2)
    if len(answers) != 1:
        raise EncodingNoAnswer(f"the redirect encoding gives {len(answers)} answers for numbers {printed}, {target0}, {card0}",
                               sorted(answers), ("RED-RD-NUMBERS-TRANSFER", "RED-RD-NUMBERS-ONGOING",
                                                 "RED-RD-NUMBERS-IN-BATTLE-ONLY"))
    ms, mt, ts, tt, cs, ct = next(iter(answers))
    return (ms, mt), (ts, tt), (cs, ct)


@cached_with_notes(maxsize=10_000)
def kept_after_lapse(key: Key, printed: tuple[int, int], stated: tuple[int, int] | None,
                     regained: bool = False) -> tuple[int, int]:
    """What a numbers redirect that has ended still takes off its target, by the clauses (decision
    ``rd-lapse-reduction``): ``target0 - target`` with the redirect over; ``printed`` and ``stated`` as in
    :func:`transfer`; ``regained``: it ended because its target was healed out of a discard pile (raw:
    the target left a pile on this step), else because its phase ended."""
    query, v = rd_query(key), rd.RDVars.make()
    given = [v.stated == False] if stated is None else [v.stated, v.stated_s == stated[0], v.stated_t == stated[1]]  # noqa: E712
    ended = [v.phase_ended == False, v.regained] if regained else [v.phase_ended, v.regained == False]  # noqa: E712
    fixed = [v.what == rd.NUMBERS, v.both == False, v.place == rd.ACTIVE_BATTLE, *given,  # noqa: E712
             v.printed_s == printed[0], v.printed_t == printed[1], v.target_s0 == 0, v.target_t0 == 0,
             *ended, v.allowed, v.lasting]
    answers = query.allowed(fixed, [v.target_s, v.target_t], limit=2)
    if len(answers) != 1:
        raise EncodingNoAnswer(f"the redirect encoding gives {len(answers)} answers for a lapsed redirect of {printed}",
                               sorted(answers), ("RED-RD-UNTIL-END-OF-PHASE",))
    ts, tt = next(iter(answers))
    return -ts, -tt


def card_numbers(state: State, config: RuleConfig = DEFAULT) -> dict[str, tuple[int, int]]:
    """Every card's strength and toughness: printed, less what ended redirects left off it for good (the
    position's ``reduced``, decision ``rd-lapse-reduction``), then each active numbers redirect in play order."""
    numbers = {c.id: (c.strength, c.toughness) for c in state.cards}
    for target, kept_s, kept_t in state.reduced:
        numbers[target] = (numbers[target][0] - kept_s, numbers[target][1] - kept_t)
    key = config_key(config)
    for record in state.records:
        if record.effect is not Effect.REDIRECT_NUMBERS or record.status is not RecordStatus.ACTIVE:
            continue
        target = record.targets[0]
        printed = (state.card(target).strength, state.card(target).toughness)
        _, numbers[target], card_after = transfer(key, printed, state.card(record.card).stated_amount,
                                                   numbers[target], numbers[record.card],
                                                   _raw(state, target), _raw(state, record.card))
        numbers[record.card] = card_after
    return numbers


def fighter_numbers(state: State, fighter: Fighter, numbers: dict[str, tuple[int, int]]) -> tuple[int, int]:
    """A fighter's total: the character plus every enhancement on it."""
    parts = [numbers[fighter.card], *[numbers[e] for e in fighter.enhancements]]
    return sum(p[0] for p in parts), sum(p[1] for p in parts)


_IN_A_BATTLE: Raw = tuple(sorted({"owner": 0, "where": pos.FIGHTING, "holder": NONE, "level": 0, "raw_side": 0,
                                   "logged_perm": NONE}.items()))
"""A card fighting at the bottom of the stack (the amount a numbers redirect moves as played)."""


# --- redirects ------------------------------------------------------------------------------------------

_STATE = {RecordStatus.PENDING: rd.PENDING, RecordStatus.ACTIVE: rd.ACTIVE}
RD_ABILITY_CLAUSES = ("RED-RD-ONLY-INTERRUPTED", "RED-RD-TARGETS-IN-BATTLE", "RED-RD-ABILITY-TARGET", "RED-RD-TWO-KINDS")
RD_NUMBERS_CLAUSES = ("RED-RD-NUMBERS-TARGET", "RED-RD-TARGETS-IN-BATTLE", "RED-RD-NUMBERS-NO-INTERRUPT")


def _raw(state: State, card_id: str) -> Raw:
    """A card's raw place (no log needed: the redirect situation reads no permanent control)."""
    return tuple(sorted(raw_card(state, card_id, {}).items()))


def _place(state: State, v: rd.RDVars, card_id: str) -> z3.BoolRef:
    """The situation's ``place`` of ``card_id``, derived in z3 from its raw place."""
    stack = pos.StackPos.of(*raw_stack(state))
    return v.place == pos.rd_place(pos.CardPos.of(dict(_raw(state, card_id))), stack, rd.ACTIVE_BATTLE,
                                   rd.LOWER_BATTLE, rd.NOT_IN_BATTLE)


def _opposing(state: State, player: z3.ArithRef, card_id: str) -> z3.BoolRef:
    """The printed restriction of a discard-opposing ability, read for ``player``, derived in z3
    from the card's raw place (:func:`specs.smt.redemption.position.opposing`)."""
    return pos.opposing(pos.CardPos.of(dict(_raw(state, card_id))), pos.StackPos.of(*raw_stack(state)), player)


def crosscheck_redirect_plays(state: State, config: RuleConfig = DEFAULT,
                              report: CrosscheckReport | None = None) -> list[Disagreement]:
    """Redirect cards of the player who must act (see the module docstring)."""
    found: list[Disagreement] = []
    if state.prompt is None or state.prompt.kind is not PromptKind.PLAY:
        return found
    user = state.prompt.player
    legal = legal_actions(state, config)
    v, query = rd.RDVars.make(), rd_query(config_key(config))
    data: dict[str, Any] | None = None
    for card_id in sorted(state.zones[user].hand):
        effect = state.card(card_id).ability
        if effect not in (Effect.REDIRECT_ABILITY, Effect.REDIRECT_NUMBERS, Effect.REDIRECT_BOTH):
            continue
        plays = [a for a in legal if isinstance(a, Play) and a.card == card_id]
        if not plays and refused_by_base_rules(state, user, card_id):
            if report:
                report.count("rd-refused-base-rule")
            continue
        if not plays and report:
            report.count("rd-refused")  # the model refuses the card: z3 must allow no target either
        data = data or state.to_json()
        found += _kinds(state, plays, v, query, data, report)
        halves = ("RED-RD-BOTH-IS-TWO",) if effect is Effect.REDIRECT_BOTH else ()  # each half under its own rule
        if effect in (Effect.REDIRECT_ABILITY, Effect.REDIRECT_BOTH):
            if report:
                report.count("rd-ability")
            model_ids = {int(a.targets[0][1:]) for a in plays if len(a.targets) >= 2 or (effect is Effect.REDIRECT_ABILITY and a.targets)}
            model_ids |= _without_new_targets(state, user, config, report)
            smt_ids = set()
            for record in state.records:
                if record.effect in (Effect.REDIRECT_ABILITY, Effect.REDIRECT_NUMBERS, Effect.REDIRECT_BOTH):
                    continue
                fixed = [v.what == rd.ABILITY, v.both == (effect is Effect.REDIRECT_BOTH),
                         v.ability_state == _STATE.get(record.status, rd.OTHER_STATE),
                         _place(state, v, record.card), v.allowed]
                if query.possible(fixed):
                    smt_ids.add(record.id)
            if model_ids != smt_ids:
                found.append(Disagreement("rd-ability-targets", data, f"play {card_id}", sorted(smt_ids), sorted(model_ids),
                                          RD_ABILITY_CLAUSES + halves))
            found += _new_targets(state, user, plays, data, config, report)
        if effect in (Effect.REDIRECT_NUMBERS, Effect.REDIRECT_BOTH):
            if report:
                report.count("rd-numbers")
            if effect is Effect.REDIRECT_NUMBERS:
                model_cards = {a.targets[0] for a in plays if a.targets}
            else:
                model_cards = {state.record(int(a.targets[0][1:])).card for a in plays if len(a.targets) == 1}
            candidates = [c.id for c in state.cards if c.type is not CardType.LOST_SOUL]
            if effect is Effect.REDIRECT_BOTH:
                candidates = sorted({r.card for r in state.records if r.status is not RecordStatus.BLANKED
                                     and r.effect not in (Effect.REDIRECT_ABILITY, Effect.REDIRECT_NUMBERS, Effect.REDIRECT_BOTH)})
            # 'may its numbers be redirected' is asked both ways (allowed projected, not assumed):
            # a card in battle must be allowed, interrupted or not (RED-RD-NUMBERS-NO-INTERRUPT)
            smt_cards = set()
            for c in candidates:
                may = query.allowed([v.what == rd.NUMBERS, v.both == (effect is Effect.REDIRECT_BOTH),
                                     _place(state, v, c)], [v.allowed])
                if len(may) != 1:
                    raise EncodingNoAnswer(f"the redirect encoding does not decide whether the numbers of {c} may be "
                                           "redirected", sorted(may), RD_NUMBERS_CLAUSES + halves)
                if may == {(True,)}:
                    smt_cards.add(c)
            if model_cards != smt_cards:
                found.append(Disagreement("rd-numbers-targets", data, f"play {card_id}", sorted(smt_cards),
                                          sorted(model_cards), RD_NUMBERS_CLAUSES + halves))
            found += _numbers_played(state, plays, effect, data, config, report)
    return found


def _kind_of(state: State, target: str) -> int:
    """What a redirect play's first target is: an ability (a play record ``#n``), a card's numbers
    (a character or enhancement, the cards that print numbers), or something else."""
    if target.startswith("#") and target[1:].isdigit():
        return rd.ABILITY
    if state.has_card(target) and state.card(target).type in (CardType.CHARACTER, CardType.ENHANCEMENT):
        return rd.NUMBERS
    return rd.OTHER_THING


def _kinds(state: State, plays: list[Play], v: rd.RDVars, query: Any, data: dict[str, Any],
           report: CrosscheckReport | None) -> list[Disagreement]:
    """Whether a redirect may act on anything but an ability or a card's numbers (RED-RD-TWO-KINDS):
    the model's answer is whether some offered target is neither."""
    if report:
        report.count("rd-kinds")
    model = sorted({a.targets[0] for a in plays if a.targets and _kind_of(state, a.targets[0]) == rd.OTHER_THING})
    smt = query.possible([v.what == rd.OTHER_THING, v.allowed])
    if bool(model) != smt:
        return [Disagreement("rd-kinds", data, f"play {plays[0].card if plays else '?'}",
                             "something else allowed" if smt else "only an ability or numbers", model,
                             ("RED-RD-TWO-KINDS",))]
    return []


def _without_new_targets(state: State, user: int, config: RuleConfig, report: CrosscheckReport | None) -> set[int]:
    """Abilities the model holds redirectable (interrupted, in battle: ``model.redemption.redirect.redirectable``)
    that offer ``user`` no new target, so that no redirect play names them: an interrupted side battle
    ability whose redirector's side battles are used up or who has no pair to select, a heal with no
    healable character left in the battle. The redirect situation asks only whether an ability may be
    redirected, not whether it has a new target (which the redirected card's own area decides), so these
    count as redirectable on the model's side (``rd-no-new-target``)."""
    out = {r.id for r in model_redirect.redirectable(state, config)
           if not model_target_options(state, user, r.card, config)}
    if report and out:
        report.count("rd-no-new-target", len(out))
    return out


def _new_targets(state: State, user: int, plays: list[Play], data: dict[str, Any], config: RuleConfig,
                 report: CrosscheckReport | None) -> list[Disagreement]:
    """New targets of a redirected discard-opposing ability (read from the redirector's side), and
    who carries it out after the redirect."""
    found: list[Disagreement] = []
    v, query = rd.RDVars.make(), rd_query(config_key(config))
    by_record: dict[int, set[str]] = {}
    for play in plays:
        if len(play.targets) >= 2:
            by_record.setdefault(int(play.targets[0][1:]), set()).add(play.targets[1])
    for record_id, offered in sorted(by_record.items()):
        record = state.record(record_id)
        if record.effect is Effect.DISCARD_OPPOSING:
            if report:
                report.count("rd-new-targets")
            smt_targets = set()
            for c in characters_in(state):
                carrier = pos.carried_by(z3.IntVal(record.player), z3.IntVal(record.carrier))
                fixed = [v.what == rd.ABILITY, v.allowed, v.ability_state == rd.PENDING, v.place == rd.ACTIVE_BATTLE,
                         v.new_is_old == (c in record.targets), v.legal_for_redirector == _opposing(state, z3.IntVal(user), c),
                         v.legal_for_player == _opposing(state, carrier, c), v.new_target_ok]
                if query.possible(fixed):
                    smt_targets.add(c)
            if offered != smt_targets:
                found.append(Disagreement("rd-new-targets", data, f"redirect #{record_id}", sorted(smt_targets),
                                          sorted(offered), ("RED-RD-TARGET-PERSPECTIVE", "RED-RD-NEW-TARGETS",
                                                            "RED-RD-SAME-TARGET-ALLOWED")))
        play = next(p for p in plays if len(p.targets) >= 2 and int(p.targets[0][1:]) == record_id)
        after = step(state, play, config)
        if report:
            report.count("rd-carrier")
        both = state.card(play.card).ability is Effect.REDIRECT_BOTH
        fixed = [v.what == rd.ABILITY, v.allowed, v.player == record.player, v.redirector == user, v.both == both]
        # who carries it out and who played it (RED-RD-CARRIER-CHANGES), who chose the new targets
        # (RED-RD-NEW-TARGETS), whether the redirect lasts beyond the moment it is used
        # (RED-RD-ABILITY-INSTANT) and what it targets (RED-RD-ABILITY-TARGET); for a card that
        # redirects both, how many redirects it is (RED-RD-BOTH-IS-TWO)
        project = [v.carrier, v.played_by, v.chooser, v.lasting, v.target_is_ability]
        taken = after.record(record_id)
        # the model: the new targets are part of the redirecting player's own action, so they choose;
        # the redirect lasts if the redirected ability is still waiting (pending) after it
        model_answer: tuple[Any, ...] = (taken.carried_by, taken.player, user, taken.status is RecordStatus.PENDING,
                                         _kind_of(state, play.targets[0]) == rd.ABILITY)
        if both:
            project.append(v.redirects)
            model_answer += (sum(1 for r in after.records if r.id >= state.next_record
                                 and r.effect in (Effect.REDIRECT_ABILITY, Effect.REDIRECT_NUMBERS)),)
        smt = query.allowed(fixed, project)
        model = {model_answer}
        if model != smt:
            found.append(Disagreement("rd-carrier", data, play.text(), sorted(smt), sorted(model),
                                      ("RED-RD-CARRIER-CHANGES", "RED-RD-PURPOSE", "RED-RD-NEW-TARGETS",
                                       "RED-RD-ABILITY-INSTANT", "RED-RD-ABILITY-TARGET", "RED-RD-BOTH-IS-TWO")))
        host = _host(state, record.card)
        moved = host is not None and after.in_any_battle(host) and _host(after, record.card) != host
        if report:
            report.count("rd-location")
        smt_moved = query.allowed(fixed, [v.location_changed])
        if smt_moved != {(moved,)}:
            found.append(Disagreement("rd-location", data, play.text(), sorted(smt_moved),
                                      f"moved from {host} to {_host(after, record.card)}" if moved else "stays",
                                      ("RED-RD-LOCATION-UNCHANGED",)))
    return found


def _host(state: State, card_id: str) -> str | None:
    for battle in state.battles:
        for _, fighter in battle.fighters():
            if card_id in fighter.enhancements:
                return fighter.card
    return None


def _numbers_played(state: State, plays: list[Play], effect: Effect, data: dict[str, Any], config: RuleConfig,
                    report: CrosscheckReport | None) -> list[Disagreement]:
    """The amount a numbers redirect moves (and that it is one redirect, or two for 'both')."""
    found: list[Disagreement] = []
    seen: set[str] = set()
    for play in plays:
        if not play.targets or (effect is Effect.REDIRECT_BOTH and len(play.targets) != 1):
            continue
        target = play.targets[0] if effect is Effect.REDIRECT_NUMBERS else state.record(int(play.targets[0][1:])).card
        if target in seen:
            continue
        seen.add(target)
        after = step(state, play, config)
        new = [r for r in after.records if r.effect is Effect.REDIRECT_NUMBERS and r.id >= state.next_record]
        if report:
            report.count("rd-amount")
        card = state.card(target)
        (moved, _, _) = transfer(config_key(config), (card.strength, card.toughness), state.card(play.card).stated_amount,
                                  (0, 0), (0, 0), _IN_A_BATTLE, _IN_A_BATTLE)
        model = [r.amount for r in new if r.status is RecordStatus.ACTIVE]
        if model != [moved]:
            found.append(Disagreement("rd-amount", data, play.text(), [moved], model,
                                      ("RED-RD-NUMBERS-TRANSFER", "RED-RD-NUMBERS-ONGOING", "RED-RD-BOTH-IS-TWO")))
        found += _numbers_target(state, play, target, after, new, data, config, report)
    return found


def _numbers_target(state: State, play: Play, target: str, after: State, new: list[Any], data: dict[str, Any],
                    config: RuleConfig, report: CrosscheckReport | None) -> list[Disagreement]:
    """What a numbers redirect targets (the card printing them, RED-RD-NUMBERS-TARGET) and which card
    gets them (the redirecting card, RED-RD-PURPOSE). The model's beneficiary is read off its own
    numbers: the card whose numbers rose by the amount moved (with nothing moved, or with a gain
    the model does not count now, the card its ongoing record credits)."""
    v, query = rd.RDVars.make(), rd_query(config_key(config))
    if report:
        report.count("rd-numbers-target")
    smt = query.allowed([v.what == rd.NUMBERS, v.allowed, v.both == (state.card(play.card).ability is Effect.REDIRECT_BOTH)],
                        [v.target_is_card, v.beneficiary])
    ongoing = [r for r in new if r.effect is Effect.REDIRECT_NUMBERS and r.status is RecordStatus.ACTIVE]
    gained = tuple(a - b for a, b in zip(model_numbers(after, play.card, config), model_numbers(state, play.card, config)))
    # with nothing moved, or a gain that does not count now (the target outside the redirecting card's
    # battle, decision rd-numbers-which-battle = same-battle-only), the record says whom it credits
    suspended = any(not model_gain_counts(after, r.targets[0], r.card, config) for r in ongoing)
    credited = any(r.card == play.card for r in ongoing) if suspended or all(r.amount == (0, 0) for r in ongoing) else (
        any(gained == r.amount for r in ongoing))
    model = {(all(_kind_of(state, r.targets[0]) == rd.NUMBERS for r in ongoing) and bool(ongoing),
              rd.REDIRECTING_CARD if credited else rd.TARGET_ITSELF)}
    if model != smt:
        return [Disagreement("rd-numbers-target", data, f"{play.text()} ({target})", sorted(smt), sorted(model),
                             ("RED-RD-NUMBERS-TARGET", "RED-RD-PURPOSE"))]
    return []


def crosscheck_phase_change(before: State, action: Action, after: State, config: RuleConfig = DEFAULT,
                            report: CrosscheckReport | None = None, log: Log | None = None) -> list[Disagreement]:
    """Ongoing numbers redirects: still active while their phase lasts, the end of their battle
    included, over once it has ended (RED-RD-UNTIL-END-OF-PHASE). z3 derives whether the phase has
    ended from raw facts: the turn and phase the redirect was used in, as the encoding's ``log`` of
    the play holds it (:func:`oracle.crosscheck.redemption.position.played_in_of`; never the model's
    ``lasts_until``, which a starting position's author writes and the model derives along a play),
    and the position's turn and phase after the action
    (:func:`specs.smt.redemption.position.phase_over`). The model's answer: the record is still in
    the position after, and active (a record gone with its battle counts as ended)."""
    found: list[Disagreement] = []
    active = [r for r in before.records if r.effect is Effect.REDIRECT_NUMBERS and r.status is RecordStatus.ACTIVE]
    if not active:
        return found
    v, query = rd.RDVars.make(), rd_query(config_key(config))
    data = None
    kept: list[tuple[str, int, int]] = []
    played_in = played_in_of(log if log is not None else {}, before)
    for record in active:
        turn, phase = played_in.get(record.id, (before.turn, before.phase))
        ended = pos.phase_over(turn, pos.phase_number(phase.value), after.turn, pos.phase_number(after.phase.value))
        regained = _left_a_pile(before, after, record.targets[0])
        smt = query.allowed([v.what == rd.NUMBERS, v.allowed, v.phase_ended == ended, v.place == rd.ACTIVE_BATTLE,
                             v.regained == regained], [v.active])
        if report:
            report.count("rd-expiry")
            if before.battles and not after.battles:
                report.count("rd-expiry-battle-end")
        now = next((r for r in after.records if r.id == record.id), None)
        if now is not None and now.status in (RecordStatus.NEGATED, RecordStatus.PENDING):
            continue
        model = now is not None and now.status is RecordStatus.ACTIVE
        if {(model,)} != smt:
            data = data or before.to_json()
            found.append(Disagreement("rd-expiry", data, action.text(), sorted(smt), model,
                                      ("RED-RD-UNTIL-END-OF-PHASE", "RED-RD-NUMBERS-ONGOING")))
        elif not model:
            target = record.targets[0]
            printed = (before.card(target).strength, before.card(target).toughness)
            kept.append((target, *kept_after_lapse(config_key(config), printed, before.card(record.card).stated_amount,
                                                   regained and not z3.is_true(z3.simplify(ended)))))
    return found + _compare_kept(before, action, after, kept, report)


def _left_a_pile(before: State, after: State, card_id: str) -> bool:
    """Raw positions only: ``card_id`` was in a discard pile before the step and is in none after it
    (a heal out of the pile, the only way a character leaves one)."""
    return any(card_id in z.discard for z in before.zones) and not any(card_id in z.discard for z in after.zones)


def _compare_kept(before: State, action: Action, after: State, kept: list[tuple[str, int, int]],
                  report: CrosscheckReport | None) -> list[Disagreement]:
    """The reductions the ended redirects leave, by the encoding (``kept``, in play order), against the
    ones the model added to the position (``reduced``); no-op moves (0/0) are not compared."""
    if not kept:
        return []
    if report:
        report.count("rd-lapse")
    smt = [k for k in kept if k[1:] != (0, 0)]
    model = [k for k in after.reduced[len(before.reduced):] if k[1:] != (0, 0)]
    if smt == model:
        return []
    return [Disagreement("rd-lapse", before.to_json(), action.text(), smt, model, ("RED-RD-UNTIL-END-OF-PHASE",))]
