"""Redirect abilities (seed 002): scenarios with hand-worked numbers and initiative.

Numbers: a character is defeated when the opposing side's total strength is at
least its toughness; initiative goes to the losing side, at a tie to the player
who did not play the last card.
"""

from __future__ import annotations

import json

import pytest

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.numbers import numbers
from cardrules.model.redemption.redirect import expire, redirect_options
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero, position
from cardrules.model.errors import ScenarioError
from cardrules.model.redemption.state import Effect, Phase, PromptKind, RecordStatus, State
from cardrules.model.redemption.validate import load_state
from tests.model.redemption.helpers import act, acts, illegal, texts

E = Effect


def opposing_fight():
    """h 2/5 (p0) vs e 1/5 and e2 1/5 (p1): 2 < 5, 1 + 1 < 5: stalemate; p1 blocked last, so
    p0 has initiative and plays pad0 (0/0): tie, p1 has it and plays dop (discard an opposing
    character) on e -> h; from p1's side the only opposing character is h. h is p0's last
    character: special initiative for p0, who interrupts it with int0 (dop #2 is pending).
    Tie, p0 played last: p1 plays pad1; tie, p0 has initiative."""
    cards = [
        hero("h", 0, 2, 5), evil("e", 1, 1, 5), evil("e2", 1, 1, 5), good_enh("pad0", 0),
        good_enh("int0", 0, ability=E.INTERRUPT), good_enh("rd", 0, ability=E.REDIRECT_ABILITY),
        evil_enh("dop", 1, ability=E.DISCARD_OPPOSING), evil_enh("pad1", 1),
    ]
    s = position(cards, {0: {"territory": ["h"], "hand": ["pad0", "int0", "rd"]}, 1: {"territory": ["e", "e2"], "hand": ["dop", "pad1"]}}, 2)
    s = acts(s, ["attack 1 h", "block e e2", "play pad0 on h", "play dop on e -> h"])
    assert s.prompt.kind is PromptKind.SPECIAL_INITIATIVE  # type: ignore[union-attr]
    return acts(s, ["play int0 on h -> #2", "play pad1 on e"])


@pytest.mark.clause(
    "RED-RD-ONLY-INTERRUPTED", "RED-RD-ABILITY-TARGET", "RED-RD-NEW-TARGETS", "RED-RD-TARGET-PERSPECTIVE",
    "RED-RD-CARRIER-CHANGES", "RED-RD-ABILITY-INSTANT", "RED-RD-LOCATION-UNCHANGED", "RED-RD-PURPOSE", "RED-RD-TWO-KINDS",
)
def test_redirect_an_interrupted_ability_from_the_redirecting_players_side() -> None:
    s = opposing_fight()
    assert s.record(2).status is RecordStatus.PENDING and s.prompt.player == 0  # type: ignore[union-attr]
    # From p0's side the opposing characters are e and e2; h (the old target) is not one.
    assert [t for t in texts(s) if t.startswith("play rd")] == ["play rd on h -> #2 e", "play rd on h -> #2 e2"]
    illegal(s, "play rd on h -> #2 h", "RED-RD-TARGET-PERSPECTIVE")
    s = act(s, "play rd on h -> #2 e2")
    dop = s.record(2)
    # Played by p1 still, carried out by p0; it took effect at once: e2 is discarded
    # (p1 keeps e, so no special initiative), and dop stays on e, now working against p1.
    assert (dop.player, dop.carried_by, dop.targets, dop.status) == (1, 0, ("e2",), RecordStatus.ACTIVE)
    assert "e2" in s.zones[1].discard and s.fighter("e") is not None
    assert "dop" in s.fighter("e")[2].enhancements  # type: ignore[index]
    # h 2 vs e 1/5: tie; p0 played last: p1 has initiative.
    assert s.prompt.kind is PromptKind.PLAY and s.prompt.player == 1  # type: ignore[union-attr]


