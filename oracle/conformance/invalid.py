"""Invalid-state vectors: positions an engine must refuse to load.

toml-test ships "invalid" documents a decoder must reject beside the valid
ones; here an ``invalid`` vector is a state in the model's JSON form that is
well typed but breaks one of the state's documented consistency rules (a
card in two places, a play record numbered at or beyond ``next_record``, a
prompt naming a record that does not exist, a battle between a player and
themself, ...). The engine must answer its ``load`` with a ``bad-request``
failure (docs/conformance.rst); an engine that loads it would go on to play
from a position no game reaches.

Candidates are single corruptions (:func:`corruptions`) of the states the
generator loads (each scenario's start and richest explored state, and the
states :mod:`.loads` chooses so that every shape of valid state is loaded):
every integer one lower and one higher, set to 0, to -1, to the number of
players and to each ``next_...`` counter (the first value past a check's
edge); every card id reference set to an unknown id and to a card of the
same type in another place; every ``#n`` record reference set to a record
that does not exist and written in Arabic-Indic digits; a list of card ids
or record references with its first item duplicated or dropped (the model
has no removed-from-game or set-aside zone, so a card in no zone is
invalid); two cards of different types trading places; and each game's own
(:data:`EXTRA_CORRUPTIONS`: Redemption's record statuses and a battle's
prompt taken away). Not the card list's order (an engine may sort on load)
and not past the model's input bounds (``MAX_CARDS``, ``MAX_NUMBER``, ...:
bounds of this model, no rule); a state exactly at
one is a valid load instead (:func:`at_bounds`). Only corruptions that
break exactly one consistency rule are kept (the model names exactly one
problem), so an engine that skips that one check loads the state and fails
the vector. The set cover keeps one per (corrupted field, corruption,
problem) feature, the smallest state first. Only the games in
:data:`PROBLEMS` get them (their model lists every problem of a state, not
only the first).
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass, field as dataclass_field
from typing import Any, Callable, Iterator, Mapping, Sequence

from cardrules.model.errors import ScenarioError

ProblemLister = Callable[[Any], "list[tuple[str, str]] | None"]
"""State JSON -> every consistency problem the model finds (path, problem), or None if the JSON does not
even read as a state (a type error, which is not what these vectors are about)."""


def _redemption_problems(data: Any) -> list[tuple[str, str]] | None:
    from cardrules.model.redemption.validate import problems, read_state, size_problems

    try:
        state = read_state(data)
    except (ScenarioError, TypeError, ValueError, KeyError):
        return None
    if size_problems(state, {card.id: card for card in state.cards}):
        return None  # past one of the model's input bounds: a limit of this model, not a rule an engine must share
    return problems(state)


def _fftcg_problems(data: Any) -> list[tuple[str, str]] | None:
    from cardrules.model.fftcg.jsonform import read_state
    from cardrules.model.fftcg.validate import check_split_budget, problems

    try:
        state = read_state(data)
    except (ScenarioError, TypeError, ValueError, KeyError):
        return None
    try:
        check_split_budget(state)
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


def _redemption_corruptions(data: Any) -> Iterator[tuple[str, str, Any]]:
    """Redemption's own corruptions: a play record's status set to each other status (an ongoing numbers
    redirect outside battle that is no longer active; an interrupt that is active without a record to aim
    at; a numbers redirect left pending), which no generic corruption changes (a status is text); and the
    prompt of a battle taken away (a battle on that waits on no one)."""
    from cardrules.model.redemption.state import RecordStatus

    if data.get("battles") and data.get("prompt") is not None:
        yield "prompt", "=null", _replaced(data, ("prompt",), None)
    for r, record in enumerate(data.get("records") or []):
        if not isinstance(record, dict):
            continue
        for status in RecordStatus:
            if record.get("status") != status.value:
                yield "records[].status", f"={status.value}", _replaced(data, ("records", r, "status"), status.value)


def _redemption_at_bounds(data: Any) -> Iterator[tuple[str, Any]]:
    """Redemption states exactly at the model's input bounds, which an engine must load (a number of
    ``MAX_NUMBER``, ``MAX_BRIGADES`` brigades on a card, ``MAX_CARDS`` cards): the first card's strength and
    the last's toughness; a stated amount and a play record's amount at the bound; one card's brigades; the
    deck of player 0 filled up with Lost Souls. Not ``MAX_BATTLES`` nor ``MAX_RECORDS``: a valid stack of 16
    battles or 200 records is not one change of an explored state."""
    from cardrules.model.redemption.state import MAX_BRIGADES, MAX_CARDS, MAX_NUMBER

    cards = data.get("cards") or []
    if not cards or not isinstance(cards[0], dict):
        return
    yield "strength", _replaced(data, ("cards", 0, "strength"), MAX_NUMBER)
    yield "toughness", _replaced(data, ("cards", len(cards) - 1, "toughness"), -MAX_NUMBER)
    for i, card in enumerate(cards):
        if isinstance(card, dict) and isinstance(card.get("stated_amount"), list):
            yield "stated_amount", _replaced(data, ("cards", i, "stated_amount"), [MAX_NUMBER, MAX_NUMBER])
            break
    for r, record in enumerate(data.get("records") or []):
        if isinstance(record, dict) and record.get("effect") == "redirect-numbers":
            yield "amount", _replaced(data, ("records", r, "amount"), [MAX_NUMBER, -MAX_NUMBER])
            break
    for i, card in enumerate(cards):
        if isinstance(card, dict) and card.get("brigades"):
            extra = [f"brigade-{n:02d}" for n in range(MAX_BRIGADES) if f"brigade-{n:02d}" not in card["brigades"]]
            names = sorted([*card["brigades"], *extra[:MAX_BRIGADES - len(card["brigades"])]])
            yield "brigades", _replaced(data, ("cards", i, "brigades"), names)
            break
    zones = data.get("zones") or []
    ids = {c.get("id") for c in cards if isinstance(c, dict)}
    pads = [f"zz-pad{n:03d}" for n in range(MAX_CARDS) if f"zz-pad{n:03d}" not in ids][:MAX_CARDS - len(cards)]
    if pads and zones and isinstance(zones[0], dict):
        filled = _replaced(data, ("cards",), sorted(
            [*cards, *({"id": pad, "type": "lost-soul", "owner": 0, "alignment": None, "brigades": [],
                        "strength": 0, "toughness": 0, "territory_class": False, "ability": None,
                        "stated_amount": None} for pad in pads)], key=lambda c: c["id"]))
        yield "cards", _replaced(filled, ("zones", 0, "deck"), [*zones[0].get("deck", []), *pads])


PROBLEMS: Mapping[str, ProblemLister] = {"redemption": _redemption_problems, "fftcg": _fftcg_problems}
"""Game -> its model's full problem list (the games whose suites get invalid-state vectors)."""

