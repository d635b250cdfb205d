"""Parties: composition, the party's abilities, leaving and disbanding."""

from __future__ import annotations

from itertools import combinations
from typing import Sequence

from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.state import replace, Attack, Event, Forward, State
from cardrules.specs.catalogue.registry import implements

MIN_MEMBERS = 2
"""FF-PARTY-MIN-TWO. There is no maximum (FF-PARTY-NO-SIZE-LIMIT)."""


@implements("FF-PARTY-ELEMENT", "FF-BASE-MULTI-ELEMENT")
def is_element_party(members: Sequence[Forward], config: RuleConfig) -> bool:
    """FF-PARTY-ELEMENT: one element common to all (``party-element-match``).

    Variant ``pairwise-overlap``: every two members share some element.
    """
    if config.is_("party-element-match", "pairwise-overlap"):
        return all(a.elements & b.elements for a, b in combinations(members, 2))
    common = frozenset.intersection(*(m.elements for m in members)) if members else frozenset()
    return bool(common)


@implements("FF-PARTY-P-ICON", "FF-BASE-P-ICON")
def is_p_icon_party(members: Sequence[Forward]) -> bool:
    """FF-PARTY-P-ICON: every member carries the P icon."""
    return all(m.p_icon for m in members)


@implements("FF-PARTY-MIN-TWO", "FF-PARTY-NO-SIZE-LIMIT", "FF-PARTY-TWO-TYPES", "FF-PARTY-FORM-VALID")
def is_valid_party(members: Sequence[Forward], config: RuleConfig) -> bool:
    """FF-PARTY-FORM-VALID: two or more members (no upper limit) forming an
    element party or a P icon party (FF-PARTY-TWO-TYPES). Whether each member
    can attack is checked by :func:`model.fftcg.combat.can_attack`.
    """
    return len(members) >= MIN_MEMBERS and (is_element_party(members, config) or is_p_icon_party(members))


@implements("FF-PARTY-PREEMPTIVE-ALL")
def attackers_have_preemptive(state: State, attack: Attack, config: RuleConfig) -> bool:
    """Whether the attacking side deals its damage in the Pre-emptive Strike part.

    A party has it only if every member does (FF-PARTY-PREEMPTIVE-ALL); the
    members are the current ones, or those that formed it under the
    ``party-preemptive-members = at-formation`` variant. A single attacker
    has it if it has the keyword.
    """
    if not attack.attackers:
        return False
    if attack.party and config.is_("party-preemptive-members", "at-formation"):
        return attack.declared_preemptive
    return all(state.forward(fid).preemptive for fid in attack.attackers)


@implements("FF-PARTY-LEAVE-FIELD", "FF-PARTY-DISBAND-UNDER-TWO", "FF-PARTY-DISBAND-MEANING")
def forward_left_field(state: State, forward_id: str, config: RuleConfig) -> State:
    """Update the attack after a Forward left the field.

    A member leaves the attack and the party (FF-PARTY-LEAVE-FIELD); a party
    left with fewer than two members disbands (FF-PARTY-DISBAND-UNDER-TWO),
    after which there is no party (FF-PARTY-DISBAND-MEANING). What a last
    member does follows ``party-last-member``. A blocker that leaves is no
    longer the blocker, but the attack stays blocked (``party-blocker-left``).
    """
    attack = state.attack
    if attack is None:
        return state
    if attack.blocker == forward_id:
        return replace(state, attack=replace(attack, blocker=None))
    if forward_id not in attack.attackers:
        return state
    attackers = tuple(fid for fid in attack.attackers if fid != forward_id)
    attack = replace(attack, attackers=attackers)
    if attack.party and len(attackers) < MIN_MEMBERS:
        state = disband(state, attack)
        attack = state.attack
        assert attack is not None
        if config.is_("party-last-member", "removed-from-combat"):
            attack = replace(attack, attackers=())
        return replace(state, attack=attack)
    return replace(state, attack=attack)


@implements("FF-PARTY-DISBAND-MEANING")
def disband(state: State, attack: Attack) -> State:
    """The party stops existing; its members are in no party. Logs a ``disband`` event."""
    if not attack.party:
        return replace(state, attack=attack)
    return replace(state, attack=replace(attack, party=False)).log(Event("disband", sources=attack.attackers))


@implements("FF-PARTY-DISBAND-COMBAT-END")
def disband_at_combat_end(state: State, config: RuleConfig) -> State:
    """FF-PARTY-DISBAND-COMBAT-END: an active party disbands in the Combat End Step.

    Chosen ``party-active-meaning = still-exists``: every party not yet disbanded. ``members-active-state``:
    only a party whose members are all active (not dull); a party with a dull member persists through
    the step (until its attack is over)."""
    attack = state.attack
    if attack is None:
        return state
    if config.is_("party-active-meaning", "members-active-state") and any(
            state.forward(fid).dull for fid in attack.attackers):
        return state
    return disband(state, attack)
