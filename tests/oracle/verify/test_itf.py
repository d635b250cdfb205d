"""Counterexamples exported in the Informal Trace Format (Apalache ADR-015, Quint)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from cardrules.oracle.cli import main
from cardrules.oracle.verify.itf import to_itf_value


def from_itf_value(value: Any) -> Any:
    """The inverse of the ITF value encoding, written here from the ITF definition."""
    if isinstance(value, dict) and set(value) == {"#bigint"}:
        return int(value["#bigint"])
    if isinstance(value, dict) and value.get("tag") == "None" and set(value) == {"tag", "value"}:
        return None
    if isinstance(value, dict):
        return {k: from_itf_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_itf_value(v) for v in value]
    return value


def no_raw_numbers_or_nulls(value: Any) -> bool:
    if value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)):
        return False
    if isinstance(value, dict):
        return all(no_raw_numbers_or_nulls(v) for k, v in value.items() if k != "#meta")
    if isinstance(value, list):
        return all(no_raw_numbers_or_nulls(v) for v in value)
    return True


@pytest.mark.infrastructure("the ITF trace format")
def test_values_follow_the_itf_encoding() -> None:
    assert to_itf_value(7000) == {"#bigint": "7000"}
    assert to_itf_value(-3) == {"#bigint": "-3"}
    assert to_itf_value(True) is True and to_itf_value("fire") == "fire"
    assert to_itf_value(None) == {"tag": "None", "value": {"#tup": []}}
    assert to_itf_value({"a": [1, None]}) == {"a": [{"#bigint": "1"}, {"tag": "None", "value": {"#tup": []}}]}
    with pytest.raises(ValueError):
        to_itf_value(0.5)


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS")
def test_explore_writes_the_mutants_counterexample_as_an_itf_trace(tmp_path: Path) -> None:
    itf_file, json_out = tmp_path / "cex.itf.json", io.StringIO()
    code = main(["explore", "fftcg-party-basics", "--rule-set", "split-in-hundreds", "--quiet", "--json",
                 "--itf", str(itf_file)], out=json_out)
    assert code == 1  # the mutant breaks blocker-split-thousands
    ours = json.loads(json_out.getvalue())["violations"]["blocker-split-thousands"]
    itf = json.loads(itf_file.read_text())
    assert itf["#meta"]["format"] == "ITF"
    assert itf["#meta"]["property"] == "blocker-split-thousands"
    assert "FF-PARTY-SPLIT-THOUSANDS" in itf["#meta"]["clause_ids"]
    assert itf["vars"] == ["action", "state"]
    states = itf["states"]
    assert [s["#meta"]["index"] for s in states] == list(range(len(ours["steps"]) + 1))
    assert all(set(s) == {"#meta", "action", "state"} for s in states)
    assert states[0]["action"] == "init"
    assert [s["action"] for s in states[1:]] == [step["action"] for step in ours["steps"]]
    assert states[-1]["action"].startswith("split ")
    assert no_raw_numbers_or_nulls(states)
    assert from_itf_value(states[0]["state"]) == ours["initial_state"]
    assert [from_itf_value(s["state"]) for s in states[1:]] == [step["state"] for step in ours["steps"]]
