"""The rules engine: ``legal_actions(state, config)`` and pure ``step(state, action, config)``.

Legality is one function, :func:`why_illegal`, which names the clauses that
forbid an action; ``legal_actions`` is every candidate action it accepts,
sorted, so the two can never disagree.
"""

from __future__ import annotations

from itertools import combinations

from cardrules.model.errors import IllegalAction
from cardrules.model.fftcg.actions import Action, Block, DeclareAttack, EndTurn, NoBlock, Pass, Remove, Split
from cardrules.model.fftcg.combat import all_can_attack, can_attack, can_block_attackers, can_declare_now, declare_attack, declare_block
from cardrules.model.fftcg.config import DEFAULT, RuleConfig
from cardrules.model.fftcg.damage import check_breaks, divisible_power, is_broken, needs_split, split_unit
from cardrules.model.fftcg.memo import legal_splits
from cardrules.model.fftcg.party import is_valid_party
from cardrules.model.fftcg.state import State, Step, replace
from cardrules.model.fftcg.turn import end_turn, pass_step, remove_forward, resolve_damage_part
from cardrules.specs.catalogue.registry import implements

PRIORITY_STEPS = (Step.PREPARATION, Step.DECLARATION, Step.COMBAT_END)
"""Steps in which a Forward may be removed (plus Block Declaration once the block is declared)."""


@implements("FF-BASE-ATTACK-STEPS", "FF-PARTY-LEAVE-FIELD")
def removal_window(state: State, config: RuleConfig) -> bool:
    """Whether a Forward may leave the field by an effect now (decision ``ff-removal-windows``):
    ``outside-damage``: :data:`PRIORITY_STEPS`, and Block Declaration once the block is declared;
    ``also-before-block``: Block Declaration before the block too; ``also-in-damage``: each part of
    Damage Resolution too, before it deals its damage (a part deals its damage by the action that
    resolves it, so every state in a part is before that); ``not-in-declaration``: as
    ``outside-damage`` but never in Attack Declaration (nobody acts between a declaration and the block)."""
    if state.step is Step.DECLARATION and config.is_("ff-removal-windows", "not-in-declaration"):
        return False
    if state.step in PRIORITY_STEPS:
        return True
    if state.step in (Step.PREEMPTIVE, Step.DAMAGE):
        return config.is_("ff-removal-windows", "also-in-damage")
    if state.step is not Step.BLOCK or state.attack is None:
        return False
    return state.attack.blocked is not None or config.is_("ff-removal-windows", "also-before-block")


@implements("FF-BASE-ATTACK-STEPS")
def passes_one_by_one(state: State, config: RuleConfig) -> bool:
    """Whether leaving this step takes a pass by each player (decision ``ff-step-passing``).

    Chosen ``one-pass-for-both``: never, one ``pass`` stands for both players' passes.
    ``alternating-priority``: in every step where players hold priority (:func:`removal_window`), the
    turn player passes first (``State.passed``), then the other player; any other action in between
    gives priority back, and both must pass again. A step without priority (Damage Resolution under
    the chosen removal windows) is left by one ``pass`` as before."""
    return config.is_("ff-step-passing", "alternating-priority") and removal_window(state, config)


@implements("FF-BASE-END-OF-TURN", "FF-BASE-ONE-ATTACK-AT-A-TIME")
def end_turn_window(state: State, config: RuleConfig) -> bool:
    """Whether the turn player may end the turn now (decision ``ff-end-turn-window``): no attack in
    progress, in Attack Preparation or Attack Declaration (``declaration-only``: Declaration only)."""
    steps = (Step.DECLARATION,) if config.is_("ff-end-turn-window", "declaration-only") else (Step.PREPARATION, Step.DECLARATION)
    return state.step in steps and state.attack is None


def _illegal(action: Action, reason: str, *clause_ids: str) -> IllegalAction:
    return IllegalAction(str(action), reason, tuple(clause_ids))


