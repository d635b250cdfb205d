"""Rule variants: which option of each recorded decision the model follows.

Every decision of the fftcg clauses in the catalogue (``party.toml``) is a
variant point. :class:`RuleConfig` maps decision ids to option ids; a decision
not mentioned follows its ``chosen`` option. Unknown decision or option ids
are rejected with :class:`model.errors.ScenarioError` naming them.

>>> RuleConfig.of({"party-last-member": "removed-from-combat"}).option("party-last-member")
'removed-from-combat'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterable, Mapping, TypeVar

from cardrules.model.errors import ScenarioError
from cardrules.model.extension import hook
from cardrules.specs.catalogue.broken import UnknownBrokenVariant, check_broken
from cardrules.specs.catalogue import Decision, default_catalogue

GAME = "fftcg"
F = TypeVar("F", bound=Callable[..., Any])

@lru_cache(maxsize=1)
def fftcg_decisions() -> dict[str, Decision]:
    """Every decision recorded on an fftcg clause, by id."""
    return {
        decision.id: decision
        for clause, decision in default_catalogue().decisions.values()
        if clause.game == GAME
    }


@lru_cache(maxsize=None)
def option_ids(decision_id: str) -> tuple[str, ...]:
    """The option ids of an fftcg decision, in catalogue order (KeyError for an unknown decision);
    asked on every rule-variant test of the model, so read from the catalogue once."""
    return tuple(o.id for o in fftcg_decisions()[decision_id].options)


UNMODELLED_OPTIONS: frozenset[tuple[str, str]] = frozenset()
"""Recorded readings the model does not implement: selecting one is refused, never run as the chosen
reading. None today: every option of every fftcg decision is a variant point."""

BROKEN: frozenset[str] = frozenset({"party-split-in-hundreds"})
"""The broken variants (:mod:`cardrules.specs.catalogue.broken`) the FFTCG model implements: selectable only
by a scenario's mutants, never as a decision option."""


@dataclass(frozen=True, slots=True)
class RuleConfig:
    """A selection of rule variants; the default is every decision's chosen option."""

    overrides: tuple[tuple[str, str], ...] = ()
    """(decision id, option id) pairs that differ from the default, sorted."""
    hooks: tuple[tuple[str, Callable[..., Any]], ...] = ()
    """Extension point name -> a proposal's function (:mod:`cardrules.model.extension`)."""
    broken: tuple[str, ...] = ()
    """Broken variants in force (:data:`BROKEN`; only a scenario's mutants select them), sorted."""

    def __post_init__(self) -> None:
        try:
            if check_broken(GAME, self.broken) != self.broken:
                raise ScenarioError("config.broken", f"must be given sorted: {list(self.broken)}")
        except UnknownBrokenVariant as error:
            raise ScenarioError("config.broken", str(error)) from None
        for name in self.broken:
            if name not in BROKEN:
                raise ScenarioError("config.broken", f"broken variant {name!r} is not implemented by the model")
        known = fftcg_decisions()
        seen: set[str] = set()
        for decision_id, option_id in self.overrides:
            if decision_id not in known:
                raise ScenarioError(
                    f"config.{decision_id}", f"unknown decision; known: {sorted(known)}"
                )
            if decision_id in seen:
                raise ScenarioError(f"config.{decision_id}", "given twice")
            seen.add(decision_id)
            options = [o.id for o in known[decision_id].options]
            if option_id not in options:
                raise ScenarioError(
                    f"config.{decision_id}",
                    f"unknown option {option_id!r}; known: {options}{known[decision_id].rejected_hint(option_id)}"
                )
            if (decision_id, option_id) in UNMODELLED_OPTIONS:
                raise ScenarioError(
                    f"config.{decision_id}", f"option {option_id!r} is recorded but not implemented by the model"
                )

    @staticmethod
    def of(choices: Mapping[str, str] | None = None, broken: Iterable[str] = ()) -> RuleConfig:
        """Build from a mapping (entries equal to the chosen option are dropped) and, for a mutant,
        broken variant ids."""
        choices = dict(choices or {})
        try:
            names = check_broken(GAME, broken)
        except UnknownBrokenVariant as error:
            raise ScenarioError("config.broken", str(error)) from None
        probe = RuleConfig(tuple(sorted(choices.items())), broken=names)  # validates ids
        known = fftcg_decisions()
        return RuleConfig(tuple((d, o) for d, o in probe.overrides if known[d].chosen != o), broken=names)

    def is_broken(self, name: str) -> bool:
        """Whether the broken variant ``name`` (one of :data:`BROKEN`) is in force."""
        if name not in BROKEN:
            raise ScenarioError("config.broken", f"broken variant {name!r} is not implemented by the model")
        return name in self.broken

    def hook(self, name: str, default: F) -> F:
        """The answer in force at an extension point: a proposal's override, else ``default``."""
        return hook(self.hooks, name, default)

    def option(self, decision_id: str) -> str:
        """The option id in force for a decision."""
        for d, o in self.overrides:
            if d == decision_id:
                return o
        try:
            return fftcg_decisions()[decision_id].chosen
        except KeyError:
            raise ScenarioError(f"config.{decision_id}", "unknown decision") from None

    def is_(self, decision_id: str, option_id: str) -> bool:
        """Whether the decision's option in force is ``option_id`` (checked to exist)."""
        options = option_ids(decision_id)
        if option_id not in options:
            raise ScenarioError(f"config.{decision_id}", f"unknown option {option_id!r}; known: {list(options)}")
        return self.option(decision_id) == option_id

    def to_json(self) -> dict[str, str]:
        """Every decision and the option in force."""
        return {d: self.option(d) for d in sorted(fftcg_decisions())}

    @staticmethod
    def from_json(data: Any) -> RuleConfig:
        if not isinstance(data, Mapping):
            raise ScenarioError("config", f"expected an object, found {type(data).__name__}")
        for key, value in data.items():
            if not isinstance(value, str):
                raise ScenarioError(f"config.{key}", "expected an option id (a string)")
        return RuleConfig.of(data)


DEFAULT = RuleConfig()
"""The project's reading: every decision at its chosen option."""


def config_for(versions: Mapping[str, tuple[str, ...]], decisions: Mapping[str, str],
               broken: Iterable[str] = ()) -> RuleConfig:
    """The configuration of a rule set's versions, decision options and broken variants; a problem is a
    :class:`ScenarioError` whose ``where`` is the field at fault (``versions``, ``decisions`` or ``broken``)."""
    if versions:
        raise ScenarioError("versions", "FFTCG areas have one version; use decisions")
    try:
        return RuleConfig.of(decisions, broken=broken)
    except ScenarioError as error:
        if error.where == "config.broken":
            raise ScenarioError("broken", error.problem) from None
        raise ScenarioError("decisions", str(error)) from None


def modelled_options(decision_id: str, options: Iterable[str]) -> list[str]:
    """The options of a decision this model can select (every option but :data:`UNMODELLED_OPTIONS`)."""
    return [o for o in options if (decision_id, o) not in UNMODELLED_OPTIONS]
