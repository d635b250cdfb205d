"""The faster paths ``cardrules verify`` takes give the answers of the plain ones.

Each speed-up is checked against the path it replaces, computed independently here:

- the explorer with its states kept as objects (``compact=False``, as verify explores) finds the
  fingerprints recorded in ``explorer_baseline.json`` before any of these speed-ups existed (the
  same states, transitions, depth and shortest counterexamples);
- the Redemption symmetry key, which remembers frozen parts by identity, gives each state the key it
  gets with those memories emptied first;
- the FFTCG symmetry key's shortcut (a state whose players need no renaming) gives a key that
  renaming and sorting leave unchanged, and the key of a key is itself.

This checks the search's exactness, not a rule clause, so it carries no clause marker.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardrules.properties.engines import symmetry
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.fftcg import game as fftcg_game
from cardrules.properties.games import make_game, properties_for, version_map
from cardrules.properties.scenarios import load_scenarios
from tests.properties.engines.explorer_fingerprint import cases, fingerprint

pytestmark = pytest.mark.infrastructure("speed-ups of verify's explorer: the same states and keys as the plain paths")

BASELINE = json.loads((Path(__file__).parent / "explorer_baseline.json").read_text())
CHOSEN = ("fftcg-identical-forwards/default", "fftcg-party-basics/default", "fftcg-party-basics/split-in-hundreds",
          "redemption-heal-windows-taken/heal-previous", "redemption-side-battles-3p/default")


@pytest.mark.parametrize("label,scenario,rule_set,mutant", [c for c in cases() if c[0] in CHOSEN],
                         ids=lambda v: v if isinstance(v, str) else "")
def test_states_kept_as_objects_give_the_recorded_fingerprints(label: str, scenario: Any, rule_set: Any,
                                                               mutant: bool) -> None:
    assert fingerprint(scenario, rule_set, mutant, compact=False) == BASELINE[label]


def _explored(name: str, limit: int = 3000) -> tuple[Any, list[Any]]:
    scenario = next(s for s in load_scenarios() if s.name == name)
    rule_set = scenario.rule_sets[0]
    game = make_game(scenario.game, rule_set)
    result = explore(game, [game.state_from_json(scenario.state)], properties_for(scenario.game,
                     version_map(scenario, rule_set)), Bounds(max_states=limit, max_turns=scenario.max_turns),
                     progress=False, compact=False)
    return game, list(result.states)


def test_the_redemption_key_is_the_same_with_its_memories_emptied() -> None:
    game, states = _explored("redemption-heal-windows-taken")
    warm = [game.canonical_key(s) for s in states]
    cold = []
    for state in states:
        symmetry._FROZEN.clear()
        symmetry._FROZEN_BY_VALUE.clear()
        symmetry._RENAMED.clear()
        cold.append(game.canonical_key(state))
    assert warm == cold
    assert len(set(warm)) == len(states)  # the explorer stored one state per key


def test_the_fftcg_key_is_left_as_it_is_by_renaming_and_sorting() -> None:
    game, states = _explored("fftcg-identical-forwards")
    keys = [game.canonical_key(s) for s in states]
    assert all(fftcg_game._rename(key, {}) is key for key in keys)  # zones and attack lists in id order
    assert all(game.canonical_key(key) == key for key in keys)
    assert len(set(keys)) == len(states)
    assert sum(key is state for key, state in zip(keys, states)) < len(states)  # renaming did happen
