"""Rule variants: the option in force for each decision of the fftcg clauses
(:class:`specs.smt.variants.CatalogueVariants`, read from the catalogue, never from the model).

>>> Variants.of({"party-zero-share": "each-hit-if-possible"}).is_("party-zero-share", "each-hit-if-possible")
True
>>> Variants.of(broken=["party-split-in-hundreds"]).is_broken("party-split-in-hundreds")
True
"""

from __future__ import annotations

from dataclasses import dataclass

from cardrules.specs.catalogue import Decision
from cardrules.specs.smt.variants import CatalogueVariants, UnknownVariant, catalogue_decisions

GAME = "fftcg"

ENCODED_DECISIONS: frozenset[str] = frozenset({
    "party-element-match",
    "party-brave-members",
    "party-blocker-left",
    "party-blocker-power-remainder",
    "party-zero-share",
    "party-preemptive-members",
    "party-preemptive-broken-member",
    "party-disband-timing",
    "party-last-member",
    "ff-base-blocker-dulls",
    "party-damage-source",
    "ff-removal-windows",
    "ff-attack-no-attacker-left",
    "ff-end-turn-window",
    "party-sum-members",
    "ff-step-passing",
    "party-active-meaning",
})
"""Decisions whose options the encoding reads. ``party-damage-source`` only changes
how damage events are itemised, which the abstract state does not record (see
:mod:`.vocabulary`), so both of its options encode alike. Every fftcg decision is read today; a decision
recorded later is refused for its non-chosen options (``STRICT``) until it is encoded."""


def decisions() -> dict[str, Decision]:
    """Every decision recorded on an fftcg clause, by id."""
    return catalogue_decisions(GAME)


@dataclass(frozen=True, slots=True)
class Variants(CatalogueVariants):
    """(decision id, option id) pairs that differ from the chosen options, sorted."""

    GAME = GAME
    ENCODED = ENCODED_DECISIONS
    STRICT = True
    BROKEN = frozenset({"party-split-in-hundreds"})


DEFAULT = Variants()

__all__ = ["DEFAULT", "ENCODED_DECISIONS", "GAME", "UnknownVariant", "Variants", "decisions"]
