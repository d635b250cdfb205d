"""Properties: each invariant or transition property stated once.

A property has a name, a statement a rules judge can read, its clause IDs,
its game, the rule versions it applies to, and whether it must hold. Every
engine (the explorer, the hypothesis machines, the SMT bounded check) reads
the same list, :data:`PROPERTIES`.

* A *state* property is a predicate ``check(game, state)``.
* A *transition* property is a predicate ``check(game, state, action, next_state)``.

``game`` is the engine's view of the model under one rule set (see
:class:`properties.engines.explore.Game`); checks read the rule variant from it.

Register with :func:`state_property` or :func:`transition_property`; both also
link the check to its clauses in the traceability registry.

The SMT engine cannot run Python predicates: it checks z3 forms of properties
(``specs/smt/fftcg/properties.py``), written independently from the clauses. A
z3 form is a *second face* of an entry here: :attr:`Property.smt` names it
(:func:`smt_face`), and the SMT bridge resolves the name (``specs/`` never
imports this module). A property only a solver can state usefully over symbolic
cards (``damage-in-thousands``) is registered with :func:`smt_property`: it has a
z3 face and no Python check, so the Python engines (:func:`properties_for`) skip it.
:func:`smt_properties` lists every property with a z3 face: the names the
``smt bmc --property`` command and ``verify --engine smt`` use.
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

    def applies_to(self, versions: Mapping[str, frozenset[str]]) -> bool:
        """True unless ``versions`` picks, for an area this property names, none of its versions."""
        return all(bool(versions.get(area, wanted) & wanted) for area, wanted in self.versions.items())


PROPERTIES: dict[str, Property] = {}


class PropertyError(ValueError):
    """A property is declared twice or names an unknown game."""


def _register(
    kind: PropertyKind,
    name: str,
    statement: str,
    clause_ids: tuple[str, ...],
    game: str,
    must_hold: bool,
    versions: Mapping[str, frozenset[str]] | None,
) -> Callable[[Callable[..., bool]], Callable[..., bool]]:
    def register(check: Callable[..., bool]) -> Callable[..., bool]:
        known = PROPERTIES.get(name)
        if known is not None and (known.check.__module__, known.check.__qualname__) != (check.__module__, check.__qualname__):
            # the same function declared again (a module reloaded) is fine; another one, even of the same
            # name in another game's module, would silently replace the first
            raise PropertyError(f"property {name!r} is declared twice ({known.check.__module__}."
                                f"{known.check.__qualname__} and {check.__module__}.{check.__qualname__})")
        implements(*clause_ids)(check)
        PROPERTIES[name] = Property(
            name=name,
            statement=" ".join(statement.split()),
            clause_ids=clause_ids,
            game=game,
            kind=kind,
            check=check,
            must_hold=must_hold,
            versions=dict(versions or {}),
        )
        return check

    return register


def state_property(
    name: str,
    statement: str,
    *clause_ids: str,
    game: str,
    must_hold: bool = True,
    versions: Mapping[str, frozenset[str]] | None = None,
) -> Callable[[Callable[[Any, Any], bool]], Callable[[Any, Any], bool]]:
    """Declare ``check(game, state) -> bool`` as a state invariant."""
    return _register("state", name, statement, clause_ids, game, must_hold, versions)


def transition_property(
    name: str,
    statement: str,
    *clause_ids: str,
    game: str,
    must_hold: bool = True,
    versions: Mapping[str, frozenset[str]] | None = None,
) -> Callable[[Callable[[Any, Any, Any, Any], bool]], Callable[[Any, Any, Any, Any], bool]]:
    """Declare ``check(game, state, action, next_state) -> bool`` as a transition property."""
    return _register("transition", name, statement, clause_ids, game, must_hold, versions)


def properties_for(game: str, versions: Mapping[str, frozenset[str]] | None = None) -> tuple[Property, ...]:
    """The registered properties of a game that apply to the given versions and have a Python
    check (every kind but ``smt``), by name."""
    chosen = [p for p in PROPERTIES.values()
              if p.game == game and p.kind != "smt" and (versions is None or p.applies_to(versions))]
    return tuple(sorted(chosen, key=lambda p: p.name))


def smt_face(name: str, smt: str | None = None) -> None:
    """Give the registered property ``name`` a z3 face, the z3 form named ``smt`` (by default ``name``)."""
    if name not in PROPERTIES:
        raise PropertyError(f"no registered property {name!r} to give a z3 face")
    PROPERTIES[name] = replace(PROPERTIES[name], smt=smt or name)


def _no_python_check(*args: Any) -> bool:
    raise TypeError("this property has a z3 face only: the SMT engine checks it")


def smt_property(name: str, statement: str, *clause_ids: str, game: str, must_hold: bool = True,
                 smt: str | None = None) -> None:
    """Register a property stated only as a z3 formula (the z3 form named ``smt``, by default ``name``)."""
    prop = Property(name=name, statement=" ".join(statement.split()), clause_ids=clause_ids, game=game, kind="smt",
                    check=_no_python_check, must_hold=must_hold, smt=smt or name)
    if name in PROPERTIES and PROPERTIES[name] != prop:
        raise PropertyError(f"property {name!r} is declared twice")
    PROPERTIES[name] = prop


def smt_properties(game: str) -> tuple[Property, ...]:
    """The registered properties of a game with a z3 face, by name."""
    return tuple(sorted((p for p in PROPERTIES.values() if p.game == game and p.smt), key=lambda p: p.name))
