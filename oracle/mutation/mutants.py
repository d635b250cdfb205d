"""Single-point mutants of the reference model (``model/``), by an AST mutator, plus named hand-written ones.

Operators (each a plausible one-token misreading of a rule):

* ``Lt->LtE`` and the like: a comparison flipped (``<``/``<=``, ``>``/``>=``,
  ``==``/``!=``, ``in``/``not in``, ``is``/``is not``);
* ``and->or``, ``or->and``: a boolean connective swapped;
* ``not-removed``: ``not x`` read as ``x``;
* ``const+1``, ``const-1``: an integer constant (a threshold, a count, an index) off by one;
* ``return-True->False``, ``return-False->True``: a predicate's literal answer flipped;
* ``swap-args``: the two positional arguments of a call (both plain names or attributes) swapped.

What is mutated: every function and method body of the model modules that
implement clauses (a module with at least one ``@implements``) and of each
game's state modules (:data:`STATE_MODULES`: the state and its consistency
rules), except the JSON form and value plumbing (``to_json``, ``from_json``,
dunder methods, input readers), which no rule clause describes.

A mutant's ID is ``FILE:QUALNAME:OPERATOR:HASH`` (file relative to
``model/``, the qualified name of the function, the operator, and the first
8 hex digits of the SHA-256 of the mutated fragment's normalised source,
``ast.unparse``; for an integer constant or a literal ``return`` the
fragment is the nearest enclosing expression or statement line, so that
``1`` in ``x < 1`` and ``1`` in ``y + 1`` differ). The same fragment mutated
the same way twice in one function gets ``.2``, ``.3`` ... in body order.
So an ID survives any edit outside the fragment itself (lines added above
it, other functions changed, the file reformatted), with one exception: an
identical fragment added earlier in the same function takes the plain ID
and shifts the suffixes of the later ones. Its *area* is the
catalogue area of the clauses its function implements (``@implements``),
or, for an undecorated helper, the area most clauses of its module belong
to. The line and column (:attr:`Mutant.line`, :attr:`Mutant.col`) are where
the fragment is today; they are shown, never part of the ID.

Named mutants (:data:`NAMED`) are hand-written misreadings that the AST
operators cannot express (two survivors a review of the suites found, and
three clauses whose code has no single-point change under the default rule
set: an element party, a P icon party, no heal from the discard pile);
every probe includes them.
"""

from __future__ import annotations

import __future__
import ast
import copy
import importlib
import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import CodeType, FunctionType
from typing import Iterator, Sequence, cast

from cardrules.oracle.mutation.operators import Apply, Change, located_changes, node_key

MODEL_PACKAGE = "cardrules.model"
SKIPPED_FUNCTIONS = frozenset({"to_json", "from_json", "state_to_json", "state_from_json"})
"""The JSON form: no rule clause describes it."""
SKIPPED_CLASSES = frozenset({"JsonReader"})
"""Input readers (validation of files), not rules."""
FLAGS = __future__.annotations.compiler_flag

class MutantError(ValueError):
    """A mutant ID, area or named mutant that does not exist or cannot be applied."""


@dataclass(frozen=True)
class Mutant:
    """One change at one place of one function of the model."""

    id: str
    module: str
    """Dotted module name, e.g. ``cardrules.model.fftcg.damage``."""
    function: str
    """Qualified name inside the module, e.g. ``dealing_sides`` or ``State.forward``."""
    operator: str
    description: str
    """What changed, e.g. ``line 119: `a < b` -> `a <= b```."""
    clauses: tuple[str, ...]
    """The clauses its function (or class) implements; for an undecorated helper, every clause of its module."""
    area: str
    game: str
    line: int = 0
    col: int = 0
    old: str = ""
    """Named mutants only: the source text replaced in the function ..."""
    new: str = ""
    """... and its replacement."""
    own: bool = True
    """Its function or class is itself marked ``@implements`` (an undecorated helper is not)."""

    @property
    def named(self) -> bool:
        return self.id.startswith("named:")


# --- source and live objects ------------------------------------------------------


def model_root() -> Path:
    return Path(importlib.import_module(MODEL_PACKAGE).__file__ or "").parent


def module_file(module: str) -> Path:
    return Path(importlib.import_module(module).__file__ or "")


@lru_cache(maxsize=None)
def _source(module: str) -> str:
    return module_file(module).read_text(encoding="utf-8")


