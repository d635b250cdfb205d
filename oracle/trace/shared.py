"""Traced answers of the model, shared by rule sets that differ only in decision options and versions.

The conformance generator traces the model (:func:`~cardrules.oracle.trace.coverage.outcomes_exercised`)
on every state it explores and every step it keeps, once per suite; most suites are one decision
option away from another, and most of their states and steps never ask that option. So the answers
are remembered here, per game, with what each one read from the rule configuration:

- an answer (the legal actions of a state, the successor or the refusal of a step) is kept with its
  clauses and outcome features, and with every call of a configuration method that reads a decision
  option (``option``, ``is_``, ``to_json``: :data:`OPTION_READERS`), with its answer;
- it is given again, to a configuration whose other fields (broken variants, hooks) are the same, when
  that configuration answers every one of those calls alike. The model is pure, so the same state, the
  same action and the same answers to what it asked give the same steps, line by line.
- a version field (the heal wording: :data:`VERSION_FIELDS`) is read without a call, so an answer counts it
  as read when it ran a line of the functions that read it; the others are given across versions too;
- a query (:data:`CONFIG_QUERIES`: whether one heal clause is in force) is a read like an option reader's,
  its answer what it returns: so an answer that asked only about clauses two wordings, or two redline
  readings, hold alike is given under both.

The configuration methods are not traced while an answer is recorded (their lines depend on the
configuration's options, not on the rules); their clauses and outcomes are traced once per configuration
and added to every answer given under it, as a direct trace would have found them. A function the model
remembers (a ``functools`` cache) and that takes a configuration is asked afresh while an answer is
recorded (:func:`_config_caches`), so the options it reads are seen; one whose only parameter is the
configuration (the heal clauses in force) is itself a read, with what it returns as its answer: an answer
is given under a configuration for which it returns the same, whatever options it read to work that out
(under the revised heal wording the redline options change nothing it returns).

The claim is checked as answers are given: one answer in :data:`CHECK_EVERY` given again is also traced
directly, and a difference raises :class:`UnsoundSharing`.
"""

from __future__ import annotations

import dataclasses
import gc
import inspect
import pickle
import sys
import typing
from dataclasses import dataclass
from functools import lru_cache
from types import CodeType
from typing import Any, Callable, Hashable, Sequence, TypeVar

from cardrules.model.errors import IllegalAction
from cardrules.oracle.trace.coverage import (ConfigRead, loaded_model_modules, model_function, outcomes_exercised,
                                             reads_made, remembered_functions)

OPTION_READERS = ("option", "is_", "to_json")
"""The configuration methods that read decision options (every other reads fields that must be equal)."""
OPTIONS_FIELDS = ("variants", "overrides")
"""The configuration field holding the decision options (by game: Redemption's, FFTCG's)."""
CHECK_EVERY = 64
"""One answer given again in this many is also traced directly and compared."""
VERSION_FIELDS: dict[str, tuple[str, ...]] = {
    "heal_version": ("redemption/healable.py:explain", "redemption/wording.py:heal_clauses",
                     "redemption/wording.py:previous"),
}
"""The configuration fields that select a rule version, each with the functions of ``model/`` whose code
reads it (``FILE:QUALNAME``, as :func:`~cardrules.oracle.trace.coverage.outcomes_exercised` names them,
code nested in them included; besides the configuration's own checks when it is made). A traced answer
that took no line of those functions did not read the field and is shared across versions; one that did,
and every untraced answer, counts the field as read (``field:NAME``). No remembered function that takes
the configuration with other arguments may be one of them (its lines are not traced: :class:`View`
refuses one). A test scans the model's source for reads of these fields (by attribute or by name) outside
those functions, and the sampled check (:data:`CHECK_EVERY`) compares given answers with the model's own.
``heal_clauses`` is remembered (its lines are never traced: it is read as a whole,
:meth:`View.config_only_reads`) and ``previous`` has no caller now: both are listed because they read the
field, as the scan requires. A remembered function that called one of these functions would hide the read
(its callees are not traced either); none does (only ``heal_clauses`` is remembered and takes the
configuration)."""

