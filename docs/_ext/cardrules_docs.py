"""Sphinx extension: renders the clause catalogue and the traceability matrix.

* At ``builder-inited`` it writes ``areas/index.rst``, one page per rule
  area (``areas/<area>.rst``), so a new area file gets a page by itself, and one
  page per clause (``areas/<clause id, lower case>.rst``, :func:`formal_page`)
  for its formal content: a whole area's code ran to a hundred screens, and a
  judge who follows "Formal encodings and tests" from a rule wants that rule's.
* ``.. cardrules-area:: <area id>`` renders the area's summary, versions and the
  list of its clauses, each linked to its page; ``.. cardrules-area-clause:: <clause
  id>`` renders one clause: an anchor for its ID, the statement, the source, the
  decisions as notes, and the code, vectors and tests that link to the clause.
* The rules views for judges (``rules/<area>.rst``) come from :mod:`cardrules_rules`.
* ``.. cardrules-trace::`` renders the matrix; ``.. cardrules-versions::`` the
  versions of every area.

Everything comes from ``cardrules.specs.catalogue``, ``cardrules.specs.catalogue.registry`` and a
collection of the test suite, computed once per build.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardrules.oracle.trace.matrix import TraceRow
from cardrules.specs.catalogue import Catalogue, default_catalogue
from cardrules.specs.catalogue.numbers import default_numbers
from cardrules.specs.catalogue.registry import LINK_KINDS
from cardrules_changes import PairedWordingsDirective, PlayDifferencesDirective, RuleDiffDirective, VersionDiffDirective
from cardrules_lists import PictureDirective, PropertiesDirective, ScenariosDirective, VersionsDirective
from cardrules_recorded import recorded_score, recorded_verify, score_lines, verification_lines
from cardrules_rst import RstDirective, escape, label, matrix, write_pages
from cardrules_judges import load_synonyms
from cardrules_notation import NotationDirective
from cardrules_rules import (RulesDirective, is_current, rule_heading, rules_pages, synonyms_script,
                             write_rules_pages)
from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx

AREA_PICTURES: dict[str, tuple[str, ...]] = {
    "battle-resolution": ("battle-resolution",),
    "side-battle": ("side-battle-control",),
}
"""Pictures shown at the top of an area's page (``cardrules_pictures``)."""


def write_area_pages(app: Sphinx) -> None:
    catalogue = default_catalogue()
    pages = {"index.rst": _area_index(catalogue)}
    for area in catalogue.areas:
        title = f"{area.title} ({area.game})"
        pictures = "".join(f".. cardrules-picture:: {name}\n\n" for name in AREA_PICTURES.get(area.id, ()))
        pages[f"{area.id}.rst"] = f"{title}\n{'=' * len(title)}\n\n{pictures}.. cardrules-area:: {area.id}\n"
    numbering = default_numbers()
    for clause in catalogue.clauses:
        area = catalogue.area(clause.area)
        title = f"{numbering.number(clause.id)}: formal encodings and tests"
        heading = rule_heading(numbering, clause, superseded=not is_current(area, clause))
        pages[f"{formal_page(clause.id).split('/', 1)[1]}.rst"] = "\n".join([
            title, "=" * len(title), "", f".. index:: ! {clause.id}", f"   single: {escape(clause.title)}; {clause.id}",
            "", f".. _{label(clause.id)}:", "", heading, "-" * len(heading), "",
            f".. cardrules-area-clause:: {clause.id}", ""])
    write_pages(Path(app.srcdir) / "areas", pages)
    _write_source_pages(app)


def formal_page(clause_id: str) -> str:
    """The document holding a clause's formal content (``areas/red-heal-window``): titled with the clause's
    number, its one section headed as the rule is in the rules view (number, ID, title: the search scorer
    titles a result with it). Clause IDs start with their game's letters and area IDs do not, so the names
    never meet an area's page."""
    return f"areas/{clause_id.lower()}"


def _write_source_pages(app: Sphinx) -> None:
    """One page per module that holds linked code, with its whole source."""
    from cardrules_code import module_page, source_page_name

    _, rows = matrix()
    modules = sorted({
        _module_of(target) for row in rows for kind in ("model", "smt", "properties")
        for target in row.links.get(kind, ())
    } - {""})
    pages = {source_page_name(module).split("/", 1)[1] + ".rst": module_page(module) for module in modules}
    write_pages(Path(app.srcdir) / "source", pages)


def _module_of(target: str) -> str:
    from cardrules.oracle.trace.coverage import resolve_dotted

    obj = resolve_dotted(target)
    return getattr(obj, "__module__", "") or ""


