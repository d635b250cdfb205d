"""Features an engine may lack: named groups of clauses, per game.

An engine adopting the conformance suites rarely implements a whole game at once.
``specs/clauses/features/features.toml`` names, per game, the features an engine may
declare (party attacks, Pre-emptive Strike, side battles, heal windows, ...), each
with the clauses only an engine implementing it can pass. A clause in no feature is
its game's core: every engine implements it. The conformance runner skips a vector
that needs a feature the engine did not declare in its hello
(:mod:`cardrules.oracle.conformance.declaration`).

:func:`load_features` checks the file against the catalogue: every game is one of the
catalogue's, every id is well formed and used once per game, every clause exists, is
of that game and is in at most one feature. A problem is one :class:`CatalogueError`
naming the file, the feature and the field.

A feature may also name ``shown_by``, a card flag of the game's state form (``preemptive``,
``p_icon``) without which the feature cannot show in play: an engine lacking Pre-emptive Strike
plays exactly like one that has it as long as no card on the table has the ability. A vector then
needs such a feature only when its clauses name the feature's clauses *and* some state of the vector
has a card with that flag set (:func:`vector_features`). The model marks every decision about
whether a Pre-emptive part happens as FF-BASE-PREEMPTIVE, so clauses alone would send an engine
without it no vector in which combat damage is dealt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from cardrules.specs.catalogue.load import CATALOGUE_DIR, MAX_FILE_BYTES, default_catalogue
from cardrules.specs.catalogue.types import Catalogue, CatalogueError
from cardrules.specs.fileio import FileProblem, load_toml

FEATURES_FILE = CATALOGUE_DIR / "features" / "features.toml"
"""The shipped features (in a folder of its own: every ``*.toml`` beside the areas is read as an area)."""

FEATURE_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Feature:
    """A part of one game an engine may implement or lack."""

    id: str
    game: str
    title: str
    clauses: tuple[str, ...]
    shown_by: str | None = None
    """A card flag (a boolean field of a card in the state form) the feature needs set to show in play."""


def load_features_from(path: Path, catalogue: Catalogue) -> dict[str, tuple[Feature, ...]]:
    """Read and check a features file against ``catalogue``: the features per game, in file order."""
    name = f"{path.parent.name}/{path.name}"
    try:
        data = load_toml(path, MAX_FILE_BYTES)
    except FileProblem as problem:
        what = f"{problem.where}: {problem.what}" if problem.where else problem.what
        raise CatalogueError(name, None, None, what) from None
    games = {a.game for a in catalogue.areas}
    owner: dict[str, str] = {}
    out: dict[str, tuple[Feature, ...]] = {}
    for game, entries in data.items():
        if game not in games:
            raise CatalogueError(name, None, game, f"not a game of the catalogue (expected {', '.join(sorted(games))})")
        if not isinstance(entries, list):
            raise CatalogueError(name, None, game, "expected an array of tables ([[" + game + "]])")
        out[game] = tuple(_feature(name, catalogue, game, entry, owner) for entry in entries)
    for game in sorted(games - set(out)):
        out[game] = ()
    return out


def _feature(name: str, catalogue: Catalogue, game: str, entry: Any, owner: dict[str, str]) -> Feature:
    if not isinstance(entry, dict):
        raise CatalogueError(name, None, game, "each feature is a table")
    fid = entry.get("id")
    if not isinstance(fid, str) or not FEATURE_ID.match(fid):
        raise CatalogueError(name, None, "id", f"{fid!r} is not a lower-case id like 'p-icon-party'")
    unknown = sorted(set(entry) - {"id", "title", "clauses", "shown_by"})
    if unknown:
        raise CatalogueError(name, fid, unknown[0], "unknown field (expected id, title, clauses, shown_by)")
    shown_by = entry.get("shown_by")
    if shown_by is not None and (not isinstance(shown_by, str) or not re.match(r"^[a-z][a-z0-9_]*$", shown_by)):
        raise CatalogueError(name, fid, "shown_by", f"{shown_by!r} is not a card flag name like 'p_icon'")
    if f"#{game}:{fid}" in owner:
        raise CatalogueError(name, fid, "id", f"feature listed twice for {game}")
    title = entry.get("title")
    if not isinstance(title, str) or not title.strip():
        raise CatalogueError(name, fid, "title", "expected a non-empty string")
    clauses = entry.get("clauses")
    if not isinstance(clauses, list) or not clauses or not all(isinstance(c, str) for c in clauses):
        raise CatalogueError(name, fid, "clauses", "expected a non-empty list of clause IDs")
    for clause_id in clauses:
        if clause_id not in catalogue.ids:
            raise CatalogueError(name, fid, "clauses", f"{clause_id!r} is not a clause in the catalogue")
        if catalogue.clause(clause_id).game != game:
            raise CatalogueError(name, fid, "clauses", f"{clause_id!r} is a clause of another game")
        if clause_id in owner:
            raise CatalogueError(name, fid, "clauses", f"{clause_id!r} is also in feature {owner[clause_id]}")
        owner[clause_id] = f"{game}:{fid}"
    owner[f"#{game}:{fid}"] = f"{game}:{fid}"
    return Feature(id=fid, game=game, title=title.strip(), clauses=tuple(clauses), shown_by=shown_by)


@lru_cache(maxsize=1)
def load_features() -> dict[str, tuple[Feature, ...]]:
    """The shipped features per game (checked against the shipped catalogue)."""
    return load_features_from(FEATURES_FILE, default_catalogue())


@lru_cache(maxsize=None)
def _feature_of(game: str) -> dict[str, str]:
    return {clause: f.id for f in load_features().get(game, ()) for clause in f.clauses}


def features_needed(game: str, clauses: Iterable[str]) -> frozenset[str]:
    """The features an engine needs for a vector of ``game`` exercising ``clauses`` (core clauses need none)."""
    of = _feature_of(game)
    return frozenset(of[c] for c in clauses if c in of)


def _flag_set(value: Any, flag: str) -> bool:
    """Whether some object inside the JSON ``value`` has ``flag`` set to true."""
    if isinstance(value, dict):
        return value.get(flag) is True or any(_flag_set(v, flag) for v in value.values())
    if isinstance(value, list):
        return any(_flag_set(v, flag) for v in value)
    return False


def vector_features(game: str, clauses: Iterable[str], states: Iterable[Any]) -> frozenset[str]:
    """The features a vector needs: those of its ``clauses`` (:func:`features_needed`), less each feature
    whose ``shown_by`` card flag is set in none of the vector's ``states`` (JSON state forms)."""
    needed = features_needed(game, clauses)
    flags = {f.id: f.shown_by for f in load_features().get(game, ()) if f.shown_by is not None}
    if not needed & flags.keys():
        return needed
    seen = list(states)
    return frozenset(f for f in needed if f not in flags or any(_flag_set(s, flags[f]) for s in seen))


def vector_states(vector: dict[str, Any]) -> list[Any]:
    """The JSON states of a conformance vector: its start, each step's, and its refusal's (if any)."""
    states = [vector.get("state")] + [step.get("state") for step in vector.get("steps", [])]
    return [s for s in states if s is not None]


def feature_ids(game: str) -> tuple[str, ...]:
    """Every feature id of ``game``, in file order."""
    return tuple(f.id for f in load_features().get(game, ()))
