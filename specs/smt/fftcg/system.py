"""The FFTCG transition system: :class:`specs.smt.transition.TransitionSystem` over this
encoding's vocabulary and actions.

``T(t, t+1)`` is the disjunction of the actions of :mod:`.actions` (see
:mod:`specs.smt.transition`). Rigid card attributes are shared by every frame and
constrained by :func:`vocabulary.cards_domain`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import z3

from cardrules.specs.smt import transition
from cardrules.specs.smt.fftcg.actions import PRIORITY_ACTIONS, ActionEncoding, Ctx
from cardrules.specs.smt.fftcg.variants import DEFAULT, Variants
from cardrules.specs.smt.fftcg.vocabulary import ActionVars, Cards, Frame, Layout, Vocabulary, cards_domain

Init = Callable[[Cards, Frame], z3.BoolRef]


@dataclass
class TransitionSystem(transition.TransitionSystem[Ctx]):
    """``init(c, s0)`` and the actions of one layout under one variant."""

    layout: Layout
    init: Init
    variants: Variants = DEFAULT
    vocabulary: Vocabulary = field(init=False)
    cards: Cards = field(init=False)
    frame_facts: dict[tuple[str, int], z3.BoolRef] = field(init=False, default_factory=dict, repr=False)
    """Formulas over one frame that do not depend on the property checked (``domain``, ``settled``),
    by name and frame, built once (the bounded checks of several properties ask for the same)."""

    def __post_init__(self) -> None:
        self.vocabulary = Vocabulary(self.layout)
        self.cards = self.vocabulary.cards()

    def at(self, t: int) -> Frame:
        return self.vocabulary.at(t)

    def action_at(self, t: int) -> ActionVars:
        return self.vocabulary.action_at(t)

    def ctx(self, t: int) -> Ctx:
        return Ctx(self.layout, self.cards, self.at(t), self.action_at(t), self.at(t + 1), self.variants)

    def action_makers(self) -> Sequence[Callable[[Ctx], ActionEncoding]]:
        return PRIORITY_ACTIONS

    def rigid(self) -> z3.BoolRef:
        """``cards_domain(c)``: the ranges of the rigid card attributes."""
        return cards_domain(self.layout, self.cards)

    def initial(self) -> z3.BoolRef:
        """``cards_domain(c) & init(c, s0)``."""
        return z3.And(self.rigid(), self.init(self.cards, self.at(0)))
