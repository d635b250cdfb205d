"""The reference model as an oracle inside other people's tests (hypothesis, stateful).

An engine under test is any Python object with four methods, speaking the
model's JSON state form and canonical action text (documented on the spec
site)::

    engine.from_json(data) -> state          # load a position
    engine.legal_actions(state) -> [action]  # str(action) is its canonical text
    engine.step(state, "action text") -> state
    engine.to_json(state) -> data            # the model's JSON form

:func:`differential_machine` builds a hypothesis rule-based state machine
that plays random legal games from a position, applying every action to the
engine and to the reference model in lockstep. After each step it compares
the legal actions offered and the JSON state; the first divergence fails the
test with a :class:`Divergence` naming the step, what differs (expected vs
got, at the first differing field), and the clause IDs of the reference
code that ran for that step. hypothesis then shrinks the game to the
shortest one that still diverges::

    from cardrules.oracle.conformance.differential import differential_machine

    TestMyEngine = differential_machine(
        MyEngine(), game="fftcg", scenario="fftcg-party-basics"
    ).TestCase
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from cardrules.oracle.trace.coverage import clauses_exercised
from cardrules.oracle.jsondiff import first_difference as _first_difference


class PythonEngine(Protocol):
    """What :func:`differential_machine` needs from an engine under test."""

    def from_json(self, data: Any) -> Any: ...

    def legal_actions(self, state: Any) -> Sequence[Any]: ...

    def step(self, state: Any, action: str) -> Any: ...

    def to_json(self, state: Any) -> Any: ...


class Divergence(AssertionError):
    """The engine under test and the reference model disagree."""

    def __init__(self, step: int, actions: Sequence[str], what: str, expected: Any, got: Any,
                 clause_ids: Iterable[str]) -> None:
        self.step = step
        self.actions = tuple(actions)
        self.what = what
        self.expected = expected
        self.got = got
        self.clause_ids = tuple(sorted(clause_ids))
        played = " ; ".join(self.actions) or "(no action yet)"
        super().__init__(
            f"divergence after {step} step(s) [{played}]: {what}\n"
            f"  expected: {expected!r}\n  got:      {got!r}\n"
            f"  clauses involved: {', '.join(self.clause_ids) or '(none recorded)'}"
        )


def first_difference(expected: Any, got: Any, path: str = "state") -> tuple[str, Any, Any] | None:
    """The first place (a JSON path from ``state``) where two JSON states differ, with both values there."""
    return _first_difference(expected, got, path)


@dataclass
class _Lockstep:
    reference: Any
    engine: PythonEngine
    ref_state: Any
    eng_state: Any
    actions: list[str]


def differential_machine(
    engine: PythonEngine,
    *,
    game: str,
    scenario: str | None = None,
    initial_state: Mapping[str, Any] | None = None,
    rule_set: Mapping[str, Any] | None = None,
    max_steps: int = 40,
) -> type[RuleBasedStateMachine]:
    """A hypothesis state machine that checks ``engine`` against the reference model.

    The position is an embedded scenario's (``scenario``) or ``initial_state``
    (the model's JSON form); ``rule_set`` is ``{"versions": ..., "decisions":
    ...}`` (default: the scenario's first rule set, else the catalogue's
    defaults).
    """
    reference, start = _reference_and_start(game, scenario, initial_state, rule_set)

    class DifferentialMachine(RuleBasedStateMachine):
        """Random legal play, the engine and the reference model in lockstep."""

        def __init__(self) -> None:
            super().__init__()
            self.run: _Lockstep | None = None

        @initialize()
        def load(self) -> None:
            ref_state = reference.state_from_json(start)
            eng_state = engine.from_json(reference.state_to_json(ref_state))
            self.run = _Lockstep(reference, engine, ref_state, eng_state, [])

        @precondition(lambda self: self.run is not None and len(self.run.actions) < max_steps
                      and bool(reference.legal_actions(self.run.ref_state)))
        @rule(data=st.data())
        def play(self, data: st.DataObject) -> None:
            assert self.run is not None
            action = data.draw(st.sampled_from(list(reference.legal_actions(self.run.ref_state))), label="action")
            _play_in_lockstep(self.run, action)

        @invariant()
        def same_legal_actions(self) -> None:
            if self.run is not None:
                _compare_legal_actions(self.run)

    DifferentialMachine.__name__ = f"Differential_{game}_{scenario or 'position'}"
    return DifferentialMachine


def _reference_and_start(game: str, scenario: str | None, initial_state: Mapping[str, Any] | None,
                         rule_set: Mapping[str, Any] | None) -> tuple[Any, dict[str, Any]]:
    """The reference model under the rule set asked for, and the start position's JSON form."""
    from cardrules.properties.games import make_game
    from cardrules.properties.scenarios import load_scenarios, parse_rule_set

    if (scenario is None) == (initial_state is None):
        raise ValueError("give exactly one of scenario and initial_state")
    if scenario is not None:
        found = {s.name: s for s in load_scenarios()}
        if scenario not in found:
            raise ValueError(f"unknown scenario {scenario!r}; known: {', '.join(sorted(found))}")
        initial_state = found[scenario].state
        spec = parse_rule_set({"name": "engine", **rule_set}, "rule_set", mutant=False) if rule_set \
            else found[scenario].rule_sets[0]
    else:
        spec = parse_rule_set({"name": "engine", **(rule_set or {})}, "rule_set", mutant=False)
    return make_game(game, spec), dict(initial_state or {})


def _blame(step: Callable[[], Any]) -> frozenset[str]:
    """The clauses the reference model's code exercised while doing ``step``."""
    try:
        _, clauses = clauses_exercised(step)
    except Exception:  # the reference refusing is itself informative, not a crash here
        return frozenset()
    return clauses


def _play_in_lockstep(run: _Lockstep, action: Any) -> None:
    """Play ``action`` on both; a refusal by the engine or a different next state is a :class:`Divergence`."""
    reference, engine = run.reference, run.engine
    text = reference.action_text(action)
    before = run.ref_state
    run.ref_state = reference.step(before, action)
    try:
        run.eng_state = engine.step(run.eng_state, text)
    except Exception as error:  # the engine refused or crashed on a legal action
        clauses = _blame(lambda: reference.step(before, action))
        raise Divergence(len(run.actions), [*run.actions, text], f"the engine refused {text!r}",
                         "a new state", f"{type(error).__name__}: {error}", clauses) from None
    run.actions.append(text)
    difference = first_difference(reference.state_to_json(run.ref_state), engine.to_json(run.eng_state))
    if difference is not None:
        path, want, have = difference
        clauses = _blame(lambda: reference.step(before, action))
        raise Divergence(len(run.actions), run.actions, f"the state after {text!r} differs at {path}",
                         want, have, clauses)


def _compare_legal_actions(run: _Lockstep) -> None:
    """Both list the same legal actions, or a :class:`Divergence` names the missing and the extra ones."""
    reference, engine = run.reference, run.engine
    expected = sorted(reference.action_text(a) for a in reference.legal_actions(run.ref_state))
    got = sorted(str(a) for a in engine.legal_actions(run.eng_state))
    if expected != got:
        missing = sorted(set(expected) - set(got))
        extra = sorted(set(got) - set(expected))
        clauses = _blame(lambda: reference.legal_actions(run.ref_state))
        raise Divergence(len(run.actions), run.actions, "the legal actions differ "
                         f"(missing {missing or 'none'}, extra {extra or 'none'})", expected, got, clauses)
