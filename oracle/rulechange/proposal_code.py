"""A proposal's code, loaded and checked: its hooks and its z3 half, each wrapped in the guards.

:func:`load_model_code` and :func:`load_smt_code` read a code file once (bounded,
through :mod:`cardrules.specs.fileio`), import it from that text under the time
bound (:mod:`.guard`), and check what it defines:

* every ``@override`` function can be called as the model calls it (its
  signature binds the point's :attr:`~cardrules.model.extension.ExtensionPoint.parameters`);
* ``clause_constraints`` answers the area's consistency situation with a dict of
  clause ID -> :class:`~cardrules.specs.smt.consistency.ClauseConstraint`.

What they return is wrapped: each call runs under the guards, and each answer is
checked against the point's contract, so a model only ever sees answers it can use.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any, Callable, Mapping

from cardrules.model.extension import EXTENSION_POINTS, ExtensionError, ExtensionPoint, describe, overrides_in
from cardrules.oracle.rulechange.guard import ProposalCodeError, call_guarded, first_line, function_name, import_code
from cardrules.specs.fileio import FileProblem, read_text

MAX_CODE_BYTES = 1_000_000
"""The largest code file read (the shipped ones are under 2 kB)."""

CLAUSE_ID = re.compile(r"^(RED|FF)-[A-Z0-9]+(-[A-Z0-9]+)+$")

Hooks = tuple[tuple[str, Callable[..., Any]], ...]


def read_code(path: Path) -> str:
    """The text of a code file: a regular UTF-8 file of at most :data:`MAX_CODE_BYTES` (ProposalCodeError)."""
    try:
        return read_text(path, MAX_CODE_BYTES)
    except FileProblem as problem:
        raise ProposalCodeError(str(problem)) from None


def _hook_subject(source: str, point: str, function: object) -> Callable[[int | None], str]:
    """``FILE: hook 'POINT' (function NAME, line N)``, the line being where it failed or else its ``def``."""
    name, defined = function_name(function), first_line(function)

    def subject(line: int | None) -> str:
        at = line if line is not None else defined
        return f"{source}: hook '{point}' (function {name}" + (f", line {at})" if at is not None else ")")

    return subject


def _check_binds(point: ExtensionPoint, function: Callable[..., Any], source: str) -> None:
    """Refuse an override whose signature cannot take the arguments the model passes."""
    subject = _hook_subject(source, point.name, function)
    expected = f"{function_name(function)}({', '.join(point.parameters)})"
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        raise ProposalCodeError(f"{subject(None)}: its signature cannot be read; expected {expected}") from None
    try:
        signature.bind(*point.parameters)
    except TypeError as error:
        raise ProposalCodeError(f"{subject(None)}: takes {str(signature)[:200]}, but the model calls it as "
                                f"{expected} ({error})") from None


def _overrides(module: Any, game: str, source: str) -> Hooks:
    """The module's overrides, checked (unknown points, malformed marks, signatures): runs under the guard."""
    try:
        found = overrides_in(module, game)
    except ExtensionError as error:
        raise ProposalCodeError(str(error)) from None  # it names the file (the module's __file__)
    if not found:
        raise ProposalCodeError(f"{source}: overrides no extension point (use @override)")
    for name, function in found:
        _check_binds(EXTENSION_POINTS[(game, name)], function, source)
    return found


def guarded_hook(point: ExtensionPoint, function: Callable[..., Any], source: str) -> Callable[..., Any]:
    """``function`` as the model may call it: under the guards, its every answer checked against the contract."""
    subject = _hook_subject(source, point.name, function)
    check = point.returns.check

    def hook(*arguments: Any) -> Any:
        value = call_guarded(function, arguments, source, subject)
        try:
            problem = check(value, arguments)
        except Exception:  # noqa: BLE001 - a value so odd that checking it fails is no answer either
            problem = f"returned {describe(value)}, which cannot be checked; expected {point.returns.text}"
        if problem is not None:
            raise ProposalCodeError(f"{subject(None)}: {problem}")
        return value

    hook.__doc__ = f"The proposal's {function_name(function)} for {point.game}/{point.name}, guarded."
    setattr(hook, "__cardrules_guarded__", function)
    return hook


def load_model_code(path: Path, game: str) -> Hooks:
    """The guarded hooks of a proposal's model module (ProposalCodeError for any problem)."""
    import cardrules.model.fftcg.engine  # noqa: F401  (declares the FFTCG extension points)
    import cardrules.model.redemption.engine  # noqa: F401  (declares the Redemption extension points)

    source = str(path)
    module = import_code(read_code(path), path, "model")
    found: Hooks = call_guarded(_overrides, (module, game, source), source,
                                lambda line: f"{source}: reading its overrides" + (f" (line {line})" if line else ""))
    return tuple((name, guarded_hook(EXTENSION_POINTS[(game, name)], function, source)) for name, function in found)


