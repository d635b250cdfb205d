"""What the clause catalogue is made of: areas, versions, clauses, decisions, sources.

The loader (:mod:`.load`) builds these from ``specs/clauses/*.toml``; the
format is documented in ``specs/clauses/FORMAT.md``. Every value is frozen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping

GAMES: Mapping[str, str] = {"redemption": "RED", "fftcg": "FF"}
"""Game id -> the GAME part of its clause IDs."""

KINDS: tuple[str, ...] = (
    "rule",
    "default-condition",
    "special-condition",
    "clarification",
    "assumption",
)
"""Known clause kinds, in the order the docs list them."""

AREA_CODES: Mapping[str, str] = {
    "side-battle": "SB",
    "heal": "HEAL",
    "battle-resolution": "BR",
    "redirect": "RD",
    "party": "PARTY",
    "red-base": "BASE",
    "ff-base": "BASE",
}
"""Area id -> the AREA part of its clause IDs."""

BASE_AREAS = frozenset({"red-base", "ff-base"})
"""Areas that hold only assumption clauses."""

CLAUSE_ID = re.compile(r"^(RED|FF)-(SB|HEAL|BR|RD|PARTY|BASE)-[A-Z0-9]+(-[A-Z0-9]+){0,4}$")
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9.]+)*$")


class CatalogueError(Exception):
    """A catalogue file is malformed; the message names file, clause and field."""

    def __init__(self, file: str, clause: str | None, field: str | None, problem: str) -> None:
        self.file = file
        self.clause = clause
        self.field = field
        self.problem = problem
        where = ": ".join(part for part in (file, clause, field) if part)
        super().__init__(f"{where}: {problem}")


@dataclass(frozen=True, slots=True)
class Source:
    """A document that clauses may cite."""

    id: str
    title: str
    file: str | None
    """The seed file name, for seed sources."""
    sections: tuple[str, ...] | None
    """Citable section headings; ``None`` means any section text is accepted."""


@dataclass(frozen=True, slots=True)
class Citation:
    """Where a clause comes from: a source and a section of it."""

    doc: str
    section: str

    def text(self, sources: Mapping[str, Source]) -> str:
        source = sources.get(self.doc)
        name = source.file if source and source.file else self.doc
        return f"{name}, {self.section}"


@dataclass(frozen=True, slots=True)
class OptionExcuse:
    """Clauses in force that no conformance vector of a suite selecting the option can exercise, and why."""

    clauses: tuple[str, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class Option:
    """One reading of an ambiguous passage."""

    id: str
    reading: str
    conformance_excuse: OptionExcuse | None = None
    """For a suite selecting this option: the clauses it leaves unexercised, and why (rare; see FORMAT.md)."""
    same_play: str = ""
    """Why this option, though a different reading, gives the same play as the chosen one (empty: it
    changes behaviour, or it is the chosen option). See FORMAT.md."""
    unseen_here: str = ""
    """Why no embedded scenario or named scope reaches a position where this option plays differently
    (``cardrules diff`` prints it when it finds no difference); empty when some does. See FORMAT.md."""


@dataclass(frozen=True, slots=True)
class Decision:
    """How the project reads a passage the text leaves ambiguous or open."""

    id: str
    question: str
    chosen: str
    """The id of the chosen option; models default to it."""
    why: str
    options: tuple[Option, ...]
    rejected: tuple[Option, ...] = ()
    """Alternatives weighed and rejected as no reading of the text (never selectable; a rule broken
    on purpose lives on as a broken variant, :mod:`cardrules.specs.catalogue.broken`). A decision with one
    option names at least one."""

    def option(self, option_id: str) -> Option:
        for option in self.options:
            if option.id == option_id:
                return option
        raise KeyError(option_id)

    def rejected_hint(self, option_id: str) -> str:
        """For an error about an unknown option: if ``option_id`` is a rejected alternative, a
        sentence saying so (with a leading space), else ``""``."""
        for option in self.rejected:
            if option.id == option_id:
                return (f" ({option_id!r} is an alternative the catalogue rejects as no reading of the text, "
                        f"not an option: {option.reading})")
        return ""

    @property
    def alternatives(self) -> tuple[Option, ...]:
        return tuple(o for o in self.options if o.id != self.chosen)


@dataclass(frozen=True, slots=True)
class Version:
    """A wording of one rule area (a seed text, a previous wording, a proposal)."""

    id: str
    title: str
    description: str


@dataclass(frozen=True, slots=True)
class Clause:
    """One rule, condition, clarification or assumption, with a stable ID."""

    id: str
    title: str
    game: str
    area: str
    kind: str
    versions: tuple[str, ...]
    statement: str
    source: Citation
    refs: tuple[str, ...]
    notes: str
    decisions: tuple[Decision, ...]
    file: str
    crosscheck_excuse: str = ""
    """Why the model-vs-z3 cross-check may compare this clause 0 times (empty: it must compare it);
    the clause's own ``crosscheck_excuse``, else its area's."""
    conformance_excuse: str = ""
    """Why no generated conformance vector may exercise this clause (empty: one must);
    the clause's own ``conformance_excuse``, else its area's."""


@dataclass(frozen=True, slots=True)
class Area:
    """A rule area: one catalogue file."""

    id: str
    code: str
    game: str
    title: str
    summary: str
    default_version: str
    versions: tuple[Version, ...]
    file: str
    crosscheck_excuse: str = ""
    """Why the cross-check may compare the area's clauses 0 times (each clause may give its own)."""
    conformance_excuse: str = ""
    """Why no conformance vector may exercise the area's clauses (each clause may give its own)."""

    def version(self, version_id: str) -> Version:
        for version in self.versions:
            if version.id == version_id:
                return version
        raise KeyError(version_id)


@dataclass(frozen=True, slots=True)
class Catalogue:
    """Every area, clause, decision and source, validated and cross-linked."""

    sources: Mapping[str, Source]
    areas: tuple[Area, ...]
    clauses: tuple[Clause, ...]
    _decisions: Mapping[str, tuple[Clause, Decision]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_decisions", {d.id: (c, d) for c in self.clauses for d in c.decisions})

    def clause(self, clause_id: str) -> Clause:
        for clause in self.clauses:
            if clause.id == clause_id:
                return clause
        raise KeyError(clause_id)

    def area(self, area_id: str) -> Area:
        for area in self.areas:
            if area.id == area_id:
                return area
        raise KeyError(area_id)

    @property
    def ids(self) -> frozenset[str]:
        return frozenset(c.id for c in self.clauses)

    @property
    def decisions(self) -> Mapping[str, tuple[Clause, Decision]]:
        """Decision ID -> (its clause, the decision), made once (the rule sets ask it on every option read)."""
        return self._decisions

    def select(
        self,
        *,
        game: str | None = None,
        area: str | None = None,
        kind: str | None = None,
        version: str | None = None,
    ) -> tuple[Clause, ...]:
        """Clauses matching every given filter (``None`` matches all)."""
        return tuple(
            c
            for c in self.clauses
            if (game is None or c.game == game)
            and (area is None or c.area == area)
            and (kind is None or c.kind == kind)
            and (version is None or version in c.versions)
        )
