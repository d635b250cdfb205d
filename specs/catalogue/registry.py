"""Traceability registry: code declares the clause IDs it implements or checks.

Model functions, SMT constraints and properties are decorated with
:func:`implements`; tests use the pytest marker ``@pytest.mark.clause(...)``
(see :mod:`cardrules.oracle.trace.pytest_plugin`). The decorator only records a link, it adds
no behaviour (like hypothesis' ``@rule``). An unknown clause ID is an error at
import time, so a typo cannot create a silent gap.

The kind of link follows from the module the decorated object lives in:
``cardrules.model.*`` is a model link, ``cardrules.specs.*`` (the SMT
encoding) an SMT link, ``cardrules.properties.*`` a property link.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal, TypeVar

from cardrules.specs.catalogue import default_catalogue

LinkKind = Literal["model", "smt", "properties", "tests"]
LINK_KINDS: tuple[LinkKind, ...] = ("model", "smt", "properties", "tests")

_PACKAGE_KINDS: dict[str, LinkKind] = {"model": "model", "specs": "smt", "properties": "properties"}

T = TypeVar("T")


class UnknownClauseError(LookupError):
    """A link names a clause ID that is not in the catalogue."""


@dataclass(frozen=True, slots=True)
class Link:
    """One declared link from a piece of code to a clause."""

    clause_id: str
    kind: LinkKind
    target: str
    """Dotted name of the function or class, or a pytest node id."""


_links: dict[tuple[str, LinkKind, str], Link] = {}


def check_ids(clause_ids: tuple[str, ...], where: str) -> None:
    """Raise :class:`UnknownClauseError` unless every ID is in the catalogue."""
    if not clause_ids:
        raise UnknownClauseError(f"{where}: names no clause ID")
    known = default_catalogue().ids
    unknown = [cid for cid in clause_ids if cid not in known]
    if unknown:
        raise UnknownClauseError(f"{where}: unknown clause ID(s) {', '.join(unknown)}")


def kind_of_module(module: str) -> LinkKind:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 and parts[0] == "cardrules" else ""
    try:
        return _PACKAGE_KINDS[top]
    except KeyError:
        raise UnknownClauseError(
            f"{module}: @implements is for code in model/, specs/ or properties/; tests use @pytest.mark.clause"
        ) from None


def record(clause_ids: tuple[str, ...], kind: LinkKind, target: str) -> None:
    """Record links from ``target`` to each clause (idempotent)."""
    check_ids(clause_ids, target)
    for clause_id in clause_ids:
        _links[(clause_id, kind, target)] = Link(clause_id, kind, target)


def implements(*clause_ids: str) -> Callable[[T], T]:
    """Mark a function or class as implementing (or checking) these clauses.

    >>> @implements("FF-PARTY-MIN-TWO")          # doctest: +SKIP
    ... def party_is_large_enough(members): ...
    """

    def mark(obj: T) -> T:
        module = getattr(obj, "__module__", "")
        name = f"{module}.{getattr(obj, '__qualname__', repr(obj))}"
        record(tuple(clause_ids), kind_of_module(module), name)
        existing: tuple[str, ...] = getattr(obj, "__clauses__", ())
        setattr(obj, "__clauses__", tuple(dict.fromkeys((*existing, *clause_ids))))
        return obj

    return mark


def clauses_of(obj: object) -> tuple[str, ...]:
    """The clause IDs declared on ``obj`` by :func:`implements` (empty if none)."""
    return tuple(getattr(obj, "__clauses__", ()))


def links() -> tuple[Link, ...]:
    """Every link recorded so far in this process, sorted."""
    return tuple(sorted(_links.values(), key=lambda l: (l.clause_id, l.kind, l.target)))
