"""Heal readings the z3 heal encodings read, each cross-checked with the model over a whole exploration
of a small position under the reading (and the default, where the position is one the default reaches
differently): the encoding, handed the raw positions only, must allow exactly the heals the model offers.

The positions, and what each reading changes in them, are worked out by hand in
``tests/model/redemption/test_heal_readings.py``; here the two encodings must agree on every
position of the exploration.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Iterator

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero, position
from cardrules.model.redemption.state import Effect, Phase, State, Status
from cardrules.oracle.crosscheck.redemption import decisions as smt_redemption
from cardrules.oracle.crosscheck.redemption.decisions import CrosscheckReport, crosscheck_many
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.redemption.game import RedemptionGame
from cardrules.specs.catalogue.rulesets import RuleSet
from cardrules.specs.smt.redemption import heal as smt_heal
from tests.model.redemption.helpers import medic

E = Effect


def _config(heal_version: str, options: tuple[tuple[str, str], ...]) -> RuleConfig:
    return RuleConfig.of(dict(options), heal_version=heal_version)


def _tc_start() -> State:
    """p0's upkeep phase. p0: h 5/5 and t (Territory Class medic 1/1) in territory, hl (good blue heal)
    in hand; p1: e 1/5 in territory, pz (evil poison +4/+0) in hand; h is poisoned already."""
    cards = [hero("h", 0, 5, 5), medic("t", 0, 1, 1, tc=True), evil("e", 1, 1, 5),
             evil_enh("pz", 1, 4, 0, E.POISON), good_enh("hl", 0, ability=E.HEAL)]
    s = position(cards, {0: {"territory": ["h", "t"], "hand": ["hl"]}, 1: {"territory": ["e"], "hand": ["pz"]}}, 2,
                 phase=Phase.UPKEEP)
    return replace(s, statuses=frozenset({("h", Status.POISONED)}))


def _window_start(owner: int) -> State:
    """h 3/3 (printed owner ``owner``, in p0's territory) and e 3/3; p0 holds hl (good blue heal)."""
    cards = [hero("h", owner, 3, 3), evil("e", 1, 3, 3), good_enh("hl", 0, ability=E.HEAL)]
    return position(cards, {0: {"territory": ["h"], "hand": ["hl"]}, 1: {"territory": ["e"]}}, 2)


def _pile_start() -> State:
    """h 1/5 and h2 1/5 (p0), e 1/5 (p1); p0 holds bo (+0/+2) and hl (good blue heal), p1 holds dc (discard)."""
    cards = [hero("h", 0, 1, 5), hero("h2", 0, 1, 5), evil("e", 1, 1, 5), good_enh("bo", 0, 0, 2),
             good_enh("hl", 0, ability=E.HEAL), evil_enh("dc", 1, ability=E.DISCARD)]
    return position(cards, {0: {"territory": ["h", "h2"], "hand": ["bo", "hl"]}, 1: {"territory": ["e"], "hand": ["dc"]}},
                    2, phase=Phase.BATTLE)


def _poison_start() -> State:
    """p0's battle phase: h 5/5 (p0) with hl (good blue heal) in hand; e 1/5 (p1) with pz (poison +4/+0)."""
    cards = [hero("h", 0, 5, 5), evil("e", 1, 1, 5), evil_enh("pz", 1, 4, 0, E.POISON), good_enh("hl", 0, ability=E.HEAL)]
    return position(cards, {0: {"territory": ["h"], "hand": ["hl"]}, 1: {"territory": ["e"], "hand": ["pz"]}}, 2,
                    phase=Phase.BATTLE)


STARTS = {"tc": _tc_start, "window-owner-1": lambda: _window_start(1), "window-owner-0": lambda: _window_start(0),
          "pile": _pile_start, "poison": _poison_start}

CASES = [
    # (start, heal version, options)
    ("tc", "revised", (("heal-tc-when", "any-time-outside-battle"),)),
    ("tc", "previous", (("heal-tc-when", "any-time-outside-battle"),)),
    ("window-owner-1", "previous", (("redline-destination", "both-old"),)),
    ("window-owner-0", "previous", (("redline-destination", "both-old"),)),
    ("window-owner-1", "previous", (("redline-destination", "both-old"), ("redline-window", "unchanged"))),
    ("window-owner-1", "previous", (("prev-healable-pending", "earlier-only"), ("redline-healable", "both-old"))),
    ("window-owner-1", "previous", (("prev-healable-pending", "earlier-only"),)),
    ("pile", "previous", (("redline-enh-phases", "inserted"),)),
    ("tc", "previous", (("redline-enh-phases", "inserted"),)),
    ("poison", "revised", (("heal-enh-placement-scope", "everywhere"),)),
    ("pile", "revised", (("heal-enh-placement-scope", "everywhere"),)),
]


@lru_cache(maxsize=None)
def _states(start: str, heal_version: str, options: tuple[tuple[str, str], ...]) -> tuple[State, ...]:
    config = _config(heal_version, options)
    exploration = explore(RedemptionGame(config), [STARTS[start]()], [], Bounds(max_turns=1, max_states=5000))
    assert not exploration.stats.truncated
    return tuple(exploration.states)


@pytest.fixture
def fresh() -> Iterator[None]:
    """Solvers built afresh for the test and dropped after it (a test may build them from a patched encoding)."""
    smt_redemption.clear_caches()
    yield
    smt_redemption.clear_caches()


@pytest.mark.clause("RED-HEAL-CHARACTER-TC", "RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER",
                    "RED-HEAL-PREV-HEALABLE", "RED-HEAL-ENH-PHASES", "RED-HEAL-PREV-ENH-TWO-WAYS",
                    "RED-HEAL-ENH-ON-MATCHING-BRIGADE", "RED-HEAL-AT-RESOLUTION")
@pytest.mark.parametrize(("start", "heal_version", "options"), CASES,
                         ids=[f"{s}-{v}-{','.join(f'{d}={o}' for d, o in opts)}" for s, v, opts in CASES])
def test_crosscheck_agrees_over_the_exploration(start: str, heal_version: str,
                                                options: tuple[tuple[str, str], ...]) -> None:
    report: CrosscheckReport = crosscheck_many(_states(start, heal_version, options), _config(heal_version, options))
    assert not report.disagreements, "\n".join(str(d) for d in report.disagreements[:3])
    assert report.decisions.get("out-of-scope", 0) == 0 and report.decisions.get("encoding-no-answer", 0) == 0
    assert report.decisions.get("heal-uses", 0) > 0


def _offered(start: str, heal_version: str, options: tuple[tuple[str, str], ...]) -> int:
    report = crosscheck_many(_states(start, heal_version, options), _config(heal_version, options))
    return report.decisions.get("heal-offered", 0)


@pytest.mark.clause("RED-HEAL-CHARACTER-TC", "RED-HEAL-ENH-PHASES", "RED-HEAL-PREV-HEALABLE")
def test_the_readings_take_more_heals_than_the_default() -> None:
    """The compared explorations reach the heals the readings add: a Territory Class heal outside the
    enhancement phases, a pile heal in the battle phase, a pending discard healed without the old
    clarification (each more heals offered than under the default on the same start)."""
    assert _offered("tc", "revised", (("heal-tc-when", "any-time-outside-battle"),)) > _offered("tc", "revised", ())
    assert _offered("pile", "previous", (("redline-enh-phases", "inserted"),)) > _offered("pile", "previous", ())
    both = (("prev-healable-pending", "earlier-only"), ("redline-healable", "both-old"))
    assert _offered("window-owner-1", "previous", both) > \
        _offered("window-owner-1", "previous", (("prev-healable-pending", "earlier-only"),))


@pytest.mark.clause("RED-HEAL-CHARACTER-TC")
def test_an_encoding_ignoring_heal_tc_when_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """The encoding reading only the enhancement moments while the model runs any-time-outside-battle
    disagrees on the Territory Class heals of the upkeep phase."""
    from cardrules.specs.smt.redemption import heal_use

    real = heal_use.USE_RULES["RED-HEAL-CHARACTER-TC"]
    monkeypatch.setitem(heal_use.USE_RULES, "RED-HEAL-CHARACTER-TC",
                        lambda v, u, rs: real(v, u, RuleSet(versions=rs.versions)))
    options = (("heal-tc-when", "any-time-outside-battle"),)
    report = crosscheck_many(_states("tc", "revised", options), _config("revised", options))
    assert any(d.what == "heal-allowed" and "with t" in d.action for d in report.disagreements)


@pytest.mark.clause("RED-HEAL-PREV-HEALABLE")
def test_an_encoding_ignoring_redline_healable_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """The encoding leaving a pending discard unhealable (earlier-only, as if redline-healable were
    being-new) disagrees with the model healing h in its Battle Resolution window."""
    monkeypatch.setattr(smt_heal, "_recently_discarded",
                        lambda v, pending_counts=True: smt_heal.z3.And(v.cause != smt_heal.FROM_HAND_OR_DECK,
                                                                       v.place == smt_heal.DISCARD_PILE, v.this_turn))
    options = (("prev-healable-pending", "earlier-only"), ("redline-healable", "both-old"))
    report = crosscheck_many(_states("window-owner-1", "previous", options), _config("previous", options))
    assert any(d.what == "heal-allowed" and "heal h with hl" in d.action for d in report.disagreements)


@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER", "RED-HEAL-PREV-TO-OWNER")
def test_a_model_ignoring_the_destination_clash_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """Both destination sentences in force, owner p1 and permanent controller p0: a model still offering
    the heal in h's Battle Resolution window disagrees with the encoding, whose clauses allow no outcome."""
    from cardrules.model.redemption import heal as model_heal

    monkeypatch.setattr(model_heal, "destinations_clash", lambda state, card, config: False)
    options = (("redline-destination", "both-old"),)
    states = explore(RedemptionGame(_config("previous", options)), [_window_start(1)], [],
                     Bounds(max_turns=1, max_states=5000)).states
    report = crosscheck_many(states, _config("previous", options))
    assert any(d.what == "heal-allowed" and d.action == "heal h with hl (player 0)" for d in report.disagreements)


@pytest.mark.clause("RED-HEAL-ENH-ON-MATCHING-BRIGADE")
def test_a_model_ignoring_the_placement_scope_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    """Placement sentence everywhere: a model still letting hl heal the poisoned fighter h in battle
    disagrees with the encoding."""
    from cardrules.model.redemption import heal as model_heal

    real = model_heal.enhancement_targets_in_battle
    monkeypatch.setattr(model_heal, "enhancement_targets_in_battle", lambda state, config: real(state, RuleConfig()))
    options = (("heal-enh-placement-scope", "everywhere"),)
    states = explore(RedemptionGame(_config("revised", options)), [_poison_start()], [],
                     Bounds(max_turns=1, max_states=5000)).states
    report = crosscheck_many(states, _config("revised", options))
    assert any(d.what == "heal-allowed" and "hl" in d.action for d in report.disagreements)
