"""Decisive vectors per clause: the vectors of a suite that fail when a clause's own code is mutated.

Expected verdicts come from the rules: an unblocked attack deals exactly one point of damage
(FF-BASE-UNBLOCKED-DAMAGE), so a model that deals two fails every vector in which an unblocked Forward
deals its damage and no other; the split unit of the ``hundreds`` variant is never used under the default
rule set, so changing it fails no vector of a default suite.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardrules.oracle.cli import main
from cardrules.oracle.mutation.decisive import (
    DecisiveInputError, MutantKills, clause_table, failing_vectors, load_reasons, mutant_kills, stale_reasons,
)
from cardrules.oracle.mutation.mutants import Mutant, all_mutants

pytestmark = pytest.mark.clause("FF-BASE-UNBLOCKED-DAMAGE", "FF-PARTY-SPLIT-THOUSANDS")


def _mutant(function: str, operator: str, text: str = "") -> Mutant:
    return next(m for m in all_mutants() if m.function == function and m.operator == operator and text in m.description)


def unblocked_hits(suite: dict[str, Any]) -> set[str]:
    """The vectors in which a player takes damage from an unblocked attack (their damage goes up after a
    step from a state with an attack nobody blocked), by reading the vectors' own states."""
    out = set()
    for vector in suite["vectors"]:
        states = [vector["state"]] + [s["state"] for s in vector.get("steps", [])]
        for before, after in zip(states, states[1:]):
            attack = before.get("attack") or {}
            if attack and not attack.get("blocker") and [p["damage"] for p in after["players"]] != \
                    [p["damage"] for p in before["players"]]:
                out.add(vector["id"])
    return out


def test_dealing_two_for_an_unblocked_attack_fails_exactly_the_vectors_with_an_unblocked_hit(
        small_suite: dict[str, Any]) -> None:
    two = _mutant("one_damage", "const+1")  # FF-BASE-UNBLOCKED-DAMAGE: one point, not two
    [kills] = mutant_kills([two], [small_suite], jobs=1)
    assert kills.status == "done"
    failing = {v for _, v in kills.failing}
    hits = unblocked_hits(small_suite)
    assert hits and hits <= failing
    play = {v for v in failing if "/play/" in v}
    assert play == {v for v in hits if "/play/" in v}


def test_the_unused_hundreds_unit_decides_no_vector_of_a_default_suite(small_suite: dict[str, Any]) -> None:
    unit = _mutant("split_unit", "const+1", "`100` -> `101`")
    [kills] = mutant_kills([unit], [small_suite], jobs=1)
    assert kills.status == "done" and kills.failing == ()


def test_every_vector_of_an_unmutated_suite_passes(small_suite: dict[str, Any]) -> None:
    assert failing_vectors([small_suite], "fftcg", "observable") == ()
    assert failing_vectors([small_suite], "fftcg", "full") == ()


def test_a_suite_the_unmutated_model_fails_is_bad_input(small_suite: dict[str, Any]) -> None:
    broken = dict(small_suite)
    vector = next(v for v in small_suite["vectors"] if v["kind"] == "perft")
    broken["vectors"] = [{**vector, "nodes": [n + 1 for n in vector["nodes"]]}]
    with pytest.raises(DecisiveInputError, match="fails on the unmutated model"):
        mutant_kills([_mutant("one_damage", "const+1")], [broken])


# --- the table per clause, from given kills ----------------------------------------------------------


def fake(mutant_id: str, clauses: tuple[str, ...], own: bool = True) -> Mutant:
    return Mutant(mutant_id, "m", "f", "op", "d", clauses, "party", "fftcg", own=own)


SUITE = {
    "suite": "fftcg-default", "game": "fftcg",
    "clauses_in_force": ["A", "B", "C", "D", "E"],
    "vectors": [
        {"id": "v0", "kind": "perft", "clauses": ["A"]},
        {"id": "v1", "kind": "play", "clauses": ["A", "B"], "steps": [{}, {}, {}]},
        {"id": "v2", "kind": "refusal", "clauses": ["A"], "steps": [{}]},
        {"id": "v3", "kind": "play", "clauses": ["B", "C", "E"], "steps": []},
    ],
}


def table(kills: list[MutantKills], reasons: dict[str, str] | None = None,
          equivalents: dict[str, str] | None = None) -> dict[str, Any]:
    rows = clause_table([SUITE], kills, equivalents=equivalents or {}, reasons=reasons or {},
                        excuses={"D": "the protocol cannot show it"})
    return {r.clause: r for r in rows}


