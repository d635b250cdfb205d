"""Which clauses a piece of model code exercised: the ``@implements`` functions that ran.

:func:`clauses_exercised` runs a callable under :func:`sys.setprofile` and
maps every Python function that was called to the clause IDs its
``@implements`` decorator declares. It answers "which rules were involved in
this step", for blaming a divergence on clauses (:mod:`cardrules.oracle.conformance.differential`)
and for measuring what a conformance vector covers.

:func:`outcomes_exercised` goes one level deeper for the conformance
generator's set cover: besides the clauses, the *outcomes* inside
the model's functions, as features: every line-to-line arc taken in a
function of ``model/`` (which branch of a rule's test was taken, which guard
refused), and the kind of value each such function returned (``True`` or
``False`` for a predicate, the sign of a number, ``None``). A vector that
takes the other branch of a clause's test adds a feature, so the suite keeps
it even where the clause itself is already covered. Arcs are relative to the
function's first line and named by file and qualified name, so features are
the same on every run.

Two tracers record the same: the pure-Python one here, the reference, and a compiled one
(``ctracer.c``, built by the install where a C compiler is found), several times faster: Python's own
trace hook calls a Python function per line and copies the frame's variables around each call. The
compiled one is used where it was built from the source next to it (:func:`tracer_in_use`;
``CARDRULES_TRACER=python`` asks for the reference).
"""

from __future__ import annotations

import hashlib
import importlib
import os
import sys
import threading
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from types import CodeType, FrameType
from typing import Any, Callable, Iterable, Iterator, TypeVar

from cardrules.oracle.errors import InputError
from cardrules.oracle.interrupts import raise_if_lost
from cardrules.specs.catalogue.registry import links

T = TypeVar("T")


def resolve_dotted(dotted: str) -> Any:
    """The object a dotted name (module path, then attributes) names, or None."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for name in parts[cut:]:
                obj = getattr(obj, name)
        except AttributeError:
            return None
        return obj
    return None


def _codes_of(obj: Any) -> list[CodeType]:
    """The code objects behind a linked function, or every method of a linked class."""
    obj = getattr(obj, "__wrapped__", obj)
    code = getattr(obj, "__code__", None)
    if code is not None:
        return [code]
    if isinstance(obj, type):
        return [c for member in vars(obj).values() for c in _codes_of(member) if c is not None]
    return []


def code_clause_map(kind: str, packages: tuple[str, ...]) -> dict[CodeType, tuple[str, ...]]:
    """Code object of every function of ``packages`` linked with ``@implements`` as a ``kind``
    link (``model``, ``smt``) -> its clause IDs."""
    import cardrules.oracle.trace.matrix as trace

    trace.import_linked_modules(packages)
    by_target: dict[str, list[str]] = {}
    for link in links():
        if link.kind == kind:
            by_target.setdefault(link.target, []).append(link.clause_id)
    out: dict[CodeType, tuple[str, ...]] = {}
    for target, clause_ids in by_target.items():
        for code in _codes_of(resolve_dotted(target)):
            out[code] = tuple(sorted(set(out.get(code, ())) | set(clause_ids)))
    return out


@lru_cache(maxsize=1)
def model_clause_map() -> dict[CodeType, tuple[str, ...]]:
    """Code object of every model function linked with ``@implements`` -> its clause IDs."""
    return code_clause_map("model", ("cardrules.model",))


@contextmanager
def _installed(get: Callable[[], Any], install: Callable[[Any], None], hook: Any) -> Iterator[None]:
    """Run the block with ``hook`` installed as the profile or trace function, the previous one restored."""
    previous = get()
    install(hook)
    try:
        yield
    finally:
        install(previous)


def clauses_exercised(run: Callable[[], T], mapping: dict[CodeType, tuple[str, ...]] | None = None
                      ) -> tuple[T, frozenset[str]]:
    """Run ``run()`` and return its result and the clause IDs of the linked model functions it called
    (of the functions in ``mapping`` if given, :func:`code_clause_map`).

    The profile hook is removed again even if ``run`` raises (the exception
    propagates). Nested calls on other threads are not seen.
    """
    mapping = model_clause_map() if mapping is None else mapping
    if tracer_in_use() == "compiled":
        result, clauses = _compiled().calls(run, mapping)
    else:
        result, called = _calls_in_python(run)
        clauses = frozenset(c for code in called for c in mapping.get(code, ()))
    raise_if_lost()
    return result, clauses


def _calls_in_python(run: Callable[[], T]) -> tuple[T, set[CodeType]]:
    """``run()``'s result and the code objects it called, by :func:`sys.setprofile` (the reference)."""
    seen: set[CodeType] = set()

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            seen.add(frame.f_code)

    with _installed(sys.getprofile, sys.setprofile, profile):
        result = run()
    return result, seen


