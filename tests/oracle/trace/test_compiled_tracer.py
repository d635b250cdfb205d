"""The compiled tracer (``cardrules.oracle.trace.ctracer``) finds what the pure-Python one finds, the reference:
the same results, clauses, outcome features and configuration reads for every call an exploration makes, and
the same suites, byte for byte. Where it cannot be used (not built, or built from an older source) the
pure-Python tracer is used, and ``cardrules conformance generate`` says so."""

from __future__ import annotations

import functools
import gc
import os
import subprocess
import sys
import threading
import types
import weakref
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from cardrules.model.errors import IllegalAction
from cardrules.oracle.cli import main
from cardrules.oracle.trace import coverage
from cardrules.oracle.trace.coverage import (ConfigRead, clauses_exercised, outcomes_exercised, reads_made,
                                             tracer_in_use, use_tracer)
from cardrules.oracle.trace.shared import SharedAnswers
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.games import make_game
from cardrules.properties.scenarios import RuleSetSpec, load_scenarios

pytestmark = pytest.mark.infrastructure("the compiled tracer of the conformance generator")


def _under(tracer: str, run: Callable[[], Any]) -> Any:
    use_tracer(tracer)
    return run()


def _refused(run: Callable[[], Any], error: type[Exception] = IllegalAction) -> Callable[[], Any]:
    """``run``, returning the ``error`` it raises (a refusal, by default) instead of raising it."""

    def call() -> Any:
        try:
            return run()
        except error as refusal:
            return refusal

    return call


def _comparable(value: Any) -> Any:
    return ("refused", value.clause_ids, str(value)) if isinstance(value, IllegalAction) else value


def _scenario(name: str) -> Any:
    [found] = [s for s in load_scenarios() if s.name == name]
    return found


@pytest.mark.parametrize("game_name, scenario, versions", [
    ("redemption", "redemption-heal-windows-taken", {"heal": ("previous",)}),
    ("redemption", "redemption-side-battles-3p", {"heal": ("revised",)}),
    ("fftcg", "fftcg-party-basics", {}),
])
def test_both_tracers_find_the_same_for_every_call_of_an_exploration(
        compiled_tracer: None, game_name: str, scenario: str, versions: dict[str, tuple[str, ...]]) -> None:
    game = make_game(game_name, RuleSetSpec("base", versions, {}))
    view = SharedAnswers().view(game)  # the configuration methods the generator watches
    graph = explore(game, [game.state_from_json(_scenario(scenario).state)], [], Bounds(max_states=80),
                    keep_edges=True, progress=False)
    calls: list[Callable[[], Any]] = [
        (lambda s=state: game.legal_actions(s)) for state in graph.states if not game.is_terminal(state)]
    calls += [(lambda s=graph.states[source], a=action: game.step(s, a)) for source, _, action in graph.edges]
    assert len(calls) > 80
    watched_reads = 0
    for run in calls:
        found: dict[str, Any] = {}
        for tracer in ("python", "compiled"):
            reads: list[ConfigRead] = []
            untraced: list[ConfigRead] = []
            result, clauses, outcomes = _under(
                tracer, lambda: outcomes_exercised(_refused(run), watch=view.readers, reads=reads))
            plain = _under(tracer, lambda: outcomes_exercised(_refused(run)))
            untraced_result = _under(tracer, lambda: reads_made(_refused(run), view.untraced_readers, untraced))
            profiled = _under(tracer, lambda: clauses_exercised(_refused(run)))
            found[tracer] = (_comparable(result), clauses, outcomes, reads, _comparable(plain[0]), plain[1:],
                             _comparable(untraced_result), untraced, _comparable(profiled[0]), profiled[1])
            assert outcomes and clauses
        assert found["compiled"] == found["python"]
        watched_reads += len(found["python"][3])
    assert watched_reads > 0  # the configuration's methods were called, and recorded alike


def _raises() -> None:
    raise ValueError("from the traced call")


def test_the_trace_and_profile_functions_before_are_restored_even_when_the_call_raises(each_tracer: str) -> None:
    events: list[str] = []

    def before(frame: Any, event: str, arg: Any) -> None:
        events.append(event)

    previous_trace, previous_profile = sys.gettrace(), sys.getprofile()
    try:
        sys.settrace(before)
        sys.setprofile(before)
        with pytest.raises(ValueError, match="from the traced call"):
            outcomes_exercised(_raises)
        assert sys.gettrace() is before
        with pytest.raises(ValueError, match="from the traced call"):
            clauses_exercised(_raises)
        assert sys.getprofile() is before
    finally:
        sys.settrace(previous_trace)
        sys.setprofile(previous_profile)