CONFIG_QUERIES: dict[str, tuple[str, ...]] = {"cardrules.model.redemption.wording": ("in_force",)}
"""Model functions (by module) of a configuration and further arguments, each call of which is a read like an
option reader's: what it returns, for those arguments, is its answer (the heal wording's ``in_force(config,
clause)``: an answer that asked whether one clause is in force is given under a configuration for which that
clause's membership is the same, whatever else the two wordings hold). A function here must be pure and
read the configuration only through what it returns; its lines are traced where its reads are added
(:meth:`View.reading`), as a direct trace would find them."""


class UnsoundSharing(AssertionError):
    """An answer given again differs from the model's own: the model read the configuration otherwise than
    through its option methods (a bug to fix here, never to ignore)."""


def options_field(config: Any) -> str:
    """The name of the configuration's decision-options field."""
    names = [f.name for f in dataclasses.fields(config) if f.name in OPTIONS_FIELDS]
    if len(names) != 1:
        raise TypeError(f"{type(config).__name__} has no single decision-options field ({', '.join(OPTIONS_FIELDS)})")
    return names[0]


def version_fields(config: Any) -> list[str]:
    """The configuration's (or configuration class's) fields of :data:`VERSION_FIELDS`."""
    return [f.name for f in dataclasses.fields(config) if f.name in VERSION_FIELDS]


def version_key(game: Any) -> tuple[type, Any]:
    """What two games of one version have in common: the game and its configuration but for the decision
    options (the versions, broken variants and hooks)."""
    config = game.config
    return type(game), dataclasses.replace(config, **{options_field(config): ()})


def sharing_key(game: Any) -> Hashable:
    """What two games must have in common for answers to be shared between them: :func:`version_key` but for
    the versions (:data:`VERSION_FIELDS`, set to their defaults): the game, broken variants and hooks."""
    kind, config = version_key(game)
    fields = {f.name: f for f in dataclasses.fields(config)}
    return kind, dataclasses.replace(config, **{name: fields[name].default for name in version_fields(config)})


def _function_of(feature: str) -> str:
    """The function (``FILE:QUALNAME``, FILE as :func:`~cardrules.oracle.trace.coverage.model_file` names it) of an outcome feature
    (``arc:FILE:QUALNAME:A>B`` or ``ret:FILE:QUALNAME:LINE=KIND``)."""
    _, file, qualname, _ = feature.split(":", 3)
    return f"{file}:{qualname}"


@lru_cache(maxsize=1 << 17)
def _reads_version(feature: str, functions: tuple[str, ...]) -> bool:
    """An outcome feature of a line in one of ``functions`` (:func:`_in_functions`), worked out once per
    feature: every recorded answer asks it of each of its hundreds of features."""
    return _in_functions(_function_of(feature), functions)


def _in_functions(function: str, functions: tuple[str, ...]) -> bool:
    """``function`` (``FILE:QUALNAME``) is one of ``functions`` or code nested in one of them (a comprehension,
    a lambda, a local function)."""
    return function in functions or any(function.startswith(f"{name}.<locals>.") for name in functions)


def _reader_codes(config_type: type) -> frozenset[CodeType]:
    return frozenset(getattr(config_type, name).__code__ for name in OPTION_READERS if hasattr(config_type, name))


def _config_params(function: Any, config_type: type) -> tuple[list[str], list[str] | None]:
    """A remembered function's parameters, and those whose resolved type hint is ``config_type`` (None when
    the hints cannot be resolved; another game's configuration class may have the same name, so a hint's
    name alone does not tell)."""
    params = list(inspect.signature(function.__wrapped__).parameters.values())
    try:
        hints = typing.get_type_hints(function.__wrapped__)
    except (NameError, TypeError):
        return [p.name for p in params], None
    return [p.name for p in params], [p.name for p in params if hints.get(p.name) is config_type]


