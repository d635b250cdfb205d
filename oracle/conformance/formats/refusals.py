"""The table of refusal reasons: every ``IllegalAction`` the reference model can raise, with its clause IDs.

An engine refusing an action names the clauses that forbid it (a refusal vector compares them), so an
implementer needs the reasons the rules give and the clauses of each. They are read from the model's
source with an AST walk over every module of ``model/<game>/`` (the engine and every module it calls
are among them): each construction ``IllegalAction(action, reason, clauses)``, and each call of a local
helper that builds one from a reason and its clause IDs passed as ``*args`` (FFTCG's
``_illegal(action, reason, *clause_ids)``, Redemption's ``no(reason, *clauses)`` in ``healable``).

A reason is a template: the text of the message with ``{...}`` where the model puts a value in (a
card id, a player, a step). The clause IDs of a site are literal; where the model chooses them by a
condition (``A if c else B``) or looks them up (``{PromptKind.BLOCK: (...), ...}[kind]``) the site gives
one row per choice, with that choice's condition in ``when``. :func:`find_row` finds the row of a
refusal the model raised; the tests check every refusal met while exploring the scenarios has one.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, TypeGuard

import cardrules.model as model_package

ERROR_CLASS = "IllegalAction"


@dataclass(frozen=True)
class Refusal:
    """One way the model refuses an action: the reason's template, the clauses, where and when."""

    game: str
    reason: str
    clauses: tuple[str, ...]
    module: str
    function: str
    when: str
    line: int = 0
    """The site's line in ``module`` (orders the table; not part of its JSON, which stays put as lines move)."""

    def pattern(self) -> re.Pattern[str]:
        """A regular expression matching the reasons this row produces (each ``{...}`` matches any text)."""
        parts = re.split(r"\{[^{}]*\}", self.reason)
        return re.compile(".*".join(re.escape(p) for p in parts), re.DOTALL)

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "clauses": list(self.clauses), "module": self.module,
                "function": self.function, "when": self.when}


class UnreadableRefusal(ValueError):
    """A refusal whose reason or clause IDs the walk cannot read as written (not a literal, a choice
    between literals, or a lookup table of them): the table would be incomplete, so it fails loudly."""


def model_dir(game: str) -> Path:
    return Path(model_package.__file__).parent / game


@lru_cache(maxsize=None)
def refusal_table(game: str) -> tuple[Refusal, ...]:
    """Every refusal row of ``game``'s model, module by module in file order."""
    rows: list[Refusal] = []
    for path in sorted(model_dir(game).glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        rows.extend(sorted(_rows_of(game, f"model/{game}/{path.name}", tree), key=lambda r: r.line))
    return tuple(rows)


@dataclass(frozen=True)
class _Factory:
    """A helper building an ``IllegalAction``: which of its parameters is the reason, and where ``*ids`` start."""

    reason_index: int
    ids_from: int


def _factories(tree: ast.Module) -> dict[str, _Factory]:
    """Local functions ``f(..., reason, *ids)`` whose body builds ``IllegalAction(_, reason, ids)``."""
    found: dict[str, _Factory] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef) or node.args.vararg is None:
            continue
        params = [a.arg for a in node.args.args]
        for call in ast.walk(node):
            if _is_error(call) and len(call.args) == 3 and isinstance(call.args[1], ast.Name):
                if call.args[1].id in params and node.args.vararg.arg in ast.unparse(call.args[2]):
                    found[node.name] = _Factory(params.index(call.args[1].id), len(params))
    return found


def _is_error(node: ast.AST) -> TypeGuard[ast.Call]:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == ERROR_CLASS


def _rows_of(game: str, module: str, tree: ast.Module) -> Iterator[Refusal]:
    factories = _factories(tree)
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        function = _enclosing_function(node, parents)
        if node.func.id in factories:
            factory = factories[node.func.id]
            reason_node = node.args[factory.reason_index]
            clause_nodes: list[ast.expr] = list(node.args[factory.ids_from:])
        elif _is_error(node) and not (function is not None and function.name in factories):
            if len(node.args) != 3:
                raise UnreadableRefusal(f"{module}:{node.lineno}: {ERROR_CLASS} with {len(node.args)} arguments")
            reason_node, clause_nodes = node.args[1], [node.args[2]]
        else:
            continue
        name = _qualname(node, parents)
        where = f"{module}:{node.lineno}"
        reason = _template(reason_node, where)
        for clauses, condition in _clause_choices(clause_nodes, function, where):
            when = " and ".join(c for c in (_guard(node, parents), condition) if c)
            yield Refusal(game, reason, clauses, module, name, when, node.lineno)


