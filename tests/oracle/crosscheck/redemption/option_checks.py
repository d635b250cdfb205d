"""What the cross-check tests of the Redemption decision options share: a bounded exploration of a
hand-built position under a rule configuration, and the two cross-checks over it (the rule-level
encodings, :mod:`oracle.crosscheck.redemption.decisions`; the transition-level battle fragment,
:mod:`oracle.crosscheck.redemption.battle`), each asserting agreement."""

from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache
from typing import Iterator

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.state import State
from cardrules.oracle.crosscheck.redemption import battle as bridge
from cardrules.oracle.crosscheck.redemption import decisions as smt_redemption
from cardrules.oracle.crosscheck.redemption.decisions import CrosscheckReport, crosscheck_many
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.redemption.game import RedemptionGame


@lru_cache(maxsize=None)
def explored(start: State, config: RuleConfig, max_turns: int = 1, max_states: int = 20000) -> tuple[State, ...]:
    """Every state reached from ``start`` within ``max_turns`` turns; the exploration must be complete."""
    exploration = explore(RedemptionGame(config), [start], [], Bounds(max_turns=max_turns, max_states=max_states))
    assert not exploration.stats.truncated
    return tuple(exploration.states)


def _shown(report: CrosscheckReport | bridge.CrosscheckReport) -> str:
    return "\n".join(str(d) for d in report.disagreements[:3])


def rule_level_agrees(states: tuple[State, ...], config: RuleConfig, *compared: str) -> CrosscheckReport:
    """The rule-level cross-check over ``states``: no disagreement, nothing out of scope, and each kind of
    comparison in ``compared`` made at least once."""
    report = crosscheck_many(states, config)
    assert not report.disagreements, _shown(report)
    assert report.decisions.get("out-of-scope", 0) == 0 and report.decisions.get("encoding-no-answer", 0) == 0
    for what in compared:
        assert report.decisions.get(what, 0) > 0, what
    return report


def transition_level_agrees(states: tuple[State, ...] | list[State], config: RuleConfig) -> None:
    """The battle fragment's cross-check over the source states among ``states``: every one compared,
    no disagreement."""
    sources = [s for s in states if s.phase in bridge.SOURCE_PHASES]
    report = bridge.crosscheck_many(sources, config)
    assert report.states == len(sources) and not report.disagreements, _shown(report)


@contextmanager
def fresh_solvers() -> Iterator[None]:
    """New solvers before and after the body (a test that patches an encoding or the model)."""
    smt_redemption.clear_caches()
    bridge._checker.cache_clear()
    try:
        yield
    finally:
        smt_redemption.clear_caches()
        bridge._checker.cache_clear()
