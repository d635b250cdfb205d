"""Heals, model against the heal encoding (:func:`crosscheck_heals`; see :mod:`oracle.crosscheck.redemption.decisions`).

For every position that offers a heal occasion (a heal window: Battle Resolution's or an ability's
discard; initiative in a battle; no decision pending, outside battle), every player who may act
there (the window's or the prompt's player; outside battle every player) and every candidate heal
(a healing enhancement of that player's hand or any character with a heal ability, on any card in a
territory, fighting in a battle or in a discard pile), the heal use situation
(:mod:`specs.smt.redemption.heal_use`) is asked whether the heal is allowed, and the model whether
it offers it (a ``heal T with X`` action, or in battle ``play X on H -> T``). For every heal the
model offers and z3 allows, both answer what it does: whose territory a healed discard goes to, the
statuses and decrease left, whether the discard completed and whether a pile was searched, whether
a numbers redirect or a kept reduction still lowers it (each compared where the clauses force one
value), the effects tied to a status ended, the cards it had back on it, the heal naming its target
and leaving nothing in effect, and the discarding
ability waiting while its window is open.

z3 gets the raw position only (:func:`oracle.crosscheck.redemption.position.raw_card`: raw places, printed
owners, the battle records' players; printed card data; the statuses and decreases lying on
cards; whose decision is pending and which characters a heal window is about) and the encoding's
own log of the characters that entered a discard pile this turn and from where
(:class:`HealLogs`, carried along the play like :class:`~oracle.crosscheck.redemption.position.Logs`),
never the model's ``healable``, its discard events, control or origins.

A healing enhancement the model cannot play in battle for want of a host (no character of the
player's side in the active battle of its alignment and brigade: RED-BASE-ENHANCEMENTS, which no
heal clause reads) is counted ``heal-refused-base-rule``, not compared.
"""

from __future__ import annotations

import weakref
from functools import lru_cache
from typing import Any, Iterable

from cardrules.model.redemption.abilities import hosts as model_hosts
from cardrules.model.redemption.actions import Action, Heal, Play
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.engine import legal_actions, step
from cardrules.model.redemption.healable import holder as model_holder
from cardrules.model.redemption.state import Card, CardType, Effect, PromptKind, RecordStatus, State
from cardrules.oracle.crosscheck.counts import cached_with_notes, comparison
from cardrules.oracle.crosscheck.disagreement import Disagreement
from cardrules.oracle.crosscheck.redemption.common import CrosscheckReport, Key, Query, config_key, rule_set_of
from cardrules.oracle.crosscheck.redemption.position import Log, Logs, initial_log, raw_card, raw_stack
from cardrules.specs.catalogue.rulesets import clauses_in_force
from cardrules.specs.smt.redemption import heal as h
from cardrules.specs.smt.redemption import heal_use as hu
from cardrules.specs.smt.redemption import position as pos

HEAL_CLAUSES = ("RED-HEAL-HEALABLE", "RED-HEAL-PREV-HEALABLE", "RED-HEAL-WINDOW", "RED-HEAL-WINDOW-MEANS",
                "RED-HEAL-AT-RESOLUTION", "RED-HEAL-ENH-PHASES", "RED-HEAL-CHARACTER-TC")
HEAL_WORDS = frozenset({"heal", "restore"})


# --- the encoding's log of this turn's discards -------------------------------------------------------------

HealLog = frozenset[tuple[str, bool]]
"""(card, came from a hand or deck) for each card that entered a discard pile this turn and is still there."""


class HealLogs:
    """The heal encoding's log of every position of one exploration, carried along the model's steps
    from the first position (a position no recorded step reached starts with an empty log: its
    discard piles hold nothing discarded this turn)."""

    def __init__(self) -> None:
        self.by_state: dict[State, HealLog] = {}

    def of(self, state: State) -> HealLog:
        return self.by_state.setdefault(state, frozenset())

    def record(self, before: State, after: State, log: Log) -> None:
        if after in self.by_state:
            return
        if after.turn != before.turn:
            self.by_state[after] = frozenset()
            return
        entries = {card: hand for card, hand in self.of(before) if _where(after, card, log) == pos.DISCARD}
        for card in after.cards:
            entered, from_hand = hu.log_discards(raw_card(before, card.id, log), raw_card(after, card.id, log))
            if entered:
                entries[card.id] = from_hand
        self.by_state[after] = frozenset(entries.items())


