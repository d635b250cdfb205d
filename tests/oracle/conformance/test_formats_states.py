"""The typed state and event schemas: every state the model writes validates, a field given a value of
another JSON type is refused by the schema and by the model alike, each bound is the reader's, and the
fields the rules leave unspecified are marked and left out of comparisons."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from functools import lru_cache
from typing import Any, Callable

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules.model.errors import ScenarioError
from cardrules.model.fftcg import jsonform as ff_json
from cardrules.model.fftcg import state as ff_state
from cardrules.model.games import GAME_NAMES
from cardrules.model.redemption import jsonform as red_json
from cardrules.model.redemption import state as red_state
from cardrules.oracle.conformance.formats.parts import vectors_schema
from cardrules.oracle.conformance.formats.states import GAMES, events_schema, state_schema
from cardrules.oracle.conformance.formats.unspecified import UNSPECIFIED, without_unspecified

from .test_formats_support import explored, generated_suites

pytestmark = pytest.mark.infrastructure("the conformance formats for implementers")

READERS: dict[str, Callable[[Any], Any]] = {
    "fftcg": ff_json.read_state,
    "redemption": lambda data: red_json.from_jsonable(red_state.State, data),
}
"""Each game's type-level reader (types and each field's own range, no consistency rule)."""


def _validator(schema: dict[str, Any]) -> jsonschema.Draft202012Validator:
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@lru_cache(maxsize=None)
def _state_validator(game: str) -> jsonschema.Draft202012Validator:
    return _validator(state_schema(game))


def _reads(game: str, data: Any) -> bool:
    try:
        READERS[game](data)
    except ScenarioError:
        return False
    return True


def test_the_schemas_cover_every_game_and_are_valid_json_schema() -> None:
    assert GAMES == GAME_NAMES
    for game in GAMES:
        for schema in (state_schema(game), events_schema(game), vectors_schema(game)):
            jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("game", ["fftcg", "redemption"])
def test_every_explored_state_validates(game: str) -> None:
    validator = _validator(state_schema(game))
    states = explored(game).states
    for state in states:
        error = jsonschema.exceptions.best_match(validator.iter_errors(state))
        assert error is None, f"{error.json_path}: {error.message}"  # type: ignore[union-attr]


def test_every_state_of_the_generated_suites_validates_with_the_typed_suite_schema(suites_dir: Path) -> None:
    checked = 0
    for suite in generated_suites(suites_dir):
        validator = _validator(vectors_schema(suite["game"]))
        error = jsonschema.exceptions.best_match(validator.iter_errors(suite))
        assert error is None, f"{suite['suite']} {error.json_path}: {error.message[:200]}"  # type: ignore[union-attr]
        states = [v["state"] for v in suite["vectors"]] + [s["state"] for v in suite["vectors"] for s in v.get("steps", ())]
        checked += len(states)
        other = "redemption" if suite["game"] == "fftcg" else "fftcg"
        assert not _validator(state_schema(other)).is_valid(states[0])
    assert checked > 500


def test_every_fftcg_event_validates_with_the_events_schema() -> None:
    validator = _validator(events_schema("fftcg"))
    events = [e for s in explored("fftcg").states for e in s["events"]]
    assert {e["kind"] for e in events} >= {"damage", "break", "hit", "remove"}
    assert all(validator.is_valid(e) for e in events)
    assert not validator.is_valid({"kind": "heal", "sources": [], "target": "a1", "amount": 0})
    kinds = events_schema("fftcg")["$defs"]["Event"]["properties"]["kind"]["oneOf"]
    assert [k["const"] for k in kinds] == list(ff_state.EVENT_KINDS) and all(k["description"] for k in kinds)


def test_redemption_log_entries_validate_with_the_events_schema() -> None:
    validator = _validator(events_schema("redemption"))
    entries = [e for s in explored("redemption").states for key in ("discards", "searches", "records") for e in s[key]]
    assert len(entries) > 100 and all(validator.is_valid(e) for e in entries)


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths of every non-null value below ``value`` (containers included), the root excluded."""
    out: list[tuple[Any, ...]] = [path] if path and value is not None else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _leaves(item, (*path, index))
    return out


def _set(state: Any, path: tuple[Any, ...], value: Any) -> Any:
    changed = copy.deepcopy(state)
    node = changed
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return changed


OTHER_TYPES: list[Any] = ["x", 7, 1.5, True, [], {}]
"""A value of each JSON type but null (a nullable field takes null) and but a whole-number float (JSON
Schema counts 1.0 as an integer; the readers refuse it, see the states module)."""


def _kind(value: Any) -> str:
    return "bool" if isinstance(value, bool) else type(value).__name__


@settings(max_examples=120, deadline=None, derandomize=True)
@given(game=st.sampled_from(["fftcg", "redemption"]), pick=st.integers(0, 10**9), leaf=st.integers(0, 10**9),
       replacement=st.sampled_from(OTHER_TYPES))
def test_a_field_given_a_value_of_another_type_is_refused_by_the_schema_and_the_model(
        game: str, pick: int, leaf: int, replacement: Any) -> None:
    states = explored(game).states
    state = states[pick % len(states)]
    paths = _leaves(state)
    path = paths[leaf % len(paths)]
    node: Any = state
    for key in path:
        node = node[key]
    if _kind(node) == _kind(replacement):
        replacement = None if isinstance(node, dict) else {}
        if node is None or replacement is None:
            return
    mutated = _set(state, path, replacement)
    assert not _state_validator(game).is_valid(mutated), f"schema took {path} = {replacement!r}"
    assert not _reads(game, mutated), f"the model took {path} = {replacement!r}"


