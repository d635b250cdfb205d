"""Generated proposals and generated proposal code: a proposal file is checked or refused (exit 0 or 3),
and a hook's every behaviour (any answer, any exception, raised by its own code) either gives an answer
inside its extension point's contract or is bad input naming the file and the hook; never a traceback,
a hang or an out-of-contract answer handed to the model."""

from __future__ import annotations

import math

import shutil
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules.model.extension import EXTENSION_POINTS, ExtensionPoint
from cardrules.oracle.rulechange.guard import ProposalCodeError
from cardrules.oracle.rulechange.proposal_code import guarded_hook
from tests.cli import run_cli
from tests.paths import REPO
from tests.robustness.mutate import mutated_bytes, mutated_toml
from tests.robustness.tally import count

pytestmark = pytest.mark.infrastructure("proposal files and proposal code: clean errors, bounded answers")

PER_EXAMPLE = settings(deadline=timedelta(seconds=20), suppress_health_check=[HealthCheck.too_slow,
                                                                            HealthCheck.data_too_large])
PROPOSALS = REPO / "docs" / "proposals"
_WORK = Path(tempfile.mkdtemp(prefix="cardrules-proposals-"))


@pytest.fixture(scope="module")
def folder() -> Path:
    """A copy of the shipped proposals and their code, where one proposal at a time is broken."""
    target = _WORK / "proposals"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(PROPOSALS, target)
    return target


@PER_EXAMPLE
@given(data=st.data())
def test_a_mutated_proposal_file_is_checked_or_refused(data: st.DataObject, folder: Path) -> None:
    source = data.draw(st.sampled_from(sorted(PROPOSALS.glob("*.toml"))), label="proposal")
    text = data.draw(mutated_toml(source.read_text(encoding="utf-8")), label="toml")
    raw = data.draw(mutated_bytes(text.encode("utf-8")), label="bytes")
    as_json = data.draw(st.booleans(), label="--json")
    path = folder / source.name
    path.write_bytes(raw)
    run = run_cli("proposal", "check", str(path), *(["--json"] if as_json else []))
    assert run.code in (0, 3), run
    assert "Traceback" not in run.err and "internal error" not in run.err, run.err
    if run.code == 3 and not as_json:
        assert len(run.err.strip().splitlines()) == 1 and source.name in run.err, run.err
    count("proposal files", "valid" if run.code == 0 else "bad input")


# --- hooks -----------------------------------------------------------------------------------------


def _points() -> list[ExtensionPoint]:
    import cardrules.model.fftcg.engine  # noqa: F401  (declares the FFTCG points)
    import cardrules.model.redemption.engine  # noqa: F401  (declares the Redemption points)

    return sorted(EXTENSION_POINTS.values(), key=lambda p: (p.game, p.name))


def _recorded_arguments() -> dict[str, list[tuple[Any, ...]]]:
    """Argument tuples the model really passes to each point, from short explorations of three scenarios."""
    from cardrules.oracle.rulechange.lockstep import diff_scenario
    from cardrules.oracle.selection import select_scenarios
    from cardrules.properties.engines.explore import Bounds
    from cardrules.properties.games import make_game
    from cardrules.properties.scenarios import RuleSetSpec

    seen: dict[str, list[tuple[Any, ...]]] = {}

    def recorder(point: ExtensionPoint) -> Callable[..., Any]:
        def answer(*arguments: Any) -> Any:
            if len(seen.setdefault(point.name, [])) < 20:
                seen[point.name].append(arguments)
            return point.default(*arguments)
        return answer

    wanted = {"fftcg-identical-forwards", "redemption-heal-and-redirect", "redemption-heal-windows-taken"}
    for scenario in (s for s in select_scenarios(None, None) if s.name in wanted):
        hooks = tuple(sorted((p.name, recorder(p)) for p in _points() if p.game == scenario.game))
        game = make_game(scenario.game, RuleSetSpec("default", {}, {}), hooks)
        diff_scenario(scenario, game, game, Bounds(max_depth=scenario.max_depth, max_states=400,
                                                   max_turns=scenario.max_turns))
    return seen


ARGUMENTS = _recorded_arguments()