EXTRA_CORRUPTIONS: Mapping[str, Callable[[Any], Iterator[tuple[str, str, Any]]]] = {
    "fftcg": _fftcg_corruptions, "redemption": _redemption_corruptions}
"""Game -> corruptions of its own, beside the generic ones of :func:`corruptions`."""

AT_BOUNDS: Mapping[str, Callable[[Any], Iterator[tuple[str, Any]]]] = {"redemption": _redemption_at_bounds}
"""Game -> (bound, state) of states exactly at its model's input bounds, which are valid loads."""


def at_bounds(game: str, states: Sequence[Any]) -> list[tuple[str, int, Any]]:
    """(bound, index of the state changed, changed state): one valid state exactly at each of the game's
    model's input bounds, a change of the first of ``states`` that the model finds no problem in."""
    hook, lister = AT_BOUNDS.get(game), PROBLEMS.get(game)
    out: dict[str, tuple[int, Any]] = {}
    if hook is None or lister is None:
        return []
    for index, base in enumerate(states):
        for bound, changed in hook(base):
            if bound not in out and lister(changed) == []:
                out[bound] = (index, changed)
    return [(bound, index, changed) for bound, (index, changed) in sorted(out.items())]

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
    text: str = dataclass_field(repr=False, compare=False)
    """The state's JSON text (:func:`state_text`): its length orders the choice, smallest first."""

    @property
    def size(self) -> int:
        """Length of the state's JSON text (the set cover takes the smallest first)."""
        return len(self.text)

    @property
    def feature(self) -> str:
        return f"{self.field}:{self.change}:{_pattern(self.where)}"


