"""Symbolic checks of the encoding itself, over every well-typed settled state of a
2 + 2 Forward layout (every card attribute symbolic): each action has at most one
successor (no variable is left unconstrained: every frame condition is there)."""

from __future__ import annotations

import pytest
import z3

from cardrules.specs.smt.fftcg.rules import settled
from cardrules.specs.smt.fftcg.system import TransitionSystem
from cardrules.specs.smt.fftcg.variants import Variants
from cardrules.specs.smt.fftcg.vocabulary import Layout, Vocabulary, cards_domain, domain


@pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-PARTY-SPLIT-THOUSANDS", "FF-PARTY-LEAVE-FIELD")
@pytest.mark.parametrize("choices", [{}, {"party-last-member": "removed-from-combat"},
                                     {"party-disband-timing": "after-damage-resolution"},
                                     {"ff-removal-windows": "not-in-declaration"},
                                     {"ff-attack-no-attacker-left": "redeclare"}],
                         ids=["default", "removed-from-combat", "after-damage-resolution", "not-in-declaration",
                              "redeclare"])
def test_transition_is_deterministic(choices: dict[str, str]) -> None:
    """``domain(s) & settled(s) & T(s, a, s1) & T(s, a, s2) & s1 != s2`` is unsat."""
    L = Layout.of(["a1", "a2"], ["b1", "b2"])
    ts = TransitionSystem(L, lambda c, s: z3.BoolVal(True), Variants.of(choices))
    s0, s1 = ts.at(0), ts.at(1)
    other = Vocabulary(L, prefix="other.").at(1)
    renamed = z3.substitute(ts.trans(0), *zip(s1.all(), other.all()))
    solver = z3.Solver()
    solver.set(rlimit=400_000_000)
    solver.add(cards_domain(L, ts.cards), domain(L, s0), settled(L, ts.cards, s0), ts.trans(0), renamed,
               z3.Or(*[x != y for x, y in zip(s1.all(), other.all())]))
    assert solver.check() == z3.unsat


@pytest.mark.clause("FF-PARTY-MIN-TWO")
def test_encoding_does_not_import_the_model() -> None:
    """Independence: loading the whole encoding loads no ``model.*`` module."""
    import subprocess
    import sys

    code = ("import sys, cardrules.specs.smt.fftcg.bmc, cardrules.specs.smt.fftcg.properties; "
            "print(sorted(m for m in sys.modules if m == 'cardrules.model' or m.startswith('cardrules.model.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
