"""``dataclasses.replace`` for the models' frozen, slotted dataclasses, without its per-call overhead.

The generic ``dataclasses.replace`` inspects the class's fields and calls ``__init__`` on every call;
the search makes millions of copies. :func:`replace` here runs code compiled once per class and set
of changed fields: each slot is copied or set by a plain store, then ``__post_init__`` runs if the
class has one, as ``__init__`` would have run it. The result is the same value ``dataclasses.replace``
gives; a class this cannot copy that way (not slotted, a base class, a field outside ``__init__``)
is copied by ``dataclasses.replace`` itself. Unknown field names raise TypeError as there.

Speed only: no rule is decided here (and the module carries no ``@implements``).
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any, Callable, TypeVar

T = TypeVar("T")

_COPIERS: dict[tuple[Any, ...], Callable[[Any, dict[str, Any]], Any]] = {}


def _generic(obj: Any, changes: dict[str, Any]) -> Any:
    return dataclasses.replace(obj, **changes)


def _make_copier(cls: type, changed: tuple[str, ...]) -> Callable[[Any, dict[str, Any]], Any]:
    """``copy(obj, changes)`` compiled for one class and one set of changed fields."""
    fields = dataclasses.fields(cls)
    names = {f.name for f in fields}
    unknown = [name for name in changed if name not in names]
    if unknown:
        raise TypeError(f"{cls.__name__}.__init__() got an unexpected keyword argument {unknown[0]!r}")
    slots = cls.__dict__.get("__slots__")
    plain = (isinstance(slots, tuple) and set(slots) == names and cls.__bases__ == (object,)
             and all(f.init and f._field_type is dataclasses._FIELD for f in fields))  # type: ignore[attr-defined]
    if not plain:
        return _generic
    namespace: dict[str, Any] = {"NEW": object.__new__, "CLS": cls}
    lines = ["def copy(obj, changes):", "    new = NEW(CLS)"]
    for f in fields:
        namespace[f"set_{f.name}"] = getattr(cls, f.name).__set__  # the slot's descriptor, past the frozen __setattr__
        value = f"changes[{f.name!r}]" if f.name in changed else f"obj.{f.name}"
        lines.append(f"    set_{f.name}(new, {value})")
    if hasattr(cls, "__post_init__"):
        lines.append("    new.__post_init__()")
    lines.append("    return new")
    exec("\n".join(lines), namespace)  # noqa: S102 - generated from the class's own field names
    copier: Callable[[Any, dict[str, Any]], Any] = namespace["copy"]
    return copier


def replace(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)``, compiled once per class and set of changed fields."""
    key: tuple[Any, ...] = (obj.__class__, *changes)
    copy = _COPIERS.get(key) or _compiled(key)  # one line: the first copy takes the same lines as the others
    result: T = copy(obj, changes)
    return result


@lru_cache(maxsize=None)
def _compiled(key: tuple[Any, ...]) -> Callable[[Any, dict[str, Any]], Any]:
    """The copier of ``key`` (class, changed fields), compiled and kept in :data:`_COPIERS`.

    A ``functools`` cache, so that a tracer of the model's lines (:mod:`cardrules.oracle.trace.coverage`)
    leaves it out, with all it calls, as a remembered function: it runs once per process, so what it
    does says what was copied before, not what the step being traced did."""
    copy = _COPIERS[key] = _make_copier(key[0], key[1:])
    return copy