def _constraints_problem(value: object, situation: Any, allowed: frozenset[str]) -> str | None:
    """What is wrong with an answer of ``clause_constraints``, or None."""
    import z3

    from cardrules.specs.smt.consistency import ClauseConstraint

    expected = "expected a dict of clause ID -> ClauseConstraint over the situation's variables"
    if type(value) is not dict:
        return f"returned {describe(value)}; {expected}"
    context = situation.background.ctx
    for key, item in value.items():
        if type(key) is not str or not CLAUSE_ID.match(key):
            return f"returned a key {describe(key) if type(key) is not str else repr(key[:60])}; expected a clause ID"
        if key not in allowed:
            return f"returned a constraint for {key}, which is neither a clause of the game nor one the proposal adds"
        if type(item) is not ClauseConstraint:
            return f"returned {describe(item)} for {key}; {expected}"
        if item.clause_id != key:
            return f"returned, for {key}, the constraint of {describe(item.clause_id)[:60]}; {expected}"
        for part in ("premise", "conclusion"):
            formula = getattr(item, part)
            if not isinstance(formula, z3.BoolRef) or formula.ctx is not context:
                return f"returned, for {key}, a {part} that is {describe(formula)}, not a z3 Boolean of the situation"
    return None


def _build_dict(build: Callable[[Any], Any], situation: Any) -> Any:
    """``build(situation)``, a mapping copied into a dict (inside the guard: a mapping's methods are its code)."""
    value = build(situation)
    return dict(value) if isinstance(value, Mapping) else value


def guarded_constraints(build: Callable[[Any], Any], source: str, allowed: frozenset[str]) -> Callable[[Any], Any]:
    """``clause_constraints`` under the guards, its answer checked (a dict of clause ID -> ClauseConstraint)."""
    name, defined = function_name(build), first_line(build)

    def subject(line: int | None) -> str:
        at = line if line is not None else defined
        return f"{source}: {name}" + (f" (line {at})" if at is not None else "")

    def constraints(situation: Any) -> Any:
        value = call_guarded(_build_dict, (build, situation), source, subject)
        problem = _constraints_problem(value, situation, allowed)
        if problem is not None:
            raise ProposalCodeError(f"{subject(None)}: {problem}")
        return value

    return constraints


def load_smt_code(path: Path, game: str, added: frozenset[str]) -> tuple[str, Callable[[Any], Any]]:
    """The area and the guarded ``clause_constraints`` of a proposal's z3 module (ProposalCodeError)."""
    from cardrules.specs.catalogue import default_catalogue

    source = str(path)
    module = import_code(read_code(path), path, "smt")
    catalogue = default_catalogue()
    areas = {a.id for a in catalogue.areas if a.game == game}
    area, build = module.__dict__.get("AREA"), module.__dict__.get("clause_constraints")
    if type(area) is not str or area not in areas or not callable(build):
        raise ProposalCodeError(f"{source}: needs AREA (one of {', '.join(sorted(areas))}) "
                                "and a function clause_constraints(situation)")
    parameters = call_guarded(lambda: len(inspect.signature(build).parameters), (), source,
                              lambda line: f"{source}: clause_constraints")
    if parameters != 1:
        raise ProposalCodeError(f"{source}: clause_constraints (line {first_line(build)}): takes {parameters} "
                                "parameters; expected clause_constraints(situation)")
    allowed = frozenset(c for c in catalogue.ids if catalogue.clause(c).game == game) | added
    return area, guarded_constraints(build, source, allowed)


def area_rule_set(game: str, area_id: str, spec: Any) -> Any:
    """The catalogue rule set of one area under a rule-set spec (its versions of the area, its decisions of the game)."""
    from cardrules.specs.catalogue import default_catalogue
    from cardrules.specs.catalogue.rulesets import RuleSet

    area = default_catalogue().area(area_id)
    versions = {area_id: frozenset(spec.versions.get(area_id, (area.default_version,)))}
    decisions = {d: o for d, o in spec.decisions.items() if default_catalogue().decisions[d][0].game == game}
    return RuleSet(versions=versions, decisions=decisions)


def try_constraints(constraints: Callable[[Any], Any], game: str, area_id: str, spec: Any) -> frozenset[str]:
    """Call the guarded ``clause_constraints`` once on the area's situation under ``spec`` (at load, to
    refuse a wrong answer before a long run); the clause IDs it constrains. A situation the encoding
    cannot build is left to the run (no clause IDs known)."""
    from cardrules.specs.smt.situations import SITUATIONS

    try:
        situation = SITUATIONS[area_id](area_rule_set(game, area_id, spec))
    except Exception:  # noqa: BLE001 - not the proposal's fault; diff reports the area as not encoded
        return frozenset()
    return frozenset(constraints(situation))
