"""The mutation operators: each a plausible one-token misreading of a rule, applied to one AST node.

:func:`located_changes` lists every change a function's body admits, each with the stable
``OPERATOR:HASH`` part of a mutant's ID (see :mod:`.mutants`); :class:`Apply` makes one of them.
"""

from __future__ import annotations

import ast
import hashlib
from collections import Counter
from typing import Callable, Iterator

_COMPARE_FLIPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
    ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
_NO_SWAP_CALLS = frozenset({"isinstance", "issubclass", "getattr", "hasattr", "setattr", "range", "replace"})


Change = Callable[[ast.AST], ast.AST]
"""Returns the node that replaces the one given (a copy; the given one may be changed in place)."""


def node_key(node: ast.AST) -> tuple[int, int, int, int, str]:
    """Where a node is and what it is: unique within one parse of a source."""
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0), getattr(node, "end_lineno", 0),
            getattr(node, "end_col_offset", 0), type(node).__name__)


def _flip_compare(index: int, new_op: type[ast.cmpop]) -> Change:
    def change(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Compare)
        node.ops[index] = new_op()
        return node
    return change


def _set_attr(name: str, value: object) -> Change:
    def change(node: ast.AST) -> ast.AST:
        setattr(node, name, value)
        return node
    return change


def _operand(node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.UnaryOp)
    return node.operand


def _swap(node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.Call)
    node.args = [node.args[1], node.args[0]]
    return node


def _flip_return(node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.Return) and isinstance(node.value, ast.Constant)
    node.value.value = not node.value.value
    return node


def _simple(node: ast.expr) -> bool:
    return isinstance(node, (ast.Name, ast.Attribute))


def changes_of(node: ast.AST) -> Iterator[tuple[str, Change]]:
    """(operator name, change) for each mutation the operators make of this one node."""
    if isinstance(node, ast.Compare):
        for index, op in enumerate(node.ops):
            flipped = _COMPARE_FLIPS.get(type(op))
            if flipped is not None:
                suffix = f"#{index + 1}" if len(node.ops) > 1 else ""
                yield f"{type(op).__name__}->{flipped.__name__}{suffix}", _flip_compare(index, flipped)
    elif isinstance(node, ast.BoolOp):
        if isinstance(node.op, ast.And):
            yield "and->or", _set_attr("op", ast.Or())
        else:
            yield "or->and", _set_attr("op", ast.And())
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield "not-removed", _operand
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        yield "const+1", _set_attr("value", node.value + 1)
        yield "const-1", _set_attr("value", node.value - 1)
    elif isinstance(node, ast.Return) and isinstance(node.value, ast.Constant) and type(node.value.value) is bool:
        flag = node.value.value
        yield f"return-{flag}->{not flag}", _flip_return
    elif (isinstance(node, ast.Call) and len(node.args) == 2 and all(_simple(a) for a in node.args)
          and ast.unparse(node.args[0]) != ast.unparse(node.args[1])
          and not (isinstance(node.func, ast.Name) and node.func.id in _NO_SWAP_CALLS)):
        yield "swap-args", _swap


def _body_nodes(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """Every node of the function's body, in a fixed order (decorators, defaults and annotations excluded)."""
    for statement in fn.body:
        for node in ast.walk(statement):
            if not isinstance(node, (ast.arg, ast.arguments)):
                yield node


def _fragment(node: ast.AST, parents: dict[int, ast.AST]) -> str:
    """The normalised source a mutant's ID hashes: the node, with some context when the node alone is
    common (an integer constant: its enclosing expression; a literal ``return``: the test guarding it)."""
    text = ast.unparse(node)
    if isinstance(node, ast.Constant):
        parent = parents.get(id(node))
        if isinstance(parent, ast.expr):
            return f"{ast.unparse(parent)}|{text}"
        if isinstance(parent, ast.stmt) and not hasattr(parent, "body"):
            return f"{ast.unparse(parent)}|{text}"
    if isinstance(node, ast.Return):
        parent = parents.get(id(node))
        while parent is not None and not isinstance(parent, (ast.If, ast.While)):
            parent = parents.get(id(parent))
        if isinstance(parent, (ast.If, ast.While)):
            return f"{ast.unparse(parent.test)}|{text}"
    return text


def located_changes(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[tuple[str, ast.AST, str, Change]]:
    """(ID suffix ``OPERATOR:HASH[.N]``, node, operator, change) of every mutation of the function's body,
    in body order (see the module docstring for the stable ID)."""
    parents: dict[int, ast.AST] = {}
    for statement in fn.body:
        for parent in ast.walk(statement):
            for child in ast.iter_child_nodes(parent):
                parents[id(child)] = parent
    seen: Counter[str] = Counter()
    for node in _body_nodes(fn):
        for operator, change in changes_of(node):
            digest = hashlib.sha256(_fragment(node, parents).encode()).hexdigest()[:8]
            suffix = f"{operator}:{digest}"
            seen[suffix] += 1
            yield (suffix if seen[suffix] == 1 else f"{suffix}.{seen[suffix]}"), node, operator, change


class Apply(ast.NodeTransformer):
    def __init__(self, key: tuple[int, int, int, int, str], operator: str) -> None:
        self.key, self.operator, self.applied = key, operator, 0

    def visit(self, node: ast.AST) -> ast.AST:
        node = self.generic_visit(node)
        if node_key(node) == self.key:
            for name, change in changes_of(node):
                if name == self.operator:
                    self.applied += 1
                    return ast.copy_location(change(node), node)
        return node
