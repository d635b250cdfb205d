"""What the formats tests check against: every scenario and targeted position explored under each of its
rule sets (bounded), with the action texts and the refusals met on the way. Shared by the
``test_formats_*`` modules (computed once per process)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from cardrules.model.errors import IllegalAction
from cardrules.oracle.conformance.schema import load_suite
from cardrules.oracle.conformance.targeted import load_positions
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.games import make_game
from cardrules.properties.scenarios import load_scenarios

pytestmark = pytest.mark.infrastructure("the conformance formats for implementers")

STATES_PER_GRAPH = 400
"""States explored per scenario and rule set (as many as the generator explores)."""
TRIES_PER_STATE = 4
"""Actions legal elsewhere in a graph tried at each of its states (sampled, seeded)."""


@dataclass
class Explored:
    """One game's explored positions: state JSONs, action texts met, refusals raised (reason, clauses)."""

    states: list[dict[str, Any]] = field(default_factory=list)
    actions: set[str] = field(default_factory=set)
    refusals: dict[tuple[str, tuple[str, ...]], str] = field(default_factory=dict)
    """(reason, clause IDs) -> the action refused."""
    graphs: int = 0


@lru_cache(maxsize=None)
def explored(game_name: str) -> Explored:
    """Every scenario and targeted position of the game, under each rule set it names."""
    out = Explored()
    rng = random.Random(0)
    for scenario in [*load_scenarios(), *load_positions()]:
        if scenario.game != game_name:
            continue
        for rule_set in scenario.rule_sets:
            game = make_game(scenario.game, rule_set)
            bounds = Bounds(max_states=min(STATES_PER_GRAPH, scenario.max_states or STATES_PER_GRAPH),
                            max_turns=scenario.max_turns)
            graph = explore(game, [game.state_from_json(scenario.state)], [], bounds, keep_edges=True, progress=False)
            out.graphs += 1
            texts = sorted({game.action_text(a) for s in graph.states if not game.is_terminal(s)
                            for a in game.legal_actions(s)})
            out.actions.update(texts)
            for state in graph.states:
                out.states.append(game.state_to_json(state))
                for text in rng.sample(texts, min(TRIES_PER_STATE, len(texts))):
                    try:
                        game.step(state, game.action_from_text(text))
                    except IllegalAction as refused:
                        out.refusals.setdefault((refused.reason, tuple(refused.clause_ids)), text)
    return out


def generated_suites(folder: Path) -> list[dict[str, Any]]:
    """Every suite written in ``folder`` (the session's small generated suites), loaded and validated."""
    return [load_suite(path) for path in sorted(folder.glob("*.json")) if path.name != "manifest.json"]


@pytest.mark.parametrize("game", ["fftcg", "redemption"])
def test_the_explorations_reach_play_refusals_and_a_finished_game(game: str) -> None:
    found = explored(game)
    assert found.graphs >= 5
    assert len(found.states) > 500 and len(found.actions) > 30 and len(found.refusals) >= 8
    over = "outcome" if game == "fftcg" else "winner"
    assert any(s[over] is not None for s in found.states), "no explored state where the game is over"
