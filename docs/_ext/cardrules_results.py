"""Measured figures, rendered from result files: ``.. cardrules-results:: NAME`` and ``.. cardrules-goals::``.

Every figure the performance and conformance pages show lives in one file of
``docs/results/``, ``NAME.toml``, never in the pages' prose. A file holds one
table and says when, with what and on what machine it was measured::

    measured = 2026-12-01T17:26:00        # a TOML date or local date-time
    command = "python3 benchmarks/side_by_side.py --size 3 1"   # or a list of commands
    machine = "idle"                      # "idle" or "loaded": did other jobs share the cores?
    conditions = "load average about 1"   # optional: more about the machine
    commit = "318c015"                    # optional: the commit measured
    note = "..."                          # optional: one paragraph (inline reST) under the table
    columns = ["size", "engine", "states"]
    rows = [["3x1", "SPIN", 1364485]]     # each cell text, an integer or a decimal

    [[goal]]                              # optional, repeatable: a goal these figures judge
    goal = "at most 150 bytes per stored state"
    figure = "132 B/state"
    met = true

``.. cardrules-results:: NAME`` renders the table under the caption "Measured on
DATE with COMMAND on idle cores (CONDITIONS), at commit C."; ``.. cardrules-goals::
NAME ...`` gathers the ``[[goal]]`` entries of the files it names into one table.
A malformed file fails the build (with or without ``-W``) with an error naming the
file and the field (:class:`ResultError`). A missing file is said plainly on the
page ("No figures are recorded here yet", and how to record them) with a build
warning, which ``-W`` (the tests' builds) turns into a failure;
``tests/docs/test_results.py`` reads every file with :func:`read_result` without
building the site.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, Callable

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

RESULTS_DIR = Path(__file__).resolve().parents[1] / "results"
"""The committed result files, ``docs/results/NAME.toml``."""

MACHINES = ("idle", "loaded")
REQUIRED = ("measured", "command", "machine", "columns", "rows")
OPTIONAL = ("conditions", "commit", "note", "goal")
GOAL_FIELDS = ("goal", "figure", "met")
NAME = re.compile(r"[a-z0-9_]+")
DIRECTIVE = re.compile(r"^\s*\.\. cardrules-(?:results|goals)::(.*)$", re.M)

Cell = str | int | float
logger = logging.getLogger(__name__)


class ResultError(ValueError):
    """A result file that is missing or malformed; the message names the file and the field."""


class ResultMissing(ResultError):
    """No result file of that name: nothing is recorded yet."""


def missing_paragraph(name: str) -> nodes.paragraph:
    """What a page shows where a result file is missing: plainly, that nothing is recorded, and how to record it."""
    return nodes.paragraph("", "", nodes.strong("", "No figures are recorded here yet: "), nodes.Text(
        f"the result file docs/results/{name}.toml is missing. The benchmark under benchmarks/ that measures "
        "them writes it when run with --record."))


@dataclass(frozen=True)
class Goal:
    """One goal a result file's figures are judged against."""

    goal: str
    figure: str
    met: bool


@dataclass(frozen=True)
class Result:
    """One result file: a table of figures and how they were measured."""

    path: Path
    measured: date  # a datetime when the file gives the time of day
    commands: tuple[str, ...]
    machine: str
    conditions: str | None
    commit: str | None
    note: str | None
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    goals: tuple[Goal, ...]

    @property
    def when(self) -> str:
        """The date measured, with the time of day when known."""
        return self.measured.strftime("%Y-%m-%d %H:%M") if isinstance(self.measured, datetime) else self.measured.isoformat()