def _functions(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """(qualified name, node) of every module-level function and method of a module-level class."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node
        elif isinstance(node, ast.ClassDef) and node.name not in SKIPPED_CLASSES:
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield f"{node.name}.{item.name}", item


def live_function(module: str, qualname: str) -> FunctionType:
    """The function object the running model calls for ``module.qualname`` (unwrapped)."""
    obj: object = importlib.import_module(module)
    for part in qualname.split("."):
        space = getattr(obj, "__dict__", {})
        if part not in space:
            raise MutantError(f"{module}.{qualname}: not found in the running model")
        obj = space[part]
    if isinstance(obj, property):
        obj = obj.fget
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    while hasattr(obj, "__wrapped__"):
        obj = obj.__wrapped__
    if not isinstance(obj, FunctionType):
        raise MutantError(f"{module}.{qualname}: not a plain function ({type(obj).__name__})")
    return obj


def _skipped(qualname: str) -> bool:
    name = qualname.rsplit(".", 1)[-1]
    return name in SKIPPED_FUNCTIONS or (name.startswith("__") and name.endswith("__"))


# --- compiling a mutant -----------------------------------------------------------


def _compile_function(module: str, qualname: str, tree: ast.Module) -> CodeType:
    """The code object of ``qualname`` as written in ``tree`` (compiled alone, decorators dropped)."""
    found = dict(_functions(tree)).get(qualname)
    if found is None:
        raise MutantError(f"{module}.{qualname}: no such function in the source")
    fn = copy.deepcopy(found)
    fn.decorator_list = []
    code = compile(ast.Module(body=[fn], type_ignores=[]), str(module_file(module)), "exec", flags=FLAGS,
                   dont_inherit=True)
    inner = next(c for c in code.co_consts if isinstance(c, CodeType) and c.co_name == fn.name)
    original = live_function(module, qualname).__code__
    if inner.co_freevars != original.co_freevars:
        raise MutantError(f"{module}.{qualname}: uses closure variables {original.co_freevars}; cannot swap its code")
    return inner.replace(co_qualname=original.co_qualname)


def mutated_code(mutant: Mutant) -> CodeType:
    """The mutated code object of the mutant's function (:class:`MutantError` if the source changed)."""
    if mutant.named:
        source = _source(mutant.module)
        tree = ast.parse(source)
        fn = dict(_functions(tree)).get(mutant.function)
        if fn is None:
            raise MutantError(f"{mutant.id}: {mutant.module}.{mutant.function} not found")
        lines = source.splitlines(keepends=True)
        start, end = fn.lineno - 1, fn.end_lineno or fn.lineno
        body = "".join(lines[start:end])
        if body.count(mutant.old) != 1:
            raise MutantError(f"{mutant.id}: {mutant.old!r} does not occur exactly once in {mutant.function}")
        changed = "".join(lines[:start]) + body.replace(mutant.old, mutant.new) + "".join(lines[end:])
        return _compile_function(mutant.module, mutant.function, ast.parse(changed))
    tree = ast.parse(_source(mutant.module))
    fn = dict(_functions(tree)).get(mutant.function)
    if fn is None:
        raise MutantError(f"{mutant.id}: {mutant.module}.{mutant.function} not found")
    suffix = mutant.id.rsplit(":", 2)
    wanted = ":".join(suffix[-2:])
    target = next((node for found, node, _, _ in located_changes(fn) if found == wanted), None)
    if target is None:
        raise MutantError(f"{mutant.id}: {mutant.function} has no such fragment any more (the source changed)")
    fn_copy = copy.deepcopy(fn)
    applier = Apply(node_key(target), mutant.operator)
    fn_copy.body = [cast(ast.stmt, applier.visit(statement)) for statement in fn_copy.body]  # a statement stays one
    if applier.applied != 1:
        raise MutantError(f"{mutant.id}: applied {applier.applied} times")
    tree.body = [fn_copy if node is fn else node for node in tree.body]
    if fn not in tree.body:  # a method: replace it inside its class
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                node.body = [fn_copy if item is fn else item for item in node.body]
    return _compile_function(mutant.module, mutant.function, tree)


# --- listing ----------------------------------------------------------------------


def _clause_area() -> dict[str, str]:
    from cardrules.specs.catalogue import default_catalogue

    return {c.id: c.area for c in default_catalogue().clauses}


STATE_MODULES = frozenset({"pieces", "records", "state", "validate"})
"""A game's modules that define its state and the consistency rules of a loaded one: what every
clause assumes of a position rather than a clause of its own, so they may carry no ``@implements``;
their functions are mutated all the same, under the game's base-rules area (:data:`BASE_AREA`)."""

BASE_AREA = {"fftcg": "ff-base", "redemption": "red-base"}


def _import_model() -> list[str]:
    """Import every model module; the dotted names of those with an ``@implements`` function, and of
    each game's :data:`STATE_MODULES`."""
    modules = []
    for path in sorted(model_root().rglob("*.py")):
        parts = path.relative_to(model_root()).with_suffix("").parts
        if parts[-1] == "__init__":
            continue
        name = ".".join((MODEL_PACKAGE, *parts))
        module = importlib.import_module(name)
        if parts[-1] in STATE_MODULES or any(
                getattr(getattr(v, "__wrapped__", v), "__clauses__", None) and getattr(v, "__module__", "") == name
                for v in _all_objects(module)):
            modules.append(name)
    return modules


def _all_objects(module: object) -> Iterator[object]:
    for value in vars(module).values():
        yield value
        if isinstance(value, type):
            yield from vars(value).values()


def _area_of(clauses: Sequence[str], areas: dict[str, str]) -> str | None:
    """The area most of these clauses belong to (ties: the area of the first such clause)."""
    counted = Counter(areas[c] for c in clauses if c in areas)
    if not counted:
        return None
    best = max(counted.values())
    return next(areas[c] for c in clauses if c in areas and counted[areas[c]] == best)


def _function_clauses(module: str, qualname: str) -> tuple[str, ...]:
    try:
        fn = live_function(module, qualname)
    except MutantError:
        return ()
    owner: object = importlib.import_module(module)
    found: tuple[str, ...] = ()
    for part in qualname.split("."):  # a method without its own clauses takes its class's
        owner = vars(owner).get(part)
        found = tuple(getattr(owner, "__clauses__", ())) or found
    return tuple(getattr(fn, "__clauses__", ())) or found


def _shallow(node: ast.AST) -> ast.AST:
    """A copy of ``node`` deep enough for any :func:`changes_of` change (they touch one level below it)."""
    new = copy.copy(node)
    for name, value in ast.iter_fields(node):
        if isinstance(value, list):
            setattr(new, name, list(value))
        elif isinstance(value, ast.AST):
            setattr(new, name, copy.copy(value))
    return new


def _describe(node: ast.AST, change: Change) -> str:
    before = ast.unparse(node)
    after = ast.unparse(change(_shallow(node)))
    short = lambda text: text if len(text) <= 70 else text[:67] + "..."  # noqa: E731
    return f"`{short(before)}` -> `{short(after)}`"


@lru_cache(maxsize=1)
def all_mutants() -> tuple[Mutant, ...]:
    """Every AST mutant of the model, then the named ones, in source order (file, line, column, operator)."""
    areas = _clause_area()
    root = model_root()
    out: list[Mutant] = []
    for module in _import_model():
        path = module_file(module)
        relative = path.relative_to(root).as_posix()
        game = relative.split("/")[0] if "/" in relative else "common"
        tree = ast.parse(_source(module))
        functions = list(_functions(tree))
        module_clauses = [c for obj in _all_objects(importlib.import_module(module))
                          if getattr(obj, "__module__", "") == module for c in getattr(obj, "__clauses__", ())]
        module_area = _area_of(module_clauses, areas) or BASE_AREA.get(game) or f"{game}-other"
        for qualname, fn in functions:
            if _skipped(qualname):
                continue
            try:
                code = live_function(module, qualname).__code__
            except MutantError:
                continue
            if code.co_freevars:
                continue
            clauses = _function_clauses(module, qualname)
            area = _area_of(clauses, areas) or module_area
            for suffix, node, operator, change in located_changes(fn):
                line, col = getattr(node, "lineno"), getattr(node, "col_offset") + 1
                out.append(Mutant(
                    id=f"{relative}:{qualname}:{suffix}", module=module, function=qualname,
                    operator=operator, description=f"{qualname}: {_describe(node, change)} (line {line})",
                    clauses=clauses or tuple(dict.fromkeys(module_clauses)), area=area, game=game,
                    line=line, col=col, own=bool(clauses),
                ))
    # listed (and sampled) in source order; the order is not part of any ID
    out.sort(key=lambda m: (m.id.split(":")[0], m.line, m.col, m.operator))
    ids = [m.id for m in out]
    assert len(ids) == len(set(ids)), "mutant IDs must be unique"
    return (*out, *named_mutants(areas))


# --- named mutants ----------------------------------------------------------------


@dataclass(frozen=True)
class Named:
    name: str
    module: str
    function: str
    old: str
    new: str
    description: str


NAMED: tuple[Named, ...] = (
    Named("preemptive-attackers-deal-again", "cardrules.model.fftcg.damage", "dealing_sides",
          "return not attack.attackers_dealt, not attack.blocker_dealt",
          "return True, not attack.blocker_dealt",
          "after Pre-emptive Strike the attackers deal their damage again in the ordinary part"),
    Named("interrupt-targets-suspended-battle", "cardrules.model.redemption.abilities", "interruptible_records",
          "\n        and r.battle == battle.id\n", "\n",
          "an interrupt may target an ability of a suspended battle (any battle's record)"),
    Named("element-party-any-element", "cardrules.model.fftcg.party", "is_element_party",
          "frozenset.intersection(", "frozenset.union(",
          "an element party needs no element common to every member: any element will do"),
    Named("p-icon-party-one-member", "cardrules.model.fftcg.party", "is_p_icon_party",
          "return all(m.p_icon for m in members)", "return any(m.p_icon for m in members)",
          "a P icon party needs the icon on one member only, not on every member"),
    Named("revised-heals-from-discard-pile", "cardrules.model.redemption.healable", "recently_discarded",
          'if not in_force(config, "RED-HEAL-PREV-HEALABLE") or in_force(config, "RED-HEAL-NOT-IN-DISCARD-PILE"):',
          "if False:",
          "the revised wording keeps the previous one's heal from the discard pile"),
)


def named_mutants(areas: dict[str, str] | None = None) -> tuple[Mutant, ...]:
    areas = areas if areas is not None else _clause_area()
    out = []
    for n in NAMED:
        clauses = _function_clauses(n.module, n.function)
        game = n.module.split(".")[2]
        out.append(Mutant(id=f"named:{n.name}", module=n.module, function=n.function, operator="named",
                          description=f"{n.function}: {n.description}", clauses=clauses,
                          area=_area_of(clauses, areas) or f"{game}-other", game=game, old=n.old, new=n.new,
                          own=bool(clauses)))
    return tuple(out)


def _old_style(mutant_id: str) -> str:
    """A hint for an ID in the old ``FILE:LINE:COL:OPERATOR`` form."""
    parts = mutant_id.split(":")
    if len(parts) == 4 and parts[1].isdigit() and parts[2].isdigit():
        return "; IDs are FILE:QUALNAME:OPERATOR:HASH now, not FILE:LINE:COL:OPERATOR"
    return ""


def select(
    mutants: Sequence[Mutant], *, ids: Sequence[str] = (), areas: Sequence[str] = (), games: Sequence[str] = (),
    limit: int | None = None, seed: int = 0, include_named: bool = True,
) -> list[Mutant]:
    """The mutants asked for: by ID, else by area and game, sampled down to ``limit`` with ``seed``
    (a sample is spread evenly over areas); named mutants are always kept unless ``include_named`` is off."""
    known = {m.id: m for m in mutants}
    if ids:
        missing = [i for i in ids if i not in known]
        if missing:
            raise MutantError(f"unknown mutant {missing[0]!r} (see `cardrules mutate --list`){_old_style(missing[0])}")
        return [known[i] for i in ids]
    all_areas = sorted({m.area for m in mutants})
    bad = [a for a in areas if a not in all_areas]
    if bad:
        raise MutantError(f"unknown area {bad[0]!r}; areas with mutants: {', '.join(all_areas)}")
    chosen = [m for m in mutants if (not areas or m.area in areas) and (not games or m.game in games)]
    named = [m for m in chosen if m.named] if include_named else []
    plain = [m for m in chosen if not m.named]
    if limit is not None and limit < len(plain):
        rng = random.Random(seed)
        by_area: dict[str, list[Mutant]] = {}
        for m in plain:
            by_area.setdefault(m.area, []).append(m)
        for group in by_area.values():
            rng.shuffle(group)
        picked: list[Mutant] = []
        while len(picked) < limit:  # round robin over areas: every area sampled
            for area in sorted(by_area):
                if by_area[area] and len(picked) < limit:
                    picked.append(by_area[area].pop())
        order = {m.id: i for i, m in enumerate(plain)}
        plain = sorted(picked, key=lambda m: order[m.id])
    return [*plain, *named]
