"""The contracts of the FFTCG extension points' answers that need more than a range.

A proposal's function answers an extension point (:mod:`cardrules.model.extension`); the oracle checks
every answer against the point's :class:`~cardrules.model.extension.Returns`, and the model checks the
answer it is about to use the same way. ``blocker-split-unit`` asks for the step in which a blocker's
power is divided among a party (FF-PARTY-SPLIT-THOUSANDS); any positive whole step is a rule a
committee may propose, as long as the model can list the splits it allows: at most
:data:`~cardrules.model.fftcg.state.MAX_SPLITS` of them, the bound the model's input checks keep.
"""

from __future__ import annotations

import math
from typing import Any

from cardrules.model.extension import Returns, describe
from cardrules.model.fftcg.state import MAX_SPLITS, Attack, State


def split_count(power: int, members: int, unit: int) -> int:
    """How many ways at most a blocker of ``power`` divides its damage among ``members`` in steps of
    ``unit``: the ordered ways to write the divisible part as ``members`` shares, times ``members``
    when a remainder is left (``party-blocker-power-remainder = remainder-to-one`` gives it to one)."""
    power = max(power, 0)
    members = max(members, 1)
    return math.comb(power // unit + members - 1, members - 1) * (members if power % unit else 1)


SPLIT_STEP_TEXT = f"a positive int at which the blocker's power divides in at most {MAX_SPLITS:,} ways"
"""The contract of ``blocker-split-unit`` in words."""


def split_step_problem(value: object, arguments: tuple[Any, ...]) -> str | None:
    """What is wrong with ``value`` as an answer of ``blocker-split-unit`` given ``(state, attack)``:
    not a positive int (a bool is not one), or a step so fine that the blocker's power would divide
    among the attack's members in more than :data:`MAX_SPLITS` ways; None if nothing."""
    if type(value) is not int or value < 1:
        return f"returned {describe(value)}; expected {SPLIT_STEP_TEXT}"
    state, attack = arguments
    if not isinstance(state, State) or not isinstance(attack, Attack) or attack.blocker is None:
        return None
    blocker = state.locate(attack.blocker)
    if blocker is None:
        return None
    power = blocker[1].power
    count = split_count(power, len(attack.attackers), value)
    if count > MAX_SPLITS:
        return (f"returned {value}, at which a blocker of power {power} divides among {len(attack.attackers)} "
                f"members in {count:.3g} ways; expected {SPLIT_STEP_TEXT}")
    return None


SPLIT_STEP = Returns(SPLIT_STEP_TEXT, split_step_problem)
"""The contract of the ``blocker-split-unit`` extension point."""
