"""The clause catalogue: loading and validating ``specs/clauses/*.toml``.

The format is documented in ``specs/clauses/FORMAT.md`` and in the docs
page "Catalogue format". Every problem is reported as one
:class:`CatalogueError` naming the file, the clause (when there is one) and
the field, never as a traceback from deep inside the loader.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

from cardrules.specs.fileio import FileProblem, load_toml
from cardrules.specs.catalogue.types import (
    AREA_CODES, BASE_AREAS, CLAUSE_ID, GAMES, KINDS, SLUG, Area, Catalogue, CatalogueError, Citation, Clause,
    Decision, Option, OptionExcuse, Source, Version,
)

CATALOGUE_DIR = Path(__file__).parents[1] / "clauses"
"""The shipped catalogue: one TOML file per rule area, and ``sources.toml``."""


# --- field readers: each names file, clause and field on failure -------------


class _Reader:
    """Reads typed fields from one TOML table, reporting where a field is bad."""

    def __init__(self, file: str, clause: str | None, table: Any, prefix: str = "") -> None:
        self.file = file
        self.clause = clause
        self.prefix = prefix
        if not isinstance(table, dict):
            raise self.error(None, f"expected a table, found {type(table).__name__}")
        self.table: dict[str, Any] = table

    def error(self, field: str | None, problem: str) -> CatalogueError:
        name = f"{self.prefix}{field}" if field else (self.prefix.rstrip(".") or None)
        return CatalogueError(self.file, self.clause, name, problem)

    def text(self, field: str, *, required: bool = True, pattern: re.Pattern[str] | None = None) -> str:
        value = self.table.get(field)
        if value is None:
            if required:
                raise self.error(field, "missing required field")
            return ""
        if not isinstance(value, str):
            raise self.error(field, f"expected a string, found {type(value).__name__}")
        value = value.strip()
        if required and not value:
            raise self.error(field, "must not be empty")
        if pattern is not None and not pattern.match(value):
            raise self.error(field, f"{value!r} does not match {pattern.pattern}")
        return value

    def texts(self, field: str, *, required: bool = True) -> tuple[str, ...]:
        value = self.table.get(field)
        if value is None:
            if required:
                raise self.error(field, "missing required field")
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.error(field, "expected a list of strings")
        if required and not value:
            raise self.error(field, "must not be empty")
        if len(set(value)) != len(value):
            raise self.error(field, "lists an entry twice")
        return tuple(v.strip() for v in value)

    def tables(self, field: str, *, required: bool = True) -> list[Any]:
        value = self.table.get(field)
        if value is None:
            if required:
                raise self.error(field, "missing required field")
            return []
        if not isinstance(value, list):
            raise self.error(field, "expected an array of tables")
        if required and not value:
            raise self.error(field, "must not be empty")
        return value

    def only(self, allowed: Iterable[str]) -> None:
        unknown = sorted(set(self.table) - set(allowed))
        if unknown:
            raise self.error(unknown[0], "unknown field (see specs/clauses/FORMAT.md)")


MAX_FILE_BYTES = 4_000_000
"""Largest catalogue file read (the shipped ones are under 100 kB)."""


def _read_toml(path: Path) -> dict[str, Any]:
    """The file's TOML tables, read through the file layer; every problem is a CatalogueError naming the file.

    :mod:`cardrules.specs.fileio` refuses what is not a regular file of at most
    :data:`MAX_FILE_BYTES`, bytes that are not UTF-8 (with their line and
    column), TOML syntax errors, and nesting or integers past its bounds.
    """
    try:
        return load_toml(path, MAX_FILE_BYTES)
    except FileProblem as problem:
        what = f"{problem.where}: {problem.what}" if problem.where else problem.what
        raise CatalogueError(path.name, None, None, what) from None


def load_sources(path: Path) -> dict[str, Source]:
    data = _read_toml(path)
    top = _Reader(path.name, None, data)
    top.only(["source"])
    sources: dict[str, Source] = {}
    for index, table in enumerate(top.tables("source")):
        r = _Reader(path.name, None, table, prefix=f"source[{index}].")
        r.only(["id", "title", "file", "sections"])
        source_id = r.text("id", pattern=SLUG)
        if source_id in sources:
            raise r.error("id", f"source {source_id!r} is declared twice")
        sections = r.texts("sections", required=False) if "sections" in table else None
        sources[source_id] = Source(
            id=source_id,
            title=r.text("title"),
            file=r.text("file", required=False) or None,
            sections=sections,
        )
    return sources


def _folded(text: str) -> str:
    """Prose with its line breaks and runs of spaces folded to single spaces."""
    return " ".join(text.split())


def _option_excuse(o: _Reader) -> OptionExcuse | None:
    """An option's optional ``conformance_excuse = { clauses = [...], reason = "..." }``."""
    if "conformance_excuse" not in o.table:
        return None
    e = _Reader(o.file, o.clause, o.table["conformance_excuse"], prefix=f"{o.prefix}conformance_excuse.")
    e.only(["clauses", "reason"])
    clauses = e.texts("clauses")
    for clause_id in clauses:
        if not CLAUSE_ID.match(clause_id):
            raise e.error("clauses", f"{clause_id!r} is not a clause ID")
    reason = _folded(e.text("reason", required=False))
    if len(reason) < MIN_EXCUSE_LENGTH:
        raise e.error("reason", f"say why no conformance vector exercises them (at least {MIN_EXCUSE_LENGTH} characters)")
    return OptionExcuse(clauses, reason)


