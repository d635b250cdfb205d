"""Damage resolution: who deals damage in which part, the blocker's split,
breaking Forwards, player damage and losing."""

from __future__ import annotations

from typing import Iterator, Mapping

from cardrules.model.fftcg.actions import Split
from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.party import attackers_have_preemptive, forward_left_field
from cardrules.model.fftcg.contracts import SPLIT_STEP
from cardrules.model.fftcg.state import replace, LOSING_DAMAGE, Attack, Event, Forward, Outcome, State, Step
from cardrules.model.extension import extension_point, whole_number
from cardrules.specs.catalogue.registry import implements

BREAK_THRESHOLD = 1000
"""Damage breaks only Forwards of at least this power (FF-BASE-BREAK-DAMAGE)."""


# --- the blocker's split --------------------------------------------------------


@extension_point("fftcg", "blocker-split-unit", "The step in which a blocker's power is divided among the "
                 "members of the party it blocks (every share is a multiple of it); given the state and the "
                 "attack, returns a positive whole number.",
                 "FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT", parameters=("state", "attack"),
                 returns=SPLIT_STEP)
@implements("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")
def thousands(state: State, attack: Attack) -> int:
    """The catalogue's step: shares are multiples of 1000 (FF-PARTY-SPLIT-THOUSANDS, decision party-split-unit)."""
    return 1000


@implements("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")
def split_unit(state: State, config: RuleConfig) -> int:
    """The step of the split of the current attack's blocker: the ``blocker-split-unit`` extension point
    (:func:`thousands`, 1000, unless a proposal answers otherwise); 100 under the broken variant
    ``party-split-in-hundreds`` (a mutant verify must catch). An answer outside the point's contract
    is a ValueError, never a split enumerated."""
    if config.is_broken("party-split-in-hundreds"):
        return 100
    attack = state.attack
    assert attack is not None
    unit = config.hook("blocker-split-unit", thousands)(state, attack)
    problem = SPLIT_STEP.check(unit, (state, attack))
    if problem is not None:
        raise ValueError(f"the blocker-split-unit extension point {problem}")
    return int(unit)


@implements("FF-PARTY-SPLIT-THOUSANDS")
def divisible_power(power: int, unit: int, config: RuleConfig) -> tuple[int, int]:
    """(the part divided in steps of ``unit``, the remainder also dealt) for a blocker's power.

    ``party-blocker-power-remainder = floor``: 5500 -> (5000, 0), 800 -> (0, 0).
    ``remainder-to-one``: 5500 -> (5000, 500), the 500 going to one member.
    """
    main = max(power, 0) // unit * unit
    remainder = max(power, 0) - main if config.is_("party-blocker-power-remainder", "remainder-to-one") else 0
    return main, remainder


