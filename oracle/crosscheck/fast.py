"""The fast way to the transition cross-check's verdict, exact by construction.

:func:`oracle.crosscheck.transitions.compare_transitions` asks z3, for one state, which actions the
guards allow and, for each action the model allows too, which successors the transition relation
gives (at most two are looked for; one is right). The plain way asserts the state on solvers of the
whole relation and enumerates there: each query pays for the whole relation, and most of the time
goes into building and reading z3 terms in Python. This module answers the same questions from the
relation *specialised* to the state:

1. the state is read as (variable, value) pairs (:meth:`TransitionChecker.state_values`: the facts
   :meth:`TransitionChecker.encode_state` asserts, each ``variable == value``);
2. the values are substituted into the guards ``G``, the relation ``T`` and the type invariant, and
   z3's simplifier folds the result (:class:`Substitution`), once per state, in one pass
   (:class:`Specialiser` packs the three in one term): ``G_S`` and ``T_S`` over
   the action and next-frame variables. A fact fixes its variable to one value, so substituting it
   is an equivalence, and the simplifier only rewrites to equivalent formulas: ``G_S`` and ``T_S``
   have exactly the solutions of ``G & facts`` and ``T & facts`` on the remaining variables;
3. the legal actions: each action the model allows is an assignment of *every* action variable
   (:meth:`TransitionChecker.encode_action`, else this way does not apply), ``G_S`` folds to
   ``true`` under it, the bridge's decoder reads it back as that action, and one check on a small
   solver (reused with push/pop) shows that ``G_S`` has no other solution. Then enumerating
   ``G_S``'s solutions, as the plain way does, would find exactly those assignments, each once,
   decoded to exactly the model's actions;
4. the successor of each action: ``T_S`` with the action's values substituted folds to a
   conjunction that fixes every next-frame variable to one value, each exactly once (read off
   the term by its kinds, :func:`fixed_values`: any other form is not read). A conjunction of that
   form has exactly one solution, so enumerating successors would find that one and no second; the
   bridge's decoder reads it (:class:`ValuesModel`) and its canonical form must be the model's
   (decoded successors are cached by the values the decoder read, :meth:`Specialiser.decoded`).

``True`` only when all of that holds, which is when the plain way finds no disagreement. Anything
else (a disagreement, z3 ``unknown`` on the small solver, a form the parser does not read, a
decoder asking for a variable with no value here) gives ``None``, and the caller compares the
plain way, so every disagreement and every ``unknown`` is reported exactly as before: this way
decides agreements only. The small solver has the deterministic budget
(:meth:`specs.smt.budget.Budget.solver`); substitution and simplification are terminating rewrites
without a budget.

Nothing here knows a game: it works on the :class:`~oracle.crosscheck.transitions.TransitionChecker`
interface.
"""

from __future__ import annotations

import ctypes
from contextlib import contextmanager
from typing import Any, Callable, Generic, Hashable, Iterable, Iterator, Protocol, Sequence, TypeVar

import z3
from z3 import z3core

Value = int | bool
"""A variable's value as Python sees it (a Bool variable's is a ``bool``)."""
Pairs = list[tuple[z3.ExprRef, Value]]
"""A state or an action as (variable, value) pairs."""

S = TypeVar("S")
A = TypeVar("A")


class TransitionChecker(Protocol, Generic[S, A]):
    """What this way calls of :class:`oracle.crosscheck.transitions.TransitionChecker` (which satisfies it;
    declared here so that this lower layer does not import the module that uses it)."""

    out_of_scope: type[Exception]
    out_of_scope_message: str

    def encode_action(self, action: A) -> list[z3.BoolRef]: ...
    def decode_action(self, m: z3.ModelRef) -> A: ...
    def decode_successor(self, m: z3.ModelRef, source: S) -> S: ...
    def decode_context(self, source: S) -> Hashable: ...
    def facts(self, state: S) -> list[z3.BoolRef]: ...
    def state_values(self, state: S) -> list[tuple[z3.ExprRef, int | bool]]: ...
    def specialiser(self) -> "Specialiser": ...


_PLAIN: list[bool] = []
"""Set inside :func:`plain_way`."""


