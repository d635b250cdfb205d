"""Where conformance suites are read from: a manifest's folder, a folder of suite files, or files
(shared by ``cardrules conformance run|score`` and ``cardrules mutate``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

from cardrules.oracle.errors import InputError
from cardrules.specs.fileio import FileProblem, check_path, load_json

MAX_MANIFEST_BYTES = 16 * 1024 * 1024
"""Largest manifest read (a generated one is a few kB)."""

DEFAULT_DIR = Path("conformance")
"""The folder ``cardrules conformance generate`` writes by default."""


def _listed(manifest: Path) -> list[Path]:
    """The suite files a manifest lists, each a file inside the manifest's folder."""
    try:
        data = load_json(manifest, MAX_MANIFEST_BYTES)
    except FileProblem as problem:
        raise InputError(f"not a conformance manifest: {problem}") from None
    suites = data.get("suites") if isinstance(data, dict) else None
    if not isinstance(suites, list):
        raise InputError(f"{manifest}: not a conformance manifest ($.suites must be an array of suites)")
    files: list[Path] = []
    folder = manifest.parent.resolve()
    for n, entry in enumerate(suites):
        if not isinstance(entry, dict):
            raise InputError(f"{manifest}: $.suites[{n}] must be an object")
        if "file" not in entry:
            continue
        name = entry["file"]
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"{manifest}: $.suites[{n}].file must be a file name, got {json.dumps(name)[:80]}")
        try:
            check_path(name)
        except FileProblem as problem:
            raise InputError(f"{manifest}: $.suites[{n}].file must be a file name: {problem.what}") from None
        file = manifest.parent / name
        if folder not in file.resolve().parents:
            raise InputError(f"{manifest}: $.suites[{n}].file {name!r} is not inside the manifest's folder")
        if not file.is_file():
            raise InputError(f"{manifest}: $.suites[{n}].file {name!r} does not exist")
        files.append(file)
    return files


def suite_files(paths: Sequence[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        try:
            check_path(path)
        except FileProblem as problem:
            raise InputError(str(problem)) from None
        if path.is_dir():
            manifest = path / "manifest.json"
            if manifest.is_file():
                files.extend(_listed(manifest))
            else:
                files.extend(sorted(p for p in path.glob("*.json") if p.name != "manifest.json"))
        else:
            files.append(path)
    if not files:
        raise InputError(f"no suite files in {', '.join(map(str, paths))}")
    return files
