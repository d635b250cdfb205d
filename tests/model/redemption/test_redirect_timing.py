"""Decision rd-redirected-ability-timing: does a redirected ability take effect at once, or stay pending
and take effect, for the redirecting player, when pending abilities reactivate?

Expected values are worked out by hand from the rules: an interrupted ability is pending and
reactivates when the player with initiative passes (if its card is still in battle and its target
still valid); a redirect gives it new targets chosen by the redirecting player, who carries it out,
while it still counts as played by its player; initiative at a tie goes to the battling player who did
not play the last card.

The position (tests.model.redemption.test_redirect.opposing_fight): p0's h 2/5 against p1's e 1/5 and
e2 1/5; p1's dop (discard an opposing character) was interrupted by p0 and is pending as record #2;
p0 has initiative and redirects it with rd onto e2. Either way dop stays on e, played by p1, carried
out by p0, and p0 played last; h's 2 < 5 and p1's 1 + 1 = 2 < 5 (or 1 < 5 once e2 is gone): a tie,
so p1 has initiative.
- at-once (default): e2 is discarded now.
- on-reactivation: dop is still pending with its new target e2 and e2 still fights; when p1 passes,
  dop reactivates (e is still in battle, e2 still a valid opposing character for p0): e2 is discarded.
"""

from __future__ import annotations

import pytest

from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.state import PromptKind, RecordStatus
from tests.model.redemption.helpers import act
from tests.model.redemption.test_redirect import opposing_fight

LATER = RuleConfig.of({"rd-redirected-ability-timing": "on-reactivation"})


@pytest.mark.clause("RED-RD-CARRIER-CHANGES", "RED-RD-ABILITY-INSTANT", "RED-RD-NEW-TARGETS")
@pytest.mark.parametrize(("config", "status", "e2_discarded"), [
    (DEFAULT, RecordStatus.ACTIVE, True), (LATER, RecordStatus.PENDING, False),
], ids=["at-once", "on-reactivation"])
def test_when_the_redirected_discard_happens(config: RuleConfig, status: RecordStatus, e2_discarded: bool) -> None:
    s = act(opposing_fight(), "play rd on h -> #2 e2", config)
    dop = s.record(2)
    assert (dop.player, dop.carried_by, dop.targets, dop.status) == (1, 0, ("e2",), status)
    assert ("e2" in s.zones[1].discard) is e2_discarded and (s.fighter("e2") is None) is e2_discarded
    assert s.prompt is not None and (s.prompt.kind, s.prompt.player) == (PromptKind.PLAY, 1)


@pytest.mark.clause("RED-RD-CARRIER-CHANGES", "RED-BASE-INTERRUPT")
def test_on_reactivation_the_pass_carries_it_out_for_the_redirecting_player() -> None:
    s = act(act(opposing_fight(), "play rd on h -> #2 e2", LATER), "pass", LATER)
    dop = s.record(2)
    assert (dop.carried_by, dop.status) == (0, RecordStatus.ACTIVE)
    assert "e2" in s.zones[1].discard and s.fighter("e") is not None and len(s.battles) == 1