def test_a_trace_inside_a_trace_finds_what_it_finds_alone(each_tracer: str) -> None:
    game = make_game("fftcg", RuleSetSpec("base", {}, {}))
    state = game.state_from_json(_scenario("fftcg-party-basics").state)
    alone = outcomes_exercised(lambda: game.legal_actions(state))
    inner: list[Any] = []
    outcomes_exercised(lambda: inner.append(outcomes_exercised(lambda: game.legal_actions(state))))
    assert inner == [alone] and alone[2]


def test_a_compiled_tracer_older_than_its_source_is_not_used_and_generate_says_so(
        compiled_tracer: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cardrules.oracle.trace import ctracer

    if not Path(coverage.__file__).with_name("ctracer.c").is_file():
        pytest.skip("installed without the tracer's source: nothing to compare the build with")
    before = tracer_in_use()
    monkeypatch.delenv(coverage.TRACER_VARIABLE, raising=False)
    monkeypatch.setattr(ctracer, "SOURCE_DIGEST", "0" * 64)
    coverage.compiled_tracer_missing.cache_clear()
    try:
        assert "built from another ctracer.c" in (coverage.compiled_tracer_missing() or "")
        assert use_tracer(None) == "python"
        # the note comes before any generation (here the rule set is bad input, exit 3, after the note)
        code = main(["conformance", "generate", "--out", str(tmp_path / "out"), "--rule-set", "no-such=rule"])
        err = capsys.readouterr().err
        assert code == 3
        assert "traced in pure Python" in err and "install the project again" in err
        assert err.index("note:") < err.index("no-such")
        with pytest.raises(coverage.TracerUnavailable, match="was asked for"):
            use_tracer("compiled")
    finally:
        monkeypatch.undo()
        coverage.compiled_tracer_missing.cache_clear()
    assert coverage.compiled_tracer_missing() is None and use_tracer("compiled") == "compiled"
    use_tracer(before)


def test_a_tracer_name_that_is_none_of_them_is_bad_input(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "cardrules.oracle.cli", "conformance", "generate", "--out",
                             str(tmp_path / "out")], env={**os.environ, coverage.TRACER_VARIABLE: "fast"},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 3, result.stderr
    assert "CARDRULES_TRACER='fast'" in result.stderr and "compiled, python" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_both_tracers_generate_the_same_suites_byte_for_byte(compiled_tracer: None, tmp_path: Path) -> None:
    """Two suites of the previous heal wording (an option among them: configuration reads, queries, version
    reads), generated by each tracer in a process of its own."""
    runs = {}
    for tracer in ("python", "compiled"):
        argv = [sys.executable, "-m", "cardrules.oracle.cli", "conformance", "generate", "--game", "redemption",
                "--out", str(tmp_path / tracer), "--jobs", "1", "--quiet", "--rule-set", "heal=previous",
                "--rule-set", "heal=previous,redline-discard-pile=both-old"]
        runs[tracer] = subprocess.Popen(argv, env={**os.environ, coverage.TRACER_VARIABLE: tracer},
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for tracer, process in runs.items():
        _, err = process.communicate(timeout=1200)
        assert process.returncode == 0, f"{tracer}: {err.decode()[-2000:]}"
        assert b"note:" not in err
    names = sorted(p.name for p in (tmp_path / "python").glob("*.json"))
    assert names == sorted(p.name for p in (tmp_path / "compiled").glob("*.json")) and len(names) == 3
    for name in names:
        assert (tmp_path / "python" / name).read_bytes() == (tmp_path / "compiled" / name).read_bytes(), name


PROBE = '''\
import functools


def counted():
    yield 1
    two = 2
    yield two
    three = 3
    yield three


@functools.lru_cache(maxsize=None)
def remembered_next(generator):
    return next(generator)


def fails():
    raise LookupError("from the model")


def plus_one(number):
    return number + 1
'''


@pytest.fixture
def probe_module() -> Iterator[types.ModuleType]:
    """A module that the tracers take for the model's (its code's file is under ``model/``), with a generator, a
    remembered function that resumes it, and a function that raises."""
    name = "cardrules.model.probe_generators"
    module = types.ModuleType(name)
    exec(compile(PROBE, str(Path(coverage._model_prefix()) / "probe_generators.py"), "exec"), vars(module))
    sys.modules[name] = module
    try:
        yield module
    finally:
        del sys.modules[name]


def test_a_generator_resumed_inside_a_remembered_function_is_not_traced_there(
        each_tracer: str, probe_module: types.ModuleType) -> None:
    """Its first run and its run after the remembered one are traced; the run inside is not (a remembered
    function's work says what was asked before, not what this call did), whichever tracer."""

    def run() -> tuple[int, int, int]:
        counted = probe_module.counted()
        return next(counted), probe_module.remembered_next(counted), next(counted)

    result, _, features = outcomes_exercised(run)
    assert result == (1, 2, 3)
    name = "probe_generators.py:counted"
    assert sorted(f for f in features if name in f) == sorted([
        f"arc:{name}:0>1", f"arc:{name}:1>ret", f"ret:{name}:1=pos",  # to the first yield, which gives 1
        f"arc:{name}:0>4", f"arc:{name}:4>5", f"arc:{name}:5>ret", f"ret:{name}:5=pos",  # resumed after the second
    ])
    assert not any("remembered_next" in f for f in features)


def test_a_generator_resumed_inside_an_untraced_run_within_a_traced_one_is_not_traced_there(
        each_tracer: str, probe_module: types.ModuleType) -> None:
    """As inside a remembered function: ``reads_made`` (the untraced answers) watches configuration reads only, so
    the outer trace gets nothing of what runs inside it."""

    counted = probe_module.counted()  # closed after the trace (closing runs it once more, to no line)

    def run() -> tuple[int, Any, int]:
        return next(counted), reads_made(lambda: next(counted), frozenset(), []), next(counted)

    result, _, features = outcomes_exercised(run)
    assert result == (1, 2, 3)
    name = "probe_generators.py:counted"
    assert sorted(f for f in features if name in f) == sorted([
        f"arc:{name}:0>1", f"arc:{name}:1>ret", f"ret:{name}:1=pos", f"arc:{name}:0>4", f"arc:{name}:4>5",
        f"arc:{name}:5>ret", f"ret:{name}:5=pos"])


def test_a_model_function_left_by_an_exception_returns_none_for_both_tracers(
        each_tracer: str, probe_module: types.ModuleType) -> None:
    with pytest.raises(LookupError, match="from the model"):
        outcomes_exercised(probe_module.fails)
    _, _, features = outcomes_exercised(_refused(probe_module.fails, LookupError))
    name = "probe_generators.py:fails"
    assert sorted(f for f in features if name in f) == [f"arc:{name}:0>1", f"arc:{name}:1>ret", f"ret:{name}:1=None"]


def test_a_function_remembered_later_is_left_out_from_then_on(each_tracer: str, probe_module: types.ModuleType) -> None:
    """What a tracer decided about a function is decided again when the remembered functions change (here, one more
    module loaded after ``plus_one`` got a cache): traced before, left out after."""
    name = "probe_generators.py:plus_one"
    before = outcomes_exercised(lambda: probe_module.plus_one(1))
    assert before[0] == 2 and sorted(f for f in before[2] if name in f) == [
        f"arc:{name}:0>1", f"arc:{name}:1>ret", f"ret:{name}:1=pos"]
    probe_module.cached_plus_one = functools.lru_cache(maxsize=None)(probe_module.plus_one)
    sys.modules["cardrules.model.probe_loaded_later"] = types.ModuleType("cardrules.model.probe_loaded_later")
    try:
        after = outcomes_exercised(lambda: probe_module.plus_one(1))
    finally:
        del sys.modules["cardrules.model.probe_loaded_later"]
    assert after[0] == 2 and not any(name in f for f in after[2])


def test_a_compiled_tracer_held_by_its_callbacks_owner_is_collected(compiled_tracer: None) -> None:
    """Its callbacks are the owner's bound methods (a cycle through the tracer): the collector frees both."""
    owner = coverage._Compiled()
    assert owner.tracer.outcomes(lambda: 7, (), False, {})[0] == 7
    gone = weakref.ref(owner)
    del owner
    gc.collect()
    assert gone() is None


def test_each_thread_traces_with_compiled_tracers_of_its_own(compiled_tracer: None) -> None:
    """A trace hook is a thread's own: another thread gets another tracer, and finds what this one finds."""
    use_tracer("compiled")
    game = make_game("fftcg", RuleSetSpec("base", {}, {}))
    state = game.state_from_json(_scenario("fftcg-party-basics").state)
    here = coverage._compiled()
    there: list[Any] = []
    thread = threading.Thread(target=lambda: there.extend(
        [coverage._compiled(), outcomes_exercised(lambda: game.legal_actions(state))]))
    thread.start()
    thread.join()
    assert there[0] is not here
    assert there[1] == outcomes_exercised(lambda: game.legal_actions(state)) and there[1][2]
