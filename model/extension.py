"""Extension points: the small, named places where a proposed rule change plugs into a model.

A rules committee's typical change (a limit of two side battles, where a
healed character goes, how much damage an unblocked party deals) is a
different answer to one question the model asks in one place. Each such
question is an extension point: a name, the game, its contract (the
parameters the model passes, in order, and what the answer must be) and a
default function that gives the catalogue's reading. The model asks
``config.hook(POINT, default)(...)``; a proposal's model module supplies
another function for that name with :func:`override`::

    from cardrules.model.extension import override

    @override("fftcg", "unblocked-damage")
    def one_per_member(state, attackers):
        return len(attackers)

Nothing here imports a game's model: each game declares its points with
:func:`extension_point` next to its defaults. Nothing here runs a proposal's
code either: the oracle wraps every override in a guard (time bound,
exceptions, :attr:`ExtensionPoint.returns`) before it hands it to a model.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

Check = Callable[[object, tuple[Any, ...]], str | None]
"""A check of an answer: (the value returned, the arguments the point was given) -> a problem, or None."""


@dataclass(frozen=True)
class Returns:
    """What an extension point's answer must be: in words, and as a check of one value."""

    text: str
    """The contract in words, e.g. ``an int from 0 to 7``."""
    check: Check
    """(value, arguments) -> what is wrong with the value (``returned ...; expected ...``), or None."""


def describe(value: object) -> str:
    """A value as a problem message names it: short, one line, never running the value's own code."""
    if value is None or type(value) is bool:
        return repr(value) + ("" if value is None else " (a bool)")
    if type(value) is int:
        if value.bit_length() > 64:
            return f"an int of about {int(value.bit_length() * math.log10(2)) + 1} digits"
        return str(value)
    if type(value) is float:
        return f"{value!r} (a float)"
    kind = type(value).__name__
    return f"an {kind}" if kind[:1].lower() in "aeiou" else f"a {kind}"


def whole_number(low: int, high: int) -> Returns:
    """The contract of an int (never a bool) from ``low`` to ``high``."""
    text = f"an int from {low} to {high}"

    def check(value: object, _: tuple[Any, ...]) -> str | None:
        if type(value) is int and low <= value <= high:
            return None
        return f"returned {describe(value)}; expected {text}"

    return Returns(text, check)


def index_below(text: str, bound: Callable[..., int]) -> Returns:
    """The contract of an int from 0 to ``bound(*arguments) - 1`` (a player index, say), stated as ``text``."""

    def check(value: object, arguments: tuple[Any, ...]) -> str | None:
        if type(value) is int and 0 <= value < bound(*arguments):
            return None
        return f"returned {describe(value)}; expected {text}"

    return Returns(text, check)


def pair_or_none(text: str, selected: Callable[..., tuple[str, str]]) -> Returns:
    """The contract of ``None`` or a tuple holding the two strings ``selected(*arguments)`` in some order."""

    def check(value: object, arguments: tuple[Any, ...]) -> str | None:
        if value is None:
            return None
        if type(value) is tuple and len(value) == 2 and all(type(v) is str for v in value):
            if sorted(value) == sorted(selected(*arguments)):
                return None
            return f"returned the pair {value[0][:40]!r}, {value[1][:40]!r}; expected {text}"
        return f"returned {describe(value)}; expected {text}"

    return Returns(text, check)


def one_of(*answers: str) -> Returns:
    """The contract of one string of a small declared set, ``answers`` (the point's documented choices)."""
    text = "one of " + ", ".join(repr(a) for a in answers)

    def check(value: object, _: tuple[Any, ...]) -> str | None:
        if type(value) is str and value in answers:
            return None
        shown = repr(value[:40]) if type(value) is str else describe(value)
        return f"returned {shown}; expected {text}"

    return Returns(text, check)


def truth_value(text: str = "a bool: True or False") -> Returns:
    """The contract of a bool (``True`` or ``False``; never 0, 1, None or another truthy value)."""

    def check(value: object, _: tuple[Any, ...]) -> str | None:
        if type(value) is bool:
            return None
        return f"returned {describe(value)}; expected {text}"

    return Returns(text, check)


def some_of(text: str, pool: Callable[..., tuple[str, ...]]) -> Returns:
    """The contract of a tuple of distinct strings, each one of ``pool(*arguments)`` (the empty tuple included)."""

    def check(value: object, arguments: tuple[Any, ...]) -> str | None:
        if type(value) is not tuple or not all(type(v) is str for v in value):
            return f"returned {describe(value)}; expected {text}"
        allowed = pool(*arguments)
        stray = [v for v in value if v not in allowed]
        if stray:
            return f"returned {stray[0][:40]!r}, which is not one of {', '.join(allowed)[:200] or 'none'}; expected {text}"
        if len(set(value)) != len(value):
            return f"returned a tuple naming a card twice; expected {text}"
        return None

    return Returns(text, check)


