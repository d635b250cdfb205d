"""A proposal's code runs under guards: every mistake in it is one line of bad input (exit 3), never a
traceback, a hang or a wrong verdict; a correct hook gives the same diff as unguarded."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

import cardrules.oracle.rulechange.guard as guard
from tests.cli import CliRun, run_cli
from tests.paths import REPO

pytestmark = pytest.mark.infrastructure("proposal code: guards on import, hooks and the z3 half")

PROPOSALS = REPO / "docs" / "proposals"
SMALL_BOUND = 0.3
HEADER = "from cardrules.model.extension import override\n\n\n"

FFTCG = ("party-damage-per-member.toml", "party_damage_per_member_model.py", "fftcg-party-basics")
SIDE_BATTLES = ("two-side-battles.toml", "two_side_battles_model.py", "redemption-side-battles-3p")


def proposal(tmp_path: Path, base: tuple[str, str, str], model: str | None = None, smt: str | None = None) -> Path:
    """A copy of a shipped proposal in ``tmp_path`` with the given code texts (shipped code where None)."""
    toml, model_name, _ = base
    (tmp_path / model_name).write_text(model if model is not None else (PROPOSALS / model_name).read_text())
    text = (PROPOSALS / toml).read_text()
    if "smt = " in text:
        smt_name = text.split('smt = "')[1].split('"')[0]
        (tmp_path / smt_name).write_text(smt if smt is not None else (PROPOSALS / smt_name).read_text())
    (tmp_path / toml).write_text(text)
    return tmp_path / toml


def diff(path: Path, base: tuple[str, str, str], *more: str) -> CliRun:
    return run_cli("diff", "default", str(path), "--allow-code", "--no-smt", "--quiet", "--scenario", base[2], *more)


def assert_refused(result: CliRun, *parts: str) -> str:
    """Exit 3, one line on standard error holding every part, no traceback; the line."""
    assert result.code == 3, (result.code, result.err)
    line = result.err.strip()
    assert "\n" not in line and "Traceback" not in line, result.err
    for part in parts:
        assert part in line, (part, line)
    return line


def hook(point: str, parameters: str, body: str, game: str = "fftcg") -> str:
    return HEADER + f"@override({game!r}, {point!r})\ndef answer({parameters}):\n" + \
        "".join(f"    {line}\n" for line in body.splitlines())


def damage_hook(body: str, parameters: str = "state, attackers") -> str:
    return hook("unblocked-damage", parameters, body)


@pytest.fixture
def small_bound(monkeypatch: pytest.MonkeyPatch) -> float:
    monkeypatch.setattr(guard, "TIME_BOUND", SMALL_BOUND)
    return SMALL_BOUND


@pytest.mark.parametrize("expression, shown", [
    ("None", "returned None"), ("'two'", "returned a str"), ("-5", "returned -5"),
    ("10**9", "returned 1000000000"), ("1.5", "returned 1.5 (a float)"), ("float('nan')", "returned nan (a float)"),
    ("True", "returned True (a bool)"), ("10**5000", "an int of about 5001 digits"),
])
def test_a_damage_hook_returning_no_damage_count_is_refused(tmp_path: Path, expression: str, shown: str) -> None:
    path = proposal(tmp_path, FFTCG, damage_hook(f"return {expression}"))
    assert_refused(diff(path, FFTCG), "party_damage_per_member_model.py: hook 'unblocked-damage' (function answer, "
                   "line 5)", f"{shown}; expected an int from 0 to 7")


def test_a_hook_that_raises_is_named_with_the_line_that_raised(tmp_path: Path) -> None:
    path = proposal(tmp_path, FFTCG, damage_hook("x = 1\nraise RuntimeError('no\\ndamage today')"))
    assert_refused(diff(path, FFTCG), "hook 'unblocked-damage' (function answer, line 7): raised RuntimeError: no "
                   "damage today")


@pytest.mark.parametrize("exception", ["KeyboardInterrupt", "GeneratorExit", "SystemExit(0)", "MemoryError"])
def test_a_hook_raising_a_base_exception_is_its_own_fault(tmp_path: Path, exception: str) -> None:
    path = proposal(tmp_path, FFTCG, damage_hook(f"raise {exception}"))
    assert_refused(diff(path, FFTCG), "(function answer, line 6): raised " + exception.split("(")[0])


@pytest.mark.parametrize("value, shown", [("[2]", "returned a list"), ("-1", "returned -1"),
                                          ("10**6", "returned 1000000")])
def test_a_side_battle_limit_out_of_its_contract_is_refused(tmp_path: Path, value: str, shown: str) -> None:
    path = proposal(tmp_path, SIDE_BATTLES, hook("side-battles-per-turn", "config", f"return {value}", "redemption"))
    assert_refused(diff(path, SIDE_BATTLES), "two_side_battles_model.py: hook 'side-battles-per-turn' (function "
                   "answer, line 5)", f"{shown}; expected an int from 0 to 9")


@pytest.mark.parametrize("command", ["check", "diff"])
def test_a_hook_with_the_wrong_parameters_is_refused_at_load(tmp_path: Path, command: str) -> None:
    path = proposal(tmp_path, FFTCG, damage_hook("return 1", parameters="state"))
    result = run_cli("proposal", "check", str(path), "--allow-code") if command == "check" else diff(path, FFTCG)
    assert_refused(result, "party_damage_per_member_model.py: hook 'unblocked-damage' (function answer, line 5): "
                   "takes (state), but the model calls it as answer(state, attackers)")


def test_a_hook_that_never_returns_times_out(tmp_path: Path, small_bound: float) -> None:
    path = proposal(tmp_path, FFTCG, damage_hook("while True:\n    pass"))
    assert_refused(diff(path, FFTCG), "hook 'unblocked-damage' (function answer, line 6)",
                   f"did not return within {small_bound:g} s")


def test_a_hook_that_swallows_the_first_alarm_still_times_out(tmp_path: Path, small_bound: float) -> None:
    path = proposal(tmp_path, FFTCG, damage_hook("try:\n    while True:\n        pass\nexcept BaseException:\n"
                                                 "    pass\nwhile True:\n    pass"))
    assert_refused(diff(path, FFTCG), "hook 'unblocked-damage' (function answer, line ", "did not return within")


@pytest.mark.parametrize("top_level, problem", [
    ("raise ValueError('bad')", "importing it (line 4): raised ValueError: bad"),
    ("raise KeyboardInterrupt", "importing it (line 4): raised KeyboardInterrupt"),
    ("raise GeneratorExit", "importing it (line 4): raised GeneratorExit"),
    ("raise SystemExit(2)", "importing it (line 4): raised SystemExit: 2"),
    ("while True:\n    pass", "importing it (line 4): did not return within 0.3 s"),
    ("def broken(:\n    pass", "not valid Python: line 4"),
])
def test_a_model_module_whose_import_fails_or_hangs_is_refused(tmp_path: Path, small_bound: float, top_level: str,
                                                               problem: str) -> None:
    path = proposal(tmp_path, FFTCG, HEADER + top_level + "\n")
    for result in (run_cli("proposal", "check", str(path), "--allow-code"), diff(path, FFTCG)):
        assert_refused(result, f"party_damage_per_member_model.py: {problem}")


@pytest.mark.parametrize("marker, problem", [
    ("'fftcg/unblocked-damage'", "answer: its override mark is not (game, point) as @override sets it (found a str)"),
    ("('fftcg',)", "its override mark is not (game, point)"),
    ("(1, 2)", "its override mark is not (game, point)"),
])
def test_a_malformed_override_mark_is_refused(tmp_path: Path, marker: str, problem: str) -> None:
    code = HEADER + f"def answer(state, attackers):\n    return 1\n\n\nanswer.__cardrules_override__ = {marker}\n"
    path = proposal(tmp_path, FFTCG, code)
    assert_refused(run_cli("proposal", "check", str(path), "--allow-code"), "party_damage_per_member_model.py: ",
                   problem)


def test_an_object_whose_getattr_raises_is_refused(tmp_path: Path, small_bound: float) -> None:
    code = HEADER + ("class Odd:\n    def __getattr__(self, name):\n        raise RuntimeError(name)\n\n\nodd = Odd()\n\n\n"
                     "class Endless:\n    def __getattr__(self, name):\n        while True:\n            pass\n\n\n"
                     "endless = Endless()\n")
    path = proposal(tmp_path, FFTCG, code)
    assert_refused(run_cli("proposal", "check", str(path), "--allow-code"),
                   "odd: reading its override mark raised RuntimeError")
    path.with_name(FFTCG[1]).write_text(code.replace("odd = Odd()", ""))
    assert_refused(run_cli("proposal", "check", str(path), "--allow-code"),
                   "reading its overrides (line 14): did not return within")


def test_a_z3_half_that_never_returns_or_answers_wrongly_is_refused(tmp_path: Path, small_bound: float) -> None:
    base = ("heal-to-owner.toml", "heal_to_owner_model.py", "redemption-heal-and-redirect")
    smt = "AREA = 'heal'\n\n\ndef clause_constraints(situation):\n"
    path = proposal(tmp_path, base, smt=smt + "    while True:\n        pass\n")
    assert_refused(run_cli("proposal", "check", str(path), "--allow-code"),
                   "heal_to_owner_smt.py: clause_constraints (line 5): did not return within 0.3 s")
    path = proposal(tmp_path, base, smt=smt + "    return [1]\n")
    assert_refused(run_cli("proposal", "check", str(path), "--allow-code"),
                   "heal_to_owner_smt.py: clause_constraints (line 4): returned a list; expected a dict of clause ID")
    path = proposal(tmp_path, base, smt=smt + "    return {'RED-HEAL-WINDOW': 1}\n")
    assert_refused(diff(path, base), "returned 1 for RED-HEAL-WINDOW; expected a dict of clause ID")


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "symlink-to-dev-zero"])
def test_a_code_path_that_is_no_regular_file_is_refused_at_once(tmp_path: Path, kind: str) -> None:
    path = proposal(tmp_path, FFTCG)
    code = tmp_path / FFTCG[1]
    code.unlink()
    if kind == "fifo":
        os.mkfifo(code)
    else:
        code.symlink_to("/dev/zero")
    assert_refused(run_cli("proposal", "check", str(path), "--allow-code"), str(code),
                   "is not a regular file")


@pytest.mark.parametrize("json_output", [False, True], ids=["text", "json"])
def test_a_proposal_with_a_huge_integer_is_refused(tmp_path: Path, json_output: bool) -> None:
    path = tmp_path / "p.toml"
    path.write_text((PROPOSALS / FFTCG[0]).read_text() + "\n[decisions]\nx = " + "9" * 5000 + "\n")
    assert_refused(run_cli("proposal", "check", str(path), *(["--json"] if json_output else [])), str(path),
                   "an integer has more than")


def test_a_real_ctrl_c_during_a_hook_is_passed_on(tmp_path: Path) -> None:
    path = proposal(tmp_path, FFTCG, "import os, signal, time\n" + damage_hook(
        "os.kill(os.getpid(), signal.SIGINT)\ntime.sleep(5)\nreturn 1"))
    try:
        result = diff(path, FFTCG)
    except KeyboardInterrupt:  # a command line that lets Ctrl-C through
        pass
    else:  # the command line's own answer to Ctrl-C (exit 130), never the hook's fault (exit 3)
        assert result.code == 130 and "interrupted" in result.err and "raised" not in result.err, result
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_correct_hook_gives_the_same_diff_as_unguarded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cardrules.oracle.rulechange.proposal_code as proposal_code

    def without_timing(text: str) -> dict:
        report = json.loads(text)
        for scenario in report["scenarios"]:
            scenario.pop("seconds"), scenario.pop("states_per_second")
        report.pop("speed")
        return report

    path = proposal(tmp_path, FFTCG)
    guarded = diff(path, FFTCG, "--json")
    monkeypatch.setattr(proposal_code, "guarded_hook", lambda point, function, source: function)
    unguarded = diff(path, FFTCG, "--json")
    assert guarded.code == unguarded.code == 1
    assert without_timing(guarded.out) == without_timing(unguarded.out)


def test_outside_the_main_thread_a_hook_still_cannot_raise_through(tmp_path: Path) -> None:
    import threading

    def subject(line: int | None) -> str:
        return f"m.py: hook 'x' (line {line})"

    def failing() -> None:
        raise KeyboardInterrupt

    caught: list[BaseException] = []

    def worker() -> None:
        try:
            guard.call_guarded(failing, (), "m.py", subject)
        except BaseException as error:  # noqa: BLE001 - the test looks at what came through
            caught.append(error)

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    (error,) = caught
    assert isinstance(error, guard.ProposalCodeError) and "raised KeyboardInterrupt" in str(error)


def test_a_timer_running_before_a_guarded_call_runs_on_after_it() -> None:
    previous = signal.signal(signal.SIGALRM, lambda *_: None)
    try:
        signal.setitimer(signal.ITIMER_REAL, 30)
        assert guard.call_guarded(lambda: 7, (), "m.py", str) == 7
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 25 < left <= 30
        assert signal.getsignal(signal.SIGALRM) is not guard._on_alarm
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