def discard_fight():
    """h 2/5 and h3 1/5 (p0) vs e 1/5 (p1): 3 < 5 and 1 < 5: stalemate, p0 has initiative and plays
    pad0: tie, p1 plays dc (discard, +2/+1) on e -> h3: e side 3 strength, e 6 toughness; 3 < 5,
    3 < 6: still a tie. p0 keeps h, so no special initiative; p0 has no heal: h3 is discarded.
    p1 played last: p0 has initiative with dc (#2) active."""
    cards = [
        hero("h", 0, 2, 5), hero("h3", 0, 1, 5), evil("e", 1, 1, 5), good_enh("pad0", 0),
        good_enh("int0", 0, ability=E.INTERRUPT), good_enh("rd", 0, ability=E.REDIRECT_ABILITY),
        good_enh("rb", 0, ability=E.REDIRECT_BOTH), evil_enh("dc", 1, 2, 1, E.DISCARD), evil_enh("pad1", 1),
    ]
    s = position(cards, {0: {"territory": ["h", "h3"], "hand": ["pad0", "int0", "rd", "rb"]}, 1: {"territory": ["e"], "hand": ["dc", "pad1"]}}, 2)
    return acts(s, ["attack 1 h h3", "block e", "play pad0 on h", "play dc on e -> h3"])


@pytest.mark.clause("RED-RD-ONLY-INTERRUPTED", "RED-RD-SAME-TARGET-ALLOWED", "RED-RD-CARRIER-CHANGES")
def test_only_while_interrupted_and_the_old_target_may_be_chosen_again() -> None:
    s = discard_fight()
    assert "h3" in s.zones[0].discard and s.record(2).status is RecordStatus.ACTIVE
    illegal(s, "play rd on h -> #2 e", "RED-RD-ONLY-INTERRUPTED")
    # p0 interrupts dc: h3 comes back, dc is pending. Tie, p0 played last: p1 plays pad1; p0's turn.
    s = acts(s, ["play int0 on h -> #2", "play pad1 on e"])
    assert s.fighter("h3") is not None and s.record(2).status is RecordStatus.PENDING
    # A plain discard may target any character in battle: h, h3 (its old target) and e.
    assert [t for t in texts(s) if t.startswith("play rd on h ")] == ["play rd on h -> #2 e", "play rd on h -> #2 h", "play rd on h -> #2 h3"]
    # Redirected at e, p1's only character: now an opponent (p0) carries it out, so p1 gets
    # special initiative against it.
    s = act(s, "play rd on h -> #2 e")
    assert s.prompt.kind is PromptKind.SPECIAL_INITIATIVE and s.prompt.player == 1  # type: ignore[union-attr]


@pytest.mark.clause("RED-RD-BOTH-IS-TWO", "RED-RD-NUMBERS-TRANSFER", "RED-RD-ONLY-INTERRUPTED", "RED-RD-NUMBERS-NO-INTERRUPT")
def test_redirecting_ability_and_numbers_is_two_redirects() -> None:
    s = discard_fight()
    # Not interrupted: the ability half is refused; the numbers half alone (#2) is allowed.
    illegal(s, "play rb on h -> #2 e", "RED-RD-ONLY-INTERRUPTED")
    assert "play rb on h -> #2" in texts(s)
    s = acts(s, ["play int0 on h -> #2", "play pad1 on e", "play rb on h -> #2 e"])
    both = [(r.effect, r.targets, r.amount) for r in s.records if r.card == "rb"]
    assert both == [
        (E.REDIRECT_BOTH, ("#2", "e"), (0, 0)),
        (E.REDIRECT_NUMBERS, ("dc",), (2, 1)),
        (E.REDIRECT_ABILITY, ("#2", "e"), (0, 0)),
    ]
    # dc 2/1 -> 0/0; rb 0/0 -> 2/1 (dc is still in battle, on e).
    assert numbers(s, "dc") == (0, 0) and numbers(s, "rb") == (2, 1)


def numbers_fight(config: RuleConfig = RuleConfig()):
    """h 2/4 (p0) vs e 3/5 (p1): 2 < 5, 3 < 4: stalemate, p0 has initiative; x (p1) waits in territory."""
    cards = [
        hero("h", 0, 2, 4), evil("e", 1, 3, 5), evil("x", 1, 1, 1), good_enh("rn", 0, ability=E.REDIRECT_NUMBERS),
        evil_enh("dc", 1, ability=E.DISCARD),
    ]
    s = position(cards, {0: {"territory": ["h"], "hand": ["rn"]}, 1: {"territory": ["e", "x"], "hand": ["dc"]}}, 2)
    return acts(s, ["attack 1 h", "block e"], config)