_HEAL_LOGS: "weakref.WeakKeyDictionary[Logs, HealLogs]" = weakref.WeakKeyDictionary()


def heal_logs(logs: Logs) -> HealLogs:
    """The heal log carried beside ``logs`` (one per exploration)."""
    found = _HEAL_LOGS.get(logs)
    if found is None:
        found = _HEAL_LOGS[logs] = HealLogs()
    return found


def _where(state: State, card_id: str, log: Log) -> int:
    return raw_card(state, card_id, log)["where"]


# --- inputs -----------------------------------------------------------------------------------------------


def _printed(card: Card) -> hu.Printed:
    return hu.Printed(card.type is CardType.CHARACTER, card.type is CardType.ENHANCEMENT,
                      card.alignment.value if card.alignment else "", card.brigades, card.territory_class,
                      card.ability.value if card.ability else "")


def _raw(state: State, card_id: str, log: Log) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(raw_card(state, card_id, log).items()))


def occasion(state: State) -> tuple[tuple[int, ...], int, tuple[str, ...]]:
    """(players who may heal now, window: 0 none / 1 an ability's / 2 Battle Resolution's, the
    characters the window is about), read off whose decision the position waits for."""
    prompt = state.prompt
    if state.winner is not None:
        return (), 0, ()
    if prompt is None:
        return tuple(range(state.players)), 0, ()
    if prompt.kind is PromptKind.HEAL_WINDOW:
        return (prompt.player,), 2 if prompt.record < 0 else 1, prompt.cards
    if prompt.kind is PromptKind.PLAY:
        return (prompt.player,), 0, ()
    return (), 0, ()


@lru_cache(maxsize=32)
def _heal_query(key: Key) -> tuple[Query, h.HealVars, hu.UseVars]:
    rs = rule_set_of(RuleConfig(heal_version=key[0], variants=key[1], broken=key[3]))
    situation, v, u = hu.heal_use_situation(rs)
    return Query(situation, clauses_in_force("heal", rs), key[2]), v, u


Fixed = tuple[tuple[tuple[int, int], ...], tuple[int, ...], hu.UseFacts]


def _fixed(state: State, user: int, window: int, pending: tuple[str, ...], target: str, healer: str,
           log: Log, discards: HealLog) -> Fixed:
    logged = dict(discards)
    facts = hu.UseFacts(
        user=user, phase=state.phase.value, window=window, target=_raw(state, target, log),
        healer=_raw(state, healer, log), target_printed=_printed(state.card(target)),
        healer_printed=_printed(state.card(healer)), target_pending=target in pending,
        healer_pending=healer in pending,
        statuses=frozenset(s.value for c, s in state.statuses if c == target),
        target_decreased=target in state.decreased, healer_decreased=healer in state.decreased,
        discarded_this_turn=target in logged, from_hand_or_deck=logged.get(target, False),
        target_lowered=_lowered(state, target))
    return (*raw_stack(state), facts)


def _lowered(state: State, card_id: str) -> bool:
    """A numbers redirect in force names the card (its record, as played), or a reduction kept from one lies on it."""
    return any(r.effect is Effect.REDIRECT_NUMBERS and r.status is RecordStatus.ACTIVE and r.targets[:1] == (card_id,)
               for r in state.records) or any(c == card_id for c, _, _ in state.reduced)


@cached_with_notes(maxsize=100_000)
def _allowed(key: Key, fixed: Fixed) -> bool:
    query, v, u = _heal_query(key)
    rs = rule_set_of(RuleConfig(heal_version=key[0], variants=key[1], broken=key[3]))
    inputs = hu.fix_inputs(v, u, fixed[2], fixed[0], fixed[1], rs)
    return (True,) in query.allowed(inputs, [v.healed])


