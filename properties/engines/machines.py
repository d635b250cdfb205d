"""hypothesis random play: games played from a position, every property checked after each step.

:func:`run_machine` runs one hypothesis test (``@given`` with
``st.data()``): from a drawn root it plays up to ``steps`` actions, each
drawn from the legal ones, and checks the same
:data:`properties.core.PROPERTIES` every other engine reads. hypothesis
shrinks a failing game to a short one. Shipped in the package so that
authors of other engines can run the same checks: wrap their engine in a
:class:`properties.engines.exploration.Game` and call :func:`run_machine`.

The game is driven by one loop of draws rather than a rule-based state
machine: the same random legal play at about a third of the CPU per action
(the stateful engine chooses a rule, checks preconditions and records each
step for every action it plays).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from cardrules.properties.core import Property
from cardrules.properties.engines.exploration import Game


class PropertyViolated(AssertionError):
    """A property failed during random play; carries the path that broke it."""

    def __init__(self, prop: Property, path: list[tuple[Any, Any]]) -> None:
        self.prop = prop
        self.path = list(path)
        super().__init__(f"property {prop.name} violated after {len(path) - 1} step(s): {prop.statement}")


class Deadlock(AssertionError):
    """A state that is not terminal offers no legal action."""


def make_player(
    game: Game[Any, Any],
    properties: Sequence[Property],
    steps: int,
    counter: list[int] | None = None,
    max_turns: int | None = None,
) -> Callable[[Any, st.DataObject], None]:
    """A test body: play from ``root`` up to ``steps`` legal actions drawn from ``data``, checking every property.

    Actions are drawn uniformly from the legal ones, or by the game's own
    ``action_strategy(legal)`` when it has one (to reach rare situations).
    ``counter[0]``, when given, is increased by one per action played.
    ``max_turns``: play stops once a turn past it begins, as the explorer's bound; play also
    stops at a terminal state. State properties are checked at the root and after every step,
    transition properties on every step. Raises :class:`PropertyViolated` with the path, or
    :class:`Deadlock`.
    """
    state_checks = [p for p in properties if p.kind == "state"]
    transition_checks = [p for p in properties if p.kind == "transition"]
    choose = getattr(game, "action_strategy", None)

    def check_state(state: Any, path: list[tuple[Any, Any]]) -> None:
        for prop in state_checks:
            if not prop.check(game, state):
                raise PropertyViolated(prop, path)

    def play(root: Any, data: st.DataObject) -> None:
        state = root
        path: list[tuple[Any, Any]] = [(None, root)]
        check_state(state, path)
        for _ in range(steps):
            if game.is_terminal(state) or (max_turns is not None and game.turn(state) > max_turns):
                return
            legal = game.legal_actions(state)
            if not legal:
                raise Deadlock(f"no legal action in a state that is not terminal: {game.summary(state)}")
            action = data.draw(choose(legal) if choose else _uniform(legal), label="action")
            after = game.step(state, action)
            for prop in transition_checks:
                if not prop.check(game, state, action, after):
                    raise PropertyViolated(prop, path + [(action, after)])
            state = after
            path.append((action, after))
            if counter is not None:
                counter[0] += 1
            check_state(state, path)

    return play


_UNIFORM: dict[tuple[Any, ...], st.SearchStrategy[Any]] = {}
_MAX_UNIFORM = 10_000


def _uniform(legal: Sequence[Any]) -> st.SearchStrategy[Any]:
    """``st.sampled_from(legal)``, made once per tuple of legal actions and kept: the same strategy
    draws the same way, and hypothesis checks a strategy it has not drawn from before at its first
    draw, which at every step of random play cost as much as the draw itself."""
    key = tuple(legal)
    found = _UNIFORM.get(key)
    if found is None:
        if len(_UNIFORM) >= _MAX_UNIFORM:
            _UNIFORM.clear()
        found = _UNIFORM[key] = st.sampled_from(key)
    return found


@dataclass(frozen=True)
class MachineResult:
    violation: PropertyViolated | None
    examples: int
    """Calls of the game's test body: the games played (fewer than asked when hypothesis ran out of
    distinct games), and after a failure also its replay and any shrinking attempts."""
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
    """Play ``max_examples`` games of up to ``steps`` actions; returns the violation (shrunk unless
    ``shrink`` is false), if one was found. hypothesis stops early once it has played every
    distinct game (a small scenario)."""
    counter, games = [0], [0]
    play = make_player(game, properties, steps, counter, max_turns)

    def counted(root: Any, data: st.DataObject) -> None:
        games[0] += 1
        play(root, data)

    config = settings(
        max_examples=max_examples,
        deadline=None,
        derandomize=derandomize,
        database=None,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
        # explain re-runs a failure to say which draws matter: only with shrinking (verify shrinks nothing)
        phases=tuple(p for p in Phase if shrink or p not in (Phase.shrink, Phase.explain)),
    )
    test = config(given(root=roots, data=st.data())(counted))
    try:
        test()
    except Exception as failure:  # every failure is reported, never as a pass
        # hypothesis raises an ExceptionGroup when it found several distinct failures
        found = list(failure.exceptions) if isinstance(failure, BaseExceptionGroup) else [failure]
        violation = next((f for f in found if isinstance(f, PropertyViolated)), None)
        deadlock = next((str(f) for f in found if isinstance(f, Deadlock)), "")
        errors = "; ".join(f"{type(f).__name__}: {f}" for f in found if not isinstance(f, (PropertyViolated, Deadlock)))
        return MachineResult(violation, games[0], counter[0], deadlock=deadlock, error=errors)
    return MachineResult(None, games[0], counter[0])