@pytest.mark.clause(
    "RED-RD-NUMBERS-TRANSFER", "RED-RD-NUMBERS-TARGET", "RED-RD-NUMBERS-NO-INTERRUPT", "RED-RD-NUMBERS-ONGOING",
    "RED-RD-TARGETS-IN-BATTLE", "RED-RD-LOCATION-UNCHANGED", "RED-RD-TWO-KINDS",
)
def test_numbers_move_to_the_redirecting_card() -> None:
    s = numbers_fight()
    assert [t for t in texts(s) if t.startswith("play rn")] == ["play rn on h -> e", "play rn on h -> h"]
    illegal(s, "play rn on h -> x", "RED-RD-TARGETS-IN-BATTLE")  # x is in territory
    s = act(s, "play rn on h -> e")
    # e 3/5 -> 0/0; rn 0/0 -> 3/5; h with rn: 5/9. Totals: strength 2 + 3 = 5 before, 5 + 0
    # after; toughness 4 + 5 = 9 before, 9 + 0 after.
    assert numbers(s, "e") == (0, 0) and numbers(s, "rn") == (3, 5)
    assert "rn" in s.fighter("h")[2].enhancements  # type: ignore[index]
    # 5 >= 0: e defeated; 0 < 9: h not: p0 winning, p1 (losing) has initiative.
    assert s.prompt.player == 1  # type: ignore[union-attr]


@pytest.mark.clause("RED-RD-NUMBERS-IN-BATTLE-ONLY")
def test_gain_is_lost_when_the_target_leaves_battle() -> None:
    # p1 answers by discarding its own e (dc on e -> e): e leaves battle, rn loses the gain.
    s = acts(numbers_fight(), ["play rn on h -> e", "play dc on e -> e"])
    assert s.fighter("e") is None and numbers(s, "rn") == (0, 0)
    assert sum(numbers(s, c) [0] for c in ("h", "rn")) == 2  # h's own 2 only


@pytest.mark.clause("RED-RD-UNTIL-END-OF-PHASE", "RED-RD-NUMBERS-ONGOING")
def test_numbers_redirect_ends_with_the_phase() -> None:
    s = act(numbers_fight(), "play rn on h -> e")
    ended = expire(s)
    assert [r.status for r in ended.records] == [RecordStatus.EXPIRED] and numbers(ended, "e") == (3, 5)
    # In play: p1 passes; 5 >= 0 e defeated, h not: Hero wins; e is discarded and the battle ends,
    # but the battle phase goes on, and the redirect with it: e, now in the discard
    # pile, keeps its reduction to 0/0 (decision rd-lapse-reduction), rn loses its gain as e has
    # left battle (RED-RD-NUMBERS-IN-BATTLE-ONLY); h is back in the territory, 2/4.
    s = acts(s, ["pass", "discard"])
    assert s.battles == () and s.phase is Phase.BATTLE
    assert [(r.card, r.status, r.lasts_until) for r in s.records] == [("rn", RecordStatus.ACTIVE, (1, Phase.BATTLE))]
    assert numbers(s, "e") == (0, 0) and numbers(s, "rn") == (0, 0) and numbers(s, "h") == (2, 4)
    # The battle phase ends: nothing of the redirect is left, e shows its printed 3/5 again.
    s = act(s, "next")
    assert s.records == () and numbers(s, "e") == (3, 5) and numbers(s, "rn") == (0, 0)


@pytest.mark.clause("RED-RD-UNTIL-END-OF-PHASE")
def test_the_end_of_a_numbers_redirect_is_in_the_state() -> None:
    s = act(numbers_fight(), "play rn on h -> e")
    data = s.to_json()
    assert data["records"][0]["lasts_until"] == [1, "battle"]
    assert load_state(json.loads(json.dumps(data))) == s
    # Active, it can only last to the end of the current phase: another turn's phase is refused,
    # with the path named; as is an end on a record that is not a numbers redirect.
    data["records"][0]["lasts_until"] = [0, "battle"]
    with pytest.raises(ScenarioError, match=r"records\[0\]\.lasts_until.*current phase"):
        load_state(data)
    done = acts(s, ["pass", "discard"]).to_json()
    done["records"][0]["effect"] = "discard"
    with pytest.raises(ScenarioError, match=r"records\[0\]\.lasts_until.*only a numbers redirect"):
        load_state(done)