RESULTS = ("destination", "poisoned_after", "diseased_after", "paralyzed_after", "decreased_after",
           "tied_effects_end", "discard_completed", "pile_searched", "attachments_back", "targeted", "lasting",
           "discarder_suspended", "lowered_after")
"""The heal situation's outputs compared on a heal taken (where the clauses force one value)."""


@cached_with_notes(maxsize=100_000)
def _results(key: Key, fixed: Fixed) -> dict[str, frozenset[Any]]:
    query, v, u = _heal_query(key)
    rs = rule_set_of(RuleConfig(heal_version=key[0], variants=key[1], broken=key[3]))
    inputs = hu.fix_inputs(v, u, fixed[2], fixed[0], fixed[1], rs) + [v.healed]
    return {name: frozenset(x for (x,) in query.allowed(inputs, [getattr(v, name)], limit=8)) for name in RESULTS}


# --- the model's answers --------------------------------------------------------------------------------


def _model_heals(state: State, legal: Iterable[Action]) -> dict[tuple[int, str, str], Action]:
    """(user, target, healer) -> the model's action using that heal (the user: the model's holder
    of the healer, or the player of the prompt for a play)."""
    out: dict[tuple[int, str, str], Action] = {}
    for a in legal:
        if isinstance(a, Heal):
            user = model_holder(state, a.source)
            out.setdefault((-1 if user is None else user, a.target, a.source), a)
        elif isinstance(a, Play) and (ability := state.card(a.card).ability) is not None and \
                ability.value in HEAL_WORDS and state.prompt is not None:
            for t in a.targets:
                out.setdefault((state.prompt.player, t, a.card), a)
    return out


TIED = frozenset({"poison", "disease", "paralyze", "decrease"})
"""Effects whose ongoing result depends on a status or decrease (RED-HEAL-CLEARS-STATUS)."""


def _model_results(before: State, action: Heal, after: State, log: Log) -> dict[str, Any]:
    """What the model's heal did, in the situation's outputs: the player whose territory the
    target is in (-1 elsewhere), statuses and decrease left, tied effects still active, a discard
    counted, a pile searched, the cards it had when discarded back on it, the heal naming its
    target, a heal record left in effect, the discarding ability waiting in an ability's window."""
    target = action.target
    raw = raw_card(after, target, log) if after.has_card(target) else {"where": pos.NOWHERE, "holder": -1}
    statuses = {s.value for c, s in after.statuses if c == target}
    new_events = after.discards[len(before.discards):] if after.discards[:len(before.discards)] == before.discards \
        else after.discards
    earlier = [e for e in before.discards if e.card == target]
    returning = [e for e in earlier[-1].enhancements if any(e in z.discard for z in before.zones)] if earlier else []
    prompt = before.prompt
    suspended = (prompt is not None and prompt.kind is PromptKind.HEAL_WINDOW and prompt.record >= 0
                 and before.record(prompt.record).status is RecordStatus.ANNOUNCED)
    return {
        "destination": raw["holder"] if raw["where"] == pos.TERRITORY_LIST else -1,
        "poisoned_after": "poisoned" in statuses, "diseased_after": "diseased" in statuses,
        "paralyzed_after": "paralyzed" in statuses, "decreased_after": target in after.decreased,
        "tied_effects_end": not any(r.status is RecordStatus.ACTIVE and r.effect is not None and r.effect.value in TIED
                                    and r.targets[:1] == (target,) for r in after.records),
        "discard_completed": any(e.card == target for e in new_events),
        "pile_searched": any(s.target == target for s in after.searches[len(before.searches):]),
        "attachments_back": all((e, target) in after.placed for e in returning),
        "targeted": action.target == target,
        "lasting": any(r.effect is not None and r.effect.value in HEAL_WORDS and r.status is RecordStatus.ACTIVE
                       for r in after.records[len(before.records):]),
        "discarder_suspended": suspended,
        "lowered_after": _lowered(after, target),
    }


