"""Recorded results of the long jobs (``cardrules verify``, the conformance score), for the spec site.

A complete ``cardrules verify`` (the README's main job: every embedded
scenario, engine and mutant) records a summary as JSON in the results
folder: ``$CARDRULES_RESULTS_DIR`` when set, else ``.cardrules/results``
under the working directory. The site's traceability page reads the
checkout's own ``.cardrules/results`` and shows, per clause, how many checks
ran and how they ended, stamped with when they ran and whether the catalogue
and scenarios have changed since (a stale result is shown as stale, never as
current).

Files are written atomically (a temporary file renamed over the old one), so
a reader never sees half a summary.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Mapping

from cardrules.oracle.verify.rows import FAILED_VERDICTS, Row
from cardrules.specs.fileio import FileProblem, check_output_dir, load_json, write_text

RESULTS_ENV = "CARDRULES_RESULTS_DIR"
VERIFY_RESULT = "verify.json"
FORMAT = "cardrules-verify-summary/1"
SCORE_RESULT = "conformance-score.json"
SCORE_FORMAT = "cardrules-conformance-score/1"
MAX_RECORD_BYTES = 64 * 1024 * 1024
"""Largest result record read back."""
PACKAGE_ROOT = Path(__file__).resolve().parents[2]
"""The checkout (or installed tree) whose catalogue and scenarios a summary is stamped with."""



def results_dir() -> Path:
    """Where results are recorded: ``$CARDRULES_RESULTS_DIR``, else ``./.cardrules/results``."""
    configured = os.environ.get(RESULTS_ENV)
    return Path(configured) if configured else Path.cwd() / ".cardrules" / "results"


def inputs_digest() -> str:
    """sha256 over the clause catalogue and the embedded scenarios: what a verify result was computed from."""
    from cardrules.properties.scenarios import SCENARIO_DIR
    from cardrules.specs.catalogue import CATALOGUE_DIR

    digest = hashlib.sha256()
    for file in sorted([*CATALOGUE_DIR.glob("*.toml"), *SCENARIO_DIR.glob("*.json")]):
        digest.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()


def model_digest() -> str:
    """sha256 over the executable model's sources: what a conformance score was computed from (a
    changed model makes a recorded score stale)."""
    model_root = PACKAGE_ROOT / "model"
    digest = hashlib.sha256()
    for file in sorted(model_root.rglob("*.py")):
        digest.update(str(file.relative_to(model_root)).encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()


def _commit() -> str | None:
    """The checkout's git commit, or None outside a git checkout."""
    try:
        done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=PACKAGE_ROOT, capture_output=True,
                              text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.strip() or None


def verify_summary(rows: Iterable[Row], *, now: datetime | None = None) -> dict[str, Any]:
    """The summary of a complete verify run: totals, and per clause the checks that ran and their verdicts."""
    rows = list(rows)
    per_clause: dict[str, Counter[str]] = {}
    for row in rows:
        for clause_id in row.clause_ids:
            per_clause.setdefault(clause_id, Counter())[row.verdict] += 1
    runs = {(r.scenario, r.rule_set, r.engine) for r in rows}
    return {
        "format": FORMAT,
        "recorded": (now or datetime.now(timezone.utc)).isoformat(timespec="seconds"),
        "commit": _commit(),
        "inputs_sha256": inputs_digest(),
        "checks": len(rows),
        "runs": len(runs),
        "failed": sum(1 for r in rows if r.failed),
        "verdicts": dict(sorted(Counter(r.verdict for r in rows).items())),
        "clauses": {cid: dict(sorted(c.items())) for cid, c in sorted(per_clause.items())},
    }


