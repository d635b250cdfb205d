"""Rule variants: the option in force for each decision of the fftcg clauses.

The decisions and their options are read from the catalogue (never from the
model). A decision not mentioned follows its ``chosen`` option.

>>> Variants.of({"party-split-unit": "hundreds"}).is_("party-split-unit", "hundreds")
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

from cardrules.specs.catalogue import Decision, default_catalogue

GAME = "fftcg"

ENCODED_DECISIONS: frozenset[str] = frozenset({
    "party-element-match",
    "party-brave-members",
    "party-blocker-left",
    "party-blocker-power-remainder",
    "party-zero-share",
    "party-split-unit",
    "party-preemptive-members",
    "party-preemptive-broken-member",
    "party-disband-timing",
    "party-last-member",
})
"""Decisions whose options the encoding distinguishes. ``party-damage-source``
only changes how damage events are itemised, which the abstract state does not
record (see :mod:`.vocabulary`), so both of its options encode alike."""


@lru_cache(maxsize=1)
def decisions() -> dict[str, Decision]:
    """Every decision recorded on an fftcg clause, by id."""
    return {d.id: d for c, d in default_catalogue().decisions.values() if c.game == GAME}


class UnknownVariant(LookupError):
    """A decision or option id that the catalogue does not have."""


@dataclass(frozen=True, slots=True)
class Variants:
    """(decision id, option id) pairs that differ from the chosen options, sorted."""

    overrides: tuple[tuple[str, str], ...] = ()

    @staticmethod
    def of(choices: Mapping[str, str] | None = None) -> Variants:
        known = decisions()
        kept: dict[str, str] = {}
        for decision_id, option_id in (choices or {}).items():
            if decision_id not in known:
                raise UnknownVariant(f"unknown decision {decision_id!r}")
            if option_id not in {o.id for o in known[decision_id].options}:
                raise UnknownVariant(f"unknown option {option_id!r} of {decision_id!r}")
            if option_id != known[decision_id].chosen:
                kept[decision_id] = option_id
        return Variants(tuple(sorted(kept.items())))

    def option(self, decision_id: str) -> str:
        for d, o in self.overrides:
            if d == decision_id:
                return o
        try:
            return decisions()[decision_id].chosen
        except KeyError:
            raise UnknownVariant(f"unknown decision {decision_id!r}") from None

    def is_(self, decision_id: str, option_id: str) -> bool:
        """Whether ``option_id`` (checked to exist) is in force for the decision."""
        if option_id not in {o.id for o in decisions()[decision_id].options}:
            raise UnknownVariant(f"unknown option {option_id!r} of {decision_id!r}")
        return self.option(decision_id) == option_id


DEFAULT = Variants()