def read_result(name: str, folder: Path = RESULTS_DIR) -> Result:
    """The result file ``folder/NAME.toml``, checked field by field; :class:`ResultError` if it is unusable."""
    if not NAME.fullmatch(name):
        raise ResultError(f"{name!r} is no result name (lower-case letters, digits and '_'; no '.toml')")
    path = folder / f"{name}.toml"
    if not path.is_file():
        raise ResultMissing(f"{path}: no such result file")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ResultError(f"{path}: not a TOML file: {e}") from None

    def fail(field: str, problem: str) -> ResultError:
        return ResultError(f"{path}: field '{field}': {problem}")

    for key in data:
        if key not in REQUIRED + OPTIONAL:
            raise fail(key, f"unknown field (known: {', '.join(REQUIRED + OPTIONAL)})")
    for key in REQUIRED:
        if key not in data:
            raise fail(key, "missing")
    if not isinstance(data["measured"], date):
        raise fail("measured", "must be a TOML date (2026-12-01) or local date-time (2026-12-01T17:26:00)")
    commands = data["command"] if isinstance(data["command"], list) else [data["command"]]
    if not commands or not all(isinstance(c, str) and c.strip() for c in commands):
        raise fail("command", "must be a command line, or a non-empty list of them")
    if data["machine"] not in MACHINES:
        raise fail("machine", f"must be one of {', '.join(map(repr, MACHINES))}, not {data['machine']!r}")
    for key in ("conditions", "commit", "note"):
        if key in data and not (isinstance(data[key], str) and data[key].strip()):
            raise fail(key, "must be non-empty text")
    columns = data["columns"]
    if not (isinstance(columns, list) and columns and all(isinstance(c, str) and c for c in columns)):
        raise fail("columns", "must be a non-empty list of column titles")
    rows = data["rows"]
    if not (isinstance(rows, list) and rows):
        raise fail("rows", "must be a non-empty list of rows")
    for i, row in enumerate(rows):
        if not (isinstance(row, list) and len(row) == len(columns)):
            raise fail(f"rows[{i}]", f"must be a list of {len(columns)} cells, one per column")
        for j, cell in enumerate(row):
            if isinstance(cell, bool) or not isinstance(cell, (str, int, float)):
                raise fail(f"rows[{i}][{j}]", f"must be text, an integer or a decimal, not {cell!r}")
    return Result(path, data["measured"], tuple(commands), data["machine"], data.get("conditions"),
                  data.get("commit"), data.get("note"), tuple(columns), tuple(tuple(r) for r in rows),
                  _goals(data.get("goal", []), fail))


def _goals(entries: object, fail: Callable[[str, str], ResultError]) -> tuple[Goal, ...]:
    if not isinstance(entries, list):
        raise fail("goal", "must be [[goal]] tables")
    goals = []
    for i, entry in enumerate(entries):
        if not (isinstance(entry, dict) and set(entry) == set(GOAL_FIELDS)):
            raise fail(f"goal[{i}]", f"must have exactly the fields {', '.join(GOAL_FIELDS)}")
        if not (isinstance(entry["goal"], str) and isinstance(entry["figure"], str) and isinstance(entry["met"], bool)):
            raise fail(f"goal[{i}]", "goal and figure must be text, met true or false")
        goals.append(Goal(entry["goal"], entry["figure"], entry["met"]))
    return tuple(goals)


def referenced_results(rst: str) -> list[str]:
    """The result names that the ``cardrules-results`` and ``cardrules-goals`` directives of a reST text name."""
    return [name for match in DIRECTIVE.finditer(rst) for name in match.group(1).split()]


def _text(cell: Cell) -> str:
    return cell if isinstance(cell, str) else f"{cell:,}"


def _plain(cell: nodes.Node | str) -> str:
    return cell if isinstance(cell, str) else cell.astext()


def _table(header: list[str], rows: list[list[nodes.Node | str]], title: nodes.title | None = None) -> nodes.table:
    """A docutils table: a header row, then the rows (a cell is text, or a node)."""

    def row(cells: list[nodes.Node | str]) -> nodes.row:
        out = nodes.row()
        for cell in cells:
            out += nodes.entry("", nodes.paragraph("", "", nodes.Text(cell) if isinstance(cell, str) else cell))
        return out

    table = nodes.table(classes=["cardrules-results"])
    if title is not None:
        table += title
    group = nodes.tgroup(cols=len(header))
    table += group
    lines: list[list[nodes.Node | str]] = [list(header), *rows]
    for i in range(len(header)):  # column widths for the text and LaTeX builders (HTML sizes columns itself)
        width = max(len(_plain(line[i])) for line in lines)
        group += nodes.colspec(colwidth=max(width, 3))
    group += nodes.thead("", row(list(header)))
    group += nodes.tbody("", *(row(r) for r in rows))
    return table


