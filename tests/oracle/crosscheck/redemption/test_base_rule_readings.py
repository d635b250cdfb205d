"""Base-rule decisions under their alternatives: red-base-first-initiative (attacker), red-base-unblocked
(play-continues), red-base-pass-ends (both-pass), red-base-battles-per-turn (many) and
red-base-enhancement-timing (any-time).

The transition-level z3 encoding of the battle fragment reads all five (who counts as having played
last when a battle opens; whether ``noblock`` resolves at once; whether a pass ends play or hands it to
the other battling player; whether another main battle may follow the first; whether the turn's player
may put an enhancement on a character outside battle, which then goes into battle with it): it and the
model agree over whole explorations of the battle tests' four positions, and an encoding left at the
default reading is caught. The rule-level encodings do not encode the base rules: initiative, blocking,
the end of play, a second battle and a placed enhancement reach them only through the positions played,
and they agree with the model over explorations under each alternative.
"""

from __future__ import annotations

from typing import Callable

import pytest

from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.scenario import evil, good_enh, hero, position, soul
from cardrules.model.redemption.state import Effect, Mission, State
from cardrules.oracle.crosscheck.redemption import battle as bridge

from .battle.helpers import ROOTS, reachable, root_draws, root_rescue, sources
from .option_checks import explored, fresh_solvers, rule_level_agrees, transition_level_agrees

ATTACKER = RuleConfig.of({"red-base-first-initiative": "attacker"})
CONTINUES = RuleConfig.of({"red-base-unblocked": "play-continues"})
BOTH_PASS = RuleConfig.of({"red-base-pass-ends": "both-pass"})
MANY = RuleConfig.of({"red-base-battles-per-turn": "many"})
ANY_TIME = RuleConfig.of({"red-base-enhancement-timing": "any-time"})
READ_BY_THE_BATTLE_ENCODING = pytest.mark.parametrize(
    "config", [ATTACKER, CONTINUES, BOTH_PASS, MANY, ANY_TIME],
    ids=["attacker", "play-continues", "both-pass", "many", "any-time"])


@pytest.mark.clause("RED-BASE-INITIATIVE", "RED-BASE-BLOCKING", "RED-BASE-MUTUAL-STALEMATE", "RED-BR-FOUR-OUTCOMES")
@READ_BY_THE_BATTLE_ENCODING
@pytest.mark.parametrize("root", ROOTS, ids=lambda r: r.__name__)
def test_transition_level_crosscheck_agrees(root: Callable[[], State], config: RuleConfig) -> None:
    transition_level_agrees(reachable(root(), config, turns=1), config)


@pytest.mark.clause("RED-BASE-INITIATIVE", "RED-BASE-BLOCKING")
@pytest.mark.parametrize("config", [ATTACKER, CONTINUES, BOTH_PASS], ids=["attacker", "play-continues", "both-pass"])
def test_an_encoding_left_at_the_default_reading_is_caught(monkeypatch: pytest.MonkeyPatch, config: RuleConfig) -> None:
    """root_draws: after the block h1 2/2 and e1 2/2 stand at mutual destruction, and the encoding left
    at battle-opener gives p0 initiative where the model, under attacker, gives it to p1; the 0-toughness
    h0 unblocked is resolved at once by the encoding left at hero-wins-at-once, while the model under
    play-continues asks p0 to play; a first pass resolves the battle in the encoding left at one-pass,
    while the model under both-pass asks the other player. Each time the successors differ."""
    with fresh_solvers():
        monkeypatch.setattr(bridge, "variants_of", lambda config: bridge.Variants())
        report = bridge.crosscheck_many(sources(reachable(root_draws(), config, turns=1)), config)
        assert {d.what for d in report.disagreements} == {"successor"}


def _side_battle_start() -> State:
    """p0's h 1/5 attacks, p1's e 5/6 blocks (h defeated, p1 winning: p0 has initiative under every
    reading); p0 may play sb on h to pit j 1/5 (hand) against k 1/5 (territory), a stalemate that opens
    with initiative, and g (1/0) on any of its characters."""
    cards = [hero("h", 0, 1, 5), hero("k", 0, 1, 5), evil("e", 1, 5, 6), good_enh("sb", 0, ability=Effect.SIDE_BATTLE),
             good_enh("g", 0, 1, 0), hero("j", 0, 1, 5)]
    return position(cards, {0: {"territory": ["h", "k"], "hand": ["sb", "g", "j"]}, 1: {"territory": ["e"]}}, 2)


def _unblocked_start() -> State:
    """h 1/0 attacks p1 (s1 in bondage, no character to block with); p0 holds g 0/1."""
    cards = [hero("h", 0, 1, 0), good_enh("g", 0, 0, 1), soul("s1", 1)]
    return position(cards, {0: {"territory": ["h"], "hand": ["g"]}, 1: {"bondage": ["s1"]}}, 2)


@pytest.mark.clause("RED-BASE-INITIATIVE")
def test_both_pass_enlarges_the_exploration() -> None:
    """Every default play is still there (a pass answered by a pass ends play as one pass did), and the
    player answering a pass may play: more states, some with a pass pending."""
    both = explored(_side_battle_start(), BOTH_PASS)
    assert len(both) > len(explored(_side_battle_start(), DEFAULT)) and any(s.passed for s in both)


@pytest.mark.clause("RED-BASE-BLOCKING", "RED-BR-RESCUE-SUCCESS")
@pytest.mark.parametrize(("config", "rescued"), [(DEFAULT, False), (CONTINUES, True)],
                         ids=["hero-wins-at-once", "play-continues"])
