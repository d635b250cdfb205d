"""Invalid-state vectors: positions an engine must refuse to load (issue 10, suite quality).

toml-test ships "invalid" documents a decoder must reject beside the valid
ones; here an ``invalid`` vector is a state in the model's JSON form that is
well typed but breaks one of the state's documented consistency rules (a
card in two places, a play record numbered at or beyond ``next_record``, a
prompt naming a record that does not exist, a battle between a player and
themself, ...). The engine must answer its ``load`` with a ``bad-request``
failure (docs/conformance.rst); an engine that loads it would go on to play
from a position no game reaches.

Candidates are single corruptions of the states of the explored graphs (the
scenarios' start positions and their richest explored state; the generator
also adds a depth-1 perft vector from each such richest state, so that an
engine, or a mutant, that refuses a *valid* state of that richness fails too): every integer
one lower and one higher, set to 0 and to -1; every card id reference set to
an unknown id; every ``#n`` record reference set to a record that does not
exist; a card id duplicated in its list or dropped from it (the model has no
removed-from-game or set-aside zone, so a card in no zone is invalid). Not
the card list's order (an engine may sort on load) and not the model's input
bounds (``MAX_CARDS``, ``MAX_NUMBER``, ...: bounds of this model, no rule).
Only corruptions that break exactly one consistency rule are kept
(the model names exactly one problem), so an engine that skips that one
check loads the state and fails the vector. The set cover keeps one per
(corrupted field, corruption, problem) feature, the smallest state first.
Only the games in :data:`PROBLEMS` get them (their model lists every problem
of a state, not only the first).
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping, Sequence

from cardrules.model.errors import ScenarioError

ProblemLister = Callable[[Any], "list[tuple[str, str]] | None"]
"""State JSON -> every consistency problem the model finds (path, problem), or None if the JSON does not
even read as a state (a type error, which is not what these vectors are about)."""


def _redemption_problems(data: Any) -> list[tuple[str, str]] | None:
    from cardrules.model.redemption.jsonform import from_jsonable
    from cardrules.model.redemption.state import State, _size_problems, problems

    try:
        state = from_jsonable(State, data, "")
    except (ScenarioError, TypeError, ValueError, KeyError):
        return None
    if _size_problems(state, {card.id: card for card in state.cards}):
        return None  # past one of the model's input bounds: a limit of this model, not a rule an engine must share
    return problems(state)


def _fftcg_problems(data: Any) -> list[tuple[str, str]] | None:
    from cardrules.model.fftcg.state import State, _check_split_budget, problems

    try:
        state = State.read_json(data)
    except (ScenarioError, TypeError, ValueError, KeyError):
        return None
    try:
        _check_split_budget(state)
    except ScenarioError:
        return None  # past the model's split enumeration bound (MAX_SPLITS): a limit of this model, not a rule
    return problems(state)


def _fftcg_corruptions(data: Any) -> Iterator[tuple[str, str, Any]]:
    """FFTCG's own corruptions, which no generic one makes: a player's damage set to 7 (the game has
    no outcome: FF-BASE-SEVEN-DAMAGE-LOSES has not been applied), a Forward's damage set to its power
    (FF-BASE-BREAK-DAMAGE has not been applied, if the power is 1000 or more), and an attack's
    ``party`` flag flipped (two or more attackers without a party before Combat End)."""
    for p, player in enumerate(data.get("players") or []):
        if not isinstance(player, dict):
            continue
        if player.get("damage", 0) != 7:
            yield "players[].damage", "=7", _replaced(data, ("players", p, "damage"), 7)
        for i, forward in enumerate(player.get("forwards") or []):
            if isinstance(forward, dict) and isinstance(forward.get("power"), int) and forward.get("damage", 0) != forward["power"]:
                yield ("players[].forwards[].damage", "=power",
                       _replaced(data, ("players", p, "forwards", i, "damage"), forward["power"]))
    attack = data.get("attack")
    if isinstance(attack, dict) and isinstance(attack.get("party"), bool):
        yield "attack.party", "flipped", _replaced(data, ("attack", "party"), not attack["party"])


PROBLEMS: Mapping[str, ProblemLister] = {"redemption": _redemption_problems, "fftcg": _fftcg_problems}
"""Game -> its model's full problem list (the games whose suites get invalid-state vectors)."""

EXTRA_CORRUPTIONS: Mapping[str, Callable[[Any], Iterator[tuple[str, str, Any]]]] = {"fftcg": _fftcg_corruptions}
"""Game -> corruptions of its own, beside the generic ones of :func:`corruptions`."""

@dataclass(frozen=True)
class InvalidCandidate:
    """One corrupted state and what it breaks."""

    scenario: str
    state: Any
    field: str
    """The corrupted field, indexes replaced by ``[]`` (``records[].id``)."""
    change: str
    """The corruption (``-1``, ``+1``, ``=0``, ``=-1``, ``unknown-card``, ``unknown-record``, ``duplicate``,
    ``dropped``)."""
    where: str
    problem: str
    size: int
    """Length of the state's JSON text (the set cover takes the smallest first)."""

    @property
    def feature(self) -> str:
        return f"{self.field}:{self.change}:{_pattern(self.where)}"


