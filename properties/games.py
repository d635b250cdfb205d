"""The games as the checkers see them, by name: the explorer's view of the model and every property.

:data:`GAMES` maps a game's name to a :class:`CheckedGame`: its model
(:mod:`cardrules.model.games`), the adapter the engines explore, and its
properties, listed explicitly by each game's ``invariants`` modules. Every tool
that used to choose a game by comparing strings asks here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Mapping

from cardrules.model.errors import ScenarioError
from cardrules.model.games import GameModel, game_model
from cardrules.properties.core import Property, PropertyError
from cardrules.properties.engines.exploration import Game
from cardrules.properties.fftcg import invariants as fftcg_invariants
from cardrules.properties.fftcg import smt_faces as fftcg_smt_faces
from cardrules.properties.fftcg.game import FftcgGame
from cardrules.properties.redemption import heal_invariants as redemption_heal_invariants
from cardrules.properties.redemption import invariants as redemption_invariants
from cardrules.properties.redemption.game import RedemptionGame
from cardrules.properties.scenarios import RuleSetSpec, Scenario
from cardrules.specs.catalogue import default_catalogue


@dataclass(frozen=True)
class CheckedGame:
    """One game, as the explorer, the hypothesis machines and the verifier check it."""

    model: GameModel
    adapter: Callable[[Any], Game[Any, Any]]
    """Rule configuration -> the engines' view of the model under it."""
    properties: tuple[Property, ...]
    """Every property of the game, Python checks and z3-only ones, in the order they are stated."""
    smt_engine: bool
    """Whether ``verify``'s SMT engine (the z3 transition system) checks this game."""


def unique_properties(properties: Iterable[Property]) -> tuple[Property, ...]:
    """These properties, in order; a name given twice is a :class:`PropertyError` naming both checks."""
    seen: dict[str, Property] = {}
    for prop in properties:
        if prop.name in seen:
            first = seen[prop.name].check
            raise PropertyError(f"property {prop.name!r} is declared twice ({first.__module__}.{first.__qualname__} "
                                f"and {prop.check.__module__}.{prop.check.__qualname__})")
        seen[prop.name] = prop
    return tuple(seen.values())


GAMES: Mapping[str, CheckedGame] = {
    "fftcg": CheckedGame(
        model=game_model("fftcg"), adapter=FftcgGame, smt_engine=True,
        properties=unique_properties(fftcg_smt_faces.with_faces(fftcg_invariants.PROPERTIES)),
    ),
    "redemption": CheckedGame(
        model=game_model("redemption"), adapter=RedemptionGame, smt_engine=False,
        properties=unique_properties(redemption_heal_invariants.PROPERTIES + redemption_invariants.PROPERTIES),
    ),
}
"""Every game the checkers know, by name."""

ALL_PROPERTIES: tuple[Property, ...] = unique_properties(p for g in GAMES.values() for p in g.properties)
"""Every property of every game (names are unique across games)."""


def checked_game(name: object) -> CheckedGame:
    """The game called ``name``; a :class:`ScenarioError` at ``game`` listing the known ones otherwise."""
    return GAMES[game_model(name).name]


def make_game(game_name: object, rule_set: RuleSetSpec,
              hooks: tuple[tuple[str, Callable[..., Any]], ...] = ()) -> Game[Any, Any]:
    """The engines' view of a game under one rule set (ScenarioError naming the rule set if it is invalid).

    ``hooks``: extension point overrides from a proposal's model code.
    """
    game = checked_game(game_name)
    try:
        config = game.model.config_for(rule_set.versions, rule_set.decisions, rule_set.broken)
    except ScenarioError as error:
        raise ScenarioError(f"rule set {rule_set.name}", error.problem) from None
    return game.adapter(replace(config, hooks=hooks))


def default_version(area_id: str) -> str:
    """An area's default wording: the first version the catalogue lists."""
    return default_catalogue().area(area_id).versions[0].id


def version_map(scenario: Scenario, rule_set: RuleSetSpec) -> dict[str, frozenset[str]]:
    """Area -> the wordings a rule set selects, for every area of the scenario's game with several."""
    areas = checked_game(scenario.game).model.versioned_areas
    return {area: frozenset(rule_set.versions.get(area, (default_version(area),))) for area in areas}


def properties_for(game: str, versions: Mapping[str, frozenset[str]] | None = None) -> tuple[Property, ...]:
    """The properties of a game that apply to the given versions and have a Python check (every kind
    but ``smt``), by name."""
    chosen = [p for p in checked_game(game).properties
              if p.kind != "smt" and (versions is None or p.applies_to(versions))]
    return tuple(sorted(chosen, key=lambda p: p.name))


def smt_properties(game: str) -> tuple[Property, ...]:
    """The properties of a game with a z3 face, by name."""
    return tuple(sorted((p for p in checked_game(game).properties if p.smt), key=lambda p: p.name))


def property_named(name: str) -> Property | None:
    """The property called ``name``, of whichever game; None if there is none."""
    return next((p for p in ALL_PROPERTIES if p.name == name), None)
