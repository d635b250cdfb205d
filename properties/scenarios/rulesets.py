"""Rule sets named on the command line: ``default``, or ``key=value`` items.

A rule-set expression is ``default`` or comma-separated items, each either
``AREA=VERSION`` (a rule area's wording, e.g. ``heal=previous``) or
``DECISION=OPTION`` (a catalogue decision's reading, e.g.
``sb-restriction-scope=card-unplayable``; never a broken variant, which only a
scenario's mutants select). The game follows from the areas and decisions
named; ``default`` is every area's default version and every decision's
chosen option. Errors name the item and list what is known.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from cardrules.properties.scenarios.loader import RuleSetSpec
from cardrules.specs.catalogue import Catalogue, default_catalogue


class RuleSetError(ValueError):
    """A rule-set expression names an unknown area, version, decision or option, or mixes games."""


@dataclass(frozen=True)
class NamedRuleSet:
    """A rule set parsed from an expression, with the game it is about (None for ``default``)."""

    text: str
    game: str | None
    spec: RuleSetSpec
    hooks: tuple[tuple[str, Callable[..., Any]], ...] = ()
    """Extension point overrides, from a proposal's model code."""
    proposal: Any = None
    """The :class:`~cardrules.oracle.rulechange.proposals.Proposal` this rule set comes from, if any."""


def parse_rule_set_expression(text: str, catalogue: Catalogue | None = None) -> NamedRuleSet:
    """Parse ``default`` or ``key=value[,key=value...]`` (see the module docstring)."""
    cat = catalogue or default_catalogue()
    text = text.strip()
    if text in ("", "default"):
        return NamedRuleSet("default", None, RuleSetSpec("default"))
    areas = {a.id: a for a in cat.areas}
    versions: dict[str, tuple[str, ...]] = {}
    decisions: dict[str, str] = {}
    games: set[str] = set()
    for item in text.split(","):
        key, sep, value = (part.strip() for part in item.partition("="))
        if not sep or not key or not value:
            raise RuleSetError(f"rule set {text!r}: {item!r} is not KEY=VALUE (an area=version or decision=option)")
        if key in versions or key in decisions:
            raise RuleSetError(f"rule set {text!r}: {key} is given twice")
        if key in areas:
            known = [v.id for v in areas[key].versions]
            if value not in known:
                raise RuleSetError(f"rule set {text!r}: area {key} has no version {value!r}; known: {', '.join(known)}")
            versions[key] = (value,)
            games.add(areas[key].game)
        elif key in cat.decisions:
            clause, decision = cat.decisions[key]
            options = [o.id for o in decision.options]
            if value not in options:
                raise RuleSetError(f"rule set {text!r}: decision {key} has no option {value!r}; "
                                   f"known: {', '.join(options)}{decision.rejected_hint(value)}")
            decisions[key] = value
            games.add(clause.game)
        else:
            raise RuleSetError(f"rule set {text!r}: {key!r} is neither a rule area nor a decision "
                               "(see 'cardrules list areas' and 'cardrules list decisions')")
    if len(games) > 1:
        raise RuleSetError(f"rule set {text!r} mixes games: {', '.join(sorted(games))}")
    return NamedRuleSet(text, games.pop(), RuleSetSpec(text, versions, decisions))


def check_selectable(game: str, spec: RuleSetSpec, catalogue: Catalogue | None = None) -> None:
    """Refuse (RuleSetError) a rule set the executable model cannot select: the one check behind both
    ``cardrules proposal check`` and ``cardrules diff``.

    A decision option is selectable when the game's model lists it
    (:attr:`cardrules.model.games.GameModel.modelled_options`, the ``model_selectable`` column of
    ``cardrules list decisions``); the model's own configuration (what ``diff`` builds) is then asked
    too, so that a version it cannot select is refused here and not halfway through a run.
    """
    from cardrules.model.errors import ScenarioError
    from cardrules.model.games import game_model

    cat = catalogue or default_catalogue()
    model = game_model(game)
    for decision_id, option_id in sorted(spec.decisions.items()):
        _, decision = cat.decisions[decision_id]
        selectable = model.modelled_options(decision_id, [o.id for o in decision.options])
        if option_id not in selectable:
            known = f"selectable: {', '.join(selectable)}" if selectable else "the model selects none of its options"
            raise RuleSetError(f"decision {decision_id}: option {option_id!r} is recorded but not selectable in the "
                               f"model ({known})")
    try:
        model.config_for(spec.versions, spec.decisions, spec.broken)
    except ScenarioError as error:
        raise RuleSetError(str(error)) from None