class _ResultsDirective(SphinxDirective):
    def result(self, name: str) -> Result:
        """The result file, a dependency of this page; a build error naming the page, the file and the field
        (a missing file is :class:`ResultMissing`, which the directives show plainly)."""
        self.env.note_dependency(str(RESULTS_DIR / f"{name}.toml"))
        try:
            return read_result(name)
        except ResultMissing:
            raise
        except ResultError as e:
            raise self.error(f"{self.name}: {e}") from None

    def inline(self, text: str, result: Result) -> nodes.Node:
        """A result file's text with its inline reST markup parsed (double backquotes, stars)."""
        parsed, messages = self.state.inline_text(text, self.lineno)
        if messages:
            raise self.error(f"{self.name}: {result.path}: bad markup in {text!r}: {messages[0].astext()}")
        return nodes.inline("", "", *parsed)

    def commands(self, result: Result) -> list[nodes.Node]:
        out: list[nodes.Node] = []
        for i, command in enumerate(result.commands):
            if i:
                out.append(nodes.Text(", " if i < len(result.commands) - 1 else " and "))
            out.append(nodes.literal(command, command))
        return out


class ResultsDirective(_ResultsDirective):
    """``.. cardrules-results:: NAME``: the table of ``docs/results/NAME.toml`` under its measurement caption."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        try:
            result = self.result(self.arguments[0])
        except ResultMissing:
            return [missing_paragraph(self.arguments[0])]
        caption = nodes.title("", f"Measured on {result.when} with ", *self.commands(result))
        caption += nodes.Text(f" on {result.machine} cores" + (f" ({result.conditions})" if result.conditions else ""))
        if result.commit:
            caption += [nodes.Text(", at commit "), nodes.literal(result.commit, result.commit)]
        caption += nodes.Text(".")
        out: list[nodes.Node] = [_table(list(result.columns), [[_text(c) for c in r] for r in result.rows], caption)]
        if result.note:
            out.append(nodes.paragraph("", "", self.inline(result.note, result)))
        return out


class GoalsDirective(_ResultsDirective):
    """``.. cardrules-goals:: NAME ...``: every ``[[goal]]`` of the named result files, in that order."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        rows: list[list[nodes.Node | str]] = []
        missing: list[str] = []
        for name in self.arguments[0].split():
            try:
                result = self.result(name)
            except ResultMissing:
                missing.append(name)
                continue
            if not result.goals:
                raise self.error(f"{self.name}: {result.path}: field 'goal': missing")
            for goal in result.goals:
                measured = nodes.inline("", f"{result.when}, ", *self.commands(result), nodes.Text(f" ({result.machine})"))
                status = nodes.Text("met") if goal.met else nodes.strong("not met", "not met")
                rows.append([self.inline(goal.goal, result), self.inline(goal.figure, result), measured, status])
        out: list[nodes.Node] = [_table(["goal", "latest figure", "measured", "status"], rows)] if rows else []
        return out + [missing_paragraph(name) for name in missing]


def check_results(app: Sphinx) -> None:
    """Every result file, and every one a page names, must read: otherwise the build fails, ``-W`` or not."""
    names = {path.stem for path in RESULTS_DIR.glob("*.toml")}
    for page in Path(app.srcdir).rglob("*.rst"):
        names.update(referenced_results(page.read_text(encoding="utf-8")))
    for name in sorted(names):
        try:
            read_result(name)
        except ResultMissing as e:  # the page says so; a warning (an error under -W, as in the tests)
            logger.warning("cardrules-results: %s: the page says no figures are recorded", e)
        except ResultError as e:
            logger.error("cardrules-results: %s", e)
            app.statuscode = 1


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", check_results)
    app.add_directive("cardrules-results", ResultsDirective)
    app.add_directive("cardrules-goals", GoalsDirective)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
