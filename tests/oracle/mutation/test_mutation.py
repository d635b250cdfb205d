"""The mutation machinery on a handful of mutants; the full runs are benchmark-like jobs.

Expected verdicts come from the rules: an unblocked attack deals exactly one
point of damage (FF-BASE-UNBLOCKED-DAMAGE), so a model dealing two is caught
by any vector with an unblocked hit; a Forward of power 0 is broken
(FF-BASE-BREAK-ZERO-POWER); the split unit of the ``hundreds`` variant
(``100``) is never used under the default rule set, so changing it survives
a default suite.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from cardrules.model.fftcg.damage import is_broken
from cardrules.model.fftcg.state import Forward
from cardrules.oracle.cli import main
from cardrules.oracle.mutation.apply import activated
from cardrules.oracle.mutation.mutants import Mutant, all_mutants, model_root, select
from cardrules.oracle.mutation.probe import probe, survivors, tally
from cardrules.specs.catalogue import default_catalogue

pytestmark = pytest.mark.clause("FF-BASE-UNBLOCKED-DAMAGE", "FF-BASE-BREAK-ZERO-POWER", "FF-PARTY-SPLIT-THOUSANDS",
                                "FF-BASE-PREEMPTIVE")


def _mutant(function: str, operator: str, line_text: str = "") -> Mutant:
    return next(m for m in all_mutants() if m.function == function and m.operator == operator
                and line_text in m.description)


def _model_digest() -> str:
    return hashlib.sha256(b"".join(p.read_bytes() for p in sorted(model_root().rglob("*.py")))).hexdigest()


def test_mutant_ids_are_unique_stable_and_every_mutant_has_a_catalogue_area() -> None:
    mutants = all_mutants()
    ids = [m.id for m in mutants]
    assert len(ids) == len(set(ids)) > 500
    areas = {a.id for a in default_catalogue().areas}
    assert {m.area for m in mutants} <= areas
    one = _mutant("is_broken", "LtE->Lt")
    file, function, operator, digest = one.id.split(":")
    assert (file, function, operator) == ("fftcg/damage.py", "is_broken", "LtE->Lt") and len(digest) == 8
    assert one.area == "ff-base" and "FF-BASE-BREAK-ZERO-POWER" in one.clauses
    assert {m.id for m in mutants if m.named} == {"named:preemptive-attackers-deal-again",
                                                   "named:interrupt-targets-suspended-battle",
                                                   "named:element-party-any-element", "named:p-icon-party-one-member",
                                                   "named:revised-heals-from-discard-pile"}


def test_mutant_ids_survive_edits_elsewhere_in_the_function_and_the_file() -> None:
    import ast
    import textwrap

    from cardrules.oracle.mutation.operators import located_changes

    source = textwrap.dedent('''
        def split(total, blockers):
            if total < 1000 and not blockers:
                return True
            return total - 1 >= 0
    ''')
    edited = textwrap.dedent('''
        import os


        def split(total, blockers):
            """A docstring and a new first statement, the function moved down."""
            unused = [1, 2]
            if total < 1000 and not blockers:
                return True
            return total - 1 >= 0
    ''')

    def ids(text: str) -> dict[str, str]:
        fn = next(n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef))
        return {suffix: ast.unparse(node) for suffix, node, _, _ in located_changes(fn)}

    before, after = ids(source), ids(edited)
    assert len(before) == 11  # and, return True, <, not, 1000 +1/-1, >=, 0 +1/-1, 1 +1/-1
    assert set(before) <= set(after)  # every old mutant keeps its ID; the new statement adds its own
    assert all(before[k] == after[k] for k in before)
    assert ids(source.replace("1000", "2000")).keys() != before.keys()  # the fragment itself changed


def test_an_old_style_mutant_id_is_refused_with_a_hint(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mutate", "--mutant", "fftcg/damage.py:222:8:or->and", "--list"]) == 3
    assert "FILE:QUALNAME:OPERATOR:HASH" in capsys.readouterr().err


def test_a_sample_is_reproducible_spread_over_areas_and_keeps_the_named_mutants() -> None:
    first = select(all_mutants(), limit=14, seed=3)
    assert [m.id for m in first] == [m.id for m in select(all_mutants(), limit=14, seed=3)]
    plain = [m for m in first if not m.named]
    assert len(plain) == 14 and {m.area for m in plain} == {a.id for a in default_catalogue().areas}
    assert [m.id for m in first if m.named] == ["named:preemptive-attackers-deal-again",
                                                 "named:interrupt-targets-suspended-battle",
                                                 "named:element-party-any-element", "named:p-icon-party-one-member",
                                                 "named:revised-heals-from-discard-pile"]


def test_an_activated_mutant_changes_the_running_model_and_is_undone_without_touching_a_file() -> None:
    zero = Forward("f", "Zero", frozenset({"fire"}), 2, 0)
    before = _model_digest()
    assert is_broken(zero)  # FF-BASE-BREAK-ZERO-POWER
    with activated(_mutant("is_broken", "LtE->Lt")):
        assert not is_broken(zero)
    assert is_broken(zero)
    with pytest.raises(KeyboardInterrupt), activated(_mutant("is_broken", "LtE->Lt")):
        raise KeyboardInterrupt  # Ctrl-C inside a run: the model is still restored
    assert is_broken(zero)
    assert _model_digest() == before


def test_the_probe_kills_a_two_damage_hit_lets_an_unused_variant_constant_survive_and_honours_equivalents(
    small_suite: dict[str, Any]
) -> None:
    two_damage = _mutant("one_damage", "const+1")
    unused_unit = _mutant("split_unit", "const+1", "`100` -> `101`")
    results = probe([two_damage, unused_unit], ["conformance"], [small_suite])
    by_id = {r.mutant.id: r for r in results}
    assert by_id[two_damage.id].killed
    assert "amount: expected 1 got 2" in by_id[two_damage.id].outcomes["conformance"].detail  # the hit event
    assert not by_id[unused_unit.id].killed
    assert [r.mutant.id for r in survivors(results)] == [unused_unit.id]
    assert tally(results, ["conformance"])["party"].killed == 1
    marked = probe([unused_unit], ["conformance"], [small_suite],
                   equivalents={unused_unit.id: "the hundreds unit is unused under the default rule set"})
    assert survivors(marked) == [] and tally(marked, ["conformance"])["all"].counted == 0


def test_the_score_command_reports_per_area_lists_survivors_and_exits_1_below_the_goal(
    tmp_path: Path, small_suite: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    suite_file = tmp_path / "suite.json"
    suite_file.write_text(json.dumps(small_suite))
    two_damage = _mutant("one_damage", "const+1")
    unused_unit = _mutant("split_unit", "const+1", "`100` -> `101`")
    code = main(["conformance", "score", "--suite", str(suite_file), "--mutant", two_damage.id,
                 "--mutant", unused_unit.id, "--quiet", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    assert report["areas"]["party"]["killed"] == 1 and report["areas"]["party"]["counted"] == 2
    assert report["survivors"] == [unused_unit.id] and report["goal_met"] is False


def test_unknown_mutants_areas_and_checks_are_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mutate", "--mutant", "fftcg/nowhere.py:1:1:and->or", "--list"]) == 3
    assert "unknown mutant" in capsys.readouterr().err
    assert main(["mutate", "--area", "no-such-area", "--list"]) == 3
    with pytest.raises(SystemExit) as usage:
        main(["mutate", "--check", "nothing", "--list"])
    assert usage.value.code == 2


def test_a_job_that_hangs_or_dies_gets_a_verdict_and_the_rest_still_runs() -> None:
    import os
    import time

    from cardrules.oracle.mutation.apply import Task, run_isolated

    tasks = [Task(None, lambda: time.sleep(60), 1.0, "hangs"), Task(None, lambda: os._exit(7), 10.0, "dies"),
             Task(None, lambda: 6 * 7, 10.0, "answers")]
    outcomes = {task.tag: outcome for task, outcome in run_isolated(tasks, jobs=2)}
    assert outcomes["hangs"].status == "timeout"
    assert outcomes["dies"].status == "crashed" and "status 7" in outcomes["dies"].detail
    assert (outcomes["answers"].status, outcomes["answers"].value) == ("done", 42)


def test_mutate_reports_per_check_and_exits_1_on_a_survivor(
    tmp_path: Path, small_suite: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "suite.json").write_text(json.dumps(small_suite))
    two_damage = _mutant("one_damage", "const+1")
    unused_unit = _mutant("split_unit", "const+1", "`100` -> `101`")
    code = main(["mutate", "--check", "conformance", "--suite", str(tmp_path / "suite.json"), "--mutant",
                 two_damage.id, "--mutant", unused_unit.id, "--quiet"])
    out = capsys.readouterr().out
    assert code == 1
    assert "by conformance" in out and "survivors (1):" in out and unused_unit.id in out


def test_every_listed_equivalent_mutant_exists_and_says_why() -> None:
    from cardrules.oracle.mutation.probe import load_equivalents

    equivalents = load_equivalents()
    known = {m.id for m in all_mutants()}
    assert equivalents and set(equivalents) <= known
    assert all(len(reason) > 40 for reason in equivalents.values())


def test_a_complete_score_is_recorded_for_the_site_and_a_selection_is_not(
    tmp_path: Path, small_suite: dict[str, Any], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The traceability page shows the latest complete score: one of two mutants killed is
    50% in the party area, the goal is not met, and the survivor is named; a sample records nothing."""
    from cardrules.oracle.verify import results
    from cardrules.oracle.mutation import mutants as mutants_module

    suite_file = tmp_path / "suite.json"
    suite_file.write_text(json.dumps(small_suite))
    recorded_dir = tmp_path / "results"
    monkeypatch.setenv(results.RESULTS_ENV, str(recorded_dir))
    two_damage = _mutant("one_damage", "const+1")
    unused_unit = _mutant("split_unit", "const+1", "`100` -> `101`")
    assert main(["conformance", "score", "--suite", str(suite_file), "--mutant", two_damage.id, "--quiet"]) == 0
    assert not (recorded_dir / results.SCORE_RESULT).exists()  # one mutant of many: a sample, not recorded

    monkeypatch.setattr(mutants_module, "all_mutants", lambda: [two_damage, unused_unit])
    assert main(["conformance", "score", "--suite", str(suite_file), "--quiet", "--no-record"]) == 1
    assert not (recorded_dir / results.SCORE_RESULT).exists()
    assert main(["conformance", "score", "--suite", str(suite_file), "--quiet"]) == 1
    capsys.readouterr()
    recorded = results.read_score_result(recorded_dir)
    assert isinstance(recorded, results.RecordedScore) and recorded.current
    party = recorded.summary["areas"]["party"]
    assert (party["killed"], party["counted"], party["score"]) == (1, 2, 0.5)
    assert recorded.summary["survivors"] == [unused_unit.id] and recorded.summary["goal_met"] is False
    assert recorded.summary["vectors"] == len(small_suite["vectors"])
    stale = dict(recorded.summary, model_sha256="0" * 64)  # computed from another model
    (recorded_dir / results.SCORE_RESULT).write_text(json.dumps(stale))
    again = results.read_score_result(recorded_dir)
    assert isinstance(again, results.RecordedScore) and not again.current
    (recorded_dir / results.SCORE_RESULT).write_text("{not json")
    assert "could not be read" in str(results.read_score_result(recorded_dir))
