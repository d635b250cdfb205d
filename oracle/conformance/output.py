"""Writing generated suites: byte-identical files, a manifest, an atomic swap.

Suite files are ``<suite id>.json`` (indented JSON, keys in a fixed order,
one trailing newline); ``manifest.json`` lists every file with its sha256
and vector counts, the coverage per clause, what was uncovered or excused,
and the suites skipped with the reason. Everything is written to a
temporary folder beside the target, which then replaces the target in one
rename, so a reader never sees a half-written set; a lock on the folder that
holds the target serializes two generations into the same folder.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Sequence

from cardrules.oracle.conformance import FORMAT
from cardrules.oracle.conformance.generate import SuiteResult, cardrules_version
from cardrules.oracle.conformance.indented_json import indented
from cardrules.specs.fileio import FileProblem, check_output_dir, check_path, write_text


def dumps(data: Any) -> str:
    """The canonical text of a JSON file this package writes: ``json.dumps(data, indent=1, ensure_ascii=False)``
    (made by :func:`~.indented_json.indented`, the same text) and a newline."""
    return indented(data) + "\n"


def manifest(results: Sequence[SuiteResult], texts: dict[str, str], seed: int) -> dict[str, Any]:
    suites = []
    for result in results:
        entry: dict[str, Any] = {"suite": result.plan_id}
        if result.suite is None:
            entry["skipped"] = result.skipped
            entry["candidates"] = result.candidates
        else:
            file = f"{result.plan_id}.json"
            kinds: dict[str, int] = {}
            for vector in result.suite["vectors"]:
                kinds[vector["kind"]] = kinds.get(vector["kind"], 0) + 1
            entry.update({
                "file": file,
                "sha256": hashlib.sha256(texts[file].encode()).hexdigest(),
                "rule_set": result.suite["rule_set"]["expression"],
                "vectors": len(result.suite["vectors"]),
                "by_kind": dict(sorted(kinds.items())),
                "candidates": result.candidates,
                "chosen_by_set_cover": result.chosen,
                "coverage": result.coverage,
                "uncovered": result.uncovered,
                "excused": result.excused,
            })
        suites.append(entry)
    return {"format": FORMAT, "cardrules_version": cardrules_version(), "seed": seed, "suites": suites}


def check_out(out: Path) -> None:
    """Refuse, before anything is generated, an output folder that could not be written (FileProblem)."""
    check_path(out)
    if out.exists() and not out.is_dir():
        raise FileProblem(str(out), "is a file, not a folder")
    try:
        check_output_dir(out.resolve().parent)
    except FileProblem as problem:
        raise FileProblem(str(out), f"cannot be written: {problem}") from None


@contextmanager
def _locked(out: Path) -> Iterator[None]:
    """Lock the folder that holds ``out`` (``flock`` on the folder itself, so no lock file is left): two
    generations into one folder write one after the other."""
    handle = os.open(out.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)


def _recover(out: Path) -> None:
    """Undo what a writer killed mid-way (SIGKILL, power loss) left beside ``out``; called under the lock.

    A writer killed between its two renames left ``out`` missing and the old
    set in ``.<name>.old.*/<name>``: it is put back. Staging folders of killed
    writers are removed.
    """
    made_here = re.compile(rf"\.{re.escape(out.name)}\.(old\.)?[a-z0-9_]{{8}}")  # mkdtemp's names, no others
    leftovers = sorted(p for p in out.parent.iterdir() if made_here.fullmatch(p.name) and p.is_dir())
    for folder in leftovers:
        if folder.name.startswith(f".{out.name}.old.") and (folder / out.name).is_dir() and not out.exists():
            os.rename(folder / out.name, out)
    for folder in leftovers:
        shutil.rmtree(folder, ignore_errors=True)


def suite_text(result: SuiteResult) -> str | None:
    """The text of a result's suite file (:func:`dumps`), None for a skipped suite."""
    return None if result.suite is None else dumps(result.suite)


def write_suites(out: Path, results: Sequence[SuiteResult], seed: int,
                 texts: Sequence[str | None] | None = None) -> dict[str, Any]:
    """Write the suites and the manifest into ``out``, replacing it atomically; return the manifest.
    ``texts``: each result's :func:`suite_text`, if already made (the generator's worker processes make
    them, in parallel, as each suite is done).

    Writers into the same folder are serialized by a lock; a reader sees the
    old set or the whole new one. Interrupted (Ctrl-C), the staging folder is
    removed; killed, the next write puts things right (:func:`_recover`).
    Problems are :class:`FileProblem` naming the folder.
    """
    made = [suite_text(r) for r in results] if texts is None else texts
    if len(made) != len(results):
        raise ValueError(f"{len(made)} suite texts for {len(results)} results")
    files = {f"{r.plan_id}.json": text for r, text in zip(results, made) if r.suite is not None and text is not None}
    data = manifest(results, files, seed)
    check_out(out)
    out = out.resolve()
    try:
        with _locked(out):
            _recover(out)
            _swap_in(out, files, dumps(data))
    except OSError as error:
        raise FileProblem(str(out), f"cannot be written: {error.strerror or error}") from None
    return data


def _swap_in(out: Path, texts: dict[str, str], manifest_text: str) -> None:
    """Write every file into a staging folder beside ``out``, then rename it into place."""
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        for name, text in [*texts.items(), ("manifest.json", manifest_text)]:
            write_text(staging / name, text)  # a failure names the file, not only the folder
        os.chmod(staging, 0o755)
        old = None
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
            os.rename(out, old / out.name)
        os.rename(staging, out)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
