"""The Redemption cross-check hands z3 raw positions, never the model's bookkeeping:
control, zones, permanent control, a side battle survivor's previous side and
'came from a battle' are derived in z3 (:mod:`specs.smt.redemption.position`), and what a position
cannot show is the encoding's own log carried along the play (:mod:`oracle.crosscheck.redemption.position`).

So a model that keeps its own bookkeeping wrong, and then acts on it consistently, is caught:
before, the bridge read the wrong bookkeeping back into z3 and both sides agreed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardrules.model.redemption import side_battle as model_side_battle
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.state import Fighter, OriginKind, State
from cardrules.model.redemption.validate import load_state
from cardrules.oracle.crosscheck.redemption import decisions as smt_redemption
from cardrules.oracle.crosscheck.redemption.decisions import crosscheck_many
from cardrules.oracle.crosscheck.redemption.position import Logs
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.redemption.game import RedemptionGame
from cardrules.properties.scenarios import load_scenarios
from cardrules.specs.smt.redemption import position as pos


def _explored(scenario: str, rule_set: str) -> tuple[list[State], RuleConfig]:
    """A fresh exploration (never cached: the model may be monkeypatched)."""
    sc = next(s for s in load_scenarios() if s.name == scenario)
    rs = next(r for r in sc.rule_sets if r.name == rule_set)
    config = RuleConfig.of(dict(rs.decisions), heal_version=dict(rs.versions).get("heal", ("revised",))[0])
    exploration = explore(RedemptionGame(config), [load_state(sc.state)], [],
                          Bounds(max_turns=sc.max_turns, max_states=sc.max_states))
    assert not exploration.stats.truncated
    return exploration.states, config


@pytest.fixture
def fresh() -> object:
    smt_redemption.clear_caches()
    yield None
    smt_redemption.clear_caches()


@pytest.mark.clause("RED-SB-RETURN-TO-BATTLE")
def test_survivor_sent_back_to_the_wrong_side_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: object) -> None:
    """Model mutant: a character taken from a battle into a side battle is recorded as coming
    from the *other* side of that battle, and its survivor goes back there. The encoding's log
    holds the side it really sat on (seen in the position before the side battle), so z3 sends it
    back to that side: caught as ``sb-return`` (RED-SB-RETURN-TO-BATTLE)."""
    original = model_side_battle._take

    def wrong_side(state: State, card_id: str, user: int, battle_id: int) -> tuple[State, Fighter]:
        state, fighter = original(state, card_id, user, battle_id)
        origin = fighter.origin
        if origin.kind is OriginKind.BATTLE:
            fighter = replace(fighter, origins=(*fighter.origins[:-1], replace(origin, side=1 - origin.side)))
        return state, fighter

    monkeypatch.setattr(model_side_battle, "_take", wrong_side)
    states, config = _explored("redemption-side-battles-3p", "default")
    report = crosscheck_many(states, config)
    kinds = {d.what for d in report.disagreements}
    assert "sb-return" in kinds, kinds
    wrong = [d for d in report.disagreements if d.what == "sb-return"]
    assert all("RED-SB-RETURN-TO-BATTLE" in d.clause_ids for d in wrong)
    # z3 puts the survivor back on one side of its battle, the model on the other
    smt_place, model_place = eval(wrong[0].smt[0]), wrong[0].model  # noqa: S307 (a tuple's repr)
    assert smt_place[:2] == model_place[:2] == ("battle", model_place[1]) and smt_place[2] == 1 - model_place[2]


@pytest.mark.clause("RED-SB-RETURN-TO-TERRITORY", "RED-BR-RETURN-PERMANENT-CONTROLLER")
def test_permanent_control_recorded_as_the_owner_is_caught(monkeypatch: pytest.MonkeyPatch, fresh: object) -> None:
    """Model mutant: a character taken from a territory into a side battle is recorded as
    permanently controlled by its owner, not by the player whose territory it was in. In
    ``redemption-owner-not-controller`` (h2 owned by player 2, in player 1's territory) under
    ``sb-return-territory = permanent-controller``, the model then sends the surviving h2 to player
    2's territory. z3 derives permanent control from the territory h2 sat in: player 1's."""
    original = model_side_battle._take

    def owner_as_permanent(state: State, card_id: str, user: int, battle_id: int) -> tuple[State, Fighter]:
        state, fighter = original(state, card_id, user, battle_id)
        if fighter.origin.kind is OriginKind.TERRITORY:
            fighter = replace(fighter, permanent=state.card(card_id).owner)
        return state, fighter

    monkeypatch.setattr(model_side_battle, "_take", owner_as_permanent)
    states, config = _explored("redemption-owner-not-controller", "return-to-permanent-controller")
    report = crosscheck_many(states, config)
    wrong = [d for d in report.disagreements if d.what == "sb-return"]
    assert wrong, {d.what for d in report.disagreements}
    assert all("RED-SB-RETURN-TO-TERRITORY" in d.clause_ids for d in wrong)
    assert any(d.model == ("territory", 2) and d.smt == [str(("territory", 1))] for d in wrong)


@pytest.mark.clause("RED-SB-RETURN-TO-BATTLE", "RED-BR-RETURN-PERMANENT-CONTROLLER")
@pytest.mark.parametrize("scenario", ["redemption-side-battles-3p", "redemption-side-battles-4p",
                                      "redemption-owner-not-controller", "redemption-interrupt-in-side-battle"])
def test_the_encodings_log_matches_the_correct_models_bookkeeping(scenario: str) -> None:
    """With the model unmutated, the log z3 derives along the exploration says of every fighter
    what the model's own bookkeeping says: the permanent controller, and for one from a battle the
    battle and side it came from (the two are kept apart, not copied)."""
    states, config = _explored(scenario, "default")
    logs = Logs()
    game = RedemptionGame(config)
    fighters = 0
    for state in states:
        log = logs.of(state)
        for battle in state.battles:
            for _, fighter in battle.fighters():
                fighters += 1
                entry = log[fighter.card][-1][1]
                assert entry.perm == fighter.permanent, (scenario, fighter)
                if fighter.origin.kind is OriginKind.BATTLE:
                    assert (entry.came_from, entry.side) == (fighter.origin.battle, fighter.origin.side)
                    assert entry.zone in (pos.SB_PAUSED, pos.SB_LOWER)
                else:
                    assert entry.came_from == -1 and entry.zone in (pos.SB_TERRITORY, pos.SB_HAND)
        for action in game.legal_actions(state):
            logs.record(state, game.step(state, action))
    assert logs.starts == 1 and fighters > 0


def _scrambled(state: State) -> State:
    """``state`` with the model's bookkeeping of every fighter made wrong: permanent control given
    to another player, and every origin from a battle moved to the other side."""
    battles = []
    for battle in state.battles:
        sides = tuple(tuple(replace(f, permanent=(f.permanent + 1) % state.players, origins=tuple(
            replace(o, side=1 - o.side) if o.kind is OriginKind.BATTLE else o for o in f.origins)) for f in side)
            for side in battle.sides)
        battles.append(replace(battle, sides=sides))
    return replace(state, battles=tuple(battles))


@pytest.mark.clause("RED-SB-RETURN-TO-BATTLE", "RED-SB-RETURN-TO-TERRITORY", "RED-BR-RETURN-PERMANENT-CONTROLLER")
@pytest.mark.parametrize(("scenario", "rule_set"), [("redemption-side-battles-3p", "default"),
                                                    ("redemption-owner-not-controller", "return-to-permanent-controller")])
def test_resolutions_ignore_the_models_bookkeeping(scenario: str, rule_set: str) -> None:
    """Every resolution is compared with z3 handed the position *before* it with the fighters'
    ``permanent`` and ``origins`` scrambled (the model's real successor unchanged): still no
    disagreement, because z3's inputs come from the raw position and the encoding's log. A bridge
    that read the fighters' bookkeeping would send survivors to the wrong side or territory here."""
    from cardrules.oracle.crosscheck.redemption.resolution import crosscheck_resolution, resolution_starts

    states, config = _explored(scenario, rule_set)
    logs = Logs()
    game = RedemptionGame(config)
    compared = 0
    for state in states:
        log = logs.of(state)
        for action in game.legal_actions(state):
            after = game.step(state, action)
            logs.record(state, after)
            if not resolution_starts(state, after) or not any(f.origins[1:] or f.permanent != f.origin.player
                                                              for _, f in state.battles[-1].fighters()):
                continue
            wrong = _scrambled(state)
            assert wrong != state
            found = crosscheck_resolution(wrong, action, after, config, None, log)
            assert not found, found[0]
            compared += 1
    assert compared > 5