def test_unblocked_readings_part_in_the_exploration(config: RuleConfig, rescued: bool) -> None:
    """Unblocked, h 1/0 is defeated by nothing (0 >= 0): resolved at once, the rescue fails; only when
    play continues can g make h 1/1 and the rescue succeed."""
    assert any(s.last_mission is Mission.SUCCESS for s in explored(_unblocked_start(), config)) is rescued


@pytest.mark.clause("RED-BASE-INITIATIVE", "RED-SB-SUSPEND", "RED-SB-RESUME")
@pytest.mark.parametrize("config", [ATTACKER, BOTH_PASS], ids=["attacker", "both-pass"])
def test_rule_level_crosscheck_agrees_with_side_battles(config: RuleConfig) -> None:
    rule_level_agrees(explored(_side_battle_start(), config), config, "br-resolution", "sb-return")


@pytest.mark.clause("RED-BASE-BLOCKING", "RED-BR-FOUR-OUTCOMES", "RED-BR-MISSION-RESULT")
def test_rule_level_crosscheck_agrees_on_play_against_an_empty_side() -> None:
    rule_level_agrees(explored(_unblocked_start(), CONTINUES), CONTINUES, "br-resolution")


@pytest.mark.clause("RED-BASE-TURN-PHASES", "RED-BASE-RESCUE-OR-CHALLENGE")
def test_an_encoding_left_at_one_battle_a_turn_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """root_rescue under many: after the first battle ends short of the fifth soul, the model lets h1
    attack again while an encoding left at one battle a turn refuses it: a legality disagreement."""
    with fresh_solvers():
        monkeypatch.setattr(bridge, "variants_of", lambda config: bridge.Variants())
        report = bridge.crosscheck_many(sources(reachable(root_rescue(), MANY, turns=1)), MANY)
        assert {d.what for d in report.disagreements} == {"legality"}
        assert {d.action for d in report.disagreements} == {"attack 1 h1"}


@pytest.mark.clause("RED-BASE-ENHANCEMENTS")
def test_an_encoding_left_at_enhancements_in_battle_only_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """root_rescue under any-time: before attacking, p0 may put g1 on h1 in its territory; an encoding
    left at in-battle-own-character refuses that play: legality disagreements on it."""
    with fresh_solvers():
        monkeypatch.setattr(bridge, "variants_of", lambda config: bridge.Variants())
        report = bridge.crosscheck_many(sources(reachable(root_rescue(), ANY_TIME, turns=1)), ANY_TIME)
        assert {(d.what, d.action) for d in report.disagreements} == {("legality", "play g1 on h1")}


@pytest.mark.clause("RED-BASE-ENHANCEMENTS", "RED-BASE-RESCUE-OR-CHALLENGE")
def test_an_encoding_that_leaves_placed_enhancements_behind_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """root_rescue under any-time: g1 (2/0) put on h1 (3/3) goes into battle with it; an encoding whose
    attack leaves g1 in the territory disagrees on the state after the attack."""
    from cardrules.specs.smt.redemption.battle_ts import actions as smt_actions

    def stays_behind(L, s, pick, side):  # type: ignore[no-untyped-def]
        n = range(L.n)
        return s.with_(loc=tuple(smt_actions.z3.If(pick[i], smt_actions.FIGHTER, s.loc[i]) for i in n),
                       side=tuple(smt_actions.z3.If(pick[i], side, s.side[i]) for i in n))

    with fresh_solvers():
        monkeypatch.setattr(smt_actions, "_enter_battle", stays_behind)
        report = bridge.crosscheck_many(sources(reachable(root_rescue(), ANY_TIME, turns=1)), ANY_TIME)
        assert ("successor", "attack 1 h1") in {(d.what, d.action) for d in report.disagreements}


def _redirect_then_battle_again() -> State:
    """p0's h 2/3 against p1's e 3/5, p0 holding rn (a numbers redirect stating 2/0): under many, after
    rn turns the first battle into a stalemate, h may attack again in the same phase with e still 1/5."""
    cards = [hero("h", 0, 2, 3), evil("e", 1, 3, 5),
             good_enh("rn", 0, ability=Effect.REDIRECT_NUMBERS, stated_amount=(2, 0))]
    return position(cards, {0: {"territory": ["h"], "hand": ["rn"]}, 1: {"territory": ["e"]}}, 2)


def _placeable_start() -> State:
    """p0's h 1/0 and g 0/1 (placeable outside battle under any-time) and y 1/0; p1's e 1/1 and the Lost
    Soul s1."""
    cards = [hero("h", 0, 1, 0), good_enh("g", 0, 0, 1), good_enh("y", 0, 1, 0), evil("e", 1, 1, 1), soul("s1", 1)]
    return position(cards, {0: {"territory": ["h"], "hand": ["g", "y"]}, 1: {"territory": ["e"], "bondage": ["s1"]}}, 2)


@pytest.mark.clause("RED-RD-UNTIL-END-OF-PHASE", "RED-RD-NUMBERS-IN-BATTLE-ONLY", "RED-BASE-TURN-PHASES")
def test_rule_level_crosscheck_agrees_on_a_redirect_in_a_second_battle() -> None:
    """The redirect encoding sees the redirect of the first battle in force in the second one."""
    rule_level_agrees(explored(_redirect_then_battle_again(), MANY), MANY, "rd-expiry", "rd-lapse", "br-resolution")


@pytest.mark.clause("RED-BASE-ENHANCEMENTS", "RED-BR-FOUR-OUTCOMES")
def test_rule_level_crosscheck_agrees_with_enhancements_placed_outside_battle() -> None:
    states = explored(_placeable_start(), ANY_TIME)
    assert any(s.placed for s in states)
    rule_level_agrees(states, ANY_TIME, "br-resolution", "br-soul")
