"""Encode/decode round trips of the battle fragment, and states outside it."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

import pytest

from cardrules.model.redemption.actions import Attack
from cardrules.model.redemption.config import DEFAULT
from cardrules.model.redemption.engine import legal_actions
from cardrules.model.redemption.scenario import evil, hero, position
from cardrules.model.redemption.state import Effect, Fighter, Origin, OriginKind, Phase, State, Status
from cardrules.oracle.crosscheck.redemption.battle import OutOfScope, canonical, crosscheck_state, roundtrip
import cardrules.oracle.crosscheck.redemption.battle as bridge
import z3

from cardrules.specs.smt.budget import Budget

from .helpers import ROOTS, reachable, root_challenge, root_two_heroes, sources


@pytest.mark.infrastructure("the bridge's state and action translation")
@pytest.mark.parametrize("root", ROOTS, ids=lambda r: r.__name__)
def test_state_roundtrip(root: Callable[[], State]) -> None:
    """Every reachable state (draw-phase boundary states included) survives encode -> z3 -> decode,
    exactly (``to_json``), not only under the canonical projection."""
    states = reachable(root(), DEFAULT, turns=1)
    assert len(states) > 10
    for state in states:
        back = roundtrip(state)
        assert canonical(back) == canonical(state)
        assert back.to_json() == state.to_json()


@pytest.mark.infrastructure("the bridge's state and action translation")
def test_action_roundtrip() -> None:
    """Every legal model action along the explorations is one assignment of the action variables,
    decoded back to itself."""
    for root in (root_two_heroes, root_challenge):
        for state in sources(reachable(root(), DEFAULT, turns=1)):
            checker = bridge._checker(bridge.layout_of(state), bridge.variants_of(DEFAULT), Budget())
            for action in legal_actions(state):
                solver = z3.Solver()
                solver.add(*bridge.encode_action(action, checker.ts.layout, checker.a0))
                assert solver.check() == z3.sat
                assert bridge.decode_action(solver.model(), checker.ts.layout, checker.a0) == action


@pytest.mark.clause("RED-BASE-TURN-PHASES", "RED-BASE-STATUSES", "RED-BASE-HERO-VS-EVIL")
def test_out_of_scope_states_are_refused() -> None:
    base = root_two_heroes()
    with_deck = replace(base, zones=(replace(base.zones[0], deck=("g1",), hand=base.zones[0].hand - {"g1"}),
                                     base.zones[1]))
    with_status = replace(base, statuses=frozenset({("h1", Status.PARALYZED)}))
    ability = replace(base, cards=tuple(replace(c, ability=Effect.DISCARD) if c.id == "g1" else c for c in base.cards))
    three = position([hero("h1", 0, 1, 1), evil("e1", 1, 1, 1), evil("e2", 2, 1, 1)],
                     {0: {"territory": ["h1"]}, 1: {"territory": ["e1"]}, 2: {"territory": ["e2"]}}, 3)
    for state, why in ((with_deck, "deck"), (with_status, "statuses"), (ability, "ability"), (three, "players")):
        with pytest.raises(OutOfScope, match=why):
            roundtrip(state)
    draw = replace(base, phase=Phase.DRAW)
    assert canonical(roundtrip(draw)) == canonical(draw)
    assert not crosscheck_state(draw)


@pytest.mark.clause("RED-BASE-HERO-VS-EVIL")
def test_type_invariant_refuses_an_evil_character_on_the_hero_side() -> None:
    """In the vocabulary, but breaking the type invariant: an Evil Character on side 0."""
    state = root_two_heroes()
    from cardrules.model.redemption.engine import step

    state = step(state, Attack(1, ("h1",)))
    battle = state.battles[0]
    wrong = Fighter("e1", 0, (Origin(OriginKind.TERRITORY, 0),))
    zones = (state.zones[0], replace(state.zones[1], territory=frozenset()))
    broken = replace(state, zones=zones, battles=(replace(battle, sides=((*battle.sides[0], wrong), ())),))
    with pytest.raises(OutOfScope):
        roundtrip(broken)


@pytest.mark.infrastructure("the transition system builds each step's action encodings once")
def test_the_checker_builds_the_action_encodings_once_and_records_their_clauses() -> None:
    state = root_two_heroes()
    checker = bridge._Checker(bridge.layout_of(state), bridge.variants_of(DEFAULT), Budget())
    built = checker.ts.actions(0)
    # the guards' and the relation's solvers were given the very encodings recorded for the clause counts
    assert checker.ts.actions(0) is built
    assert len(built) == len(checker.kind_clauses) == len(checker.ts.action_makers())
    # the attack kind's encoding is written by @implements functions: its clauses are recorded
    assert checker.kind_clauses[bridge.action_kind(Attack(1, ("h1",)))]
    with pytest.raises(RuntimeError, match="built already"):
        checker.ts.use_actions(0, built)