def _config_caches(config_type: type, functions: list[Any]) -> list[Any]:
    """The remembered model ``functions`` (:func:`~cardrules.oracle.trace.coverage.remembered_functions` of the
    model modules loaded now) that take a configuration of ``config_type``: asked afresh while an answer is
    recorded (one whose type hints cannot be resolved is taken if a parameter's hint has the class's name:
    asking afresh more than needed costs time, never an answer)."""
    found = []
    for function in functions:
        try:
            names, configs = _config_params(function, config_type)
        except (TypeError, ValueError):
            continue
        if configs is None:
            hinted = inspect.signature(function.__wrapped__).parameters.values()
            if any(p.annotation is config_type or p.annotation == config_type.__name__ for p in hinted):
                found.append(function)
        elif configs:
            found.append(function)
    return found


def _takes_config_only(function: Any, config_type: type) -> bool:
    """``function`` (a remembered one) has one parameter, a configuration of ``config_type`` (its type hint
    resolved)."""
    names, configs = _config_params(function, config_type)
    return len(names) == 1 and configs == names


K = TypeVar("K", "_Answer", "_Result")

Read = tuple[Any, str, tuple[Any, ...]]
"""An option-reading call: the configuration it was made on (None: the rule set's own, the one that
varies), the method's name and its other arguments."""


@dataclass(frozen=True)
class _Answer:
    result: Any
    """What the call returned, or the :class:`IllegalAction` it raised."""
    clauses: frozenset[str]
    outcomes: frozenset[str]
    reads: tuple[Read, ...]
    """The option-reading calls made, in order of first call."""
    answers: tuple[Any, ...]
    traced_reads: tuple[Read, ...]
    """Those made outside a remembered function (a direct trace would trace them)."""
    condition: int
    """The number of its (``reads``, ``answers``) pair (:meth:`SharedAnswers.condition`): a view works out
    once whether it answers a pair alike, for every answer recorded with that pair."""


@dataclass(frozen=True)
class _Result:
    """An answer worked out untraced (:meth:`SharedAnswers.result`): what the call returned (or the
    :class:`IllegalAction` it raised), and the condition of the option reads it made."""

    result: Any
    condition: int


class _Keyed:
    """A state as a dictionary key, with its hash worked out once (a Redemption state hashes all its
    parts on every ``hash``); equal to another wrapper of an equal state."""

    __slots__ = ("state", "hash")

    def __init__(self, state: Any) -> None:
        self.state = state
        self.hash = hash(state)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Keyed) and (other.state is self.state
                                              or (other.hash == self.hash and other.state == self.state))

    def __reduce__(self) -> tuple[type, tuple[Any]]:
        """Pickled as its state: the hash is worked out again where it is unpickled (another process may
        hash text otherwise)."""
        return _Keyed, (self.state,)


KEYED_LIMIT = 1 << 20
"""States whose key wrapper is remembered by identity before the memory of them starts afresh."""

FULL_COLLECTIONS_RARER = 50
"""While answers are kept (:class:`SharedAnswers` as a context manager), the garbage collector looks at the
oldest objects this many times more rarely: the answers are long-lived and many (hundreds of thousands of
objects), and each full collection walks them all, which took half a suite's time."""