@contextmanager
def plain_way() -> Iterator[None]:
    """Inside the block, the cross-checks ask z3 the plain way only: every state's transitions on the
    large solvers (:func:`oracle.crosscheck.transitions.compare_transitions` does not try :func:`agrees`
    first), and each clause's part in a rule decision checked one by one
    (:mod:`oracle.crosscheck.counts`, no unsat-core pruning). For the benchmark's "before" and the tests
    that show both ways give the same reports and counts."""
    _PLAIN.append(True)
    try:
        yield
    finally:
        _PLAIN.pop()


def plain() -> bool:
    """Whether :func:`plain_way` is in force."""
    return bool(_PLAIN)


class NotAValue(ValueError):
    """Something the fast way does not read (the caller then compares the plain way)."""


def _py_value(x: z3.ExprRef) -> Value:
    if z3.is_true(x):
        return True
    if z3.is_false(x):
        return False
    if z3.is_int_value(x):
        return x.as_long()
    raise NotAValue(f"not a value: {x}")


def _is_variable(x: z3.ExprRef) -> bool:
    return z3.is_const(x) and x.decl().kind() == z3.Z3_OP_UNINTERPRETED


def pairs_of_facts(facts: Iterable[z3.BoolRef]) -> Pairs:
    """``facts`` (each ``variable == value``, or ``variable`` / ``Not(variable)`` for a Bool) as
    pairs; :class:`NotAValue` for anything else."""
    out: Pairs = []
    for fact in facts:
        if _is_variable(fact):
            out.append((fact, True))
        elif z3.is_not(fact) and _is_variable(fact.arg(0)):
            out.append((fact.arg(0), False))
        elif z3.is_eq(fact) and _is_variable(fact.arg(0)):
            out.append((fact.arg(0), _py_value(fact.arg(1))))
        else:
            raise NotAValue(f"not a 'variable == value' fact: {fact}")
    return out


class Values:
    """Cached z3 values and disequality atoms of one context (terms are held, so never freed)."""

    def __init__(self, ctx: z3.Context) -> None:
        self.ctx = ctx
        self._values: dict[tuple[bool, int], z3.ExprRef] = {}
        self._differs: dict[tuple[int, Value], tuple[z3.ExprRef, z3.BoolRef]] = {}

    def value(self, boolean: bool, v: Value) -> z3.ExprRef:
        """The z3 value ``v`` of a Bool (``boolean``) or Int variable."""
        key = (boolean, int(v))
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = z3.BoolVal(bool(v), self.ctx) if boolean else z3.IntVal(int(v), self.ctx)
        return found

    def differs(self, x: z3.ExprRef, v: Value) -> z3.BoolRef:
        """``x != v`` (cached by the variable object, which must outlive this cache)."""
        key = (id(x), v)
        found = self._differs.get(key)
        if found is None or found[0] is not x:
            found = self._differs[key] = (x, x != self.value(isinstance(v, bool), v))
        return found[1]


class Substitution:
    """Variables replaced by values (the arrays z3 takes, built once)."""

    def __init__(self, pairs: Pairs, values: Values) -> None:
        n = self.n = len(pairs)
        self.src, self.dst = (z3.Ast * n)(), (z3.Ast * n)()
        for i, (x, v) in enumerate(pairs):
            self.src[i] = x.as_ast()
            self.dst[i] = values.value(isinstance(v, bool), v).as_ast()
        self.ctx = values.ctx

    def __call__(self, formula: z3.ExprRef) -> z3.ExprRef:
        """``formula`` with the variables replaced, simplified."""
        ctx = self.ctx
        replaced = z3core.Z3_substitute(ctx.ref(), formula.as_ast(), self.n, self.src, self.dst)
        return z3.z3._to_expr_ref(z3core.Z3_simplify(ctx.ref(), replaced), ctx)


