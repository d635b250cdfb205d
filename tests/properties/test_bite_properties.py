"""New properties bite: each catches a hand-built bad transition.

The bad states are constructed here from the clause statements, never by
editing the model.
"""

from __future__ import annotations

import pytest

from cardrules.model.fftcg.actions import Pass
from cardrules.model.fftcg.state import Event, State, Step, replace
from cardrules.model.fftcg.validate import load_state
from cardrules.properties.fftcg.game import FftcgGame
from cardrules.properties.fftcg.invariants import deals_damage_once

FF = FftcgGame()


def _ff_blocked(step: Step) -> State:
    """A 3000 Pre-emptive Strike attacker a1 blocked by a 5000 blocker b1."""
    return load_state({
        "turn": 1, "turn_player": 0, "phase": "attack", "step": step.value,
        "players": [
            {"damage": 0, "forwards": [{"id": "a1", "name": "Lancer", "elements": ["wind"], "cost": 3,
                                        "power": 3000, "preemptive": True, "dull": True}]},
            {"damage": 0, "forwards": [{"id": "b1", "name": "Guard", "elements": ["earth"], "cost": 5,
                                        "power": 5000}]},
        ],
        "attack": {"attackers": ["a1"], "party": False, "declared": ["a1"], "blocked": True, "blocker": "b1"},
        "attacked": ["a1"],
    })


def _damage(state: State, fid: str, amount: int) -> State:
    forward = state.forward(fid)
    return state.with_forward(replace(forward, damage=forward.damage + amount))


@pytest.mark.clause("FF-BASE-PREEMPTIVE", "FF-BASE-BLOCKED-EXCHANGE")
def test_attacker_dealing_again_after_preemptive_strike_is_caught() -> None:
    # after the Pre-emptive Strike part: b1 has 3000 damage, logged as a1's
    before = _damage(_ff_blocked(Step.DAMAGE), "b1", 3000).log(Event("damage", ("a1",), "b1", 3000))
    before = replace(before, attack=replace(before.attack, attackers_dealt=True))
    # sound ordinary part: only the blocker deals
    good = _damage(before, "a1", 5000).log(Event("damage", ("b1",), "a1", 5000))
    assert deals_damage_once(FF, before, Pass(), good)
    # survivor (a): the attacker deals its 3000 again
    bad = _damage(good, "b1", 3000).log(Event("damage", ("a1",), "b1", 3000))
    assert not deals_damage_once(FF, before, Pass(), bad)


@pytest.mark.clause("FF-BASE-PREEMPTIVE")
def test_blocker_dealing_twice_and_unlogged_damage_are_caught() -> None:
    before = _damage(_ff_blocked(Step.DAMAGE), "a1", 5000).log(Event("damage", ("b1",), "a1", 5000))
    again = _damage(before, "a1", 5000).log(Event("damage", ("b1",), "a1", 5000))
    assert not deals_damage_once(FF, before, Pass(), again)
    silent = _damage(_ff_blocked(Step.DAMAGE), "b1", 3000)
    assert not deals_damage_once(FF, _ff_blocked(Step.DAMAGE), Pass(), silent)


@pytest.mark.clause("FF-PARTY-PREEMPTIVE-ALL")
def test_party_member_named_twice_in_one_part_is_caught() -> None:
    start = _ff_blocked(Step.DAMAGE)
    bad = _damage(start, "b1", 6000).log(Event("damage", ("a1",), "b1", 3000), Event("damage", ("a1",), "b1", 3000))
    assert not deals_damage_once(FF, start, Pass(), bad)


# --- Redemption: interrupt scope (RED-SB-NO-INTERRUPT-FROM-SUSPENDED) ----------------

import dataclasses  # noqa: E402

from cardrules.model.redemption.actions import Play  # noqa: E402
from cardrules.model.redemption.state import (  # noqa: E402
    Effect, PlayRecord, Prompt, PromptKind, RecordStatus, State as RedState,
)
from cardrules.properties.games import make_game  # noqa: E402
from cardrules.properties.redemption.invariants import interrupt_scope  # noqa: E402
from cardrules.properties.scenarios import load_scenarios  # noqa: E402


def _walk(name: str, *path: str) -> tuple[object, RedState]:
    scenario = next(s for s in load_scenarios() if s.name == name)
    game = make_game(scenario.game, scenario.rule_sets[0])
    state = game.state_from_json(scenario.state)
    for text in path:
        state = game.step(state, game.action_from_text(text))
    return game, state


IN_SIDE_BATTLE = ("attack 1 h0", "block e1", "play pz1 on e1 -> h0", "play sb0 on h0 -> h0 h2")
"""Poison (#1) played in main battle 1, then side battle 2 (h0 against h2) suspends it."""


