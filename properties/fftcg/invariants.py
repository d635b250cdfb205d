"""FFTCG party-attack properties, each stated once (see :mod:`properties.core`).

Checks are written from the clauses, reading the state only; they do not call
the model's rule functions (a check that asks the model whether the model is
right proves nothing). The few helpers reused from
:mod:`properties.fftcg.strategies` are themselves independent invariant
checks.
"""

from __future__ import annotations

from cardrules.model.fftcg.actions import Action
from cardrules.model.fftcg.state import ELEMENTS, State, Step
from cardrules.properties.core import Property, declared, state_property, transition_property
from cardrules.properties.fftcg.game import FftcgGame
from cardrules.properties.fftcg.strategies import split_violations, zone_violations

GAME = "fftcg"
EXPLORE_DETERMINISM_EVERY = 8
"""``cardrules verify``'s explorations check :func:`deterministic` on one transition in this many (the
same ones every run; :attr:`cardrules.properties.core.Property.explore_every`)."""
PARTY_STEPS = frozenset({Step.DECLARATION, Step.BLOCK, Step.PREEMPTIVE, Step.DAMAGE})


def _new_events(before: State, after: State) -> tuple:
    if after.turn != before.turn or len(after.events) < len(before.events):
        return ()
    return after.events[len(before.events):]


@state_property(
    "party-min-two",
    "While a party exists it has at least two members.",
    "FF-PARTY-MIN-TWO", "FF-PARTY-DISBAND-UNDER-TWO", game=GAME,
)
def party_min_two(game: FftcgGame, state: State) -> bool:
    return state.attack is None or not state.attack.party or len(state.attack.attackers) >= 2


@state_property(
    "party-composition",
    "The members of a party share one element, or all have the P icon.",
    "FF-PARTY-TWO-TYPES", "FF-PARTY-ELEMENT", "FF-PARTY-P-ICON", "FF-PARTY-FORM-VALID", "FF-BASE-MULTI-ELEMENT",
    game=GAME,
)
def party_composition(game: FftcgGame, state: State) -> bool:
    attack = state.attack
    if attack is None or not attack.party or len(attack.attackers) < 2:
        return True
    members = [state.forward(fid) for fid in attack.attackers]
    if all(m.p_icon for m in members):
        return True
    common = set(ELEMENTS)
    for member in members:
        common &= member.elements
    if common:
        return True
    # the pairwise-overlap reading is a recorded variant: under it, each pair overlaps
    if game.config.option("party-element-match") == "pairwise-overlap":
        return all(a.elements & b.elements for i, a in enumerate(members) for b in members[i + 1:])
    return False


@state_property(
    "party-members-on-field",
    "Every attacker, and every member of a party, is on the field.",
    "FF-PARTY-LEAVE-FIELD", game=GAME,
)
def members_on_field(game: FftcgGame, state: State) -> bool:
    if state.attack is None:
        return True
    own = {f.id for f in state.players[state.turn_player].forwards}
    return all(fid in own for fid in state.attack.attackers)


@state_property(
    "party-gone-after-combat",
    "No party exists outside Attack Declaration, Block Declaration and Damage Resolution: "
    "it has disbanded by the Combat End Step.",
    "FF-PARTY-DISBAND-COMBAT-END", "FF-PARTY-DISBAND-MEANING", game=GAME,
)
def party_gone_after_combat(game: FftcgGame, state: State) -> bool:
    return state.attack is None or not state.attack.party or state.step in PARTY_STEPS


@transition_property(
    "blocker-split-thousands",
    "When a blocker divides its damage among a party, every share is a multiple of 1000 and the "
    "shares add up to its power (rounded down to a multiple of 1000).",
    "FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT", game=GAME,
)
def blocker_split(game: FftcgGame, before: State, action: Action, after: State) -> bool:
    return not split_violations(before, action)