def _compositions(units: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to write ``units`` as an ordered sum of ``parts`` non-negative integers."""
    if parts == 1:
        yield (units,)
        return
    for first in range(units, -1, -1):
        for rest in _compositions(units - first, parts - 1):
            yield (first, *rest)


@implements("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")
def legal_splits(members: tuple[str, ...], power: int, unit: int, config: RuleConfig) -> tuple[Split, ...]:
    """Every way the blocker's controller may divide ``power`` among ``members``.

    Shares are multiples of ``unit`` (:func:`split_unit`) summing to the divisible power
    (FF-PARTY-SPLIT-THOUSANDS, ``party-blocker-power-remainder``); a member may
    get 0 unless ``party-zero-share = each-hit-if-possible``.
    """
    main, remainder = divisible_power(power, unit, config)
    n = len(members)
    each_hit = config.is_("party-zero-share", "each-hit-if-possible")
    result: set[tuple[int, ...]] = set()
    for parts in _compositions(main // unit, n):
        amounts = tuple(p * unit for p in parts)
        if each_hit:
            if main >= n * 1000 and min(amounts) < 1000:
                continue
            if main < n * 1000 and max(amounts) > 1000:
                continue
        if remainder:
            for i in range(n):
                result.add(tuple(a + remainder if j == i else a for j, a in enumerate(amounts)))
        else:
            result.add(amounts)
    return tuple(Split(tuple(zip(members, amounts))) for amounts in sorted(result, reverse=True))


# --- who deals damage when ------------------------------------------------------


@implements("FF-PARTY-BLOCKED-SUM", "FF-BASE-UNBLOCKED-DAMAGE")
def is_unblocked(state: State, config: RuleConfig) -> bool:
    """Not blocked, or (variant ``party-blocker-left = as-unblocked``) the blocker
    left before the attacking side dealt its damage.

    Under the chosen ``party-blocker-left = no-damage`` a blocked attack whose
    blocker left deals no damage at all. A blocker broken by the attackers' own
    Pre-emptive Strike damage did not "leave" in that sense: the attackers have
    dealt their combat damage once (FF-BASE-PREEMPTIVE) and deal nothing more.
    """
    attack = state.attack
    assert attack is not None
    if attack.blocked is False:
        return True
    return (
        attack.blocker is None
        and not attack.attackers_dealt
        and config.is_("party-blocker-left", "as-unblocked")
    )


@implements("FF-BASE-PREEMPTIVE", "FF-PARTY-PREEMPTIVE-ALL")
def dealing_sides(state: State, config: RuleConfig, step: Step | None = None) -> tuple[bool, bool]:
    """(attackers deal damage, blocker deals damage) in the damage part ``step``.

    In the Pre-emptive Strike part only a side with Pre-emptive Strike deals
    (a party only if all members have it, FF-PARTY-PREEMPTIVE-ALL); in the
    ordinary part every side that has not dealt yet does. A side that left the
    field deals nothing (FF-BASE-PREEMPTIVE); each side deals once.
    """
    attack = state.attack
    assert attack is not None
    step = step or state.step
    if not attack.blocked or attack.blocker is None or not attack.attackers:
        return False, False
    if step is Step.PREEMPTIVE:
        blocker = state.forward(attack.blocker)
        attackers = attackers_have_preemptive(state, attack, config) and not attack.attackers_dealt
        return attackers, blocker.preemptive and not attack.blocker_dealt
    return not attack.attackers_dealt, not attack.blocker_dealt


def needs_split(state: State, config: RuleConfig) -> bool:
    """The blocker deals damage to a party in this damage part, so its controller
    must choose a split (FF-PARTY-SPLIT-THOUSANDS)."""
    attack = state.attack
    if attack is None or state.step not in (Step.PREEMPTIVE, Step.DAMAGE) or not attack.party:
        return False
    return dealing_sides(state, config)[1]


@implements("FF-BASE-PREEMPTIVE", "FF-PARTY-PREEMPTIVE-ALL")
def has_preemptive_part(state: State, config: RuleConfig) -> bool:
    """Damage resolution starts with a Pre-emptive Strike part when some combatant deals damage then."""
    attackers, blocker = dealing_sides(state, config, Step.PREEMPTIVE)
    return attackers or blocker


# --- dealing damage --------------------------------------------------------------


@implements("FF-PARTY-BLOCKED-SUM")
def party_powers(state: State, attack: Attack, config: RuleConfig) -> dict[str, int]:
    """The power each attacker adds to the damage dealt to the blocker, never below 0, by id.

    Chosen ``party-sum-members = current-members``: the Forwards still attacking (a member that left
    the field is out of the party, FF-PARTY-LEAVE-FIELD). ``declared-members``: while the attack is
    still a party, every Forward declared in it, one that left the field with its last known power
    (its card in a Break Zone keeps the power it had; nothing in scope changes a power).
    """
    if not (attack.party and config.is_("party-sum-members", "declared-members")):
        return {fid: max(state.forward(fid).power, 0) for fid in attack.attackers}
    known = {f.id: f for player in state.players for f in (*player.forwards, *player.break_zone)}
    return {fid: max(known[fid].power, 0) for fid in attack.declared}


@implements(
    "FF-PARTY-BLOCKED-SUM", "FF-PARTY-SPLIT-THOUSANDS", "FF-PARTY-BREAK-CREDIT",
    "FF-BASE-BLOCKED-EXCHANGE", "FF-BASE-PREEMPTIVE",
)
def deal_combat_damage(state: State, split: Split | None, config: RuleConfig) -> State:
    """Deal this damage part's combat damage simultaneously, then break Forwards.

    A party deals the sum of its members' power to the blocker
    (FF-PARTY-BLOCKED-SUM; :func:`party_powers`); the blocker deals the chosen ``split`` to the
    members (FF-PARTY-SPLIT-THOUSANDS) or its power to a single attacker
    (FF-BASE-BLOCKED-EXCHANGE). If the blocker breaks, every member is
    credited (FF-PARTY-BREAK-CREDIT; ``party-preemptive-broken-member``).
    """
    attack = state.attack
    assert attack is not None
    attackers_deal, blocker_deal = dealing_sides(state, config)
    damage: dict[str, int] = {}
    credited: dict[str, tuple[str, ...]] = {}
    events: list[Event] = []
    if attackers_deal:
        assert attack.blocker is not None
        powers = party_powers(state, attack, config)
        total = sum(powers.values())
        damage[attack.blocker] = total
        if attack.party and config.is_("party-damage-source", "per-member"):
            events.extend(Event("damage", (fid,), attack.blocker, power) for fid, power in powers.items() if power > 0)
        else:
            events.append(Event("damage", attack.attackers, attack.blocker, total))
        credit = attack.attackers
        if attack.party and config.is_("party-preemptive-broken-member", "all-declared"):
            credit = attack.declared
        credited[attack.blocker] = credit
    if blocker_deal:
        assert attack.blocker is not None
        blocker = state.forward(attack.blocker)
        if attack.party:
            assert split is not None
            shares = dict(split.shares)
        else:
            shares = {attack.attackers[0]: max(blocker.power, 0)}
        for fid in attack.attackers:
            amount = shares.get(fid, 0)
            if amount > 0:
                damage[fid] = amount
                events.append(Event("damage", (blocker.id,), fid, amount))
            credited[fid] = (blocker.id,)
    for fid, amount in damage.items():
        forward = state.forward(fid)
        state = state.with_forward(replace(forward, damage=forward.damage + amount))
    state = replace(
        state,
        attack=replace(
            attack,
            attackers_dealt=attack.attackers_dealt or attackers_deal,
            blocker_dealt=attack.blocker_dealt or blocker_deal,
        ),
    ).log(*events)
    return check_breaks(state, credited, config)


@extension_point("fftcg", "unblocked-damage", "How many points of damage an unblocked attack deals to the "
                 "defending player; given the state and the attackers' ids, returns a whole number.",
                 "FF-PARTY-UNBLOCKED-ONE", "FF-BASE-UNBLOCKED-DAMAGE", parameters=("state", "attackers"),
                 returns=whole_number(0, 7))  # seven damage loses (FF-BASE-SEVEN-DAMAGE-LOSES): more is the same
@implements("FF-PARTY-UNBLOCKED-ONE", "FF-BASE-UNBLOCKED-DAMAGE")
def one_damage(state: State, attackers: tuple[str, ...]) -> int:
    """An unblocked attacker, single or party, deals exactly one damage (FF-PARTY-UNBLOCKED-ONE)."""
    return 1


@implements("FF-PARTY-UNBLOCKED-ONE", "FF-BASE-UNBLOCKED-DAMAGE")
def deal_unblocked_damage(state: State, config: RuleConfig) -> State:
    """An unblocked attacker, single or party, deals its damage to the defending
    player: one point (FF-PARTY-UNBLOCKED-ONE), unless a proposal answers the
    ``unblocked-damage`` extension point otherwise."""
    attack = state.attack
    assert attack is not None
    if not attack.attackers:
        return state
    amount = config.hook("unblocked-damage", one_damage)(state, attack.attackers)
    if not isinstance(amount, int) or isinstance(amount, bool) or not 0 <= amount <= 7:
        raise ValueError(f"the unblocked-damage extension point returned {amount!r}, not a whole number from 0 to 7")
    defender = state.defender
    player = state.players[defender]
    state = state.with_player(defender, replace(player, damage=min(7, player.damage + amount)))
    return check_loss(state.log(Event("hit", attack.attackers, f"p{defender}", amount)))


# --- state-based checks ----------------------------------------------------------


@implements("FF-BASE-BREAK-DAMAGE", "FF-BASE-BREAK-ZERO-POWER")
def is_broken(forward: Forward) -> bool:
    """Power 0 or less (FF-BASE-BREAK-ZERO-POWER), or power 1000 or more with
    damage at least its power (FF-BASE-BREAK-DAMAGE)."""
    return forward.power <= 0 or (forward.power >= BREAK_THRESHOLD and forward.damage >= forward.power)


def to_break_zone(state: State, forward_id: str) -> State:
    """Move a Forward from the field to its owner's Break Zone, cleared of damage and status."""
    index, forward = state.locate(forward_id) or (None, None)
    assert index is not None and forward is not None
    player = state.players[index]
    card = replace(forward, dull=False, damage=0, since_start=False)
    return state.with_player(
        index,
        replace(
            player,
            forwards=tuple(f for f in player.forwards if f.id != forward_id),
            break_zone=player.break_zone + (card,),
        ),
    )


@implements("FF-BASE-BREAK-DAMAGE", "FF-BASE-BREAK-ZERO-POWER", "FF-PARTY-LEAVE-FIELD")
def check_breaks(state: State, credited: Mapping[str, tuple[str, ...]], config: RuleConfig) -> State:
    """Break, all at once, every Forward that should be; credit ``credited[id]``.

    Each broken Forward then leaves the attack and party (FF-PARTY-LEAVE-FIELD).
    """
    broken = sorted(f.id for _, f in state.on_field() if is_broken(f))
    for fid in broken:
        state = to_break_zone(state, fid).log(Event("break", tuple(credited.get(fid, ())), fid))
    for fid in broken:
        state = forward_left_field(state, fid, config)
    return state


@implements("FF-BASE-BREAK-ZERO-POWER", "FF-BASE-BREAK-DAMAGE", "FF-BASE-SEVEN-DAMAGE-LOSES")
def unsettled(state: State) -> list[tuple[str, str]]:
    """What the state-based checks would still change in ``state``, as (JSON path, problem): a Forward
    on the field that :func:`is_broken` breaks (FF-BASE-BREAK-ZERO-POWER, FF-BASE-BREAK-DAMAGE), a
    player with 7 damage in a game with no outcome (FF-BASE-SEVEN-DAMAGE-LOSES). Play never leaves
    one (the checks run after every action); ``validate.load_state`` refuses a position that has one
    (decision ``ff-unsettled-position``: refuse; :func:`cardrules.model.fftcg.validate.problems` calls it)."""
    found: list[tuple[str, str]] = []
    for p, player in enumerate(state.players):
        for i, forward in enumerate(player.forwards):
            if is_broken(forward):
                found.append((
                    f"players[{p}].forwards[{i}]",
                    f"{forward.id} (power {forward.power}, damage {forward.damage}) is on the field, but a Forward "
                    f"of power 0 or less, or of power 1000 or more with damage at least its power, is broken by "
                    f"the rules' state-based checks before anyone acts (FF-BASE-BREAK-ZERO-POWER, "
                    f"FF-BASE-BREAK-DAMAGE; decision ff-unsettled-position)",
                ))
    if state.outcome is None:
        for p, player in enumerate(state.players):
            if player.damage >= LOSING_DAMAGE:
                found.append((
                    f"players[{p}].damage",
                    f"player {p} has {player.damage} damage but the game has no outcome: a player with "
                    f"{LOSING_DAMAGE} damage has lost (FF-BASE-SEVEN-DAMAGE-LOSES; decision ff-unsettled-position)",
                ))
    return found


@implements("FF-BASE-SEVEN-DAMAGE-LOSES")
def check_loss(state: State) -> State:
    """A player with seven or more damage loses; the other player wins."""
    if state.outcome is not None:
        return state
    for index, player in enumerate(state.players):
        if player.damage >= LOSING_DAMAGE:
            return replace(state, outcome=Outcome(winner=1 - index))
    return state
