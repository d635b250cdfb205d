"""The live oracle: the conformance suites computed in memory from the reference model, under the
readings an engine declared in its hello, instead of read from files.

The positions are those of ``cardrules conformance generate`` (:mod:`.plan` and :mod:`.generate`): for each
game asked for, the suite of each rule version in :data:`.plan.VERSION_SUITES`, planned with the decision
options the engine declared (those whose clause is in force under that version) and generated with the
same seed. Any combination of options the model can select works, even one no suite file was generated
for; an option the model cannot select is a :class:`LiveError` naming the decision and the option.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from cardrules.model.games import GAME_NAMES, game_model
from cardrules.oracle.conformance.declaration import Declaration
from cardrules.oracle.conformance.generate import generate_suite
from cardrules.oracle.conformance.plan import VERSION_SUITES, SuitePlan, make_plan
from cardrules.properties.scenarios.rulesets import parse_rule_set_expression
from cardrules.specs.catalogue import default_catalogue
from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force

__all__ = ["LiveError", "live_plans", "live_suites"]


class LiveError(ValueError):
    """The declaration asks for something the reference model cannot answer (bad input)."""


def _declared(declaration: Declaration, game: str) -> dict[str, str]:
    """The declared decision options of ``game``, each checked to be one the model can select."""
    catalogue = default_catalogue()
    chosen: dict[str, str] = {}
    for decision_id, option in sorted(declaration.readings.items()):
        found = catalogue.decisions.get(decision_id)
        if found is None:
            raise LiveError(f"readings: unknown decision {decision_id!r}")
        clause, decision = found
        if clause.game != game:
            continue
        options = [o.id for o in decision.options]
        if option not in options:
            raise LiveError(f"readings: decision {decision_id!r} has no option {option!r}; "
                            f"its options: {', '.join(options)}")
        if option not in game_model(game).modelled_options(decision_id, options):
            raise LiveError(f"readings: the reference model cannot select option {option!r} of decision "
                            f"{decision_id!r}, so the live oracle has no expectations for it")
        if option != decision.chosen:
            chosen[decision_id] = option
    return chosen


def _moves_clauses(game: str, versions: Mapping[str, tuple[str, ...]], decision: str, option: str) -> bool:
    """Whether selecting ``decision = option`` changes the clauses in force of the game's areas at ``versions``."""
    catalogue = default_catalogue()
    plain = RuleSet({k: frozenset(v) for k, v in versions.items()}, {})
    chosen = RuleSet({k: frozenset(v) for k, v in versions.items()}, {decision: option})
    return any(clauses_in_force(a.id, plain, catalogue) != clauses_in_force(a.id, chosen, catalogue)
               for a in catalogue.areas if a.game == game)


def live_plans(declaration: Declaration, games: Sequence[str]) -> list[SuitePlan]:
    """One plan per rule version of each game, under the declared options in force in that version."""
    catalogue = default_catalogue()
    plans: list[SuitePlan] = []
    for game in games:
        if game not in GAME_NAMES:
            raise LiveError(f"game: unknown game {game!r}; known: {', '.join(GAME_NAMES)}")
        options = _declared(declaration, game)
        for g, expression in VERSION_SUITES:
            if g != game:
                continue
            versions = parse_rule_set_expression(expression).spec.versions
            rule_set = RuleSet({k: frozenset(v) for k, v in versions.items()}, options)
            in_force = {c for area in catalogue.areas if area.game == game
                        for c in clauses_in_force(area.id, rule_set, catalogue)}
            # an option in force here, or one that changes which clauses are (a clause moved out of a
            # wording, specs.catalogue.rulesets.MEMBERSHIP_CHANGES), as conformance generate plans it
            decisions = {d: o for d, o in options.items() if catalogue.decisions[d][0].id in in_force
                         or _moves_clauses(game, versions, d, o)}
            plans.append(make_plan(game, versions, decisions))
    return plans


def live_suites(declaration: Declaration, games: Sequence[str], seed: int) -> list[dict[str, Any]]:
    """The suites (in memory, same form as the files) the reference model gives under the declared
    readings. An option suite is generated as ``conformance generate`` does (favouring positions where the
    option changes the outcome); when the options change nothing within the scenarios' bounds, where
    ``generate`` writes no file, the live suite is generated without that preference, so that the engine is
    still checked on every position."""
    suites: list[dict[str, Any]] = []
    for plan in live_plans(declaration, games):
        result = generate_suite(plan, seed=seed)
        if result.suite is None and plan.base is not None:
            unbased = SuitePlan(plan.id, plan.game, plan.expression, plan.versions, plan.decisions, None)
            result = generate_suite(unbased, seed=seed)
        if result.suite is not None:
            suites.append(result.suite)
    return suites
