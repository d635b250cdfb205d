"""Which conformance suites exist.

One suite per game and rule version (Redemption heal ``revised`` and
``previous``; FFTCG ``default``), plus one per selectable decision option
whose behaviour may differ from the default, so an engine can declare which
reading it implements. ``all`` options (the default): every option the
executable model can select (:attr:`cardrules.model.games.GameModel.modelled_options`)
other than the chosen one (broken variants, :mod:`cardrules.specs.catalogue.broken`, are
no options and get no suite); an option of a clause in a versioned area (heal)
is paired with each version in which its clause is in force, any other with
the game's default versions; and the combinations of options that the
scenarios' rule sets use. ``used`` options: only those the embedded
scenarios' rule sets use, with the versions the scenario pairs them with.
The generator keeps an option suite only when it behaves differently from
its base (same versions, no option) within the bounds, and reports the
others as skipped. Any other rule set can be asked for by expression
(``--rule-set``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from cardrules.oracle.conformance import OPTION_SETS
from cardrules.model.games import game_model
from cardrules.properties.scenarios.rulesets import parse_rule_set_expression
from cardrules.properties.scenarios import RuleSetSpec, load_scenarios
from cardrules.specs.catalogue import default_catalogue
from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force

VERSION_SUITES: tuple[tuple[str, str], ...] = (
    ("fftcg", "default"),
    ("redemption", "heal=revised"),
    ("redemption", "heal=previous"),
)
"""(game, rule-set expression) of the suites per game and rule version."""


@dataclass(frozen=True)
class SuitePlan:
    """One suite to generate: its id, game and rule set, and the rule set it is compared with."""

    id: str
    game: str
    expression: str
    versions: Mapping[str, tuple[str, ...]]
    decisions: Mapping[str, str] = field(default_factory=dict)
    base: "SuitePlan | None" = None
    """For a decision-option suite: the same versions without the options (behaviour must differ from it)."""

    @property
    def spec(self) -> RuleSetSpec:
        return RuleSetSpec(self.expression, dict(self.versions), dict(self.decisions))

    def rule_set_json(self) -> dict[str, object]:
        return {
            "expression": self.expression,
            "versions": {k: list(v) for k, v in sorted(self.versions.items())},
            "decisions": dict(sorted(self.decisions.items())),
        }


def expression_of(versions: Mapping[str, Sequence[str]], decisions: Mapping[str, str]) -> str:
    """The rule-set expression (``default`` or sorted ``key=value`` items) of versions and options."""
    items = [f"{k}={','.join(v)}" for k, v in sorted(versions.items())]
    items += [f"{k}={v}" for k, v in sorted(decisions.items())]
    return ",".join(items) or "default"


def make_plan(game: str, versions: Mapping[str, Sequence[str]], decisions: Mapping[str, str]) -> SuitePlan:
    """A suite plan for a game and rule set; option suites get their base plan."""
    versions_t = {k: tuple(v) for k, v in versions.items()}
    expression = expression_of(versions_t, decisions)
    slug = expression.replace("=", "-").replace(",", "+")
    base = make_plan(game, versions_t, {}) if decisions else None
    return SuitePlan(f"{game}-{slug}", game, expression, versions_t, dict(decisions), base)


def plan_from_expression(text: str, game: str | None) -> list[SuitePlan]:
    """Suite plans for a ``--rule-set`` expression (``default`` applies to ``game``, or to every game)."""
    named = parse_rule_set_expression(text)
    games = [named.game] if named.game else ([game] if game else ["fftcg", "redemption"])
    if game and named.game and named.game != game:
        raise ValueError(f"rule set {text!r} is about {named.game}, not {game}")
    return [make_plan(g, named.spec.versions, named.spec.decisions) for g in games]


def _option_plans_all(game: str | None) -> list[SuitePlan]:
    """One plan per selectable non-default option (per version where its clause is in force, or whose
    clauses in force it changes, for a versioned area)."""
    catalogue = default_catalogue()
    plans: list[SuitePlan] = []
    for decision_id, (clause, decision) in sorted(catalogue.decisions.items()):
        if game not in (None, clause.game):
            continue
        options = game_model(clause.game).modelled_options(decision_id, [o.id for o in decision.options])
        for option in options:
            if option == decision.chosen:
                continue
            area = catalogue.area(clause.area)
            if len(area.versions) == 1:
                plans.append(make_plan(clause.game, {}, {decision_id: option}))
                continue
            for version in area.versions:
                rule_set = RuleSet({area.id: frozenset({version.id})}, {decision_id: option})
                in_force = clauses_in_force(area.id, rule_set, catalogue)
                # an option that takes a clause out of a wording (specs.catalogue.rulesets.MEMBERSHIP_CHANGES)
                # changes that wording although its own clause is no longer in force there
                moved = in_force != clauses_in_force(area.id, RuleSet({area.id: frozenset({version.id})}, {}), catalogue)
                if clause.id in in_force or moved:
                    plans.append(make_plan(clause.game, {area.id: (version.id,)}, {decision_id: option}))
    return plans


def _option_plans_used(game: str | None) -> list[SuitePlan]:
    """One plan per decision option a scenario rule set uses (its mutants are not rule sets)."""
    plans: list[SuitePlan] = []
    for scenario in load_scenarios():
        if game not in (None, scenario.game):
            continue
        for rule_set in scenario.rule_sets:
            if rule_set.decisions:
                plans.append(make_plan(scenario.game, rule_set.versions, rule_set.decisions))
    return plans


def default_plans(game: str | None = None, options: str = "all") -> list[SuitePlan]:
    """The version suites, then one per decision option (``all`` or ``used``, see the module), by id."""
    if options not in OPTION_SETS:
        raise ValueError(f"unknown option set {options!r}; known: {', '.join(OPTION_SETS)}")
    plans: dict[str, SuitePlan] = {}
    for g, expression in VERSION_SUITES:
        if game in (None, g):
            named = parse_rule_set_expression(expression)
            plan = make_plan(g, named.spec.versions, {})
            plans[plan.id] = plan
    # ``all`` also keeps the combinations of options a scenario's rule set uses (e.g. two side battle
    # readings at once), so that ``used`` is always a part of ``all``
    found = _option_plans_used(game) if options == "used" else _option_plans_all(game) + _option_plans_used(game)
    by_id = {p.id: p for p in found if p.id not in plans}
    return list(plans.values()) + [by_id[k] for k in sorted(by_id)]


def clauses_for(plan: SuitePlan) -> tuple[str, ...]:
    """The clause IDs in force for the plan's game and rule set, in catalogue order."""
    catalogue = default_catalogue()
    rule_set = RuleSet({k: frozenset(v) for k, v in plan.versions.items()}, dict(plan.decisions))
    out: list[str] = []
    for area in catalogue.areas:
        if area.game == plan.game:
            out.extend(clauses_in_force(area.id, rule_set, catalogue))
    return tuple(out)
