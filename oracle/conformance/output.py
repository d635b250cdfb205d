"""Writing generated suites: byte-identical files, a manifest, an atomic swap.

Suite files are ``<suite id>.json`` (indented JSON, keys in a fixed order,
one trailing newline); ``manifest.json`` lists every file with its sha256
and vector counts, the coverage per clause, what was uncovered or excused,
and the suites skipped with the reason. Everything is written to a
temporary folder beside the target, which then replaces the target in one
rename, so a reader never sees a half-written set.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Sequence

from cardrules.oracle.conformance import FORMAT
from cardrules.oracle.conformance.generate import SuiteResult, cardrules_version


def dumps(data: Any) -> str:
    """The canonical text of a JSON file this package writes."""
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


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


def write_suites(out: Path, results: Sequence[SuiteResult], seed: int) -> dict[str, Any]:
    """Write the suites and the manifest into ``out``, replacing it atomically; return the manifest."""
    texts = {f"{r.plan_id}.json": dumps(r.suite) for r in results if r.suite is not None}
    data = manifest(results, texts, seed)
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        for name, text in texts.items():
            (staging / name).write_text(text, encoding="utf-8")
        (staging / "manifest.json").write_text(dumps(data), encoding="utf-8")
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
    return data
