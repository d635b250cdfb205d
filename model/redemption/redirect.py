"""Redirect abilities (seed 002): redirecting an interrupted ability, or a card's numbers.

Text forms: ``play R on C -> #n T`` redirects the ability of play record ``n``
to new target ``T`` (RED-RD-ABILITY-TARGET); ``play R on C -> X`` redirects
the numbers of card ``X`` (RED-RD-NUMBERS-TARGET); a card that redirects both
takes ``-> #n [T]`` and becomes two redirects (RED-RD-BOTH-IS-TWO).

Model reading (decision ``rd-redirected-ability-timing``): a redirected ability is
taken over at once by the redirecting player, who carries it out with the new targets
(it stops being pending);
special initiative and the heal window then apply to it as to any ability.

The new targets of a redirected ability are those of the redirected card's own
ability, which only the dispatcher knows for every kind of card: it passes its
``target_options`` in (:data:`model.redemption.handoff.TargetOptions`). The
dispatcher also carries out the redirected ability, and ends ongoing redirects
at the end of each phase (:func:`expire`; the ``numbers-redirect-expiry`` extension
point may carry one on to the end of the turn).
"""

from __future__ import annotations

from cardrules.model.fastcopy import replace

from cardrules.model.errors import IllegalAction
from cardrules.model.redemption.actions import Play
from cardrules.model.extension import extension_point, one_of
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.handoff import TargetOptions
from cardrules.model.redemption.ops import lasting, set_record
from cardrules.model.redemption.state import Battle, Effect, Phase, PlayRecord, RecordStatus, State
from cardrules.specs.catalogue.registry import implements

REDIRECTS: frozenset[Effect] = frozenset({Effect.REDIRECT_ABILITY, Effect.REDIRECT_NUMBERS, Effect.REDIRECT_BOTH})


@implements("RED-RD-TARGETS-IN-BATTLE")
def scope(state: State, config: RuleConfig) -> tuple[Battle, ...]:
    """The battles whose cards a redirect may target: the active one (decision
    ``rd-in-battle`` = active-battle) or any on the stack (RED-RD-TARGETS-IN-BATTLE)."""
    if not state.battles:
        return ()
    return state.battles if config.option("rd-in-battle") == "any-battle" else (state.battles[-1],)


def _attached_in(battles: tuple[Battle, ...]) -> set[str]:
    return {e for b in battles for _, f in b.fighters() for e in f.enhancements}


@implements("RED-RD-ONLY-INTERRUPTED", "RED-RD-ABILITY-TARGET", "RED-RD-TARGETS-IN-BATTLE")
def redirectable(state: State, config: RuleConfig) -> tuple[PlayRecord, ...]:
    """Abilities that may be redirected now: interrupted (pending) ones
    (RED-RD-ONLY-INTERRUPTED) whose card is in battle (RED-RD-TARGETS-IN-BATTLE)."""
    attached = _attached_in(scope(state, config))
    return tuple(r for r in state.records if r.status is RecordStatus.PENDING and r.card in attached)


@implements("RED-RD-NEW-TARGETS", "RED-RD-SAME-TARGET-ALLOWED", "RED-RD-TARGET-PERSPECTIVE")
def new_targets(
    state: State, player: int, record: PlayRecord, config: RuleConfig, targets_of: TargetOptions | None
) -> tuple[tuple[str, ...], ...]:
    """The targets the redirecting ``player`` may choose for ``record``'s ability
    (RED-RD-NEW-TARGETS): every target legal for it as if ``player`` were using
    it (RED-RD-TARGET-PERSPECTIVE), the old target included (RED-RD-SAME-TARGET-ALLOWED).
    ``targets_of`` is the dispatcher's target options of any card."""
    if targets_of is None:
        raise ValueError("redirecting an ability needs the dispatcher's target options (targets_of)")
    return targets_of(state, player, record.card, config)


@implements("RED-RD-NUMBERS-TARGET", "RED-RD-TARGETS-IN-BATTLE", "RED-RD-NUMBERS-NO-INTERRUPT")
def numbers_targets(state: State, config: RuleConfig) -> tuple[tuple[str], ...]:
    """Cards whose numbers may be redirected: any character or enhancement in
    battle (RED-RD-NUMBERS-TARGET, RED-RD-TARGETS-IN-BATTLE), interrupted or
    not (RED-RD-NUMBERS-NO-INTERRUPT)."""
    cards = {f.card for b in scope(state, config) for _, f in b.fighters()} | _attached_in(scope(state, config))
    return tuple((c,) for c in sorted(cards))