class Names:
    """The next-frame variables, by z3 term, for :func:`fixed_values`, and the conjuncts read so far."""

    def __init__(self, variables: Sequence[z3.ExprRef]) -> None:
        self.variables = list(variables)
        self.index = {x.get_id(): i for i, x in enumerate(self.variables)}
        self.boolean = [z3.is_bool(x) for x in self.variables]
        self.conjuncts: dict[int, tuple[z3.ExprRef, int, Value]] = {}
        """z3 term id of a conjunct read -> (the term, held so that its id is never reused; the
        variable's index; its value)."""


def _raw(function: Any) -> Any:
    """The plain ctypes function behind a ``z3core`` wrapper (no error check after each call: the
    callers below only ask what the term's kind allows)."""
    elementaries = (function.__defaults__ or (None,))[-1]
    return getattr(elementaries, "f", function)


_AST_KIND = _raw(z3core.Z3_get_ast_kind)
_APP_DECL = _raw(z3core.Z3_get_app_decl)
_DECL_KIND = _raw(z3core.Z3_get_decl_kind)
_NUM_ARGS = _raw(z3core.Z3_get_app_num_args)
_ARG = _raw(z3core.Z3_get_app_arg)
_AST_ID = _raw(z3core.Z3_get_ast_id)
_NUMERAL_INT64 = _raw(z3core.Z3_get_numeral_int64)


def fixed_values(formula: z3.ExprRef, names: Names) -> tuple[Value, ...] | None:
    """If ``formula`` is a conjunction that fixes every variable of ``names`` to one value, each
    exactly once and nothing else (conjuncts ``x``, ``not x``, ``x = v`` or ``v = x``, ``v`` an
    integer or Boolean constant), those values; else ``None``. The term is read as z3 holds it,
    through its kinds: any other form is not read."""
    ctx, top = formula.ctx.ref(), formula.as_ast()
    number = ctypes.c_longlong()

    def kind(a: Any) -> int:
        return _DECL_KIND(ctx, _APP_DECL(ctx, a)) if _AST_KIND(ctx, a) == z3.Z3_APP_AST else -1

    def variable(a: Any) -> int | None:
        if kind(a) != z3.Z3_OP_UNINTERPRETED or _NUM_ARGS(ctx, a) != 0:
            return None
        return names.index.get(_AST_ID(ctx, a))

    def constant(a: Any) -> Value | None:
        if _AST_KIND(ctx, a) == z3.Z3_NUMERAL_AST:
            return number.value if _NUMERAL_INT64(ctx, a, ctypes.byref(number)) else None
        k = kind(a)
        return True if k == z3.Z3_OP_TRUE else False if k == z3.Z3_OP_FALSE else None

    def conjunct(a: Any) -> tuple[int, Value] | None:
        k = kind(a)
        index: int | None
        value: Value | None
        if k == z3.Z3_OP_NOT:
            index, value = variable(_ARG(ctx, a, 0)), False
        elif k == z3.Z3_OP_EQ:
            left, right = _ARG(ctx, a, 0), _ARG(ctx, a, 1)
            index, value = variable(left), constant(right)
            if index is None:
                index, value = variable(right), constant(left)
        else:
            index, value = variable(a), True
        if index is None or value is None or isinstance(value, bool) != names.boolean[index]:
            return None
        return index, value

    if kind(top) == z3.Z3_OP_AND:
        conjuncts = [_ARG(ctx, top, i) for i in range(_NUM_ARGS(ctx, top))]
    else:
        conjuncts = [top]
    got: list[Value | None] = [None] * len(names.variables)
    seen = names.conjuncts
    for a in conjuncts:
        known = seen.get(_AST_ID(ctx, a))
        if known is None:
            read = conjunct(a)
            if read is None:
                return None
            term = z3.z3._to_expr_ref(a, formula.ctx)
            known = seen[term.get_id()] = (term, *read)
        _, index, value = known
        if got[index] is not None:
            return None
        got[index] = value
    if any(v is None for v in got):
        return None
    return tuple(v for v in got if v is not None)


