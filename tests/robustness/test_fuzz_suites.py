"""Generated bad input for conformance suites: mutated suite files, mutated manifests, and mutated expectations.

The valid input is ``data/conformance-fftcg-small.json``: seven vectors (two play, two refusal, two perft,
one invalid) cut from ``generate_suite(make_plan("fftcg", {}, {}), load_scenarios(), seed=0,
max_states={"fftcg": 400, "redemption": 40})`` (the FFTCG default suite of
tests/oracle/conformance/conftest.py), written with ``json.dumps(suite, indent=1, ensure_ascii=False)``.

- a mutated suite file is loaded by ``load_suite`` or refused with a :class:`SuiteError` naming the file, and
  ``cardrules conformance run`` on it exits 3 with one line on stderr (the adapter named does not exist: the
  run never gets to a vector);
- a mutated manifest gives suite files inside its folder, or an :class:`InputError`;
- a suite accepted after a mutation of a field the runner compares (a step's expected ``state``, a
  ``legal_actions`` list, a perft ``nodes`` or ``divide``, a refusal's ``refuse.clauses``) never passes against
  the reference adapter; an accepted mutation that changed nothing compared still passes.

Every checked input is counted (surface ``suites and manifests``) for ``benchmarks/fuzz.py``.
"""

from __future__ import annotations

import copy
import json
import shutil
import sys
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules.oracle.conformance.process import AdapterFault, AdapterProcess
from cardrules.oracle.conformance.runner import run_suites, run_vector
from cardrules.oracle.conformance.schema import SuiteError, load_suite
from cardrules.oracle.conformance.suite_files import suite_files
from cardrules.oracle.errors import InputError

from tests.cli import run_cli
from tests.robustness.helpers import DATA, load_json
from tests.robustness.mutate import bad_values, mutated_bytes, mutated_document
from tests.robustness.tally import count

pytestmark = pytest.mark.infrastructure("a broken suite or manifest is bad input, and a wrong expectation never passes")

SURFACE = "suites and manifests"
SUITE_FILE = DATA / "conformance-fftcg-small.json"
SUITE: dict[str, Any] = load_json(SUITE_FILE)
REFERENCE = [sys.executable, "-m", "cardrules.oracle.cli", "conformance", "adapter"]
MISSING_ADAPTER = "/nonexistent/cardrules-fuzz-adapter"
"""An adapter command that cannot start: a run that got past loading the suite stops at once (exit 3)."""
TIMEOUT = 30.0
"""Seconds per vector given to the reference adapter (it answers in milliseconds)."""

PER_EXAMPLE = settings(deadline=timedelta(seconds=20),
                       suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                              HealthCheck.function_scoped_fixture])

_WORK = Path(tempfile.mkdtemp(prefix="cardrules-fuzz-suites-"))


def _dump(doc: Any) -> bytes:
    return json.dumps(doc, indent=1).encode("utf-8")


def test_the_small_suite_passes_against_the_reference_adapter() -> None:
    """The baseline of the checks below: unmutated, every vector of every kind passes."""
    suite = load_suite(SUITE_FILE)
    assert {v["kind"] for v in suite["vectors"]} == {"play", "refusal", "perft", "invalid"}
    results = run_suites(REFERENCE, [suite], TIMEOUT)
    assert [r.verdict for r in results] == ["pass"] * len(suite["vectors"]), [r.to_json() for r in results]


def _cli_on(path: Path, refused: SuiteError | None, vectors: int) -> None:
    """``cardrules conformance run`` on ``path``: exit 3, one line on stderr, the loader's message if refused."""
    run = run_cli("conformance", "run", "--adapter", MISSING_ADAPTER, "--suite", str(path), "--quiet")
    assert "Traceback" not in run.err, run.err
    assert run.code == 3, run
    assert len(run.err.strip().splitlines()) == 1, run.err
    if refused is not None:
        assert str(refused) in run.err, (str(refused), run.err)
    elif vectors == 0:  # nothing to run is bad input: the adapter is never started
        assert "no vectors to run" in run.err, run.err
    else:
        assert "cannot start adapter" in run.err, run.err


