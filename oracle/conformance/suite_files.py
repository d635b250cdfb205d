"""Where conformance suites are read from: a manifest's folder, a folder of suite files, or files
(shared by ``cardrules conformance run|score`` and ``cardrules mutate``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

from cardrules.oracle.cli_common import InputError

DEFAULT_DIR = Path("conformance")
"""The folder ``cardrules conformance generate`` writes by default."""


def suite_files(paths: Sequence[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            manifest = path / "manifest.json"
            if manifest.is_file():
                try:
                    listed = [s["file"] for s in json.loads(manifest.read_text())["suites"] if "file" in s]
                except (ValueError, KeyError, TypeError) as problem:
                    raise InputError(f"{manifest}: not a conformance manifest ({problem})") from None
                files.extend(path / name for name in listed)
            else:
                files.extend(sorted(p for p in path.glob("*.json") if p.name != "manifest.json"))
        else:
            files.append(path)
    if not files:
        raise InputError(f"no suite files in {', '.join(map(str, paths))}")
    return files