class ValuesModel:
    """What the bridges' decoders read a z3 model through (:func:`int_of`, :func:`bool_of`, or
    ``m.eval(x, model_completion=True)``), answered from known values: ``variables`` with
    ``vals``, then ``base`` (a state's pairs, :func:`base_values`); a variable without one raises
    :class:`NotAValue`. Looked up by the variable object first (the decoders read the checker's own
    frame objects, which the pairs hold), then by z3 term. :attr:`base_reads` lists what was read
    from ``base`` (``None`` once something was found by term only)."""

    def __init__(self, values: Values, base: dict[int, tuple[z3.ExprRef, Value]],
                 variables: Sequence[z3.ExprRef] = (), vals: Sequence[Value] = ()) -> None:
        self._values = values
        self._base = base
        self._own = {id(x): (x, v) for x, v in zip(variables, vals)}
        self._by_term: dict[int, Value] | None = None
        self.base_reads: list[tuple[z3.ExprRef, Value]] | None = []

    def value(self, x: z3.ExprRef) -> Value:
        key = id(x)
        found = self._own.get(key)
        if found is not None and found[0] is x:
            return found[1]
        found = self._base.get(key)
        if found is not None and found[0] is x:
            if self.base_reads is not None:
                self.base_reads.append(found)
            return found[1]
        if self._by_term is None:
            self._by_term = {y.get_id(): v for y, v in (*self._base.values(), *self._own.values())}
        term = self._by_term.get(x.get_id())
        if term is None:
            raise NotAValue(f"no value for {x}")
        self.base_reads = None
        return term

    def eval(self, x: z3.ExprRef, model_completion: bool = False) -> z3.ExprRef:
        v = self.value(x)
        return self._values.value(isinstance(v, bool), v)


def base_values(pairs: Pairs) -> dict[int, tuple[z3.ExprRef, Value]]:
    """``pairs`` by variable object, for :class:`ValuesModel`."""
    return {id(x): (x, v) for x, v in pairs}


def int_of(m: z3.ModelRef | ValuesModel, x: z3.ExprRef) -> int:
    """The value of the Int variable ``x`` in ``m`` (with model completion)."""
    if isinstance(m, ValuesModel):
        return int(m.value(x))
    return m.eval(x, model_completion=True).as_long()


def bool_of(m: z3.ModelRef | ValuesModel, x: z3.ExprRef) -> bool:
    """The value of the Bool variable ``x`` in ``m`` (with model completion)."""
    if isinstance(m, ValuesModel):
        return bool(m.value(x))
    return z3.is_true(m.eval(x, model_completion=True))


def _same_reads(base: dict[int, tuple[z3.ExprRef, Value]], reads: Sequence[tuple[z3.ExprRef, Value]]) -> bool:
    """Whether ``base`` gives every variable of ``reads`` the value read."""
    for x, v in reads:
        found = base.get(id(x))
        if found is None or found[0] is not x or found[1] != v or type(found[1]) is not type(v):
            return False
    return True


DECODED_CACHE = 4096
"""Decoded successors kept per checker (:meth:`Specialiser.decoded`)."""


class Specialiser:
    """The static part of the fast way for one checker: the invariant, guards and relation packed
    in one term (substituted in one pass, sharing what they share), the variables read, and one
    small solver reused with push/pop."""

    def __init__(self, guards: z3.BoolRef, trans: z3.BoolRef, invariant: z3.BoolRef,
                 action_vars: Sequence[z3.ExprRef], next_vars: Sequence[z3.ExprRef], solver: z3.Solver) -> None:
        ctx = guards.ctx
        boolean = z3.BoolSort(ctx)
        self.pack3 = z3.Function("__cardrules_pack3", boolean, boolean, boolean, boolean)
        self.pack2 = z3.Function("__cardrules_pack2", boolean, boolean, boolean)
        self.packed = self.pack3(invariant, guards, trans)
        self.action_vars = {x.get_id(): x for x in action_vars}
        self.solver = solver
        self.values = Values(ctx)
        self.names = Names(next_vars)
        self.actions: dict[Any, EncodedAction] = {}
        """Per model action, its encoding (the checker's layout is fixed)."""
        self._decoded: dict[tuple[Any, ...], Any] = {}

    def decoded(self, checker: TransitionChecker[Any, Any], source: Any, successor: tuple[Value, ...],
                base: dict[int, tuple[z3.ExprRef, Value]], canonical: Callable[[Any], Any]) -> Any:
        """``canonical`` of the successor the next-frame values ``successor`` decode to, from
        ``source``. Cached by what the decoder reads: the next-frame values,
        :meth:`TransitionChecker.decode_context` of ``source``, and the values it read of the
        state's other variables (the rigid ones), which must be the same in ``base`` for a cached
        answer to be used; least recently used first out."""
        key = (canonical, checker.decode_context(source), successor)
        found = self._decoded.pop(key, None)
        if found is not None and not _same_reads(base, found[1]):
            found = None
        if found is None:
            model = ValuesModel(self.values, base, self.names.variables, successor)
            result = canonical(checker.decode_successor(model, source))
            if model.base_reads is None:
                return result
            found = (result, tuple(model.base_reads))
            if len(self._decoded) >= DECODED_CACHE:
                del self._decoded[next(iter(self._decoded))]
        self._decoded[key] = found
        return found[0]

    def unpack(self, term: z3.ExprRef, pack: z3.FuncDeclRef) -> list[z3.ExprRef]:
        """The arguments of a substituted pack (:class:`NotAValue` if it is not one any more)."""
        if not (z3.is_app(term) and term.decl().eq(pack)):
            raise NotAValue("the simplifier did not keep the pack")
        return [term.arg(i) for i in range(term.num_args())]