@implements("RED-RD-TWO-KINDS", "RED-RD-BOTH-IS-TWO", "RED-RD-PURPOSE")
def redirect_options(
    state: State, player: int, effect: Effect, config: RuleConfig, targets_of: TargetOptions | None = None
) -> tuple[tuple[str, ...], ...]:
    """Every legal target tuple for a redirect card of ``player``: an ability or
    numbers (RED-RD-TWO-KINDS), or both, as two redirects each with its own
    rule (RED-RD-BOTH-IS-TWO): ``#n`` alone redirects only the numbers of
    record ``n``'s card; ``#n T`` also its (interrupted) ability, with the new
    targets ``targets_of`` gives (needed unless ``effect`` redirects numbers)."""
    if effect is Effect.REDIRECT_NUMBERS:
        return numbers_targets(state, config)
    out: list[tuple[str, ...]] = []
    pending = {r.id for r in redirectable(state, config)}
    if effect is Effect.REDIRECT_ABILITY:
        for record in redirectable(state, config):
            out.extend((f"#{record.id}", *t) for t in new_targets(state, player, record, config, targets_of))
        return tuple(out)
    in_battle = {c for (c,) in numbers_targets(state, config)}
    for record in state.records:
        if record.card in in_battle and record.status is not RecordStatus.BLANKED and record.effect not in REDIRECTS:
            out.append((f"#{record.id}",))
            if record.id in pending:
                out.extend((f"#{record.id}", *t) for t in new_targets(state, player, record, config, targets_of))
    return tuple(dict.fromkeys(out))


def explain(state: State, player: int, play: Play, config: RuleConfig) -> IllegalAction:
    """The clause an illegal redirect target breaks."""
    text = play.text()
    effect = state.card(play.card).ability
    first = play.targets[0] if play.targets else ""
    if effect is Effect.REDIRECT_NUMBERS:
        return IllegalAction(text, f"{first or '(none)'} is not a card in battle", ("RED-RD-TARGETS-IN-BATTLE", "RED-RD-NUMBERS-TARGET"))
    if not first.startswith("#") or not first[1:].isdigit():
        return IllegalAction(text, "a redirect of an ability targets an ability '#n'", ("RED-RD-ABILITY-TARGET",))
    try:
        record = state.record(int(first[1:]))
    except KeyError:
        return IllegalAction(text, f"there is no ability {first}", ("RED-RD-ABILITY-TARGET",))
    if record.card not in _attached_in(scope(state, config)):
        return IllegalAction(text, f"ability {first} is not in battle", ("RED-RD-TARGETS-IN-BATTLE",))
    if record.status is not RecordStatus.PENDING and (effect is Effect.REDIRECT_ABILITY or len(play.targets) > 1):
        return IllegalAction(text, f"ability {first} is not interrupted", ("RED-RD-ONLY-INTERRUPTED",))
    return IllegalAction(
        text,
        f"{' '.join(play.targets[1:]) or '(none)'} is not a legal target for player {player}",
        ("RED-RD-TARGET-PERSPECTIVE", "RED-RD-NEW-TARGETS"),
    )


@implements("RED-RD-NUMBERS-TRANSFER", "RED-RD-NUMBERS-ONGOING")
def amount(state: State, redirect_card: str, target: str, config: RuleConfig) -> tuple[int, int]:
    """How much the numbers redirect card ``redirect_card`` moves from ``target``
    (RED-RD-NUMBERS-TRANSFER): the amount the card states (``Card.stated_amount``), each of
    strength and toughness at most the target's printed value (decision ``rd-stated-exceeds`` =
    up-to-printed; stated-in-full: the whole stated amount); with none stated, the target's
    full printed numbers (decision ``rd-amount`` = all-numbers) or nothing (stated-only)."""
    stated = state.card(redirect_card).stated_amount
    card = state.card(target)
    if stated is not None:
        if config.option("rd-stated-exceeds") == "stated-in-full":
            return stated
        return (min(stated[0], card.strength), min(stated[1], card.toughness))
    if config.option("rd-amount") == "stated-only":
        return (0, 0)
    return (card.strength, card.toughness)


