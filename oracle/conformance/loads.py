"""Valid loads: explored states chosen so that every shape of valid state is loaded by some vector.

An engine's ``load`` must refuse every invalid state (:mod:`.invalid`) and accept every valid one. The play,
refusal and perft vectors load only the scenarios' start positions (and each scenario's richest explored
state), so a check that wrongly refuses, say, a prompt to choose sides, a play record aimed at another record
(``#2``) or an ongoing redirect outside battle would pass them all. Here each explored state's *shape* is a set
of features read from its JSON (:func:`load_features`), and states are chosen, smallest first, while they add
a feature no loaded state has; each chosen state becomes a depth-1 perft vector (a valid load, then its legal
actions and their count: none where the game is over), unless the model's own validation refuses it.

A feature is one of:

- ``PATH=VALUE`` for a leaf: booleans and null as they are, integers from -1 to 2 as they are and others as
  ``n``, ``#n`` for a play record reference, short strings that are not card ids (an effect, a status, a
  prompt kind) as they are; list indexes read ``[]`` except in a short list of integers (a battle's two
  players), where the position is kept;
- ``PATH#len=K`` for a list of K items (3 or more read as 3);
- ``PATH{KEY=VALUE,...}`` for an object in a list: the combination of its short non-card strings (a record's
  effect with its status);

each prefixed ``outside-battle:`` in a state that has a ``battles`` list and it is empty (a game's records
outside battle are checked differently from those in battle).
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterable, Iterator, Sequence

from cardrules.oracle.conformance.invalid import card_types, is_short_int_list, state_text

MAX_ENUM_TEXT = 24
"""Strings at most this long that are not card ids count as values (an effect, a status); longer ones do not."""


def _value(value: Any, cards: dict[str, Any]) -> str | None:
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        return str(value) if -1 <= value <= 2 else "n"
    if isinstance(value, str):
        if value in cards:
            return None
        if re.fullmatch(r"#\d+", value):
            return "#n"
        return value if len(value) <= MAX_ENUM_TEXT else None
    return None


def _walk(node: Any, path: str, cards: dict[str, Any]) -> Iterator[str]:
    if isinstance(node, dict):
        for key in sorted(node):
            yield from _walk(node[key], f"{path}.{key}" if path else key, cards)
    elif isinstance(node, list):
        yield f"{path}#len={min(len(node), 3)}"
        pair = is_short_int_list(node)
        for index, item in enumerate(node):
            item_path = f"{path}[{index}]" if pair else f"{path}[]"
            if isinstance(item, dict):
                texts = [f"{k}={item[k]}" for k in sorted(item) if isinstance(item[k], str)
                         and _value(item[k], cards) == item[k]]
                if texts:
                    yield f"{item_path}{{{','.join(texts)}}}"
            yield from _walk(item, item_path, cards)
    else:
        shown = _value(node, cards)
        if shown is not None:
            yield f"{path}={shown}"


def load_features(data: Any) -> frozenset[str]:
    """The shape features of one state JSON (the module docstring says which)."""
    prefix = "outside-battle:" if isinstance(data, dict) and data.get("battles") == [] else ""
    return frozenset(prefix + f for f in _walk(data, "", card_types(data) if isinstance(data, dict) else {}))


def choose_loads(graphs: Sequence[Sequence[Any]], loaded: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """(graph, state) indexes of the explored states (state JSON per graph) to load, beyond ``loaded``: the
    smallest state first (then graph and state order), each kept while it adds a feature that no loaded or
    kept state has."""
    covered: set[str] = set()
    for g, i in loaded:
        covered |= load_features(graphs[g][i])
    order = sorted(((len(state_text(s)), g, i) for g, states in enumerate(graphs) for i, s in enumerate(states)))
    chosen: list[tuple[int, int]] = []
    for _, g, i in order:
        features = load_features(graphs[g][i])
        if features - covered:
            covered |= features
            chosen.append((g, i))
    return chosen
