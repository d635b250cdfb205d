"""Side battle readings the model selects and the side battle encoding reads, each cross-checked over a
whole exploration of a hand-built position under the option, and shown to catch a model that ignores it.

``sb-different-player``: p0's h 1/5 attacks, p1's e 1/5 blocks (stalemate, p0 has initiative); p0 holds
sb and may select h (p0's, in battle) with k 1/5 (p1's Hero in p1's territory): one character of each
battling player. Under anyone-else each keeps their own (case 2); under outsiders-only no case fixes the
sides and p0 assigns them.

``red-base-paralyzed-selected``: the same battle, with p1's Evil Character f 1/5, paralyzed, in p1's
territory instead of k: e with f is a pair of one alignment, selectable only under may-be-selected.

``sb-negate-resolution``: the same battle, p1 keeping e1 1/1 and e2 4/4 in its territory and holding ng (a
negate, evil); p0 may start a side battle of e1 against e2 (case 3, p0 assigns the sides), in which e1 is
defeated, and once the main battle resumes p1 may negate sb: the resolution (e1 discarded) stands under
keep-resolution and is undone (e1 back in p1's territory) under undo-all.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import pytest
import z3

from cardrules.model.redemption import side_battle
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero, position
from cardrules.model.redemption.state import Effect, State, Status
from cardrules.oracle.crosscheck.redemption.decisions import crosscheck_many
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.redemption.game import RedemptionGame
from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force
from cardrules.specs.smt.redemption import side_battle_clauses as sb_clauses
from cardrules.specs.smt.redemption import side_battle_vars as sb

from .option_checks import fresh_solvers, rule_level_agrees

DIFFERENT = ("anyone-else", "outsiders-only")


def _config(decision: str, option: str) -> RuleConfig:
    return RuleConfig.of({decision: option})


def _one_of_each_start() -> State:
    cards = [hero("h", 0, 1, 5), hero("k", 1, 1, 5), evil("e", 1, 1, 5), good_enh("sb", 0, ability=Effect.SIDE_BATTLE)]
    return position(cards, {0: {"territory": ["h"], "hand": ["sb"]}, 1: {"territory": ["e", "k"]}}, 2)


def _paralyzed_start() -> State:
    cards = [hero("h", 0, 1, 5), evil("f", 1, 1, 5), evil("e", 1, 1, 5), good_enh("sb", 0, ability=Effect.SIDE_BATTLE)]
    base = position(cards, {0: {"territory": ["h"], "hand": ["sb"]}, 1: {"territory": ["e", "f"]}}, 2)
    return replace(base, statuses=frozenset({("f", Status.PARALYZED)}))


def _negated_start() -> State:
    cards = [hero("h", 0, 1, 5), evil("e", 1, 1, 5), evil("e1", 1, 1, 1), evil("e2", 1, 4, 4),
             good_enh("sb", 0, ability=Effect.SIDE_BATTLE), evil_enh("ng", 1, ability=Effect.NEGATE)]
    return position(cards, {0: {"territory": ["h"], "hand": ["sb"]}, 1: {"territory": ["e", "e1", "e2"], "hand": ["ng"]}}, 2)


STARTS = {"sb-different-player": _one_of_each_start, "red-base-paralyzed-selected": _paralyzed_start,
          "sb-negate-resolution": _negated_start}


def _states_fresh(decision: str, option: str) -> tuple[State, ...]:
    """The whole one-turn exploration under the model as it is now (a test may have patched the model)."""
    config = _config(decision, option)
    exploration = explore(RedemptionGame(config), [STARTS[decision]()], [], Bounds(max_turns=1, max_states=5000))
    assert not exploration.stats.truncated
    return tuple(exploration.states)


_states = lru_cache(maxsize=None)(_states_fresh)
"""The same exploration, kept: for tests that run the model unpatched."""


@pytest.mark.clause("RED-SB-CONTROL-ONE-INSIDER")
@pytest.mark.parametrize("option", DIFFERENT)
def test_the_situation_reads_who_assigns_one_of_each(option: str) -> None:
    """x is p0's (in the paused battle), y is p1's (territory), p0 uses the ability: under anyone-else case 2
    fixes x on p0's side and y on p1's with nobody choosing; under outsiders-only the user (p0) chooses
    and either arrangement is allowed."""
    rule_set = RuleSet(decisions={"sb-different-player": option})
    situation = sb_clauses.started_side_battle_situation(rule_set)
    v = sb.SBVars.make()
    solver = z3.Solver()
    solver.add(situation.background, situation.domain,
               *[situation.constraints[c].formula for c in (*clauses_in_force("side-battle", rule_set), *sb.BASE_CLAUSES)])
    solver.add(v.players == 2, v.p0 == 0, v.p1 == 1, v.user == 0, v.count == 0, v.ctrl_x == 0, v.ctrl_y == 1,
               v.zone_x == sb.PAUSED_BATTLE, v.zone_y == sb.TERRITORY, v.hero_x, v.hero_y)
    found = set()
    while solver.check() == z3.sat:
        m = solver.model()
        got = tuple(m.eval(x, model_completion=True).as_long() for x in (v.side_x, v.side_y, v.chooser))
        found.add(got)
        solver.add(z3.Or(v.side_x != got[0], v.side_y != got[1], v.chooser != got[2]))
    assert found == ({(0, 1, -1)} if option == "anyone-else" else {(0, 1, 0), (1, 0, 0)})


@pytest.mark.clause("RED-SB-CONTROL-ONE-INSIDER", "RED-SB-SIDES-BATTLE-PLAYERS")
@pytest.mark.parametrize("option", DIFFERENT)
def test_different_player_crosscheck_agrees_over_the_exploration(option: str) -> None:
    report = rule_level_agrees(_states("sb-different-player", option), _config("sb-different-player", option),
                               "sb-control")
    # the user chooses only in case 1 or 3 (none here: both fighters of one battling player are never
    # selectable with e alone on p1's side and k a Hero), or, under outsiders-only, for h with k
    assert (report.decisions.get("sb-user-choice", 0) > 0) == (option == "outsiders-only")


@pytest.mark.clause("RED-SB-CONTROL-ONE-INSIDER")
def test_a_model_ignoring_outsiders_only_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model reading case 2 as anyone-else while the rule set says outsiders-only disagrees with the
    encoding on who assigns the sides of h against k."""
    with fresh_solvers():
        real = side_battle.catalogue_sides
        monkeypatch.setattr(side_battle, "catalogue_sides",
                            lambda state, x, y, user, config: real(state, x, y, user, DEFAULT))
        report = crosscheck_many(_states("sb-different-player", "outsiders-only"),
                                 _config("sb-different-player", "outsiders-only"))
    assert any(d.what == "sb-control" for d in report.disagreements)


