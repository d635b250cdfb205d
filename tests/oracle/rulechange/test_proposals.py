"""Rule proposals: checked files, code only with --allow-code, and diffs that show what they change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cardrules.oracle.rulechange.proposals import ProposalError, load_proposal

from tests.cli import run
from tests.paths import REPO

PROPOSALS = REPO / "docs" / "proposals"


@pytest.mark.infrastructure("proposal files: format, checks and the code flag")
def test_every_shipped_proposal_is_valid() -> None:
    for path in sorted(PROPOSALS.glob("*.toml")):
        proposal = load_proposal(path, allow_code=True)
        assert proposal.touched, path


@pytest.mark.infrastructure("proposal files: format, checks and the code flag")
def test_a_proposal_with_code_is_refused_without_the_flag(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("diff", "default", str(PROPOSALS / "party-damage-per-member.toml"), "--no-smt")
    assert code == 3
    assert "holds code (party_damage_per_member_model.py); it runs only with --allow-code" in capsys.readouterr().err


@pytest.mark.clause("FF-PARTY-UNBLOCKED-ONE")
def test_party_damage_per_member_changes_the_damage_of_an_unblocked_party(tmp_path: Path) -> None:
    # Seed 003: an unblocked party deals exactly one damage. The proposal makes a
    # two-member party deal two: after 'attack a1 a2', no block, the defender
    # (at 5 damage) reaches 7 under B and loses; under A it has 6.
    code, text = run("diff", "default", str(PROPOSALS / "party-damage-per-member.toml"), "--allow-code", "--no-smt",
                     "--scenario", "fftcg-party-basics", "--json", "--traces", str(tmp_path))
    report = json.loads(text)
    assert code == 1
    (trace,) = report["scenarios"][0]["traces"]
    assert trace["kind"] == "changed"
    assert [s["action"] for s in trace["steps"]][0] == "attack a1 a2"
    damage = lambda state: state["players"][1]["damage"]  # noqa: E731
    assert (damage(trace["a"]["state"]), damage(trace["b"]["state"])) == (6, 7)
    assert set(trace["clause_ids"]) == {"FF-PARTY-UNBLOCKED-ONE", "FF-BASE-UNBLOCKED-DAMAGE"}
    assert {"property": "unblocked-party-one-damage", "scenario": "fftcg-party-basics", "broken_under": "B"} == {
        k: v for k, v in report["properties"][0].items() if k != "counterexample"}
    # the trace names the proposal; replaying it runs the proposal's code only when allowed
    trace_file = str(next(tmp_path.glob("*.json")))
    assert run("replay", trace_file)[0] == 3
    replay_code, replay_text = run("replay", trace_file, "--allow-code")
    assert replay_code == 0 and "reproduced" in replay_text


@pytest.mark.clause("RED-SB-RESTRICT-AFTER")
def test_unplayable_after_side_battle_tightens_play() -> None:
    # Today a side battle card played after the player's side battle is played with its
    # ability blanked; the proposal forbids playing it at all: a tightened difference.
    code, text = run("diff", "default", str(PROPOSALS / "unplayable-after-side-battle.toml"), "--no-smt",
                     "--scenario", "redemption-side-battles-3p", "--json")
    report = json.loads(text)
    assert code == 1
    kinds = {t["kind"]: t for t in report["scenarios"][0]["traces"]}
    assert set(kinds) == {"tightened"}
    assert kinds["tightened"]["action"].startswith("play sb0b on ")
    assert "RED-SB-RESTRICT-AFTER" in report["clauses_touched"]


@pytest.mark.clause("RED-HEAL-TO-PERMANENT-CONTROLLER")
def test_heal_to_owner_brings_its_z3_clause_and_stays_consistent() -> None:
    code, text = run("diff", "default", str(PROPOSALS / "heal-to-owner.toml"), "--allow-code", "--json",
                     "--scenario", "redemption-heal-and-redirect")
    report = json.loads(text)
    heal = {e["rule_set"]: e for e in report["smt"] if e["area"] == "heal"}
    assert heal["A"]["verdict"] == "consistent" and heal["B"]["verdict"] == "consistent"
    # no embedded scenario has an owner other than the permanent controller: no difference in play,
    # and the report says within which bounds
    (scenario,) = report["scenarios"]
    assert scenario["traces"] == [] and scenario["exploration"].startswith("complete")
    # the z3 search of the heal area builds such a character (owner and permanent controller apart), where
    # the catalogue sends it to its permanent controller's territory and the proposal to its owner's: a
    # difference, confirmed by the model
    heal_search = [r for r in report["smt_search"] if r["area"] == "heal"]
    assert [r["verdict"] for r in heal_search] == ["difference"] and code == 1


@pytest.mark.clause("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER")
def test_two_side_battles_brings_its_z3_limit() -> None:
    """Seed 000: one side battle per player per turn. Under the proposal's z3 clauses a player who has
    initiated one may start a second (the ability takes effect), never a third; the seed's clauses
    forbid the second."""
    import z3
    from cardrules.specs.smt.redemption.side_battle_clauses import side_battle_situation

    proposal = load_proposal(PROPOSALS / "two-side-battles.toml", allow_code=True)
    assert proposal.smt_area == "side-battle" and proposal.smt_constraints is not None
    seed = side_battle_situation()
    changed = dict(seed.constraints)
    changed.update(proposal.smt_constraints(seed))
    names = {str(v): v for v in (*seed.inputs, *seed.outputs)}

    def may_start(constraints: dict, earlier: int) -> bool:
        solver = z3.Solver()
        solver.add(seed.background, seed.domain, *(c.formula for c in constraints.values()))
        solver.add(names["sb.used"], names["sb.count"] == earlier, names["sb.takes_effect"])
        return solver.check() == z3.sat

    assert may_start(seed.constraints, 0) and not may_start(seed.constraints, 1)
    assert may_start(changed, 1) and not may_start(changed, 2)


@pytest.mark.infrastructure("proposal files: format, checks and the code flag")
@pytest.mark.parametrize("text, message", [
    ('format = "cardrules-proposal/1"\nid = "x"\ntitle = "t"\ngame = "chess"\n', "game"),
    ('format = "cardrules-proposal/1"\nid = "x"\ntitle = "t"\ngame = "fftcg"\n[decisions]\nnope = "a"\n',
     "neither a rule area nor a decision"),
    ('format = "cardrules-proposal/1"\nid = "x"\ntitle = "t"\ngame = "fftcg"\n[clauses]\nwithdrawn = ["RED-SB-SUSPEND"]\n',
     "clauses.withdrawn[0]: RED-SB-SUSPEND is not a fftcg clause"),
    ('format = "cardrules-proposal/1"\nid = "x"\ntitle = "t"\ngame = "fftcg"\n[[clauses.added]]\nid = "FF-PARTY-MIN-TWO"\n'
     'title = "t"\nkind = "rule"\nstatement = "s"\n', "already in the catalogue"),
    ('format = "cardrules-proposal/1"\nid = "x"\ntitle = "t"\ngame = "fftcg"\nsurprise = 1\n', "(top)"),
    ("[[[", "not valid TOML"),
])
def test_bad_proposals_name_the_place(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "p.toml"
    path.write_text(text)
    with pytest.raises(ProposalError) as error:
        load_proposal(path)
    assert message in str(error.value) and str(path) in str(error.value)


@pytest.mark.infrastructure("proposal files: format, checks and the code flag")
def test_proposal_code_that_overrides_an_unknown_point_is_refused(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "from cardrules.model.extension import override\n\n@override('fftcg', 'no-such-point')\ndef f(*a):\n    return 1\n")
    (tmp_path / "p.toml").write_text('format = "cardrules-proposal/1"\nid = "x"\ntitle = "t"\ngame = "fftcg"\n'
                                     '[code]\nmodel = "m.py"\n')
    with pytest.raises(ProposalError, match="unknown fftcg extension point 'no-such-point'"):
        load_proposal(tmp_path / "p.toml", allow_code=True)


@pytest.mark.infrastructure("proposal files: format, checks and the code flag")
def test_proposal_commands_list_points_and_check_files() -> None:
    code, text = run("proposal", "points", "--json")
    assert code == 0 and {p["name"] for p in json.loads(text)} >= {"unblocked-damage", "side-battles-per-turn",
                                                                     "healed-destination", "side-battle-sides"}
    code, text = run("proposal", "schema")
    assert code == 0 and json.loads(text)["title"] == "cardrules-proposal/1"
    code, text = run("proposal", "check", str(PROPOSALS / "unplayable-after-side-battle.toml"))
    assert code == 0 and "valid cardrules-proposal/1" in text
    # two side battles a turn is no reading of the seed, so no decision option: the proposal brings code
    assert run("proposal", "check", str(PROPOSALS / "two-side-battles.toml"))[0] == 3
    code, text = run("proposal", "check", str(PROPOSALS / "two-side-battles.toml"), "--allow-code")
    assert code == 0 and "side-battles-per-turn" in text


@pytest.mark.clause("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER", "RED-SB-NEGATE-CASCADE")
def test_side_battle_after_negated_allows_a_second_side_battle() -> None:
    """Seed 000: one side battle per player per turn, and the catalogue counts a side battle once it has
    started, negated or not (decision sb-initiated-when). In redemption-side-battle-negated p0 starts a side
    battle with sb0 on e1 and e2, p1 negates sb0 once the main battle resumes; then p0's sb0b is played blank
    under A, while under the proposal it selects e1 and e2 again: one play tightened, one relaxed, and the
    property that counts one side battle a turn newly broken under B."""
    code, text = run("diff", "default", str(PROPOSALS / "side-battle-after-negated.toml"), "--allow-code", "--no-smt",
                     "--quiet", "--scenario", "redemption-side-battle-negated", "--json")
    report = json.loads(text)
    assert code == 1
    traces = {t["kind"]: t for t in report["scenarios"][0]["traces"]}
    assert set(traces) == {"tightened", "relaxed"}
    assert (traces["tightened"]["action"], traces["relaxed"]["action"]) == ("play sb0b on h0",
                                                                              "play sb0b on h0 -> e1 e2")
    for trace in traces.values():
        # p1, whose only character in the battle sb0 selects and who holds a negate, may answer sb0 before
        # the side battle starts (sb-answer-before-start); it declines, and negates once the main battle resumes
        assert [s["action"] for s in trace["steps"]] == ["attack 1 h0", "block e1", "play sb0 on h0 -> e1 e2",
                                                         "decline", "pass", "play ng1 on e1 -> #1"]
    assert {(p["property"], p["broken_under"]) for p in report["properties"]} == {
        ("one-side-battle-per-player-per-turn", "B")}


@pytest.mark.clause("RED-SB-ONCE-PER-TURN", "RED-SB-RESTRICT-AFTER")
def test_side_battle_after_negated_changes_nothing_without_a_negation() -> None:
    # redemption-side-battles-3p has side battles and the once-per-turn limit but no negate: the proposal
    # only gives back a negated side battle, so play is the same under both (explored completely).
    code, text = run("diff", "default", str(PROPOSALS / "side-battle-after-negated.toml"), "--allow-code", "--no-smt",
                     "--quiet", "--scenario", "redemption-side-battles-3p", "--json")
    report = json.loads(text)
    assert code == 0 and not report["differs"]
    (scenario,) = report["scenarios"]
    assert scenario["traces"] == [] and not scenario["truncated"]
    assert scenario["exploration"].startswith("complete")


@pytest.mark.clause("RED-RD-UNTIL-END-OF-PHASE")
def test_numbers_redirect_lasts_turn_is_a_valid_proposal_with_code() -> None:
    assert run("proposal", "check", str(PROPOSALS / "numbers-redirect-lasts-turn.toml"))[0] == 3
    code, text = run("proposal", "check", str(PROPOSALS / "numbers-redirect-lasts-turn.toml"), "--allow-code",
                     "--json")
    summary = json.loads(text)
    assert code == 0 and summary["extension_points"] == ["numbers-redirect-expiry"]
    assert "RED-RD-UNTIL-END-OF-PHASE" in summary["clauses_touched"]


def _negated_proposal(tmp_path: Path, model: str) -> Path:
    (tmp_path / "m.py").write_text("from cardrules.model.extension import override\n\n\n" + model)
    (tmp_path / "p.toml").write_text('format = "cardrules-proposal/1"\nid = "x"\ntitle = "t"\ngame = "redemption"\n'
                                     '[code]\nmodel = "m.py"\n')
    return tmp_path / "p.toml"


@pytest.mark.infrastructure("proposal code: the contracts of the side battle and redirect points")
@pytest.mark.parametrize("point, parameters", [("side-battle-allowed", "state, player"),
                                               ("numbers-redirect-expiry", "state, record, config, extra")])
def test_a_hook_of_a_new_point_with_the_wrong_signature_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], point: str, parameters: str) -> None:
    path = _negated_proposal(tmp_path, f"@override('redemption', {point!r})\ndef f({parameters}):\n    return True\n")
    code, _ = run("proposal", "check", str(path), "--allow-code")
    err = capsys.readouterr().err.strip()
    assert code == 3 and "\n" not in err and "Traceback" not in err
    expected = {"side-battle-allowed": "f(state, player, config)",
                "numbers-redirect-expiry": "f(state, record, config)"}[point]
    assert f"hook '{point}' (function f, line 5): takes ({parameters}), but the model calls it as {expected}" in err


@pytest.mark.infrastructure("proposal code: the contracts of the side battle and redirect points")
@pytest.mark.parametrize("body, problem", [
    ("return 1", "returned 1; expected a bool: True or False"),
    ("return None", "returned None; expected a bool: True or False"),
    ("return 1 // 0", "raised ZeroDivisionError: integer division or modulo by zero"),
])
def test_a_side_battle_allowed_hook_that_answers_wrong_stops_the_diff(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, problem: str) -> None:
    path = _negated_proposal(tmp_path, f"@override('redemption', 'side-battle-allowed')\n"
                                       f"def allowed(state, player, config):\n    {body}\n")
    code, _ = run("diff", "default", str(path), "--allow-code", "--no-smt", "--quiet",
                  "--scenario", "redemption-side-battle-negated")
    err = capsys.readouterr().err.strip()
    assert code == 3 and "\n" not in err and "Traceback" not in err
    assert "m.py: hook 'side-battle-allowed' (function allowed, line " in err and problem in err


@pytest.mark.clause("RED-HEAL-WINDOW", "RED-HEAL-TO-PERMANENT-CONTROLLER")
def test_healed_keeps_enhancements_changes_what_a_heal_leaves_in_the_discard_pile() -> None:
    """Revised heal: a character healed in its heal window goes to its permanent controller's territory, and
    the catalogue sends the enhancements on it to their owners' discard piles (decision heal-window-attachments).
    In redemption-heal-and-redirect p0's h1 carries rn when p1's discard opens its window; healed with hl, h1
    returns to p0's territory: rn goes to p0's discard pile under A and stays placed on h1 under B."""
    code, text = run("diff", "heal=revised", str(PROPOSALS / "healed-keeps-enhancements.toml"), "--allow-code",
                     "--no-smt", "--quiet", "--scenario", "redemption-heal-and-redirect", "--json")
    report = json.loads(text)
    assert code == 1
    (trace,) = report["scenarios"][0]["traces"]
    assert trace["kind"] == "changed" and trace["action"] == "heal h1 with hl"
    assert [s["action"] for s in trace["steps"]] == ["attack 1 h1", "block e1", "play rn on h1 -> e1",
                                                     "play dc on e1 -> h1", "decline"]
    a, b = trace["a"]["state"], trace["b"]["state"]
    assert sorted(a["zones"][0]["discard"]) == ["hl", "rn"] and a["placed"] == []
    assert b["zones"][0]["discard"] == ["hl"] and b["placed"] == [["rn", "h1"]]
    assert "h1" in a["zones"][0]["territory"] and "h1" in b["zones"][0]["territory"]
