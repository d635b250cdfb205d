"""Macro steps: steps of the model an engine may merge into the action before them.

The reference model makes a player pass through some steps one action at a time (the
FFTCG model's separate ``pass`` through each part of Damage Resolution, FF-BASE-ATTACK-STEPS).
An engine that resolves such a step as part of the action before it declares the step's
name in ``macro_steps`` of its hello; the runner then does not send a vector's merged
actions and compares states and legal actions only at the next point that is not merged.

Each :class:`MacroStep` says which actions it merges: an action (its first word) taken
while the position before it is in one of the named steps of the game's full state form.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable


@dataclass(frozen=True)
class MacroStep:
    """A step an engine may merge: ``action`` taken while the full state's ``step`` is one of ``steps``."""

    name: str
    game: str
    title: str
    steps: tuple[str, ...]
    action: str
    clauses: tuple[str, ...]

    def merges(self, game: str, before: Any, action: str) -> bool:
        """Whether this macro step merges ``action`` taken from the full JSON state ``before``."""
        return (game == self.game and isinstance(before, dict) and before.get("step") in self.steps
                and action.split(" ", 1)[0] == self.action)


MACRO_STEPS: dict[str, MacroStep] = {m.name: m for m in (
    MacroStep("fftcg:damage-resolution", "fftcg",
              "passing through Damage Resolution (its Pre-emptive Strike part and its ordinary part) once the "
              "damage is dealt: the model's 'pass' in either part",
              ("damage-preemptive", "damage-resolution"), "pass", ("FF-BASE-ATTACK-STEPS", "FF-BASE-PREEMPTIVE")),
    MacroStep("fftcg:combat-end", "fftcg",
              "passing through the Combat End Step: the model's 'pass' there",
              ("combat-end",), "pass", ("FF-BASE-ATTACK-STEPS",)),
)}
"""Every macro step an engine may declare, by name (``game:step``)."""


def merged(game: str, declared: Iterable[str], before: Any, action: str) -> bool:
    """Whether an engine that declared the macro steps ``declared`` merges ``action`` taken from ``before``."""
    return any(MACRO_STEPS[name].merges(game, before, action) for name in declared if name in MACRO_STEPS)


def inside(game: str, declared: Iterable[str], state: Any) -> str | None:
    """The declared macro step whose steps hold the full JSON ``state`` (a point the engine passes through
    without stopping, so it has no position there to compare or refuse an action at), or ``None``."""
    for name in sorted(declared):
        macro = MACRO_STEPS.get(name)
        if macro is not None and macro.game == game and isinstance(state, dict) and state.get("step") in macro.steps:
            return name
    return None
