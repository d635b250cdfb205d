"""pytest plugin: the ``clause`` marker links a test to catalogue clause IDs.

Installed as a ``pytest11`` entry point, so any project's tests can use the
marker once cardrules is installed. An unknown clause ID stops collection
with an error naming the test and the ID. A test that checks no rule clause
(parsing, the command line, packaging, the engines' plumbing) says so with
the ``infrastructure`` marker and a reason; ``cardrules trace --strict``
fails on a test that does neither (:func:`collect_tests`). ``pytest --cardrules-clauses``
ends the run with a per-clause report: for each clause named by a marker,
how many of its tests passed, failed or were skipped. :func:`collect_tests` runs a collection-only
pytest session and returns every test's clause IDs and the tests that name
none without a reason, for ``cardrules trace``.
"""

from __future__ import annotations

import io
import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cardrules.specs.catalogue.registry import UnknownClauseError, check_ids

MARKER = "clause"
INFRASTRUCTURE_MARKER = "infrastructure"


REPORT_OPTION = "--cardrules-clauses"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("cardrules").addoption(
        REPORT_OPTION, action="store_true", default=False,
        help="after the run, report per rule clause how many of its tests passed, failed or were skipped",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{MARKER}(*ids): the rule clauses (catalogue IDs) this test checks")
    config.addinivalue_line("markers", f"{INFRASTRUCTURE_MARKER}(reason): this test checks no rule clause, and why")
    if config.getoption(REPORT_OPTION, default=False):
        config.pluginmanager.register(_ClauseReport(), "cardrules-clause-report")


class _ClauseReport:
    """Collects each test's outcome under every clause it names; prints a table at the end."""

    def __init__(self) -> None:
        self.clauses_of: dict[str, tuple[str, ...]] = {}
        self.outcomes: dict[str, dict[str, int]] = {}

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        for item in items:
            self.clauses_of[item.nodeid] = clause_ids_of(item)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
            for clause_id in self.clauses_of.get(report.nodeid, ()):
                counts = self.outcomes.setdefault(clause_id, {"passed": 0, "failed": 0, "skipped": 0})
                counts[report.outcome] += 1

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        terminalreporter.section("cardrules: tests per rule clause")
        if not self.outcomes:
            terminalreporter.write_line("no test names a clause (@pytest.mark.clause)")
            return
        width = max(len(c) for c in self.outcomes)
        terminalreporter.write_line(f"{'clause':<{width}}  passed  failed  skipped")
        for clause_id, counts in sorted(self.outcomes.items()):
            line = f"{clause_id:<{width}}  {counts['passed']:>6}  {counts['failed']:>6}  {counts['skipped']:>7}"
            terminalreporter.write_line(line, red=bool(counts["failed"]))
        failing = sorted(c for c, n in self.outcomes.items() if n["failed"])
        terminalreporter.write_line(f"{len(self.outcomes)} clause(s); failing: {', '.join(failing) or 'none'}")


def clause_ids_of(item: pytest.Item) -> tuple[str, ...]:
    """Every clause ID on an item's ``clause`` markers (test, class and module)."""
    ids: list[str] = []
    for mark in item.iter_markers(name=MARKER):
        for arg in mark.args:
            if not isinstance(arg, str):
                raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.clause takes clause ID strings, got {arg!r}")
            ids.append(arg)
    return tuple(dict.fromkeys(ids))


def infrastructure_reason(item: pytest.Item) -> str | None:
    """The reason on an item's nearest ``infrastructure`` marker, or None without one."""
    mark = item.get_closest_marker(INFRASTRUCTURE_MARKER)
    if mark is None:
        return None
    given = [*mark.args, *mark.kwargs.values()]
    reason = given[0] if len(given) == 1 and set(mark.kwargs) <= {"reason"} else None
    if not isinstance(reason, str) or not reason.strip():
        shown = ", ".join([*map(repr, mark.args), *(f"{k}={v!r}" for k, v in mark.kwargs.items())])
        raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.{INFRASTRUCTURE_MARKER} takes one reason string "
                                f"(positional or reason=...), got ({shown})")
    return reason


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        infrastructure_reason(item)
        ids = clause_ids_of(item)
        if any(True for _ in item.iter_markers(name=MARKER)):
            try:
                check_ids(ids, item.nodeid)
            except UnknownClauseError as error:
                raise pytest.UsageError(str(error)) from None


class _Collector:
    """Records ``nodeid -> clause IDs``, and the tests with neither marker, during a collection-only session."""

    def __init__(self) -> None:
        self.links: dict[str, tuple[str, ...]] = {}
        self.unexplained: list[str] = []

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        for item in items:
            ids = clause_ids_of(item)
            if ids:
                self.links[item.nodeid] = ids
            elif infrastructure_reason(item) is None:
                self.unexplained.append(item.nodeid)


@dataclass(frozen=True)
class CollectedTests:
    """What a collection found: each test's clause IDs, and the tests that name no clause and give no reason."""

    links: dict[str, tuple[str, ...]]
    unexplained: tuple[str, ...]


class CollectionFailed(RuntimeError):
    """The test suite could not be collected; the message holds pytest's report."""


def collect_test_links(tests_dir: Path) -> dict[str, tuple[str, ...]]:
    """Collect the tests under ``tests_dir`` and return ``nodeid -> clause IDs``."""
    return collect_tests(tests_dir).links


def collect_tests(tests_dir: Path) -> CollectedTests:
    """Collect the tests under ``tests_dir``: their clause links and the tests naming neither clause nor reason."""
    collector = _Collector()
    output = io.StringIO()
    # ``-o addopts=``: the project's run options (``-n auto``, pytest-xdist's) are not needed to
    # collect, and pytest-xdist is a test extra that an install for ``trace`` may lack
    args = ["--collect-only", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "--rootdir", str(tests_dir.parent),
            str(tests_dir)]
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        code = pytest.main(args, plugins=[collector])
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        raise CollectionFailed(output.getvalue().strip()[-4000:])
    return CollectedTests(collector.links, tuple(sorted(collector.unexplained)))
