"""The transition system ``(init, trans)`` of one bounded configuration and variant.

``trans(t)`` is the relation between frames ``t`` and ``t+1``::

    T(t, t+1) = OR_K (kind@t = K & params_K & OR_cases (guard & updates & UNCHANGED))

over the actions of :mod:`.actions`; ``unroll(k) = T(0,1) & T(1,2) & ... & T(k-1,k)``.
Rigid card attributes are shared by every frame and constrained by
:func:`vocabulary.cards_domain`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import z3

from cardrules.specs.smt.fftcg.actions import ACTIONS, ActionEncoding, Ctx
from cardrules.specs.smt.fftcg.variants import DEFAULT, Variants
from cardrules.specs.smt.fftcg.vocabulary import ActionVars, Cards, Frame, Layout, Vocabulary, cards_domain

Init = Callable[[Cards, Frame], z3.BoolRef]


@dataclass
class TransitionSystem:
    """``init(c, s0)`` and the actions of one layout under one variant."""

    layout: Layout
    init: Init
    variants: Variants = DEFAULT
    vocabulary: Vocabulary = field(init=False)
    cards: Cards = field(init=False)
    _trans: dict[int, z3.BoolRef] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.vocabulary = Vocabulary(self.layout)
        self.cards = self.vocabulary.cards()

    def at(self, t: int) -> Frame:
        return self.vocabulary.at(t)

    def action_at(self, t: int) -> ActionVars:
        return self.vocabulary.action_at(t)

    def ctx(self, t: int) -> Ctx:
        return Ctx(self.layout, self.cards, self.at(t), self.action_at(t), self.at(t + 1), self.variants)

    def actions(self, t: int) -> tuple[ActionEncoding, ...]:
        """The action encodings of the step from frame ``t``."""
        ctx = self.ctx(t)
        return tuple(make(ctx) for make in ACTIONS)

    def initial(self) -> z3.BoolRef:
        """``cards_domain(c) & init(c, s0)``."""
        return z3.And(cards_domain(self.layout, self.cards), self.init(self.cards, self.at(0)))

    def enabled(self, t: int) -> z3.BoolRef:
        """``OR_K enabled_K``: the action variables at ``t`` name a legal action."""
        a = self.action_at(t)
        return z3.Or(*[e.enabled(a) for e in self.actions(t)])

    def trans(self, t: int) -> z3.BoolRef:
        """``T(t, t+1)`` (built once per ``t``)."""
        if t not in self._trans:
            ctx = self.ctx(t)
            self._trans[t] = z3.Or(*[e.relation(ctx) for e in self.actions(t)])
        return self._trans[t]

    def unroll(self, k: int) -> z3.BoolRef:
        """``T(0,1) & ... & T(k-1,k)`` (true for ``k = 0``)."""
        return z3.And(*[self.trans(t) for t in range(k)]) if k else z3.BoolVal(True)
