"""The hello (cardrules-adapter/2): what a reply declares, legacy adapters, and bad replies as one line
naming the field; macro steps merge what they say and the runner compares where it should."""

from __future__ import annotations

from typing import Any

import pytest

from cardrules.oracle.conformance.checks import Check, checkpoints
from cardrules.oracle.conformance.declaration import LEGACY, HelloError, parse_hello

pytestmark = pytest.mark.infrastructure("the conformance adapter protocol's hello")

EXAMPLE = {"ok": True, "engine": "node-fftcg-example", "profile": "observable",
           "games": {"fftcg": {"features": ["party", "p-icon-party"],
                               "readings": {"party-blocker-power-remainder": "remainder-to-one"}}},
           "macro_steps": ["fftcg:damage-resolution"], "compare_at": "decisions"}


def test_a_declaration_is_read_field_by_field() -> None:
    declared = parse_hello(EXAMPLE)
    assert (declared.engine, declared.protocol, declared.profile, declared.compare_at) == (
        "node-fftcg-example", 2, "observable", "decisions")
    assert declared.features == {"fftcg": {"party", "p-icon-party"}}
    assert declared.readings == {"party-blocker-power-remainder": "remainder-to-one"}
    assert declared.macro_steps == {"fftcg:damage-resolution"}
    # lacking: the features needed and not declared, sorted; a game not named implements its core only
    assert declared.lacks("fftcg", ["preemptive-strike", "party", "multi-element"]) == (
        "multi-element", "preemptive-strike")
    assert declared.lacks("redemption", ["heal"]) == ("heal",)


@pytest.mark.parametrize("reply", [{"ok": False, "error": "bad-request", "message": "unknown op 'hello'"},
                                   {"ok": True, "actions": []}])
def test_an_adapter_that_does_not_know_the_hello_is_a_legacy_one_implementing_everything(reply: Any) -> None:
    declared = parse_hello(reply)
    assert declared == LEGACY and declared.protocol == 1 and declared.profile == "full"
    assert declared.lacks("fftcg", ["party", "preemptive-strike"]) == ()


@pytest.mark.parametrize(("change", "message"), [
    ({"profile": "partial"}, "hello reply: 'profile' must be one of observable, full, not 'partial'"),
    ({"compare_at": "end"}, "hello reply: 'compare_at' must be one of every-step, decisions, not 'end'"),
    ({"games": {"chess": {"features": []}}}, "hello reply: games.chess: unknown game"),
    ({"games": {"fftcg": {"features": ["haste-party"]}}}, "hello reply: games.fftcg.features: unknown feature "
                                                          "'haste-party'"),
    ({"games": {"fftcg": {"features": "party"}}}, "hello reply: games.fftcg.features: must be a list"),
    ({"games": {"fftcg": {"readings": {"no-such-decision": "x"}}}}, "hello reply: readings.no-such-decision: "
                                                                   "unknown decision"),
    ({"games": {"fftcg": {"readings": {"party-zero-share": "maybe"}}}}, "hello reply: readings.party-zero-share: "
                                                                       "unknown option 'maybe'"),
    ({"games": {"fftcg": {"readings": {"party-blocker-power-remainder": "round-up"}}}},
     "hello reply: readings.party-blocker-power-remainder: unknown option 'round-up' ('round-up' is an "
     "alternative the catalogue rejects as no reading of the text"),
    ({"macro_steps": ["fftcg:block"]}, "hello reply: macro_steps: unknown macro step 'fftcg:block'"),
    ({"games": {"fftcg": {"feature": []}}}, "hello reply: games.fftcg.feature: unknown field"),
])
def test_a_bad_hello_reply_is_one_error_naming_the_field(change: dict[str, Any], message: str) -> None:
    with pytest.raises(HelloError) as raised:
        parse_hello({**EXAMPLE, **change})
    assert str(raised.value).startswith(message)
    assert "\n" not in str(raised.value)


def _state(step: str) -> dict[str, Any]:
    return {"step": step}


def _vector() -> dict[str, Any]:
    """attack (declaration) -> noblock (block) -> pass (damage part 1) -> pass (damage) -> pass (combat end)."""
    actions = [("attack a1", "attack-declaration", ["noblock", "block b1"]),
               ("noblock", "block-declaration", ["pass"]),
               ("pass", "damage-preemptive", ["pass"]),
               ("pass", "damage-resolution", ["pass"]),
               ("pass", "combat-end", ["attack a2", "end-turn"])]
    after = ["block-declaration", "damage-preemptive", "damage-resolution", "combat-end", "attack-declaration"]
    return {"state": _state("attack-declaration"), "legal_actions": ["attack a1", "end-turn"],
            "steps": [{"action": a, "state": _state(after[n]), "legal_actions": legal}
                      for n, (a, _, legal) in enumerate(actions)]}


def _check(reply: dict[str, Any]) -> Check:
    return Check(session=None, suite={"game": "fftcg"}, declaration=parse_hello(reply),  # type: ignore[arg-type]
                 result=None)  # type: ignore[arg-type]


@pytest.mark.clause("FF-BASE-ATTACK-STEPS")
def test_a_damage_resolution_macro_step_merges_both_passes_through_damage_and_compares_after_them() -> None:
    sent, compare = checkpoints(_check({**EXAMPLE, "compare_at": "every-step"}), _vector())
    # the passes in the two parts of Damage Resolution (steps 3 and 4) are the engine's: not sent, and the
    # state after the block (step 2) is only compared once they are done, after step 4
    assert sent == [True, True, True, False, False, True]
    assert compare == [True, True, False, False, True, True]


@pytest.mark.clause("FF-BASE-ATTACK-STEPS", "FF-BASE-BLOCK")
def test_compare_at_decisions_compares_only_where_a_player_chooses() -> None:
    sent, compare = checkpoints(_check({**EXAMPLE, "macro_steps": []}), _vector())
    assert sent == [True] * 6
    # start: two choices; after the attack: block or not; after the block and the two damage passes a lone
    # 'pass' is no choice; after combat end two choices again (and the last step is always compared)
    assert compare == [True, True, False, False, False, True]