def score_summary(report: Mapping[str, Any], suites: Iterable[Mapping[str, Any]], *,
                  now: datetime | None = None) -> dict[str, Any]:
    """The record of a complete ``cardrules conformance score`` (every mutant of the model): the per area
    counts and the survivors of the probe's JSON report, stamped with the model and suites it ran on."""
    suites = list(suites)
    return {
        "format": SCORE_FORMAT,
        "recorded": (now or datetime.now(timezone.utc)).isoformat(timespec="seconds"),
        "commit": _commit(),
        "model_sha256": model_digest(),
        "suites": sorted(str(s.get("id", "?")) for s in suites),
        "vectors": sum(len(s.get("vectors", ())) for s in suites),
        "goal": report["goal"],
        "goal_met": report["goal_met"],
        "areas": report["areas"],
        "survivors": report["survivors"],
    }


def write_result(name: str, payload: Mapping[str, Any], directory: Path | None = None) -> Path:
    """Write one result file whole (through :func:`cardrules.specs.fileio.write_text`); returns its path.

    A folder that is a file, cannot be created or cannot be written is a
    :class:`~cardrules.specs.fileio.FileProblem` naming it.
    """
    folder = directory or results_dir()
    check_output_dir(folder)
    target = folder / name
    write_text(target, json.dumps(payload, indent=2, sort_keys=True) + "\n")
    return target


@dataclass(frozen=True)
class RecordedVerify:
    """A verify summary read back, with whether it still matches the catalogue and scenarios."""

    summary: dict[str, Any]
    current: bool

    def clause_line(self, clause_id: str) -> str:
        """What verify recorded for one clause, e.g. ``12 checks, all passed`` or ``2 of 12 failed``."""
        verdicts: dict[str, int] = self.summary["clauses"].get(clause_id, {})
        total = sum(verdicts.values())
        if not total:
            return "no property checks it"
        failed = sum(n for v, n in verdicts.items() if v in FAILED_VERDICTS)
        return f"{failed} of {total} failed" if failed else f"{total} checks, all passed"


def _read_record(path: Path, command: str, form: str, expected: set[str]) -> dict[str, Any] | str:
    """The JSON record at ``path`` of format ``form`` holding the ``expected`` keys, or the reason there
    is none to show (``command``: what records it)."""
    if not path.is_file():
        return f"nothing recorded in {path} (run `{command}` from the checkout)"
    try:
        summary = load_json(path, MAX_RECORD_BYTES)
    except FileProblem as problem:
        return f"{path} could not be read ({problem.where + ': ' if problem.where else ''}{problem.what})"
    if not isinstance(summary, dict) or summary.get("format") != form or not expected <= summary.keys():
        return f"{path} is not a {form} record"
    return summary


def read_verify_result(directory: Path) -> RecordedVerify | str:
    """The recorded verify summary in ``directory``, or the reason there is none to show."""
    summary = _read_record(directory / VERIFY_RESULT, "cardrules verify", FORMAT,
                           {"format", "recorded", "checks", "runs", "failed", "verdicts", "clauses", "inputs_sha256"})
    return summary if isinstance(summary, str) else RecordedVerify(summary, current=summary["inputs_sha256"] == inputs_digest())


@dataclass(frozen=True)
class RecordedScore:
    """A conformance score record read back; ``current``: the model's sources are the ones it ran on."""

    summary: dict[str, Any]
    current: bool


def read_score_result(directory: Path) -> RecordedScore | str:
    """The recorded conformance score in ``directory``, or the reason there is none to show."""
    summary = _read_record(directory / SCORE_RESULT, "cardrules conformance score", SCORE_FORMAT,
                           {"format", "recorded", "model_sha256", "areas", "survivors", "goal", "goal_met"})
    return summary if isinstance(summary, str) else RecordedScore(summary, current=summary["model_sha256"] == model_digest())


def record(name: str, payload: Mapping[str, Any], command: str, *, quiet: bool) -> None:
    """Record a complete run's result for the spec site (:func:`write_result`); a folder that cannot be
    written is a note on stderr, not a failure of ``command``."""
    import sys

    try:
        path = write_result(name, payload)
    except FileProblem as problem:
        print(f"{command}: result not recorded ({problem})", file=sys.stderr)
        return
    if not quiet:
        print(f"{command}: result recorded in {path}", file=sys.stderr)