def _pattern(path: str) -> str:
    return re.sub(r"\[[^\]]*\]", "[]", path)


def state_text(data: Any) -> str:
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
    """``data`` with the value at ``path`` replaced: the objects and arrays on the path are new, everything
    else is shared with ``data`` (state JSON here is read, never changed: by the model's problem lister, the
    choice and the vectors)."""
    if not path:
        return value
    copy: Any = list(data) if isinstance(data, list) else dict(data)
    copy[path[0]] = _replaced(data[path[0]], path[1:], value)
    return copy


def is_short_int_list(node: Any) -> bool:
    """A short list of integers (a battle's two players, a counter per player): its positions mean different
    things, so a corruption of each position is a feature of its own."""
    return isinstance(node, list) and 0 < len(node) <= 4 and all(
        isinstance(v, int) and not isinstance(v, bool) for v in node)


def _field(data: Any, path: tuple[str | int, ...]) -> str:
    """The pattern of ``path``: list indexes replaced by ``[]``, except an index into a short list of integers
    (``battles[].players[1]``)."""
    out = ""
    node = data
    for key in path:
        if isinstance(key, int):
            out += f"[{key}]" if is_short_int_list(node) else "[]"
        else:
            out += f".{key}" if out else key
        node = node[key]
    return out


def _bounds(data: Any) -> list[tuple[str, int]]:
    """The state's own bounds an integer is checked against: the number of players (``=players``, the first
    invalid player index) and every top-level ``next_...`` counter (``=next_record``: the first id not yet
    given)."""
    out: list[tuple[str, int]] = []
    for key in ("zones", "players"):
        if isinstance(data.get(key), list):
            out.append(("=players", len(data[key])))
            break
    for key in sorted(data):
        if key.startswith("next_") and isinstance(data[key], int) and not isinstance(data[key], bool):
            out.append((f"={key}", data[key]))
    return out


def card_types(data: Any) -> dict[str, Any]:
    """Card id -> its type, from the state JSON's card list (an FFTCG state has none: empty)."""
    cards = data.get("cards", [])
    return {c["id"]: c.get("type") for c in cards if isinstance(c, dict) and isinstance(c.get("id"), str)}


def _swaps(data: Any) -> Iterator[tuple[str, str, Any]]:
    """Two cards of different types trading places (a Lost Soul in a territory and the character in the deck;
    an enhancement fighting and the character in a hand): every card stays in exactly one place, so only a
    zone's or a slot's card type check can find it. One swap per (place pattern, place pattern, type, type)."""
    types = card_types(data)
    places = [(path, value) for path, value in _leaves(data)
              if isinstance(value, str) and path and path[-1] != "id" and value in types]
    seen: set[tuple[str, str, Any, Any]] = set()
    for (path_a, a), (path_b, b) in itertools.combinations(places, 2):
        if types[a] == types[b] or a == b:
            continue
        key = (_field(data, path_a), _field(data, path_b), types[a], types[b])
        if key in seen:
            continue
        seen.add(key)
        yield f"{key[0]}<->{key[1]}", "swapped", _replaced(_replaced(data, path_a, b), path_b, a)


ARABIC_INDIC = str.maketrans("0123456789", "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669")
"""A record reference's digits written in Arabic-Indic digits (``#\u0661``): digits to ``str.isdigit`` and
``int``, but not the ASCII digits the format's ``#n`` means."""


def _same_type_others(data: Any) -> dict[str, list[str]]:
    """Card id -> other cards of its type to put in its place, one from each place pattern they are in (a
    character in a hand for one in a territory): a reference moved to a card of the right type in the wrong
    place (an enhancement placed on a character that is not in a territory)."""
    types = card_types(data)
    first: dict[tuple[Any, str], str] = {}
    for path, value in _leaves(data):
        if isinstance(value, str) and path and path[-1] != "id" and value in types:
            first.setdefault((types[value], _field(data, path)), value)
    out: dict[str, list[str]] = {}
    for card, kind in types.items():
        out[card] = sorted({other for (k, _), other in first.items() if k == kind and other != card})
    return out