def _candidates(state: State, user: int, log: Log) -> tuple[list[str], list[str]]:
    """(targets, healers): every card in a territory, in a battle or in a discard pile; the user's
    healing enhancements in hand and every character with a heal ability."""
    targets = sorted(c.id for c in state.cards
                     if raw_card(state, c.id, log)["where"] in (pos.TERRITORY_LIST, pos.FIGHTING, pos.DISCARD))
    healers = sorted(c.id for c in state.cards if c.ability is not None and c.ability.value in HEAL_WORDS and (
        c.type is CardType.CHARACTER or (c.type is CardType.ENHANCEMENT and c.id in state.zones[user].hand)))
    return targets, healers


def crosscheck_heals(state: State, config: RuleConfig = DEFAULT, report: CrosscheckReport | None = None,
                     log: Log | None = None, discards: HealLog = frozenset()) -> list[Disagreement]:
    """Compare the heals allowed in ``state`` and what each does (see the module docstring). ``log``
    and ``discards``: the encodings' logs of the play so far (by default a starting position)."""
    log = initial_log(state) if log is None else log
    key = config_key(config)
    found: list[Disagreement] = []
    legal = legal_actions(state, config)
    model = _model_heals(state, legal)
    users, window, pending = occasion(state)
    data: dict[str, Any] | None = None
    compared: set[tuple[int, str, str]] = set()
    for user in users:
        targets, healers = _candidates(state, user, log)
        for healer in healers:
            card = state.card(healer)
            in_battle_play = state.prompt is not None and state.prompt.kind is PromptKind.PLAY
            if in_battle_play and card.type is CardType.ENHANCEMENT and not model_hosts(state, user, healer):
                if report:
                    report.count("heal-refused-base-rule")
                continue
            for target in targets:
                compared.add((user, target, healer))
                with comparison():
                    fixed = _fixed(state, user, window, pending, target, healer, log, discards)
                    allowed = _allowed(key, fixed)
                    offered = model.get((user, target, healer))
                    if report:
                        report.count("heal-uses")
                        if offered is not None:
                            report.count("heal-offered")
                    if allowed != (offered is not None):
                        data = data or state.to_json()
                        found.append(Disagreement("heal-allowed", data, f"heal {target} with {healer} (player {user})",
                                                  allowed, offered is not None, HEAL_CLAUSES))
                        continue
                if isinstance(offered, Heal):
                    with comparison():
                        found += _compare_results(state, offered, config, key, fixed, log, report)
    for (user, target, healer), action in sorted(model.items(), key=lambda item: item[0]):
        if (user, target, healer) not in compared:
            data = data or state.to_json()
            found.append(Disagreement("heal-allowed", data, action.text(), False, True, HEAL_CLAUSES))
    return found


def _compare_results(state: State, action: Heal, config: RuleConfig, key: Key, fixed: Fixed, log: Log,
                     report: CrosscheckReport | None) -> list[Disagreement]:
    after = step(state, action, config)
    mine = _model_results(state, action, after, log)
    theirs = _results(key, fixed)
    place = fixed[2]
    from_discard = place.target_pending or dict(place.target)["where"] == pos.DISCARD
    out: list[Disagreement] = []
    for name in RESULTS:
        answers = theirs[name]
        if name == "destination" and not from_discard:
            continue
        if name == "discarder_suspended" and place.window != 1:
            continue  # only an ability's discard has a discarding ability to wait (RED-HEAL-WINDOW-SUSPENDS)
        if report:
            report.count("heal-results" if len(answers) == 1 else "heal-results-open")
        if mine[name] not in answers:
            out.append(Disagreement(f"heal-{name.replace('_', '-')}", state.to_json(), action.text(), sorted(answers),
                                    mine[name], HEAL_CLAUSES))
    return out


def clear_heal_caches() -> None:
    for cached in (_heal_query, _allowed, _results):
        cached.cache_clear()


__all__ = ["HealLogs", "clear_heal_caches", "crosscheck_heals", "heal_logs", "occasion"]
