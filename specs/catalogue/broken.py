"""Broken variants: rules broken on purpose, which ``cardrules verify`` must catch.

A broken variant is no reading of the rules text (those are the catalogue's
decision options): it is a deliberately wrong rule, kept so that the checks
can be shown to catch one. Scenarios name broken variants in their
``mutants`` (``"broken": [ID]``, with the properties each must be caught
violating); a rule set, ``--decision`` or a proposal cannot select one. The
catalogue records each as a rejected alternative of the decision it breaks.

Both encodings implement each variant on their own, from this list of names
(catalogue data, like :mod:`cardrules.specs.catalogue.rulesets`): the model's rule
configurations and the z3 encodings' variants refuse a name they do not
implement, so the cross-check can compare the two under a broken variant
too, and never runs the sound rule in place of a broken one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping


@dataclass(frozen=True, slots=True)
class BrokenVariant:
    """One rule broken on purpose."""

    id: str
    game: str
    clause_ids: tuple[str, ...]
    """The clauses it breaks."""
    breaks: str
    """What it does instead, in words."""


BROKEN_VARIANTS: Mapping[str, BrokenVariant] = {
    v.id: v for v in (
        BrokenVariant("two-side-battles-per-turn", "redemption", ("RED-SB-ONCE-PER-TURN",),
                      "Each player may initiate two side battles per turn, where the seed allows one "
                      "(formerly the straw-man option sb-per-turn-limit = two)."),
        BrokenVariant("interrupted-side-battle-starts", "redemption", ("RED-BASE-INTERRUPT", "RED-SB-SUSPEND"),
                      "A side battle ability interrupted before its side battle starts starts it all the same, "
                      "where an interrupt undoes an ability and leaves it pending."),
        BrokenVariant("interrupted-heal-stays", "redemption", ("RED-BASE-INTERRUPT",),
                      "An interrupted heal ability is not taken back: its target stays healed while the heal "
                      "is pending, where an interrupt undoes what the ability did."),
        BrokenVariant("redirected-side-battle-uncounted", "redemption", ("RED-SB-ONCE-PER-TURN",),
                      "A side battle started by a redirected side battle ability counts against nobody's "
                      "allowance, where every side battle is initiated by someone."),
        BrokenVariant("redirected-side-battle-no-choice", "redemption", ("RED-SB-CONTROL-OUTSIDERS",
                                                                          "RED-SB-CONTROL-SAME-UNMIXED"),
                      "After a redirect the sides of cases 1 and 3 are assigned in the order the characters "
                      "were selected, where the player who used the ability chooses them."),
        BrokenVariant("party-split-in-hundreds", "fftcg", ("FF-PARTY-SPLIT-THOUSANDS",),
                      "The blocker's damage to a party is divided in multiples of 100, where the seed "
                      "says increments of 1000 (formerly the straw-man option party-split-unit = hundreds)."),
    )
}
"""Broken variant id -> what it breaks."""


class UnknownBrokenVariant(ValueError):
    """A broken variant that does not exist, belongs to another game, or is named twice."""


def check_broken(game: str, names: Iterable[str]) -> tuple[str, ...]:
    """``names`` sorted, each a broken variant of ``game`` named once (:class:`UnknownBrokenVariant` otherwise)."""
    seen: list[str] = []
    for name in names:
        variant = BROKEN_VARIANTS.get(name)
        if variant is None or variant.game != game:
            known = sorted(v.id for v in BROKEN_VARIANTS.values() if v.game == game)
            raise UnknownBrokenVariant(f"unknown {game} broken variant {name!r}; known: {', '.join(known)}")
        if name in seen:
            raise UnknownBrokenVariant(f"broken variant {name!r} is named twice")
        seen.append(name)
    return tuple(sorted(seen))