@dataclass(frozen=True)
class ExtensionPoint:
    """One place where a proposal may replace the model's answer, with its contract."""

    game: str
    name: str
    question: str
    """What the point decides, what it is given and what it returns."""
    clause_ids: tuple[str, ...]
    default: Callable[..., Any]
    parameters: tuple[str, ...]
    """The arguments the model passes, by name, in the order it passes them (positionally)."""
    returns: Returns
    """What the answer must be; the oracle checks every answer of a proposal's function against it."""

    @property
    def signature(self) -> str:
        """``(state, attackers) -> an int from 0 to 7``."""
        return f"({', '.join(self.parameters)}) -> {self.returns.text}"


EXTENSION_POINTS: dict[tuple[str, str], ExtensionPoint] = {}


class ExtensionError(ValueError):
    """A proposal names an unknown extension point, gives one twice, or marks something malformed."""


def extension_point(game: str, name: str, question: str, *clause_ids: str, parameters: tuple[str, ...],
                    returns: Returns) -> Callable[[F], F]:
    """Declare the decorated function as the default answer of an extension point.

    ``parameters`` must be the default's own parameter names (checked here, at import), and the
    model's call site passes exactly these arguments in this order (checked by the tests).
    """

    def declare(default: F) -> F:
        actual = tuple(inspect.signature(default).parameters)
        if actual != parameters:
            raise ExtensionError(f"extension point {game}/{name}: declared parameters {parameters}, "
                                 f"but its default {default.__qualname__} takes {actual}")
        EXTENSION_POINTS[(game, name)] = ExtensionPoint(game, name, question, tuple(clause_ids), default,
                                                        parameters, returns)
        return default

    return declare


def override(game: str, name: str) -> Callable[[F], F]:
    """Mark a function in a proposal's model module as the new answer of extension point ``name``."""

    def mark(function: F) -> F:
        setattr(function, "__cardrules_override__", (game, name))
        return function

    return mark


def _marker(key: str, value: object) -> tuple[str, str] | None:
    """The (game, point) an object in a proposal module is marked with, None if unmarked; ExtensionError
    when the mark is malformed or cannot be read."""
    try:
        marked = getattr(value, "__cardrules_override__", None)
    except Exception as error:  # an object whose __getattr__ raises: the module's own fault, named
        raise ExtensionError(f"{key}: reading its override mark raised {type(error).__name__}") from None
    if marked is None:
        return None
    if type(marked) is not tuple or len(marked) != 2 or not all(type(part) is str for part in marked):
        raise ExtensionError(f"{key}: its override mark is not (game, point) as @override sets it "
                             f"(found {describe(marked)})")
    if not callable(value):
        raise ExtensionError(f"{key}: marked with @override but not a function")
    return marked[0], marked[1]


def overrides_in(module: ModuleType, game: str) -> tuple[tuple[str, Callable[..., Any]], ...]:
    """The (point name, function) pairs a proposal module marks with :func:`override`, checked and sorted.

    Every problem (a malformed or unreadable mark, an unknown point, a point given twice) is an
    :class:`ExtensionError` naming the module's file."""
    found: dict[str, Callable[..., Any]] = {}
    source = vars(module).get("__file__")
    where = source if type(source) is str else module.__name__
    for key, value in list(vars(module).items()):
        try:
            marked = _marker(key, value)
        except ExtensionError as error:
            raise ExtensionError(f"{where}: {error}") from None
        if marked is None:
            continue
        point_game, name = marked
        if point_game != game:
            raise ExtensionError(f"{where}: {key} overrides a {point_game[:40]} point in a {game} proposal")
        if (game, name) not in EXTENSION_POINTS:
            known = sorted(n for g, n in EXTENSION_POINTS if g == game)
            raise ExtensionError(f"{where}: unknown {game} extension point {name[:80]!r}; "
                                 f"known: {', '.join(known)}")
        if name in found:
            raise ExtensionError(f"{where}: extension point {name!r} is overridden twice")
        found[name] = value
    return tuple(sorted(found.items()))


def hook(hooks: tuple[tuple[str, Callable[..., Any]], ...], name: str, default: F) -> F:
    """The function in force for a point: a proposal's override if given, else ``default``."""
    for given, function in hooks:
        if given == name:
            return function  # type: ignore[return-value]
    return default
