"""The battle fragment's cross-check hands z3 who controlled a discarded character from the
encoding's own log (the fighter's permanent controller as z3 derived it before the discard), never
the model's discard event ("Independence")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardrules.model.redemption import resolution as model_resolution
from cardrules.model.redemption.config import DEFAULT
from cardrules.model.redemption.state import DiscardCause, Fighter, State
from cardrules.oracle.crosscheck.redemption.battle import crosscheck_many

from .helpers import reachable, root_challenge, sources


def _challenge_with_borrowed_hero() -> State:
    """The challenge position with h1 owned by player 0 but in player 1's territory: player 1 has
    permanent control of it, player 0's discard pile receives it."""
    root = root_challenge()
    return replace(root, cards=tuple(replace(c, owner=0) if c.id == "h1" else c for c in root.cards))


@pytest.mark.clause("RED-BR-STEP4-DISCARD-RETURN", "RED-BR-RETURN-PERMANENT-CONTROLLER")
def test_the_correct_model_agrees() -> None:
    """Unmutated, the log's controllers are the model's: no disagreement, and h1 is discarded in some
    state (so the test below has something to catch)."""
    states = sources(reachable(_challenge_with_borrowed_hero(), DEFAULT, turns=1))
    assert any(e.card == "h1" and e.controller == 1 for s in states for e in s.discards)
    report = crosscheck_many(states, DEFAULT)
    assert not report.disagreements, report.disagreements[:2]


@pytest.mark.clause("RED-BR-STEP4-DISCARD-RETURN")
def test_wrong_discard_controller_is_caught_in_every_later_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """Model mutant: a discard event records the character's owner (player 0) as its controller
    instead of the player with permanent control (player 1). Caught at the discard, and again from
    every later state that holds the event: z3 reads the controller from its own log, so the model's
    wrong field in the source position is not copied into z3's successor."""
    original = model_resolution.note_discard

    def owner_as_controller(state: State, fighter: Fighter, cause: DiscardCause, healed: bool = False) -> State:
        state = original(state, fighter, cause, healed)
        last = state.discards[-1]
        return replace(state, discards=(*state.discards[:-1], replace(last, controller=state.card(last.card).owner)))

    monkeypatch.setattr(model_resolution, "note_discard", owner_as_controller)
    states = sources(reachable(_challenge_with_borrowed_hero(), DEFAULT, turns=1))
    report = crosscheck_many(states, DEFAULT)
    wrong = [d for d in report.disagreements if d.what == "successor"]
    assert wrong
    # from a position that already holds the wrong event: a bridge that copied the model's field
    # into z3 would agree there
    held = [d for d in wrong if any(e["card"] == "h1" and e["controller"] == 0 for e in d.state.get("discards", []))]
    assert held, [d.action for d in wrong[:3]]
