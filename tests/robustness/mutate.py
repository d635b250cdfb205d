"""Hypothesis strategies that break valid inputs: the JSON or TOML document of a trace,
a scenario or a catalogue file, then (sometimes) its bytes.

Document mutations pick nodes by path and drop them, duplicate list items
(duplicate ids), swap in another node of the same document (dangling or
crossed references), or replace them with a bad value: the wrong type, a
huge, negative or float number, a boolean, null, a long or odd string, a
nested array. Byte mutations truncate, insert bytes that are not UTF-8, or
wrap the whole document in deep nesting. Sizes are bounded up front.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import strategies as st

Path = tuple[str | int, ...]

DEEP = 100_000
"""Nesting depth of the byte-level deep wrap (far past any parser's recursion limit)."""

BAD_SCALARS: tuple[Any, ...] = (
    None, True, False, 0, -1, 1, 2, 5, 1.5, -0.5, 1e300, 10**12, -(10**12), 10**20, 10**80, 2**63,
    "", " ", "x", "#1", "#99", "#²", "²", "a" * 500, "fire", "p0", "h1", "e1", "a1", "attack", "\x00", "é",
)
"""Replacement values of the wrong type or range."""


def bad_values() -> st.SearchStrategy[Any]:
    nested = st.integers(1, 300).map(lambda depth: json.loads("[" * depth + "]" * depth))
    return st.one_of(
        st.sampled_from(BAD_SCALARS),
        st.integers(min_value=-(10**30), max_value=10**30),
        st.text(max_size=12),
        st.lists(st.sampled_from(BAD_SCALARS), max_size=3),
        st.dictionaries(st.sampled_from(("id", "x", "power")), st.sampled_from(BAD_SCALARS), max_size=2),
        nested,
    )


def node_paths(doc: Any, limit: int = 20_000) -> list[Path]:
    """Every path into the document (the root included), breadth first, at most ``limit``."""
    found: list[Path] = [()]
    index = 0
    while index < len(found) and len(found) < limit:
        node = get(doc, found[index])
        if isinstance(node, dict):
            found.extend(found[index] + (key,) for key in node)
        elif isinstance(node, list):
            found.extend(found[index] + (i,) for i in range(len(node)))
        index += 1
    return found[:limit]


def get(doc: Any, path: Path) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def _replace(doc: Any, path: Path, value: Any) -> Any:
    if not path:
        return value
    get(doc, path[:-1])[path[-1]] = value
    return doc


def _drop(doc: Any, path: Path) -> Any:
    if path:
        del get(doc, path[:-1])[path[-1]]
    return doc


def _duplicate(doc: Any, path: Path) -> Any:
    if path and isinstance(get(doc, path[:-1]), list):
        get(doc, path[:-1]).insert(int(path[-1]), copy.deepcopy(get(doc, path)))
    return doc


KINDS = ("replace", "replace", "drop", "duplicate", "swap", "number")
SEMANTIC_KINDS = ("drop", "duplicate", "swap", "swap", "number", "number")
"""Mutations that keep types mostly right, so more states get past type checks to the reference checks."""


@st.composite
def mutated_document(draw: st.DrawFn, original: Any, max_mutations: int = 3, semantic: bool = False) -> Any:
    """A deep copy of ``original`` with one to ``max_mutations`` mutations (``semantic``: no wrong-type values)."""
    doc = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, max_mutations))):
        paths = node_paths(doc)
        path = draw(st.sampled_from(paths))
        kind = draw(st.sampled_from(SEMANTIC_KINDS if semantic else KINDS))
        if kind == "replace":
            doc = _replace(doc, path, draw(bad_values()))
        elif kind == "drop":
            doc = _drop(doc, path)
        elif kind == "duplicate":
            doc = _duplicate(doc, path)
        elif kind == "swap":
            doc = _replace(doc, path, copy.deepcopy(get(doc, draw(st.sampled_from(paths)))))
        else:
            deltas = (-1, 1, 2) if semantic else (-1, 1, 1000, -(10**6), 10**6)
            doc = _replace(doc, path, _nudged(get(doc, path), draw(st.sampled_from(deltas))))
    return doc


def _nudged(value: Any, delta: int) -> Any:
    if isinstance(value, bool) or not isinstance(value, int):
        return delta
    return value + delta


def mutated_toml(text: str) -> st.SearchStrategy[str]:
    """Line-level TOML mutations: drop a line, replace a value, or insert a bad line."""
    lines = text.splitlines()
    values = st.sampled_from(("1", "-1", "1.5", "true", "[]", "{}", '""', '"x"', "[1, 2]", "[[]]", "{a = 1}", "99999999999999999999",
                                "9" * 5000, "-" + "9" * 40, "nan", "inf", "[" * 200 + "]" * 200, "{a = " * 150 + "1" + "}" * 150))

    @st.composite
    def mutate(draw: st.DrawFn) -> str:
        out = list(lines)
        for _ in range(draw(st.integers(1, 3))):
            at = draw(st.integers(0, len(out) - 1))
            kind = draw(st.sampled_from(("drop", "value", "insert")))
            if kind == "drop":
                del out[at]
            elif kind == "value" and "=" in out[at]:
                out[at] = out[at].split("=", 1)[0] + "= " + draw(values)
            else:
                key = draw(st.sampled_from(("id", "kind", "versions", "source", "refs", "decisions", "x", "[clause]", "[area]")))
                out.insert(at, key if key.startswith("[") else f"{key} = {draw(values)}")
        return "\n".join(out) + "\n"

    return mutate()




@st.composite
def mutated_bytes(draw: st.DrawFn, raw: bytes, deep: bool = True) -> bytes:
    """``raw``, or raw broken at the byte level: truncated, not UTF-8, or (with ``deep``) wrapped in deep nesting."""
    kinds = ["none", "none", "truncate", "not-utf8"] + (["deep"] if deep else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "truncate":
        return raw[: draw(st.integers(0, max(len(raw) - 1, 0)))]
    if kind == "not-utf8":
        at = draw(st.integers(0, len(raw)))
        return raw[:at] + draw(st.sampled_from((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80"))) + raw[at:]
    if kind == "deep":
        opener = draw(st.sampled_from((b"[", b'{"a":', b"[{\"x\":")))
        return opener * DEEP
    return raw
