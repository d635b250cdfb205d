"""Properties: each invariant or transition property stated once.

A property has a name, a statement a rules judge can read, its clause IDs,
its game, the rule versions it applies to, and whether it must hold. Every
engine (the explorer, the hypothesis machines, the SMT bounded check) reads
the same list: each game's properties are listed explicitly, in its
``invariants`` modules, and :mod:`cardrules.properties.games` collects them.

* A *state* property is a predicate ``check(game, state)``.
* A *transition* property is a predicate ``check(game, state, action, next_state)``.

``game`` is the engine's view of the model under one rule set (see
:class:`properties.engines.explore.Game`); checks read the rule variant from it.

Declare a check with :func:`state_property` or :func:`transition_property`:
both attach the :class:`Property` to the function (:func:`property_of`) and
link it to its clauses in the traceability registry; nothing is registered
globally. A module lists its properties with :func:`declared`.

The SMT engine cannot run Python predicates: it checks z3 forms of properties
(``specs/smt/fftcg/properties.py``), written independently from the clauses. A
z3 form is a *second face* of a property here: :attr:`Property.smt` names it
(:func:`with_smt_face`), and the SMT bridge resolves the name (``specs/`` never
imports this module). A property only a solver can state usefully over symbolic
cards (``damage-in-thousands``) is made with :func:`smt_property`: it has a z3
face and no Python check, so the Python engines skip it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Literal, Mapping

from cardrules.specs.catalogue.registry import implements

PropertyKind = Literal["state", "transition", "smt"]
"""``smt``: a property with a z3 face only (:func:`smt_property`)."""


@dataclass(frozen=True)
class Property:
    """One property, as every engine sees it."""

    name: str
    statement: str
    clause_ids: tuple[str, ...]
    game: str
    kind: PropertyKind
    check: Callable[..., bool]
    must_hold: bool = True
    """False for a property that documents a known gap (it is reported, not failed)."""
    versions: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Area id -> versions it applies to; an area not named means every version."""
    smt: str | None = None
    """The name of its z3 form (its second face, in ``specs/smt/<game>/properties.py``), resolved
    by the SMT bridge; ``None``: the SMT engine does not check it."""
    explore_every: int = 1
    """A transition property an exploration asked to sample (``explore(..., sample_costly_checks=True)``,
    as ``cardrules verify`` explores) checks on one transition in this many (the 1st, the (n+1)th, ...
    in the order it takes them, so the same ones every run); every other exploration, and the
    hypothesis machines, check it on every transition. For a check that costs a whole second step
    (determinism)."""

    def applies_to(self, versions: Mapping[str, frozenset[str]]) -> bool:
        """True unless ``versions`` picks, for an area this property names, none of its versions."""
        return all(bool(versions.get(area, wanted) & wanted) for area, wanted in self.versions.items())


class PropertyError(ValueError):
    """A property is declared twice, or a function given as one carries no declaration."""


PROPERTY_ATTRIBUTE = "__property__"
"""The attribute under which a declared check carries its :class:`Property`."""


def _declare(
    kind: PropertyKind,
    name: str,
    statement: str,
    clause_ids: tuple[str, ...],
    game: str,
    must_hold: bool,
    versions: Mapping[str, frozenset[str]] | None,
    explore_every: int = 1,
) -> Callable[[Callable[..., bool]], Callable[..., bool]]:
    if explore_every < 1:
        raise PropertyError(f"property {name}: explore_every must be 1 or more, not {explore_every}")

    def declare(check: Callable[..., bool]) -> Callable[..., bool]:
        implements(*clause_ids)(check)
        setattr(check, PROPERTY_ATTRIBUTE, Property(
            name=name,
            statement=" ".join(statement.split()),
            clause_ids=clause_ids,
            game=game,
            kind=kind,
            check=check,
            must_hold=must_hold,
            versions=dict(versions or {}),
            explore_every=explore_every,
        ))
        return check

    return declare


def state_property(
    name: str,
    statement: str,
    *clause_ids: str,
    game: str,
    must_hold: bool = True,
    versions: Mapping[str, frozenset[str]] | None = None,
) -> Callable[[Callable[[Any, Any], bool]], Callable[[Any, Any], bool]]:
    """Declare ``check(game, state) -> bool`` as a state invariant."""
    return _declare("state", name, statement, clause_ids, game, must_hold, versions)


def transition_property(
    name: str,
    statement: str,
    *clause_ids: str,
    game: str,
    must_hold: bool = True,
    versions: Mapping[str, frozenset[str]] | None = None,
    explore_every: int = 1,
) -> Callable[[Callable[[Any, Any, Any, Any], bool]], Callable[[Any, Any, Any, Any], bool]]:
    """Declare ``check(game, state, action, next_state) -> bool`` as a transition property
    (``explore_every``: :attr:`Property.explore_every`)."""
    return _declare("transition", name, statement, clause_ids, game, must_hold, versions, explore_every)


def property_of(check: Callable[..., bool]) -> Property:
    """The :class:`Property` a declared check carries (:class:`PropertyError` if it carries none)."""
    found = getattr(check, PROPERTY_ATTRIBUTE, None)
    if not isinstance(found, Property):
        raise PropertyError(f"{getattr(check, '__qualname__', check)!r} is not declared as a property")
    return found


def declared(*checks: Callable[..., bool]) -> tuple[Property, ...]:
    """The properties of these declared checks, in the order given (a module's explicit list)."""
    return tuple(property_of(check) for check in checks)


def with_smt_face(prop: Property, smt: str | None = None) -> Property:
    """``prop`` with a z3 face: the z3 form named ``smt`` (by default the property's own name)."""
    return replace(prop, smt=smt or prop.name)


def _no_python_check(*args: Any) -> bool:
    raise TypeError("this property has a z3 face only: the SMT engine checks it")


def smt_property(name: str, statement: str, *clause_ids: str, game: str, must_hold: bool = True,
                 smt: str | None = None) -> Property:
    """A property stated only as a z3 formula (the z3 form named ``smt``, by default ``name``)."""
    return Property(name=name, statement=" ".join(statement.split()), clause_ids=clause_ids, game=game, kind="smt",
                    check=_no_python_check, must_hold=must_hold, smt=smt or name)
