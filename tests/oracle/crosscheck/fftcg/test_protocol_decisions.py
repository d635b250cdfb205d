"""The attack-phase protocol both FFTCG encodings share, recorded as catalogue decisions:
``ff-removal-windows``, ``ff-attack-no-attacker-left``, ``ff-step-passing`` and
``ff-end-turn-window`` (``specs/clauses/ff_base.toml``). The implemented alternatives are selectable
in the model and in the z3 encoding alike, and the two agree on them; ``alternating-priority`` is
played by the model and refused by z3 with its reason."""

from __future__ import annotations

import json
from io import StringIO

import pytest

from cardrules.model.errors import ScenarioError
from cardrules.model.fftcg.config import RuleConfig
from cardrules.model.fftcg.engine import legal_actions, step
from cardrules.model.fftcg.state import State, Step
from cardrules.oracle.cli import main
from cardrules.oracle.crosscheck.fftcg import crosscheck_many, crosscheck_state, smt_legal_actions

from .helpers import explore, fw, position, root_first_strike, root_party

IMPLEMENTED = (("ff-removal-windows", "also-before-block"), ("ff-attack-no-attacker-left", "continues"),
               ("ff-end-turn-window", "declaration-only"))


def _play(state: State, config: RuleConfig, *texts: str) -> State:
    for text in texts:
        state = step(state, next(a for a in legal_actions(state, config) if str(a) == text), config)
    return state


def _texts(actions: object) -> set[str]:
    return {str(a) for a in actions}  # type: ignore[attr-defined]


@pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-BASE-END-OF-TURN", "FF-PARTY-LEAVE-FIELD")
@pytest.mark.parametrize(("decision", "option"), IMPLEMENTED, ids=[f"{d}={o}" for d, o in IMPLEMENTED])
def test_both_encodings_agree_under_each_option(decision: str, option: str) -> None:
    config = RuleConfig.of({decision: option})
    states = explore(root_first_strike(), config, limit=70) + explore(root_party(), config, limit=30)
    report = crosscheck_many(states, config)
    assert not report.disagreements, "\n".join(map(str, report.disagreements[:3]))


@pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-PARTY-LEAVE-FIELD")
def test_removal_before_the_block() -> None:
    """a1 attacks alone; in Block Declaration, before player 1 blocks, no Forward may leave the
    field by the chosen reading, and either may under ``also-before-block``; z3 says the same."""
    start = position([fw("a1")], [fw("b1", "water", 4000)])
    for choices, removals in (({}, set()), ({"ff-removal-windows": "also-before-block"}, {"remove a1", "remove b1"})):
        config = RuleConfig.of(choices)
        state = _play(start, config, "attack a1", "pass")
        assert state.step.value == "block-declaration" and state.attack is not None and state.attack.blocked is None
        model = _texts(legal_actions(state, config))
        assert {t for t in model if t.startswith("remove")} == removals
        assert _texts(smt_legal_actions(state, config)) == model
        assert not crosscheck_state(state, config)


@pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-PARTY-LEAVE-FIELD", "FF-BASE-UNBLOCKED-DAMAGE")
def test_attack_with_no_attacker_left() -> None:
    """a1 attacks alone and is removed in Attack Declaration. Chosen reading: the attack ends at
    once (Combat End Step). ``continues``: still in Attack Declaration with an attack and no
    attacker; player 1 declines to block, and the unblocked attack deals player 1 no damage."""
    start = position([fw("a1")], [fw("b1", "water", 4000)])
    config = RuleConfig()
    ended = _play(start, config, "attack a1", "remove a1")
    assert ended.step.value == "combat-end"
    config = RuleConfig.of({"ff-attack-no-attacker-left": "continues"})
    state = _play(start, config, "attack a1", "remove a1")
    assert state.step.value == "attack-declaration" and state.attack is not None and not state.attack.attackers
    for text in ("pass", "noblock", "pass", "pass"):
        assert not crosscheck_state(state, config)
        state = _play(state, config, text)
    assert state.players[1].damage == 0 and state.step.value == "combat-end"


@pytest.mark.clause("FF-BASE-END-OF-TURN")
def test_ending_the_turn_from_attack_preparation() -> None:
    """In Attack Preparation the turn may end by the chosen reading, not under ``declaration-only``
    (Preparation must be passed first); z3 says the same."""
    start = position([fw("a1")], [fw("b1", "water", 4000)], step_=Step.PREPARATION)
    for choices, can_end in (({}, True), ({"ff-end-turn-window": "declaration-only"}, False)):
        config = RuleConfig.of(choices)
        model = _texts(legal_actions(start, config))
        assert ("end-turn" in model) is can_end
        assert _texts(smt_legal_actions(start, config)) == model
        declaration = _play(start, config, "pass")
        assert "end-turn" in _texts(legal_actions(declaration, config))


@pytest.mark.clause("FF-BASE-ATTACK-STEPS")
def test_alternating_priority_is_played_by_the_model_and_refused_by_z3_with_its_reason() -> None:
    """Every FFTCG option is selectable in the model; ``ff-step-passing = alternating-priority`` is the one
    the z3 encoding does not read, and ``list decisions`` says so with the reason."""
    RuleConfig.of({"ff-step-passing": "alternating-priority"})
    out = StringIO()
    assert main(["list", "decisions", "--game", "fftcg", "--json"], out=out) == 0
    rows = {row["id"]: row for row in json.loads(out.getvalue())}
    for row in rows.values():
        assert row["model_selectable"] == row["options"], row["id"]
    status = {o["id"]: o for o in rows["ff-step-passing"]["option_status"]}["alternating-priority"]
    assert status["model_selectable"] and status["z3"]["status"] == "refused"
    assert "ff-step-passing" in status["z3"]["reason"] and "specs.smt.fftcg" in status["z3"]["reason"]


@pytest.mark.clause("FF-BASE-ATTACK-STEPS")
def test_a_reading_recorded_only_would_be_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """Should a reading be recorded that the model does not implement, selecting it names it (never runs
    it as the chosen reading), and ``list decisions`` does not call it selectable."""
    import cardrules.model.fftcg.config as fftcg_config

    monkeypatch.setattr(fftcg_config, "UNMODELLED_OPTIONS", frozenset({("ff-step-passing", "alternating-priority")}))
    with pytest.raises(ScenarioError) as info:
        RuleConfig.of({"ff-step-passing": "alternating-priority"})
    assert info.value.where == "config.ff-step-passing" and "not implemented" in info.value.problem
    out = StringIO()
    assert main(["list", "decisions", "--game", "fftcg", "--json"], out=out) == 0
    row = {row["id"]: row for row in json.loads(out.getvalue())}["ff-step-passing"]
    assert "alternating-priority" in row["options"] and "alternating-priority" not in row["model_selectable"]
