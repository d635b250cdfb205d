"""Hypothesis strategies for small FFTCG attack-phase positions, and the
invariants random play from them must keep.

Reusable by any engine that reads the model's JSON form: draw a position with
:func:`positions`, play legal actions, check :func:`state_violations` on each
state and :func:`transition_violations` on each step.

Each invariant returns a list of human-readable violations (empty = holds).
All of them should hold for every sound rule configuration; the broken
variant ``party-split-in-hundreds`` (a mutant) violates :func:`split_violations`.
"""

from __future__ import annotations

from typing import Callable

from hypothesis import strategies as st

from cardrules.model.fftcg.actions import Action, Split
from cardrules.model.fftcg.config import UNMODELLED_OPTIONS, RuleConfig, fftcg_decisions
from cardrules.model.fftcg.party import is_valid_party
from cardrules.model.fftcg.state import Forward, Player, State, Step
from cardrules.specs.catalogue.registry import implements

SMALL_ELEMENTS = ("fire", "ice", "wind")
"""Few elements, so that element parties are common."""

@st.composite
def forwards(draw: st.DrawFn, forward_id: str) -> Forward:
    """A Forward with small numbers: power 1000..9000 (sometimes x500), cost 1..6."""
    elements = draw(st.sets(st.sampled_from(SMALL_ELEMENTS), min_size=1, max_size=2))
    power = draw(st.one_of(st.integers(1, 9).map(lambda k: k * 1000), st.sampled_from((500, 2500, 5500))))
    return Forward(
        id=forward_id,
        name=f"Forward {forward_id}",
        elements=frozenset(elements),
        cost=draw(st.integers(1, 6)),
        power=power,
        p_icon=draw(st.booleans()),
        dull=draw(st.sampled_from((False, False, False, True))),
        since_start=draw(st.sampled_from((True, True, True, False))),
        haste=draw(st.booleans()),
        brave=draw(st.sampled_from((False, False, True))),
        preemptive=draw(st.sampled_from((False, False, True))),
        unblockable_by_cost=draw(st.sampled_from((None, None, None, 2, 3, 4, 5))),
        unblockable_by_elements=frozenset(draw(st.sets(st.sampled_from(SMALL_ELEMENTS), max_size=1))),
    )


@st.composite
def positions(draw: st.DrawFn, max_forwards: int = 4) -> State:
    """A position at the start of an attack phase (preparation or declaration).

    Player 0's Forwards are ``a1..``, player 1's ``b1..``; damage 0..6.
    """
    turn_player = draw(st.integers(0, 1))
    players = []
    for prefix in ("a", "b"):
        count = draw(st.integers(1, max_forwards))
        players.append(
            Player(
                damage=draw(st.integers(0, 6)),
                forwards=tuple(draw(forwards(f"{prefix}{i}")) for i in range(1, count + 1)),
            )
        )
    return State(
        players=(players[0], players[1]),
        turn_player=turn_player,
        step=draw(st.sampled_from((Step.PREPARATION, Step.DECLARATION))),
    )


def _paired_with(decision_id: str) -> Callable[[str], tuple[str, str]]:
    """``option -> (decision_id, option)``."""
    return lambda option: (decision_id, option)


def sound_configs() -> st.SearchStrategy[RuleConfig]:
    """Any combination of the recorded options the model implements (never a broken variant)."""
    decisions = fftcg_decisions()
    per_decision = [
        st.sampled_from([o.id for o in d.options if (d.id, o.id) not in UNMODELLED_OPTIONS]).map(_paired_with(d.id))
        for d in sorted(decisions.values(), key=lambda d: d.id)
    ]
    return st.tuples(*per_decision).map(lambda pairs: RuleConfig.of(dict(pairs)))


KIND_WEIGHTS: dict[str, int] = {
    "DeclareAttack": 8, "Block": 6, "NoBlock": 2, "Split": 6, "Pass": 6, "Remove": 1, "EndTurn": 1,
}
"""How often random play picks each kind of action (uniform play mostly ends turns)."""


def choose_action(legal: tuple[Action, ...]) -> st.SearchStrategy[Action]:
    """One of ``legal``: first a kind of action by :data:`KIND_WEIGHTS`, then one of that kind.

    The strategy for a tuple of legal actions is made once and kept (a few hundred distinct
    tuples in a run; the same strategy draws the same way, and making it anew at every step
    of random play cost more than the draw)."""
    found = _CHOOSERS.get(legal)
    if found is None:
        if len(_CHOOSERS) >= _MAX_CHOOSERS:
            _CHOOSERS.clear()
        found = _CHOOSERS[legal] = _make_chooser(legal)
    return found


