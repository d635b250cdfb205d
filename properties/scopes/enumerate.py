"""Every start position of a scope, up to symmetry, in a fixed order, each a checked scenario.

:func:`enumerate_positions` draws the positions from the game's enumerator
(:mod:`.redemption`, :mod:`.fftcg`: where a position stands and why a real game
reaches it), checks each one exactly as a scenario file's start position is
checked (the game's ``load_state``, as :func:`cardrules.properties.scenarios.check_state` does), and keeps one
position per symmetry class: two positions are the same when the game's own
canonical key (:meth:`~cardrules.properties.engines.exploration.Game.canonical_key`:
identical cards renamed among themselves) says so. The enumerators already
choose multisets of identical cards and fix the turn player as seat 0, so
this last check rarely drops anything; it guarantees no position is explored
twice.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Hashable

from cardrules.model.errors import ScenarioError
from cardrules.model.games import game_model
from cardrules.properties.scenarios import RuleSetSpec, Scenario
import cardrules.properties.scopes.fftcg as fftcg
import cardrules.properties.scopes.redemption as redemption
from cardrules.properties.scopes.errors import ScopeError
from cardrules.properties.scopes.format import Scope

ENUMERATORS: dict[str, Any] = {"redemption": redemption, "fftcg": fftcg}


def enumerate_positions(scope: Scope) -> list[Scenario]:
    """Every start position of ``scope`` up to symmetry, in a deterministic order: scenarios named
    ``<scope>#<n>`` (from 1), bounded by the scope's bounds, under the default rule set only.

    A position the game's checks refuse, or more positions than the scope's ``max_positions``, is a
    :class:`ScopeError` naming the scope (the scope's domains are wrong, not the model).
    """
    return list(_enumerate(scope))


@lru_cache(maxsize=16)
def _enumerate(scope: Scope) -> tuple[Scenario, ...]:
    from cardrules.properties.games import make_game

    module = ENUMERATORS[scope.game]
    where = f"scope {scope.name}" if scope.source == "named" else scope.source
    game = make_game(scope.game, RuleSetSpec("default"))
    model = game_model(scope.game)
    seen: set[Hashable] = set()
    out: list[Scenario] = []
    for data in module.positions(scope):
        name = f"{scope.name}#{len(out) + 1}"
        try:  # the very check a scenario file's start position gets (check_state: the game's load_state)
            state = model.load_state(data)
        except ScenarioError as error:
            raise ScopeError(f"{where}: position {name} is not a legal position: state.{error}") from None
        key = game.canonical_key(state)
        if key in seen:
            continue
        seen.add(key)
        if scope.max_positions is not None and len(out) >= scope.max_positions:
            raise ScopeError(f"{where}: bounds.max_positions: the scope has more than {scope.max_positions:,} "
                             "positions (narrow its domains or raise the bound)")
        out.append(Scenario(
            name=name, game=scope.game, description=module.summary(data), max_turns=scope.turns,
            max_depth=scope.max_depth, max_states=scope.max_states_per_position,
            rule_sets=(RuleSetSpec("default"),), mutants=(), state=game.state_to_json(state), file=where,
        ))
    return tuple(out)


def position(scope: Scope, name: str) -> Scenario:
    """The position ``<scope>#<n>`` of ``scope`` (ScopeError naming it when there is none)."""
    prefix, _, number = name.partition("#")
    found = enumerate_positions(scope)
    if prefix != scope.name or not number.isdigit() or not 1 <= int(number) <= len(found):
        raise ScopeError(f"position {name!r}: scope {scope.name} has positions {scope.name}#1 to "
                         f"{scope.name}#{len(found)}")
    return found[int(number) - 1]