def _same_play(o: _Reader) -> str:
    """An option's optional ``same_play``: why the reading, though different, plays the same as the chosen one."""
    text = _folded(o.text("same_play", required=False))
    if text and len(text) < MIN_EXCUSE_LENGTH:
        raise o.error("same_play", f"say why the play is the same (at least {MIN_EXCUSE_LENGTH} characters)")
    return text


def _unseen_here(o: _Reader) -> str:
    """An option's optional ``unseen_here``: why the embedded scenarios and named scopes never show its play."""
    text = _folded(o.text("unseen_here", required=False))
    if text and len(text) < MIN_EXCUSE_LENGTH:
        raise o.error("unseen_here", f"say why no position shows the difference (at least {MIN_EXCUSE_LENGTH} "
                                     "characters)")
    return text


def _read_decision(r: _Reader) -> Decision:
    r.only(["id", "question", "chosen", "why", "options", "rejected"])
    decision_id = r.text("id", pattern=SLUG)
    options: list[Option] = []
    for index, table in enumerate(r.tables("options")):
        o = _Reader(r.file, r.clause, table, prefix=f"{r.prefix}options[{index}].")
        o.only(["id", "reading", "conformance_excuse", "same_play", "unseen_here"])
        option = Option(id=o.text("id", pattern=SLUG), reading=_folded(o.text("reading")),
                        conformance_excuse=_option_excuse(o), same_play=_same_play(o), unseen_here=_unseen_here(o))
        if any(existing.id == option.id for existing in options):
            raise o.error("id", f"option {option.id!r} appears twice")
        options.append(option)
    rejected: list[Option] = []
    for index, table in enumerate(r.tables("rejected", required=False)):
        o = _Reader(r.file, r.clause, table, prefix=f"{r.prefix}rejected[{index}].")
        o.only(["id", "reading"])
        option = Option(id=o.text("id", pattern=SLUG), reading=_folded(o.text("reading")))
        if any(existing.id == option.id for existing in (*options, *rejected)):
            raise o.error("id", f"{option.id!r} is already an option or rejected alternative")
        rejected.append(option)
    if len(options) < 2 and not (options and rejected):
        raise r.error("options", "a decision needs at least two options (the reading chosen and an alternative), "
                                 "or one option and the alternatives it rejects (rejected)")
    chosen = r.text("chosen")
    if chosen not in {o.id for o in options}:
        raise r.error("chosen", f"{chosen!r} is not one of the options {[o.id for o in options]}")
    for index, option in enumerate(options):
        if option.id == chosen and option.same_play:
            raise r.error(f"options[{index}].same_play", "the chosen option is the play the others are "
                                                         "compared with; same_play belongs on an alternative")
        if option.id == chosen and option.unseen_here:
            raise r.error(f"options[{index}].unseen_here", "the chosen option is what the others are compared "
                                                           "with; unseen_here belongs on an alternative")
        if option.same_play and option.unseen_here:
            raise r.error(f"options[{index}].unseen_here", "an option that gives the same play has no difference "
                                                           "to be unseen: keep same_play alone")
    return Decision(
        id=decision_id,
        question=_folded(r.text("question")),
        chosen=chosen,
        why=_folded(r.text("why")),
        options=tuple(options),
        rejected=tuple(rejected),
    )


MIN_EXCUSE_LENGTH = 20
"""An excuse (``crosscheck_excuse``, ``conformance_excuse``) says why, in at least this many characters
(not just "n/a")."""

EXCUSE_WHAT = {
    "crosscheck_excuse": "the cross-check cannot compare it",
    "conformance_excuse": "no conformance vector exercises it",
}
"""The excuse fields and what each excuses."""


