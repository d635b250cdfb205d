"""Scopes: the ``cardrules-scope/1`` file format, the :class:`Scope` it reads into, and the named scopes.

A scope file is TOML (read through :mod:`cardrules.specs.fileio`)::

    format = "cardrules-scope/1"
    game = "redemption"                  # or "fftcg"
    name = "small"
    description = "what the scope covers"

    [bounds]
    turns = 1                            # explore each position this many turns
    max_states_per_position = 1500       # and at most this many states from it
    # max_depth = 40                     # optional: actions from the position
    # max_positions = 500                # optional: refuse a scope that enumerates more

    [start]
    point = "battle-phase"               # Redemption; "attack-phase" for FFTCG
    mid_game = false                     # true: statuses, side battles already initiated ([mid_game])

    [players]
    count = [2]                          # player counts (FFTCG: always [2])

    [cards.h22]                          # a printed card (template) the zones draw from
    type = "character"
    alignment = "good"
    brigades = ["blue"]
    strength = 2
    toughness = 2

    [[zones]]                            # one zone of one seat, and which cards it may hold
    seat = "active"                      # active | defender | others
    zone = "territory"                   # hand | territory | bondage | redemption (FFTCG: field)
    owner = "self"                       # Redemption: self, or other (owned by another player)
    cards = ["h22"]
    count = [1, 1]                       # at least, at most

The FFTCG part has ``[damage] active = [...], defender = [...]`` (each player's
damage), and each zone may give ``dull`` and ``since_start`` domains. The
whole schema is :mod:`.schema`. Every problem is a :class:`ScopeError` naming
the file and the field (one line, exit 3 on the command line).

Named scopes (:data:`SCOPE_NAMES`) are the ``<game>-<name>.toml`` files of this folder.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import jsonschema

from cardrules.properties.scopes.errors import ScopeError
from cardrules.properties.scopes.schema import COMMON, FORMAT, GAME_SCHEMAS

SCOPE_DIR = Path(__file__).parent
MAX_CANDIDATES = 100_000
"""Most positions a scope's domains may give before symmetry (the named medium scopes give under 2,000)."""
MAX_SCOPE_BYTES = 200_000
"""Largest scope file read (the shipped ones are under 5 kB)."""
GAMES = ("fftcg", "redemption")


@dataclass(frozen=True)
class Scope:
    """A validated scope: the bounds of each exploration and the domains positions are drawn from."""

    game: str
    name: str
    description: str
    turns: int
    """The turn bound of every exploration from a position of the scope."""
    max_states_per_position: int
    max_depth: int | None
    max_positions: int | None
    start: str
    """``battle-phase`` (Redemption) or ``attack-phase`` (FFTCG): where every position stands."""
    mid_game: bool
    """True: the positions may carry what happened earlier in the turn (``[mid_game]`` domains)."""
    players: tuple[int, ...]
    cards: Mapping[str, Mapping[str, Any]] = field(hash=False, compare=True)
    zones: tuple[Mapping[str, Any], ...] = field(hash=False, compare=True)
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=True)
    """Game-specific domains: FFTCG ``damage``; Redemption ``mid_game`` (statuses, side battles)."""
    source: str = ""
    """Where the scope was read from: ``named`` for a shipped scope, else the file's path."""

    def describe(self) -> dict[str, Any]:
        """The scope's JSON form: every domain and bound (for ``--json`` and the reports)."""
        return {
            "format": FORMAT, "game": self.game, "name": self.name, "description": self.description,
            "source": self.source,
            "bounds": {"turns": self.turns, "max_states_per_position": self.max_states_per_position,
                       "max_depth": self.max_depth, "max_positions": self.max_positions},
            "start": {"point": self.start, "mid_game": self.mid_game},
            "players": {"count": list(self.players)},
            "cards": {k: _plain(v) for k, v in sorted(self.cards.items())},
            "zones": [_plain(z) for z in self.zones],
            **{k: _plain(v) for k, v in sorted(self.extra.items())},
        }


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _named() -> dict[str, tuple[str, ...]]:
    found: dict[str, list[str]] = {g: [] for g in GAMES}
    for path in sorted(SCOPE_DIR.glob("*.toml")):
        game, _, name = path.stem.partition("-")
        if game in found and name:
            found[game].append(name)
    order = {"small": 0, "medium": 1}
    return {g: tuple(sorted(names, key=lambda n: (order.get(n, 2), n))) for g, names in found.items()}


SCOPE_NAMES: dict[str, tuple[str, ...]] = _named()
"""Game -> the named scopes shipped with cardrules (``small`` and ``medium`` at least)."""


def _where(error: jsonschema.ValidationError) -> str:
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return path.lstrip(".") or "(top)"


def _first_error(schema: Mapping[str, Any], data: Any) -> jsonschema.ValidationError | None:
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data),
                    key=lambda e: ([str(p) for p in e.absolute_path], e.message))
    return errors[0] if errors else None


def _message(error: jsonschema.ValidationError) -> str:
    text = error.message.replace("\n", " ")
    return text if len(text) <= 200 else text[:197] + "..."


