"""Exploration speed of the Redemption scenarios whose identical cards make the symmetry key matter.

For each embedded Redemption scenario with interchangeable cards, explores its
first rule set twice with the same bounds: with the explorer's key (the state
read directly, :func:`cardrules.properties.engines.symmetry.canonical_dataclass_key`)
and with the JSON-form key it replaced (``canonical_json_key`` over
``state.to_json()``). Prints states, seconds and states per second
for both, checks that both searches find the same number of distinct states,
and the speed-up.

    python3 benchmarks/explore_redemption.py
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Hashable

from cardrules.model.redemption.state import State
from cardrules.properties.games import make_game, version_map
from cardrules.properties.games import properties_for
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.redemption.game import UNORDERED_KEYS, RedemptionGame, _classes
from cardrules.properties.scenarios import load_scenarios
from cardrules.properties.engines.symmetry import canonical_json_key


@dataclass(frozen=True)
class JsonKeyGame(RedemptionGame):
    """The explorer's Redemption game keyed by the JSON form, as before the symmetry key."""

    def canonical_key(self, state: State) -> Hashable:
        classes = _classes(state.cards)
        if not classes:
            return state
        return canonical_json_key(state.to_json(), classes, UNORDERED_KEYS)


def main() -> None:
    print(f"{'scenario':36} {'states':>7} {'direct s':>9} {'states/s':>9} {'json s':>8} {'states/s':>9} {'speed-up':>8}")
    for scenario in load_scenarios():
        if scenario.game != "redemption":
            continue
        rule_set = scenario.rule_sets[0]
        game = make_game(scenario.game, rule_set)
        root = game.state_from_json(scenario.state)
        if not _classes(root.cards):
            continue
        props = properties_for(scenario.game, version_map(scenario, rule_set))
        bounds = Bounds(max_depth=scenario.max_depth, max_states=scenario.max_states, max_turns=scenario.max_turns)
        figures = []
        for candidate in (game, JsonKeyGame(config=game.config)):
            start = time.perf_counter()
            result = explore(candidate, [root], props, bounds, progress=False)
            figures.append((result.stats.states, time.perf_counter() - start))
        (states, direct), (json_states, by_json) = figures
        assert states == json_states, f"{scenario.name}: {states} states with the direct key, {json_states} with JSON"
        print(f"{scenario.name:36} {states:>7} {direct:>9.2f} {states / direct:>9.0f} {by_json:>8.2f} "
              f"{states / by_json:>9.0f} {by_json / direct:>7.2f}x")


if __name__ == "__main__":
    main()
