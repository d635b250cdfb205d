"""Numbers redirects that state their amount, hand-worked from seed 002.

A numbers redirect takes the redirected amount off the target's numbers and adds the
same amount to the redirecting card's own (seed 002, Redirecting Numbers). The position: p0's
Hero h 2/4 attacks, p1's e 8/8 blocks: 8 >= 4, h defeated; 2 < 8, e not: p0 is losing and
has initiative. p0 holds r3 (a numbers redirect stating 3/3) and r5 (stating 5/5); p1
holds pe, an enhancement 1/2.
"""

from __future__ import annotations

import json

import pytest

from cardrules.model.errors import ScenarioError
from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.numbers import numbers
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero, position
from cardrules.model.redemption.state import Effect, State
from cardrules.model.redemption.validate import load_state
from cardrules.properties.redemption.game import RedemptionGame
from cardrules.properties.redemption.heal_invariants import numbers_conserved
from tests.model.redemption.helpers import act, acts

E = Effect
IN_FULL = RuleConfig.of({"rd-stated-exceeds": "stated-in-full"})
STATED_ONLY = RuleConfig.of({"rd-amount": "stated-only"})


def stated_fight(config: RuleConfig = RuleConfig()) -> State:
    cards = [hero("h", 0, 2, 4), evil("e", 1, 8, 8), evil_enh("pe", 1, 1, 2),
             good_enh("r3", 0, ability=E.REDIRECT_NUMBERS, stated_amount=(3, 3)),
             good_enh("r5", 0, ability=E.REDIRECT_NUMBERS, stated_amount=(5, 5))]
    s = position(cards, {0: {"territory": ["h"], "hand": ["r3", "r5"]}, 1: {"territory": ["e"], "hand": ["pe"]}}, 2)
    return acts(s, ["attack 1 h", "block e"], config)


def in_battle_totals(state: State, config: RuleConfig) -> tuple[int, int]:
    cards = [c for b in state.battles for _, f in b.fighters() for c in (f.card, *f.enhancements)]
    return sum(numbers(state, c, config)[0] for c in cards), sum(numbers(state, c, config)[1] for c in cards)


@pytest.mark.clause("RED-RD-NUMBERS-TRANSFER", "RED-RD-NUMBERS-TARGET", "RED-RD-PURPOSE")
@pytest.mark.parametrize("config", [RuleConfig(), IN_FULL, STATED_ONLY], ids=["default", "stated-in-full", "stated-only"])
def test_a_stated_amount_moves_only_that_part(config: RuleConfig) -> None:
    s = stated_fight(config)
    # Before: h 2/4 + e 8/8 = 10/12 in battle.
    assert in_battle_totals(s, config) == (10, 12)
    s = act(s, "play r3 on h -> e", config)
    # 8/8 moving 3/3 leaves e 5/5 and gives r3 3/3 (under every option: 3/3 is within e's 8/8,
    # and a stated amount moves under rd-amount = stated-only too).
    assert numbers(s, "e", config) == (5, 5) and numbers(s, "r3", config) == (3, 3)
    assert [r.amount for r in s.records] == [(3, 3)]
    # Conservation: removed from e (3/3) = added to r3 (3/3); the totals stay 10/12.
    assert in_battle_totals(s, config) == (10, 12)
    assert numbers_conserved(RedemptionGame(config), s)
    # h side 2 + 3 = 5 / 4 + 3 = 7; e 5/5: 5 >= 5 e defeated, 5 < 7 h not: p1 is losing.
    assert s.prompt.player == 1  # type: ignore[union-attr]