def _excuse(r: _Reader, name: str = "crosscheck_excuse") -> str:
    """An optional excuse field (:data:`EXCUSE_WHAT`): a reason, in words, or empty."""
    text = _folded(r.text(name, required=False))
    if name in r.table and len(text) < MIN_EXCUSE_LENGTH:
        raise r.error(name, f"say why {EXCUSE_WHAT[name]} (at least {MIN_EXCUSE_LENGTH} characters)")
    return text


def load_area(path: Path, sources: Mapping[str, Source]) -> tuple[Area, list[Clause]]:
    """Read one area file; cross-file checks (refs, unique IDs) are done by :func:`load`."""
    data = _read_toml(path)
    top = _Reader(path.name, None, data)
    top.only(["area", "clause"])
    area = _read_area(path.name, data)
    clauses = [_read_clause(path.name, index, table, area, sources) for index, table in enumerate(top.tables("clause"))]
    return area, clauses


def _read_area(file: str, data: dict[str, Any]) -> Area:
    """The file's ``[area]`` table: its id, code and game checked against the known ones, its versions."""
    if "area" not in data:
        raise CatalogueError(file, None, "area", "missing the [area] table")
    a = _Reader(file, None, data["area"], prefix="area.")
    a.only(["id", "code", "game", "title", "summary", "default_version", "versions", *EXCUSE_WHAT])
    area_id = a.text("id")
    if area_id not in AREA_CODES:
        raise a.error("id", f"unknown area {area_id!r}; known: {sorted(AREA_CODES)}")
    code = a.text("code")
    if code != AREA_CODES[area_id]:
        raise a.error("code", f"area {area_id!r} uses code {AREA_CODES[area_id]!r}, not {code!r}")
    game = a.text("game")
    if game not in GAMES:
        raise a.error("game", f"unknown game {game!r}; known: {sorted(GAMES)}")
    versions = _read_versions(a)
    default_version = a.text("default_version")
    if default_version not in {v.id for v in versions}:
        raise a.error("default_version", f"{default_version!r} is not a declared version")
    return Area(
        id=area_id,
        code=code,
        game=game,
        title=a.text("title"),
        summary=_folded(a.text("summary")),
        default_version=default_version,
        versions=versions,
        file=file,
        crosscheck_excuse=_excuse(a),
        conformance_excuse=_excuse(a, "conformance_excuse"),
    )


def _read_versions(a: _Reader) -> tuple[Version, ...]:
    """The area's ``versions``, each declared once."""
    versions: list[Version] = []
    for index, table in enumerate(a.tables("versions")):
        v = _Reader(a.file, None, table, prefix=f"area.versions[{index}].")
        v.only(["id", "title", "description"])
        version = Version(id=v.text("id", pattern=SLUG), title=v.text("title"), description=v.text("description"))
        if any(existing.id == version.id for existing in versions):
            raise v.error("id", f"version {version.id!r} is declared twice")
        versions.append(version)
    return tuple(versions)


def _read_clause(file: str, index: int, table: Any, area: Area, sources: Mapping[str, Source]) -> Clause:
    """The ``index``-th ``[[clause]]`` table of ``area``'s file; errors name it by its id when it has one."""
    raw_id = table.get("id") if isinstance(table, dict) else None
    label = raw_id if isinstance(raw_id, str) and raw_id else f"clause[{index}]"
    r = _Reader(file, label, table)
    r.only(["id", "title", "kind", "versions", "statement", "source", "refs", "notes", "decisions",
            *EXCUSE_WHAT])
    clause_id = _clause_id(r, area)
    kind = _clause_kind(r, area)
    clause_versions = r.texts("versions")
    for version_id in clause_versions:
        if version_id not in {v.id for v in area.versions}:
            raise r.error("versions", f"{version_id!r} is not a version of area {area.id!r}")
    source = _read_citation(r, sources)
    decisions = tuple(
        _read_decision(_Reader(file, label, d, prefix=f"decisions[{i}]."))
        for i, d in enumerate(r.tables("decisions", required=False))
    )
    refs = r.texts("refs", required=False)
    for ref in refs:
        if not CLAUSE_ID.match(ref):
            raise r.error("refs", f"{ref!r} is not a clause ID")
    return Clause(
        id=clause_id,
        title=r.text("title"),
        game=area.game,
        area=area.id,
        kind=kind,
        versions=clause_versions,
        statement=_folded(r.text("statement")),
        source=source,
        refs=refs,
        notes=_folded(r.text("notes", required=False)),
        decisions=decisions,
        file=file,
        crosscheck_excuse=_excuse(r) or area.crosscheck_excuse,
        conformance_excuse=_excuse(r, "conformance_excuse") or area.conformance_excuse,
    )


