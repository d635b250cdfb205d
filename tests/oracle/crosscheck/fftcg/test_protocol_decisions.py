"""The attack-phase protocol both FFTCG encodings share, recorded as catalogue decisions:
``ff-removal-windows``, ``ff-attack-no-attacker-left``, ``ff-step-passing`` and
``ff-end-turn-window`` (``specs/clauses/ff_base.toml``). The implemented alternatives are selectable
in the model and in the z3 encoding alike, and the two agree on them; ``alternating-priority``
included."""

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
def test_every_fftcg_reading_is_selectable_and_encoded() -> None:
    """``list decisions`` shows every option of every FFTCG decision selectable in the model and read by z3."""
    out = StringIO()
    assert main(["list", "decisions", "--game", "fftcg", "--json"], out=out) == 0
    rows = {row["id"]: row for row in json.loads(out.getvalue())}
    for row in rows.values():
        assert row["model_selectable"] == row["options"], row["id"]
        assert all(o["z3"] == {"status": "encoded"} for o in row["option_status"]), row["id"]


@pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-BASE-END-OF-TURN", "FF-PARTY-LEAVE-FIELD")
@pytest.mark.parametrize("removal", ["outside-damage", "also-in-damage", "not-in-declaration"])
def test_alternating_priority_agrees_with_z3(removal: str) -> None:
    """Under ``ff-step-passing = alternating-priority`` (with three readings of the removal windows, which
    decide where a step takes two passes): every state of explorations from a single attacker with
    Pre-emptive Strike and from a party, including the states where the turn player has passed."""
    config = RuleConfig.of({"ff-step-passing": "alternating-priority", "ff-removal-windows": removal})
    states = explore(root_first_strike(), config, limit=120) + explore(root_party(), config, limit=120)
    assert sum(s.passed for s in states) > 20
    report = crosscheck_many(states, config)
    assert not report.disagreements, [str(d) for d in report.disagreements[:3]]


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
