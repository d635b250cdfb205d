"""``cardrules verify --jobs N``: runs in worker processes give the very rows of one process.

Each run is independent (its own game, exploration, machine, z3 context), so the rows,
verdicts, sizes and counterexamples cannot depend on how many workers ran them, nor on
which runs a worker ran before: only the seconds differ. This checks the verifier's
machinery, not a rule clause, so it carries no clause marker.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from cardrules.oracle.cli import main
from cardrules.oracle.jobs import run_jobs

pytestmark = pytest.mark.infrastructure("verify's worker processes give the same rows")

SMALL = ["--scenario", "fftcg-preemptive-blocker-survives", "--scenario", "redemption-redirect-opposing",
         "--examples", "10"]


def verify_json(*args: str) -> tuple[int, list[dict[str, Any]]]:
    out = io.StringIO()
    code = main(["verify", *args, "--json", "--quiet", "--no-record"], out=out)
    rows = json.loads(out.getvalue())
    for row in rows:
        del row["seconds"]
    return code, rows


def test_two_jobs_give_the_rows_of_one_in_the_same_order() -> None:
    one = verify_json(*SMALL, "--jobs", "1")
    two = verify_json(*SMALL, "--jobs", "2")
    assert one == two
    code, rows = one
    assert code == 0
    # both scenarios, every engine: the FFTCG one has three engines on four rule sets (its mutant
    # included), the Redemption one two engines on its one rule set
    runs = {(r["scenario"], r["rule_set"], r["engine"]) for r in rows}
    assert len(runs) == 4 * 3 + 1 * 2
    # the broken split in hundreds is caught by the explorer and by z3, whose counterexample
    # (a model z3 chose) ends with the blocker's split and replays on the model
    caught = {r["engine"]: r for r in rows if r["verdict"] == "caught"}
    assert {"explore", "smt"} <= caught.keys()
    assert caught["smt"]["counterexample"][-2].startswith("split ")
    assert caught["smt"]["counterexample"][-1] == "replay on the model: reproduced"


def test_a_z3_counterexample_does_not_depend_on_the_checks_run_before_it() -> None:
    from cardrules.model.fftcg.config import RuleConfig
    from cardrules.model.fftcg.validate import load_state
    from cardrules.oracle.crosscheck.fftcg import bmc_from_state
    from cardrules.properties.scenarios import load_scenarios

    scenarios = {s.name: load_state(s.state) for s in load_scenarios() if s.game == "fftcg"}
    hundreds = RuleConfig.of({}, broken=("party-split-in-hundreds",))
    target = scenarios["fftcg-preemptive-blocker-survives"]
    first = bmc_from_state(target, "damage-in-thousands", 6, hundreds)
    bmc_from_state(scenarios["fftcg-party-basics"], "damage-in-thousands", 6, hundreds)  # other z3 work between
    again = bmc_from_state(target, "damage-in-thousands", 6, hundreds)
    # shares in hundreds: a share off the thousands is dealt after the party's split, so z3 finds a violation
    assert first.verdict.value == "violated" and str(first.trace[-1][0]).startswith("split ")
    assert again.trace == first.trace and not first.replay_problems


def _square(n: int) -> int:
    return n * n


def _fail_on_three(n: int) -> int:
    if n == 3:
        raise ValueError("three")
    return n


def test_results_come_back_in_the_jobs_order_and_errors_are_raised() -> None:
    finished: list[int] = []
    results = run_jobs(list(range(8)), _square, 2, cost=lambda n: n % 3,
                       on_done=lambda index, result, running: finished.append(index))
    assert results == [0, 1, 4, 9, 16, 25, 36, 49]
    assert sorted(finished) == list(range(8))
    with pytest.raises(ValueError, match="three"):
        run_jobs(list(range(6)), _fail_on_three, 2)


def test_jobs_must_be_a_positive_count(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["verify", "--jobs", "0"])
    assert exit_.value.code == 2
    assert "0 is less than 1" in capsys.readouterr().err


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_with_jobs_one_line_per_run_off_a_terminal_and_a_bar_on_one() -> None:
    from cardrules.oracle.verify.runner import verify
    from cardrules.properties.scenarios import load_scenarios

    reach = [s for s in load_scenarios() if s.name == "redemption-side-battle-reach"]
    stream = io.StringIO()
    rows = verify(reach, examples=5, quiet=False, progress_stream=stream, jobs=2)
    lines = stream.getvalue().splitlines()
    # one rule set, two engines (no z3 engine for Redemption): two runs, each told once as it finishes
    assert len(lines) == 2 and {line.split("] ")[0] for line in lines} == {"verify [1/2", "verify [2/2"}
    assert sorted(line.split("] ")[1].split(":")[0] for line in lines) == sorted(
        f"redemption-side-battle-reach / default / {engine}" for engine in ("explore", "hypothesis"))
    terminal = Terminal()
    assert [r.verdict for r in verify(reach, examples=5, quiet=False, progress_stream=terminal, jobs=2)] == \
        [r.verdict for r in rows]
    assert "verify [1/2]" not in terminal.getvalue() and "\x1b[" in terminal.getvalue()