@PER_EXAMPLE
@given(data=st.data())
def test_mutated_suite_files_load_or_are_refused_naming_the_file(data: st.DataObject) -> None:
    doc = data.draw(mutated_document(SUITE), label="suite")
    raw = data.draw(mutated_bytes(_dump(doc), deep=True), label="bytes")
    path = _WORK / "fftcg-default.json"
    path.write_bytes(raw)
    refused: SuiteError | None = None
    vectors = 0
    try:
        vectors = len(load_suite(path)["vectors"])
    except SuiteError as error:
        assert str(error).startswith(f"{path}: "), error
        assert error.problem.strip(), error
        refused = error
    _cli_on(path, refused, vectors)
    count(SURFACE, "bad input" if refused else "loaded")


NAMES: tuple[Any, ...] = (
    "fftcg-default.json", "./fftcg-default.json", "sub/../fftcg-default.json", "../fftcg-default.json",
    "../../etc/passwd", "/etc/passwd", "fftcg-default.json\x00", "\x00", "a" * 300 + ".json", "a/" * 3000,
    ".", "..", "sub", "sub/", "", " ", "link.json", "missing.json", "manifest.json", "fftcg-default.json/",
    "é.json", "\ud800.json", 10**40, -1, 1.5, True, None, [], {}, ["fftcg-default.json"],
)
"""File names a manifest may list: fine, escaping its folder (``../``, absolute, a link out), too long, with
a NUL or a lone surrogate, not a file (a folder), or not a string."""


@pytest.fixture(scope="module")
def manifest_folder() -> Iterator[Path]:
    """A generated folder: the suite file, a sub-folder, a link out of the folder, and manifest.json."""
    folder = _WORK / "manifest"
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "sub").mkdir(parents=True)
    shutil.copy(SUITE_FILE, folder / "fftcg-default.json")
    (folder / "link.json").symlink_to(SUITE_FILE.resolve())
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


MANIFEST: dict[str, Any] = {
    "format": "cardrules-vectors/3", "cardrules_version": "0.1.0", "seed": 0,
    "suites": [{"suite": "fftcg-default", "file": "fftcg-default.json", "sha256": "0" * 64,
                "rule_set": "default", "vectors": 7, "by_kind": {"invalid": 1, "perft": 2, "play": 2, "refusal": 2}},
               {"suite": "fftcg-skipped", "skipped": "no difference found", "candidates": 0}],
}
"""The shape ``write_suites`` gives (one suite written, one skipped)."""


@st.composite
def mutated_manifest(draw: st.DrawFn) -> bytes:
    """The manifest with generic mutations, or with a bad ``file`` name put in an entry, then maybe broken bytes."""
    doc = draw(mutated_document(MANIFEST))
    if draw(st.booleans()) and isinstance(doc, dict) and isinstance(doc.get("suites"), list) and doc["suites"]:
        entry = doc["suites"][draw(st.integers(0, len(doc["suites"]) - 1))]
        if isinstance(entry, dict):
            entry["file"] = draw(st.one_of(st.sampled_from(NAMES), bad_values()))
    text = json.dumps(doc)
    if draw(st.integers(0, 9)) == 0:  # an integer literal of 5,000 digits (json.dumps cannot write one)
        text = text.replace('"seed": 0', '"seed": ' + "7" * 5000)
    return draw(mutated_bytes(text.encode("utf-8", "surrogatepass"), deep=True))


@PER_EXAMPLE
@given(raw=mutated_manifest())
def test_mutated_manifests_list_files_inside_their_folder_or_are_bad_input(raw: bytes, manifest_folder: Path) -> None:
    (manifest_folder / "manifest.json").write_bytes(raw)
    try:
        files = suite_files([manifest_folder])
    except InputError as error:
        message = str(error)
        assert message.strip() and "\n" not in message, message
        count(SURFACE, "bad input")
        return
    inside = manifest_folder.resolve()
    for file in files:
        assert file.is_file() and inside in file.resolve().parents, (file, file.resolve())
    count(SURFACE, "manifest read")


Target = tuple[int, tuple[str | int, ...]]
"""A vector's index in the suite, and the path inside that vector of a field the runner compares."""