@lru_cache(maxsize=1)
def _model_prefix() -> str:
    import cardrules.model

    return str(next(iter(cardrules.model.__path__)))


def model_file(code: CodeType, prefix: str | None = None) -> str:
    """The file of ``code`` relative to ``model/`` (``prefix``: the model's folder, if known), with ``/``
    between folders, as the outcome features name it."""
    prefix = _model_prefix() if prefix is None else prefix
    return code.co_filename[len(prefix) + 1:].replace(os.sep, "/")


@lru_cache(maxsize=None)
def _code_name(code: CodeType, prefix: str) -> str:
    return f"{model_file(code, prefix)}:{code.co_qualname}"


def model_function(code: CodeType) -> str:
    """The function of ``code`` as the outcome features name it (``FILE:QUALNAME``, FILE as :func:`model_file`
    names it)."""
    return _code_name(code, _model_prefix())


def _value_kind(value: Any) -> str | None:
    """A coarse, deterministic picture of a returned value (None for values not pictured). A kind for values of
    another type must be added to :class:`_PicturedTypes` too (the tracer asks only for the types it names)."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return "neg" if value < 0 else "zero" if value == 0 else "pos"
    if isinstance(value, (tuple, list, frozenset, set)) and not value:
        return "empty"
    if isinstance(value, tuple) and len(value) <= 4 and all(v is None or isinstance(v, bool) for v in value):
        return "(" + ",".join(repr(v) for v in value) + ")"
    return None


OTHER, MODEL, REMEMBERED = 0, 1, 2
"""What :func:`outcomes_exercised` does with a called function: no line tracer (not the model's), a line
tracer (the model's), or nothing for it and everything it calls (a remembered model function)."""


def _kind_of(code: CodeType, remembered: frozenset[CodeType], prefix: str) -> int:
    """OTHER, MODEL or REMEMBERED for ``code`` (``remembered``: :func:`_remembered_codes`; ``prefix``: the model's
    folder), as both tracers decide it."""
    return REMEMBERED if code in remembered else MODEL if code.co_filename.startswith(prefix) else OTHER

_CACHE_LIMIT = 100_000
"""Code objects remembered by the caches below before they start afresh (code made at run time, by
``exec`` or ``compile``, must not make them grow without bound)."""


class _Remembered:
    """The remembered model functions (:func:`_remembered_codes`) of the model modules loaded now, and what
    the tracer decided about each code object it met: the modules are listed again only when the number of
    loaded modules changed (listing them on every traced call cost a third of a suite's generation)."""

    def __init__(self) -> None:
        self.modules = -1
        self.codes: frozenset[CodeType] = frozenset()
        self.kinds: dict[int, tuple[CodeType, int]] = {}
        """``id(code)`` -> (the code, kept alive so that its id stays its own; OTHER, MODEL or REMEMBERED)."""
        self.generation = 0
        """Counts the changes of :attr:`codes` (the compiled tracer forgets its own decisions on a change)."""

    def current(self) -> frozenset[CodeType]:
        if len(sys.modules) != self.modules:
            self.modules = len(sys.modules)
            codes = _remembered_in(loaded_model_modules())
            if codes != self.codes:
                self.codes, self.kinds = codes, {}
                self.generation += 1
        if len(self.kinds) > _CACHE_LIMIT:
            self.kinds = {}
        return self.codes


_REMEMBERED = _Remembered()


class _PicturedTypes(dict[type, bool]):
    """Whether :func:`_value_kind` may picture a value of a type (None, or a kind of int, tuple, list or set),
    worked out once per type: a returned value of any other type (most of them) costs one look-up."""

    def __missing__(self, kind: type) -> bool:
        if len(self) > _CACHE_LIMIT:
            self.clear()
        found = self[kind] = kind is type(None) or issubclass(kind, (int, tuple, list, frozenset, set))
        return found


_PICTURED = _PicturedTypes()


def _remembered_codes() -> frozenset[CodeType]:
    """The code of every model function remembered by a ``functools`` cache (catalogue and
    configuration look-ups, type hints). Its body runs only the first time a process asks, so what it
    does, and what it calls, says what was asked before, not what the step being traced did."""
    return _REMEMBERED.current()


def loaded_model_modules() -> tuple[str, ...]:
    """The names of the ``cardrules.model`` modules imported now, sorted."""
    return tuple(sorted(name for name in list(sys.modules) if name.startswith("cardrules.model")))


def remembered_functions(modules: tuple[str, ...]) -> list[Any]:
    """The ``functools`` caches (``lru_cache`` wrappers) defined at the top level of ``modules``."""
    return [value for name in modules for value in list(vars(sys.modules[name]).values())
            if hasattr(value, "cache_info") and hasattr(getattr(value, "__wrapped__", None), "__code__")]


@lru_cache(maxsize=8)
def _remembered_in(modules: tuple[str, ...]) -> frozenset[CodeType]:
    return frozenset(function.__wrapped__.__code__ for function in remembered_functions(modules))


_Arc = tuple[int, "int | str | tuple[int, str]"]

_FEATURES: dict[int, tuple[CodeType, dict[_Arc, str]]] = {}
"""``id(code)`` -> (the code, kept alive; the feature string of each of its arcs made so far): the same
strings are made once per process, not once per traced call."""


def _feature_names(code: CodeType) -> dict[_Arc, str]:
    entry = _FEATURES.get(id(code))
    if entry is None:
        if len(_FEATURES) > _CACHE_LIMIT:
            _FEATURES.clear()
        entry = _FEATURES[id(code)] = (code, {})
    return entry[1]


def _feature(code: CodeType, prefix: str, a: int, b: "int | str | tuple[int, str]") -> str:
    """The feature of an arc as the tracer records it, lines absolute: ``(A, B)`` a line-to-line arc, ``(A,
    "ret")`` leaving the function from line ``A``, ``(-1, (A, KIND))`` returning a value of ``KIND`` from line
    ``A``; named with lines relative to the function's first."""
    name = _code_name(code, prefix)
    first = code.co_firstlineno
    if isinstance(b, tuple):  # (-1, (A, KIND))
        return f"ret:{name}:{b[0] - first}={b[1]}"
    return f"arc:{name}:{a - first}>{b if isinstance(b, str) else b - first}"


ConfigRead = tuple[Any, str, tuple[Any, ...], bool]
"""A call of a watched method (:func:`outcomes_exercised`'s ``watch``): the object it was called on
(``self``), the method's name, its other arguments, and whether it ran inside a remembered model function."""


def _watched_call(frame: FrameType, inside_remembered: bool) -> ConfigRead:
    """The call a watched method's frame starts: ``self``, the method's name and its other arguments."""
    code = frame.f_code
    names = code.co_varnames[:code.co_argcount]
    given = frame.f_locals
    return given[names[0]], code.co_name, tuple(given[n] for n in names[1:]), inside_remembered


def outcomes_exercised(run: Callable[[], T], mapping: dict[CodeType, tuple[str, ...]] | None = None,
                       watch: frozenset[CodeType] = frozenset(), reads: list[ConfigRead] | None = None,
                       ) -> tuple[T, frozenset[str], frozenset[str]]:
    """Run ``run()``; its result, the clause IDs (as :func:`clauses_exercised`) and the outcome features:
    ``arc:FILE:QUALNAME:A>B`` for each line-to-line arc taken in a function of ``model/`` (lines relative
    to the function's first; ``B`` is ``ret`` for leaving it) and ``ret:FILE:QUALNAME:LINE=KIND`` for the kind of
    value it returned from line ``LINE`` (:func:`_value_kind`: a return statement's outcomes apart, so
    ``(False, True)`` from the ordinary damage part is another feature than from the Pre-emptive one).

    Uses :func:`sys.settrace`, or the compiled tracer's C trace function (either removed again even if ``run``
    raises); only the model's own frames are traced line by line. A remembered model function (:func:`_remembered_codes`) and
    everything it calls are left out, so the features of a step never depend on what the process asked
    before (generating a suite twice in one process gives the same suite).

    The compiled tracer (:func:`tracer_in_use`) records the same as the pure-Python one, the reference.

    ``watch``: methods (of rule configurations) whose calls are appended to ``reads`` (:data:`ConfigRead`),
    also inside remembered functions (but not when one watched method calls another), instead of being
    traced: neither they nor what they call add clauses or outcomes (:mod:`cardrules.oracle.trace.shared`
    adds those of the configuration in force).
    """
    mapping = model_clause_map() if mapping is None else mapping
    found = reads if reads is not None else []
    if tracer_in_use() == "compiled":
        result, clauses, features = _compiled().outcomes(run, tuple(watch), False, mapping, found)
        raise_if_lost()
        assert clauses is not None and features is not None  # given for every traced run
        return result, clauses, features
    result, called, taken = _outcomes_in_python(run, watch, found)
    raise_if_lost()  # a Ctrl-C raised in a tracer callback run for a generator's finalizer is lost there
    prefix = _model_prefix()
    named: set[str] = set()
    for code, arcs in taken:
        names = _feature_names(code)
        for arc in arcs:
            feature = names.get(arc)
            if feature is None:
                feature = names[arc] = _feature(code, prefix, *arc)
            named.add(feature)
    return result, frozenset(c for code in called for c in mapping.get(code, ())), frozenset(named)


_Taken = Iterable[tuple[CodeType, Iterable[_Arc]]]
"""The arcs a traced run took (:func:`_feature`), by code object."""


def _outcomes_in_python(run: Callable[[], T], watch: frozenset[CodeType], found: list[ConfigRead]
                        ) -> tuple[T, Iterable[CodeType], _Taken]:
    """:func:`outcomes_exercised`'s trace by :func:`sys.settrace`, the reference: ``run()``'s result, the code
    objects called (but remembered ones, what they call, and watched ones) and the arcs taken.

    Each frame's line tracer is a closure of its own holding the frame's last line, and code objects are
    told apart by identity (what was decided about each is remembered across calls), so a line event
    costs one set insertion of a pair of small values."""
    prefix = _model_prefix()
    remembered = _remembered_codes()
    kinds = _REMEMBERED.kinds
    pictured = _PICTURED
    seen: dict[int, CodeType] = {}
    arcs: dict[int, set[_Arc]] = {}
    inside_remembered = 0

    def leave(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal inside_remembered
        if event == "return":
            inside_remembered -= 1
        return frame.f_trace

    watched = {id(code) for code in watch}
    inside_watched = 0

    def leave_watched(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal inside_remembered, inside_watched
        if event == "return":
            inside_remembered -= 1
            inside_watched -= 1
        return frame.f_trace

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal inside_remembered, inside_watched
        if event != "call":
            return None
        code = frame.f_code
        key = id(code)
        if watched and key in watched:
            if not inside_watched:  # a watched method's own calls of another are part of its answer
                found.append(_watched_call(frame, inside_remembered > 0))
            inside_remembered += 1
            inside_watched += 1
            frame.f_trace_lines = False  # only its return is awaited
            return leave_watched
        if inside_remembered:
            # a generator resumed here keeps the line tracer of its last run unless told otherwise (Python
            # leaves a frame's tracer as it is when the call event's answer is None): untraced, as all else here
            frame.f_trace = None
            return None
        decided = kinds.get(key)
        if decided is None:
            decided = kinds[key] = (code, _kind_of(code, remembered, prefix))
        if decided[1] == REMEMBERED:
            inside_remembered += 1
            return leave
        seen[key] = code
        if decided[1] == OTHER:
            return None
        taken = arcs.get(key)
        if taken is None:
            taken = arcs[key] = set()
        add = taken.add
        first = last = code.co_firstlineno  # lines as the frame gives them: made relative once per arc (_feature)

        def local(frame: FrameType, event: str, arg: Any) -> Any:
            nonlocal last
            if event == "line":
                line = frame.f_lineno
                add((last, line))
                last = line
            elif event == "return":
                add((last, "ret"))
                if pictured[type(arg)]:
                    kind = _value_kind(arg)
                    if kind is not None:
                        add((-1, (last, kind)))
                last = first
            # the frame's own tracer (this function), not the name ``local``: a closure naming itself is a
            # reference cycle, one per traced frame, left to the garbage collector to find
            return frame.f_trace

        return local

    with _installed(sys.gettrace, sys.settrace, trace):
        result = run()
    return result, seen.values(), ((seen[key], taken) for key, taken in arcs.items())


def reads_made(run: Callable[[], T], watch: frozenset[CodeType], reads: list[ConfigRead]) -> T:
    """Run ``run()`` untraced but for the calls of the ``watch`` methods, appended to ``reads`` as
    :func:`outcomes_exercised` records them (not when one watched method calls another; every call counted
    as made outside a remembered function: nothing here is traced). Uses :func:`sys.settrace` (or the
    compiled tracer), removed again even if ``run`` raises."""
    if tracer_in_use() == "compiled":
        result = _compiled().outcomes(run, tuple(watch), True, {}, reads)[0]
    else:
        result = _reads_in_python(run, watch, reads)
    raise_if_lost()
    return result


def _reads_in_python(run: Callable[[], T], watch: frozenset[CodeType], reads: list[ConfigRead]) -> T:
    watched = {id(code) for code in watch}
    depth = 0

    def leave(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal depth
        if event == "return":
            depth -= 1
        return frame.f_trace

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal depth
        if event != "call" or id(frame.f_code) not in watched:
            frame.f_trace = None  # a generator resumed here keeps an outer trace's line tracer unless told otherwise
            return None
        if not depth:
            reads.append(_watched_call(frame, False))
        depth += 1
        frame.f_trace_lines = False
        return leave

    with _installed(sys.gettrace, sys.settrace, trace):
        return run()


# ---- the compiled tracer (oracle/trace/ctracer.c), an optional accelerator ----

TRACER_VARIABLE = "CARDRULES_TRACER"
"""The environment variable choosing the tracer: ``python`` (the reference), ``compiled`` (an error where it
was not built), or unset (the compiled one where it was built)."""

TRACERS = ("compiled", "python")


class TracerUnavailable(InputError):
    """:data:`TRACER_VARIABLE` names no tracer, or the compiled one where it cannot be used (bad input: exit 3)."""


_CHOSEN: list[str] = []
"""The tracer chosen (:func:`tracer_in_use`), once per process unless :func:`use_tracer` changes it."""


@lru_cache(maxsize=1)
def compiled_tracer_missing() -> str | None:
    """Why the compiled tracer (``cardrules.oracle.trace.ctracer``) cannot be used, or None where it can: it
    was not built (no C compiler at install), or it is older than its source (an editable install whose
    ``oracle/trace/ctracer.c`` changed since: reinstall)."""
    try:
        from cardrules.oracle.trace import ctracer
    except ImportError:
        return ("it is not built (no C compiler or no Python headers at install, CARDRULES_PURE_PYTHON=1, or a Python "
                "other than 3.11)")
    source = Path(__file__).with_name("ctracer.c")
    built_from = getattr(ctracer, "SOURCE_DIGEST", "")
    if built_from and source.is_file() and hashlib.sha256(source.read_bytes()).hexdigest() != built_from:
        return f"it was built from another {source.name} than the one here (install the project again)"
    return None


def use_tracer(name: str | None) -> str:
    """Trace with ``name`` (``compiled`` or ``python``) from now on in this process, or as
    :data:`TRACER_VARIABLE` says when None; the tracer chosen."""
    choice = os.environ.get(TRACER_VARIABLE, "") if name is None else name
    if choice not in ("", *TRACERS):
        raise TracerUnavailable(f"{TRACER_VARIABLE}={choice!r}: the tracers are {', '.join(TRACERS)}")
    missing = compiled_tracer_missing()
    if choice == "compiled" and missing:
        raise TracerUnavailable(f"the compiled tracer (cardrules.oracle.trace.ctracer) was asked for, but {missing}")
    _CHOSEN[:] = ["compiled" if not missing and choice != "python" else "python"]
    return _CHOSEN[0]


def tracer_in_use() -> str:
    """``compiled`` or ``python``: the tracer :func:`outcomes_exercised` and :func:`clauses_exercised` use."""
    return _CHOSEN[0] if _CHOSEN else use_tracer(None)


def pure_python_note() -> str | None:
    """What to tell a user whose model is traced in pure Python without asking for it, or None."""
    missing = compiled_tracer_missing()
    if tracer_in_use() == "compiled" or os.environ.get(TRACER_VARIABLE) == "python" or missing is None:
        return None
    return (f"note: the model is traced in pure Python, since the compiled tracer (cardrules.oracle.trace.ctracer) "
            f"cannot be used: {missing}. The results are the same, several times slower (README, Install).")


class _Compiled:
    """The compiled tracer of this process (one per nesting depth), with what its Python callbacks need."""

    def __init__(self) -> None:
        from cardrules.oracle.trace import ctracer

        self.found: list[ConfigRead] = []
        self.generation = -1
        self.busy = False
        self.prefix = _model_prefix()
        self.tracer = ctracer.Tracer(self._decide, _value_kind, self._on_watched, self._name)

    def _decide(self, code: CodeType) -> int:
        return _kind_of(code, _REMEMBERED.codes, self.prefix)

    def _on_watched(self, frame: FrameType, inside_remembered: bool) -> None:
        self.found.append(_watched_call(frame, inside_remembered))

    def _name(self, code: CodeType, a: int, b: int, kind: str | None) -> str:
        """The feature of the arc ``a`` -> ``b`` (-1: leaving), or of returning a value of ``kind`` from line ``a``."""
        if kind is not None:
            return _feature(code, self.prefix, -1, (a, kind))
        return _feature(code, self.prefix, a, b if b >= 0 else "ret")

    def outcomes(self, run: Callable[[], T], watch: tuple[CodeType, ...], watch_only: bool,
                 mapping: dict[CodeType, tuple[str, ...]], found: list[ConfigRead]
                 ) -> tuple[T, frozenset[str] | None, frozenset[str] | None]:
        """``run()``'s result, clauses and features (None where ``watch_only``), the watched calls appended to
        ``found``."""
        _remembered_codes()
        if self.generation != _REMEMBERED.generation:
            self.tracer.forget()
            self.generation = _REMEMBERED.generation
        self.found, self.busy = found, True
        try:
            return self.tracer.outcomes(run, watch, watch_only, mapping)
        finally:
            self.found, self.busy = [], False

    def calls(self, run: Callable[[], T], mapping: dict[CodeType, tuple[str, ...]]) -> tuple[T, frozenset[str]]:
        self.busy = True
        try:
            return self.tracer.calls(run, mapping)
        finally:
            self.busy = False


class _CompiledPool(threading.local):
    """The compiled tracers of a thread (a trace hook is a thread's own): one per nesting depth."""

    def __init__(self) -> None:
        self.tracers: list[_Compiled] = []


_COMPILED = _CompiledPool()


def _compiled() -> _Compiled:
    """A compiled tracer of this thread that is not running (a nested trace gets one of its own)."""
    for tracer in _COMPILED.tracers:
        if not tracer.busy:
            return tracer
    _COMPILED.tracers.append(_Compiled())
    return _COMPILED.tracers[-1]