PARALYZED = ("cannot-be-selected", "may-be-selected")


@pytest.mark.clause("RED-BASE-PARALYZED-NO-BATTLE", "RED-SB-TARGET-ZONES")
@pytest.mark.parametrize("option", PARALYZED)
def test_paralyzed_crosscheck_agrees_over_the_exploration(option: str) -> None:
    """Blocked by e (f cannot block, paralyzed), p0 may select e with f only under may-be-selected: the
    model's pairs and z3's agree in every state either way, and the side battle starts only then."""
    report = rule_level_agrees(_states("red-base-paralyzed-selected", option),
                               _config("red-base-paralyzed-selected", option), "sb-pairs")
    assert (report.decisions.get("sb-start", 0) > 0) == (option == "may-be-selected")


@pytest.mark.clause("RED-BASE-PARALYZED-NO-BATTLE")
def test_a_model_ignoring_may_be_selected_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model keeping f out while the rule set says may-be-selected disagrees with the encoding on the pairs."""
    with fresh_solvers():
        real = side_battle.may_be_selected
        monkeypatch.setattr(side_battle, "may_be_selected", lambda state, card_id, config: real(state, card_id, DEFAULT))
        report = crosscheck_many(_states("red-base-paralyzed-selected", "may-be-selected"),
                                 _config("red-base-paralyzed-selected", "may-be-selected"))
    assert any(d.what == "sb-pairs" for d in report.disagreements)


RESOLUTION = ("keep-resolution", "undo-all")


@pytest.mark.clause("RED-SB-NEGATE-CASCADE")
@pytest.mark.parametrize("option", RESOLUTION)
def test_negate_resolution_crosscheck_agrees_over_the_exploration(option: str) -> None:
    """Every negate of sb after its side battle: the encoding's resolution_undone against the step (a
    discarded fighter leaves the pile or not), compared where the step can show it."""
    report = crosscheck_many(_states("sb-negate-resolution", option), _config("sb-negate-resolution", option))
    assert not report.disagreements, "\n".join(str(d) for d in report.disagreements[:3])
    assert report.decisions.get("out-of-scope", 0) == 0 and report.decisions.get("encoding-no-answer", 0) == 0
    assert report.decisions["sb-negate-resolution"] > 0


@pytest.mark.clause("RED-SB-NEGATE-CASCADE")
@pytest.mark.parametrize("option", RESOLUTION)
def test_a_model_ignoring_negate_resolution_is_caught(monkeypatch: pytest.MonkeyPatch, option: str) -> None:
    """The model playing the other reading than the rule set's disagrees with the encoding on the resolution."""
    from cardrules.model.redemption import side_battle_undo

    with fresh_solvers():
        monkeypatch.setattr(side_battle_undo, "undoes_resolution", lambda config: option == "keep-resolution")
        report = crosscheck_many(_states_fresh("sb-negate-resolution", option), _config("sb-negate-resolution", option))
    assert any(d.what == "sb-negate-resolution" for d in report.disagreements)

