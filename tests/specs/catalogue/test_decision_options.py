"""Every reading a committee can compare: per option, model-selectable, z3 status, changes play.

No recorded alternative that changes play is left unselectable in either game's model.
"""

from __future__ import annotations

import json
import io

import pytest

from cardrules.oracle.cli.decision_options import option_rows, unselectable_changes
from cardrules.oracle.cli.listing import listing, print_listing
from cardrules.specs.catalogue import default_catalogue

@pytest.mark.clause("RED-BR-HEAL-WINDOW", "RED-RD-NUMBERS-IN-BATTLE-ONLY", "RED-HEAL-WINDOW-MEANS",
                    "RED-HEAL-AT-RESOLUTION", "RED-SB-CONTROL-ONE-INSIDER", "RED-HEAL-CHARACTER-TC",
                    "RED-HEAL-ENH-ON-MATCHING-BRIGADE")
@pytest.mark.parametrize("game", ["redemption", "fftcg"])
def test_no_behaviour_changing_option_is_unselectable(game: str) -> None:
    assert unselectable_changes(game, default_catalogue()) == []


@pytest.mark.clause("RED-BR-HEAL-WINDOW", "RED-RD-NUMBERS-IN-BATTLE-ONLY", "RED-HEAL-WINDOW-MEANS",
                    "RED-HEAL-AT-RESOLUTION", "RED-SB-CONTROL-ONE-INSIDER", "RED-HEAL-CHARACTER-TC",
                    "RED-HEAL-ENH-ON-MATCHING-BRIGADE", "FF-PARTY-DISBAND-COMBAT-END")
def test_the_eight_recorded_ambiguities_default_to_the_play_both_encodings_already_give() -> None:
    # each default is the reading the model and z3 ran before it was recorded, so recording it changes
    # no play; each alternative is a different play (none is marked same_play)
    expected = {
        "br-enhancements-before-heal": ("enhancements-first", "with-the-character"),
        "rd-numbers-loss-lasting": ("while-out", "lost-for-good"),
        "party-active-meaning": ("still-exists", "members-active-state"),
        "heal-self-when-discarded": ("not-itself", "may-heal-itself"),
        "redline-resolution-sentence": ("old", "inserted"),
        "sb-control-meaning": ("battle-side", "permanent-controller"),
        "heal-ability-suspended-battle": ("active-battle-only", "any-battle-on-stack"),
    }
    decisions = default_catalogue().decisions
    for decision_id, (chosen, alternative) in expected.items():
        clause, decision = decisions[decision_id]
        assert decision.chosen == chosen
        rows = {row["id"]: row for row in option_rows(clause, decision)}
        assert rows[chosen]["changes_behaviour"] is False
        assert rows[alternative]["changes_behaviour"] is True
        assert rows[chosen]["z3"] == {"status": "encoded"}
    # the eighth, the redline's own words against the revised block's, was since argued to give the same play
    # (the base rules require the matching brigade wherever an enhancement is played)
    clause, decision = decisions["redline-draft-words"]
    rows = {row["id"]: row for row in option_rows(clause, decision)}
    assert decision.chosen == "revised-block-governs" and rows["redline-words-govern"]["changes_behaviour"] is False
    assert "RED-BASE-ENHANCEMENTS" in rows["redline-words-govern"]["same_play"]


@pytest.mark.clause("RED-SB-INSTANTANEOUS", "RED-SB-SAME-ALIGNMENT", "RED-BR-HEAL-WINDOW")
def test_list_decisions_json_gives_each_option_its_model_z3_and_play_status() -> None:
    out = io.StringIO()
    print_listing(listing("decisions", game="redemption"), out, as_json=True)
    rows = {row["id"]: row for row in json.loads(out.getvalue())}
    # two readings of a repeated sentence give one rule either way: the same play, with the reason
    repeat = {o["id"]: o for o in rows["sb-duplicated-sentences"]["option_status"]}["repeat-is-emphasis"]
    assert repeat["changes_behaviour"] is False and "same" in repeat["same_play"]
    # the literal pairing reading is selectable in the model and read by the side battle encoding
    mixed = {o["id"]: o for o in rows["sb-pair-alignment"]["option_status"]}["any-alignment"]
    assert (mixed["model_selectable"], mixed["z3"]["status"], mixed["changes_behaviour"]) == (True, "encoded", True)
    # a recorded alternative the model selects but no z3 encoding reads: refused, the encoding named
    kept = {o["id"]: o for o in rows["br-enhancements-before-heal"]["option_status"]}["with-the-character"]
    assert kept["model_selectable"] is True and kept["z3"]["status"] == "refused"
    assert "br-enhancements-before-heal=with-the-character" in kept["z3"]["reason"]
    # a base-rule reading the battle encoding reads: any number of main battles a turn
    many = {o["id"]: o for o in rows["red-base-battles-per-turn"]["option_status"]}["many"]
    assert (many["model_selectable"], many["z3"]["status"], many["changes_behaviour"]) == (True, "encoded", True)