def test_a_clause_is_decided_by_the_vectors_its_own_mutants_fail_and_the_shortest_is_named() -> None:
    rows = table([MutantKills(fake("a1", ("A",)), "done", (("fftcg-default", "v1"), ("fftcg-default", "v2"),
                                                          ("fftcg-default", "v0"))),
                  MutantKills(fake("a2", ("A",)), "done", ()),
                  MutantKills(fake("b1", ("B",)), "done", ())])
    a = rows["A"]
    # the refusal with one step is shown before the perft vector (no step to show) and the three-step play
    assert (a.covered, a.mutants, a.killed, a.decisive, a.shortest, a.status) == \
        (3, 2, 1, ["v0", "v1", "v2"], "v2", "decisive")
    b = rows["B"]
    assert (b.covered, b.mutants, b.killed, b.decisive, b.status) == (2, 1, 0, [], "not decisive")
    assert not b.passes and "survive" in b.reason


def test_a_helper_mutant_or_an_equivalent_one_decides_nothing() -> None:
    rows = table([MutantKills(fake("h", ("C",), own=False), "done", (("fftcg-default", "v3"),)),
                  MutantKills(fake("e", ("E",)), "done", (("fftcg-default", "v3"),))], equivalents={"e": "why"})
    assert rows["C"].status == "no-mutant" and rows["C"].passes
    assert rows["E"].status == "no-mutant" and rows["E"].decisive == []


def test_an_undecided_clause_is_listed_with_its_reason_excused_or_recorded() -> None:
    rows = table([MutantKills(fake("b1", ("B",)), "done", ())], reasons={"B": "only an option suite can tell"})
    assert (rows["B"].status, rows["B"].reason, rows["B"].passes) == ("listed", "only an option suite can tell", True)
    assert (rows["D"].status, rows["D"].reason) == ("excused", "the protocol cannot show it")


def test_a_reason_for_a_decided_or_unknown_clause_is_stale() -> None:
    rows = clause_table([SUITE], [MutantKills(fake("a1", ("A",)), "done", (("fftcg-default", "v2"),))],
                        equivalents={}, reasons={}, excuses={})
    assert stale_reasons(rows, {"A": "x", "Z": "y", "B": "z"}) == ["A", "Z"]


def test_a_malformed_reasons_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "never.toml"
    path.write_text('[[clause]]\nid = "FF-PARTY-ELEMENT"\n', encoding="utf-8")
    with pytest.raises(DecisiveInputError, match=r"never\.toml: clause\[0\] needs an 'id' and a non-empty 'reason'"):
        load_reasons(path)


def test_the_command_refuses_suites_that_all_name_decision_options(tmp_path: Path, small_suite: dict[str, Any],
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    option = {**small_suite, "suite": "fftcg-party-zero-share-each-hit-if-possible",
              "rule_set": {**small_suite["rule_set"], "decisions": {"party-zero-share": "each-hit-if-possible"}}}
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "option.json").write_text(json.dumps(option), encoding="utf-8")
    assert main(["conformance", "decisive", "--suite", str(tmp_path / "s"), "--quiet"]) == 3
    assert "no version suite" in capsys.readouterr().err


def test_every_shipped_reason_says_why() -> None:
    assert all(len(reason) >= 20 for reason in load_reasons().values())


@pytest.mark.slow
def test_the_command_decides_the_unblocked_damage_clause_by_the_unblocked_hits(
        tmp_path: Path, small_suite: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "fftcg-default.json").write_text(json.dumps(small_suite), encoding="utf-8")
    code = main(["conformance", "decisive", "--suite", str(tmp_path / "s"), "--area", "ff-base", "--quiet",
                 "--json", "--jobs", "2"])
    report = json.loads(capsys.readouterr().out)
    rows = {r["clause"]: r for r in report["clauses"]}
    assert set(rows) and all(c.startswith("FF-BASE-") for c in rows)
    unblocked = rows["FF-BASE-UNBLOCKED-DAMAGE"]
    # dealing two instead of one (a mutant of its code) fails every vector with an unblocked hit
    assert unblocked["status"] == "decisive" and unblocked_hits(small_suite) <= set(unblocked["vectors"])
    assert unblocked["shortest"] in unblocked["vectors"] and unblocked["decisive"] == len(unblocked["vectors"])
    assert code == (0 if report["passed"] else 1)
    assert report["passed"] == all(r["status"] != "not decisive" for r in rows.values())
