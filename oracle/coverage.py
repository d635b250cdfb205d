"""Which clauses a piece of model code exercised: the ``@implements`` functions that ran.

:func:`clauses_exercised` runs a callable under :func:`sys.setprofile` and
maps every Python function that was called to the clause IDs its
``@implements`` decorator declares. It answers "which rules were involved in
this step", for blaming a divergence on clauses (:mod:`cardrules.oracle.testing`)
and for measuring what a conformance vector covers.
"""

from __future__ import annotations

import importlib
import sys
from functools import lru_cache
from types import CodeType, FrameType
from typing import Any, Callable, TypeVar

from cardrules.specs.registry import links

T = TypeVar("T")


def resolve_dotted(dotted: str) -> Any:
    """The object a dotted name (module path, then attributes) names, or None."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for name in parts[cut:]:
                obj = getattr(obj, name)
        except AttributeError:
            return None
        return obj
    return None


def _codes_of(obj: Any) -> list[CodeType]:
    """The code objects behind a linked function, or every method of a linked class."""
    obj = getattr(obj, "__wrapped__", obj)
    code = getattr(obj, "__code__", None)
    if code is not None:
        return [code]
    if isinstance(obj, type):
        return [c for member in vars(obj).values() for c in _codes_of(member) if c is not None]
    return []


def code_clause_map(kind: str, packages: tuple[str, ...]) -> dict[CodeType, tuple[str, ...]]:
    """Code object of every function of ``packages`` linked with ``@implements`` as a ``kind``
    link (``model``, ``smt``) -> its clause IDs."""
    import cardrules.oracle.trace as trace

    trace.import_linked_modules(packages)
    by_target: dict[str, list[str]] = {}
    for link in links():
        if link.kind == kind:
            by_target.setdefault(link.target, []).append(link.clause_id)
    out: dict[CodeType, tuple[str, ...]] = {}
    for target, clause_ids in by_target.items():
        for code in _codes_of(resolve_dotted(target)):
            out[code] = tuple(sorted(set(out.get(code, ())) | set(clause_ids)))
    return out


@lru_cache(maxsize=1)
def model_clause_map() -> dict[CodeType, tuple[str, ...]]:
    """Code object of every model function linked with ``@implements`` -> its clause IDs."""
    return code_clause_map("model", ("cardrules.model",))


def clauses_exercised(run: Callable[[], T], mapping: dict[CodeType, tuple[str, ...]] | None = None
                      ) -> tuple[T, frozenset[str]]:
    """Run ``run()`` and return its result and the clause IDs of the linked model functions it called
    (of the functions in ``mapping`` if given, :func:`code_clause_map`).

    The profile hook is removed again even if ``run`` raises (the exception
    propagates). Nested calls on other threads are not seen.
    """
    mapping = model_clause_map() if mapping is None else mapping
    seen: set[CodeType] = set()

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            seen.add(frame.f_code)

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = run()
    finally:
        sys.setprofile(previous)
    clauses = frozenset(c for code in seen for c in mapping.get(code, ()))
    return result, clauses