def _enclosing_function(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> ast.FunctionDef | None:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.FunctionDef):
            return node
    return None


def _qualname(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> str:
    names = []
    while node in parents:
        node = parents[node]
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.append(node.name)
    return ".".join(reversed(names)) or "<module>"


def _guard(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> str:
    """The tests of the ``if`` statements around ``node`` in its function, outermost first (negated in an
    ``else``), as source text."""
    tests: list[str] = []
    child = node
    while child in parents:
        parent = parents[child]
        if isinstance(parent, ast.If):
            test = ast.unparse(parent.test)
            tests.append(test if child in parent.body else f"not ({test})" if child in parent.orelse else "")
        if isinstance(parent, (ast.FunctionDef, ast.Lambda)):
            break
        child = parent
    return " and ".join(t for t in reversed(tests) if t)


def _template(node: ast.expr, where: str) -> str:
    """A reason as a template: the literal text with ``{expression}`` where a value goes in."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        out = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                out.append(str(part.value))
            elif isinstance(part, ast.FormattedValue):
                out.append("{" + ast.unparse(part.value) + "}")
        return "".join(out)
    raise UnreadableRefusal(f"{where}: the reason {ast.unparse(node)!r} is not a literal or an f-string")


def _clause_choices(nodes: list[ast.expr], function: ast.FunctionDef | None,
                    where: str) -> list[tuple[tuple[str, ...], str]]:
    """The clause IDs a site can name, each with the condition that chooses it ('' when there is one choice)."""
    if len(nodes) == 1 and not _is_literal(nodes[0]):
        return _choices(nodes[0], function, where)
    choices: list[tuple[tuple[str, ...], str]] = [((), "")]
    for node in nodes:
        choices = [(ids + more, " and ".join(c for c in (cond, extra) if c))
                   for ids, cond in choices for more, extra in _choices(node, function, where)]
    return choices


def _is_literal(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _choices(node: ast.expr, function: ast.FunctionDef | None, where: str) -> list[tuple[tuple[str, ...], str]]:
    if isinstance(node, ast.Starred):
        return _choices(node.value, function, where)
    if _is_literal(node):
        return [((str(node.value),), "")]  # type: ignore[attr-defined]
    if isinstance(node, (ast.Tuple, ast.List)) and all(_is_literal(e) for e in node.elts):
        return [(tuple(str(e.value) for e in node.elts), "")]  # type: ignore[attr-defined]
    if isinstance(node, ast.IfExp):
        test = ast.unparse(node.test)
        return ([(ids, _both(test, c)) for ids, c in _choices(node.body, function, where)]
                + [(ids, _both(f"not ({test})", c)) for ids, c in _choices(node.orelse, function, where)])
    if isinstance(node, ast.Name) and function is not None:
        value = _assigned(function, node.id)
        if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Dict):
            key = ast.unparse(value.slice)
            return [(ids, _both(f"{key} == {ast.unparse(k)}", c))
                    for k, v in zip(value.value.keys, value.value.values) if k is not None
                    for ids, c in _choices(v, function, where)]
        if value is not None:
            return _choices(value, function, where)
    raise UnreadableRefusal(f"{where}: the clause IDs {ast.unparse(node)!r} are not literal")


def _both(a: str, b: str) -> str:
    return " and ".join(c for c in (a, b) if c)


def _assigned(function: ast.FunctionDef, name: str) -> ast.expr | None:
    """The value of the one plain assignment to ``name`` in ``function``, if any."""
    values = [n.value for n in ast.walk(function) if isinstance(n, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    return values[0] if len(values) == 1 else None


def find_row(game: str, reason: str, clauses: tuple[str, ...]) -> Refusal | None:
    """The row of the table a refusal the model raised (its reason and clause IDs) comes from, if any."""
    for row in refusal_table(game):
        if row.clauses == tuple(clauses) and row.pattern().fullmatch(reason):
            return row
    return None


def table_text(game: str) -> str:
    """The table as text: per row the clause IDs, the reason template, and where and when the model refuses."""
    lines = [f"# {game}: refusal reasons ({{...}}: a value the model fills in) and the clauses an engine names"]
    for row in refusal_table(game):
        lines.append(f"{' '.join(row.clauses)}\n    reason: {row.reason}\n    in:     {row.module} {row.function}"
                     + (f"\n    when:   {row.when}" if row.when else ""))
    return "\n".join(lines) + "\n"


def table_json(game: str) -> dict[str, Any]:
    return {"game": game, "refusals": [row.to_json() for row in refusal_table(game)]}
