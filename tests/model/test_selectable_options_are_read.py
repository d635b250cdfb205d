"""A reading a user can select is one the code reads: every decision with an alternative the model lists
as selectable is named in its game's model code (beyond the configuration), and every decision the z3
encodings say they read is named in their code. Catches an option that is selectable on paper but
silently played as the chosen one (as ``party-active-meaning`` once was)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.model.games import game_model
from cardrules.specs.catalogue import default_catalogue
from cardrules.specs.smt.fftcg.variants import ENCODED_DECISIONS as FFTCG_ENCODED
from tests.paths import REPO

CONFIG_FILES = {"config.py"}
ENCODED_ALIKE = {"party-damage-source"}
"""Read by the z3 encoding but encoded alike under each option: it only itemises damage events, which the
abstract state does not record (specs.smt.fftcg.variants)."""


def sources(folder: Path, leave_out: set[str]) -> str:
    return "\n".join(p.read_text() for p in sorted(folder.rglob("*.py")) if p.name not in leave_out)


def selectable_alternatives(game: str) -> set[str]:
    found = set()
    for decision_id, (clause, decision) in default_catalogue().decisions.items():
        if clause.game != game:
            continue
        options = [o.id for o in decision.options if o.id != decision.chosen and not o.same_play]
        if game_model(game).modelled_options(decision_id, options):
            found.add(decision_id)
    return found


@pytest.mark.infrastructure("a selectable decision option must be read by the model code that plays it")
@pytest.mark.parametrize("game", ["fftcg", "redemption"])
def test_every_selectable_decision_is_read_by_the_model(game: str) -> None:
    code = sources(REPO / "model" / game, CONFIG_FILES)
    unread = sorted(d for d in selectable_alternatives(game) if f'"{d}"' not in code)
    assert unread == [], f"selectable in the {game} model but named nowhere in its code: {unread}"


@pytest.mark.infrastructure("a decision the z3 encoding claims to read must be named in its code")
def test_every_decision_fftcg_z3_claims_is_read_by_it() -> None:
    code = sources(REPO / "specs" / "smt" / "fftcg", {"variants.py"})
    unread = sorted(d for d in FFTCG_ENCODED - ENCODED_ALIKE if f'"{d}"' not in code)
    assert unread == [], f"listed as encoded but named nowhere in specs/smt/fftcg: {unread}"