class SharedAnswers:
    """The answers of every rule set of one run (one :class:`View` per game object).

    Used as a context manager, it also makes the garbage collector's full collections rarer while it is
    open (:data:`FULL_COLLECTIONS_RARER`), and restores the thresholds it found."""

    def __init__(self) -> None:
        self._answers: dict[Hashable, list[_Answer]] = {}
        self.recorded = 0
        self.given = 0
        self._checked = 0
        self._bases: dict[Hashable, int] = {}
        self._sets: dict[frozenset[str], frozenset[str]] = {}
        """Each set of clauses or outcomes once (answers share most of theirs)."""
        self._version_reads: dict[tuple[tuple[str, ...], frozenset[str]], bool] = {}
        """(the functions reading a version field, a set of outcomes of :attr:`_sets`) -> a line of the set is
        of one of them."""
        self._thresholds: tuple[int, int, int] | None = None
        self._keyed: dict[int, tuple[Any, _Keyed]] = {}
        """``id(state)`` -> the state (kept alive, so the id stays its own) and its key wrapper."""
        self._first: dict[_Keyed, _Keyed] = {}
        """Each state's key wrapper, the first made for an equal state: keys that hold the same wrapper are
        told equal by identity, without comparing their states part by part."""
        self._canonical: dict[tuple[type, _Keyed], Hashable] = {}
        self._conditions: dict[Hashable, int] = {}
        self._condition_list: list[tuple[tuple[Read, ...], tuple[Any, ...]]] = []
        self._results: dict[Hashable, list[_Result]] = {}
        """The untraced answers (:meth:`result`), apart from the traced ones: they have no features."""
        self._answered: dict[Any, tuple[dict[Read, Any], dict[int, bool],
                                         dict[tuple[Read, ...], tuple[frozenset[str], frozenset[str]]]]] = {}
        """Configuration -> what it answers (:meth:`answered`)."""

    KEPT = ("_answers", "_results", "_bases", "_sets", "_conditions", "_condition_list")
    """What :meth:`to_bytes` keeps: the answers, and what their keys and conditions are numbered by."""

    def to_bytes(self) -> bytes:
        """The answers recorded so far, pickled (for another process: :meth:`from_bytes`)."""
        return pickle.dumps({name: getattr(self, name) for name in self.KEPT}, protocol=pickle.HIGHEST_PROTOCOL)

    @classmethod
    def from_bytes(cls, data: bytes) -> "SharedAnswers":
        """Answers as :meth:`to_bytes` kept them, given again as in the process that recorded them."""
        shared = cls()
        for name, value in pickle.loads(data).items():
            if name in cls.KEPT:
                setattr(shared, name, value)
        for keys in (shared._answers, shared._results):
            for key in keys:  # (base, kind, item, the state's key wrapper)
                wrapper = typing.cast(tuple[Any, ...], key)[-1]
                shared._first.setdefault(wrapper, wrapper)
        return shared

    def keyed(self, state: Any) -> _Keyed:
        """The key wrapper of ``state``: looked up once per state object, the same wrapper for equal states."""
        found = self._keyed.get(id(state))
        if found is not None and found[0] is state:
            return found[1]
        if len(self._keyed) >= KEYED_LIMIT:
            self._keyed.clear()
        if len(self._first) >= KEYED_LIMIT:
            self._first.clear()
        made = _Keyed(state)
        wrapper = self._first.setdefault(made, made)
        self._keyed[id(state)] = (state, wrapper)
        return wrapper

    def canonical(self, game: Any, state: Any) -> Hashable:
        """``game.canonical_key(state)``, worked out once per equal state (it depends on the state alone)."""
        key = (type(game), self.keyed(state))
        found = self._canonical.get(key)
        if found is None:
            found = self._canonical[key] = game.canonical_key(state)
        return found

    def __enter__(self) -> "SharedAnswers":
        self._thresholds = gc.get_threshold()
        young, middle, old = self._thresholds
        gc.set_threshold(young, middle, old * FULL_COLLECTIONS_RARER)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None

    def _one(self, found: frozenset[str]) -> frozenset[str]:
        return self._sets.setdefault(found, found)

    def base_number(self, base: Hashable) -> int:
        """A small number for a game and its configuration without options (keys stay cheap to hash)."""
        return self._bases.setdefault(base, len(self._bases))

    def view(self, game: Any) -> "View":
        """The answers as seen under ``game``'s rule configuration (its ``config``)."""
        return View(self, game)

    def answered(self, config: Any) -> tuple[dict[Read, Any], dict[int, bool],
                                             dict[tuple[Read, ...], tuple[frozenset[str], frozenset[str]]]]:
        """What ``config`` answers, worked out as asked: each read, each condition by number, the clauses and
        outcomes of traced reads. The same dictionaries for equal configurations (they answer alike), new ones
        for a configuration that cannot be a dictionary key."""
        try:
            found = self._answered.get(config)
        except TypeError:
            return {}, {}, {}
        if found is None:
            found = self._answered[config] = ({}, {}, {})
        return found

    def condition(self, reads: tuple[Read, ...], answers: tuple[Any, ...]) -> int:
        """A number for the pair of option reads and their answers (the same number for equal pairs; a pair
        that cannot be a dictionary key gets a number of its own)."""
        pair = (reads, answers)
        try:
            key = (reads, tuple(map(_hashable, answers)))
            found = self._conditions.get(key)
        except TypeError:
            self._condition_list.append(pair)
            return len(self._condition_list) - 1
        if found is None:
            found = self._conditions[key] = len(self._condition_list)
            self._condition_list.append(pair)
        return found

    def holds(self, view: "View", condition: int) -> bool:
        """``view``'s configuration answers the option reads of ``condition`` alike (worked out once per view)."""
        found = view.holding.get(condition)
        if found is None:
            reads, answers = self._condition_list[condition]
            found = view.holding[condition] = all(view.ask(read) == given for read, given in zip(reads, answers))
        return found

    def _reads(self, view: "View", reads: list[ConfigRead]) -> dict[Read, bool]:
        """The reads made, in order of first call, each with whether any call of it was outside a
        remembered function (made on the view's own configuration: named None); a remembered function of
        the configuration is never traced (a direct trace leaves out what it does)."""
        order: dict[Read, bool] = {}
        functions = view.config_functions
        for target, name, args, inside in reads:  # a field read (``field:NAME``) is always made inside
            read = (None if target is view.config else target, name, args)
            order[read] = order.get(read, False) or not (inside or name in functions)
        return order

    def _record(self, view: "View", key: Hashable, run: Callable[[], Any]) -> _Answer:
        reads: list[ConfigRead] = []
        for cache in view.caches:
            cache.cache_clear()
        result, clauses, outcomes = outcomes_exercised(lambda: _called(run), watch=view.readers, reads=reads)
        if isinstance(result, BaseException):
            result = result.with_traceback(None)  # kept without the frames it was raised through
        clauses, outcomes = self._one(clauses), self._one(outcomes)
        for name in view.versions:  # a line run where the field is read: read, for all this answer knows
            if self._ran_reader_of(name, outcomes):
                reads.append((view.config, f"field:{name}", (), True))
        order = self._reads(view, reads)
        asked = tuple(view.ask(read) for read in order)
        answer = _Answer(result, clauses, outcomes, tuple(order), asked,
                         tuple(r for r, traced in order.items() if traced), self.condition(tuple(order), asked))
        self._answers.setdefault(key, []).append(answer)
        self.recorded += 1
        return answer

    def _ran_reader_of(self, name: str, outcomes: frozenset[str]) -> bool:
        """Some of ``outcomes`` (a set kept by :meth:`_one`) is of a line of a function that reads the version
        field ``name`` (:data:`VERSION_FIELDS`): worked out once per set (answers share most of theirs)."""
        functions = VERSION_FIELDS[name]
        key = (functions, outcomes)
        found = self._version_reads.get(key)
        if found is None:
            found = self._version_reads[key] = any(_reads_version(feature, functions) for feature in outcomes)
        return found

    def _given(self, view: "View", kept: Sequence[K]) -> K | None:
        """The first of ``kept`` (the traced or the untraced answers of one call) whose condition holds under
        ``view``, counted as given; None if none does."""
        for answer in kept:
            if self.holds(view, answer.condition):
                self.given += 1
                return answer
        return None

    def _untraced(self, view: "View", key: Hashable, run: Callable[[], Any]) -> tuple[Any, bool]:
        """``run()``'s result untraced, and whether it was given again: one recorded before whose option reads
        ``view`` answers alike, or else ``run()`` with the option reads it makes watched, recorded (as
        :meth:`_record`, without features). A remembered function of the configuration alone is not asked
        afresh (asking again what every untraced answer may ask cost more than the answers saved): it
        counts as read (:meth:`View.config_only_reads`), whether ``run`` asked it or not, so the answer is
        given only where it returns the same too."""
        found = self._given(view, self._results.get(key, ()))
        if found is not None:
            return found.result, True
        reads = list(view.config_only_reads())
        for cache in view.caches:
            if cache not in view.config_only:
                cache.cache_clear()
        result = reads_made(lambda: _called(run), view.untraced_readers, reads)
        if isinstance(result, BaseException):
            result = result.with_traceback(None)
        order = tuple(self._reads(view, reads))
        self._results.setdefault(key, []).append(
            _Result(result, self.condition(order, tuple(view.ask(read) for read in order))))
        return result, False

    def traced(self, view: "View", kind: str, state: Any, item: Hashable, run: Callable[[], Any]
               ) -> tuple[Any, frozenset[str], frozenset[str]]:
        """``run()``'s result (an :class:`IllegalAction` it raised is returned), clauses and outcome
        features, as :func:`outcomes_exercised` finds them under ``view``'s configuration; ``kind``, ``state``
        and ``item`` name the call (``run`` must be the model asked exactly that)."""
        key = (view.base, kind, item, self.keyed(state))
        answer = self._given(view, self._answers.get(key, ()))
        if answer is None:
            return self._give(view, self._record(view, key, run))
        found = self._give(view, answer)
        self._checked += 1
        if self._checked % CHECK_EVERY == 1:
            self._check(view, kind, state, item, run, found)
        return found

    def result(self, view: "View", kind: str, state: Any, item: Hashable, run: Callable[[], Any],
               remember: bool = False) -> Any:
        """``run()``'s result (an :class:`IllegalAction` it raised is returned): an answer already recorded
        that holds under ``view``'s configuration, or else ``run()`` itself, not traced (the explorer asks
        for every successor; only some are traced later). ``remember``: an answer worked out here is kept
        with the option reads it made (:meth:`_untraced`), and given again where they agree: for what every
        suite asks and never traces (the targeted derivations try thousands of actions per suite); keeping
        every successor the explorer asks costs more than it saves (most are traced later)."""
        key = (view.base, kind, item, self.keyed(state))
        answer = self._given(view, self._answers.get(key, ()))
        if answer is None:
            if not remember:
                return _called(run)
            result, given = self._untraced(view, key, run)
            if not given:
                return result
        else:
            result = answer.result
        self._checked += 1
        if self._checked % CHECK_EVERY == 1 and not _same_result(_called(run), result):
            raise UnsoundSharing(f"{kind} of {item!r} under {view.config!r}: the shared result differs from the "
                                 "model's own")
        return result

    def _give(self, view: "View", answer: _Answer) -> tuple[Any, frozenset[str], frozenset[str]]:
        clauses, outcomes = view.reading(answer.traced_reads)
        # the answer's own sets where reading adds nothing: the same set object for the same lines run
        return (answer.result, answer.clauses | clauses if clauses else answer.clauses,
                answer.outcomes | outcomes if outcomes else answer.outcomes)

    def _check(self, view: "View", kind: str, state: Any, item: Hashable, run: Callable[[], Any],
               found: tuple[Any, frozenset[str], frozenset[str]]) -> None:
        direct = outcomes_exercised(lambda: _called(run))
        same_result = _same_result(direct[0], found[0])
        if not same_result or direct[1:] != found[1:]:
            raise UnsoundSharing(f"{kind} of {item!r} under {view.config!r}: the shared answer differs from the "
                                 f"model's own (result {'same' if same_result else 'differs'}; clauses "
                                 f"{sorted(direct[1] ^ found[1])}, outcomes {sorted(direct[2] ^ found[2])[:5]} differ)")