def _played(state: RedState, record: PlayRecord) -> RedState:
    return dataclasses.replace(state, records=(*state.records, record), next_record=record.id + 1)


@pytest.mark.clause("RED-SB-NO-INTERRUPT-FROM-SUSPENDED")
def test_interrupt_from_a_side_battle_into_the_suspended_battle_is_caught() -> None:
    game, before = _walk("redemption-interrupt-in-side-battle", *IN_SIDE_BATTLE)
    assert [b.id for b in before.battles] == [1, 2]
    # the model's own legal moves keep the property
    for action in game.legal_actions(before):
        assert interrupt_scope(game, before, action, game.step(before, action))
    # hand-built: int0, played in side battle 2, interrupts the poison of suspended battle 1
    poison = before.record(1)
    bad = dataclasses.replace(before, records=tuple(
        dataclasses.replace(r, status=RecordStatus.PENDING) if r.id == poison.id else r for r in before.records
    ))
    bad = _played(bad, PlayRecord(3, "int0", 0, "h0", Effect.INTERRUPT, ("#1",), (1, 2), RecordStatus.ACTIVE))
    assert not interrupt_scope(game, before, Play("int0", "h0", ("#1",)), bad)
    # an interrupt aimed at an ability played in the side battle itself is in scope
    middle = _played(before, PlayRecord(3, "p", 1, "h2", Effect.POISON, ("h0",), (1, 2), RecordStatus.ACTIVE))
    sound = _played(middle, PlayRecord(4, "int0", 0, "h0", Effect.INTERRUPT, ("#3",), (1, 2), RecordStatus.ACTIVE))
    assert interrupt_scope(game, middle, Play("int0", "h0", ("#3",)), sound)


@pytest.mark.clause("RED-SB-NO-INTERRUPT-FROM-SUSPENDED", "RED-BASE-SPECIAL-INITIATIVE")
def test_special_initiative_for_a_suspended_battle_character_is_caught() -> None:
    game, before = _walk("redemption-interrupt-in-side-battle", *IN_SIDE_BATTLE)
    # hand-built: a discard played in side battle 2 on e1 (in suspended battle 1) gives P1 special initiative
    discard = PlayRecord(3, "x", 0, "h0", Effect.DISCARD, ("e1",), (1, 2), RecordStatus.ANNOUNCED)
    bad = dataclasses.replace(_played(before, discard), prompt=Prompt(PromptKind.SPECIAL_INITIATIVE, 1, record=3))
    assert not interrupt_scope(game, before, Play("x", "h0", ("e1",)), bad)


# --- Redemption: side battle control cases and return to the side ----------------------

from cardrules.properties.redemption.invariants import sides_by_case, survivors_return_to_side  # noqa: E402


@pytest.mark.clause("RED-SB-CONTROL-ONE-INSIDER", "RED-SB-CONTROL-SAME-MIXED")
def test_insider_losing_its_own_fighter_is_caught() -> None:
    game, before = _walk("redemption-interrupt-in-side-battle", *IN_SIDE_BATTLE[:-1])
    action = game.action_from_text(IN_SIDE_BATTLE[-1])
    after = game.step(before, action)
    assert sides_by_case(game, before, action, after)
    # hand-built: P0's h0 (in the main battle) goes to P1, P2's h2 to P0 -- case 2 says P0 keeps h0
    side = after.battles[-1]
    swapped = dataclasses.replace(side, players=tuple(reversed(side.players)))
    bad = dataclasses.replace(after, battles=(*after.battles[:-1], swapped))
    assert not sides_by_case(game, before, action, bad)
    # hand-built: h0's recorded origin names the wrong side of the main battle
    h0 = side.sides[0][0]
    wrong = dataclasses.replace(h0, origins=(*h0.origins[:-1], dataclasses.replace(h0.origin, side=1)))
    moved = dataclasses.replace(side, sides=((wrong,), side.sides[1]))
    assert not sides_by_case(game, before, action, dataclasses.replace(after, battles=(*after.battles[:-1], moved)))


@pytest.mark.clause("RED-SB-CONTROL-OUTSIDERS", "RED-SB-SIDES-BATTLE-PLAYERS")
def test_sides_chosen_by_someone_other_than_the_user_are_caught() -> None:
    # Decision sb-user-outside-battle = any-player: P2, outside P0's rescue against P1, uses sb2 on its
    # own h2 and h2b (case 1): the choice of sides is P2's, the user's.
    scenario = next(s for s in load_scenarios() if s.name == "redemption-side-battle-outsider")
    rule_set = next(r for r in scenario.rule_sets if r.name == "outsider-may-use")
    game = make_game(scenario.game, rule_set)
    before = game.state_from_json(scenario.state)
    for text in ("attack 1 h0", "block e0", "use sb2 -> h2 h2b"):
        before = game.step(before, game.action_from_text(text))
    assert before.prompt is not None and before.prompt.player == 2
    action = game.action_from_text("sides h2 h2b")
    after = game.step(before, action)
    assert sides_by_case(game, before, action, after)
    # hand-built: the first battling player, P0, made the choice instead
    assert not sides_by_case(game, dataclasses.replace(before, prompt=dataclasses.replace(before.prompt, player=0)),
                             action, after)


