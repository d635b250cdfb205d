"""Which scenarios a command checks: embedded ones by name, and users' scenario files.

Bad input (an unknown name, a malformed file, a mutant that expects an unknown
property) is an :class:`~cardrules.oracle.errors.InputError` naming it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from cardrules.model.errors import ScenarioError
from cardrules.oracle.errors import InputError
from cardrules.properties.scenarios import Scenario, load_scenario, load_scenarios


def select_scenarios(names: Sequence[str] | None, files: Sequence[Path] | None = None) -> tuple[Scenario, ...]:
    """The embedded scenarios named (all when neither names nor files are given), then the users' scenario files.

    An unknown name is an :class:`InputError` listing the known ones; a bad
    scenario file (embedded or the user's) is one too, naming its file and
    field. A mutant expecting a property that its game does not register is
    bad input, never a silent pass.
    """
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


def _check_expected_properties(scenarios: Sequence[Scenario]) -> None:
    from cardrules.properties.games import ALL_PROPERTIES as PROPERTIES

    for scenario in scenarios:
        known = sorted(p.name for p in PROPERTIES if p.game == scenario.game)
        for mutant in scenario.mutants:
            for name in mutant.expect_violated:
                if name not in known:
                    raise InputError(f"{scenario.file}: mutant {mutant.name}: expect_violated names {name!r}, "
                                     f"not a {scenario.game} property; known: {', '.join(known)}")