def parse_scope(data: Any, where: str, source: str) -> Scope:
    """A :class:`Scope` from a scope document (ScopeError ``WHERE: FIELD: problem`` otherwise)."""
    error = _first_error(COMMON, data)
    if error is None:
        error = _first_error(GAME_SCHEMAS[data["game"]], data)
    if error is not None:
        raise ScopeError(f"{where}: {_where(error)}: {_message(error)}")
    _check_references(data, where)
    bounds, start = data["bounds"], data["start"]
    extra = {k: data[k] for k in ("damage", "mid_game") if k in data}
    if extra.get("mid_game") and not start.get("mid_game", False):
        raise ScopeError(f"{where}: mid_game: domains of what happened earlier in the turn need start.mid_game = true")
    scope = Scope(
        game=data["game"], name=data["name"], description=data["description"], turns=bounds["turns"],
        max_states_per_position=bounds["max_states_per_position"], max_depth=bounds.get("max_depth"),
        max_positions=bounds.get("max_positions"), start=start["point"], mid_game=bool(start.get("mid_game", False)),
        players=tuple(sorted(data["players"]["count"])), cards=dict(data["cards"]),
        zones=tuple(dict(z) for z in data["zones"]), extra=extra, source=source,
    )
    import cardrules.properties.scopes.fftcg as fftcg
    import cardrules.properties.scopes.redemption as redemption

    module = {"fftcg": fftcg, "redemption": redemption}[scope.game]
    module.check_cards(scope, where)
    count = module.candidates(scope)
    if count > MAX_CANDIDATES:
        raise ScopeError(f"{where}: zones: the domains give {count:,} positions; at most {MAX_CANDIDATES:,} "
                         "(narrow the zones' cards or counts)")
    return scope


def _check_references(data: Mapping[str, Any], where: str) -> None:
    """Zones name cards the scope declares, with a count from low to high; no two cards are identical."""
    cards = data["cards"]
    for i, zone in enumerate(data["zones"]):
        for j, name in enumerate(zone["cards"]):
            if name not in cards:
                raise ScopeError(f"{where}: zones[{i}].cards[{j}]: no card {name!r} in [cards] "
                                 f"(declared: {', '.join(sorted(cards))})")
        low, high = zone["count"]
        if low > high:
            raise ScopeError(f"{where}: zones[{i}].count: [at least, at most], found [{low}, {high}]")
    seen: dict[str, str] = {}
    for name, card in sorted(cards.items()):
        key = repr(sorted((k, v if not isinstance(v, list) else sorted(v)) for k, v in card.items()
                          if k != "name"))
        if data["game"] == "fftcg":
            key = repr(sorted(card.items()))
        if key in seen:
            raise ScopeError(f"{where}: cards.{name}: the same printed card as cards.{seen[key]} "
                             "(identical cards are one card in several copies: list it once)")
        seen[key] = name


NAME_OR_PATH = re.compile(r"^[a-z][a-z0-9-]{0,39}$")


def _is_name(text: str) -> bool:
    """Whether ``text`` reads as a scope's name (``small``, ``fftcg-medium``) rather than a path."""
    return NAME_OR_PATH.match(text) is not None and not text.endswith(".toml")


def load_scope(text: str, game: str) -> Scope:
    """The scope called ``text`` for ``game`` (a named scope, or ``GAME-NAME``), or the scope file at path ``text``.

    Bad input (no such scope, an unreadable or malformed file, a file for the other game) raises
    :class:`ScopeError` naming the file (or name) and the field.
    """
    from cardrules.specs.fileio import FileProblem, load_toml

    if game not in GAMES:
        raise ScopeError(f"scope {text!r}: unknown game {game!r}; known: {', '.join(GAMES)}")
    named = SCOPE_NAMES.get(game, ())
    stem = text[len(game) + 1:] if text.startswith(f"{game}-") else text
    if _is_name(text) and (stem in named or not os.path.lexists(text)):
        if stem not in named:
            raise ScopeError(f"scope {text!r}: no named {game} scope of that name; named: {', '.join(named)} "
                             "(or give the path of a scope file)")
        path, where, source = SCOPE_DIR / f"{game}-{stem}.toml", f"scope {game}-{stem}", "named"
    else:
        path, where, source = Path(text), text, text
    try:
        data = load_toml(path, MAX_SCOPE_BYTES)
    except FileProblem as problem:
        raise ScopeError(str(problem)) from None
    scope = parse_scope(data, where, source)
    if scope.game != game:
        raise ScopeError(f"{where}: game: a {scope.game} scope, not a {game} one")
    return scope


def load_scopes(text: str, games: tuple[str, ...] = GAMES) -> list[Scope]:
    """What ``--scope TEXT`` names: a scope file (its own game), ``GAME-NAME``, or a name, which is every one of
    ``games`` that ships a scope of that name (ScopeError when none does)."""
    known = {name for g in games for n in SCOPE_NAMES.get(g, ()) for name in (n, f"{g}-{n}")}
    if not _is_name(text) or (text not in known and os.path.lexists(text)):
        from cardrules.specs.fileio import FileProblem, load_toml

        try:
            data = load_toml(Path(text), MAX_SCOPE_BYTES)
        except FileProblem as problem:
            raise ScopeError(str(problem)) from None
        return [parse_scope(data, text, text)]
    prefixed = [g for g in GAMES if text.startswith(f"{g}-")]
    if prefixed:
        return [load_scope(text, prefixed[0])]
    found = [load_scope(text, g) for g in games if text in SCOPE_NAMES.get(g, ())]
    if not found:
        names = sorted({n for g in games for n in SCOPE_NAMES.get(g, ())})
        raise ScopeError(f"scope {text!r}: no named scope of that name; named: {', '.join(names)} "
                         "(or give the path of a scope file)")
    return found