@pytest.mark.clause("RED-SB-RETURN-TO-BATTLE")
def test_survivor_returned_to_the_other_side_is_caught() -> None:
    game, before = _walk("redemption-interrupt-in-side-battle", *IN_SIDE_BATTLE)
    main, side = before.battles
    h0 = side.sides[0][0]
    assert h0.origin.battle == main.id and h0.origin.side == 0
    back = dataclasses.replace(h0, origins=h0.origins[:-1])
    h2_home = dataclasses.replace(before.zones[2], territory=before.zones[2].territory | {"h2"})
    zones = (*before.zones[:2], h2_home)

    def ended(sides: tuple) -> RedState:
        return dataclasses.replace(before, battles=(dataclasses.replace(main, sides=sides),), zones=zones, prompt=None)

    assert survivors_return_to_side(game, before, Play("x", "h0"), ended(((back,), main.sides[1])))
    assert not survivors_return_to_side(game, before, Play("x", "h0"), ended(((), (*main.sides[1], back))))


# --- FFTCG: attack declaration timing ------------------------------------------------------

from cardrules.model.fftcg.actions import DeclareAttack  # noqa: E402
from cardrules.model.fftcg.state import Attack  # noqa: E402
from cardrules.properties.fftcg.invariants import declared_in_declaration_step  # noqa: E402


def _ff_idle(step: Step) -> State:
    """Two ready wind Forwards of player 0, no attack yet, in ``step``."""
    return load_state({
        "turn": 1, "turn_player": 0, "phase": "attack", "step": step.value,
        "players": [
            {"damage": 0, "forwards": [
                {"id": "a1", "name": "One", "elements": ["wind"], "cost": 1, "power": 2000},
                {"id": "a2", "name": "Two", "elements": ["wind"], "cost": 1, "power": 2000},
            ]},
            {"damage": 0, "forwards": []},
        ],
    })


def _declared(state: State, ids: tuple[str, ...]) -> State:
    return replace(state, attack=Attack(attackers=ids, party=len(ids) > 1, declared=ids),
                   attacked=state.attacked | frozenset(ids))


@pytest.mark.clause("FF-PARTY-FORM-DECLARATION", "FF-BASE-ATTACK-STEPS")
def test_party_formed_outside_attack_declaration_is_caught() -> None:
    good = _ff_idle(Step.DECLARATION)
    assert declared_in_declaration_step(FF, good, DeclareAttack(("a1", "a2")), _declared(good, ("a1", "a2")))
    for step in (Step.PREPARATION, Step.BLOCK, Step.COMBAT_END):
        before = replace(_ff_idle(Step.DECLARATION), step=step)
        assert not declared_in_declaration_step(FF, before, DeclareAttack(("a1", "a2")), _declared(before, ("a1", "a2")))


@pytest.mark.clause("FF-BASE-ONE-ATTACK-AT-A-TIME", "FF-PARTY-FORM-DECLARATION")
def test_attack_in_progress_gaining_a_member_is_caught() -> None:
    before = _declared(_ff_idle(Step.DECLARATION), ("a1",))
    grown = replace(_declared(before, ("a1", "a2")), step=Step.BLOCK)
    assert not declared_in_declaration_step(FF, replace(before, step=Step.BLOCK), Pass(), grown)


# --- Redemption: owner differs from permanent controller ----------------------------------

from cardrules.properties.redemption.invariants import survivor_home_territory  # noqa: E402


@pytest.mark.clause("RED-SB-RETURN-TO-TERRITORY")
def test_survivor_sent_to_the_permanent_controller_instead_of_the_owner_is_caught() -> None:
    game, before = _walk("redemption-owner-not-controller", *IN_SIDE_BATTLE)
    main, side = before.battles
    h2 = side.sides[1][0]
    assert before.card("h2").owner == 2 and h2.permanent == 1

    def h2_to(player: int) -> RedState:
        zones = tuple(dataclasses.replace(z, territory=z.territory | {"h2"}) if i == player else z
                      for i, z in enumerate(before.zones))
        return dataclasses.replace(before, battles=(main,), zones=zones, prompt=None)

    assert survivor_home_territory(game, before, Play("x", "h0"), h2_to(2))
    assert not survivor_home_territory(game, before, Play("x", "h0"), h2_to(1))
