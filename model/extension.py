"""Extension points: the small, named places where a proposed rule change plugs into a model.

A rules committee's typical change (a limit of two side battles, where a
healed character goes, how much damage an unblocked party deals) is a
different answer to one question the model asks in one place. Each such
question is an extension point: a name, the game, what it is given and what
it returns, and a default function that gives the catalogue's reading. The
model asks ``config.hook(POINT, default)(...)``; a proposal's model module
supplies another function for that name with :func:`override`::

    from cardrules.model.extension import override

    @override("fftcg", "unblocked-party-damage")
    def one_per_member(state, attackers):
        return len(attackers)

Nothing here imports a game's model: each game declares its points with
:func:`extension_point` next to its defaults.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class ExtensionPoint:
    """One place where a proposal may replace the model's answer."""

    game: str
    name: str
    question: str
    """What the point decides, what it is given and what it returns."""
    clause_ids: tuple[str, ...]
    default: Callable[..., Any]


EXTENSION_POINTS: dict[tuple[str, str], ExtensionPoint] = {}


class ExtensionError(ValueError):
    """A proposal names an unknown extension point, or gives one twice."""


def extension_point(game: str, name: str, question: str, *clause_ids: str) -> Callable[[F], F]:
    """Declare the decorated function as the default answer of an extension point."""

    def declare(default: F) -> F:
        EXTENSION_POINTS[(game, name)] = ExtensionPoint(game, name, question, tuple(clause_ids), default)
        return default

    return declare


def override(game: str, name: str) -> Callable[[F], F]:
    """Mark a function in a proposal's model module as the new answer of extension point ``name``."""

    def mark(function: F) -> F:
        setattr(function, "__cardrules_override__", (game, name))
        return function

    return mark


def overrides_in(module: ModuleType, game: str) -> tuple[tuple[str, Callable[..., Any]], ...]:
    """The (point name, function) pairs a proposal module marks with :func:`override`, checked and sorted."""
    found: dict[str, Callable[..., Any]] = {}
    for value in vars(module).values():
        marked = getattr(value, "__cardrules_override__", None)
        if marked is None:
            continue
        point_game, name = marked
        if point_game != game:
            raise ExtensionError(f"{module.__name__}: {value.__name__} overrides a {point_game} point in a {game} proposal")
        if (game, name) not in EXTENSION_POINTS:
            known = sorted(n for g, n in EXTENSION_POINTS if g == game)
            raise ExtensionError(f"{module.__name__}: unknown {game} extension point {name!r}; known: {', '.join(known)}")
        if name in found:
            raise ExtensionError(f"{module.__name__}: extension point {name!r} is overridden twice")
        found[name] = value
    return tuple(sorted(found.items()))


def hook(hooks: tuple[tuple[str, Callable[..., Any]], ...], name: str, default: F) -> F:
    """The function in force for a point: a proposal's override if given, else ``default``."""
    for given, function in hooks:
        if given == name:
            return function  # type: ignore[return-value]
    return default
