"""Counterexamples in the Informal Trace Format (ITF) of Apalache and Quint.

ITF (Apalache ADR-015) is a JSON object ``{"#meta": {...}, "vars": [...],
"states": [...]}``; each state maps every variable to a value, with its own
``"#meta": {"index": i}``. Values: strings and booleans as they are,
integers as ``{"#bigint": "42"}``, lists as arrays, records as objects; ITF
has no null, so ``None`` becomes the variant ``{"tag": "None", "value":
{"#tup": []}}``.

A cardrules trace (``cardrules-trace/1``) becomes an ITF trace with two
variables: ``state`` (the model's JSON form of the state, converted as
above) and ``action`` (the canonical text of the action that led to it,
``"init"`` for the first state), the same convention as Quint's
``mbt::actionTaken``. The trace's property, clause IDs and rule set go in
``#meta``, so an ITF viewer shows what the trace is a counterexample to.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

from cardrules.specs.fileio import write_text

ITF_VARS = ("action", "state")
NONE_VARIANT: dict[str, Any] = {"tag": "None", "value": {"#tup": []}}


def to_itf_value(value: Any) -> Any:
    """One JSON value of the model's state form as an ITF value."""
    if value is None:
        return dict(NONE_VARIANT)
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if isinstance(value, int):
        return {"#bigint": str(value)}
    if isinstance(value, float):
        if value.is_integer():
            return {"#bigint": str(int(value))}
        raise ValueError(f"ITF has no non-integer numbers: {value!r}")
    if isinstance(value, (list, tuple)):
        return [to_itf_value(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_itf_value(v) for k, v in value.items()}
    raise ValueError(f"cannot write {type(value).__name__} in ITF")


def trace_to_itf(trace: Mapping[str, Any]) -> dict[str, Any]:
    """A ``cardrules-trace/1`` object as an ITF trace (see the module docstring)."""
    states = [{"action": "init", "state": trace["initial_state"]}]
    states += [{"action": step["action"], "state": step["state"]} for step in trace["steps"]]
    return {
        "#meta": {
            "format": "ITF",
            "format-description": "https://apalache-mc.org/docs/adr/015adr-trace.html",
            "source": f"cardrules ({trace.get('format', 'cardrules-trace/1')})",
            "description": f"counterexample to {trace.get('property')}: {trace.get('statement', '')}".strip(),
            "game": trace.get("game"),
            "property": trace.get("property"),
            "clause_ids": list(trace.get("clause_ids", ())),
            "rule_set": trace.get("rule_set"),
        },
        "vars": list(ITF_VARS),
        "states": [
            {"#meta": {"index": index}, "action": s["action"], "state": to_itf_value(s["state"])}
            for index, s in enumerate(states)
        ],
    }


def write_itf(traces: list[Mapping[str, Any]], path: Path) -> None:
    """Write one ITF trace (or, for several counterexamples, a JSON array of them) to ``path``."""
    converted = [trace_to_itf(t) for t in traces]
    payload: Any = converted[0] if len(converted) == 1 else converted
    write_text(path, json.dumps(payload, indent=2) + "\n")
