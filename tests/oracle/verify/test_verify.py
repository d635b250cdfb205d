"""cardrules verify: sound rule sets hold, broken variants are caught with counterexamples that replay."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path

import pytest

from cardrules.model.errors import IllegalAction
from cardrules.oracle.cli import main
from cardrules.oracle.verify.runner import verify
from cardrules.properties.games import make_game
from cardrules.properties.games import ALL_PROPERTIES as PROPERTIES
from cardrules.properties.scenarios import SCENARIO_DIR, RuleSetSpec, load_scenarios
from cardrules.properties.engines.trace_json import replay
from cardrules.specs.catalogue import default_catalogue


def scenario(name: str):
    return next(s for s in load_scenarios() if s.name == name)


@pytest.fixture(scope="module")
def party_basics_rows() -> list:
    """``verify`` of fftcg-party-basics by the explorer, mutants included: run once for the tests that
    read its rows (each takes a deep copy of a trace it changes)."""
    return verify([scenario("fftcg-party-basics")], engines=("explore",))


@pytest.mark.infrastructure("verify, explore and replay: commands, traces and verdicts")
def test_every_property_names_known_clauses_and_reads_like_a_rule() -> None:

    known = default_catalogue().ids
    assert len(PROPERTIES) >= 20
    for prop in PROPERTIES:
        assert prop.clause_ids and set(prop.clause_ids) <= known, prop.name
        assert prop.statement.endswith(".") and len(prop.statement) > 30, prop.name


@pytest.mark.clause("FF-PARTY-MIN-TWO", "FF-PARTY-SPLIT-THOUSANDS", "FF-PARTY-UNBLOCKED-ONE", "FF-PARTY-BREAK-CREDIT")
def test_fftcg_scenarios_hold_under_every_sound_rule_set() -> None:
    rows = verify([s for s in load_scenarios() if s.game == "fftcg"], engines=("explore",), include_mutants=False)
    # every FFTCG scenario is bounded by turns: within the bound, every state was explored and every property holds
    assert rows and all(r.verdict == "holds-bounded" for r in rows), [r for r in rows if r.verdict != "holds-bounded"][:3]


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT")
def test_split_in_hundreds_is_caught_and_its_trace_replays(party_basics_rows: list) -> None:
    mutant = [r for r in party_basics_rows if r.rule_set == "split-in-hundreds" and r.property == "blocker-split-thousands"]
    assert [r.verdict for r in mutant] == ["caught"]
    trace = mutant[0].trace
    assert trace is not None and trace["format"] == "cardrules-trace/1"
    last = trace["steps"][-1]["action"]
    # the last step is the blocker's split, and some share is not a multiple of 1000
    assert last.startswith("split ")
    assert any(int(part.split("=")[1]) % 1000 for part in last.split()[1:])
    # the trace names the broken variant, so a replay runs the same broken rule
    assert trace["rule_set"]["broken"] == ["party-split-in-hundreds"]
    game = make_game("fftcg", RuleSetSpec("split-in-hundreds", broken=("party-split-in-hundreds",)))
    assert replay(trace, game).ok
    with pytest.raises(IllegalAction, match="multiples of 1000"):  # the sound rule refuses the split
        replay(trace, make_game("fftcg", RuleSetSpec("default")))
    # the shortest way there: declare a party, pass to blocks, block, pass to damage, split = 5 steps
    assert len(trace["steps"]) == 5


@pytest.mark.clause("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER")
def test_two_side_battles_per_turn_is_caught_and_replays() -> None:
    rows = verify([scenario("redemption-side-battles-3p")], engines=("explore",))
    caught = [r for r in rows if r.rule_set == "two-side-battles-per-turn" and r.verdict == "caught"]
    assert [r.property for r in caught] == ["one-side-battle-per-player-per-turn"]
    trace = caught[0].trace
    plays = [s["action"] for s in trace["steps"] if s["action"].startswith("play sb0")]
    # the same player (0) played both identical side battle cards in one turn
    assert len(plays) == 2
    game = make_game("redemption", RuleSetSpec("two", broken=("two-side-battles-per-turn",)))
    assert replay(trace, game).ok
    with pytest.raises(IllegalAction):  # the sound rule refuses the second side battle's play
        replay(trace, make_game("redemption", RuleSetSpec("default")))
    sound = [r for r in rows if r.rule_set == "default"]
    assert sound and all(r.verdict == "holds-bounded" for r in sound)


@pytest.mark.infrastructure("verify, explore and replay: commands, traces and verdicts")
def test_a_tampered_trace_is_not_reproduced(tmp_path: Path, party_basics_rows: list) -> None:
    trace = copy.deepcopy(next(r.trace for r in party_basics_rows if r.verdict == "caught"))
    trace["steps"][0]["state"]["players"][1]["damage"] = 0 if trace["steps"][0]["state"]["players"][1]["damage"] else 1
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(trace))
    out = io.StringIO()
    assert main(["replay", str(path)], out=out) == 1
    assert "NOT reproduced" in out.getvalue()


@pytest.mark.infrastructure("verify, explore and replay: commands, traces and verdicts")
def test_cli_verify_exit_codes(tmp_path: Path) -> None:
    # the CLI's exit codes and output, on a small scenario (1,216 states a rule set) whose mutant is
    # fftcg-party-basics' split in hundreds too
    out = io.StringIO()
    assert main(["verify", "--scenario", "fftcg-preemptive-blocker-survives", "--engine", "explore", "--quiet"],
                out=out) == 0
    assert "split-in-hundreds" in out.getvalue() and "caught" in out.getvalue()
    # a mutant whose expected violation is not found fails the run: the split in hundreds keeps
    # parties of two or more, so expecting party-min-two is MISSED, and the violations it does
    # cause are shown with counterexamples
    data = json.loads((SCENARIO_DIR / "fftcg-preemptive-blocker-survives.json").read_text())
    assert [m["name"] for m in data["mutants"]] == ["split-in-hundreds"]
    data["mutants"][0]["expect_violated"] = ["party-min-two"]
    path = tmp_path / "fftcg-preemptive-blocker-survives.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    code = main(["verify", "--scenario-file", str(path), "--engine", "explore"], out=out)
    assert code == 1
    assert "MISSED" in out.getvalue()
    assert ("blocker-split-thousands / fftcg-preemptive-blocker-survives / split-in-hundreds / explore: counterexample"
            in out.getvalue())


@pytest.mark.clause("FF-PARTY-SPLIT-THOUSANDS")
def test_a_broken_variant_is_no_decision_option(capsys: pytest.CaptureFixture[str]) -> None:
    # the seed says increments of 1000: shares in hundreds is verify's broken variant, never an option
    assert main(["verify", "--scenario", "fftcg-party-basics", "--decision", "party-split-unit=hundreds"]) == 3
    assert "'hundreds' is an alternative the catalogue rejects as no reading of the text" in capsys.readouterr().err


@pytest.mark.infrastructure("verify, explore and replay: commands, traces and verdicts")
def test_cli_verify_rejects_unknown_scenario(capsys) -> None:
    assert main(["verify", "--scenario", "nope"]) == 3
    assert "unknown scenario 'nope'" in capsys.readouterr().err


@pytest.mark.clause("FF-PARTY-MIN-TWO", "FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-SEVEN-DAMAGE-LOSES")
def test_smt_engine_proves_sound_rule_sets_and_catches_the_mutant_with_a_replayed_trace() -> None:
    rows = verify([scenario("fftcg-preemptive-and-restrictions")], engines=("smt",))
    sound = [r for r in rows if r.rule_set == "default"]
    assert {r.property for r in sound} == {"party-min-two", "party-members-on-field", "damage-at-most-seven", "damage-in-thousands"}
    assert all(r.verdict in ("proved", "holds-bounded") for r in sound)
    caught = [r for r in rows if r.rule_set == "split-in-hundreds" and r.verdict == "caught"]
    assert [r.property for r in caught] == ["damage-in-thousands"]
    # attack with a party, pass, block, pass, split: five steps, the last a split off the thousands
    assert caught[0].states == 5 and caught[0].counterexample[4].startswith("split ")
    assert caught[0].counterexample[-1] == "replay on the model: reproduced"


@pytest.mark.infrastructure("verify, explore and replay: commands, traces and verdicts")
def test_cli_explore_prints_statistics_and_exports_the_graph(tmp_path: Path) -> None:
    import networkx as nx

    out = io.StringIO()
    code = main(["explore", "redemption-side-battles-4p", "--dot", str(tmp_path / "g.dot"),
                 "--graphml", str(tmp_path / "g.graphml"), "--quiet"], out=out)
    assert code == 0
    text = out.getvalue()
    assert "states" in text and "transitions" in text and "states/s" in text and "every property holds" in text
    graph = nx.read_graphml(tmp_path / "g.graphml")
    states = int(text.split(" states,")[0].rsplit(" ", 1)[1].replace(",", ""))
    assert graph.number_of_nodes() == states
    assert (tmp_path / "g.dot").read_text().startswith('digraph "redemption"')
    out = io.StringIO()
    code = main(["explore", "fftcg-party-basics", "--rule-set", "split-in-hundreds", "--quiet", "--json"], out=out)
    assert code == 1
    assert "blocker-split-thousands" in json.loads(out.getvalue())["violations"]


@pytest.mark.infrastructure("verify, explore and replay: commands, traces and verdicts")
def test_replay_checks_the_property_at_the_end(tmp_path: Path, party_basics_rows: list) -> None:
    trace = copy.deepcopy(next(r.trace for r in party_basics_rows if r.verdict == "caught"))
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(trace))
    out = io.StringIO()
    assert main(["replay", str(path)], out=out) == 0
    assert "property blocker-split-thousands is violated at the end, as recorded" in out.getvalue()
    # the same trace without its last step (the bad split) reproduces but no longer breaks the property
    trace["steps"] = trace["steps"][:-1]
    path.write_text(json.dumps(trace))
    out = io.StringIO()
    assert main(["replay", str(path)], out=out) == 1
    assert "but property blocker-split-thousands holds" in out.getvalue()


@pytest.mark.infrastructure("verify, explore and replay: commands, traces and verdicts")
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"rule_set": [1, 2]}, "rule_set: expected an object"),
        ({"rule_set": {"decisions": [1]}}, "rule_set.decisions: expected an object"),
        ({"initial_state": None}, "initial_state: expected the model's JSON form"),
    ],
)
def test_replay_rejects_malformed_traces_in_one_line(tmp_path: Path, capsys, change: dict, message: str) -> None:
    base = {"format": "cardrules-trace/1", "game": "fftcg", "rule_set": {"name": "x"}, "property": "p",
            "initial_state": {"players": [{"forwards": []}, {"forwards": []}]}, "steps": []}
    path = tmp_path / "t.json"
    path.write_text(json.dumps({**base, **change}))
    assert main(["replay", str(path)]) == 3
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    path.write_bytes(b"\xff\xfe not utf-8")
    assert main(["replay", str(path)]) == 3


@pytest.mark.infrastructure("verify, explore and replay: commands, traces and verdicts")
def test_verify_decision_applies_to_the_game_that_defines_it() -> None:
    # sb-in-play-zones = territory-only: characters already fighting cannot be selected for a side
    # battle, so the side battle scenario (whose side battles select fighters) reaches fewer states,
    # and every property still holds under this sound reading
    rows = verify(engines=("explore",), extra_decisions={"sb-in-play-zones": "territory-only"})
    assert rows and {r.scenario.split("-")[0] for r in rows} == {"redemption"}
    assert {r.rule_set for r in rows} == {"custom"} and not any(r.failed for r in rows)
    default = verify([scenario("redemption-side-battles-3p")], engines=("explore",), include_mutants=False)
    size = lambda rows: max(r.states for r in rows if r.scenario == "redemption-side-battles-3p")  # noqa: E731
    assert size(rows) < size(default)


@pytest.mark.infrastructure("verify, explore and replay: commands, traces and verdicts")
def test_the_machine_reports_a_deadlock_and_an_engine_error_never_a_pass() -> None:
    from hypothesis import strategies as st

    from cardrules.properties.engines.machines import run_machine
    from tests.properties.engines.test_explore import Counter

    class Crashing(Counter):
        def step(self, state: int, action: int) -> int:
            if state + action == 3:
                raise RuntimeError("the engine under test crashed")
            return state + action

    deadlocked = run_machine(Counter(), st.just(0), [], max_examples=30, steps=10)
    assert "no legal action" in deadlocked.deadlock  # 4 offers no action and is not terminal
    crashed = run_machine(Crashing(), st.just(0), [], max_examples=30, steps=10)
    assert "the engine under test crashed" in crashed.error


@pytest.mark.infrastructure("hypothesis random play: checks, shrinking and counts")
def test_random_play_shrinks_a_violation_to_a_shortest_game_and_counts_what_it_played() -> None:
    from hypothesis import strategies as st

    from cardrules.properties.core import Property
    from cardrules.properties.engines.machines import run_machine
    from tests.properties.engines.test_explore import Counter

    below_three = Property("below-three", "never 3 or more", (), "counter", "state", lambda game, n: n < 3)
    # shortest games reaching 3 or more from 0 with +1/+2: two actions (+1 +2, +2 +1 or +2 +2)
    found = run_machine(Counter(), st.just(0), [below_three], max_examples=100, steps=10)
    assert found.violation is not None and found.violation.prop.name == "below-three"
    assert len(found.violation.path) == 3  # the start and two actions
    assert found.violation.path[0] == (None, 0) and found.violation.path[-1][1] >= 3

    class NoDeadEnd(Counter):
        def legal_actions(self, state: int) -> tuple[int, ...]:
            return tuple(a for a in (1, 2) if state + a <= 5)

    # every game ends at 5 (terminal) after 3 actions (+2 +2 +1, in some order) to 5 (+1 five times);
    # there are 8 distinct games, so hypothesis stops once it has played them all
    clean = run_machine(NoDeadEnd(), st.just(0), [], max_examples=100, steps=10)
    assert clean.violation is None and clean.deadlock == "" and clean.error == ""
    assert 8 <= clean.examples < 100
    assert 3 * clean.examples <= clean.steps_played <= 5 * clean.examples


@pytest.mark.clause("FF-BASE-ATTACK-STEPS")
def test_each_game_checks_its_own_step_determinism() -> None:
    """Both games declare a determinism property; neither may replace the other (before, the
    Redemption one silently replaced the FFTCG one, which verify then never checked)."""
    from dataclasses import replace

    from cardrules.properties.core import PropertyError
    from cardrules.properties.games import ALL_PROPERTIES, properties_for, property_named, unique_properties

    assert "fftcg-step-deterministic" in {p.name for p in properties_for("fftcg")}
    assert "step-deterministic" in {p.name for p in properties_for("redemption")}

    redemption = property_named("step-deterministic")
    assert redemption is not None and redemption.game == "redemption"
    with pytest.raises(PropertyError, match="declared twice"):
        unique_properties(ALL_PROPERTIES + (replace(redemption, game="fftcg"),))
