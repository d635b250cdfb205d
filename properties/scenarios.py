"""Embedded default scenarios: small but rich positions to explore, per game and rule set.

Each scenario is a JSON file in ``properties/scenarios/``::

    {
      "name": "fftcg-party-basics",           # unique, the file's stem
      "game": "fftcg" | "redemption",
      "description": "what the position exercises",
      "bounds": {"max_turns": 1, "max_depth": null, "max_states": 100000},
      "rule_sets": [{"name": "default", "versions": {"heal": ["previous"]}, "decisions": {}}],
      "mutants":   [{"name": "...", "decisions": {...}, "expect_violated": ["property-name"]}],
      "state": { ... the model's JSON form of the start position ... }
    }

A *rule set* names versions (for areas with several) and decision options;
a *mutant* is a rule set that breaks the rules on purpose, listed with the
properties it must be caught violating. Malformed files raise
:class:`model.errors.ScenarioError` naming the file and the field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from cardrules.model.errors import ScenarioError

SCENARIO_DIR = Path(__file__).parent / "scenarios"
GAMES = ("fftcg", "redemption")


@dataclass(frozen=True)
class RuleSetSpec:
    name: str
    versions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    decisions: Mapping[str, str] = field(default_factory=dict)
    expect_violated: tuple[str, ...] = ()
    """For a mutant: the properties it must be caught violating."""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "versions": {k: list(v) for k, v in self.versions.items()}, "decisions": dict(self.decisions)}


@dataclass(frozen=True)
class Scenario:
    name: str
    game: str
    description: str
    max_turns: int | None
    max_depth: int | None
    max_states: int | None
    rule_sets: tuple[RuleSetSpec, ...]
    mutants: tuple[RuleSetSpec, ...]
    state: Mapping[str, Any]
    file: str


def parse_rule_set(data: Any, where: str, mutant: bool, lenient_name: bool = False) -> RuleSetSpec:
    """A rule set (or, with ``mutant``, a mutant) from its JSON form; errors name ``where``.

    ``lenient_name``: a missing name is allowed (traces written by other tools).
    """
    if not isinstance(data, dict):
        raise ScenarioError(where, "expected an object")
    if lenient_name and "name" not in data:
        data = {**data, "name": "unnamed"}
    allowed = {"name", "versions", "decisions"} | ({"expect_violated"} if mutant else set())
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ScenarioError(f"{where}.{unknown[0]}", "unknown field")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise ScenarioError(f"{where}.name", "expected a non-empty string")
    versions = data.get("versions", {})
    if not isinstance(versions, dict) or not all(
        isinstance(v, list) and v and all(isinstance(x, str) for x in v) for v in versions.values()
    ):
        raise ScenarioError(f"{where}.versions", "expected an object of area -> non-empty list of versions")
    decisions = data.get("decisions", {})
    if not isinstance(decisions, dict) or not all(isinstance(v, str) for v in decisions.values()):
        raise ScenarioError(f"{where}.decisions", "expected an object of decision -> option")
    expected = data.get("expect_violated", [])
    if mutant and (not isinstance(expected, list) or not expected or not all(isinstance(x, str) for x in expected)):
        raise ScenarioError(f"{where}.expect_violated", "a mutant names the properties it must violate")
    return RuleSetSpec(name, {k: tuple(v) for k, v in versions.items()}, dict(decisions), tuple(expected))


def load_scenario(path: Path) -> Scenario:
    where = path.name
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise ScenarioError(where, f"not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ScenarioError(where, "expected a JSON object")
    for key in ("name", "game", "description", "state"):
        if key not in data:
            raise ScenarioError(f"{where}: {key}", "missing required field")
    if data["game"] not in GAMES:
        raise ScenarioError(f"{where}: game", f"unknown game {data['game']!r}; known: {', '.join(GAMES)}")
    if data["name"] != path.stem:
        raise ScenarioError(f"{where}: name", f"must equal the file name {path.stem!r}")
    bounds = data.get("bounds", {})
    for key in ("max_turns", "max_depth", "max_states"):
        value = bounds.get(key)
        if value is not None and (not isinstance(value, int) or value < 0):
            raise ScenarioError(f"{where}: bounds.{key}", "expected a non-negative integer or null")
    rule_sets = tuple(
        parse_rule_set(r, f"{where}: rule_sets[{i}]", False) for i, r in enumerate(data.get("rule_sets") or [{"name": "default"}])
    )
    mutants = tuple(parse_rule_set(r, f"{where}: mutants[{i}]", True) for i, r in enumerate(data.get("mutants", [])))
    names = [r.name for r in (*rule_sets, *mutants)]
    duplicate = next((n for n in names if names.count(n) > 1), None)
    if duplicate is not None:
        raise ScenarioError(f"{where}: rule_sets", f"the name {duplicate!r} is used twice (rule sets and mutants)")
    return Scenario(
        name=data["name"],
        game=data["game"],
        description=data["description"],
        max_turns=bounds.get("max_turns"),
        max_depth=bounds.get("max_depth"),
        max_states=bounds.get("max_states", 200_000),
        rule_sets=rule_sets,
        mutants=mutants,
        state=data["state"],
        file=path.name,
    )


def load_scenarios(directory: Path = SCENARIO_DIR) -> tuple[Scenario, ...]:
    """Every embedded scenario, sorted by name."""
    return tuple(load_scenario(path) for path in sorted(directory.glob("*.json")))
