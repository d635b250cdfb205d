"""Rule variants of a transition-level encoding: the option in force for each decision.

The decisions and their options are read from the catalogue (never from the model); a
decision not mentioned follows its ``chosen`` option. A game's ``Variants`` subclasses
:class:`CatalogueVariants`, naming its ``GAME``, the decisions whose options its encoding
distinguishes (``ENCODED``) and whether any other decision's non-chosen option is refused
(``STRICT``: the encoding would silently run the chosen reading instead), and the broken
variants (:mod:`cardrules.specs.catalogue.broken`) it implements (``BROKEN``; any other is refused).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar, Iterable, Mapping, TypeVar

from cardrules.specs.catalogue.broken import UnknownBrokenVariant, check_broken
from cardrules.specs.catalogue import Decision, default_catalogue

V = TypeVar("V", bound="CatalogueVariants")


@lru_cache(maxsize=None)
def catalogue_decisions(game: str) -> dict[str, Decision]:
    """Every decision recorded on a clause of ``game``, by id."""
    return {d.id: d for c, d in default_catalogue().decisions.values() if c.game == game}


class UnknownVariant(LookupError):
    """A decision or option id the catalogue does not have, or (``STRICT``) one the encoding does not read."""


@dataclass(frozen=True, slots=True)
class CatalogueVariants:
    """(decision id, option id) pairs that differ from the chosen options, sorted."""

    GAME: ClassVar[str] = ""
    ENCODED: ClassVar[frozenset[str]] = frozenset()
    STRICT: ClassVar[bool] = False
    UNENCODED_OPTIONS: ClassVar[frozenset[tuple[str, str]]] = frozenset()
    """(decision, option) pairs of a decision in ``ENCODED`` whose option is still not encoded."""
    BROKEN: ClassVar[frozenset[str]] = frozenset()
    """The broken variants the encoding implements (selected by a scenario's mutants only)."""
    overrides: tuple[tuple[str, str], ...] = ()
    broken: tuple[str, ...] = ()
    """Broken variants in force, sorted."""

    @classmethod
    def decisions(cls) -> dict[str, Decision]:
        return catalogue_decisions(cls.GAME)

    @classmethod
    def of(cls: type[V], choices: Mapping[str, str] | None = None, broken: Iterable[str] = ()) -> V:
        """The variants for ``choices`` (decision id -> option id) and ``broken`` variants. With
        ``STRICT``, a decision's chosen option may be named whether or not the encoding reads it; any
        other option of a decision not in ``ENCODED``, and any broken variant not in ``BROKEN``,
        raises :class:`UnknownVariant`."""
        try:
            names = check_broken(cls.GAME, broken)
        except UnknownBrokenVariant as error:
            raise UnknownVariant(str(error)) from None
        for name in names:
            if name not in cls.BROKEN:
                raise UnknownVariant(f"the encoding does not implement broken variant {name!r}, "
                                     "so it cannot be compared")
        known = cls.decisions()
        kept: dict[str, str] = {}
        for decision_id, option_id in (choices or {}).items():
            if decision_id not in known:
                raise UnknownVariant(f"unknown decision {decision_id!r}")
            if option_id not in {o.id for o in known[decision_id].options}:
                raise UnknownVariant(f"unknown option {option_id!r} of {decision_id!r}"
                                     f"{known[decision_id].rejected_hint(option_id)}")
            if option_id == known[decision_id].chosen:
                continue
            if cls.STRICT and decision_id not in cls.ENCODED:
                raise UnknownVariant(f"the encoding does not read decision {decision_id!r} "
                                     f"(only its chosen option {known[decision_id].chosen!r} is encoded), "
                                     f"so option {option_id!r} cannot be compared")
            if (decision_id, option_id) in cls.UNENCODED_OPTIONS:
                raise UnknownVariant(f"option {option_id!r} of {decision_id!r} is recorded in the catalogue "
                                     f"but not encoded, so it cannot be compared")
            kept[decision_id] = option_id
        return cls(tuple(sorted(kept.items())), names)

    def is_broken(self, name: str) -> bool:
        """Whether the broken variant ``name`` (one the encoding implements) is in force."""
        if name not in self.BROKEN:
            raise UnknownVariant(f"the encoding does not implement broken variant {name!r}")
        return name in self.broken

    def option(self, decision_id: str) -> str:
        for d, o in self.overrides:
            if d == decision_id:
                return o
        try:
            return self.decisions()[decision_id].chosen
        except KeyError:
            raise UnknownVariant(f"unknown decision {decision_id!r}") from None

    def is_(self, decision_id: str, option_id: str) -> bool:
        """Whether ``option_id`` (checked to exist) is in force for the decision."""
        if self.STRICT and decision_id not in self.ENCODED:
            raise UnknownVariant(f"the encoding does not read decision {decision_id!r}")
        if option_id not in {o.id for o in self.decisions()[decision_id].options}:
            raise UnknownVariant(f"unknown option {option_id!r} of {decision_id!r}")
        return self.option(decision_id) == option_id
