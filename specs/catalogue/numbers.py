"""Citable numbers of the clauses (``HEAL 2.10``) and which current clause replaced a superseded one.

A clause ID (``RED-HEAL-TO-PERMANENT-CONTROLLER``) is stable but long; a judge
cites a short number: the area's letters, the section of the source the clause
comes from, and the clause's place in that section. The numbers live in
``specs/clauses/numbers/numbers.toml`` (ID -> number), never computed, so
inserting a clause takes the next free number and renumbers nothing.

The same file says, for each clause of a wording that is not its area's
current one, which current clauses now settle the same question (the docs
mark the old clause superseded and link them).

:func:`load_numbers` checks the file against the catalogue: every clause has a
number, every number is well formed, starts with its area's letters and is
used once, and every superseded clause names current replacements. A problem
is one :class:`CatalogueError` naming the file, the entry and the field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from cardrules.specs.catalogue.load import CATALOGUE_DIR, MAX_FILE_BYTES, default_catalogue
from cardrules.specs.catalogue.types import Catalogue, CatalogueError
from cardrules.specs.fileio import FileProblem, load_toml

NUMBERS_FILE = CATALOGUE_DIR / "numbers" / "numbers.toml"
"""The shipped numbers (in a folder of its own: every ``*.toml`` beside the areas is read as an area)."""

NUMBER = re.compile(r"^([A-Z]+) ([1-9][0-9]*)\.([1-9][0-9]*)$")
"""``AREA section.clause``, e.g. ``SB 2.4``."""

PREFIX = re.compile(r"^[A-Z]+$")


@dataclass(frozen=True, slots=True)
class Numbering:
    """Every clause's citable number, and the current clauses that replaced each superseded one."""

    numbers: Mapping[str, str]
    replaced_by: Mapping[str, tuple[str, ...]]

    def number(self, clause_id: str) -> str:
        return self.numbers[clause_id]

    def sort_key(self, clause_id: str) -> tuple[int, int]:
        """(section, clause) of the clause's number: reading order within an area."""
        match = NUMBER.match(self.numbers[clause_id])
        assert match is not None  # checked on load
        return int(match.group(2)), int(match.group(3))

    def clause_of(self, number: str) -> str | None:
        """The clause ID a number belongs to (spaces and case as a reader types them), or ``None``."""
        wanted = " ".join(number.upper().split())
        return next((cid for cid, n in self.numbers.items() if n == wanted), None)


def load_numbers(catalogue: Catalogue, path: Path = NUMBERS_FILE) -> Numbering:
    """Read and check the numbers file against ``catalogue``."""
    name = f"{path.parent.name}/{path.name}"
    try:
        data = load_toml(path, MAX_FILE_BYTES)
    except FileProblem as problem:
        what = f"{problem.where}: {problem.what}" if problem.where else problem.what
        raise CatalogueError(name, None, None, what) from None
    unknown = sorted(set(data) - {"areas", "numbers", "replaced_by"})
    if unknown:
        raise CatalogueError(name, None, unknown[0], "unknown table (expected areas, numbers, replaced_by)")
    prefixes = _prefixes(name, catalogue, _table(name, data, "areas"))
    numbers = _numbers(name, catalogue, prefixes, _table(name, data, "numbers"))
    replaced = _replaced_by(name, catalogue, _table(name, data, "replaced_by"))
    return Numbering(numbers=numbers, replaced_by=replaced)


def _table(name: str, data: dict[str, Any], key: str) -> dict[str, Any]:
    table = data.get(key)
    if not isinstance(table, dict):
        raise CatalogueError(name, None, key, "missing table" if table is None else "expected a table")
    return table


def _prefixes(name: str, catalogue: Catalogue, table: dict[str, Any]) -> dict[str, str]:
    areas = {a.id for a in catalogue.areas}
    seen: dict[str, str] = {}
    for area, prefix in table.items():
        if area not in areas:
            raise CatalogueError(name, area, "areas", "not an area of the catalogue")
        if not isinstance(prefix, str) or not PREFIX.match(prefix):
            raise CatalogueError(name, area, "areas", f"{prefix!r} is not upper-case letters")
        if prefix in seen:
            raise CatalogueError(name, area, "areas", f"{prefix!r} is also the letters of {seen[prefix]}")
        seen[prefix] = area
    missing = sorted(areas - set(table))
    if missing:
        raise CatalogueError(name, missing[0], "areas", "area has no letters")
    return dict(table)


def _numbers(name: str, catalogue: Catalogue, prefixes: dict[str, str], table: dict[str, Any]) -> dict[str, str]:
    ids = catalogue.ids
    seen: dict[str, str] = {}
    for clause_id, number in table.items():
        if clause_id not in ids:
            raise CatalogueError(name, clause_id, "numbers", "not a clause in the catalogue")
        match = NUMBER.match(number) if isinstance(number, str) else None
        if match is None:
            raise CatalogueError(name, clause_id, "numbers",
                                 f"{number!r} is not a number like 'SB 2.4' (letters, section.clause)")
        wanted = prefixes[catalogue.clause(clause_id).area]
        if match.group(1) != wanted:
            raise CatalogueError(name, clause_id, "numbers", f"{number!r} must start with its area's {wanted!r}")
        if number in seen:
            raise CatalogueError(name, clause_id, "numbers", f"{number!r} is also the number of {seen[number]}")
        seen[number] = clause_id
    for clause in catalogue.clauses:
        if clause.id not in table:
            raise CatalogueError(name, clause.id, "numbers", f"clause of {clause.file} has no number")
    return dict(table)


def _replaced_by(name: str, catalogue: Catalogue, table: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    ids = catalogue.ids
    current = {c.id for c in catalogue.clauses if catalogue.area(c.area).default_version in c.versions}
    out: dict[str, tuple[str, ...]] = {}
    for clause_id, replacements in table.items():
        if clause_id not in ids:
            raise CatalogueError(name, clause_id, "replaced_by", "not a clause in the catalogue")
        if clause_id in current:
            raise CatalogueError(name, clause_id, "replaced_by", "is in its area's current wording, not superseded")
        if not isinstance(replacements, list) or not replacements or not all(isinstance(r, str) for r in replacements):
            raise CatalogueError(name, clause_id, "replaced_by", "expected a non-empty list of clause IDs")
        area = catalogue.clause(clause_id).area
        for replacement in replacements:
            if replacement not in current or catalogue.clause(replacement).area != area:
                raise CatalogueError(name, clause_id, "replaced_by",
                                     f"{replacement!r} is not a current clause of the same area")
        out[clause_id] = tuple(replacements)
    for clause in catalogue.clauses:
        if clause.id not in current and clause.id not in out:
            raise CatalogueError(name, clause.id, "replaced_by", "superseded clause names no current replacement")
    return out


@lru_cache(maxsize=1)
def default_numbers() -> Numbering:
    """The shipped numbers, checked against the shipped catalogue, loaded once per process."""
    return load_numbers(default_catalogue())