@transition_property(
    "preemptive-all-or-nothing",
    "A party deals damage in the Pre-emptive Strike part only if every member has Pre-emptive Strike.",
    "FF-PARTY-PREEMPTIVE-ALL", "FF-BASE-PREEMPTIVE", game=GAME,
)
def preemptive_all_or_nothing(game: FftcgGame, before: State, action: Action, after: State) -> bool:
    attack = before.attack
    if attack is None or not attack.party or before.step is not Step.PREEMPTIVE or attack.attackers_dealt:
        return True
    dealt_now = after.attack is not None and after.attack.attackers_dealt or any(
        e.kind == "damage" and set(e.sources) & set(attack.attackers) for e in _new_events(before, after)
    )
    if not dealt_now:
        return True
    if game.config.option("party-preemptive-members") == "at-formation":
        return attack.declared_preemptive
    return all(before.forward(fid).preemptive for fid in attack.attackers)


@transition_property(
    "break-credited-to-every-member",
    "When the Forward blocking a party breaks from the party's damage, every member is credited with the break.",
    "FF-PARTY-BREAK-CREDIT", game=GAME,
)
def break_credit(game: FftcgGame, before: State, action: Action, after: State) -> bool:
    attack = before.attack
    if attack is None or not attack.party or attack.blocker is None:
        return True
    for event in _new_events(before, after):
        if event.kind == "break" and event.target == attack.blocker and event.sources:
            if not set(attack.attackers) <= set(event.sources):
                return False
    return True


@transition_property(
    "unblocked-party-one-damage",
    "An unblocked party deals exactly one point of damage to the defending player.",
    "FF-PARTY-UNBLOCKED-ONE", "FF-BASE-UNBLOCKED-DAMAGE", game=GAME,
)
def unblocked_one(game: FftcgGame, before: State, action: Action, after: State) -> bool:
    attack = before.attack
    if attack is None or not attack.party or attack.blocked is not False or after.turn != before.turn:
        return True
    defender = before.defender
    gained = after.players[defender].damage - before.players[defender].damage
    return gained in (0, 1)


@state_property(
    "seven-damage-loses",
    "A player with seven or more damage has lost, and a finished game offers no action.",
    "FF-BASE-SEVEN-DAMAGE-LOSES", game=GAME,
)
def seven_damage(game: FftcgGame, state: State) -> bool:
    for index, player in enumerate(state.players):
        if player.damage >= 7 and (state.outcome is None or state.outcome.winner != 1 - index):
            return False
    return state.outcome is None or not game.legal_actions(state)


@state_property(
    "forwards-in-one-zone",
    "No Forward is in two places at once (the field and a Break Zone, or twice).",
    "FF-BASE-BREAK-DAMAGE", "FF-PARTY-LEAVE-FIELD", game=GAME,
)
def one_zone(game: FftcgGame, state: State) -> bool:
    return not zone_violations(state)


@transition_property(
    "forwards-conserved",
    "No step creates or destroys a Forward: the Forwards on the field and in Break Zones stay the same set.",
    "FF-BASE-BREAK-DAMAGE", "FF-PARTY-LEAVE-FIELD", game=GAME,
)
def conserved(game: FftcgGame, before: State, action: Action, after: State) -> bool:
    def ids(state: State) -> set[str]:
        return {f.id for p in state.players for f in (*p.forwards, *p.break_zone)}

    if after.players is before.players:  # the very same players (a step that moved no card): same Forwards
        return True
    return ids(before) == ids(after)


@transition_property(
    "player-damage-monotone",
    "Within a turn a player's damage never goes down.",
    "FF-BASE-SEVEN-DAMAGE-LOSES", "FF-BASE-UNBLOCKED-DAMAGE", game=GAME,
)
def damage_monotone(game: FftcgGame, before: State, action: Action, after: State) -> bool:
    return after.turn != before.turn or all(
        a.damage >= b.damage for a, b in zip(after.players, before.players)
    )


@transition_property(
    "fftcg-step-deterministic",
    "Applying the same action to the same state always gives the same state.",
    "FF-BASE-ATTACK-STEPS", game=GAME, explore_every=EXPLORE_DETERMINISM_EVERY,
)
def deterministic(game: FftcgGame, before: State, action: Action, after: State) -> bool:
    """Plays the step a second time (legality judged again) and compares. The hypothesis machines
    ask this after every step they play; ``cardrules verify``'s explorations on one transition in
    :data:`EXPLORE_DETERMINISM_EVERY`, as it costs a whole second step, and every other transition
    property on every transition."""
    return game.step(before, action) == after