@implements("RED-RD-ABILITY-INSTANT", "RED-RD-CARRIER-CHANGES", "RED-RD-LOCATION-UNCHANGED", "RED-RD-PURPOSE")
def take_over(state: State, redirect: PlayRecord, config: RuleConfig) -> tuple[State, PlayRecord]:
    """Redirect an interrupted ability, once (RED-RD-ABILITY-INSTANT): it gets the
    new targets and the redirecting player causes and carries it out, while it
    is still played by the same player (RED-RD-CARRIER-CHANGES) and its card
    stays on the character it was played on (RED-RD-LOCATION-UNCHANGED).
    Returns the redirected record: ready to take effect now (decision ``rd-redirected-ability-timing`` =
    at-once), or still pending, to take effect for the redirecting player when pending abilities
    reactivate (on-reactivation; the dispatcher then goes on with the battle)."""
    record = state.record(int(redirect.targets[0][1:]))
    now = config.option("rd-redirected-ability-timing") == "at-once"
    taken = replace(record, targets=redirect.targets[1:], carrier=redirect.player,
                    status=RecordStatus.ANNOUNCED if now else RecordStatus.PENDING)
    state = set_record(state, taken)
    return state, taken


@implements("RED-RD-NUMBERS-TRANSFER", "RED-RD-NUMBERS-NO-INTERRUPT", "RED-RD-LOCATION-UNCHANGED", "RED-RD-UNTIL-END-OF-PHASE")
def start_numbers(state: State, redirect: PlayRecord, target: str, config: RuleConfig) -> State:
    """Redirect the numbers of ``target`` onto the redirect card: an ongoing
    record read by :func:`model.redemption.numbers.numbers`, lasting until the end of the
    current phase (``lasts_until``, RED-RD-UNTIL-END-OF-PHASE; at its end the
    ``numbers-redirect-expiry`` extension point may carry it on, :func:`at_phase_end`); no card moves."""
    return set_record(state, replace(redirect, effect=Effect.REDIRECT_NUMBERS, targets=(target,), amount=amount(state, redirect.card, target, config),
                                     status=RecordStatus.ACTIVE, lasts_until=(state.turn, state.phase)))


@implements("RED-RD-BOTH-IS-TWO")
def split_both(state: State, redirect: PlayRecord, config: RuleConfig) -> tuple[State, PlayRecord | None]:
    """A redirect of both ability and numbers is two redirect abilities
    (RED-RD-BOTH-IS-TWO): a numbers redirect of the record's card, always, and
    an ability redirect when new targets are given (legal only if interrupted).
    Returns the ability redirect record, if any."""
    record = state.record(int(redirect.targets[0][1:]))
    state = set_record(state, replace(redirect, status=RecordStatus.ACTIVE))
    numbers_record = replace(redirect, id=state.next_record, effect=Effect.REDIRECT_NUMBERS, targets=(record.card,),
                             amount=amount(state, redirect.card, record.card, config), status=RecordStatus.ACTIVE,
                             lasts_until=(state.turn, state.phase))
    state = replace(state, records=(*state.records, numbers_record), next_record=state.next_record + 1)
    if len(redirect.targets) < 2:
        return state, None
    ability_record = replace(redirect, id=state.next_record, effect=Effect.REDIRECT_ABILITY, status=RecordStatus.ACTIVE)
    state = replace(state, records=(*state.records, ability_record), next_record=state.next_record + 1)
    return state, ability_record


FOLLOWING: dict[Phase, Phase] = dict(zip(tuple(Phase), tuple(Phase)[1:]))
"""Each phase of a turn and the phase after it (:class:`Phase` lists them in turn order, RED-BASE-TURN-PHASES);
the turn's last phase has none."""

EXPIRIES: tuple[str, ...] = ("end-of-phase", "end-of-turn")
"""The answers of the ``numbers-redirect-expiry`` extension point: the redirect ends now, at the end of the
phase it is in force in, or it goes on to the end of the turn (the end of the turn's last phase)."""


