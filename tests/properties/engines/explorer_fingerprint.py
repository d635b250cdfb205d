"""What an exploration of an embedded scenario found, in a form to record and compare.

``fingerprint`` runs the explorer on one scenario under one rule set exactly
as ``cardrules verify`` does (its bounds, its properties, a mutant's early
stop) and returns the distinct-state and transition counts, the depth,
whether the graph was complete, the deadlocks, and for each violated property
its shortest counterexample as action texts. ``explorer_baseline.json``
holds these fingerprints as the explorer computed them before the compact
search; ``python -m tests.properties.engines.explorer_fingerprint``
prints them afresh.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from cardrules.properties.games import make_game, version_map
from cardrules.properties.games import properties_for
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.scenarios import RuleSetSpec, Scenario, load_scenarios


def fingerprint(scenario: Scenario, rule_set: RuleSetSpec, mutant: bool, **options: Any) -> dict[str, Any]:
    game = make_game(scenario.game, rule_set)
    props = properties_for(scenario.game, version_map(scenario, rule_set))
    bounds = Bounds(max_depth=scenario.max_depth, max_states=scenario.max_states, max_turns=scenario.max_turns)
    stop = frozenset(rule_set.expect_violated) if mutant else None
    result = explore(game, [game.state_from_json(scenario.state)], props, bounds, stop_when_violated=stop,
                     progress=False, **options)
    return {
        "states": result.stats.states,
        "transitions": result.stats.transitions,
        "depth": result.stats.depth,
        "complete": result.stats.complete,
        "deadlocks": len(result.deadlocks),
        "violations": {
            name: [game.action_text(action) for action, _ in result.counterexample(name)[1:]]
            for name in sorted(result.violations)
        },
    }


def cases() -> list[tuple[str, Scenario, RuleSetSpec, bool]]:
    """(label, scenario, rule set, is a mutant) for every embedded scenario and rule set."""
    found = []
    for scenario in load_scenarios():
        for rule_set in scenario.rule_sets:
            found.append((f"{scenario.name}/{rule_set.name}", scenario, rule_set, False))
        for rule_set in scenario.mutants:
            found.append((f"{scenario.name}/{rule_set.name}", scenario, rule_set, True))
    return found


if __name__ == "__main__":
    json.dump({label: fingerprint(s, r, m) for label, s, r, m in cases()}, sys.stdout, indent=1, sort_keys=True)
    print()
