"""Rule variants of the battle encoding: the option in force for each catalogue decision it
reads (:class:`specs.smt.variants.CatalogueVariants`, strict: a non-chosen option of a decision
the encoding does not read raises :class:`UnknownVariant`).

>>> Variants.of({"br-discard-which": "losing-side-only"}).is_("br-discard-which", "losing-side-only")
True
"""

from __future__ import annotations

from dataclasses import dataclass

from cardrules.specs.catalogue import Decision
from cardrules.specs.smt.variants import CatalogueVariants, UnknownVariant, catalogue_decisions

ENCODED_DECISIONS: frozenset[str] = frozenset({
    "red-base-first-initiative",
    "red-base-unblocked",
    "red-base-pass-ends",
    "red-base-battles-per-turn",
    "red-base-enhancement-timing",
    "br-outcome-several-characters",
    "br-challenge-success",
    "br-discard-which",
    "br-heal-window-player",
})
"""Decisions whose options the encoding distinguishes. Fixed at their chosen option (the only
reading encoded): ``br-rescued-soul`` (lowest id),
``br-rescue-draw`` (not success is failure)."""


def decisions() -> dict[str, Decision]:
    """Every decision recorded on a Redemption clause, by id."""
    return catalogue_decisions("redemption")


@dataclass(frozen=True, slots=True)
class Variants(CatalogueVariants):
    """(decision id, option id) pairs that differ from the chosen options, sorted."""

    GAME = "redemption"
    ENCODED = ENCODED_DECISIONS
    STRICT = True


DEFAULT = Variants()

__all__ = ["DEFAULT", "ENCODED_DECISIONS", "UnknownVariant", "Variants", "decisions"]
