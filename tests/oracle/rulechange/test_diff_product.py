"""The lockstep exploration goes on past a difference; the decisive clause of a difference; ``--scope``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardrules.model.errors import IllegalAction
from cardrules.oracle.rulechange.decisive import Attribution, decide
from tests.cli import run, run_cli


@pytest.fixture(scope="module")
def window(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[str, Any], Path]:
    traces = tmp_path_factory.mktemp("window-traces")
    code, text = run("diff", "heal=previous", "heal=revised", "--scenario", "redemption-heal-and-redirect",
                     "--no-smt", "--json", "--traces", str(traces))
    return code, json.loads(text), traces


@pytest.mark.clause("RED-HEAL-WINDOW")
def test_play_goes_on_past_the_first_difference(window: tuple[int, dict[str, Any], Path]) -> None:
    # p1's 'dc' discards h0: under the previous wording at once (h0 in p0's pile, p0 plays next); under
    # the revised one p0's heal window opens first. Both plays are followed from there: in the window
    # p0 cannot simply pass (tightened, a follow-on of the parted decision), and p0 may heal h0 there.
    code, report, _ = window
    assert code == 1
    (scenario,) = report["scenarios"]
    assert scenario["parted_pairs"] > 0
    follow = {(c["kind"], c["action_kind"], c["field"]) for c in report["classes"] if c["follow_on"]}
    assert ("tightened", "pass", "decision") in follow
    assert ("relaxed", "heal", "decision") in follow
    parted = next(t for t in scenario["follow_on_traces"] if t["action"] == "pass")
    assert parted["steps"][-1]["action"] == "play dc on e1 -> h0"
    assert "h0" in parted["steps"][-1]["state_a"]["zones"][0]["discard"]
    assert parted["steps"][-1]["state_b"]["prompt"]["kind"] == "heal-window"


@pytest.mark.infrastructure("diff traces whose steps part: replayed under both rule sets")
def test_a_trace_past_a_difference_replays_and_a_tampered_one_does_not(window: tuple[int, dict[str, Any], Path],
                                                                        tmp_path: Path) -> None:
    _, _, traces = window
    parted = [p for p in sorted(traces.glob("*.json")) if "state_a" in json.dumps(json.loads(p.read_text())["steps"])]
    assert parted
    for path in parted:
        code, text = run("replay", str(path))
        assert code == 0 and "reproduced" in text, text
    trace = json.loads(parted[0].read_text())
    last = next(s for s in reversed(trace["steps"]) if "state_b" in s)
    last["state_b"] = last["state_a"]
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(trace))
    code, text = run("replay", str(tampered))
    assert code == 1 and "NOT reproduced" in text


def _owner(state: int) -> int:
    return 1 - state


def _controller(state: int) -> int:
    return state


def _destination(state: int, to_owner: bool) -> int:
    return _owner(state) if to_owner else _controller(state)


def _heal(state: int, to_owner: bool) -> int:
    return _destination(state, to_owner) + 10


CODES = {_destination.__code__: ("X-OWNER", "X-CONTROLLER"), _heal.__code__: ("X-HEAL",),
         _owner.__code__: ("X-OWNER",), _controller.__code__: ("X-CONTROLLER",)}
ATTRIBUTION = Attribution(frozenset({"X-OWNER", "X-CONTROLLER", "X-HEAL", "X-CITED"}),
                          frozenset({"X-OWNER", "X-HEAL", "X-CITED"}), frozenset({"X-CONTROLLER", "X-HEAL", "X-CITED"}),
                          CODES, {})


@pytest.mark.infrastructure("the decisive clause rules of the diff")
def test_the_function_that_first_decides_otherwise_is_decisive() -> None:
    # under A the destination reads the owner, under B the controller: the two sides call different
    # functions inside _destination, so the enclosing _destination decided, its A and B clauses named
    decisive = decide(ATTRIBUTION, lambda: _heal(0, True), lambda: _heal(0, False))
    assert decisive.how == "first-differing-call"
    assert (decisive.under_a, decisive.under_b) == (("X-OWNER",), ("X-CONTROLLER",))
    assert decisive.text() == "X-OWNER (A) / X-CONTROLLER (B)"


@pytest.mark.infrastructure("the decisive clause rules of the diff")
def test_a_refusal_names_the_clause_it_cites_and_otherwise_candidates_are_listed() -> None:
    def refuse() -> None:
        raise IllegalAction("heal h0 with hc", "refused", ("X-CITED", "NOT-TOUCHED"))

    assert decide(ATTRIBUTION, lambda: None, lambda: None, refuse=refuse).clauses == ("X-CITED",)
    same = decide(ATTRIBUTION, lambda: _heal(0, True), lambda: _heal(0, True))
    assert same.how == "candidates" and not same.narrowed
    # every touched clause whose function ran: _heal, _destination (both of its clauses) and _owner
    assert same.clauses == ("X-CONTROLLER", "X-HEAL", "X-OWNER") and same.text().startswith("not narrowed to one; candidates:")


@pytest.mark.infrastructure("diff's --scope option: bad input")
@pytest.mark.parametrize(("args", "says"), [
    (("--scope", "no-such-scope"), "no-such-scope"),
    (("--scope", "none", "--scope", "small"), "--scope none"),
])
def test_a_bad_scope_is_bad_input(args: tuple[str, ...], says: str) -> None:
    result = run_cli("diff", "heal=previous", "heal=revised", "--no-smt", "--quiet", *args)
    assert result.code == 3 and says in result.err
    assert len(result.err.strip().splitlines()) == 1 and "Traceback" not in result.err


@pytest.mark.infrastructure("diff's scope section and its no-difference sentence")
def test_no_difference_within_a_scope_is_said_with_its_size() -> None:
    # the chosen option of a decision, named: the same rules as the default, so no difference anywhere
    args = ("diff", "default", "party-blocker-left=no-damage", "--scope", "small", "--no-smt", "--quiet",
            "--scenario", "fftcg-party-basics", "--max-states", "300")
    report = json.loads(run_cli(*args, "--json").out)
    (scope,) = report["scopes"]
    assert not report["differs"] and scope["classes"] == {}
    result = run_cli(*args)
    assert (f"No difference found within scope small ({scope['positions']:,} positions, {scope['states']:,} states)"
            in result.out)
    assert result.code == (4 if report["truncated"] else 0)