def corruptions(data: Any) -> Iterator[tuple[str, str, Any]]:
    """(field pattern, change, corrupted state JSON) of every single corruption of ``data``."""
    card_ids = {c["id"] for c in data.get("cards", []) if isinstance(c, dict) and isinstance(c.get("id"), str)}
    bounds = _bounds(data)
    others = _same_type_others(data)
    for path, value in _leaves(data):
        field = _field(data, path)
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            changes = [("-1", value - 1), ("+1", value + 1), ("=0", 0), ("=-1", -1)]
            changes += [(name, bound) for name, bound in bounds if bound not in (value - 1, value + 1, 0, -1)]
            for change, new in changes:
                if new != value:
                    yield field, change, _replaced(data, path, new)
        elif isinstance(value, str) and path and path[-1] != "id" and value in card_ids:
            yield field, "unknown-card", _replaced(data, path, "zz-unknown")
            for other in others.get(value, ()):
                yield field, "same-type-card", _replaced(data, path, other)
        elif isinstance(value, str) and re.fullmatch(r"#\d+", value):
            yield field, "unknown-record", _replaced(data, path, "#999")
            yield field, "non-ascii-digits", _replaced(data, path, "#" + value[1:].translate(ARABIC_INDIC))
        elif isinstance(value, list) and value and all(
                isinstance(v, str) and (v in card_ids or re.fullmatch(r"#\d+", v)) for v in value):
            yield field, "duplicate", _replaced(data, path, [value[0], *value])
            yield field, "dropped", _replaced(data, path, value[1:])
    yield from _swaps(data)


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
        for changed, change, corrupted in changes:
            text = state_text(corrupted)
            found = _problems_of(game, lister, text, corrupted)
            if found is None or len(found) != 1:
                continue
            where, problem = found[0]
            out.append(InvalidCandidate(scenario, corrupted, changed, change, where, problem, text))
    return out


_PROBLEMS_LIMIT = 50_000
"""Corrupted states whose problems :func:`_problems_of` keeps before it starts afresh."""
_PROBLEMS: dict[tuple[str, str], "list[tuple[str, str]] | None"] = {}


def problems_of(game: str, data: Any) -> list[tuple[str, str]] | None:
    """The game's model's problems of state JSON ``data`` (:data:`PROBLEMS`), listed once per process."""
    return _problems_of(game, PROBLEMS[game], state_text(data), data)


def _problems_of(game: str, lister: ProblemLister, text: str, data: Any) -> list[tuple[str, str]] | None:
    """``lister(data)``, once per process for each state text: two corruptions often make the same state
    (``-1`` of a 1 is ``=0``), and the version suites of a game corrupt the same starts. The list is read,
    never changed."""
    key = (game, text)
    if key in _PROBLEMS:
        return _PROBLEMS[key]
    if len(_PROBLEMS) >= _PROBLEMS_LIMIT:
        _PROBLEMS.clear()
    found = _PROBLEMS[key] = lister(data)
    return found


def base_states(states: Sequence[Any]) -> list[int]:
    """Indexes of the states of one explored graph (state JSON, the start first) that are corrupted: the start
    and the one with the longest JSON text (the first such), each once."""
    if not states:
        return []
    lengths = [len(state_text(s)) for s in states]
    richest = max(range(len(states)), key=lambda i: (lengths[i], -i))
    return [0] if richest == 0 else [0, richest]


def choose(candidates: Sequence[InvalidCandidate]) -> list[InvalidCandidate]:
    """One candidate per feature, the smallest state first (then the first listed); a state chosen for one
    feature serves every feature it has (two corruptions can give the same state: ``-1`` of a 0 is ``=-1``)."""
    by_text: dict[str, InvalidCandidate] = {}
    features: dict[str, set[str]] = {}
    for candidate in candidates:
        text = candidate.text
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
    """The ``invalid`` vector of one chosen candidate. Its state shares the parts the corruption left alone
    with the process's JSON of the explored states (:func:`~.candidates.state_json`): read it, never change it."""
    import hashlib

    digest = hashlib.sha256(candidate.text.encode()).hexdigest()[:12]
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
