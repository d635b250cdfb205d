"""The executable model and the transition-level z3 encoding of the battle fragment agree: the
same set of legal actions in every state, and for each action the same, unique, successor.

States: every state of breadth-first explorations (properties.engines.explore) from four hand-built
positions, two turns deep for the default reading and one turn deep for each Battle Resolution
variant the model implements. Deliberately broken encodings are caught.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import replace
from typing import Callable, Iterator

import pytest
import z3

from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.engine import legal_actions
from cardrules.model.redemption.state import State
from cardrules.oracle.crosscheck.redemption import battle as bridge
from cardrules.oracle.crosscheck.redemption.battle import crosscheck_many
from cardrules.specs.smt.budget import Budget
from cardrules.specs.smt.redemption.battle_ts import actions as smt_actions
from cardrules.specs.smt.redemption.battle_ts import rules as smt_rules
from cardrules.specs.smt.redemption.battle_ts.vocabulary import CHARACTER, ENHANCEMENT, FIGHTER, Layout

from .helpers import ROOTS, reachable, root_challenge, root_draws, root_rescue, root_two_heroes, sources

ALL_CLAUSES = (
    "RED-BASE-TURN-PHASES", "RED-BASE-CHARACTERS", "RED-BASE-ENHANCEMENTS", "RED-BASE-RESCUE-OR-CHALLENGE",
    "RED-BASE-BLOCKING", "RED-BASE-HERO-VS-EVIL", "RED-BASE-DEFEAT", "RED-BASE-MUTUAL-STALEMATE",
    "RED-BASE-INITIATIVE", "RED-BASE-WIN-FIVE-SOULS", "RED-BR-FOUR-OUTCOMES", "RED-BR-MISSION-RESULT",
    "RED-BR-ORDER", "RED-BR-STEP1-OUTCOME", "RED-BR-CHALLENGE-RESULT", "RED-BR-RESCUE-SUCCESS", "RED-BR-RESCUE-FAIL",
    "RED-BR-STEP3-END-ABILITIES", "RED-BR-UNAFFECTED-NORMAL", "RED-BR-STEP4-DISCARD-RETURN",
    "RED-BR-RETURN-PERMANENT-CONTROLLER", "RED-BR-HEAL-WINDOW", "RED-HEAL-AT-RESOLUTION", "RED-HEAL-WINDOW",
)
VARIANTS: tuple[tuple[str, str], ...] = (
    ("br-challenge-success", "challenger-not-beaten"),
    ("br-discard-which", "losing-side-only"),
    ("br-heal-window-player", "permanent-controller"),
)


@pytest.fixture
def fresh_checkers() -> Iterator[None]:
    """Solvers are cached per layout and variant; a test that patches the encoding needs new ones."""
    bridge._checker.cache_clear()
    yield
    bridge._checker.cache_clear()


def _report(report: bridge.CrosscheckReport) -> str:
    return "\n".join(str(d) for d in report.disagreements[:3])


def _check(root: Callable[[], State], config: RuleConfig, turns: int = 1) -> bridge.CrosscheckReport:
    """Cross-check every state reachable from ``root`` within ``turns`` turns."""
    states = sources(reachable(root(), config, turns))
    report = crosscheck_many(states, config)
    assert report.states == len(states) and report.actions >= report.states
    return report


@pytest.mark.clause(*ALL_CLAUSES)
@pytest.mark.parametrize("root", ROOTS, ids=lambda r: r.__name__)
def test_exhaustive_default(root: Callable[[], State]) -> None:
    """Two turns: the turn player's battle, then the other player's turn (draw, upkeep,
    preparation with characters put into play, their battle, discard)."""
    report = _check(root, DEFAULT, turns=2)
    assert not report.disagreements, _report(report)


@pytest.mark.clause(*ALL_CLAUSES)
@pytest.mark.parametrize("root", ROOTS, ids=lambda r: r.__name__)
@pytest.mark.parametrize(("decision", "option"), VARIANTS, ids=[f"{d}={o}" for d, o in VARIANTS])
def test_exhaustive_variants(root: Callable[[], State], decision: str, option: str) -> None:
    report = _check(root, RuleConfig.of({decision: option}))
    assert not report.disagreements, _report(report)


@pytest.mark.clause("RED-BR-CHALLENGE-RESULT", "RED-BR-STEP4-DISCARD-RETURN")
@pytest.mark.parametrize(("root", "decision", "option"), [
    (root_challenge, "br-challenge-success", "challenger-not-beaten"),
    (root_draws, "br-discard-which", "losing-side-only"),
])
def test_variants_matter(monkeypatch: pytest.MonkeyPatch, fresh_checkers: None, root: Callable[[], State],
                         decision: str, option: str) -> None:
    """The positions distinguish the variants: the encoding left at the default reading disagrees
    with the model run under the variant."""
    monkeypatch.setattr(bridge, "variants_of", lambda config: bridge.Variants())
    report = _check(root, RuleConfig.of({decision: option}))
    assert report.disagreements
    assert {d.what for d in report.disagreements} == {"successor"}


# --- broken encodings are caught ------------------------------------------------------------------


@pytest.mark.clause("RED-BASE-INITIATIVE")
def test_initiative_to_the_winning_side_is_caught(monkeypatch: pytest.MonkeyPatch, fresh_checkers: None) -> None:
    original = smt_rules.initiative

    def to_winner(L: Layout, s: smt_rules.Frame, v: smt_rules.Variants) -> z3.ArithRef:
        holder = original(L, s, v)
        return z3.If(holder == s.active, s.defender, s.active)  # type: ignore[return-value]

    monkeypatch.setattr(smt_rules, "initiative", to_winner)
    report = _check(root_two_heroes, DEFAULT)
    assert any(d.what == "successor" and "RED-BASE-INITIATIVE" in d.clause_ids for d in report.disagreements)


@pytest.mark.clause("RED-BASE-ENHANCEMENTS")
def test_enhancement_of_the_wrong_brigade_is_caught(monkeypatch: pytest.MonkeyPatch, fresh_checkers: None) -> None:
    """Alignment checked, brigade forgotten: g4 (purple) on h1 (blue) becomes legal for the encoding."""
    def alignment_only(self: Layout, e: int, c: int) -> bool:
        enh, char = self.cards[e], self.cards[c]
        return enh.type == ENHANCEMENT and char.type == CHARACTER and enh.good == char.good

    monkeypatch.setattr(Layout, "matches", alignment_only)
    report = _check(root_two_heroes, DEFAULT)
    wrong = [d for d in report.disagreements if d.what == "legality"]
    assert wrong and all(d.smt is True and d.model is False for d in wrong)
    assert any(d.action.startswith("play g4 on") or d.action.startswith("play x2 on") for d in wrong)


@pytest.mark.clause("RED-BASE-WIN-FIVE-SOULS", "RED-BR-RESCUE-SUCCESS")
def test_dropped_frame_condition_is_caught(monkeypatch: pytest.MonkeyPatch, fresh_checkers: None) -> None:
    """Without ``winner' = winner`` in the frame condition the successor is no longer unique."""
    original = smt_actions.unchanged
    monkeypatch.setattr(smt_actions, "unchanged", lambda s, s2, changed: original(s, s2, changed | {"winner"}))
    report = _check(root_rescue, DEFAULT)
    assert any(d.what == "uniqueness" for d in report.disagreements)