@pytest.mark.clause("RED-RD-NUMBERS-TARGET", "RED-RD-NUMBERS-NO-INTERRUPT")
def test_a_numbers_redirect_record_names_one_card() -> None:
    """A numbers redirect targets one card in battle and, never interrupted, never gets new targets: a
    loaded record naming two cards, a play record, or (in effect) nothing is refused, the path named; so is
    one left pending, as only an interruptible ability waits."""
    data = act(numbers_fight(), "play rn on h -> e").to_json()
    assert data["records"][0]["targets"] == ["e"]
    for targets, status in ((["e", "h"], "active"), (["#1"], "active"), ([], "active"), (["e", "e"], "expired")):
        bad = json.loads(json.dumps(data))
        bad["records"][0].update(targets=targets, status=status)
        with pytest.raises(ScenarioError, match=r"records\[0\]\.targets.*names at most one card"):
            load_state(bad)
    blank = json.loads(json.dumps(data))
    blank["records"][0].update(targets=[], status="blanked")
    assert load_state(blank).records[0].targets == ()
    # nor does it wait: a numbers redirect left pending is refused (loaded, the next pass used to crash)
    pending = json.loads(json.dumps(data))
    pending["records"][0]["status"] = "pending"
    with pytest.raises(ScenarioError, match=r"records\[0\]\.status.*interrupt can hold"):
        load_state(pending)
    pending["records"][0]["effect"] = None  # the record of a card with no ability: refused, named, no crash
    with pytest.raises(ScenarioError, match=r"records\[0\]\.status.*interrupt can hold"):
        load_state(pending)


@pytest.mark.clause("RED-RD-NUMBERS-TRANSFER")
def test_stated_only_amount_moves_nothing() -> None:
    config = RuleConfig.of({"rd-amount": "stated-only"})
    s = act(numbers_fight(config), "play rn on h -> e", config)
    assert numbers(s, "e") == (3, 5) and numbers(s, "rn") == (0, 0)


@pytest.mark.clause("RED-RD-TARGETS-IN-BATTLE")
def test_in_battle_means_the_active_battle_unless_any_battle() -> None:
    # h attacks, e blocks; p0's side battle card sb pits j (p0's hand) against k (p0's
    # territory): p0 controls both, neither in battle, so p0 chooses: j for p0, k for p1.
    # Read from p0's side, rn may reach the side battle's cards only (active-battle), or
    # every battle on the stack (rd-in-battle = any-battle): there also h, e, and sb on h.
    cards = [hero("h", 0, 1, 5), hero("k", 0, 1, 5), evil("e", 1, 1, 5), good_enh("sb", 0, ability=E.SIDE_BATTLE),
             good_enh("rn", 0, ability=E.REDIRECT_NUMBERS), hero("j", 0, 1, 5)]
    base = position(cards, {0: {"territory": ["h", "k"], "hand": ["sb", "rn", "j"]}, 1: {"territory": ["e"]}}, 2)
    for config, expected in (
        (RuleConfig(), ["play rn on j -> j", "play rn on j -> k"]),
        (RuleConfig.of({"rd-in-battle": "any-battle"}), ["play rn on j -> e", "play rn on j -> h", "play rn on j -> j", "play rn on j -> k", "play rn on j -> sb"]),
    ):
        s = acts(base, ["attack 1 h", "block e", "play sb on h -> j k", "sides j k"], config)
        assert len(s.battles) == 2
        assert sorted(f"play rn on j -> {t[0]}" for t in redirect_options(s, 0, E.REDIRECT_NUMBERS, config)) == expected


