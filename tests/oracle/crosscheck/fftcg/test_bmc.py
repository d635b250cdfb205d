"""Bounded model checking and k-induction on the z3 encoding, from model positions.

Properties that hold are checked to a depth and proved by k-induction (over every
card attributes, the Forwards being fixed); properties that do not hold yield a
counterexample that is decoded and replayed on the executable model; z3 giving up
is reported as unknown.
"""

from __future__ import annotations

import re

import pytest

from cardrules.model.fftcg.actions import Split
from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.state import State
from cardrules.oracle.crosscheck.fftcg import bmc_from_state
from cardrules.specs.smt.budget import Budget
from cardrules.specs.smt.fftcg.bmc import Verdict

from .helpers import fw, position, root_party


def start() -> State:
    """Player 0: a1 (Fire 5000), a2 (Fire 3000); player 1: b1 (Water 4000)."""
    return position([fw("a1", power=5000), fw("a2", power=3000)], [fw("b1", "water", 4000)])


@pytest.mark.clause("FF-PARTY-MIN-TWO", "FF-PARTY-DISBAND-UNDER-TWO")
def test_party_min_two_holds_to_depth() -> None:
    result = bmc_from_state(start(), "party-min-two", 8)
    assert (result.verdict, result.depth) == (Verdict.HOLDS_TO_DEPTH, 8)


@pytest.mark.clause("FF-PARTY-MIN-TWO", "FF-PARTY-DISBAND-UNDER-TWO", "FF-PARTY-LEAVE-FIELD")
@pytest.mark.parametrize("config", [RuleConfig(), RuleConfig.of({"party-last-member": "removed-from-combat"}),
                                    RuleConfig.of({"party-disband-timing": "after-damage-resolution"})],
                         ids=["default", "removed-from-combat", "after-damage-resolution"])
def test_party_min_two_proved(config: RuleConfig) -> None:
    result = bmc_from_state(root_party(), "party-min-two", 4, config, induction=True)
    assert (result.verdict, result.depth) == (Verdict.PROVED, 1)


@pytest.mark.clause("FF-PARTY-LEAVE-FIELD")
def test_attackers_on_field_proved() -> None:
    assert bmc_from_state(root_party(), "party-members-on-field", 4, induction=True).verdict is Verdict.PROVED


@pytest.mark.clause("FF-BASE-SEVEN-DAMAGE-LOSES", "FF-PARTY-UNBLOCKED-ONE")
def test_damage_at_most_seven_proved() -> None:
    result = bmc_from_state(root_party(), "damage-at-most-seven", 4, induction=True)
    assert result.verdict is Verdict.PROVED
    assert bmc_from_state(root_party(), "damage-at-most-seven", 7).verdict is Verdict.HOLDS_TO_DEPTH


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")
@pytest.mark.parametrize("config", [RuleConfig(), RuleConfig.of({"party-blocker-power-remainder": "remainder-to-one"})],
                         ids=["default", "remainder-to-one"])
def test_damage_in_thousands_proved(config: RuleConfig) -> None:
    assert bmc_from_state(start(), "damage-in-thousands", 4, config, induction=True).verdict is Verdict.PROVED


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")
def test_split_in_hundreds_counterexample_replays() -> None:
    """Under the broken variant party-split-in-hundreds (a mutant) a party member ends up with damage
    that is no multiple of 1000: attack a1 a2, pass, block b1, pass, split (a share in hundreds)."""
    config = RuleConfig.of(broken=["party-split-in-hundreds"])
    result = bmc_from_state(start(), "damage-in-thousands", 6, config)
    assert (result.verdict, result.depth) == (Verdict.VIOLATED, 5)
    actions = [a for a, _ in result.trace[1:]]
    assert [str(a) for a in actions[:4]] == ["attack a1 a2", "pass", "block b1", "pass"]
    assert isinstance(actions[4], Split) and any(amount % 1000 for _, amount in actions[4].shares)
    assert result.replay_problems == ()
    # k-induction finds it too, in its base case
    assert bmc_from_state(start(), "damage-in-thousands", 6, config, induction=True).verdict is Verdict.VIOLATED