def _called(run: Callable[[], Any]) -> Any:
    """``run()``, or the :class:`IllegalAction` it raised."""
    try:
        return run()
    except IllegalAction as refused:
        return refused


def _hashable(value: Any) -> Hashable:
    """``value`` as a dictionary key, tagged with its type: a dictionary (``to_json``'s answer) by its sorted
    items, a list by its items."""
    if isinstance(value, dict):
        return dict, tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    if isinstance(value, list):
        return list, tuple(_hashable(v) for v in value)
    return type(value), value  # tagged: 1 and True, or a list and a tuple, are other answers


def _same_result(direct: Any, given: Any) -> bool:
    """The model's own result and a given one agree (a refusal by its arguments and clauses)."""
    if isinstance(given, IllegalAction):
        return (isinstance(direct, IllegalAction) and direct.args == given.args
                and direct.clause_ids == given.clause_ids)
    return bool(direct == given)


@dataclasses.dataclass(frozen=True)
class _Shape:
    """What :class:`View` needs of a configuration class (and the model modules loaded): worked out once."""

    caches: list[Any]
    config_only: list[Any]
    config_functions: dict[str, Any]
    queries: dict[str, Any]
    readers: frozenset[CodeType]
    untraced_readers: frozenset[CodeType]
    versions: list[str]