def _in_contract(point: str, value: Any, arguments: tuple[Any, ...]) -> bool:
    """Each point's contract, restated here from its documentation (not read from the code's checker)."""
    if point == "unblocked-damage":
        return type(value) is int and 0 <= value <= 7
    if point == "side-battles-per-turn":
        return type(value) is int and 0 <= value <= 9
    if point == "healed-destination":
        return type(value) is int and 0 <= value < len(arguments[0].zones)
    if point == "side-battle-sides":
        x, y = arguments[1], arguments[2]
        return value is None or (type(value) is tuple and sorted(value) == sorted((x, y))
                                 and all(type(v) is str for v in value))
    if point == "side-battle-allowed":
        return type(value) is bool
    if point == "numbers-redirect-expiry":
        return type(value) is str and value in ("end-of-phase", "end-of-turn")
    if point == "heal-window-attachments":
        on_card = arguments[1].enhancements
        return (type(value) is tuple and all(type(v) is str and v in on_card for v in value)
                and len(set(value)) == len(value))
    if point == "blocker-split-unit":
        # a positive whole step at which the blocker's power divides among the members in at most 200,000
        # ways (shares of the divisible part, times the members when a remainder is left for one of them)
        state, attack = arguments
        if type(value) is not int or value < 1:
            return False
        power, members = max(state.forward(attack.blocker).power, 0), max(len(attack.attackers), 1)
        ways = math.comb(power // value + members - 1, members - 1) * (members if power % value else 1)
        return ways <= 200_000
    raise AssertionError(f"a point this test does not know: {point}")


class Odd:
    """An answer whose own methods raise: checking it must not run them into a traceback."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparing me")

    def __hash__(self) -> int:
        raise RuntimeError("no hashing me")

    def __len__(self) -> int:
        raise RuntimeError("no length")

    def __index__(self) -> int:
        raise RuntimeError("no index")


class Escape(BaseException):
    """An exception no ``except Exception`` catches."""


def answers() -> st.SearchStrategy[Any]:
    scalars = st.one_of(
        st.integers(-10, 20), st.integers(-(2**70), 2**70), st.sampled_from([10**300, -(10**300), 8, 10]),
        st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none(), st.text(max_size=8),
        st.sampled_from(["h0", "e1", "x", ""]),
    )
    return st.one_of(scalars, st.lists(scalars, max_size=3), st.tuples(st.text(max_size=3), st.text(max_size=3)),
                     st.tuples(scalars, scalars), st.builds(Odd), st.dictionaries(st.text(max_size=2), scalars, max_size=2))


RAISED = (ValueError, KeyError, ZeroDivisionError, RecursionError, MemoryError, KeyboardInterrupt, SystemExit,
          GeneratorExit, StopIteration, Escape)


def _hook(parameters: tuple[str, ...], behaviour: Callable[..., Any]) -> Callable[..., Any]:
    """A function with the point's parameter names that does ``behaviour`` (as a proposal's code would)."""
    namespace: dict[str, Any] = {"behaviour": behaviour}
    exec(f"def answer({', '.join(parameters)}):\n    return behaviour({', '.join(parameters)})\n", namespace)
    return namespace["answer"]  # type: ignore[no-any-return]


@given(data=st.data())
def test_any_hook_behaviour_is_an_answer_in_contract_or_bad_input_naming_the_hook(data: st.DataObject) -> None:
    point = data.draw(st.sampled_from([p for p in _points() if p.name in ARGUMENTS]), label="point")
    arguments = data.draw(st.sampled_from(ARGUMENTS[point.name]), label="arguments")
    raises = data.draw(st.none() | st.sampled_from(RAISED), label="raises")
    value = data.draw(answers(), label="answer") if raises is None else None
    if raises is None and data.draw(st.booleans(), label="a valid answer"):
        value = point.default(*arguments)  # the model's own answer: the guard must let it through unchanged

    def behaviour(*_: Any) -> Any:
        if raises is not None:
            raise raises("raised by the proposal's own code")
        return value

    guarded = guarded_hook(point, _hook(point.parameters, behaviour), "fuzz_model.py")
    try:
        answer = guarded(*arguments)
    except ProposalCodeError as refusal:
        message = str(refusal)
        assert message.startswith("fuzz_model.py: hook ") and point.name in message and "\n" not in message, message
        count("proposal hooks", "bad input")
        return
    assert raises is None, f"{raises} escaped as an answer"
    assert _in_contract(point.name, answer, arguments), (point.name, answer)
    assert answer is value
    count("proposal hooks", "answer in contract")