@pytest.mark.clause("RED-RD-NUMBERS-IN-BATTLE-ONLY", "RED-RD-NUMBERS-TRANSFER")
@pytest.mark.parametrize(("option", "rn_numbers", "next_player", "j_defeated"), [
    ("target-in-any-battle", (2, 6), 1, False),
    ("same-battle-only", (0, 0), 0, True),
])
def test_which_battle_redirected_numbers_count_in(
    option: str, rn_numbers: tuple[int, int], next_player: int, j_defeated: bool
) -> None:
    # h 1/5 attacks, e 2/6 blocks (stalemate); p0 plays sb on h -> j k: a side battle, j 0/1
    # (p0's hand) for p0 against k 1/5 for p1. k's 1 >= j's 1: j defeated, p0 losing, p0 has
    # initiative and (rd-in-battle = any-battle) redirects the numbers of e, which sits in the
    # suspended main battle, onto rn on j. e loses 2/6 under both readings. Decision
    # rd-numbers-which-battle: counted in any battle, rn is 2/6: j 2/7 vs k 1/5, 1 < 7 and
    # 2 < 5: stalemate, p0 played last, so p1 has initiative. Counted only while e is in rn's
    # own battle (RED-RD-NUMBERS-IN-BATTLE-ONLY, "only while their card is in it"): rn is 0/0,
    # j still 0/1 and defeated, p0 still losing and keeps initiative; passing, j is defeated.
    config = RuleConfig.of({"rd-in-battle": "any-battle", "rd-numbers-which-battle": option})
    cards = [hero("h", 0, 1, 5), hero("k", 0, 1, 5), evil("e", 1, 2, 6), good_enh("sb", 0, ability=E.SIDE_BATTLE),
             good_enh("rn", 0, ability=E.REDIRECT_NUMBERS), hero("j", 0, 0, 1)]
    base = position(cards, {0: {"territory": ["h", "k"], "hand": ["sb", "rn", "j"]}, 1: {"territory": ["e"]}}, 2)
    s = acts(base, ["attack 1 h", "block e", "play sb on h -> j k", "sides j k", "play rn on j -> e"], config)
    assert numbers(s, "e", config) == (0, 0) and numbers(s, "rn", config) == rn_numbers
    assert s.prompt.player == next_player  # type: ignore[union-attr]
    if j_defeated:
        s = act(s, "pass", config)
        assert s.prompt.kind is PromptKind.HEAL_WINDOW and s.prompt.cards == ("j",)  # type: ignore[union-attr]


# --- properties over random legal play (both heal wordings) ------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from cardrules.properties.redemption.strategies import REDIRECT_HEAVY, RICH_ABILITIES, transitions  # noqa: E402
from tests.model.redemption.helpers import PREVIOUS  # noqa: E402
from cardrules.properties.redemption.game import RedemptionGame  # noqa: E402
from cardrules.properties.redemption.heal_invariants import (  # noqa: E402
    numbers_conserved,
    numbers_expire,
    numbers_last_the_phase,
    numbers_move_the_amount,
    redirect_only_interrupted,
)

GAME = RedemptionGame()


def numbers_problem(state: State) -> str | None:
    return None if numbers_conserved(GAME, state) else "numbers in battle differ from the printed totals"


def phase_end_problem(before: State, after: State) -> str | None:
    return None if numbers_expire(GAME, before, None, after) else "a numbers redirect outlived its phase"


def lasting_problem(before: State, action, after: State, config: RuleConfig) -> str | None:
    game = RedemptionGame(config)
    if not numbers_last_the_phase(game, before, action, after):
        return "a numbers redirect ended before its phase"
    return None if numbers_move_the_amount(game, before, action, after) else "a numbers redirect moved another amount"


def redirect_problem(before: State, after: State) -> str | None:
    return None if redirect_only_interrupted(GAME, before, None, after) else "an ability was redirected while not interrupted"


@pytest.mark.parametrize("config", [RuleConfig(), PREVIOUS], ids=["revised", "previous"])
@pytest.mark.clause("RED-RD-NUMBERS-TRANSFER", "RED-RD-UNTIL-END-OF-PHASE", "RED-RD-ONLY-INTERRUPTED", "RED-RD-NUMBERS-IN-BATTLE-ONLY",
                    "RED-RD-NUMBERS-ONGOING")
@settings(deadline=None)
@given(data=st.data(), heavy=st.booleans())
def test_redirect_properties_over_random_play(config: RuleConfig, data: st.DataObject, heavy: bool) -> None:
    abilities = REDIRECT_HEAVY if heavy else RICH_ABILITIES
    for before, action, after in data.draw(transitions(config, abilities=abilities)):
        for problem in (numbers_problem(after), phase_end_problem(before, after), redirect_problem(before, after),
                        lasting_problem(before, action, after, config)):
            assert problem is None, (action.text(), problem)
        assert load_state(json.loads(json.dumps(after.to_json()))) == after