def _clause_id(r: _Reader, area: Area) -> str:
    """The clause's ``id``: a clause ID starting with its game's and area's prefix (``RED-SB-``)."""
    clause_id = r.text("id", pattern=CLAUSE_ID)
    prefix = f"{GAMES[area.game]}-{area.code}-"
    if not clause_id.startswith(prefix):
        raise r.error("id", f"clauses of area {area.id!r} ({area.game}) must start with {prefix!r}")
    return clause_id


def _clause_kind(r: _Reader, area: Area) -> str:
    """The clause's ``kind``: a known kind; assumptions in the base areas' files and only there."""
    kind = r.text("kind")
    if kind not in KINDS:
        raise r.error("kind", f"unknown kind {kind!r}; known: {list(KINDS)}")
    if (kind == "assumption") != (area.id in BASE_AREAS):
        raise r.error(
            "kind",
            "assumption clauses belong in the base files, and base files hold only assumptions",
        )
    return kind


def _read_citation(r: _Reader, sources: Mapping[str, Source]) -> Citation:
    """The clause's ``source = { doc, section }``: a declared source and, when it lists them, one of its sections."""
    if "source" not in r.table:
        raise r.error("source", "missing required field")
    s = _Reader(r.file, r.clause, r.table["source"], prefix="source.")
    s.only(["doc", "section"])
    doc = s.text("doc")
    if doc not in sources:
        raise s.error("doc", f"unknown source {doc!r}; known: {sorted(sources)}")
    section = s.text("section")
    allowed_sections = sources[doc].sections
    if allowed_sections is not None and section not in allowed_sections:
        raise s.error("section", f"{section!r} is not a section of {doc}; known: {list(allowed_sections)}")
    return Citation(doc=doc, section=section)


def load(directory: Path = CATALOGUE_DIR) -> Catalogue:
    """Load and validate every catalogue file in ``directory``."""
    sources_path = directory / "sources.toml"
    if not sources_path.exists():
        raise CatalogueError("sources.toml", None, None, f"not found in {directory}")
    sources = load_sources(sources_path)
    areas: list[Area] = []
    clauses: list[Clause] = []
    seen_ids: dict[str, str] = {}
    seen_decisions: dict[str, str] = {}
    for path in sorted(directory.glob("*.toml")):
        if path.name == "sources.toml":
            continue
        area, area_clauses = load_area(path, sources)
        if any(existing.id == area.id for existing in areas):
            raise CatalogueError(path.name, None, "area.id", f"area {area.id!r} is also declared in another file")
        areas.append(area)
        for clause in area_clauses:
            if clause.id in seen_ids:
                raise CatalogueError(path.name, clause.id, "id", f"duplicate clause ID (also in {seen_ids[clause.id]})")
            seen_ids[clause.id] = path.name
            for decision in clause.decisions:
                if decision.id in seen_decisions:
                    raise CatalogueError(
                        path.name, clause.id, "decisions.id",
                        f"decision {decision.id!r} is also used by {seen_decisions[decision.id]}",
                    )
                seen_decisions[decision.id] = clause.id
            clauses.append(clause)
    for clause in clauses:
        for ref in clause.refs:
            if ref == clause.id:
                raise CatalogueError(clause.file, clause.id, "refs", "a clause cannot refer to itself")
            if ref not in seen_ids:
                raise CatalogueError(clause.file, clause.id, "refs", f"{ref!r} is not a clause in the catalogue")
        for decision in clause.decisions:
            for option in decision.options:
                for excused in option.conformance_excuse.clauses if option.conformance_excuse else ():
                    if excused not in seen_ids:
                        raise CatalogueError(clause.file, clause.id, f"{decision.id}.{option.id}.conformance_excuse",
                                             f"{excused!r} is not a clause in the catalogue")
    return Catalogue(sources=sources, areas=tuple(areas), clauses=tuple(clauses))


@lru_cache(maxsize=1)
def default_catalogue() -> Catalogue:
    """The catalogue shipped with the package, loaded once per process."""
    return load(CATALOGUE_DIR)


if __name__ == "__main__":  # pragma: no cover - a convenience for catalogue authors
    import sys

    try:
        catalogue = load(Path(sys.argv[1]) if len(sys.argv) > 1 else CATALOGUE_DIR)
    except CatalogueError as error:
        print(f"catalogue error: {error}", file=sys.stderr)
        raise SystemExit(1) from None
    for area in catalogue.areas:
        print(f"{area.file}: {len(catalogue.select(area=area.id))} clauses")
    print(f"total: {len(catalogue.clauses)} clauses")