def _area_index(catalogue: Catalogue) -> str:
    lines = ["Rule areas", "==========", "", "One page per rule area, generated from the catalogue.", ""]
    lines += [".. toctree::", "   :maxdepth: 1", ""]
    lines += [f"   {area.id}" for area in catalogue.areas]
    return "\n".join(lines) + "\n"


def _source_title(catalogue: Catalogue, clause: Any) -> str:
    """The source as a reader knows it: the document's title and section (the file name last, in brackets)."""
    source = catalogue.sources.get(clause.source.doc)
    if source is None:
        return clause.source.text(catalogue.sources)
    where = f"{source.title}, \u201c{clause.source.section}\u201d"
    return f"{where} [file {source.file}]" if source.file else where


class AreaDirective(RstDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        catalogue, rows = matrix()
        area = catalogue.area(self.arguments[0])
        lines: list[str] = [escape(area.summary), ""]
        lines += ["Versions", "--------", "", f"Source file of the catalogue: ``specs/clauses/{area.file}``. Versions:", ""]
        for version in area.versions:
            default = " (default)" if version.id == area.default_version else ""
            lines.append(f"* ``{version.id}``{default}: {escape(version.title)}")
        lines.append("")
        numbering = default_numbers()
        lines += ["The formal content of each clause (its Python model, z3 encoding, properties, conformance "
                  "vectors and tests) is on a page of its own, listed here in the groups of the rules view's pages:",
                  ""]
        by_id = {r.clause.id: r.clause for r in rows if r.clause.area == area.id}
        for part in rules_pages(catalogue, numbering, area.id):
            title = f"Clauses {part.span(numbering)}{' (superseded wording)' if part.superseded else ''}"
            lines += [title, "-" * len(title), ""]
            lines += [f"* :ref:`{rule_heading(numbering, by_id[c], superseded=part.superseded)} <{label(c)}>`"
                      for c in part.clause_ids]
            lines.append("")
        lines += [".. toctree::", "   :hidden:", ""] + [f"   /{formal_page(cid)}" for cid in by_id] + [""]
        return self.render(lines)


def example_start(rows: list[TraceRow], clause_id: str) -> int:
    """The number of a clause's first conformance vector: they are numbered across the area, in its order."""
    from cardrules_examples import examples_by_clause

    area = next(r.clause.area for r in rows if r.clause.id == clause_id)
    number = 1
    for row in rows:
        if row.clause.id == clause_id:
            break
        if row.clause.area == area:
            number += len(examples_by_clause().get(row.clause.id, []))
    return number


class AreaClauseDirective(RstDirective):
    """``.. cardrules-area-clause:: ID``: the formal content of one clause (its page's title and anchor are
    written with the page, :func:`write_area_pages`)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        catalogue, rows = matrix()
        row = next(r for r in rows if r.clause.id == self.arguments[0])
        return self.render(self._clause_lines(catalogue, rows, row))

    def _clause_lines(self, catalogue: Catalogue, rows: list[TraceRow], row: TraceRow) -> list[str]:
        from cardrules_rules import rule_label

        c = row.clause
        area = catalogue.area(c.area)
        lines = [f":ref:`The rule for judges <{rule_label(c.id)}>` \u00b7 "
                 f":doc:`all the {escape(area.title)} clauses </areas/{area.id}>`", ""]
        lines += [escape(c.statement), ""]
        lines += [f":Kind: {c.kind}", f":Versions: {', '.join(c.versions)}"]
        lines.append(f":Source: {escape(_source_title(catalogue, c))}")
        if c.refs:
            lines.append(":Refers to: " + ", ".join(f":ref:`{r} <{label(r)}>`" for r in c.refs))
        lines.append("")
        if c.notes:
            lines += [".. note::", "", f"   {escape(c.notes)}", ""]
        for d in c.decisions:
            lines += [f".. admonition:: Decision ``{d.id}``", "", f"   {escape(d.question)}", ""]
            for option in d.options:
                chosen = " **(chosen)**" if option.id == d.chosen else ""
                lines.append(f"   * ``{option.id}``{chosen}: {escape(option.reading)}")
            for option in d.rejected:
                lines.append(f"   * ``{option.id}`` (rejected, no reading of the text): {escape(option.reading)}")
            lines += ["", f"   Why: {escape(d.why)}", ""]
        lines += _code_tabs(row)
        from cardrules_examples import example_lines

        examples, _ = example_lines(c.id, area.code, example_start(rows, c.id), escape)
        lines += vectors_dropdown(examples)
        tests = len(row.links.get("tests", ()))
        lines += [f":Tests: {tests} test{'s' if tests != 1 else ''} check this clause "
                  f"(:ref:`traceability <trace-{label(c.id)}>`)", ""]
        if row.gaps:
            lines += ["", f"Missing links: {', '.join(row.gaps)}."]
        lines.append("")
        return lines


def vectors_dropdown(examples: list[str]) -> list[str]:
    """A clause's conformance vectors, collapsed: their compact notation is for engine authors (the rules
    view shows judges the same rules with examples in words)."""
    count = sum(1 for line in examples if line.startswith(".. admonition:: Example"))
    if not count:
        return []
    return [f".. dropdown:: Conformance vectors ({count}), in the compact notation",
            "   :class-container: conformance-vectors", "",
            "   The notation is read on :doc:`the notation page </notation>`.", ""] \
        + [f"   {line}" if line else "" for line in examples]


SHOWN_PER_TAB = 3
"""Linked objects shown open in a tab of a clause's page; the others wait in a closed box, so that a clause
linked from a dozen functions keeps its page within about ten screens."""


def _code_tabs(row: TraceRow) -> list[str]:
    """The model, z3 and property code of a clause as tabs of highlighted source."""
    from cardrules_code import code_lines, linked_source

    titles = {"model": "Python model", "smt": "z3 encoding", "properties": "Properties"}
    tabs: list[str] = []
    for kind in ("model", "smt", "properties"):
        sources = [s for s in (linked_source(t) for t in row.links.get(kind, ())) if s is not None]
        if not sources:
            continue
        tabs += [f"   .. tab-item:: {titles[kind]} ({len(sources)})", ""]
        for source in sources[:SHOWN_PER_TAB]:
            tabs += code_lines(source, "      ")
        rest = sources[SHOWN_PER_TAB:]
        if rest:
            tabs += [f"      .. dropdown:: {len(rest)} more, collapsed", ""]
            for source in rest:
                tabs += code_lines(source, "         ")
    if not tabs:
        return ["*No code links to this clause yet.*", ""]
    return [".. tab-set::", ""] + tabs


class TraceDirective(RstDirective):
    option_spec = {"area": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        _, rows = matrix()
        recorded = recorded_verify(self.env)
        lines = verification_lines(recorded) + score_lines(recorded_score(self.env))
        lines += [".. list-table::", "   :header-rows: 1", "", "   * - clause", "     - versions"]
        lines += [f"     - {kind}" for kind in LINK_KINDS]
        if not isinstance(recorded, str):
            lines.append("     - verify")
        for row in rows:
            lines.append(f"   * - .. _trace-{label(row.clause.id)}:")
            lines.append("")
            lines.append(f"       :ref:`{row.clause.id} <{label(row.clause.id)}>`")
            lines.append(f"     - {', '.join(row.clause.versions)}")
            for kind in LINK_KINDS:
                count = len(row.links.get(kind, ()))
                lines.append(f"     - {count if count else ('**gap**' if kind in row.gaps else '-')}")
            if not isinstance(recorded, str):
                lines.append(f"     - {recorded.clause_line(row.clause.id)}")
        complete = sum(1 for r in rows if not r.gaps)
        lines += ["", f"{len(rows)} clauses, {complete} with every link they need.", ""]
        return self.render(lines)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("cardrules-properties", PropertiesDirective)
    app.add_directive("cardrules-version-diff", VersionDiffDirective)
    app.add_directive("cardrules-rule-diff", RuleDiffDirective)
    app.add_directive("cardrules-paired-wordings", PairedWordingsDirective)
    app.add_directive("cardrules-play-differences", PlayDifferencesDirective)
    app.add_directive("cardrules-notation", NotationDirective)
    app.add_directive("cardrules-picture", PictureDirective)
    app.add_directive("cardrules-scenarios", ScenariosDirective)
    app.connect("builder-inited", write_area_pages)
    app.connect("builder-inited", write_rules_pages)
    app.add_directive("cardrules-rules", RulesDirective)
    app.add_js_file(None, body=synonyms_script(load_synonyms()))
    app.add_js_file("instant-search.js", loading_method="defer")  # results as the judge types (docs/_static)
    app.add_directive("cardrules-area", AreaDirective)
    app.add_directive("cardrules-area-clause", AreaClauseDirective)
    app.add_directive("cardrules-trace", TraceDirective)
    app.add_directive("cardrules-versions", VersionsDirective)
    app.setup_extension("cardrules_previews")
    app.setup_extension("cardrules_boards")
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
