"""Shared test configuration.

hypothesis profiles: ``ci`` (default, quick enough for two cores, derandomized so that a
CI verdict never depends on the draw),
``deep`` for long runs: ``HYPOTHESIS_PROFILE=deep python -m pytest``, and
``fuzz`` for the bad-input tests, 1,000 examples per input kind:
``HYPOTHESIS_PROFILE=fuzz python -m pytest tests/robustness``.
The ``clause`` marker and its checks come from ``cardrules.oracle.trace.pytest_plugin``.

The suite runs on every core with pytest-xdist (``addopts`` in pyproject.toml, ``--dist
loadgroup``). A module- or session-scoped fixture of this suite is built once per worker that
runs a test using it, so every test that uses one is put in the ``xdist_group`` of the file
defining that fixture (a session fixture's first). pytest-xdist 3.8 groups only on pytest
versions whose node IDs it can suffix (not pytest 9), so the builds that must never run twice at
once into the same folder of the checkout (the docs build writes ``docs/areas``, ``python -m
build`` writes ``build/``) go through ``built_once``, a file lock shared by the workers.
"""

from __future__ import annotations

import fcntl
import inspect
import os
import shutil
from pathlib import Path
from typing import Callable, Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("fuzz", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# A complete `cardrules verify` run inside a test must not overwrite the checkout's
# recorded result (oracle/verify/results.py), which the spec site shows.
if "CARDRULES_RESULTS_DIR" not in os.environ:
    import tempfile

    os.environ["CARDRULES_RESULTS_DIR"] = tempfile.mkdtemp(prefix="cardrules-results-")


TESTS = Path(__file__).resolve().parent
SHARED_SCOPES = ("session", "module")
"""Scopes whose fixture value is shared by several tests, widest first."""


def shared_fixture_group(item: pytest.Item) -> str | None:
    """The file (relative to ``tests/``) defining the widest-scoped shared fixture of this suite that
    ``item`` uses, directly or through another fixture; None when it uses none."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    found: dict[str, set[str]] = {scope: set() for scope in SHARED_SCOPES}
    for definitions in info.name2fixturedefs.values():
        definition = definitions[-1]
        if definition.scope not in found:
            continue
        source = inspect.getsourcefile(definition.func)
        if source is None or not Path(source).resolve().is_relative_to(TESTS):
            continue  # pytest's own (tmp_path_factory, ...), not built by this suite
        found[definition.scope].add(Path(source).resolve().relative_to(TESTS).as_posix())
    return next((min(files) for scope, files in found.items() if files), None)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the marks (its worker's hook)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        group = shared_fixture_group(item)
        if group is not None and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group))


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """``build(folder)`` once for the whole run, into the run's temporary root: under pytest-xdist
    every worker asks, the first builds holding a lock, the others wait for it and reuse the folder.

    (pytest-xdist 3.8's ``loadgroup`` does not group on pytest 9, whose node IDs it cannot suffix,
    so a session fixture's tests may run on both workers: this keeps the build single and never
    two builds at once into the same folder of the checkout.)"""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # shared by the workers of this run
    folder = root / name
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = root / f"{name}.done"
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            build(folder)
            done.touch()
    return folder


COMPILED_TRACER_REQUIRED = os.environ.get("CARDRULES_REQUIRE_COMPILED_TRACER") == "1" or os.environ.get("CI") == "true"
"""In CI (``CI=true``) or with ``CARDRULES_REQUIRE_COMPILED_TRACER=1``, a compiled tracer that cannot be used fails
the tests that run it, instead of skipping them."""


def _compiled_tracer_or_skip() -> None:
    from cardrules.oracle.trace.coverage import compiled_tracer_missing

    missing = compiled_tracer_missing()
    if missing:
        message = f"the compiled tracer cannot be used: {missing}"
        if COMPILED_TRACER_REQUIRED:
            pytest.fail(message + " [CARDRULES_REQUIRE_COMPILED_TRACER=1 or CI=true]")
        pytest.skip(message)


@pytest.fixture(params=["python", "compiled"])
def each_tracer(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run the test once with the pure-Python tracer (the reference) and once with the compiled one
    (``cardrules.oracle.trace.ctracer``), skipped where it cannot be used, but in CI; the tracer of the
    process restored after."""
    from cardrules.oracle.trace.coverage import tracer_in_use, use_tracer

    if request.param == "compiled":
        _compiled_tracer_or_skip()
    before = tracer_in_use()
    use_tracer(request.param)
    yield request.param
    use_tracer(before)


@pytest.fixture
def compiled_tracer() -> Iterator[None]:
    """For a test comparing the compiled tracer with the pure-Python one: skipped where it cannot be used, but
    in CI; the tracer of the process restored after."""
    from cardrules.oracle.trace.coverage import tracer_in_use, use_tracer

    _compiled_tracer_or_skip()
    before = tracer_in_use()
    yield
    use_tracer(before)
