"""Moving through the steps of the attack phase, leaving the field, ending the turn."""

from __future__ import annotations


from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.damage import (
    check_loss,
    deal_combat_damage,
    deal_unblocked_damage,
    has_preemptive_part,
    is_unblocked,
    to_break_zone,
)
from cardrules.model.fftcg.party import disband, disband_at_combat_end, forward_left_field
from cardrules.model.fftcg.state import replace, Event, Player, State, Step
from cardrules.model.fftcg.actions import Split
from cardrules.specs.catalogue.registry import implements


@implements("FF-PARTY-DISBAND-COMBAT-END", "FF-BASE-ATTACK-STEPS")
def end_of_attack(state: State, config: RuleConfig) -> State:
    """Damage resolution is over (or the attack has no attacker left).

    Seed reading: go to the Combat End Step, where an active party disbands
    (FF-PARTY-DISBAND-COMBAT-END). ``party-disband-timing =
    after-damage-resolution`` (CR 3.3): the party disbands now and play returns
    straight to Attack Declaration.
    """
    if config.is_("party-disband-timing", "after-damage-resolution"):
        assert state.attack is not None
        state = disband(state, state.attack)
        return replace(state, attack=None, step=Step.DECLARATION)
    return disband_at_combat_end(replace(state, step=Step.COMBAT_END), config)


@implements("FF-BASE-ATTACK-STEPS", "FF-BASE-PREEMPTIVE")
def enter_damage_resolution(state: State, config: RuleConfig) -> State:
    """From Block Declaration: into the Pre-emptive Strike part if some
    combatant deals damage then, else into the ordinary part."""
    if has_preemptive_part(state, config):
        return replace(state, step=Step.PREEMPTIVE)
    return replace(state, step=Step.DAMAGE)


@implements("FF-BASE-ATTACK-STEPS", "FF-BASE-PREEMPTIVE", "FF-PARTY-BLOCKED-SUM")
def resolve_damage_part(state: State, split: Split | None, config: RuleConfig) -> State:
    """Resolve the current damage part (with the blocker's ``split`` against a
    party) and go on: Pre-emptive Strike part -> ordinary part -> end of attack.

    A blocked attack whose blocker has left deals no damage
    (``party-blocker-left = no-damage``).
    """
    if state.step is Step.DAMAGE and is_unblocked(state, config):
        state = deal_unblocked_damage(state, config)
    else:
        state = deal_combat_damage(state, split, config)
    if state.outcome is not None:
        return state
    if state.step is Step.PREEMPTIVE:
        return replace(state, step=Step.DAMAGE)
    return end_of_attack(state, config)


@implements("FF-BASE-ATTACK-STEPS", "FF-BASE-ONE-ATTACK-AT-A-TIME")
def pass_step(state: State, config: RuleConfig) -> State:
    """Both players pass in a step that needs no choice (legality checked by the engine): one
    action for both passes (decision ``ff-step-passing``: one-pass-for-both)."""
    step = state.step
    if step is Step.PREPARATION:
        return replace(state, step=Step.DECLARATION)
    if step is Step.DECLARATION:
        return replace(state, step=Step.BLOCK)
    if step is Step.BLOCK:
        return enter_damage_resolution(state, config)
    if step in (Step.PREEMPTIVE, Step.DAMAGE):
        return resolve_damage_part(state, None, config)
    assert step is Step.COMBAT_END
    return replace(state, attack=None, step=Step.DECLARATION)


@implements("FF-PARTY-LEAVE-FIELD", "FF-PARTY-DISBAND-UNDER-TWO")
def remove_forward(state: State, forward_id: str, config: RuleConfig) -> State:
    """A Forward leaves the field by an effect; it goes to its owner's Break
    Zone without break credit. It leaves the attack and any party
    (FF-PARTY-LEAVE-FIELD); an attack with no attacker left before damage ends (decision
    ``ff-attack-no-attacker-left``: ``ends``; ``continues``: it runs on, dealing nothing;
    ``redeclare``: it is over and play is back in Attack Declaration at once, no Combat End Step).
    """
    state = to_break_zone(state, forward_id).log(Event("remove", target=forward_id))
    state = forward_left_field(state, forward_id, config)
    if state.attack is None or state.attack.attackers or state.step not in (Step.DECLARATION, Step.BLOCK):
        return state
    if config.is_("ff-attack-no-attacker-left", "redeclare"):
        return replace(disband(state, state.attack), attack=None, step=Step.DECLARATION)
    if config.is_("ff-attack-no-attacker-left", "ends"):
        state = end_of_attack(state, config)
    return state


@implements("FF-BASE-END-OF-TURN")
def end_turn(state: State) -> State:
    """End Phase: damage on every Forward is removed. The other player's turn
    begins in Attack Preparation; every Forward on the field has been under its
    controller's control since the start of that turn, and the new turn
    player's Forwards become active."""
    new_player = 1 - state.turn_player

    def refresh(index: int, player: Player) -> Player:
        return replace(
            player,
            forwards=tuple(
                replace(f, damage=0, since_start=True, dull=False if index == new_player else f.dull)
                for f in player.forwards
            ),
        )

    players = (refresh(0, state.players[0]), refresh(1, state.players[1]))
    return check_loss(
        replace(
            state,
            players=players,
            turn_player=new_player,
            turn=state.turn + 1,
            step=Step.PREPARATION,
            attack=None,
            attacked=frozenset(),
            events=(),
        )
    )
