"""hypothesis strategies for Redemption positions and random legal play.

Reusable by any engine's tests: :func:`positions` draws a well-formed game
start (2 to 4 players, the turn's player in the battle phase by default)
with Heroes, Evil Characters, enhancements carrying every modelled ability,
Lost Souls and decks; :func:`play` draws a run of legal actions from it.
"""

from __future__ import annotations

from typing import Callable

from hypothesis import strategies as st

from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.engine import legal_actions, step
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero, position, soul
from cardrules.model.redemption.state import Card, Effect, Phase, State

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


# --- heal and redirect -----------------------------------------------------------

RICH_ABILITIES: tuple[Effect | None, ...] = (
    None,
    Effect.SIDE_BATTLE,
    Effect.DISCARD,
    Effect.DISCARD_OPPOSING,
    Effect.INTERRUPT,
    Effect.INTERRUPT,
    Effect.INTERRUPT,
    Effect.POISON,
    Effect.PARALYZE,
    Effect.DECREASE,
    Effect.HEAL,
    Effect.HEAL,
    Effect.RESTORE,
    Effect.REDIRECT_ABILITY,
    Effect.REDIRECT_ABILITY,
    Effect.REDIRECT_ABILITY,
    Effect.REDIRECT_NUMBERS,
    Effect.REDIRECT_BOTH,
)
"""Enhancement abilities of :func:`rich_positions`: every modelled effect, heals and redirects included."""


REDIRECT_HEAVY: tuple[Effect | None, ...] = (
    Effect.DISCARD,
    Effect.DISCARD_OPPOSING,
    Effect.POISON,
    Effect.INTERRUPT,
    Effect.INTERRUPT,
    Effect.REDIRECT_ABILITY,
    Effect.REDIRECT_ABILITY,
    Effect.REDIRECT_NUMBERS,
    Effect.REDIRECT_BOTH,
    Effect.HEAL,
)
"""Abilities for runs that should often reach interrupted abilities and their redirects."""


@st.composite
def rich_positions(
    draw: Callable, players: st.SearchStrategy[int] = st.integers(2, 3), abilities: tuple[Effect | None, ...] = RICH_ABILITIES
) -> State:
    """A position with heal and redirect material: healing and redirecting
    enhancements (numbers redirects stating an amount or not), characters with a heal ability (some with Territory Class),
    characters whose owner is not their permanent controller, and characters
    that start poisoned, diseased or paralyzed. Player 0's battle, preparation
    or discard phase."""
    from dataclasses import replace

    from cardrules.model.redemption.state import Alignment, CardType, Status

    n = draw(players)
    cards: list[Card] = []
    zones: dict[int, dict[str, list[str]]] = {}
    statuses: set[tuple[str, Status]] = set()
    for p in range(n):
        z: dict[str, list[str]] = {"territory": [], "hand": [], "bondage": [], "deck": []}
        for i in range(draw(st.integers(1, 3))):
            # Player 0 (who attacks) has mostly Heroes, the others mostly Evil Characters.
            good = (p == 0) == (i == 0 or draw(st.integers(0, 3)) > 0)
            owner = draw(st.sampled_from([p, p, (p + 1) % n]))
            ability = Effect.HEAL if draw(st.integers(0, 3)) == 0 else None
            card = Card(
                f"p{p}c{i}", CardType.CHARACTER, owner, Alignment.GOOD if good else Alignment.EVIL,
                frozenset({"blue" if good else "crimson"}), draw(st.integers(0, 4)), draw(st.integers(1, 4)),
                territory_class=draw(st.booleans()), ability=ability,
            )
            cards.append(card)
            z["territory"].append(card.id)
            if draw(st.integers(0, 3)) == 0:
                statuses.add((card.id, draw(st.sampled_from(list(Status)))))
        for i in range(draw(st.integers(2, 6))):
            maker = good_enh if (p == 0) == (draw(st.integers(0, 3)) > 0) else evil_enh
            ability = draw(st.sampled_from(abilities))
            # a numbers redirect may state its amount, at times more than its target prints
            numbers_redirect = ability in (Effect.REDIRECT_NUMBERS, Effect.REDIRECT_BOTH)
            stated = draw(st.none() | st.tuples(st.integers(0, 4), st.integers(0, 4))) if numbers_redirect else None
            card = maker(f"p{p}n{i}", p, draw(st.integers(0, 3)), draw(st.integers(0, 2)), ability, stated_amount=stated)
            cards.append(card)
            z["hand"].append(card.id)
        for i in range(draw(st.integers(0, 1))):
            card = soul(f"p{p}s{i}", p)
            cards.append(card)
            z["bondage"].append(card.id)
        zones[p] = z
    phase = draw(st.sampled_from([Phase.BATTLE, Phase.BATTLE, Phase.PREPARATION, Phase.DISCARD]))
    return replace(position(cards, zones, n, phase=phase), statuses=frozenset(statuses))


QUIET: frozenset[str] = frozenset({"next", "pass", "noblock", "discard", "decline"})
"""Actions that end something; :func:`transitions` prefers the others seven times in eight,
so runs reach heals, redirects and interrupts instead of passing through phases."""


@st.composite
def transitions(
    draw: Callable, config: RuleConfig = DEFAULT, steps: int = 40, abilities: tuple[Effect | None, ...] = RICH_ABILITIES
) -> list[tuple[State, object, State]]:
    """A random rich position and a random legal run from it, as ``(state, action, next state)``."""
    state = draw(rich_positions(abilities=abilities))
    out: list[tuple[State, object, State]] = []
    for _ in range(steps):
        actions = legal_actions(state, config)
        if not actions:
            break
        busy = [a for a in actions if a.text().split()[0] not in QUIET]
        pool = busy if busy and draw(st.integers(0, 7)) > 0 else actions
        action = draw(st.sampled_from(pool))
        after = step(state, action, config)
        out.append((state, action, after))
        state = after
    return out
