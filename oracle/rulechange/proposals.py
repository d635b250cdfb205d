"""Rule proposals: a TOML file that says what a committee wants to change, checked against the catalogue.

Format ``cardrules-proposal/1`` (schema: :data:`SCHEMA`, printed by
``cardrules proposal schema``)::

    format = "cardrules-proposal/1"
    id = "two-side-battles"
    title = "Two side battles per turn"
    game = "redemption"
    base = "default"                 # the rule set it changes (as on the command line)
    summary = "Why the committee considers it."

    [decisions]                      # decision id -> option id
    sb-restriction-scope = "card-unplayable"

    [versions]                       # rule area -> version
    heal = "revised"

    [clauses]
    withdrawn = ["RED-SB-RESTRICT-AFTER"]

    [[clauses.changed]]              # same fields as the catalogue
    id = "RED-SB-ONCE-PER-TURN"
    statement = "Each player may start up to two side battles per turn."

    [[clauses.added]]
    id = "RED-SB-SECOND-COSTS"
    title = "..."
    kind = "rule"
    statement = "..."

    [code]                           # only for behaviour no option covers
    model = "two_side_battles_model.py"   # functions marked @override(game, point)
    smt = "two_side_battles_smt.py"       # AREA and clause_constraints(situation)

Code is imported only when the caller allows it (``--allow-code``);
otherwise a proposal with code is refused with a message saying so. The
model module answers extension points (:mod:`cardrules.model.extension`;
``cardrules proposal points`` lists them). The SMT module names the rule
``AREA`` whose consistency situation it extends and defines
``clause_constraints(situation)``, returning clause ID ->
:class:`~cardrules.specs.smt.consistency.ClauseConstraint` for the clauses
it adds or changes, over the situation's variables
(:func:`situation_variables`).

Code runs in-process, as trusted code, under guards (:mod:`.guard`, :mod:`.proposal_code`):
a time bound on its import and on every call, every exception reported as bad
input naming the file, function and line, every hook's answer checked against
its extension point's contract.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

import jsonschema

from cardrules.properties.scenarios import RuleSetSpec
from cardrules.specs.catalogue import default_catalogue

FORMAT = "cardrules-proposal/1"
MAX_BYTES = 1_000_000
CLAUSE_ID = r"^(RED|FF)-[A-Z0-9]+(-[A-Z0-9]+)+$"

_CLAUSE_FIELDS = {
    "id": {"type": "string", "pattern": CLAUSE_ID},
    "title": {"type": "string", "minLength": 1, "maxLength": 200},
    "kind": {"enum": ["rule", "clarification", "assumption"]},
    "statement": {"type": "string", "minLength": 1, "maxLength": 4000},
    "notes": {"type": "string", "maxLength": 4000},
}
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": FORMAT,
    "type": "object",
    "required": ["format", "id", "title", "game"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": FORMAT},
        "id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]{0,63}$"},
        "title": {"type": "string", "minLength": 1, "maxLength": 200},
        "summary": {"type": "string", "maxLength": 4000},
        "game": {"enum": ["redemption", "fftcg"]},
        "base": {"type": "string", "maxLength": 500},
        "decisions": {"type": "object", "additionalProperties": {"type": "string"}},
        "versions": {"type": "object", "additionalProperties": {"type": "string"}},
        "clauses": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "withdrawn": {"type": "array", "items": {"type": "string", "pattern": CLAUSE_ID}},
                "changed": {"type": "array", "items": {
                    "type": "object", "required": ["id"], "additionalProperties": False, "properties": _CLAUSE_FIELDS}},
                "added": {"type": "array", "items": {
                    "type": "object", "required": ["id", "title", "kind", "statement"], "additionalProperties": False,
                    "properties": _CLAUSE_FIELDS}},
            },
        },
        "code": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"model": {"type": "string", "pattern": r"^[\w.-]+\.py$"},
                           "smt": {"type": "string", "pattern": r"^[\w.-]+\.py$"}},
        },
    },
}


class ProposalError(ValueError):
    """A proposal file is malformed, names unknown things, or holds code the caller did not allow."""


@dataclass
class Proposal:
    """A loaded, checked proposal."""

    path: Path
    id: str
    title: str
    game: str
    summary: str
    spec: RuleSetSpec
    """The rule set it proposes: its base with its decisions and versions applied."""
    withdrawn: tuple[str, ...] = ()
    changed: tuple[Mapping[str, str], ...] = ()
    added: tuple[Mapping[str, str], ...] = ()
    model_code: str | None = None
    smt_code: str | None = None
    hooks: tuple[tuple[str, Callable[..., Any]], ...] = ()
    """Extension point -> function, from the model module (when code was allowed)."""
    smt_area: str | None = None
    smt_constraints: Callable[[Any], Mapping[str, Any]] | None = None
    smt_clauses: frozenset[str] = frozenset()
    """The clause IDs the z3 module constrains (its answer on the area's situation at load)."""
    base: RuleSetSpec = field(default_factory=lambda: RuleSetSpec("default"))
    """The rule set it changes (its ``base``)."""
    notes: list[str] = field(default_factory=list)

    @property
    def touched(self) -> tuple[str, ...]:
        """The clause IDs the proposal's text changes."""
        return tuple(sorted({*self.withdrawn, *(c["id"] for c in self.changed), *(c["id"] for c in self.added)}))

    @property
    def rewritten(self) -> tuple[str, ...]:
        """The clause IDs the proposal changes or adds (new text, whose meaning a check must not assume)."""
        return tuple(sorted({*(c["id"] for c in self.changed), *(c["id"] for c in self.added)}))

    def executable(self) -> frozenset[str]:
        """The clauses something executable stands behind: a decision or version the proposal changes from
        its base (the decision's clause, clauses in force under one wording only), an extension point its
        model code answers (the point's clauses), or a clause its z3 module constrains."""
        from cardrules.model.extension import EXTENSION_POINTS
        from cardrules.oracle.rulechange.lockstep import changed_clauses

        out = set(changed_clauses(self.game, self.base, self.spec)) | set(self.smt_clauses)
        for name, _ in self.hooks:
            point = EXTENSION_POINTS.get((self.game, name))
            out |= set(point.clause_ids if point else ())
        return frozenset(out)

    @property
    def text_only(self) -> tuple[str, ...]:
        """The clauses the proposal changes, adds or withdraws in text only: nothing executable behind them."""
        return tuple(c for c in self.touched if c not in self.executable())

    @property
    def only_text(self) -> bool:
        """Whether every change of the proposal is text only (then nothing in play can be compared)."""
        return bool(self.touched) and not self.executable() and not self.hooks and self.smt_constraints is None


def _where(error: jsonschema.ValidationError) -> str:
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return path.lstrip(".") or "(top)"


def _read(path: Path) -> dict[str, Any]:
    """The TOML document of a proposal file: a regular file, bounded in size, nesting and integers."""
    from cardrules.specs.fileio import FileProblem, load_toml

    try:
        return load_toml(path, MAX_BYTES)
    except FileProblem as problem:
        raise ProposalError(str(problem)) from None


def load_proposal(path: Path, *, allow_code: bool = False) -> Proposal:
    """Read, validate and check a proposal file; import its code only with ``allow_code``."""
    from cardrules.properties.scenarios.rulesets import RuleSetError, check_selectable, parse_rule_set_expression

    data = _read(path)
    errors = sorted(jsonschema.Draft202012Validator(SCHEMA).iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        raise ProposalError(f"{path}: {_where(first)}: {first.message[:300]}")
    catalogue = default_catalogue()
    game = data["game"]
    try:
        base = parse_rule_set_expression(data.get("base", "default"))
    except RuleSetError as error:
        raise ProposalError(f"{path}: base: {error}") from None
    if base.game not in (None, game):
        raise ProposalError(f"{path}: base: a {base.game} rule set for a {game} proposal")
    items = [f"{k}={v}" for k, v in sorted(data.get("versions", {}).items())]
    items += [f"{k}={v}" for k, v in sorted(data.get("decisions", {}).items())]
    try:
        change = parse_rule_set_expression(",".join(items)) if items else None
    except RuleSetError as error:
        raise ProposalError(f"{path}: {error}") from None
    if change is not None and change.game != game:
        raise ProposalError(f"{path}: its decisions and versions are about {change.game}, not {game}")
    versions = {**base.spec.versions, **(change.spec.versions if change else {})}
    decisions = {**base.spec.decisions, **(change.spec.decisions if change else {})}
    try:
        check_selectable(game, RuleSetSpec(data["id"], versions, decisions), catalogue)
    except RuleSetError as error:
        raise ProposalError(f"{path}: {error}") from None
    clauses = data.get("clauses", {})
    ids = catalogue.ids
    for where, wanted in (("withdrawn", clauses.get("withdrawn", [])),
                          ("changed", [c["id"] for c in clauses.get("changed", [])])):
        for number, clause_id in enumerate(wanted):
            if clause_id not in ids or catalogue.clause(clause_id).game != game:
                raise ProposalError(f"{path}: clauses.{where}[{number}]: {clause_id} is not a {game} clause")
    for number, clause in enumerate(clauses.get("added", [])):
        if clause["id"] in ids:
            raise ProposalError(f"{path}: clauses.added[{number}]: {clause['id']} is already in the catalogue")
    proposal = Proposal(
        path, data["id"], data["title"], game, data.get("summary", ""),
        RuleSetSpec(data["id"], versions, decisions),
        tuple(clauses.get("withdrawn", [])), tuple(clauses.get("changed", [])), tuple(clauses.get("added", [])),
        data.get("code", {}).get("model"), data.get("code", {}).get("smt"), base=base.spec,
    )
    if proposal.model_code or proposal.smt_code:
        if not allow_code:
            files = ", ".join(f for f in (proposal.model_code, proposal.smt_code) if f)
            raise ProposalError(f"{path}: the proposal holds code ({files}); it runs only with --allow-code, "
                                "after you have read it")
        _load_code(proposal)
    return proposal


def _load_code(proposal: Proposal) -> None:
    """Import the proposal's code (read once, bounded) under the guards and check it; keep guarded callables.

    A problem is a :class:`ProposalError` like any other of the file (bad input, exit 3); later, while
    the code runs, its guards raise :class:`~cardrules.oracle.rulechange.guard.ProposalCodeError`.
    """
    from cardrules.oracle.rulechange.guard import ProposalCodeError
    from cardrules.oracle.rulechange.proposal_code import load_model_code, load_smt_code, try_constraints

    folder = proposal.path.parent
    try:
        if proposal.model_code:
            proposal.hooks = load_model_code(folder / proposal.model_code, proposal.game)
        if proposal.smt_code:
            added = frozenset(c["id"] for c in proposal.added)
            proposal.smt_area, proposal.smt_constraints = load_smt_code(folder / proposal.smt_code, proposal.game,
                                                                        added)
            proposal.smt_clauses = try_constraints(proposal.smt_constraints, proposal.game, proposal.smt_area,
                                                   proposal.spec)
    except ProposalCodeError as error:
        raise ProposalError(str(error)) from None


def situation_variables(situation: Any) -> dict[str, Any]:
    """A consistency situation's z3 variables by name, for a proposal's ``clause_constraints``."""
    return {str(v): v for v in (*situation.inputs, *situation.outputs)}


# --- cardrules proposal schema | points | check ------------------------------------------------