def _pattern(path: str) -> str:
    return re.sub(r"\[[^\]]*\]", "[]", path)


def _text(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _leaves(data: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Every value of the JSON tree with its path (containers too), in document order."""
    yield path, data
    if isinstance(data, dict):
        for key in sorted(data):
            yield from _leaves(data[key], (*path, key))
    elif isinstance(data, list):
        for index, item in enumerate(data):
            yield from _leaves(item, (*path, index))


def _replaced(data: Any, path: tuple[str | int, ...], value: Any) -> Any:
    """A deep copy of ``data`` with the value at ``path`` replaced."""
    copy = json.loads(json.dumps(data))
    if not path:
        return value
    node = copy
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return copy


def _show(path: tuple[str | int, ...]) -> str:
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else key)
    return out


def corruptions(data: Any) -> Iterator[tuple[str, str, Any]]:
    """(field pattern, change, corrupted state JSON) of every single corruption of ``data``."""
    card_ids = {c["id"] for c in data.get("cards", []) if isinstance(c, dict) and isinstance(c.get("id"), str)}
    for path, value in _leaves(data):
        field = _pattern(_show(path))
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            for change, new in (("-1", value - 1), ("+1", value + 1), ("=0", 0), ("=-1", -1)):
                if new != value:
                    yield field, change, _replaced(data, path, new)
        elif isinstance(value, str) and path and path[-1] != "id" and value in card_ids:
            yield field, "unknown-card", _replaced(data, path, "zz-unknown")
        elif isinstance(value, str) and re.fullmatch(r"#\d+", value):
            yield field, "unknown-record", _replaced(data, path, "#999")
        elif isinstance(value, list) and value and all(isinstance(v, str) and v in card_ids for v in value):
            yield field, "duplicate", _replaced(data, path, [value[0], *value])
            yield field, "dropped", _replaced(data, path, value[1:])


def invalid_candidates(game: str, scenario: str, states: Sequence[Any]) -> list[InvalidCandidate]:
    """The corruptions of ``states`` (state JSON) that the game's model finds exactly one problem in."""
    lister = PROBLEMS.get(game)
    if lister is None:
        return []
    extra = EXTRA_CORRUPTIONS.get(game)
    out: list[InvalidCandidate] = []
    for base in states:
        changes = corruptions(base)
        if extra is not None:
            changes = itertools.chain(changes, extra(base))
        for field, change, corrupted in changes:
            found = lister(corrupted)
            if found is None or len(found) != 1:
                continue
            where, problem = found[0]
            out.append(InvalidCandidate(scenario, corrupted, field, change, where, problem, len(_text(corrupted))))
    return out


def base_states(states: Sequence[Any]) -> list[int]:
    """Indexes of the states of one explored graph (state JSON, the start first) that are corrupted: the start
    and the one with the longest JSON text (the first such), each once."""
    if not states:
        return []
    lengths = [len(_text(s)) for s in states]
    richest = max(range(len(states)), key=lambda i: (lengths[i], -i))
    return [0] if richest == 0 else [0, richest]


def choose(candidates: Sequence[InvalidCandidate]) -> list[InvalidCandidate]:
    """One candidate per feature, the smallest state first (then the first listed); a state chosen for one
    feature serves every feature it has (two corruptions can give the same state: ``-1`` of a 0 is ``=-1``)."""
    by_text: dict[str, InvalidCandidate] = {}
    features: dict[str, set[str]] = {}
    for candidate in candidates:
        text = _text(candidate.state)
        by_text.setdefault(text, candidate)
        features.setdefault(text, set()).add(candidate.feature)
    order = sorted(by_text, key=lambda t: (len(t), t))
    covered: set[str] = set()
    chosen: list[InvalidCandidate] = []
    for text in order:
        if features[text] - covered:
            covered |= features[text]
            chosen.append(by_text[text])
    return sorted(chosen, key=lambda c: c.feature)


def invalid_vector(candidate: InvalidCandidate) -> dict[str, Any]:
    """The ``invalid`` vector of one chosen candidate."""
    import hashlib

    digest = hashlib.sha256(_text(candidate.state).encode()).hexdigest()[:12]
    return {
        "id": f"{candidate.scenario}/invalid/{digest}",
        "kind": "invalid",
        "clauses": [],
        "narrative": (f"{candidate.scenario}, {candidate.field} changed ({candidate.change}): "
                      f"{candidate.where}: {candidate.problem}").replace("\n", " "),
        "scenario": candidate.scenario,
        "state": candidate.state,
        "problem": {"where": candidate.where, "reason": candidate.problem},
    }
