"""Attacking and blocking: who may attack or block, and the declarations."""

from __future__ import annotations

from typing import Sequence

from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.state import replace, Attack, Forward, State, Step
from cardrules.specs.catalogue.registry import implements


@implements("FF-BASE-CAN-ATTACK")
def can_attack(state: State, forward: Forward) -> bool:
    """FF-BASE-CAN-ATTACK: the turn player's active Forward, under control since
    the turn began or with Haste, that has not attacked this turn."""
    return (
        state.players[state.turn_player].forward(forward.id) is not None
        and not forward.dull
        and (forward.since_start or forward.haste)
        and forward.id not in state.attacked
    )


@implements("FF-PARTY-ALL-CAN-ATTACK", "FF-BASE-CAN-ATTACK")
def all_can_attack(state: State, members: Sequence[Forward]) -> bool:
    """FF-PARTY-ALL-CAN-ATTACK: every would-be member could attack on its own now."""
    return all(can_attack(state, forward) for forward in members)


@implements("FF-PARTY-FORM-DECLARATION", "FF-BASE-ONE-ATTACK-AT-A-TIME")
def can_declare_now(state: State) -> bool:
    """An attack (single or party) is declared only in Attack Declaration with
    no attack in progress (FF-PARTY-FORM-DECLARATION, FF-BASE-ONE-ATTACK-AT-A-TIME)."""
    return state.outcome is None and state.step is Step.DECLARATION and state.attack is None


@implements("FF-BASE-BLOCK")
def can_block_forward(attacker: Forward, blocker: Forward) -> bool:
    """Whether ``blocker`` may block ``attacker`` attacking alone: it is active
    and no blocking restriction of the attacker excludes it."""
    if blocker.dull:
        return False
    if attacker.unblockable_by_cost is not None and blocker.cost >= attacker.unblockable_by_cost:
        return False
    return not (attacker.unblockable_by_elements & blocker.elements)


@implements("FF-PARTY-BLOCK-ANY-MEMBER", "FF-BASE-BLOCK")
def can_block_attackers(attackers: Sequence[Forward], blocker: Forward) -> bool:
    """FF-PARTY-BLOCK-ANY-MEMBER: a party can be blocked by a Forward that
    could block at least one member; a single attacker is the one-member case."""
    return any(can_block_forward(a, blocker) for a in attackers)


@implements("FF-BASE-ATTACK-DULLS", "FF-PARTY-DULL-ALL", "FF-BASE-CAN-ATTACK")
def declare_attack(state: State, forward_ids: tuple[str, ...], config: RuleConfig) -> State:
    """Make the declared Forwards the attacker (a party if two or more).

    Each attacker is marked as having attacked this turn and is dulled
    (FF-BASE-ATTACK-DULLS, FF-PARTY-DULL-ALL) unless it has Brave; under
    ``party-brave-members = all-dull`` party members are dulled even with Brave.
    Legality is checked by the engine beforehand.
    """
    members = [state.forward(fid) for fid in forward_ids]
    is_party = len(members) >= 2
    for forward in members:
        keeps_active = forward.brave and not (is_party and config.is_("party-brave-members", "all-dull"))
        if not keeps_active:
            state = state.with_forward(replace(forward, dull=True))
    attack = Attack(
        attackers=forward_ids,
        party=is_party,
        declared=forward_ids,
        declared_preemptive=all(f.preemptive for f in members),
    )
    return replace(state, attack=attack, attacked=state.attacked | frozenset(forward_ids))


@implements("FF-BASE-BLOCK")
def declare_block(state: State, blocker_id: str | None, config: RuleConfig) -> State:
    """Record the block declaration: blocked by ``blocker_id``, or not blocked (None).
    The blocker stays active unless ``ff-base-blocker-dulls = dulls`` (FF-BASE-BLOCK)."""
    attack = state.attack
    assert attack is not None
    state = replace(state, attack=replace(attack, blocked=blocker_id is not None, blocker=blocker_id))
    if blocker_id is not None and config.is_("ff-base-blocker-dulls", "dulls"):
        state = state.with_forward(replace(state.forward(blocker_id), dull=True))
    return state