def _why_attack_illegal(state: State, action: DeclareAttack, config: RuleConfig) -> IllegalAction | None:
    party = len(action.forwards) >= 2
    if not can_declare_now(state):
        if party:
            return _illegal(action, "a party can only be formed as the attack of the Attack Declaration Step, "
                            "with no attack in progress", "FF-PARTY-FORM-DECLARATION")
        return _illegal(action, "an attack can only be declared in the Attack Declaration Step, with no attack "
                        "in progress", "FF-BASE-ATTACK-STEPS", "FF-BASE-ONE-ATTACK-AT-A-TIME")
    cited = ("FF-PARTY-ALL-CAN-ATTACK", "FF-BASE-CAN-ATTACK") if party else ("FF-BASE-CAN-ATTACK",)
    members = []
    for fid in action.forwards:
        forward = state.players[state.turn_player].forward(fid)
        if forward is None:
            return _illegal(action, f"{fid} is not a Forward of the turn player on the field", *cited)
        if not all_can_attack(state, [forward]):
            if forward.dull:
                why = "is dull"
            elif fid in state.attacked:
                why = "has already attacked this turn"
            else:
                why = "has not been under its controller's control since the start of the turn and lacks Haste"
            return _illegal(action, f"{fid} cannot attack: it {why}", *cited)
        members.append(forward)
    if party and not is_valid_party(members, config):
        return _illegal(action, "the Forwards share no element and do not all have the P icon",
                        "FF-PARTY-FORM-VALID", "FF-PARTY-TWO-TYPES", "FF-PARTY-ELEMENT", "FF-PARTY-P-ICON")
    return None


def _why_block_illegal(state: State, action: Block | NoBlock) -> IllegalAction | None:
    attack = state.attack
    if state.step is not Step.BLOCK or attack is None or attack.blocked is not None:
        return _illegal(action, "a block is declared once, in the Block Declaration Step", "FF-BASE-BLOCK")
    if isinstance(action, NoBlock):
        return None
    blocker = state.players[state.defender].forward(action.blocker)
    if blocker is None:
        return _illegal(action, f"{action.blocker} is not a Forward of the defending player on the field", "FF-BASE-BLOCK")
    if blocker.dull:
        return _illegal(action, f"{action.blocker} is dull", "FF-BASE-BLOCK")
    attackers = [state.forward(fid) for fid in attack.attackers]
    if not can_block_attackers(attackers, blocker):
        if attack.party:
            return _illegal(action, f"no member of the party can be blocked by {action.blocker}",
                            "FF-PARTY-BLOCK-ANY-MEMBER", "FF-BASE-BLOCK")
        return _illegal(action, f"the attacker cannot be blocked by {action.blocker}", "FF-BASE-BLOCK")
    return None


def _why_split_illegal(state: State, action: Split, config: RuleConfig) -> IllegalAction | None:
    if not needs_split(state, config):
        return _illegal(action, "no blocker's damage is to be divided among party members now",
                        "FF-PARTY-SPLIT-THOUSANDS")
    attack = state.attack
    assert attack is not None and attack.blocker is not None
    named = tuple(fid for fid, _ in action.shares)
    if named != attack.attackers:
        return _illegal(action, f"the split must name exactly the party members {' '.join(attack.attackers)}",
                        "FF-PARTY-SPLIT-THOUSANDS")
    power = state.forward(attack.blocker).power
    unit = split_unit(state, config)
    if action not in legal_splits(attack.attackers, power, unit, config):
        main, remainder = divisible_power(power, unit, config)
        extra = f" plus a remainder of {remainder} to one member" if remainder else ""
        return _illegal(action, f"shares must be multiples of {unit} totalling {main}{extra} "
                        f"(blocker power {power})", "FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")
    return None


def _why_pass_illegal(state: State, action: Pass, config: RuleConfig) -> IllegalAction | None:
    attack = state.attack
    if state.step is Step.DECLARATION and attack is None:
        return _illegal(action, "declare an attack or end the turn", "FF-BASE-ATTACK-STEPS")
    if state.step is Step.BLOCK and attack is not None and attack.blocked is None:
        return _illegal(action, "the defending player must first block or decline to block", "FF-BASE-BLOCK")
    if needs_split(state, config):
        return _illegal(action, "the blocker's controller must first divide its damage among the members",
                        "FF-PARTY-SPLIT-THOUSANDS")
    return None


