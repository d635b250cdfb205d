"""Bounded model checking and k-induction of an FFTCG state property, with z3.

The algorithms are :func:`specs.smt.transition.bmc` and :func:`specs.smt.transition.k_induction`
(one incremental solver each, assumption literals); this module supplies the property at
time ``t``: ``P(t) = prop.holds(s@t)`` and, for k-induction,
``Q(t) = P(t) & S(t) & domain(s@t) & settled(s@t)`` (``S`` the property's strengthening).

Results are one of :class:`Verdict`: ``PROVED`` (k-induction), ``HOLDS_TO_DEPTH``
(no violation within ``k`` steps), ``VIOLATED`` (with the z3 model of the
trace) or ``UNKNOWN`` (with z3's reason); an unknown (the budget of
:mod:`specs.smt.budget` spent) is never reported as a pass.
"""

from __future__ import annotations

import z3

from cardrules.specs.smt import transition
from cardrules.specs.smt.budget import DEFAULT, Budget
from cardrules.specs.smt.fftcg.properties import StateProperty
from cardrules.specs.smt.fftcg.rules import settled
from cardrules.specs.smt.fftcg.system import TransitionSystem
from cardrules.specs.smt.fftcg.vocabulary import domain
from cardrules.specs.smt.transition import SmtResult, Verdict

__all__ = ["SmtResult", "Verdict", "bmc", "k_induction"]


def _p(ts: TransitionSystem, prop: StateProperty, t: int) -> z3.BoolRef:
    """``P(t) = prop.holds(c, s@t)``."""
    return prop.holds(ts.layout, ts.cards, ts.at(t))


def _q(ts: TransitionSystem, prop: StateProperty, t: int) -> z3.BoolRef:
    """``Q(t) = P(t) & S(t) & domain(s@t) & settled(s@t)``."""
    s = ts.at(t)
    facts = ts.frame_facts
    in_domain = facts.get(("domain", t))
    if in_domain is None:
        in_domain = facts[("domain", t)] = domain(ts.layout, s)
    is_settled = facts.get(("settled", t))
    if is_settled is None:
        is_settled = facts[("settled", t)] = settled(ts.layout, ts.cards, s)
    return z3.And(prop.holds(ts.layout, ts.cards, s), prop.strengthening(ts.layout, ts.cards, s), in_domain, is_settled)


def bmc(ts: TransitionSystem, prop: StateProperty, k: int, budget: Budget = DEFAULT) -> SmtResult:
    """``P`` at every depth ``0..k`` from ``I``; the first (shallowest) violation is returned."""
    return transition.bmc(ts, lambda t: _p(ts, prop, t), k, budget)


def k_induction(ts: TransitionSystem, prop: StateProperty, max_k: int, budget: Budget = DEFAULT) -> SmtResult:
    """Prove ``P`` (strengthened to ``Q``) for every depth with k-induction, ``k <= max_k``."""
    return transition.k_induction(ts, lambda t: _p(ts, prop, t), lambda t: _q(ts, prop, t), max_k, budget, prop.name)
