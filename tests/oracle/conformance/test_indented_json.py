"""Suite files are written by :func:`~cardrules.oracle.conformance.indented_json.indented`: the text must be
``json.dumps(data, indent=1, ensure_ascii=False)``'s, byte for byte, for every value (the suites' bytes are
part of the format: their sha256 is in the manifest, and engine authors diff them)."""

from __future__ import annotations

import enum
import json
import math
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from cardrules.oracle.conformance.indented_json import indented

pytestmark = pytest.mark.infrastructure("the suite files' text")


def _standard(data: Any) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False)


class _Level(enum.IntEnum):
    HIGH = 7


class _Name(str):
    pass


@pytest.mark.parametrize("data", [
    {}, [], (), "", 0, -1, 10**30, 1.5, -0.0, 1e16, 1e-7, math.inf, -math.inf, True, False, None,
    {"a": [], "b": {}, "c": [[]], "d": [{}], "e": ()},
    {"quote \" and \\ and \n and \t and \x00 and \x7f": "é ü 漢 \u2028 \U0001F600"},
    {1: "int key", 2.5: "float key", False: "false key", None: "null key"},
    [_Level.HIGH, _Name("named"), (1, (2, [3]))],
    {"vectors": [{"id": "x", "steps": [{"state": {"hand": ["a", "b"], "n": 3}}, {"state": {}}]}]},
])
def test_every_kind_of_value_is_written_as_the_standard_library_writes_it(data: Any) -> None:
    assert indented(data) == _standard(data)


def test_nan_is_written_as_the_standard_library_writes_it() -> None:
    assert indented([math.nan]) == _standard([math.nan]) == "[\n NaN\n]"


def test_a_value_json_cannot_write_raises_json_s_own_error() -> None:
    with pytest.raises(TypeError, match="set is not JSON serializable"):
        indented({"a": [{1, 2}]})
    with pytest.raises(TypeError, match="keys must be str"):
        indented({(1, 2): "tuple key"})


_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text())
_TREES = st.recursive(_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner),
    st.dictionaries(st.one_of(st.text(), st.integers(), st.booleans(), st.none()), inner, max_size=4)),
    max_leaves=30)


@settings(max_examples=300)
@given(_TREES)
def test_any_tree_of_json_values_is_written_as_the_standard_library_writes_it(data: Any) -> None:
    assert indented(data) == _standard(data)