class EncodedAction:
    """A model action as values of every action variable, with what the fast way needs of it."""

    def __init__(self, checker: TransitionChecker[Any, Any], fast: Specialiser, action: Any) -> None:
        parsed = pairs_of_facts(checker.encode_action(action))
        ids = [x.get_id() for x, _ in parsed]
        if len(ids) != len(set(ids)) or set(ids) != set(fast.action_vars):
            raise NotAValue(f"the encoding of {action} does not fix every action variable once")
        self.pairs = [(fast.action_vars[i], v) for i, (_, v) in zip(ids, parsed)]
        self.substitution = Substitution(self.pairs, fast.values)
        self.variables = [x for x, _ in self.pairs]
        self.vals = [v for _, v in self.pairs]
        self.block = z3.Or(*[fast.values.differs(x, v) for x, v in self.pairs])
        """Some action variable differs from this action's value."""


def agrees(
    checker: TransitionChecker[Any, Any],
    state: Any,
    model_legal: set[Any],
    model_step: Callable[[Any], Any],
    canonical: Callable[[Any], Any],
) -> bool | None:
    """``True`` if the model and z3 agree on ``state`` (see the module docstring); ``None`` if that
    is not shown here, and the caller must compare the plain way. Raises the checker's
    ``out_of_scope`` for a state whose values break the type invariant, as
    :meth:`TransitionChecker.facts` does."""
    fast = checker.specialiser()
    values = fast.values
    try:
        pairs = checker.state_values(state)
        invariant, guards, trans = fast.unpack(Substitution(pairs, values)(fast.packed), fast.pack3)
        if z3.is_false(invariant):
            raise checker.out_of_scope(checker.out_of_scope_message)
        if not z3.is_true(invariant):
            checker.facts(state)  # the probe decides (and raises for a state out of scope)
        base = base_values(pairs)
        both = fast.pack2(guards, trans)
        blocks = []
        for action in model_legal:
            encoded = fast.actions.get(action)
            if encoded is None:
                encoded = fast.actions[action] = EncodedAction(checker, fast, action)
            enabled, successor_formula = fast.unpack(encoded.substitution(both), fast.pack2)
            if not z3.is_true(enabled):
                return None
            if checker.decode_action(ValuesModel(values, base, encoded.variables, encoded.vals)) != action:
                return None
            blocks.append(encoded.block)
            successor = fixed_values(successor_formula, fast.names)
            if successor is None:
                return None
            if fast.decoded(checker, state, successor, base, canonical) != canonical(model_step(action)):
                return None
        solver = fast.solver
        solver.push()
        try:
            solver.add(guards, *blocks)
            if solver.check() != z3.unsat:  # another legal action (or unknown: the plain way says)
                return None
        finally:
            solver.pop()
    except (NotAValue, z3.Z3Exception):
        return None
    return True
