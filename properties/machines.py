"""hypothesis rule-based state machines that play a game at random and check its properties.

One machine class per game and rule set, built by :func:`make_machine` from
the same :data:`properties.core.PROPERTIES` every other engine reads. Shipped
in the package so that authors of other engines can run the same checks:
wrap their engine in a :class:`properties.explore.Game` and call
:func:`run_machine`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test

from cardrules.properties.core import Property
from cardrules.properties.explore import Game


class PropertyViolated(AssertionError):
    """A property failed during random play; carries the path that broke it."""

    def __init__(self, prop: Property, path: list[tuple[Any, Any]]) -> None:
        self.prop = prop
        self.path = list(path)
        super().__init__(f"property {prop.name} violated after {len(path) - 1} step(s): {prop.statement}")


class Deadlock(AssertionError):
    """A state that is not terminal offers no legal action."""


def make_machine(
    game: Game[Any, Any],
    roots: st.SearchStrategy[Any],
    properties: Sequence[Property],
    counter: list[int] | None = None,
    max_turns: int | None = None,
) -> type:
    """A RuleBasedStateMachine class that starts from a drawn root and plays legal actions.

    Actions are drawn uniformly from the legal ones, or by the game's own
    ``action_strategy(legal)`` when it has one (to reach rare situations).
    ``counter[0]``, when given, is increased by one per action played.
    ``max_turns``: play stops (idles) once a turn past it begins, as the explorer's bound.
    """

    def playable(state: Any) -> bool:
        return not game.is_terminal(state) and (max_turns is None or game.turn(state) <= max_turns)

    state_checks = [p for p in properties if p.kind == "state"]
    transition_checks = [p for p in properties if p.kind == "transition"]

    class GameMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.state: Any = None
            self.path: list[tuple[Any, Any]] = []

        @initialize(root=roots)
        def start(self, root: Any) -> None:
            self.state = root
            self.path = [(None, root)]

        @precondition(lambda self: self.state is not None and playable(self.state))
        @rule(data=st.data())
        def act(self, data: st.DataObject) -> None:
            legal = game.legal_actions(self.state)
            if not legal:
                raise Deadlock(f"no legal action in a state that is not terminal: {game.summary(self.state)}")
            choose = getattr(game, "action_strategy", None)
            action = data.draw(choose(legal) if choose else st.sampled_from(legal), label="action")
            after = game.step(self.state, action)
            for prop in transition_checks:
                if not prop.check(game, self.state, action, after):
                    raise PropertyViolated(prop, self.path + [(action, after)])
            self.state = after
            self.path.append((action, after))
            if counter is not None:
                counter[0] += 1

        @precondition(lambda self: self.state is not None and not playable(self.state))
        @rule()
        def game_over(self) -> None:
            """A finished game (or one past the turn bound): the run just idles to its end."""

        @invariant()
        def state_properties(self) -> None:
            if self.state is None:
                return
            for prop in state_checks:
                if not prop.check(game, self.state):
                    raise PropertyViolated(prop, self.path)

    GameMachine.__name__ = f"{game.name.capitalize()}Machine"
    return GameMachine


@dataclass(frozen=True)
class MachineResult:
    violation: PropertyViolated | None
    examples: int
    steps_played: int
    deadlock: str = ""
    """A state that is not terminal but offers no action, if one was met."""
    error: str = ""
    """Any other failure of the engine under test (an exception from the model), if one occurred."""


def run_machine(
    game: Game[Any, Any],
    roots: st.SearchStrategy[Any],
    properties: Sequence[Property],
    *,
    max_examples: int = 50,
    steps: int = 40,
    derandomize: bool = True,
    shrink: bool = True,
    max_turns: int | None = None,
) -> MachineResult:
    """Run the machine; returns the violation (shrunk unless ``shrink`` is false), if one was found."""
    counter = [0]
    machine = make_machine(game, roots, properties, counter, max_turns)
    config = settings(
        max_examples=max_examples,
        stateful_step_count=steps,
        deadline=None,
        derandomize=derandomize,
        database=None,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
        phases=tuple(p for p in Phase if shrink or p is not Phase.shrink),
    )
    try:
        run_state_machine_as_test(machine, settings=config)
    except Exception as failure:  # every failure is reported, never as a pass
        # hypothesis raises an ExceptionGroup when it found several distinct failures
        found = list(failure.exceptions) if isinstance(failure, BaseExceptionGroup) else [failure]
        violation = next((f for f in found if isinstance(f, PropertyViolated)), None)
        deadlock = next((str(f) for f in found if isinstance(f, Deadlock)), "")
        errors = "; ".join(f"{type(f).__name__}: {f}" for f in found if not isinstance(f, (PropertyViolated, Deadlock)))
        return MachineResult(violation, max_examples, counter[0], deadlock=deadlock, error=errors)
    return MachineResult(None, max_examples, counter[0])
