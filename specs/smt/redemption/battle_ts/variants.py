"""Rule variants of the battle encoding: the option in force for each catalogue decision it reads.

Read from the catalogue (never from the model); a decision not mentioned follows its
``chosen`` option.

>>> Variants.of({"br-discard-which": "losing-side-only"}).is_("br-discard-which", "losing-side-only")
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

from cardrules.specs.catalogue import Decision, default_catalogue

ENCODED_DECISIONS: frozenset[str] = frozenset({
    "red-base-first-initiative",
    "br-outcome-several-characters",
    "br-challenge-success",
    "br-discard-which",
    "br-heal-window-player",
})
"""Decisions whose options the encoding distinguishes. Fixed at their chosen option (the only
reading encoded): ``red-base-battles-per-turn`` (one), ``red-base-enhancement-timing``
(in battle, own character, with initiative), ``br-rescued-soul`` (lowest id),
``br-rescue-draw`` (not success is failure)."""


@lru_cache(maxsize=1)
def decisions() -> dict[str, Decision]:
    """Every decision recorded on a Redemption clause, by id."""
    return {d.id: d for c, d in default_catalogue().decisions.values() if c.game == "redemption"}


class UnknownVariant(LookupError):
    """A decision or option id the catalogue does not have, or one the encoding does not read."""


@dataclass(frozen=True, slots=True)
class Variants:
    """(decision id, option id) pairs that differ from the chosen options, sorted."""

    overrides: tuple[tuple[str, str], ...] = ()

    @staticmethod
    def of(choices: Mapping[str, str] | None = None) -> Variants:
        """The variants for ``choices`` (decision id -> option id). A decision's chosen option
        may be named whether or not the encoding reads it; any other option of a decision the
        encoding does not read (not in :data:`ENCODED_DECISIONS`) raises :class:`UnknownVariant`:
        the encoding would silently run the chosen reading instead."""
        known = decisions()
        kept: dict[str, str] = {}
        for decision_id, option_id in (choices or {}).items():
            if decision_id not in known:
                raise UnknownVariant(f"unknown decision {decision_id!r}")
            if option_id not in {o.id for o in known[decision_id].options}:
                raise UnknownVariant(f"unknown option {option_id!r} of {decision_id!r}")
            if option_id == known[decision_id].chosen:
                continue
            if decision_id not in ENCODED_DECISIONS:
                raise UnknownVariant(f"the encoding does not read decision {decision_id!r} "
                                     f"(only its chosen option {known[decision_id].chosen!r} is encoded), "
                                     f"so option {option_id!r} cannot be compared")
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
        if decision_id not in ENCODED_DECISIONS:
            raise UnknownVariant(f"the encoding does not read decision {decision_id!r}")
        if option_id not in {o.id for o in decisions()[decision_id].options}:
            raise UnknownVariant(f"unknown option {option_id!r} of {decision_id!r}")
        return self.option(decision_id) == option_id


DEFAULT = Variants()
