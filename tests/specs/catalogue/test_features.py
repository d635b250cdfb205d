"""Features an engine may lack: the shipped file checks out against the catalogue, a clause belongs to the
feature a reader of the rules would put it in (core clauses to none), and each kind of mistake in a copy
is one error naming the file, the feature and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.specs.catalogue import CatalogueError, default_catalogue
from cardrules.specs.catalogue.features import FEATURES_FILE, features_needed, load_features, load_features_from

pytestmark = pytest.mark.infrastructure("the features an engine declares in its conformance hello")


def _load_edited(tmp_path: Path, old: str, new: str) -> None:
    text = FEATURES_FILE.read_text()
    assert old in text, old
    folder = tmp_path / "features"
    folder.mkdir()
    (folder / "features.toml").write_text(text.replace(old, new, 1))
    load_features_from(folder / "features.toml", default_catalogue())


def test_each_game_lists_its_features_and_no_clause_is_in_two() -> None:
    features = load_features()
    assert {"party", "p-icon-party", "preemptive-strike"} <= {f.id for f in features["fftcg"]}
    assert {"side-battles", "heal", "heal-windows", "redirect-numbers", "redirect-abilities", "interrupts"} <= {
        f.id for f in features["redemption"]}
    for game, listed in features.items():
        clauses = [c for f in listed for c in f.clauses]
        assert len(clauses) == len(set(clauses))
        assert all(default_catalogue().clause(c).game == game for c in clauses)


@pytest.mark.clause("FF-PARTY-P-ICON", "FF-BASE-SEVEN-DAMAGE-LOSES", "FF-BASE-PREEMPTIVE")
def test_a_p_icon_party_clause_needs_p_icon_parties_and_the_seven_damage_loss_is_core() -> None:
    assert features_needed("fftcg", ["FF-PARTY-P-ICON"]) == {"p-icon-party"}
    assert features_needed("fftcg", ["FF-BASE-SEVEN-DAMAGE-LOSES", "FF-BASE-BLOCK"]) == frozenset()
    assert features_needed("fftcg", ["FF-BASE-PREEMPTIVE", "FF-PARTY-MIN-TWO"]) == {"preemptive-strike", "party"}


@pytest.mark.clause("RED-SB-SUSPEND", "RED-HEAL-WINDOW", "RED-BASE-WIN-FIVE-SOULS")
def test_redemption_side_battles_and_heal_windows_are_features_and_winning_is_core() -> None:
    assert features_needed("redemption", ["RED-SB-SUSPEND"]) == {"side-battles"}
    assert features_needed("redemption", ["RED-HEAL-WINDOW", "RED-BR-HEAL-WINDOW"]) == {"heal-windows"}
    assert features_needed("redemption", ["RED-BASE-WIN-FIVE-SOULS", "RED-BR-ORDER"]) == frozenset()


@pytest.mark.parametrize(("old", "new", "message"), [
    ('"FF-BASE-MULTI-ELEMENT"]', '"FF-NO-SUCH-CLAUSE"]',
     "features/features.toml: multi-element: clauses: 'FF-NO-SUCH-CLAUSE' is not a clause in the catalogue"),
    ('"FF-BASE-MULTI-ELEMENT"]', '"FF-BASE-P-ICON"]',
     "features/features.toml: multi-element: clauses: 'FF-BASE-P-ICON' is also in feature fftcg:p-icon-party"),
    ('"FF-BASE-MULTI-ELEMENT"]', '"RED-SB-SUSPEND"]',
     "features/features.toml: multi-element: clauses: 'RED-SB-SUSPEND' is a clause of another game"),
    ('id = "multi-element"', 'id = "Multi Element"',
     "features/features.toml: id: 'Multi Element' is not a lower-case id like 'p-icon-party'"),
    ('id = "multi-element"', 'id = "party"', "features/features.toml: party: id: feature listed twice for fftcg"),
    ("[[fftcg]]", "[[chess]]", "features/features.toml: chess: not a game of the catalogue"),
])
def test_a_mistake_is_one_error_naming_file_feature_and_field(tmp_path: Path, old: str, new: str,
                                                              message: str) -> None:
    with pytest.raises(CatalogueError) as raised:
        _load_edited(tmp_path, old, new)
    assert str(raised.value).startswith(message)