_SHAPES: dict[Hashable, _Shape] = {}
_SHAPES_LIMIT = 64


def _queries(config_type: type) -> dict[str, Any]:
    """The functions of :data:`CONFIG_QUERIES` in the model modules loaded now whose first parameter is a
    configuration of ``config_type`` (its type hint resolved), by name."""
    found = {}
    for module_name, names in CONFIG_QUERIES.items():
        module = sys.modules.get(module_name)
        for name in names if module is not None else ():
            function = getattr(module, name)
            first = next(iter(inspect.signature(function).parameters), None)
            try:
                hints = typing.get_type_hints(function)
            except (NameError, TypeError):  # not a query then: traced as any model function (asks no less)
                continue
            if first is not None and hints.get(first) is config_type:
                found[name] = function
    return found


def _shape(config_type: type) -> _Shape:
    """The remembered functions of ``config_type`` (those of the configuration alone apart), the calls recorded
    as reads and the version fields, for the model modules loaded now; a remembered function that could hide a
    read raises TypeError (every time it is asked: nothing is kept then). Kept by what it is worked out from:
    the class, the remembered functions of the loaded model modules with their code, the option readers' code
    and the queries (:data:`CONFIG_QUERIES`) with their code (a function added to a module, or code swapped in
    place, as the mutation probe does, is seen)."""
    functions = remembered_functions(loaded_model_modules())
    option_readers = _reader_codes(config_type)
    queries = _queries(config_type)
    key = (config_type, tuple((f, f.__wrapped__.__code__) for f in functions), option_readers,
           tuple((name, f, f.__code__) for name, f in queries.items()))
    found = _SHAPES.get(key)
    if found is not None:
        return found
    caches = _config_caches(config_type, functions)
    config_only = [cache for cache in caches if _takes_config_only(cache, config_type)]
    config_functions = {cache.__wrapped__.__code__.co_name: cache for cache in config_only}
    clash = sorted(name for name in [*config_functions, *queries] if hasattr(config_type, name))
    clash += sorted(set(config_functions) & set(queries))
    if clash or len(config_functions) < len(config_only):  # a read is named by the name alone
        raise TypeError(f"{config_type.__name__}: remembered functions or queries of it named alike, or as its "
                        f"methods: {clash or [c.__wrapped__.__qualname__ for c in config_only]}")
    versions = version_fields(config_type)
    hidden = sorted(cache.__wrapped__.__qualname__ for cache in caches if cache not in config_only
                    and any(_in_functions(model_function(cache.__wrapped__.__code__), VERSION_FIELDS[name])
                            for name in versions))
    if hidden:  # its lines, reading a version, would not be traced: the read would go unseen
        raise TypeError(f"remembered functions of the configuration and more that read a version: {hidden}")
    untraced_readers = option_readers | frozenset(cache.__wrapped__.__code__ for cache in config_only)
    readers = untraced_readers | frozenset(function.__code__ for function in queries.values())
    if len(_SHAPES) >= _SHAPES_LIMIT:
        _SHAPES.clear()
    found = _SHAPES[key] = _Shape(caches, config_only, config_functions, queries, readers, untraced_readers, versions)
    return found