def compared_fields(suite: dict[str, Any]) -> list[Target]:
    """Every field the runner compares with the engine's answers, per vector (an invalid vector has none)."""
    targets: list[Target] = []
    for index, vector in enumerate(suite["vectors"]):
        if vector["kind"] in ("play", "refusal"):
            targets.append((index, ("legal_actions",)))
            for number in range(len(vector["steps"])):
                targets += [(index, ("steps", number, "state")), (index, ("steps", number, "legal_actions"))]
        if vector["kind"] == "refusal":
            targets.append((index, ("refuse", "clauses")))
        if vector["kind"] == "perft":
            targets += [(index, ("nodes",)), (index, ("divide",))]
    return targets


TARGETS = compared_fields(SUITE)
ACTIONS = sorted({a for v in SUITE["vectors"] for a in [*v.get("legal_actions", ()), *v.get("divide", ())]})
"""Action texts of the suite: a legal-actions list with one of them swapped in is well typed but wrong."""


def _at(doc: Any, path: tuple[str | int, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


@st.composite
def compared_mutation(draw: st.DrawFn) -> tuple[int, tuple[str | int, ...], Any]:
    """A vector index, a compared field and its new value: semantic mutations, or (clauses, legal actions)
    a well-typed value from elsewhere in the suite."""
    index, path = draw(st.sampled_from(TARGETS), label="field")
    original = _at(SUITE["vectors"][index], path)
    kind = path[-1]
    if kind == "clauses" and draw(st.booleans()):
        return index, path, draw(st.lists(st.sampled_from(SUITE["clauses_in_force"]), unique=True, max_size=3))
    if kind == "legal_actions" and original and draw(st.booleans()):
        value = list(original)
        value[draw(st.integers(0, len(value) - 1))] = draw(st.sampled_from(ACTIONS))
        return index, path, value
    return index, path, draw(mutated_document(original, max_mutations=2, semantic=True))


def changed(path: tuple[str | int, ...], before: Any, after: Any) -> bool:
    """Whether the runner's comparison of this field can tell ``after`` from ``before``: refusal clauses are
    compared as sets; everything else exactly, JSON types included (``1`` is not ``true`` nor ``1.0``)."""
    if path[-1] == "clauses":
        return not isinstance(after, list) or set(before) != set(after)
    return json.dumps(before, sort_keys=True) != json.dumps(after, sort_keys=True)


class Reference:
    """One reference adapter process for a whole test (started on first use, restarted after a fault)."""

    def __init__(self) -> None:
        self.process: AdapterProcess | None = None

    def verdict(self, suite: dict[str, Any]) -> str:
        if self.process is None:
            self.process = AdapterProcess(REFERENCE)
        try:
            result = run_vector(self.process, suite, suite["vectors"][0], TIMEOUT)
        except AdapterFault:
            self.close()
            raise
        return result.verdict

    def close(self) -> None:
        if self.process is not None:
            self.process.close()
        self.process = None


@pytest.fixture(scope="module")
def reference() -> Iterator[Reference]:
    adapter = Reference()
    yield adapter
    adapter.close()


@PER_EXAMPLE
@given(mutation=compared_mutation())
def test_an_accepted_suite_with_a_wrong_expectation_never_passes(
    mutation: tuple[int, tuple[str | int, ...], Any], reference: Reference
) -> None:
    """The mutated vector alone, through ``load_suite`` and the runner's per-vector check, on one long-lived
    reference adapter (a process per example would cost half a second each)."""
    index, path, value = mutation
    suite = copy.deepcopy(SUITE)
    vector = suite["vectors"][index]
    original = _at(vector, path)
    _at(vector, path[:-1])[path[-1]] = value
    suite["vectors"] = [vector]
    file = _WORK / "expectation.json"
    file.write_bytes(_dump(suite))
    try:
        loaded = load_suite(file)
    except SuiteError as error:
        assert str(error).startswith(f"{file}: "), error
        count(SURFACE, "bad input")
        return
    verdict = reference.verdict(loaded)
    if changed(path, original, value):
        assert verdict == "fail", (vector["id"], path, value, verdict)
        count(SURFACE, "caught")
    else:
        assert verdict == "pass", (vector["id"], path, value, verdict)
        count(SURFACE, "unchanged, passed")