@pytest.mark.clause("RED-BR-RETURN-PERMANENT-CONTROLLER")
def test_survivors_to_the_owner_is_caught(monkeypatch: pytest.MonkeyPatch, fresh_checkers: None) -> None:
    """Survivors sent to their owner's territory instead of their permanent controller's. Caught
    only where the two differ: the challenge position with h1 owned by player 0 but in player 1's
    territory (permanent control: player 1)."""
    original = smt_rules.finish

    def to_owner(L: Layout, s: smt_rules.Frame) -> smt_rules.Frame:
        after = original(L, s)
        zp = tuple(z3.If(s.loc[i] == FIGHTER, L.cards[i].owner, after.zp[i]) for i in range(L.n))
        return after.with_(zp=zp)

    monkeypatch.setattr(smt_rules, "finish", to_owner)
    root = root_challenge()
    cards = tuple(replace(c, owner=0) if c.id == "h1" else c for c in root.cards)
    state = replace(root, cards=cards)
    report = crosscheck_many(sources(reachable(state, DEFAULT, turns=1)), DEFAULT)
    assert any(d.what == "successor" for d in report.disagreements)


@pytest.mark.infrastructure("the cross-check's machinery: independence, scope, unknown verdicts, the command line")
def test_encoding_does_not_import_the_model() -> None:
    """Independence: loading the whole battle encoding loads no ``model.*`` module."""
    code = ("import sys, cardrules.specs.smt.redemption.battle_ts.system, cardrules.specs.smt.redemption.battle_ts.actions; "
            "print(sorted(m for m in sys.modules if m == 'cardrules.model' or m.startswith('cardrules.model.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.infrastructure("the cross-check's machinery: independence, scope, unknown verdicts, the command line")
@pytest.mark.parametrize("decisions", [{"sb-restriction-scope": "card-unplayable"}, {"redline-window": "unchanged"},
                                       {"red-base-interrupt-reactivation": "never"}])
def test_unread_variants_are_out_of_scope(decisions: dict[str, str]) -> None:
    """A variant the battle encoding does not read is refused, never run as the default reading."""
    with pytest.raises(bridge.OutOfScope, match="does not read"):
        bridge.variants_of(RuleConfig.of(decisions))
    with pytest.raises(bridge.OutOfScope, match="does not read"):
        crosscheck_many(sources(reachable(root_rescue(), DEFAULT, turns=1))[:1], RuleConfig.of(decisions))


@pytest.mark.clause("RED-SB-ONCE-PER-TURN")
def test_a_broken_variant_the_encoding_does_not_implement_is_out_of_scope() -> None:
    """verify's broken variant of the side battle limit is not in the battle encoding: refused, never
    compared as the sound rule."""
    config = RuleConfig.of({}, broken=["two-side-battles-per-turn"])
    with pytest.raises(bridge.OutOfScope, match="does not implement broken variant 'two-side-battles-per-turn'"):
        bridge.variants_of(config)


@pytest.mark.clause("RED-HEAL-WINDOW", "RED-HEAL-AT-RESOLUTION")
def test_heal_wording_does_not_matter_in_the_fragment() -> None:
    """The heal wording version is the one configuration input the encoding ignores (see
    ``variants_of``): under the previous wording the model agrees with it too."""
    config = RuleConfig(heal_version="previous")
    assert bridge.variants_of(config) == bridge.variants_of(DEFAULT)
    report = _check(root_draws, config)
    assert not report.disagreements, _report(report)


@pytest.mark.infrastructure("the cross-check's machinery: independence, scope, unknown verdicts, the command line")
def test_solver_unknown_is_an_error() -> None:
    """A z3 ``unknown`` (here a tiny rlimit spent) raises, never passes as 'no more actions/successors'
    nor as 'in scope'."""
    state = sources(reachable(root_rescue(), DEFAULT, turns=1))[0]
    layout, variants = bridge.layout_of(state), bridge.variants_of(DEFAULT)
    with pytest.raises(bridge.SolverUnknown, match="resource limit"):
        bridge._Checker(layout, variants, Budget(rlimit=1)).facts(state)
    checker = bridge._Checker(layout, variants, Budget())
    with checker.fixed(state):
        for solver in (checker.guards, checker.trans):
            Budget(rlimit=1).apply(solver)
        with pytest.raises(bridge.SolverUnknown):
            checker.legal_actions()
        with pytest.raises(bridge.SolverUnknown):
            checker.successors(legal_actions(state)[0], state, 2)


@pytest.mark.infrastructure("the cross-check's machinery: independence, scope, unknown verdicts, the command line")
def test_tiny_rlimit_is_unknown_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI reports a spent rlimit as unknown (exit 4), never as agreement."""
    from cardrules.oracle.cli import main

    code = main(["smt", "crosscheck", "--game", "redemption", "--scenario", "redemption-plain-battle", "--states", "3",
                 "--rlimit", "1"])
    out = capsys.readouterr().out
    assert code == 4
    assert "UNKNOWN" in out


@pytest.mark.infrastructure("the cross-check's machinery: independence, scope, unknown verdicts, the command line")
def test_cli_crosscheck_redemption_runs_both_levels(capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules.oracle.cli import main

    assert main(["smt", "crosscheck", "--game", "redemption", "--scenario", "redemption-plain-battle",
                 "--states", "60"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"redemption-plain-battle / default \(first 60 states \(--states\)\): rule decisions: "
                     r"60 states, [\d,]+ compared .*, 0 disagreement\(s\)", out), out
    assert re.search(r"legal actions and successors \(battle fragment\): 60 states, [\d,]+ compared .*, "
                     r"0 disagreement\(s\)", out), out