@extension_point("redemption", "numbers-redirect-expiry", "When an ongoing numbers redirect ends; asked at the "
                 "end of each phase it is in force in, given the state (in the phase that is ending), the "
                 "redirect's play record (its card, target and amount moved) and the rule configuration; returns "
                 "'end-of-phase' (it ends with this phase) or 'end-of-turn' (it goes on to the end of the turn).",
                 "RED-RD-UNTIL-END-OF-PHASE", "RED-RD-NUMBERS-ONGOING",
                 parameters=("state", "record", "config"), returns=one_of(*EXPIRIES))
@implements("RED-RD-UNTIL-END-OF-PHASE")
def catalogue_expiry(state: State, record: PlayRecord, config: RuleConfig) -> str:
    """``end-of-phase``: an ongoing redirect stops at the end of the phase it was used in unless its card
    says otherwise (RED-RD-UNTIL-END-OF-PHASE), and no card of the model says otherwise."""
    return "end-of-phase"


@implements("RED-RD-UNTIL-END-OF-PHASE", "RED-RD-NUMBERS-ONGOING")
def at_phase_end(state: State, record: PlayRecord, config: RuleConfig) -> PlayRecord:
    """An ongoing redirect at the end of the phase it is in force in (the ``numbers-redirect-expiry``
    extension point): it ends (status expired), or, when it lasts the turn and this is not the turn's last
    phase, it goes on into the next phase (``lasts_until`` names that phase)."""
    ends = config.hook("numbers-redirect-expiry", catalogue_expiry)(state, record, config)
    if ends == "end-of-turn" and state.phase in FOLLOWING:
        return replace(record, lasts_until=(state.turn, FOLLOWING[state.phase]))
    return replace(record, status=RecordStatus.EXPIRED)


@implements("RED-RD-UNTIL-END-OF-PHASE", "RED-RD-NUMBERS-ONGOING")
def ended(state: State, record: PlayRecord, config: RuleConfig) -> State:
    """Put back a numbers redirect's record, which may have just ended (status expired). Decision
    ``rd-lapse-reduction``: when it ends, lapse-ends-both: the target has its numbers back (nothing is
    moved any more); reduction-stays: the move was made once, the target keeps the reduction
    (``State.reduced``, read by :func:`model.redemption.numbers.numbers`)."""
    state = set_record(state, record)
    if record.status is RecordStatus.EXPIRED and config.option("rd-lapse-reduction") == "reduction-stays":
        state = replace(state, reduced=(*state.reduced, (record.targets[0], *record.amount)))
    return state


@implements("RED-RD-NUMBERS-IN-BATTLE-ONLY")
def lose_left_targets(state: State, config: RuleConfig) -> State:
    """Decision ``rd-numbers-loss-lasting``. while-out: nothing happens here, the gain simply does not
    count while the target is out of battle (:func:`model.redemption.numbers.gain_counts`).
    lost-for-good: a numbers redirect whose target has left every battle ends at once, as if it lapsed
    (status expired, so the target's reduction ends too, decision ``rd-lapse-reduction``; dropped with the
    other ended records outside battle): if the target enters a battle again, nothing is moved."""
    if config.option("rd-numbers-loss-lasting") == "while-out":
        return state
    for record in state.records:
        if lasting(record) and not state.in_any_battle(record.targets[0]):
            state = ended(state, replace(record, status=RecordStatus.EXPIRED), config)
    if not state.battles:
        state = replace(state, records=tuple(r for r in state.records if lasting(r)))
    return state


@implements("RED-RD-UNTIL-END-OF-PHASE")
def expire(state: State, config: RuleConfig = DEFAULT) -> State:
    """At the end of a phase every ongoing redirect used in it ends (RED-RD-UNTIL-END-OF-PHASE:
    ``lasts_until`` is this turn's phase; a record without one is of the current phase), unless the
    ``numbers-redirect-expiry`` extension point carries it into the next phase (:func:`at_phase_end`). An
    ended record is marked expired while a battle is on, and dropped outside battle, where the records hold
    only the ongoing redirects that outlived their battle (:func:`model.redemption.ops.lasting`)."""
    now = (state.turn, state.phase)
    for record in state.records:
        if lasting(record) and record.lasts_until in (None, now):
            state = ended(state, at_phase_end(state, record, config), config)
    if not state.battles:
        state = replace(state, records=tuple(r for r in state.records if lasting(r)))
    return state
