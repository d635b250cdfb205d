"""What the ``cardrules`` subcommands share: the catalogue a command reads, and its clause filters.

Exit codes and the input error are :mod:`cardrules.oracle.errors` (re-exported here for the
command modules).
"""

from __future__ import annotations

import argparse
from pathlib import Path


from cardrules.oracle.errors import EXIT_CHECK_FAILED, EXIT_INPUT, EXIT_OK, EXIT_UNDECIDED, EXIT_USAGE, InputError
from cardrules.specs.catalogue import Catalogue, Clause, default_catalogue, load

__all__ = ["EXIT_CHECK_FAILED", "EXIT_INPUT", "EXIT_OK", "EXIT_UNDECIDED", "EXIT_USAGE", "InputError",
           "catalogue_of", "filter_clauses"]


def catalogue_of(args: argparse.Namespace) -> Catalogue:
    """The catalogue ``--catalogue DIR`` names, else the shipped one."""
    directory: Path | None = getattr(args, "catalogue", None)
    return load(directory) if directory else default_catalogue()


def filter_clauses(catalogue: Catalogue, args: argparse.Namespace) -> tuple[Clause, ...]:
    """The clauses ``--game``, ``--area``, ``--kind`` and ``--version`` select (unknown names: InputError)."""
    game, area = getattr(args, "game", None), getattr(args, "area", None)
    if area is not None and area not in {a.id for a in catalogue.areas}:
        raise InputError(f"unknown area {area!r}; known: {', '.join(a.id for a in catalogue.areas)}")
    if game is not None and game not in {a.game for a in catalogue.areas}:
        raise InputError(f"unknown game {game!r}; known: {', '.join(sorted({a.game for a in catalogue.areas}))}")
    version = getattr(args, "version", None)
    versions = {v.id for a in catalogue.areas for v in a.versions if area is None or a.id == area}
    if version is not None and version not in versions:
        raise InputError(f"unknown version {version!r}; known: {', '.join(sorted(versions))}")
    return catalogue.select(
        game=game, area=area, kind=getattr(args, "kind", None), version=getattr(args, "version", None)
    )