_CHOOSERS: dict[tuple[Action, ...], st.SearchStrategy[Action]] = {}
_MAX_CHOOSERS = 10_000


def _make_chooser(legal: tuple[Action, ...]) -> st.SearchStrategy[Action]:
    groups: dict[str, list[Action]] = {}
    for action in legal:
        groups.setdefault(type(action).__name__, []).append(action)
    kinds = [kind for kind in sorted(groups) for _ in range(KIND_WEIGHTS.get(kind, 1))]
    of_kind = {kind: st.sampled_from(actions) for kind, actions in groups.items()}  # made once, not per draw
    return st.sampled_from(kinds).flatmap(lambda kind: of_kind[kind])


# --- invariants ----------------------------------------------------------------


@implements("FF-PARTY-MIN-TWO", "FF-PARTY-DISBAND-UNDER-TWO", "FF-PARTY-FORM-VALID", "FF-PARTY-LEAVE-FIELD")
def party_violations(state: State, config: RuleConfig) -> list[str]:
    """While a party exists it has two or more members, all on the field and all
    sharing an element or all with the P icon."""
    attack = state.attack
    if attack is None:
        return []
    problems = []
    for fid in attack.attackers:
        if state.players[state.turn_player].forward(fid) is None:
            problems.append(f"attacker {fid} is not on the field")
    if attack.party:
        if len(attack.attackers) < 2:
            problems.append(f"party with {len(attack.attackers)} member(s)")
        members = [f for fid in attack.attackers if (f := state.players[state.turn_player].forward(fid))]
        if len(members) >= 2 and not is_valid_party(members, config):
            problems.append("party members share no element and do not all have the P icon")
    return problems


@implements("FF-BASE-BREAK-DAMAGE", "FF-PARTY-LEAVE-FIELD")
def zone_violations(state: State) -> list[str]:
    """No Forward is in two places (field and Break Zone, or twice)."""
    seen: dict[str, int] = {}
    for player in state.players:
        for forward in (*player.forwards, *player.break_zone):
            seen[forward.id] = seen.get(forward.id, 0) + 1
    return [f"{fid} appears {n} times" for fid, n in sorted(seen.items()) if n > 1]


@implements("FF-BASE-SEVEN-DAMAGE-LOSES")
def outcome_violations(state: State, legal: tuple[Action, ...]) -> list[str]:
    """A finished game has no legal action; a player at 7 damage has lost."""
    problems = []
    if state.outcome is not None and legal:
        problems.append(f"game over but {len(legal)} legal actions")
    for index, player in enumerate(state.players):
        if player.damage >= 7 and (state.outcome is None or state.outcome.winner != 1 - index):
            problems.append(f"player {index} has {player.damage} damage but has not lost")
    return problems


def state_violations(state: State, config: RuleConfig, legal: tuple[Action, ...]) -> list[str]:
    """Every per-state invariant."""
    return party_violations(state, config) + zone_violations(state) + outcome_violations(state, legal)


@implements("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")
def split_violations(before: State, action: Action) -> list[str]:
    """A split of the blocker's damage gives every member a multiple of 1000 and
    totals the blocker's power rounded down to a multiple of 1000 (the default
    reading; under ``remainder-to-one`` one share also carries the remainder)."""
    if not isinstance(action, Split) or before.attack is None or before.attack.blocker is None:
        return []
    power = before.forward(before.attack.blocker).power
    amounts = [amount for _, amount in action.shares]
    remainder = max(power, 0) % 1000
    problems = []
    odd = [a for a in amounts if a % 1000]
    if len(odd) > (1 if remainder else 0) or any(a % 1000 != remainder for a in odd):
        problems.append(f"shares {amounts} are not multiples of 1000")
    if sum(amounts) not in (max(power, 0) // 1000 * 1000, max(power, 0)):
        problems.append(f"shares {amounts} do not total the blocker's power {power}")
    return problems


@implements("FF-BASE-SEVEN-DAMAGE-LOSES")
def transition_violations(before: State, action: Action, after: State) -> list[str]:
    """Per step: player damage never decreases within a turn; a split is well formed."""
    problems = split_violations(before, action)
    if before.turn == after.turn:
        for index in (0, 1):
            if after.players[index].damage < before.players[index].damage:
                problems.append(f"player {index} damage went down")
    return problems

