"""The compact explorer finds exactly what the explorer found before it.

``explorer_baseline.json`` was recorded by ``tests/properties/engines/explorer_fingerprint.py``
with the explorer as it was before the compact search (commit "Record the
explorer's fingerprints ..."): per embedded scenario and rule set, the
distinct states, transitions, depth, completeness, deadlocks and every
shortest counterexample. After the fidelity review changed three defaults
it was re-recorded the same way, by the plain explorer before the
compact search, on the new model: every fingerprint equals one recorded
before under the rule set now named differently (``heal-previous`` is the old
``previous-without-window``, ``previous-with-window`` the old ``heal-previous``,
``one-source-damage`` the old ``per-member-damage``). The outsider scenario's three rule sets
(``redemption-side-battle-outsider``) were added by the same script; the Redemption
game has no compact codec, so its search is the plain one. Why those counts are right: the explorer's count for
the FFTCG benchmark position is matched exactly by two independent twins, a
Promela model under SPIN and a TLA+ spec under TLC (``benchmarks/side_by_side.py``),
and the counterexamples are the ones the verify runs have reported and the
mutant tests expect. These tests check behaviour a user sees: ``cardrules
verify`` reports the same sizes and the same counterexample narratives.

This checks the search's exactness, not a rule clause, so it carries no clause marker.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cardrules.model.fftcg.validate import load_state
from cardrules.properties.games import properties_for
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.fftcg.game import FftcgGame
from cardrules.properties.scenarios import load_scenarios
from tests.properties.engines.explorer_fingerprint import cases, fingerprint

pytestmark = pytest.mark.infrastructure("the explorer's compact storage: same counts, depths and counterexamples")

BASELINE = json.loads((Path(__file__).parent / "explorer_baseline.json").read_text())
CASES = cases()


def test_the_baseline_covers_every_embedded_scenario_and_rule_set() -> None:
    assert sorted(label for label, *_ in CASES) == sorted(BASELINE)


@pytest.mark.parametrize("label,scenario,rule_set,mutant", CASES, ids=[c[0] for c in CASES])
def test_same_states_transitions_and_counterexamples_as_before(label: str, scenario: Any, rule_set: Any,
                                                               mutant: bool) -> None:
    assert fingerprint(scenario, rule_set, mutant) == BASELINE[label]


@dataclass(frozen=True)
class PlainFftcg(FftcgGame):
    """The FFTCG adapter without the compact codec or the unchecked successor: the plain search."""

    def __getattribute__(self, name: str) -> Any:
        if name in ("codec", "successor"):
            raise AttributeError(name)
        return super().__getattribute__(name)


@pytest.mark.parametrize("name", ["fftcg-identical-forwards", "fftcg-party-basics"])
def test_packed_states_unpack_to_the_states_a_plain_search_stores(name: str) -> None:
    scenario = next(s for s in load_scenarios() if s.name == name)
    root = load_state(scenario.state)
    bounds = Bounds(max_turns=scenario.max_turns, max_depth=scenario.max_depth, max_states=scenario.max_states)
    props = properties_for("fftcg")
    compact = explore(FftcgGame(), [root], props, bounds, progress=False)
    plain = explore(PlainFftcg(), [root], props, bounds, progress=False)
    assert not hasattr(PlainFftcg(), "codec")
    assert list(compact.states) == list(plain.states)
    assert list(compact.parent) == list(plain.parent)
    assert list(compact.depth) == list(plain.depth)
    assert compact.via == plain.via
    assert compact.violations.keys() == plain.violations.keys()


def test_the_packed_table_numbers_keys_in_order_and_finds_them_after_growing() -> None:
    """The explorer's visited set: every distinct key gets the next index, a key seen again its first
    one, across the table's growths (5,000 keys in a table that starts with 1,024 slots)."""
    from cardrules.properties.engines.compact import PackedTable, StoredPacked

    table = PackedTable()
    keys = [n.to_bytes(8, "little") for n in range(5000)]
    assert [table.add(k) for k in keys] == [(n, True) for n in range(5000)]
    assert [table.add(k) for k in reversed(keys)] == [(n, False) for n in reversed(range(5000))]
    assert len(table) == 5000 and table.find(keys[4321]) == 4321 and table.find((9999).to_bytes(8, "little")) == -1
    stored = StoredPacked(table, {7: b"apart"})
    assert stored[3] == keys[3] and stored[7] == b"apart" and stored[-1] == keys[-1] and stored[1:3] == keys[1:3]
    with pytest.raises(ValueError, match="4 bytes in a table of 8-byte keys"):
        table.add(b"1234")
    with pytest.raises(IndexError):
        stored[5000]
