"""pytest plugin: the ``clause`` marker links a test to catalogue clause IDs.

Loaded for this project's tests through ``pyproject.toml`` (``-p
oracle.pytest_plugin``). An unknown clause ID stops collection with an error
naming the test and the ID. :func:`collect_test_links` runs a collection-only
pytest session and returns every test's clause IDs, for ``cardrules trace``.
"""

from __future__ import annotations

import io
import contextlib
from pathlib import Path

import pytest

from cardrules.specs.registry import UnknownClauseError, check_ids

MARKER = "clause"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{MARKER}(*ids): the rule clauses (catalogue IDs) this test checks")


def clause_ids_of(item: pytest.Item) -> tuple[str, ...]:
    """Every clause ID on an item's ``clause`` markers (test, class and module)."""
    ids: list[str] = []
    for mark in item.iter_markers(name=MARKER):
        for arg in mark.args:
            if not isinstance(arg, str):
                raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.clause takes clause ID strings, got {arg!r}")
            ids.append(arg)
    return tuple(dict.fromkeys(ids))


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        ids = clause_ids_of(item)
        if any(True for _ in item.iter_markers(name=MARKER)):
            try:
                check_ids(ids, item.nodeid)
            except UnknownClauseError as error:
                raise pytest.UsageError(str(error)) from None


class _Collector:
    """Records ``nodeid -> clause IDs`` during a collection-only session."""

    def __init__(self) -> None:
        self.links: dict[str, tuple[str, ...]] = {}

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        for item in items:
            ids = clause_ids_of(item)
            if ids:
                self.links[item.nodeid] = ids


class CollectionFailed(RuntimeError):
    """The test suite could not be collected; the message holds pytest's report."""


def collect_test_links(tests_dir: Path) -> dict[str, tuple[str, ...]]:
    """Collect the tests under ``tests_dir`` and return ``nodeid -> clause IDs``."""
    collector = _Collector()
    output = io.StringIO()
    args = ["--collect-only", "-q", "-p", "no:cacheprovider", "--rootdir", str(tests_dir.parent), str(tests_dir)]
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        code = pytest.main(args, plugins=[collector])
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        raise CollectionFailed(output.getvalue().strip()[-4000:])
    return collector.links
