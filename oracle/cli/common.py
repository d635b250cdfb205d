"""What every ``cardrules`` subcommand shares: exit codes, the input error, catalogue filters.

Exit codes (the same for every subcommand):

* 0 - done, and every check asked for passed;
* 1 - a check failed (a property violated, a mutant missed, a contradiction, ``trace --strict`` gaps);
* 2 - the command line was wrong (unknown option, unknown subcommand);
* 3 - the input was wrong (unknown clause ID, scenario or decision, a malformed file, nothing selected);
* 4 - a check could not decide (an SMT ``unknown``): never a pass.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from typing import TYPE_CHECKING, Sequence

from cardrules.specs.catalogue import Catalogue, Clause, default_catalogue, load

if TYPE_CHECKING:
    from cardrules.properties.scenarios import Scenario

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_USAGE = 2
EXIT_INPUT = 3
EXIT_UNDECIDED = 4


class InputError(Exception):
    """Bad input found by a subcommand; printed as one line, exit code 3."""


def _catalogue(args: argparse.Namespace) -> Catalogue:
    directory: Path | None = getattr(args, "catalogue", None)
    return load(directory) if directory else default_catalogue()


def _filter(catalogue: Catalogue, args: argparse.Namespace) -> tuple[Clause, ...]:
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


def select_scenarios(names: Sequence[str] | None, files: Sequence[Path] | None = None) -> tuple["Scenario", ...]:
    """The embedded scenarios named (all when neither names nor files are given), then the users' scenario files.

    An unknown name is an :class:`InputError` listing the known ones; a bad
    scenario file (embedded or the user's) is one too, naming its file and
    field. A mutant expecting a property that its game does not register is
    bad input, never a silent pass.
    """
    from cardrules.model.errors import ScenarioError
    from cardrules.properties.scenarios import load_scenario, load_scenarios

    try:
        scenarios = load_scenarios()
        users = [load_scenario(path) for path in files or ()]
    except ScenarioError as error:
        raise InputError(str(error)) from None
    if names:
        known = {s.name for s in scenarios}
        missing = [name for name in names if name not in known]
        if missing:
            raise InputError(f"unknown scenario {missing[0]!r}; known: {', '.join(sorted(known))}")
        chosen = [s for s in scenarios if s.name in names]
    else:
        chosen = [] if users else list(scenarios)
    taken = {s.name for s in chosen}
    for scenario in users:
        if scenario.name in taken:
            raise InputError(f"{scenario.file}: a scenario named {scenario.name!r} is already selected")
        taken.add(scenario.name)
        chosen.append(scenario)
    _check_expected_properties(chosen)
    return tuple(chosen)


def _check_expected_properties(scenarios: Sequence["Scenario"]) -> None:
    from cardrules.oracle.verify.runner import load_property_modules
    from cardrules.properties.core import PROPERTIES

    load_property_modules()
    for scenario in scenarios:
        known = sorted(p.name for p in PROPERTIES.values() if p.game == scenario.game)
        for mutant in scenario.mutants:
            for name in mutant.expect_violated:
                if name not in known:
                    raise InputError(f"{scenario.file}: mutant {mutant.name}: expect_violated names {name!r}, "
                                     f"not a {scenario.game} property; known: {', '.join(known)}")
