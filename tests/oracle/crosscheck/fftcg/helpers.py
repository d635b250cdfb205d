"""Small positions and a tiny breadth-first explorer for the SMT cross-check tests."""

from __future__ import annotations

import json
from collections import deque
from typing import Any

from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.engine import legal_actions, step
from cardrules.model.fftcg.state import Forward, Player, State, Step
from cardrules.oracle.crosscheck.fftcg import canonical


def fw(forward_id: str, elements: str = "fire", power: int = 5000, cost: int = 3, **fields: Any) -> Forward:
    return Forward(id=forward_id, name=forward_id.upper(), elements=frozenset(elements.split("/")),
                   cost=cost, power=power, **fields)


def position(mine: list[Forward], theirs: list[Forward], *, damage: tuple[int, int] = (0, 0),
             step_: Step = Step.DECLARATION) -> State:
    return State(players=(Player(damage=damage[0], forwards=tuple(mine)),
                          Player(damage=damage[1], forwards=tuple(theirs))), step=step_)


def root_preemptive() -> State:
    """A Pre-emptive Strike attacker, a Brave one, one blocker."""
    return position([fw("a1", preemptive=True), fw("a2", power=3000, brave=True)], [fw("b1", "water", 4000)])


def root_party() -> State:
    """Two possible parties (Ice) against a Pre-emptive 5500 blocker; the defender is at 6 damage."""
    return position(
        [fw("a1", "fire/ice", 2000), fw("a2", "ice", 5500, preemptive=True)],
        [fw("b1", "ice", 5500, preemptive=True), fw("b2", "wind", 1000)],
        damage=(5, 6),
    )


def root_restrictions() -> State:
    """A three-member P icon party with blocking restrictions, two blockers (costs 2 and 5)."""
    return position(
        [fw("a1", "fire", 2000, p_icon=True, unblockable_by_cost=4), fw("a2", "ice", 3000, p_icon=True),
         fw("a3", "wind", 1000, p_icon=True, unblockable_by_elements=frozenset({"water"}))],
        [fw("b1", "water", 4000, cost=5), fw("b2", "earth", 2000, cost=2)],
    )


def root_first_strike() -> State:
    """One Pre-emptive Strike attacker against one weaker blocker: a small, complete state space."""
    return position([fw("a1", preemptive=True)], [fw("b1", "water", 4000)])


ROOTS = (root_preemptive, root_party, root_restrictions)


def explore(root: State, config: RuleConfig, limit: int, max_turn: int = 2) -> list[State]:
    """Breadth-first: the first ``limit`` distinct states (by :func:`canonical`) from ``root``."""
    def key(s: State) -> str:
        return json.dumps(canonical(s), sort_keys=True)

    seen = {key(root)}
    queue = deque([root])
    found: list[State] = []
    while queue and len(found) < limit:
        state = queue.popleft()
        found.append(state)
        if state.turn > max_turn:
            continue
        for action in legal_actions(state, config):
            nxt = step(state, action, config)
            k = key(nxt)
            if k not in seen:
                seen.add(k)
                queue.append(nxt)
    return found
