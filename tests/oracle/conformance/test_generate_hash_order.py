"""``cardrules conformance generate`` writes the same bytes whatever Python's hash seed.

The generator picks vectors by the lines of model code each candidate step runs. A model loop over a
set that stops at its first match runs other lines in another iteration order, and the order of a set
of strings changes with ``PYTHONHASHSEED``: two such loops (special initiative looking for an answer in
a hand, a discard looking for statuses) made these suites differ between processes. Each seed runs in a
process of its own, as a user's runs do.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.clause("RED-BASE-SPECIAL-INITIATIVE", "RED-SB-ONCE-PER-TURN")]

RULE_SETS = ("sb-initiated-when=on-use", "sb-pair-alignment=any-alignment")
"""Two option suites whose files differed between hash seeds before the loops were ordered."""


def _generate(out: Path, seed: str) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "cardrules.oracle.cli", "conformance", "generate", "--game", "redemption", "--out", str(out),
            "--jobs", "1", "--quiet"]
    for rule_set in RULE_SETS:
        argv += ["--rule-set", rule_set]
    return subprocess.Popen(argv, env={**os.environ, "PYTHONHASHSEED": seed}, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)


def test_the_suites_are_the_same_bytes_under_two_hash_seeds(tmp_path: Path) -> None:
    runs = {seed: (tmp_path / seed, _generate(tmp_path / seed, seed)) for seed in ("1", "4")}
    for seed, (_, process) in runs.items():
        _, err = process.communicate(timeout=1200)
        assert process.returncode == 0, f"PYTHONHASHSEED={seed}: {err.decode()[-2000:]}"
    one, four = runs["1"][0], runs["4"][0]
    names = sorted(p.name for p in one.glob("*.json"))
    assert names == sorted(p.name for p in four.glob("*.json")) and len(names) == len(RULE_SETS) + 1
    for name in names:
        assert (one / name).read_bytes() == (four / name).read_bytes(), name
