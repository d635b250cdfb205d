"""The FFTCG state's consistency rules and the load that applies them.

:func:`problems` lists every way a well-typed state (:func:`.jsonform.read_state`)
breaks a rule of the game's structure or a state-based check the rules would
still apply; :func:`load_state` is the load: read, then refuse the first
problem, then the model's input bound on the blocker's split
(:func:`check_split_budget`).
"""

from __future__ import annotations

import math
from typing import Any

from cardrules.model.errors import ScenarioError
from cardrules.model.fftcg.damage import unsettled
from cardrules.model.fftcg.jsonform import read_state
from cardrules.model.fftcg.state import LOSING_DAMAGE, MAX_SPLITS, SPLIT_UNITS, State, Step


def load_state(data: Any) -> State:
    """The state of this JSON form, refused (:class:`ScenarioError`, naming the first problem) if
    it is malformed, breaks one of the consistency rules (:func:`problems`) or one of the model's
    input bounds."""
    state = read_state(data)
    found = problems(state)
    if found:
        raise ScenarioError(*found[0])
    check_split_budget(state)
    return state


def problems(state: State) -> list[tuple[str, str]]:
    """Every consistency problem of ``state`` as (JSON path, problem), in document order; empty for a
    position play can reach. Structural: ids unique, the step and the attack agree, attackers and the
    blocker on the right side of the field, a party of two or more, an attack with no party of one
    attacker before Combat End. Then the rules' state-based checks, which every position between
    actions has had applied (:func:`model.fftcg.damage.unsettled`, decision ``ff-unsettled-position``).
    Not the model's input bounds (:func:`check_split_budget`). Accepted although play never makes
    it: ``party`` still true in the Combat End Step (play disbands every party on entering it,
    :func:`model.fftcg.party.disband_at_combat_end`)."""
    found: list[tuple[str, str]] = []
    seen: dict[str, str] = {}
    for p, player in enumerate(state.players):
        if player.damage > LOSING_DAMAGE:
            found.append((f"players[{p}].damage", f"at most {LOSING_DAMAGE}, got {player.damage}"))
        for zone, cards in (("forwards", player.forwards), ("break_zone", player.break_zone)):
            for i, forward in enumerate(cards):
                where = f"players[{p}].{zone}[{i}].id"
                if forward.id in seen:
                    found.append((where, f"id {forward.id!r} is also used at {seen[forward.id]}"))
                else:
                    seen[forward.id] = where
    found.extend(_attack_problems(state))
    found.extend(_passed_problems(state))
    found.extend(unsettled(state))
    return found


def _passed_problems(state: State) -> list[tuple[str, str]]:
    """``passed`` (``ff-step-passing = alternating-priority``) only where the turn player could pass."""
    if not state.passed:
        return []
    attack = state.attack
    if state.outcome is not None:
        return [("passed", "nobody passes once the game is over")]
    if state.step is Step.DECLARATION and attack is None:
        return [("passed", "nobody passes in attack declaration before an attack is declared")]
    if state.step is Step.BLOCK and attack is not None and attack.blocked is None:
        return [("passed", "nobody passes in block declaration before the block is declared")]
    return []


def _attack_problems(state: State) -> list[tuple[str, str]]:
    attack = state.attack
    if attack is None:
        if state.step in (Step.BLOCK, Step.PREEMPTIVE, Step.DAMAGE, Step.COMBAT_END):
            return [("attack", f"step {state.step.value} needs an attack")]
        return []
    found: list[tuple[str, str]] = []
    if state.step is Step.PREPARATION:
        found.append(("attack", "no attack can be in progress in attack preparation"))
    attacking = state.players[state.turn_player]
    for i, forward_id in enumerate(attack.attackers):
        if attacking.forward(forward_id) is None:
            found.append((f"attack.attackers[{i}]", f"{forward_id!r} is not a Forward of the turn player on the field"))
        if forward_id not in attack.declared:
            found.append((f"attack.attackers[{i}]", f"{forward_id!r} was not declared"))
    if not attack.declared:
        found.append(("attack.declared", "an attack declares at least one Forward"))
    if attack.party and len(attack.attackers) < 2:
        found.append(("attack.party", "a party has at least two members (FF-PARTY-MIN-TWO)"))
    if not attack.party and len(attack.attackers) >= 2 and state.step is not Step.COMBAT_END:
        found.append((
            "attack.attackers",
            f"{len(attack.attackers)} attackers ({', '.join(attack.attackers)}) and no party: an attack is one "
            f"Forward or one party (FF-BASE-ONE-ATTACK-AT-A-TIME), and two or more attackers stay a party "
            f"until it disbands in the Combat End Step (FF-PARTY-DISBAND-UNDER-TWO, FF-PARTY-DISBAND-COMBAT-END)",
        ))
    if attack.blocker is not None:
        if state.players[state.defender].forward(attack.blocker) is None:
            found.append(("attack.blocker", f"{attack.blocker!r} is not a Forward of the defending player on the field"))
        if attack.blocked is not True:
            found.append(("attack.blocked", "must be true when there is a blocker"))
    return found


def split_count_bound(power: int, members: int) -> int:
    """How many ways at most a blocker of ``power`` can divide its damage among ``members``.

    The largest count over the share units of the rule variants
    (:data:`SPLIT_UNITS`): the ways to write the divisible power as
    ``members`` ordered shares, times ``members`` when a remainder is left
    (the variant where one member also takes it).
    """
    if members < 2:
        return 1
    power = max(power, 0)
    counts = [
        math.comb(power // unit + members - 1, members - 1) * (members if power % unit else 1)
        for unit in SPLIT_UNITS
    ]
    return max(counts)


def check_split_budget(state: State) -> None:
    """Every blocker's split among every party the other player could form stays within MAX_SPLITS."""
    for p, player in enumerate(state.players):
        members = len(state.players[1 - p].forwards)
        for i, forward in enumerate(player.forwards):
            count = split_count_bound(forward.power, members)
            if count > MAX_SPLITS:
                raise ScenarioError(
                    f"players[{p}].forwards[{i}].power",
                    f"a blocker of power {forward.power} against a party of the other player's {members} Forwards "
                    f"has up to {count:.3g} ways to divide its damage; the model enumerates at most "
                    f"MAX_SPLITS = {MAX_SPLITS:,} (lower the power or field fewer Forwards)",
                )