@implements("FF-BASE-ATTACK-STEPS", "FF-BASE-ONE-ATTACK-AT-A-TIME", "FF-PARTY-FORM-DECLARATION", "FF-PARTY-FORM-VALID")
def why_illegal(state: State, action: Action, config: RuleConfig = DEFAULT) -> IllegalAction | None:
    """None if ``action`` is legal in ``state``; otherwise the error ``step`` raises."""
    if state.outcome is not None:
        return _illegal(action, f"the game is over (player {state.outcome.winner} won)", "FF-BASE-SEVEN-DAMAGE-LOSES")
    if isinstance(action, DeclareAttack):
        return _why_attack_illegal(state, action, config)
    if isinstance(action, (Block, NoBlock)):
        return _why_block_illegal(state, action)
    if isinstance(action, Split):
        return _why_split_illegal(state, action, config)
    if isinstance(action, Remove):
        if not removal_window(state, config):
            return _illegal(action, f"no player may act in {state.step.value} now", "FF-BASE-ATTACK-STEPS")
        if state.locate(action.forward) is None:
            return _illegal(action, f"{action.forward} is not on the field", "FF-PARTY-LEAVE-FIELD")
        return None
    if isinstance(action, Pass):
        return _why_pass_illegal(state, action, config)
    if isinstance(action, EndTurn):
        if not end_turn_window(state, config):
            return _illegal(action, "the current attack must be finished first",
                            "FF-BASE-ONE-ATTACK-AT-A-TIME", "FF-BASE-END-OF-TURN")
        if state.passed:
            return _illegal(action, "the turn player has passed: the other player holds priority",
                            "FF-BASE-ATTACK-STEPS", "FF-BASE-END-OF-TURN")
        return None
    raise TypeError(f"not an action: {action!r}")


def candidates(state: State, config: RuleConfig) -> list[Action]:
    """Every action worth checking in this state (a superset of the legal ones)."""
    found: list[Action] = [Pass(), EndTurn(), NoBlock()]
    found.extend(Remove(f.id) for _, f in state.on_field())
    if can_declare_now(state):
        able = sorted(f.id for f in state.players[state.turn_player].forwards if can_attack(state, f))
        for size in range(1, len(able) + 1):
            found.extend(DeclareAttack(ids) for ids in combinations(able, size))
    attack = state.attack
    if state.step is Step.BLOCK and attack is not None and attack.blocked is None:
        found.extend(Block(f.id) for f in state.players[state.defender].forwards)
    if needs_split(state, config):
        assert attack is not None and attack.blocker is not None
        found.extend(legal_splits(attack.attackers, state.forward(attack.blocker).power, split_unit(state, config),
                                  config))
    return found


@implements("FF-PARTY-NO-SIZE-LIMIT", "FF-PARTY-FORM-VALID", "FF-PARTY-SPLIT-THOUSANDS", "FF-PARTY-BLOCK-ANY-MEMBER")
def legal_actions(state: State, config: RuleConfig = DEFAULT) -> tuple[Action, ...]:
    """Every legal action, sorted deterministically (attacks by size then ids,
    blocks, noblock, splits, removals, pass, end-turn). Empty once the game is over.

    Enumerates every valid party of any size, every permitted blocker and
    every permitted split of the blocker's damage.
    """
    if state.outcome is not None:
        return ()
    legal = {a for a in candidates(state, config) if why_illegal(state, a, config) is None}
    return tuple(sorted(legal, key=lambda a: a.sort_key()))


def step(state: State, action: Action, config: RuleConfig = DEFAULT) -> State:
    """The state after ``action``; raises :class:`IllegalAction` if it is not legal."""
    error = why_illegal(state, action, config)
    if error is not None:
        raise error
    return settle(apply_action(state, action, config), config)


@implements("FF-BASE-ATTACK-STEPS")
def _with_priority(state: State, action: Action, config: RuleConfig) -> State | None:
    """Under ``ff-step-passing = alternating-priority`` (:func:`passes_one_by_one`): the turn player's
    pass, which only hands priority to the other player; None when ``action`` is played as under the
    chosen reading (after any action but that first pass, priority is the turn player's again)."""
    if isinstance(action, Pass) and not state.passed and passes_one_by_one(state, config):
        return replace(state, passed=True)
    return None


@implements("FF-BASE-BREAK-ZERO-POWER", "FF-BASE-BREAK-DAMAGE")
def settle(state: State, config: RuleConfig) -> State:
    """State-based checks after every action: break any Forward that should be
    (e.g. one of power 0 or less, FF-BASE-BREAK-ZERO-POWER), uncredited."""
    if any(is_broken(f) for _, f in state.on_field()):
        state = check_breaks(state, {}, config)
    return state


def apply_action(state: State, action: Action, config: RuleConfig) -> State:
    handed = _with_priority(state, action, config)
    if handed is not None:
        return handed
    if state.passed:
        state = replace(state, passed=False)
    if isinstance(action, DeclareAttack):
        return declare_attack(state, action.forwards, config)
    if isinstance(action, Block):
        return declare_block(state, action.blocker, config)
    if isinstance(action, NoBlock):
        return declare_block(state, None, config)
    if isinstance(action, Split):
        return resolve_damage_part(state, action, config)
    if isinstance(action, Remove):
        return remove_forward(state, action.forward, config)
    if isinstance(action, Pass):
        return pass_step(state, config)
    assert isinstance(action, EndTurn)
    return end_turn(state)
