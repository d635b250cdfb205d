"""The live oracle: the conformance suites computed in memory from the reference model, under the
readings an engine declared in its hello, instead of read from files.

The positions are those of ``cardrules conformance generate`` (:mod:`.plan` and :mod:`.generate`): for each
game asked for, the suite of each rule version in :data:`.plan.VERSION_SUITES`, planned with the decision
options the engine declared (those whose clause is in force under that version) and generated with the
same seed. Any combination of options the model can select works, even one no suite file was generated
for; an option the model cannot select is a :class:`LiveError` naming the decision and the option.
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from cardrules.model.games import GAME_NAMES, game_model
from cardrules.oracle.conformance.declaration import Declaration
from cardrules.oracle.conformance.generate import generate_suite
from cardrules.oracle.conformance.plan import VERSION_SUITES, SuitePlan, make_plan
from cardrules.properties.scenarios.rulesets import parse_rule_set_expression
from cardrules.specs.catalogue import default_catalogue
from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force

__all__ = ["LiveError", "live_plans", "live_suite", "live_suites", "live_twin", "resolved_rule_set", "suite_differences"]


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
            plans.append(make_plan(game, _as_generated(game, versions, decisions), decisions))
    return plans


def _as_generated(game: str, versions: Mapping[str, tuple[str, ...]], decisions: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """The versions the plan is named with, as ``conformance generate`` names it: options of single-version areas
    only, under every area's default version, make a plan of the default versions left unnamed (the suite file
    ``redemption-br-discard-which-losing-side-only``, not ``redemption-heal-revised+br-...``), so that the live
    suite has the file's id and rule set, and the kept plays (:data:`.targeted.KEPT_PLAYS`) named by its
    expression; any other plan names its versions."""
    catalogue = default_catalogue()
    areas = {a.id: a for a in catalogue.areas if a.game == game}
    defaults = all(tuple(v) == (areas[k].default_version,) for k, v in versions.items())
    single = all(len(catalogue.area(catalogue.decisions[d][0].area).versions) == 1 for d in decisions)
    return {} if decisions and defaults and single else dict(versions)


def live_suite(plan: SuitePlan, seed: int) -> dict[str, Any] | None:
    """The suite (in memory, same form as a file) of one live plan. An option suite is generated as
    ``conformance generate`` does (favouring positions where the option changes the outcome); when the options
    change nothing within the scenarios' bounds, where ``generate`` writes no file, it is generated without
    that preference, so that the engine is still checked on every position."""
    result = generate_suite(plan, seed=seed)
    if result.suite is None and plan.base is not None:
        unbased = SuitePlan(plan.id, plan.game, plan.expression, plan.versions, plan.decisions, None)
        result = generate_suite(unbased, seed=seed)
    return result.suite


def live_suites(declaration: Declaration, games: Sequence[str], seed: int) -> list[dict[str, Any]]:
    """The suites (in memory, same form as the files) the reference model gives under the declared
    readings, one per live plan (:func:`live_suite`)."""
    return [suite for plan in live_plans(declaration, games) if (suite := live_suite(plan, seed)) is not None]


def resolved_rule_set(plan: SuitePlan) -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
    """The plan's rule set with every area of its game at its version (the area's default when not named)."""
    areas = [a for a in default_catalogue().areas if a.game == plan.game]
    return ({a.id: tuple(plan.versions.get(a.id, (a.default_version,))) for a in areas}, dict(plan.decisions))


def live_twin(plan: SuitePlan) -> SuitePlan | None:
    """The live plan under exactly ``plan``'s rule set, for an engine declaring ``plan``'s options (``None``
    when the live oracle plans none). A file of a single-version area's option is named without the heal
    version, its live twin with it: the same rule set under another name."""
    declaration = Declaration(engine="", protocol=2, profile="full", features=None, readings=dict(plan.decisions))
    wanted = resolved_rule_set(plan)
    twins = [q for q in live_plans(declaration, [plan.game]) if resolved_rule_set(q) == wanted]
    return twins[0] if twins else None


def _first_difference(a: Any, b: Any, path: str) -> str | None:
    """The JSON path of the first place where ``a`` and ``b`` differ, or ``None``."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}.{key} ({'only in the file' if key in a else 'only live'})"
            found = _first_difference(a[key], b[key], f"{path}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            found = _first_difference(x, y, f"{path}[{i}]")
            if found is not None:
                return found
        return None if len(a) == len(b) else f"{path} ({len(a)} items in the file, {len(b)} live)"
    return None if a == b and type(a) is type(b) else path


def suite_differences(from_file: Mapping[str, Any], live: Mapping[str, Any]) -> list[str]:
    """Where a live suite's expectations differ from a suite file's: the clauses in force, and vector by
    vector (matched by id) the whole vector, positions and expected answers; empty when they agree. Both
    are compared in their JSON form."""
    file_json, live_json = json.loads(json.dumps(from_file)), json.loads(json.dumps(live))
    problems: list[str] = []
    if file_json.get("clauses_in_force") != live_json.get("clauses_in_force"):
        problems.append("clauses_in_force differ")
    file_vectors = {v["id"]: v for v in file_json["vectors"]}
    live_vectors = {v["id"]: v for v in live_json["vectors"]}
    problems += [f"{i}: only in the file" for i in file_vectors if i not in live_vectors]
    problems += [f"{i}: only live" for i in live_vectors if i not in file_vectors]
    for vector_id, vector in file_vectors.items():
        if vector_id in live_vectors:
            where = _first_difference(vector, live_vectors[vector_id], "$")
            if where is not None:
                problems.append(f"{vector_id}: differs at {where}")
    if not problems and list(file_vectors) != list(live_vectors):
        problems.append("the same vectors in another order")
    return problems