class View:
    """The shared answers under one game's rule configuration; the game itself, for the explorer, with its
    listing and stepping answered from them where they hold, else by the model untraced
    (:meth:`legal_actions`, :meth:`step`, :meth:`successor`), and everything else passed through."""

    def __init__(self, shared: SharedAnswers, game: Any) -> None:
        self.shared, self.game, self.config = shared, game, game.config
        self.base = shared.base_number(sharing_key(game))
        shape = _shape(type(self.config))
        self.caches = shape.caches
        self.config_only = shape.config_only
        """The remembered functions whose one parameter is the configuration: each is a read of its own
        (:meth:`ask`), named by its function's name."""
        self.config_functions = shape.config_functions
        self.queries = shape.queries
        """The functions of :data:`CONFIG_QUERIES` that take this configuration, by name: each call a read."""
        self.readers = shape.readers
        """The calls recorded as reads: the option readers, the remembered functions of the configuration and
        the queries."""
        self.untraced_readers = shape.untraced_readers
        """The calls recorded as reads of an untraced answer: not the queries (every untraced answer counts the
        remembered functions of the configuration as read, :meth:`config_only_reads`, and a query's answer
        follows from theirs)."""
        self.versions = shape.versions
        """The configuration's version fields (:data:`VERSION_FIELDS`): read as ``field:NAME``."""
        self._asked, self.holding, self._reading = shared.answered(self.config)
        """What this configuration answers (shared by the views of equal configurations): each read, whether
        it answers a condition (by number, :meth:`SharedAnswers.condition`) alike, and the traced reads."""

    def config_only_reads(self) -> list[ConfigRead]:
        """A call of each remembered function of the configuration alone, on this configuration, and a read
        of each version field, as made inside a remembered function (nothing of it is traced)."""
        return ([(self.config, name, (), True) for name in self.config_functions]
                + [(self.config, f"field:{name}", (), True) for name in self.versions])

    def ask(self, read: Read) -> Any:
        """The answer to one read (made on this rule set's configuration if it was made on the recording
        rule set's): an option reader's, a remembered function's of the configuration, or a query's."""
        if read not in self._asked:
            target, name, args = read
            config = self.config if target is None else target
            function = self.config_functions.get(name) or self.queries.get(name)
            if function is not None:
                self._asked[read] = function(config, *args)
            elif name.startswith("field:"):
                self._asked[read] = getattr(config, name[len("field:"):])
            else:
                self._asked[read] = getattr(config, name)(*args)
        return self._asked[read]

    def reading(self, reads: tuple[Read, ...]) -> tuple[frozenset[str], frozenset[str]]:
        """The clauses and outcomes of making ``reads`` here, traced."""
        if reads not in self._reading:
            config, queries = self.config, self.queries
            _, clauses, outcomes = outcomes_exercised(
                lambda: [queries[n](config if t is None else t, *a) if n in queries
                         else getattr(config if t is None else t, n)(*a) for t, n, a in reads])
            self._reading[reads] = clauses, outcomes
        return self._reading[reads]

    def traced(self, kind: str, state: Any, item: Hashable, run: Callable[[], Any]
               ) -> tuple[Any, frozenset[str], frozenset[str]]:
        """:meth:`SharedAnswers.traced` under this view."""
        return self.shared.traced(self, kind, state, item, run)

    def result(self, kind: str, state: Any, item: Hashable, run: Callable[[], Any], remember: bool = False) -> Any:
        """:meth:`SharedAnswers.result` under this view (an answer already recorded, else ``run()`` untraced)."""
        return self.shared.result(self, kind, state, item, run, remember)

    def legal_actions(self, state: Any) -> Any:
        return self.result("legal", state, None, lambda: self.game.legal_actions(state))

    def step(self, state: Any, action: Any) -> Any:
        result = self.result("step", state, action, lambda: self.game.step(state, action))
        if isinstance(result, IllegalAction):
            raise result.with_traceback(None)  # the shared refusal, without the frames of an earlier raise
        return result

    def canonical_key(self, state: Any) -> Hashable:
        """The game's canonical key of ``state``, shared by every view of the run."""
        return self.shared.canonical(self.game, state)

    def successor(self, state: Any, action: Any) -> Any:
        """``step``'s answer (``successor`` is ``step`` for a listed action, without judging it again)."""
        return self.step(state, action)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)
