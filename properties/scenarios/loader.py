"""Embedded default scenarios: small but rich positions to explore, per game and rule set.

Each scenario is a JSON file in ``properties/scenarios/``::

    {
      "name": "fftcg-party-basics",           # unique, the file's stem
      "game": "fftcg" | "redemption",
      "description": "what the position exercises",
      "bounds": {"max_turns": 1, "max_depth": null, "max_states": 100000},
      "rule_sets": [{"name": "default", "versions": {"heal": ["previous"]}, "decisions": {}}],
      "mutants":   [{"name": "...", "broken": ["broken-variant"], "decisions": {...},
                     "expect_violated": ["property-name"]}],
      "state": { ... the model's JSON form of the start position ... }
    }

A *rule set* names versions (for areas with several) and decision options;
a *mutant* is a rule set that breaks the rules on purpose: it names broken
variants (:mod:`cardrules.specs.catalogue.broken`, rules broken on purpose, which no
rule set may select), possibly with decision options, and the properties it
must be caught violating. Malformed files raise
:class:`model.errors.ScenarioError` naming the file and the field: each file
is checked whole when it is loaded (its bytes, every field's type and range,
its rule sets against the catalogue's decisions, and its start position by
the game's state parser), so one bad file is one clear error, never a
traceback in whichever command happens to load the scenarios.

Bounds: ``max_turns`` at most :data:`MAX_TURNS_BOUND`, ``max_depth`` at most
:data:`MAX_DEPTH_BOUND`, ``max_states`` at most :data:`MAX_STATES_BOUND`;
at most :data:`MAX_RULE_SETS` rule sets and mutants together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from cardrules.model.errors import ScenarioError, describe, json_from_file
from cardrules.model.games import GAME_NAMES, game_model

SCENARIO_DIR = Path(__file__).parent
GAMES = GAME_NAMES

TOP_FIELDS = ("name", "game", "description", "bounds", "rule_sets", "mutants", "state")
BOUND_FIELDS = ("max_turns", "max_depth", "max_states")
MAX_TURNS_BOUND = 1000
MAX_DEPTH_BOUND = 100_000
MAX_STATES_BOUND = 10_000_000
DEFAULT_MAX_STATES = 200_000
"""The state bound of a scenario that gives none (``null`` means unbounded)."""
MAX_RULE_SETS = 64
MAX_NAME = 100
MAX_SCENARIO_BYTES = 16_000_000
"""Largest scenario file read (the shipped ones are under 20 kB)."""
"""Longest scenario, rule set, area, version, decision or option name."""


@dataclass(frozen=True)
class RuleSetSpec:
    name: str
    versions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    decisions: Mapping[str, str] = field(default_factory=dict)
    expect_violated: tuple[str, ...] = ()
    """For a mutant: the properties it must be caught violating."""
    broken: tuple[str, ...] = ()
    """For a mutant: the broken variants it selects (:mod:`cardrules.specs.catalogue.broken`), sorted."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "versions": {k: list(v) for k, v in self.versions.items()},
                                "decisions": dict(self.decisions)}
        if self.broken:
            data["broken"] = list(self.broken)
        return data


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

    ``lenient_name``: a missing name is allowed (traces written by other tools). ``broken``
    (broken variants) is allowed in a mutant and in a trace (``lenient_name``: a mutant's
    counterexample replays under its broken variants), never in a scenario's rule set.
    """
    if not isinstance(data, dict):
        raise ScenarioError(where, f"expected an object, found {describe(data)}")
    if lenient_name and "name" not in data:
        data = {**data, "name": "unnamed"}
    allowed = ({"name", "versions", "decisions"} | ({"expect_violated"} if mutant else set())
               | ({"broken"} if mutant or lenient_name else set()))
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ScenarioError(f"{where}.{unknown[0]}", "unknown field")
    name = data.get("name")
    if not _is_name(name):
        raise ScenarioError(f"{where}.name", f"expected a non-empty string of at most {MAX_NAME} characters")
    versions = data.get("versions", {})
    if not isinstance(versions, dict) or not all(
        _is_name(k) and isinstance(v, list) and 0 < len(v) <= MAX_RULE_SETS and all(_is_name(x) for x in v)
        for k, v in versions.items()
    ):
        raise ScenarioError(f"{where}.versions", "expected an object of area -> non-empty list of versions")
    decisions = data.get("decisions", {})
    if not isinstance(decisions, dict) or not all(_is_name(k) and _is_name(v) for k, v in decisions.items()):
        raise ScenarioError(f"{where}.decisions", "expected an object of decision -> option")
    expected = data.get("expect_violated", [])
    if mutant and (
        not isinstance(expected, list) or not 0 < len(expected) <= MAX_RULE_SETS or not all(_is_name(x) for x in expected)
    ):
        raise ScenarioError(f"{where}.expect_violated", "a mutant names the properties it must violate")
    broken = data.get("broken", [])
    if not isinstance(broken, list) or len(broken) > MAX_RULE_SETS or not all(_is_name(x) for x in broken) \
            or len(set(broken)) != len(broken):
        raise ScenarioError(f"{where}.broken", "expected an array of distinct broken variant ids")
    return RuleSetSpec(name, {k: tuple(v) for k, v in versions.items()}, dict(decisions), tuple(expected),
                       tuple(sorted(broken)))


def _is_name(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_NAME


def _read_object(path: Path) -> dict[str, Any]:
    """The file's JSON object; unreadable bytes, bad JSON or another type name the file."""
    where = path.name
    data = json_from_file(path, where, MAX_SCENARIO_BYTES)
    if not isinstance(data, dict):
        raise ScenarioError(where, f"expected a JSON object, found {describe(data)}")
    return data


