"""FFTCG ``invalid`` vectors (cardrules-vectors/3): reachable positions with one thing the rules forbid
(decision ``ff-unsettled-position`` and the shape of an attack), which an engine must refuse to load.

The hand-made position: player 0 has declared a party of a1 and a2 (5000 each, Attack Declaration),
player 1 has b1 (power 3000) and 6 damage. Setting a1's power to 0 leaves a Forward the rules break at
once (FF-BASE-BREAK-ZERO-POWER); setting b1's damage to its power 3000 likewise (FF-BASE-BREAK-DAMAGE);
player 1 at 7 damage with the game still on (FF-BASE-SEVEN-DAMAGE-LOSES); and the party flag cleared
leaves two attackers that are no party before Combat End (FF-BASE-ONE-ATTACK-AT-A-TIME).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from cardrules.model.fftcg.state import Forward, Player, State, Step
from cardrules.model.fftcg.validate import load_state
from cardrules.model.fftcg import validate as ff_validate
from cardrules.oracle.conformance.adapter import ReferenceAdapter
from cardrules.oracle.conformance.invalid import invalid_candidates
from cardrules.oracle.conformance.schema import load_suite

from .conftest import REFERENCE


def _declared_party() -> dict:
    a1 = Forward("a1", "A1", frozenset({"fire"}), 3, 5000)
    a2 = Forward("a2", "A2", frozenset({"fire"}), 3, 5000)
    b1 = Forward("b1", "B1", frozenset({"water"}), 3, 3000)
    from cardrules.model.fftcg.engine import step
    from cardrules.model.fftcg.actions import parse_action

    state = State(players=(Player(forwards=(a1, a2)), Player(damage=6, forwards=(b1,))), step=Step.DECLARATION)
    return step(state, parse_action("attack a1 a2")).to_json()


@pytest.mark.clause("FF-BASE-BREAK-ZERO-POWER", "FF-BASE-BREAK-DAMAGE", "FF-BASE-SEVEN-DAMAGE-LOSES",
                    "FF-BASE-ONE-ATTACK-AT-A-TIME")
def test_the_unsettled_corruptions_of_a_reachable_position_are_candidates_with_one_problem_each() -> None:
    base = _declared_party()
    load_state(base)  # reachable: it loads
    found = {(c.field, c.change, c.where): c.problem for c in invalid_candidates("fftcg", "hand", [base])}
    zero = found[("players[].forwards[].power", "=0", "players[0].forwards[0]")]
    assert "a1 (power 0" in zero and "FF-BASE-BREAK-ZERO-POWER" in zero
    broken = found[("players[].forwards[].damage", "=power", "players[1].forwards[0]")]
    assert "b1 (power 3000, damage 3000)" in broken and "FF-BASE-BREAK-DAMAGE" in broken
    # 6 + 1: the generic "+1" already makes the 7; "=7" of player 0 (0 damage) as well
    assert "FF-BASE-SEVEN-DAMAGE-LOSES" in found[("players[].damage", "+1", "players[1].damage")]
    assert "player 0" in found[("players[].damage", "=7", "players[0].damage")]
    flipped = found[("attack.party", "flipped", "attack.attackers")]
    assert "a1, a2" in flipped and "FF-BASE-ONE-ATTACK-AT-A-TIME" in flipped
    # power 5000 - 1 = 4999 is a valid power: no candidate; cost -1 is outside the field's own range (a
    # malformed form, not a position the rules forbid): no candidate either
    assert not any(field == "players[].forwards[].power" and change == "-1" for field, change, _ in found)
    assert not any(field == "players[].forwards[].cost" for field, _, _ in found)


@pytest.mark.clause("FF-BASE-BREAK-ZERO-POWER", "FF-BASE-SEVEN-DAMAGE-LOSES")
def test_the_fftcg_suite_has_invalid_vectors_the_reference_refuses_and_a_lax_engine_loads(
    fftcg_suite: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardrules.oracle.conformance.runner import run_vector
    from cardrules.oracle.mutation.checks import InProcessAdapter

    suite = load_suite(fftcg_suite)
    invalid = [v for v in suite["vectors"] if v["kind"] == "invalid"]
    reasons = " ".join(v["problem"]["reason"] for v in invalid)
    # the scenarios' start and richest states (no targeted position in this small suite)
    assert "FF-BASE-BREAK-ZERO-POWER" in reasons and "FF-BASE-SEVEN-DAMAGE-LOSES" in reasons
    twins = [v for v in suite["vectors"] if v["kind"] == "perft" and v["depth"] == 1]
    others = [v for v in suite["vectors"] if v["kind"] != "invalid"][:5] + twins
    assert all(run_vector(InProcessAdapter(), suite, v, 60).verdict == "pass" for v in invalid + others)
    # an engine that loads whatever it is given
    monkeypatch.setattr(ff_validate, "problems", lambda state: [])
    results = [run_vector(InProcessAdapter(), suite, v, 60) for v in invalid]
    assert all((r.verdict, r.where, r.got) == ("fail", "load of an invalid state", "loaded") for r in results)
    assert all(run_vector(InProcessAdapter(), suite, v, 60).verdict == "pass" for v in others)


@pytest.mark.clause("FF-BASE-BREAK-ZERO-POWER")
def test_the_adapter_answers_bad_request_naming_the_forward_and_the_clause() -> None:
    data = _declared_party()
    data["players"][1]["forwards"][0]["power"] = 0
    request = {"op": "load", "game": "fftcg", "rule_set": {}, "state": data}
    reply = ReferenceAdapter().handle(request)
    assert reply["ok"] is False and reply["error"] == "bad-request"
    assert "b1" in reply["message"] and "FF-BASE-BREAK-ZERO-POWER" in reply["message"]
    # the same through `cardrules conformance adapter`, a process: one reply line, no traceback
    done = subprocess.run(REFERENCE, input=json.dumps(request) + "\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    [line] = done.stdout.splitlines()
    assert json.loads(line) == reply
