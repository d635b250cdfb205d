"""Several k-inductions on one transition system (``verify``'s z3 engine) decide as each alone does.

``bmc_session`` builds the transition system from a start once and checks every property on it;
``bmc_from_state`` builds it afresh for one check in a context of its own. Verdicts and depths
must agree property by property.
"""

from __future__ import annotations

import pytest

from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.validate import load_state
from cardrules.oracle.crosscheck.fftcg import bmc_from_state, bmc_session, smt_properties
from cardrules.properties.scenarios import load_scenarios
from cardrules.specs.smt.budget import Budget
from cardrules.specs.smt.fftcg.bmc import Verdict

pytestmark = pytest.mark.infrastructure("one z3 transition system shared by several checks: the same verdicts")

BUDGET = Budget(rlimit=60_000_000)


def test_a_shared_transition_system_gives_each_propertys_own_verdict() -> None:
    scenario = next(s for s in load_scenarios() if s.name == "fftcg-blocker-of-5500")
    start = load_state(scenario.state)
    hundreds = RuleConfig.of({}, broken=("party-split-in-hundreds",))
    names = [name for name, prop in smt_properties().items() if prop.must_hold]
    with bmc_session(start, hundreds, BUDGET) as session:
        shared = [session.check(name, 2, induction=True) for name in names]
    alone = [bmc_from_state(start, name, 2, hundreds, induction=True, budget=BUDGET) for name in names]
    assert [(r.verdict, r.depth) for r in shared] == [(r.verdict, r.depth) for r in alone]
    # the party rules hold for good; shares in hundreds are not proved within k = 2
    verdicts = dict(zip(names, (r.verdict for r in shared)))
    assert verdicts["party-min-two"] is Verdict.PROVED
    assert verdicts["damage-in-thousands"] is not Verdict.PROVED