def _check_top(data: dict[str, Any], path: Path) -> None:
    where = path.name
    unknown = sorted(set(data) - set(TOP_FIELDS))
    if unknown:
        raise ScenarioError(f"{where}: {describe(unknown[0])}", f"unknown field; known: {', '.join(TOP_FIELDS)}")
    for key in ("name", "game", "description", "state"):
        if key not in data:
            raise ScenarioError(f"{where}: {key}", "missing required field")
    if data["game"] not in GAMES:
        raise ScenarioError(f"{where}: game", f"unknown game {describe(data['game'])}; known: {', '.join(GAMES)}")
    if data["name"] != path.stem:
        raise ScenarioError(f"{where}: name", f"must equal the file name {path.stem!r}")
    if not isinstance(data["description"], str):
        raise ScenarioError(f"{where}: description", f"expected a string, found {describe(data['description'])}")


def _read_bounds(data: dict[str, Any], where: str) -> dict[str, int | None]:
    """The exploration bounds, each a non-negative integer up to its maximum, or null."""
    bounds = data.get("bounds", {})
    if bounds is None:
        bounds = {}
    if not isinstance(bounds, dict):
        raise ScenarioError(f"{where}: bounds", f"expected an object of {', '.join(BOUND_FIELDS)}, found {describe(bounds)}")
    unknown = sorted(set(bounds) - set(BOUND_FIELDS))
    if unknown:
        raise ScenarioError(f"{where}: bounds.{describe(unknown[0])}", f"unknown field; known: {', '.join(BOUND_FIELDS)}")
    maxima = {"max_turns": MAX_TURNS_BOUND, "max_depth": MAX_DEPTH_BOUND, "max_states": MAX_STATES_BOUND}
    for key, maximum in maxima.items():
        value = bounds.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= maximum):
            raise ScenarioError(
                f"{where}: bounds.{key}", f"expected a non-negative integer up to {maximum:,} or null, found {describe(value)}"
            )
    return {"max_turns": bounds.get("max_turns"), "max_depth": bounds.get("max_depth"),
            "max_states": bounds.get("max_states", DEFAULT_MAX_STATES)}


def _read_rule_sets(data: dict[str, Any], where: str) -> tuple[tuple[RuleSetSpec, ...], tuple[RuleSetSpec, ...]]:
    raw_rule_sets = data.get("rule_sets") or [{"name": "default"}]
    raw_mutants = data.get("mutants", [])
    for key, value in (("rule_sets", raw_rule_sets), ("mutants", raw_mutants)):
        if not isinstance(value, list):
            raise ScenarioError(f"{where}: {key}", f"expected an array of rule sets, found {describe(value)}")
    if len(raw_rule_sets) + len(raw_mutants) > MAX_RULE_SETS:
        raise ScenarioError(f"{where}: rule_sets", f"at most {MAX_RULE_SETS} rule sets and mutants together")
    rule_sets = tuple(parse_rule_set(r, f"{where}: rule_sets[{i}]", False) for i, r in enumerate(raw_rule_sets))
    mutants = tuple(parse_rule_set(r, f"{where}: mutants[{i}]", True) for i, r in enumerate(raw_mutants))
    names = [r.name for r in (*rule_sets, *mutants)]
    duplicate = next((n for n in names if names.count(n) > 1), None)
    if duplicate is not None:
        raise ScenarioError(f"{where}: rule_sets", f"the name {duplicate!r} is used twice (rule sets and mutants)")
    return rule_sets, mutants


def check_rule_set(game: str, rule_set: RuleSetSpec, where: str) -> None:
    """The rule set's versions and decisions exist for ``game`` (ScenarioError naming ``where`` otherwise)."""
    try:
        game_model(game).config_for(rule_set.versions, rule_set.decisions, rule_set.broken)
    except ScenarioError as error:
        raise ScenarioError(f"{where}.{error.where}", error.problem) from None


def check_state(game: str, state: Any, where: str) -> None:
    """The start position reads as a state of ``game``; errors name ``where`` and the path inside the state."""
    try:
        game_model(game).load_state(state)
    except ScenarioError as error:
        inner = f"state.{error.where}" if error.where else "state"
        raise ScenarioError(f"{where}: {inner}", error.problem) from None


def load_scenario(path: Path) -> Scenario:
    """Read and check one scenario file whole (ScenarioError naming the file and the field)."""
    where = path.name
    data = _read_object(path)
    _check_top(data, path)
    bounds = _read_bounds(data, where)
    rule_sets, mutants = _read_rule_sets(data, where)
    for kind, specs in (("rule_sets", rule_sets), ("mutants", mutants)):
        for i, spec in enumerate(specs):
            check_rule_set(data["game"], spec, f"{where}: {kind}[{i}]")
    check_state(data["game"], data["state"], where)
    return Scenario(
        name=data["name"],
        game=data["game"],
        description=data["description"],
        max_turns=bounds["max_turns"],
        max_depth=bounds["max_depth"],
        max_states=bounds["max_states"],
        rule_sets=rule_sets,
        mutants=mutants,
        state=data["state"],
        file=path.name,
    )


def load_scenarios(directory: Path = SCENARIO_DIR) -> tuple[Scenario, ...]:
    """Every embedded scenario, sorted by name."""
    return tuple(load_scenario(path) for path in sorted(directory.glob("*.json")))
