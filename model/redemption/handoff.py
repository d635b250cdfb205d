"""What a rule area hands back to the dispatcher (layer 2 of the model).

A rule area (layer 3) never imports another area. Where one area's rule
goes on in another area, the area returns its state together with a
:class:`Then` marker, and the dispatcher (:mod:`model.redemption.engine`)
carries the marker out in the area that owns it. Where an area needs an
answer that only the dispatcher can give (the target options of any card,
carrying out any effect), the dispatcher passes its own function in, typed
by :data:`TargetOptions` and :data:`ApplyEffect`.
"""

from __future__ import annotations

import enum
from typing import Callable

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.state import PlayRecord, State


class Then(enum.Enum):
    """What the dispatcher does next with a state an area handed back."""

    DONE = "done"
    """Nothing: the state is ready for the next decision."""
    RESOLVE = "resolve"
    """Battle Resolution of the active battle begins (RED-BR-ORDER)."""
    NEXT_HEAL_WINDOW = "next-heal-window"
    """Battle Resolution step 4 goes on with the next heal window (RED-BR-HEAL-WINDOW)."""


Handed = tuple[State, Then]
"""A state and what the dispatcher does with it next."""

TargetOptions = Callable[[State, int, str, RuleConfig], tuple[tuple[str, ...], ...]]
"""``(state, player, card_id, config)``: every legal target tuple for the card's ability."""

ApplyEffect = Callable[[State, PlayRecord, RuleConfig], State]
"""``(state, record, config)``: carry out a discard, status or decrease effect."""
