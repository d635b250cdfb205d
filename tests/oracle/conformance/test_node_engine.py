"""The example engine of the implementer's guide: an FFTCG engine in JavaScript (docs/examples/node-engine/).

The engine has its own turn structure (priority windows; combat damage dealt as soon as the window after
the block closes, so the model's separate pass through Damage Resolution is a macro step it declares), speaks
the observable profile, and has no Pre-emptive Strike. The default FFTCG suite is run against it through the
runner (``run_adapter``), and also played by hand here as protocol 2 describes: actions of a merged step
not sent, the state compared at the next point that is not merged, in the observable form
(``observable_json``). Played by hand, what may fail, derived from that declaration alone:

- a vector that needs Pre-emptive Strike (it reaches the Pre-emptive Strike part of damage,
  FF-BASE-PREEMPTIVE) is skipped for the feature: the engine never sees it;
- a refusal made at a point the engine never stops at (Damage Resolution with no split to choose) cannot
  be asked of it: skipped for the macro step;
- everything else passes: no real rules difference is expected.

Through the runner, every vector passes, or is skipped for ``preemptive-strike`` (the one feature not
declared: only vectors with a Forward that has the ability need it) or for the merged Damage Resolution step.

With the planted bug ``NODE_ENGINE_BUG=per-member-unblocked`` an unblocked party deals one point per
member instead of one (FF-PARTY-UNBLOCKED-ONE): played by hand, exactly the vectors in which an unblocked
party of two or more deals its damage fail, at that step, with that clause the only suspect, both played
by hand and through the runner.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pytest

from cardrules.model.fftcg.jsonform import read_state
from cardrules.model.fftcg.observable import observable_json
from cardrules.oracle.conformance.generate import generate_suite
from cardrules.oracle.conformance.plan import make_plan
from cardrules.oracle.conformance.process import AdapterProcess
from cardrules.oracle.conformance.report import suspects
from cardrules.oracle.conformance.runner import VectorResult, run_adapter
from cardrules.properties.scenarios import load_scenarios

NODE = shutil.which("node")
ADAPTER = Path(__file__).parents[3] / "docs" / "examples" / "node-engine" / "adapter.js"
pytestmark = [
    pytest.mark.skipif(NODE is None, reason="Node.js (`node`) is not installed; the JavaScript engine cannot run"),
    pytest.mark.clause("FF-PARTY-UNBLOCKED-ONE", "FF-BASE-PREEMPTIVE", "FF-BASE-ATTACK-STEPS",
                       "FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-BLOCKED-EXCHANGE"),
]


def observed(state_json: dict[str, Any]) -> dict[str, Any]:
    """The observable form of a vector's state (the ``observable`` profile's ``state`` reply)."""
    return observable_json(read_state(state_json))


def needs_preemptive(vector: dict[str, Any]) -> bool:
    """The vector reaches the Pre-emptive Strike part of damage, or starts in Damage Resolution with one side's
    damage dealt (only a Pre-emptive Strike part splits combat damage in two)."""
    states = [vector["state"]] + [s["state"] for s in vector.get("steps", ())]
    start = vector["state"]
    attack = start.get("attack") or {}
    return (any(s.get("step") == "damage-preemptive" for s in states)
            or (vector["kind"] != "invalid" and start.get("step") == "damage-resolution"
                and bool(attack.get("attackers_dealt") or attack.get("blocker_dealt"))))


def merged_point(state: dict[str, Any]) -> bool:
    """Damage Resolution with no split to choose: the engine passes straight through it."""
    attack = state["attack"] or {}
    split = attack.get("party") and attack.get("blocked") and attack.get("blocker") and attack.get("attackers")
    return bool(state["step"] == "damage-resolution" and not split)


@dataclass
class Outcome:
    vector: str
    verdict: str
    """pass, fail, skipped-feature or skipped-macro."""
    step: int = 0
    where: str = ""
    blamed: tuple[str, ...] = ()
    passed_steps: list[tuple[str, ...]] = field(default_factory=list)
    """Clauses of each point compared and found equal (exonerating evidence for the report's ranking)."""


class Session:
    def __init__(self, process: AdapterProcess) -> None:
        self.process = process

    def __call__(self, message: dict[str, Any]) -> dict[str, Any]:
        return self.process.request(message, time.monotonic() + 20)


def play(ask: Session, suite: dict[str, Any], vector: dict[str, Any]) -> Outcome:
    """One vector, compared in the observable form, merged passes not sent."""
    name = vector["id"]
    if needs_preemptive(vector):
        return Outcome(name, "skipped-feature")
    loaded = ask({"op": "load", "game": "fftcg", "rule_set": suite["rule_set"], "state": vector["state"]})
    if vector["kind"] == "invalid":
        return Outcome(name, "pass" if loaded.get("error") == "bad-request" else "fail", where=f"load {loaded}")
    steps = vector["steps"]
    states = [vector["state"]] + [s["state"] for s in steps]
    if vector["kind"] == "refusal" and merged_point(states[-1]):
        return Outcome(name, "skipped-macro")
    merged = [s["action"] == "pass" and merged_point(states[i]) for i, s in enumerate(steps)]
    if not loaded["ok"]:
        return Outcome(name, "fail", where=f"load {loaded}", blamed=tuple(vector.get("start_clauses", ())))
    passed: list[tuple[str, ...]] = []
    for i in range(len(steps) + 1):
        if i and not merged[i - 1]:
            reply = ask({"op": "apply", "action": steps[i - 1]["action"]})
            if not reply["ok"]:
                return Outcome(name, "fail", i, f"apply {reply}", tuple(steps[i - 1]["clauses"]), passed)
        if i < len(steps) and merged[i]:
            continue
        blamed = tuple(steps[i - 1]["clauses"]) if i else tuple(vector.get("start_clauses", ()))
        got, expected = ask({"op": "state"})["state"], observed(states[i])
        if got != expected:
            return Outcome(name, "fail", i, f"state {got} != {expected}", blamed, passed)
        actions = sorted(ask({"op": "legal_actions"})["actions"])
        legal = steps[i - 1]["legal_actions"] if i else vector["legal_actions"]
        if actions != sorted(legal):
            return Outcome(name, "fail", i, f"legal actions {actions} != {sorted(legal)}", blamed, passed)
        passed.append(blamed)
    if vector["kind"] == "refusal":
        return refused(ask, suite, vector, passed)
    return Outcome(name, "pass", passed_steps=passed)


def refused(ask: Session, suite: dict[str, Any], vector: dict[str, Any], passed: list[tuple[str, ...]]) -> Outcome:
    refuse = vector["refuse"]
    reply = ask({"op": "apply", "action": refuse["action"]})
    in_force = set(suite["clauses_in_force"])
    named = set(reply.get("clauses", ())) & in_force
    if reply.get("error") != "illegal" or named != set(refuse["clauses"]):
        return Outcome(vector["id"], "fail", len(vector["steps"]) + 1, f"refusal {reply}", tuple(refuse["clauses"]),
                       passed)
    return Outcome(vector["id"], "pass", passed_steps=passed)


def run(suite: dict[str, Any], kinds: tuple[str, ...] = ("play", "refusal", "invalid")) -> list[Outcome]:
    """Every vector of those kinds (perft counts are not compared here: the engine's merged step changes
    the depth at which they count)."""
    assert NODE is not None
    process = AdapterProcess([NODE, str(ADAPTER)])
    ask = Session(process)
    try:
        hello = ask({"op": "hello", "protocol": "cardrules-adapter/2"})
        assert hello["profile"] == "observable" and hello["macro_steps"] == ["fftcg:damage-resolution"]
        return [play(ask, suite, v) for v in suite["vectors"] if v["kind"] in kinds]
    finally:
        process.close()


@pytest.fixture(scope="module")
def small_suite() -> dict[str, Any]:
    """The default FFTCG suite, at the shipped bounds (a few seconds)."""
    result = generate_suite(make_plan("fftcg", {}, {}), load_scenarios(), seed=0)
    assert result.suite is not None
    return result.suite


def unblocked_party_hits(vector: dict[str, Any]) -> Iterator[int]:
    """Steps (1-based) at which an unblocked party of two or more deals its damage to the player, read from
    the vector: the defending player's damage rises while an unblocked attack of several Forwards goes on."""
    states = [vector["state"]] + [s["state"] for s in vector["steps"]]
    for i in range(1, len(states)):
        before, after = states[i - 1], states[i]
        attack = before["attack"]
        defender = 1 - before["turn_player"]
        if (attack and attack["blocked"] is False and len(attack["attackers"]) >= 2
                and after["players"][defender]["damage"] > before["players"][defender]["damage"]):
            yield i


def test_every_vector_passes_or_is_skipped_for_pre_emptive_strike_or_the_merged_damage_step(
        small_suite: dict[str, Any]) -> None:
    outcomes = run(small_suite)
    by_verdict = {v: {o.vector for o in outcomes if o.verdict == v} for v in ("pass", "fail", "skipped-feature", "skipped-macro")}
    assert [(o.vector, o.step, o.where) for o in outcomes if o.verdict == "fail"] == []
    assert len(by_verdict["pass"]) >= 20 and by_verdict["skipped-feature"]
    assert by_verdict["skipped-macro"] <= {v["id"] for v in small_suite["vectors"] if v["kind"] == "refusal"}


def test_a_planted_per_member_unblocked_damage_fails_exactly_where_an_unblocked_party_hits(
        small_suite: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NODE_ENGINE_BUG", "per-member-unblocked")
    outcomes = {o.vector: o for o in run(small_suite, ("play", "refusal"))}
    hits = {v["id"]: min(unblocked_party_hits(v)) for v in small_suite["vectors"]
            if v["id"] in outcomes and outcomes[v["id"]].verdict != "skipped-feature" and any(unblocked_party_hits(v))}
    assert hits, "the suite should have an unblocked party dealing damage"
    failed = {name: o for name, o in outcomes.items() if o.verdict == "fail"}
    assert {name: o.step for name, o in failed.items()} == hits
    assert all("FF-PARTY-UNBLOCKED-ONE" in o.blamed for o in failed.values())
    vectors = {v["id"]: v for v in small_suite["vectors"]}
    results = [VectorResult(small_suite["suite"], o.vector, vectors[o.vector]["kind"], tuple(vectors[o.vector]["clauses"]),
                            "skipped" if o.verdict.startswith("skipped") else o.verdict, o.step, where=o.where,
                            blamed=o.blamed, passed_steps=o.passed_steps) for o in outcomes.values()]
    assert suspects(results) == ["FF-PARTY-UNBLOCKED-ONE"]


def test_a_rule_set_with_a_reading_the_engine_did_not_declare_is_refused_as_unsupported(
        small_suite: dict[str, Any]) -> None:
    suite = {**small_suite, "rule_set": {**small_suite["rule_set"], "decisions": {"party-zero-share": "each-hit-if-possible"}}}
    vector = next(v for v in suite["vectors"] if v["kind"] == "play" and not needs_preemptive(v))
    assert NODE is not None
    process = AdapterProcess([NODE, str(ADAPTER)])
    try:
        reply = Session(process)({"op": "load", "game": "fftcg", "rule_set": suite["rule_set"], "state": vector["state"]})
    finally:
        process.close()
    assert (reply["ok"], reply["error"]) == (False, "unsupported") and "party-zero-share" in reply["message"]


def forward(fid: str, element: str, power: int, **extra: Any) -> dict[str, Any]:
    return {"id": fid, "name": fid, "elements": [element], "cost": 2, "power": power, **extra}


@pytest.mark.clause("FF-PARTY-P-ICON", "FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT", "FF-BASE-BREAK-DAMAGE",
                    "FF-PARTY-DISBAND-COMBAT-END")
def test_a_p_icon_party_blocked_by_5500_is_split_5000_in_thousands_and_both_members_can_break() -> None:
    # Fire 2000 and Ice 3000 share no element but both carry the P icon: a party. Earth 5500 blocks it; its
    # controller splits 5000 (5500 floored to thousands) among the two; 2000 to a1 and 3000 to a2 break both,
    # while the party's 5000 leaves the blocker standing with 5000 damage. Combat End: the party is over.
    start = {"turn": 1, "turn_player": 0, "phase": "attack", "step": "attack-declaration", "attack": None,
             "players": [{"damage": 0, "forwards": [forward("a1", "fire", 2000, p_icon=True),
                                                    forward("a2", "ice", 3000, p_icon=True)], "break_zone": []},
                         {"damage": 0, "forwards": [forward("b1", "earth", 5500)], "break_zone": []}]}
    assert NODE is not None
    process = AdapterProcess([NODE, str(ADAPTER)])
    ask = Session(process)
    try:
        assert ask({"op": "load", "game": "fftcg", "rule_set": {"expression": "default", "versions": {},
                                                                 "decisions": {}}, "state": start})["ok"]
        assert "attack a1 a2" in ask({"op": "legal_actions"})["actions"]
        for action in ("attack a1 a2", "pass", "block b1", "pass"):
            assert ask({"op": "apply", "action": action})["ok"], action
        assert sorted(ask({"op": "legal_actions"})["actions"]) == sorted(
            f"split a1={n * 1000} a2={(5 - n) * 1000}" for n in range(6))
        refused = ask({"op": "apply", "action": "split a1=2500 a2=2500"})
        assert (refused["error"], sorted(refused["clauses"])) == ("illegal", ["FF-BASE-PARTY-SPLIT", "FF-PARTY-SPLIT-THOUSANDS"])
        assert ask({"op": "apply", "action": "split a1=2000 a2=3000"})["ok"]
        state = ask({"op": "state"})["state"]
    finally:
        process.close()
    assert (state["step"], state["decider"]) == ("combat-end", 0)
    assert state["players"][0]["break_zone"] == ["a1", "a2"] and state["players"][0]["field"] == []
    assert [(f["id"], f["damage"], f["dull"]) for f in state["players"][1]["field"]] == [("b1", 5000, False)]
    assert state["attack"] == {"attackers": [], "party": False, "blocked": True, "blocker": "b1"}
    # both members broke (the one left after the first break is the party's last: it disbands there)
    assert state["events"] == [{"event": "forward-broken", "forward": "a1"}, {"event": "forward-broken", "forward": "a2"},
                               {"event": "party-disbanded", "members": ["a2"]}]


def test_through_the_runner_every_vector_passes_or_is_skipped_for_pre_emptive_strike(
        small_suite: dict[str, Any]) -> None:
    assert NODE is not None
    run = run_adapter([NODE, str(ADAPTER)], [small_suite], 20)
    assert (run.declaration.protocol, run.declaration.profile) == (2, "observable")
    assert [(r.vector, r.verdict, r.where, r.got) for r in run.results if r.verdict not in ("pass", "skipped")] == []
    assert {r.kind for r in run.results if r.verdict == "pass"} == {"play", "refusal", "perft", "invalid"}
    skipped = [r for r in run.results if r.verdict == "skipped"]
    # every other feature of the game is declared: the one missing is the only reason to skip
    assert skipped and {r.skipped_for for r in skipped} <= {
        ("preemptive-strike",), ("inside macro step fftcg:damage-resolution",)}
    needing = {v["id"] for v in small_suite["vectors"] if v["kind"] in ("play", "refusal") and needs_preemptive(v)}
    assert needing <= {r.vector for r in skipped}


def test_through_the_runner_the_planted_bug_has_one_suspect(
        small_suite: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NODE_ENGINE_BUG", "per-member-unblocked")
    assert NODE is not None
    run = run_adapter([NODE, str(ADAPTER)], [small_suite], 20)
    assert {r.vector for r in run.results if r.verdict == "fail"} == {
        v["id"] for v in small_suite["vectors"]
        if v["kind"] in ("play", "refusal") and not needs_preemptive(v) and any(unblocked_party_hits(v))}
    assert suspects(run.results) == ["FF-PARTY-UNBLOCKED-ONE"]
