"""Sphinx extension: renders the clause catalogue and the traceability matrix.

* At ``builder-inited`` it writes ``areas/index.rst`` and one page per rule
  area (``areas/<area>.rst``), so a new area file gets a page by itself.
* ``.. cardrules-area:: <area id>`` renders every clause of the area: an
  anchor per clause ID, the statement, the source, the decisions as notes, and
  the code and tests that link to the clause.
* ``.. cardrules-trace::`` renders the matrix; ``.. cardrules-versions::`` the
  versions of every area.

Everything comes from ``cardrules.specs.catalogue``, ``cardrules.specs.catalogue.registry`` and a
collection of the test suite, computed once per build.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

from cardrules.oracle.trace.pytest_plugin import collect_test_links
from cardrules.oracle.trace.matrix import TraceRow, build_matrix, default_tests_dir
from cardrules.specs.catalogue import Catalogue, default_catalogue
from cardrules.specs.catalogue.registry import LINK_KINDS

_state: dict[str, Any] = {}


def escape(text: str) -> str:
    """Escape reST inline markup so catalogue text renders literally."""
    out = text.replace("\\", "\\\\")
    for char in "*`|_[]":
        out = out.replace(char, "\\" + char)
    return out


def _docstring_summary(dotted: str) -> str:
    """The first line of the docstring of a linked function or class (its formula, for SMT code)."""
    import inspect

    from cardrules.oracle.trace.coverage import resolve_dotted

    obj = resolve_dotted(dotted)
    doc = (inspect.getdoc(obj) or "").strip() if obj is not None else ""
    return doc.splitlines()[0] if doc else ""


def label(clause_id: str) -> str:
    return f"clause-{clause_id.lower()}"


def _matrix() -> tuple[Catalogue, list[TraceRow]]:
    if "rows" not in _state:
        catalogue = default_catalogue()
        tests_dir = default_tests_dir()
        test_links = collect_test_links(tests_dir) if tests_dir else {}
        _state["catalogue"] = catalogue
        _state["rows"] = build_matrix(catalogue, test_links)
    return _state["catalogue"], _state["rows"]


AREA_PICTURES: dict[str, tuple[str, ...]] = {
    "battle-resolution": ("battle-resolution",),
    "side-battle": ("side-battle-control", "battle-stack"),
}
"""Pictures shown at the top of an area's page (``cardrules_pictures``)."""


def write_area_pages(app: Sphinx) -> None:
    catalogue = default_catalogue()
    folder = Path(app.srcdir) / "areas"
    folder.mkdir(exist_ok=True)
    pages = {"index.rst": _area_index(catalogue)}
    for area in catalogue.areas:
        title = f"{area.title} ({area.game})"
        pictures = "".join(f".. cardrules-picture:: {name}\n\n" for name in AREA_PICTURES.get(area.id, ()))
        pages[f"{area.id}.rst"] = f"{title}\n{'=' * len(title)}\n\n{pictures}.. cardrules-area:: {area.id}\n"
    for name, text in pages.items():
        path = folder / name
        if not path.exists() or path.read_text() != text:  # keep mtimes for incremental builds
            path.write_text(text)
    for stale in folder.glob("*.rst"):
        if stale.name not in pages:
            stale.unlink()
    _write_source_pages(app)


def _write_source_pages(app: Sphinx) -> None:
    """One page per module that holds linked code, with its whole source."""
    from cardrules_code import module_page, source_page_name

    _, rows = _matrix()
    modules = sorted({
        _module_of(target) for row in rows for kind in ("model", "smt", "properties")
        for target in row.links.get(kind, ())
    } - {""})
    folder = Path(app.srcdir) / "source"
    folder.mkdir(exist_ok=True)
    wanted = set()
    for module in modules:
        name = source_page_name(module).split("/", 1)[1] + ".rst"
        wanted.add(name)
        path = folder / name
        text = module_page(module)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    for stale in folder.glob("*.rst"):
        if stale.name not in wanted:
            stale.unlink()


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


