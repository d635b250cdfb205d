"""hypothesis strategies for Redemption positions and random legal play.

Reusable by any engine's tests: :func:`positions` draws a well-formed game
start (2 to 4 players, the turn's player in the battle phase by default)
with Heroes, Evil Characters, enhancements carrying every modelled ability,
Lost Souls and decks; :func:`play` draws a run of legal actions from it.
"""

from __future__ import annotations

from typing import Callable

from hypothesis import strategies as st

from model.redemption.config import DEFAULT, RuleConfig
from model.redemption.engine import legal_actions, step
from model.redemption.scenario import evil, evil_enh, good_enh, hero, position, soul
from model.redemption.state import Card, Effect, Phase, State

ABILITIES: tuple[Effect | None, ...] = (
    None,
    Effect.SIDE_BATTLE,
    Effect.SIDE_BATTLE,
    Effect.DISCARD,
    Effect.INTERRUPT,
    Effect.NEGATE,
    Effect.PARALYZE,
    Effect.DRAW_ON_SUCCESS,
)


@st.composite
def positions(draw: Callable, players: st.SearchStrategy[int] = st.integers(2, 4), phase: Phase = Phase.BATTLE) -> State:
    """A game position at the start of a phase of player 0's turn."""
    n = draw(players)
    cards: list[Card] = []
    zones: dict[int, dict[str, list[str]]] = {}
    numbers = st.integers(0, 4)
    for p in range(n):
        z: dict[str, list[str]] = {"territory": [], "hand": [], "bondage": [], "deck": []}
        for i in range(draw(st.integers(1, 3))):
            card = hero(f"p{p}h{i}", p, draw(numbers), draw(st.integers(1, 4)))
            cards.append(card)
            z["territory"].append(card.id)
        for i in range(draw(st.integers(0, 3))):
            card = evil(f"p{p}e{i}", p, draw(numbers), draw(st.integers(1, 4)))
            cards.append(card)
            z["territory"].append(card.id)
        for i in range(draw(st.integers(0, 4))):
            maker = good_enh if draw(st.booleans()) else evil_enh
            card = maker(f"p{p}n{i}", p, draw(st.integers(0, 3)), draw(st.integers(0, 2)), draw(st.sampled_from(ABILITIES)))
            cards.append(card)
            z["hand"].append(card.id)
        for i in range(draw(st.integers(0, 2))):
            card = soul(f"p{p}s{i}", p)
            cards.append(card)
            z["bondage"].append(card.id)
        for i in range(draw(st.integers(0, 3))):
            card = hero(f"p{p}d{i}", p, 1, 1) if i % 2 else soul(f"p{p}ds{i}", p)
            cards.append(card)
            z["deck"].append(card.id)
        zones[p] = z
    return position(cards, zones, n, phase=phase)


@st.composite
def play(draw: Callable, start: State, steps: int = 40, config: RuleConfig = DEFAULT) -> list[State]:
    """The states of a random run of up to ``steps`` legal actions from ``start``."""
    states = [start]
    state = start
    for _ in range(steps):
        actions = legal_actions(state, config)
        if not actions:
            break
        action = draw(st.sampled_from(actions))
        state = step(state, action, config)
        states.append(state)
    return states


@st.composite
def runs(draw: Callable, steps: int = 40, config: RuleConfig = DEFAULT) -> list[State]:
    """A random position and a random legal run from it."""
    start = draw(positions())
    return draw(play(start, steps, config))