@pytest.mark.clause("FF-BASE-UNBLOCKED-DAMAGE")
def test_made_up_property_counterexample_replays() -> None:
    result = bmc_from_state(start(), "player1-undamaged", 8)
    assert (result.verdict, result.depth) == (Verdict.VIOLATED, 5)
    actions = [str(a) for a, _ in result.trace[1:]]
    # a Forward (or a party: FF-PARTY-UNBLOCKED-ONE, also 1 damage) attacks, is not blocked, and deals
    # 1 damage to player 1 in damage resolution; which one is z3's choice (it varies with the context's
    # earlier terms), so the test does not fix it
    assert actions[0].startswith("attack ")
    assert actions[1:] == ["pass", "noblock", "pass", "pass"]
    assert result.trace[-1][1].players[1].damage == 1
    assert result.replay_problems == ()


@pytest.mark.clause("FF-PARTY-MIN-TWO")
@pytest.mark.parametrize("induction", [False, True])
def test_unknown_is_reported_as_unknown(induction: bool) -> None:
    result = bmc_from_state(start(), "party-min-two", 6, induction=induction, budget=Budget(rlimit=2000))
    assert result.verdict is Verdict.UNKNOWN
    assert result.reason


@pytest.mark.infrastructure("the SMT commands' exit codes")
def test_cli_crosscheck_and_bmc_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules.oracle.cli import main

    assert main(["smt", "crosscheck", "--scenario", "fftcg-party-basics", "--states", "40"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"fftcg-party-basics / default \(first 40 states \(--states\)\): legal actions and successors: "
                     r"40 states, [\d,]+ compared .*, 0 disagreement\(s\)", out), out
    # the made-up property: player 1 (no damage yet) is dealt 1 by an unblocked attack: attack, pass,
    # no block, pass, pass (damage resolution) is 5 steps
    code = main(["smt", "bmc", "--property", "player1-undamaged", "--scenario", "fftcg-preemptive-blocker-survives",
                 "--depth", "5"])
    out = capsys.readouterr().out
    assert code == 1 and "violated (depth 5)" in out and "replay on the model: reproduced" in out
    # a broken variant (verify's mutant) is no decision option
    assert main(["smt", "bmc", "--property", "damage-in-thousands", "--scenario", "fftcg-preemptive-and-restrictions",
                 "--decision", "party-split-unit=hundreds", "--depth", "5"]) == 3
    assert "rejects as no reading of the text" in capsys.readouterr().err
    assert main(["smt", "bmc", "--property", "party-min-two", "--induction", "--depth", "2",
                 "--scenario", "fftcg-party-basics"]) == 0
    assert "party-min-two: proved" in capsys.readouterr().out
    assert main(["smt", "bmc", "--property", "nope"]) == 3


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")
def test_the_arithmetic_solver_of_the_bounded_checks_changes_no_verdict() -> None:
    from cardrules.oracle.crosscheck.fftcg import bmc_budget
    from cardrules.specs.smt.budget import BMC_ARITH_SOLVER

    # the bounded checks ask with z3's older arithmetic solver unless the budget names one
    assert bmc_budget(Budget()).arith_solver == BMC_ARITH_SOLVER == 2
    assert bmc_budget(Budget(arith_solver=6)).arith_solver == 6
    # shares in thousands of a power in thousands: damage stays in thousands, proved with either
    # solver (6: z3's default one); in hundreds, a share of 100 breaks it within 6 steps with either
    hundreds = RuleConfig.of({}, broken=("party-split-in-hundreds",))
    for arith in (6, 2):
        budget = Budget(arith_solver=arith)
        assert bmc_from_state(start(), "damage-in-thousands", 4, induction=True, budget=budget).verdict \
            is Verdict.PROVED
        violated = bmc_from_state(start(), "damage-in-thousands", 6, hundreds, budget=budget)
        assert violated.verdict is Verdict.VIOLATED and violated.replay_problems == ()
        assert isinstance(violated.trace[-1][0], Split)