def _note_generated_from(env: Any) -> None:
    """Generated pages depend on the catalogue, the scenarios and the code they show: editing any rebuilds them."""
    from cardrules.properties.scenarios import SCENARIO_DIR
    from cardrules.specs.catalogue import CATALOGUE_DIR

    root = Path(__file__).resolve().parents[2]
    files = [*CATALOGUE_DIR.glob("*.toml"), *SCENARIO_DIR.glob("*.json"), *Path(__file__).parent.glob("*.py")]
    files += [f for folder in ("model", "specs", "properties", "oracle") for f in (root / folder).rglob("*.py")]
    for file in files:
        env.note_dependency(str(file))


class _RstDirective(SphinxDirective):
    """A directive that renders generated reST lines."""

    def render(self, lines: list[str]) -> list[nodes.Node]:
        _note_generated_from(self.env)
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source=self.get_source_info()[0]), container)
        return container.children


class AreaDirective(_RstDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        catalogue, rows = _matrix()
        area = catalogue.area(self.arguments[0])
        lines: list[str] = [escape(area.summary), ""]
        lines += [f"Source file of the catalogue: ``specs/clauses/{area.file}``. Versions:", ""]
        for version in area.versions:
            default = " (default)" if version.id == area.default_version else ""
            lines.append(f"* ``{version.id}``{default}: {escape(version.title)}")
        lines.append("")
        self._example_number = 1
        self._example_prefix = area.code
        for row in (r for r in rows if r.clause.area == area.id):
            lines += self._clause_lines(catalogue, row)
        return self.render(lines)

    def _clause_lines(self, catalogue: Catalogue, row: TraceRow) -> list[str]:
        c = row.clause
        heading = f"{c.id}: {escape(c.title)}"
        lines = [f".. index:: ! {c.id}", f"   single: {escape(c.title)}; {c.id}", "",
                 f".. _{label(c.id)}:", "", heading, "-" * len(heading), ""]
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

        examples, self._example_number = example_lines(c.id, self._example_prefix, self._example_number, escape)
        lines += examples
        tests = len(row.links.get("tests", ()))
        lines += [f":Tests: {tests} test{'s' if tests != 1 else ''} check this clause "
                  f"(:ref:`traceability <trace-{label(c.id)}>`)", ""]
        if row.gaps:
            lines += ["", f"Missing links: {', '.join(row.gaps)}."]
        lines.append("")
        return lines


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
        for source in sources:
            tabs += code_lines(source, "      ")
    if not tabs:
        return ["*No code links to this clause yet.*", ""]
    return [".. tab-set::", ""] + tabs


class TraceDirective(_RstDirective):
    option_spec = {"area": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        _, rows = _matrix()
        recorded = _recorded_verify(self.env)
        lines = _verification_lines(recorded) + _score_lines(_recorded_score(self.env))
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


def _recorded_verify(env: Any) -> Any:
    """The checkout's recorded ``cardrules verify`` summary (a RecordedVerify), or why there is none."""
    from cardrules.oracle.verify.results import VERIFY_RESULT, read_verify_result

    folder = Path(__file__).resolve().parents[2] / ".cardrules" / "results"
    env.note_dependency(str(folder / VERIFY_RESULT))
    return read_verify_result(folder)


def _recorded_score(env: Any) -> Any:
    """The checkout's recorded ``cardrules conformance score`` (a RecordedScore), or why there is none."""
    from cardrules.oracle.verify.results import SCORE_RESULT, read_score_result

    folder = Path(__file__).resolve().parents[2] / ".cardrules" / "results"
    env.note_dependency(str(folder / SCORE_RESULT))
    return read_score_result(folder)


def _score_lines(recorded: Any) -> list[str]:
    """The 'Conformance mutation score' table: per clause area, the mutants of the model the suites kill."""
    lines = [".. rubric:: Conformance mutation score", ""]
    if isinstance(recorded, str):
        return lines + [f"No recorded score to show: {escape(recorded)}.", ""]
    summary = recorded.summary
    commit = f" at commit ``{summary['commit']}``" if summary.get("commit") else ""
    goal = f"{summary['goal']:.0%}"
    lines += [f"The latest complete ``cardrules conformance score`` ({summary['recorded']}{commit}): every "
              f"single-point mutant of the reference model run against {len(summary.get('suites', []))} suites "
              f"({summary.get('vectors', 0):,} vectors); equivalent mutants are not counted. The goal, at least "
              f"{goal} killed in every area, is {'met' if summary['goal_met'] else '**not met**'}.", "",
              ".. list-table::", "   :header-rows: 1", "",
              "   * - area", "     - mutants", "     - equivalent", "     - killed", "     - score"]
    for area, t in summary["areas"].items():
        score = "-" if t.get("score") is None else f"{100 * t['score']:.1f}%"
        lines += [f"   * - {escape(area)}", f"     - {t['mutants']:,}", f"     - {t['equivalent']:,}",
                  f"     - {t['killed']:,} of {t['counted']:,}", f"     - {score}"]
    lines += ["", f"{len(summary['survivors']):,} mutants survived; ``cardrules conformance score`` lists them.", ""]
    if not recorded.current:
        lines += [".. warning::", "",
                  "   The model's sources changed after that run: this score is stale. "
                  "Run ``cardrules conformance score`` and rebuild.", ""]
    return lines


def _verification_lines(recorded: Any) -> list[str]:
    """The 'Verification results' paragraph above the traceability table."""
    lines = [".. rubric:: Verification results", ""]
    if isinstance(recorded, str):
        return lines + [f"No recorded run to show: {escape(recorded)}.", ""]
    summary = recorded.summary
    verdicts = ", ".join(f"{n} {v}" for v, n in summary["verdicts"].items())
    commit = f" at commit ``{summary['commit']}``" if summary.get("commit") else ""
    outcome = "every check passed" if not summary["failed"] else f"**{summary['failed']} checks failed**"
    lines += [f"The latest complete ``cardrules verify`` ({summary['recorded']}{commit}): {summary['checks']:,} "
              f"checks in {summary['runs']} runs, {outcome} ({verdicts}). The *verify* column counts the "
              "property checks (a property, on a scenario, rule set and engine) that name the clause.", ""]
    if not recorded.current:
        lines += [".. warning::", "",
                  "   The catalogue or the scenarios changed after that run: these results are stale. "
                  "Run ``cardrules verify`` and rebuild.", ""]
    return lines


class VersionsDirective(_RstDirective):
    def run(self) -> list[nodes.Node]:
        catalogue = default_catalogue()
        lines: list[str] = []
        for area in catalogue.areas:
            lines += [f"* **{escape(area.title)}** (``{area.id}``)", ""]
            for version in area.versions:
                count = len(catalogue.select(area=area.id, version=version.id))
                default = ", default" if version.id == area.default_version else ""
                lines.append(f"  * ``{version.id}`` ({count} clauses{default}): {escape(version.description)}")
            lines.append("")
        return self.render(lines)


class PropertiesDirective(_RstDirective):
    """Every property, from the registry every engine reads."""

    def run(self) -> list[nodes.Node]:
        from cardrules.properties.games import ALL_PROPERTIES as PROPERTIES

        lines: list[str] = []
        for game in sorted({p.game for p in PROPERTIES}):
            title = {"fftcg": "Final Fantasy TCG", "redemption": "Redemption CCG"}.get(game, game)
            lines += [title, "-" * len(title), ""]
            for prop in sorted((p for p in PROPERTIES if p.game == game), key=lambda p: p.name):
                lines += [f"``{prop.name}`` ({prop.kind} property{'' if prop.must_hold else ', known gap'})", ""]
                lines += [f"   {escape(prop.statement)}", ""]
                refs = ", ".join(f":ref:`{cid} <{label(cid)}>`" for cid in prop.clause_ids)
                lines += [f"   Clauses: {refs}."]
                if prop.versions:
                    applies = "; ".join(f"{area}: {', '.join(sorted(v))}" for area, v in prop.versions.items())
                    lines += ["", f"   Applies to: {applies}."]
                lines.append("")
        return self.render(lines)


class ScenariosDirective(_RstDirective):
    """Every embedded scenario with its rule sets and mutants."""

    def run(self) -> list[nodes.Node]:
        from cardrules.properties.scenarios import load_scenarios

        lines: list[str] = []
        for scenario in load_scenarios():
            lines += [f"``{scenario.name}`` ({scenario.game})", "-" * (len(scenario.name) + len(scenario.game) + 7), ""]
            lines += [escape(scenario.description), ""]
            bounds = ", ".join(
                f"{name} {value}" for name, value in
                (("turns", scenario.max_turns), ("depth", scenario.max_depth), ("states", scenario.max_states))
                if value is not None
            )
            lines += [f":Bounds: {bounds or 'none'}", f":File: ``properties/scenarios/{scenario.file}``"]
            rule_sets = "; ".join(
                f"``{r.name}``" + (f" ({escape(_describe(r))})" if _describe(r) else "") for r in scenario.rule_sets
            )
            lines.append(f":Rule sets: {rule_sets}")
            if scenario.mutants:
                mutants = "; ".join(
                    f"``{m.name}`` ({escape(_describe(m))}) must break {', '.join(f'``{p}``' for p in m.expect_violated)}"
                    for m in scenario.mutants
                )
                lines.append(f":Mutants: {mutants}")
            lines += ["", f".. cardrules-picture:: state-graph-{scenario.name}", ""]
            for mutant in scenario.mutants:
                lines += [f".. cardrules-picture:: counterexample-{scenario.name}:{mutant.name}", ""]
            lines.append("")
        return self.render(lines)


class VersionDiffDirective(_RstDirective):
    """What a rule change changes: clauses of one area by version, and the contradictions z3 finds
    when the versions are read as one text."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force
        from cardrules.specs.smt.consistency import Verdict, find_contradictions
        from cardrules.specs.smt.situations import SITUATIONS

        catalogue = default_catalogue()
        area = catalogue.area(self.arguments[0])
        versions = [v.id for v in area.versions]
        members = {v: set(clauses_in_force(area.id, RuleSet(versions={area.id: frozenset({v})}))) for v in versions}
        lines: list[str] = []
        everywhere = set.intersection(*members.values())
        for version in versions:
            only = [c for c in catalogue.select(area=area.id) if c.id in members[version] - everywhere]
            lines += [f"Only in ``{version}`` ({len(only)} clauses):", ""]
            lines += [f"* :ref:`{c.id} <{label(c.id)}>`: {escape(c.title)}" for c in only] + [""]
        lines += [f"In every version: {len(everywhere)} clauses.", ""]
        build = SITUATIONS.get(area.id)
        if build is None:
            return self.render(lines)
        for chosen in [frozenset({v}) for v in versions] + ([frozenset(versions)] if len(versions) > 1 else []):
            rule_set = RuleSet(versions={area.id: chosen})
            report = find_contradictions(build(rule_set), clauses_in_force(area.id, rule_set))
            name = " and ".join(f"``{v}``" for v in sorted(chosen)) + (" read as one text" if len(chosen) > 1 else "")
            if report.verdict is Verdict.CONSISTENT:
                lines += [f"{name}: consistent (z3 finds no situation where its clauses conflict).", ""]
            elif report.verdict is Verdict.UNKNOWN:
                lines += [f"{name}: z3 could not decide ({escape(report.reason)}).", ""]
            else:
                lines += [f"{name}: {len(report.contradictions)} minimal sets of clauses that cannot all hold:", ""]
                for contradiction in report.contradictions:
                    refs = ", ".join(f":ref:`{cid} <{label(cid)}>`" for cid in contradiction.clause_ids)
                    when = "; ".join(f"{k}: {v}" for k, v in contradiction.situation.items())
                    lines += [f"* {refs}", "", f"  when {escape(when)}", ""]
        return self.render(lines)


class PairedWordingsDirective(_RstDirective):
    """Two wordings of an area side by side, topic by topic.

    Arguments: the area and its two versions. Content: one line per topic,
    ``Topic: ID, ID | ID, ID`` (first version's clauses | second's); the
    statements come from the catalogue, and a clause not in the version its
    column names is a build error.
    """

    required_arguments = 3
    has_content = True

    def run(self) -> list[nodes.Node]:
        catalogue = default_catalogue()
        area, first, second = self.arguments
        lines = [".. list-table::", "   :header-rows: 1", "   :widths: 20 40 40", "",
                 "   * - topic", f"     - ``{first}``", f"     - ``{second}``"]
        for entry in self.content:
            if not entry.strip():
                continue
            topic, _, sides = entry.partition(":")
            columns = [[c.strip() for c in side.split(",") if c.strip()] for side in sides.split("|")]
            if len(columns) != 2:
                raise self.error(f"paired wordings: {entry!r} is not 'Topic: IDs | IDs'")
            lines.append(f"   * - {escape(topic.strip())}")
            for version, ids in zip((first, second), columns):
                cells = []
                for clause_id in ids:
                    clause = catalogue.clause(clause_id)
                    if clause.area != area or version not in clause.versions:
                        raise self.error(f"paired wordings: {clause_id} is not a {version} clause of {area}")
                    cells.append(f":ref:`{clause_id} <{label(clause_id)}>`: {escape(clause.statement)}")
                cells = cells or ["(nothing)"]
                lines.append(f"     - {cells[0]}")
                for cell in cells[1:]:
                    lines += ["", f"       {cell}"]
        return self.render(lines)


class RuleDiffDirective(_RstDirective):
    """Behaviour differences between two rule sets, generated by ``cardrules diff`` (every scenario of the game).

    Arguments: rule set A, rule set B (as on the command line, e.g. ``heal=previous heal=revised``).
    """

    required_arguments = 2

    def run(self) -> list[nodes.Node]:
        from cardrules.oracle.selection import select_scenarios
        from cardrules.oracle.rulechange.lockstep import KINDS
        from cardrules.oracle.rulechange.report import run_diff
        from cardrules.properties.scenarios.rulesets import parse_rule_set_expression

        a, b = (parse_rule_set_expression(text) for text in self.arguments)
        game = a.game or b.game or "redemption"
        report = run_diff(game, a, b, [s for s in select_scenarios(None) if s.game == game], with_smt=False)
        explained = {
            "tightened": "an action allowed under the first is refused under the second",
            "relaxed": "an action refused under the first is allowed under the second",
            "changed": "the same action has another result",
        }
        lines = [f"Generated by ``cardrules diff {a.text} {b.text}`` over every {game} scenario "
                 "(each explored completely within its turn bound).", ""]
        for scenario in report.scenarios:
            lines += [f"Scenario ``{scenario.scenario}``", "~" * (len(scenario.scenario) + 13), ""]
            if not scenario.differs:
                lines += [f"No difference in play ({escape(scenario.bound_text())}).", ""]
                continue
            for kind in KINDS:
                if kind not in scenario.examples:
                    continue
                count = sum(scenario.by_depth[kind].values())
                lines += [f"**{kind.capitalize()}** ({explained[kind]}) in {count} reachable state(s); "
                          "the shortest scenario:", "", ".. code-block:: text", ""]
                lines += [f"   {line}" for line in report.narratives[scenario.scenario][kind]] + [""]
        if report.properties:
            lines += ["Properties with another verdict:", ""]
            lines += [f"* ``{p.property}`` in ``{p.scenario}``: broken under "
                      f"{'the second' if p.broken_under == 'B' else 'the first'} only" for p in report.properties]
            lines.append("")
        else:
            lines += ["Every property has the same verdict under both.", ""]
        self.env.note_dependency(str(Path(__file__)))
        return self.render(lines)


class PictureDirective(_RstDirective):
    """``.. cardrules-picture:: NAME``: a picture drawn at build time (see ``cardrules_pictures``)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        from cardrules_pictures import write_picture

        path, caption = write_picture(self.arguments[0], Path(self.env.srcdir) / "_generated")
        lines = [f".. figure:: /_generated/{path.name}", "   :width: 100%", "", f"   {escape(caption)}", ""]
        return self.render(lines)


def _describe(rule_set: Any) -> str:
    parts = [f"{area} {', '.join(v)}" for area, v in rule_set.versions.items()]
    parts += [f"{d} = {o}" for d, o in rule_set.decisions.items()]
    parts += [f"broken variant {b}" for b in getattr(rule_set, "broken", ())]
    return "; ".join(parts)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("cardrules-properties", PropertiesDirective)
    app.add_directive("cardrules-version-diff", VersionDiffDirective)
    app.add_directive("cardrules-rule-diff", RuleDiffDirective)
    app.add_directive("cardrules-paired-wordings", PairedWordingsDirective)
    app.add_directive("cardrules-picture", PictureDirective)
    app.add_directive("cardrules-scenarios", ScenariosDirective)
    app.connect("builder-inited", write_area_pages)
    app.add_directive("cardrules-area", AreaDirective)
    app.add_directive("cardrules-trace", TraceDirective)
    app.add_directive("cardrules-versions", VersionsDirective)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
