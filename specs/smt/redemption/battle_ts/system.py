"""The Redemption battle-fragment transition system: :class:`specs.smt.transition.TransitionSystem`
over this encoding's vocabulary and actions.

``T(t, t+1)`` is the disjunction of the actions of :mod:`.actions` (see
:mod:`specs.smt.transition`). Card data is constant (the :class:`~.vocabulary.Layout`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import z3

from cardrules.specs.smt import transition
from cardrules.specs.smt.redemption.battle_ts import actions as smt_actions
from cardrules.specs.smt.redemption.battle_ts.actions import ActionEncoding, Ctx
from cardrules.specs.smt.redemption.battle_ts.variants import DEFAULT, Variants
from cardrules.specs.smt.redemption.battle_ts.vocabulary import ActionVars, Frame, Layout, Vocabulary, domain

Init = Callable[[Frame], z3.BoolRef]


@dataclass
class TransitionSystem(transition.TransitionSystem[Ctx]):
    """``init(s0)`` and the actions of one layout under one variant."""

    layout: Layout
    init: Init
    variants: Variants = DEFAULT
    vocabulary: Vocabulary = field(init=False)

    def __post_init__(self) -> None:
        self.vocabulary = Vocabulary(self.layout)

    def at(self, t: int) -> Frame:
        return self.vocabulary.at(t)

    def action_at(self, t: int) -> ActionVars:
        return self.vocabulary.action_at(t)

    def ctx(self, t: int) -> Ctx:
        return Ctx(self.layout, self.at(t), self.action_at(t), self.at(t + 1), self.variants)

    def action_makers(self) -> Sequence[Callable[[Ctx], ActionEncoding]]:
        """Read through the module, so that a test may replace one."""
        return smt_actions.ACTIONS

    def initial(self) -> z3.BoolRef:
        """``domain(s0) & init(s0)``."""
        return z3.And(domain(self.layout, self.at(0)), self.init(self.at(0)))