def _schema_at(schema: dict[str, Any], node: dict[str, Any], path: tuple[Any, ...]) -> dict[str, Any]:
    """The schema of the value at ``path`` (following $ref, properties, items and the non-null anyOf branch)."""
    for key in path:
        node = _resolve(schema, node)
        if isinstance(key, int):
            node = node["prefixItems"][key] if "prefixItems" in node else node["items"]
        else:
            node = node["properties"][key]
    return _resolve(schema, node)


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node or "anyOf" in node:
        if "$ref" in node:
            node = schema["$defs"][node["$ref"].rsplit("/", 1)[1]]
        else:
            node = next(n for n in node["anyOf"] if n.get("type") != "null")
    return node


@pytest.mark.parametrize("game", ["fftcg", "redemption"])
def test_each_integer_bound_of_the_schema_is_the_readers(game: str) -> None:
    """Every integer of some explored states, set to each bound the schema gives and one past it: the schema
    and the model's type-level reader agree each time."""
    schema = state_schema(game)
    validator = _validator(schema)
    probed: set[str] = set()
    for state in explored(game).states[::10]:
        for path in _leaves(state):
            node: Any = state
            for key in path:
                node = node[key]
            name = ".".join(str(k) for k in path if not isinstance(k, int))
            if not isinstance(node, int) or isinstance(node, bool) or name in probed:
                continue
            field_schema = _schema_at(schema, schema["$defs"]["State"], path)
            for bound, step in (("minimum", -1), ("maximum", 1)):
                limit = field_schema[bound]
                for value, inside in ((limit, True), (limit + step, False)):
                    mutated = _set(state, path, value)
                    assert validator.is_valid(mutated) is inside, (path, value)
                    assert _reads(game, mutated) is inside, (path, value)
            probed.add(name)
    assert len(probed) >= (8 if game == "fftcg" else 10), sorted(probed)


@pytest.mark.parametrize("game", ["fftcg", "redemption"])
def test_a_field_with_a_default_may_be_left_out_and_the_others_may_not(game: str) -> None:
    """Each property of each object of some explored states, removed: the reader takes the state exactly
    when the schema gives a default (that fits the other fields), and reads that default."""
    schema = state_schema(game)
    seen: dict[str, bool] = {}
    for state in explored(game).states[::10]:
        for path in [()] + _leaves(state):
            node: Any = state
            for key in path:
                node = node[key]
            if not isinstance(node, dict):
                continue
            object_schema = _schema_at(schema, schema["$defs"]["State"], path)
            where = ".".join(str(k) for k in path if not isinstance(k, int))
            for name, prop in object_schema["properties"].items():
                if f"{where}.{name}" in seen or name not in node:  # a field written only when not at its default
                    continue
                trimmed = copy.deepcopy(state)
                holder = trimmed
                for key in path:
                    holder = holder[key]
                del holder[name]
                # an omitted field reads as its default: taken when the default fits the other fields (a
                # Redemption enhancement needs an alignment, so leaving it out is refused like null is)
                fits = "x-default" in prop or ("default" in prop and _state_validator(game).is_valid(
                    _set(state, (*path, name), prop["default"])))
                assert _reads(game, trimmed) is fits, (path, name)
                seen[f"{where}.{name}"] = "default" in prop
                if not fits:
                    continue
                if "default" in prop:
                    back = json.loads(json.dumps(_written(game, READERS[game](trimmed))))
                    restored = back
                    for key in path:
                        restored = restored[key]
                    # a field the schema does not require is written only when not at its default
                    got = restored[name] if name in object_schema["required"] else restored.get(name, prop["default"])
                    assert got == prop["default"], (path, name)
    assert any(seen.values()) and not all(seen.values())


def _written(game: str, state: Any) -> Any:
    return state.to_json() if game == "fftcg" else red_json.to_jsonable(state)


@pytest.mark.clause("FF-BASE-SEVEN-DAMAGE-LOSES", "RED-BASE-WIN-FIVE-SOULS")
@pytest.mark.parametrize("game", ["fftcg", "redemption"])
def test_the_fields_unspecified_once_the_game_is_over_are_marked_and_not_compared(game: str) -> None:
    entry = next(u for u in UNSPECIFIED if u.game == game)
    schema = state_schema(game)
    marked = {name for clause in schema["$defs"]["State"]["allOf"]
              for name, prop in clause["then"]["properties"].items() if prop.get("x-unspecified")}
    assert marked == set(entry.fields) <= set(schema["$defs"]["State"]["properties"])
    over = next(s for s in explored(game).states if s[entry.when] is not None)
    going_on = next(s for s in explored(game).states if s[entry.when] is None)
    # a game that is over: the step (FFTCG) / phase (Redemption) is not compared; one going on keeps every field
    changed = _set(over, (entry.fields[0],), "combat-end" if game == "fftcg" else "discard")
    assert changed != over and without_unspecified(game, changed) == without_unspecified(game, over)
    assert without_unspecified(game, going_on) == going_on
    assert set(over) - set(without_unspecified(game, over)) == set(entry.fields)