@pytest.mark.clause("RED-RD-NUMBERS-TRANSFER")
@pytest.mark.parametrize(("config", "pe_after", "r5_after", "h_side"), [
    # up-to-printed: 5/5 stated, pe prints 1/2: 1/2 moves. h side 2 + 3 + 1 = 6 / 4 + 3 + 2 = 9.
    (RuleConfig(), (0, 0), (1, 2), (6, 9)),
    # stated-in-full: 5/5 moves: pe 1 - 5 = -4 / 2 - 5 = -3. h side 2 + 3 + 5 = 10 / 4 + 3 + 5 = 12.
    (IN_FULL, (-4, -3), (5, 5), (10, 12)),
], ids=["up-to-printed", "stated-in-full"])
def test_a_stated_amount_above_the_targets_numbers(
    config: RuleConfig, pe_after: tuple[int, int], r5_after: tuple[int, int], h_side: tuple[int, int]
) -> None:
    # r3 on e (e 5/5, p1 losing); p1 plays pe on e: e side 5 + 1 = 6 / 5 + 2 = 7: 5 < 7 and
    # 6 < 7, a stalemate, p1 played last: p0 has initiative and redirects pe's numbers with r5.
    s = acts(stated_fight(config), ["play r3 on h -> e", "play pe on e"], config)
    assert s.prompt.player == 0  # type: ignore[union-attr]
    before = in_battle_totals(s, config)
    assert before == (2 + 8 + 1, 4 + 8 + 2)
    s = act(s, "play r5 on h -> pe", config)
    assert numbers(s, "pe", config) == pe_after and numbers(s, "r5", config) == r5_after
    h = [numbers(s, c, config) for c in ("h", "r3", "r5")]
    assert (sum(n[0] for n in h), sum(n[1] for n in h)) == h_side
    # What pe loses r5 gains, in full or capped: the totals in battle are unchanged.
    assert in_battle_totals(s, config) == before


@pytest.mark.clause("RED-RD-NUMBERS-TRANSFER")
def test_a_card_stating_no_amount_under_stated_only_moves_nothing_but_one_stating_it_does() -> None:
    cards = [hero("h", 0, 2, 4), evil("e", 1, 8, 8), good_enh("rn", 0, ability=E.REDIRECT_NUMBERS),
             good_enh("r3", 0, ability=E.REDIRECT_NUMBERS, stated_amount=(3, 3))]
    s = position(cards, {0: {"territory": ["h"], "hand": ["rn", "r3"]}, 1: {"territory": ["e"]}}, 2)
    s = acts(s, ["attack 1 h", "block e", "play rn on h -> e"], STATED_ONLY)
    assert numbers(s, "e", STATED_ONLY) == (8, 8) and numbers(s, "rn", STATED_ONLY) == (0, 0)


@pytest.mark.clause("RED-RD-NUMBERS-TRANSFER")
def test_the_stated_amount_in_the_json_form() -> None:
    s = stated_fight()
    data = s.to_json()
    r3 = next(c for c in data["cards"] if c["id"] == "r3")
    assert r3["stated_amount"] == [3, 3]
    assert next(c for c in data["cards"] if c["id"] == "h")["stated_amount"] is None
    assert load_state(json.loads(json.dumps(data))) == s
    # A card written before the field existed reads as stating nothing.
    old = json.loads(json.dumps(data))
    for card in old["cards"]:
        del card["stated_amount"]
    assert load_state(old).card("r3").stated_amount is None


@pytest.mark.clause("RED-RD-NUMBERS-TRANSFER")
@pytest.mark.parametrize(("card", "value", "where", "says"), [
    ("h", [3, 3], "cards[", "only a numbers redirect"),
    ("r3", [-1, 3], "cards[", "0 or more"),
    ("r3", [3, 100], "cards[", "between 0 and 99"),
    ("r3", [3], "stated_amount", "2 items"),
    ("r3", "3/3", "stated_amount", "array"),
])
def test_a_bad_stated_amount_is_named(card: str, value: object, where: str, says: str) -> None:
    data = stated_fight().to_json()
    next(c for c in data["cards"] if c["id"] == card)["stated_amount"] = value
    with pytest.raises(ScenarioError) as info:
        load_state(data)
    assert where in str(info.value) and says in str(info.value), str(info.value)