def _attacker_damage(events: tuple, declared: frozenset[str]) -> list:
    """Damage events dealt by the attacking side (a source is a declared attacker)."""
    return [e for e in events if e.kind == "damage" and declared & set(e.sources)]


def _blocker_damage(events: tuple, declared: frozenset[str]) -> list:
    """Damage events dealt to the attacking side: only the blocker damages an attacker in combat."""
    return [e for e in events if e.kind == "damage" and e.target in declared]


@transition_property(
    "combatant-deals-damage-once",
    "In one attack each combatant deals combat damage once at most: the attacking Forward or party in a "
    "single damage part, the blocker in a single damage part, each Forward named once in that part, even "
    "when Pre-emptive Strike damage came first; and damage appears on a Forward only as logged damage.",
    "FF-BASE-PREEMPTIVE", "FF-BASE-BLOCKED-EXCHANGE", "FF-PARTY-PREEMPTIVE-ALL", game=GAME,
)
def deals_damage_once(game: FftcgGame, before: State, action: Action, after: State) -> bool:
    """FF-BASE-PREEMPTIVE: "each combatant deals combat damage once per attack".

    A Forward attacks at most once a turn and the turn's event log is kept in
    the state, so every damage event of this turn sourced from a declared
    attacker, or aimed at one, belongs to the current attack.
    """
    attack = before.attack
    if attack is None or after.turn != before.turn:
        return True
    new = _new_events(before, after)
    if not new and after.players is before.players:
        return True  # nothing logged and the very same Forwards: no damage dealt, none appeared
    declared = frozenset(attack.declared)
    old = before.events
    new_by_attackers = _attacker_damage(new, declared)
    new_by_blocker = _blocker_damage(new, declared)
    if new_by_attackers and _attacker_damage(old, declared):
        return False
    if new_by_blocker and _blocker_damage(old, declared):
        return False
    sources = [s for e in new_by_attackers for s in e.sources]
    targets = [e.target for e in new_by_blocker]
    if len(sources) != len(set(sources)) or len(targets) != len(set(targets)):
        return False
    # the damage counters agree with the log: no unlogged (and so uncounted) combat damage
    logged: dict[str, int] = {}
    for event in new:
        if event.kind == "damage":
            logged[event.target] = logged.get(event.target, 0) + event.amount
    for _, forward in after.on_field():
        earlier = before.locate(forward.id)
        if earlier is not None and forward.damage - earlier[1].damage != logged.get(forward.id, 0):
            return False
    return True


@transition_property(
    "attack-declared-in-declaration-step",
    "An attack, single or party, is declared only in the Attack Declaration Step with no attack in progress: "
    "a new attacker, a newly formed party or a newly marked attacker appears in no other step, and an attack "
    "in progress never gains members.",
    "FF-PARTY-FORM-DECLARATION", "FF-BASE-ATTACK-STEPS", "FF-BASE-ONE-ATTACK-AT-A-TIME", game=GAME,
)
def declared_in_declaration_step(game: FftcgGame, before: State, action: Action, after: State) -> bool:
    """FF-PARTY-FORM-DECLARATION: "at no other time can a party be formed"; FF-BASE-ATTACK-STEPS."""
    if after.turn != before.turn:
        return True
    old, new = before.attack, after.attack
    declared_now = new is not None and (old is None or set(new.declared) != set(old.declared))
    marked_now = bool(after.attacked - before.attacked)
    formed_now = new is not None and new.party and (old is None or not old.party)
    if declared_now or marked_now or formed_now:
        if before.step is not Step.DECLARATION or old is not None:
            return False
        if new is None or after.step is not Step.DECLARATION:
            return False
        # the Forwards declared are exactly the ones newly marked as having attacked
        if set(new.declared) != set(after.attacked - before.attacked):
            return False
    if old is not None and new is not None and not set(new.attackers) <= set(old.attackers):
        return False
    return True


PROPERTIES: tuple[Property, ...] = declared(
    party_min_two,
    party_composition,
    members_on_field,
    party_gone_after_combat,
    blocker_split,
    preemptive_all_or_nothing,
    break_credit,
    unblocked_one,
    seven_damage,
    one_zone,
    conserved,
    damage_monotone,
    deterministic,
    deals_damage_once,
    declared_in_declaration_step,
)
"""This module's properties, in the order they are stated above."""
