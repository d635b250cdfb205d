"""The traceability matrix: for every clause, the code and tests that link to it.

Computed, never kept by hand: the model, SMT and property links come from the
:mod:`specs.catalogue.registry` (filled as the packages are imported), the test links
from collecting the test suite with the ``clause`` marker.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardrules.specs.catalogue import Catalogue, Clause
from cardrules.specs.catalogue.registry import LINK_KINDS, LinkKind, links

LINKED_PACKAGES: tuple[str, ...] = ("cardrules.model", "cardrules.specs", "cardrules.properties")
"""Packages whose modules declare links with ``@implements``."""


class TraceError(RuntimeError):
    """The matrix could not be computed (a module failed to import, tests failed to collect)."""


def expected_kinds(clause: Clause) -> tuple[LinkKind, ...]:
    """Which links a clause must have for it to count as covered.

    Every clause needs a model link and a test link; every clause but an
    assumption also needs an SMT link (assumptions are encoded as part of the
    rules that rely on them). Property links are welcome but never required.
    """
    if clause.kind == "assumption":
        return ("model", "tests")
    return ("model", "smt", "tests")


@dataclass(frozen=True, slots=True)
class TraceRow:
    """One clause and everything that links to it."""

    clause: Clause
    links: dict[LinkKind, tuple[str, ...]] = field(default_factory=dict)
    compared: int | None = None
    """How many model-vs-z3 comparisons this clause's z3 constraints took part in
    (:mod:`oracle.crosscheck.counts`); None when it has no z3 link, so nothing to compare."""

    @property
    def gaps(self) -> tuple[LinkKind, ...]:
        return tuple(kind for kind in expected_kinds(self.clause) if not self.links.get(kind))

    @property
    def never_compared(self) -> bool:
        """Encoded in z3 but compared 0 times, and not excused in the catalogue."""
        return self.compared == 0 and not self.clause.crosscheck_excuse

    def to_json(self, source_text: str) -> dict[str, Any]:
        c = self.clause
        return {
            "id": c.id,
            "title": c.title,
            "game": c.game,
            "area": c.area,
            "kind": c.kind,
            "versions": list(c.versions),
            "source": source_text,
            "statement": c.statement,
            "decisions": [d.id for d in c.decisions],
            "links": {kind: list(self.links.get(kind, ())) for kind in LINK_KINDS},
            "gaps": list(self.gaps),
            "compared": self.compared,
            "crosscheck_excuse": c.crosscheck_excuse or None,
        }


def import_linked_modules(packages: tuple[str, ...] = LINKED_PACKAGES) -> None:
    """Import every module of the linked packages so their decorators run."""
    for package_name in packages:
        package = importlib.import_module(package_name)
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{package_name}."):
            try:
                importlib.import_module(info.name)
            except Exception as error:  # report which module, not a traceback
                raise TraceError(f"cannot import {info.name}: {type(error).__name__}: {error}") from None


def default_tests_dir() -> Path | None:
    """The ``tests/`` folder of the checkout the packages were installed from, if any."""
    import cardrules.model as model

    candidate = Path(model.__file__).resolve().parent.parent / "tests"
    return candidate if candidate.is_dir() else None


def build_matrix(catalogue: Catalogue, test_links: dict[str, tuple[str, ...]],
                 compared: dict[str, int] | None = None) -> list[TraceRow]:
    """Join the catalogue, the registry, the collected tests and the comparisons per clause
    (``compared``, :func:`oracle.crosscheck.counts.load_counts`; None: not known) into rows."""
    import_linked_modules()
    known = {c.id for c in catalogue.clauses}
    dangling = sorted({f"{l.clause_id} (from {l.target})" for l in links() if l.clause_id not in known})
    dangling += sorted({f"{cid} (from test {node})" for node, ids in test_links.items() for cid in ids
                        if cid not in known})
    if dangling:
        shown = "; ".join(dangling[:5]) + (f"; and {len(dangling) - 5} more" if len(dangling) > 5 else "")
        raise TraceError(f"code or tests link to clauses this catalogue does not have: {shown}")
    by_clause: dict[str, dict[LinkKind, list[str]]] = {c.id: {} for c in catalogue.clauses}
    for link in links():
        by_clause.setdefault(link.clause_id, {}).setdefault(link.kind, []).append(link.target)
    for node_id, clause_ids in sorted(test_links.items()):
        for clause_id in clause_ids:
            by_clause.setdefault(clause_id, {}).setdefault("tests", []).append(node_id)
    rows = []
    for clause in catalogue.clauses:
        kinds = {kind: tuple(sorted(set(targets))) for kind, targets in by_clause[clause.id].items()}
        count = None if compared is None or not kinds.get("smt") else compared.get(clause.id, 0)
        rows.append(TraceRow(clause, kinds, count))
    return rows
