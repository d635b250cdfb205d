"""Per option of a decision: can the model select it, does a z3 encoding read it, does it change play.

``cardrules list decisions --json`` shows one entry per option (:func:`option_rows`):

- ``model_selectable``: the game's model implements the option (``modelled_options``);
- ``z3``: ``{"status": "encoded"}`` when the z3 encodings read the option (the chosen option always is:
  it is what they encode when nothing is selected), else ``{"status": "refused", "reason": ...}``
  naming the encoding that does not read it;
- ``changes_behaviour``: for an alternative, whether selecting it gives a different play from the chosen
  option; the catalogue records the options that give the same play (``same_play``, FORMAT.md) and why;
- ``unseen_here``: for an alternative that changes play only in positions no embedded scenario or named
  scope reaches, why (``cardrules diff`` prints it when it finds no difference).
"""

from __future__ import annotations

from typing import Any

from cardrules.model.games import game_model
from cardrules.specs.catalogue import Clause, Decision


def _redemption_z3(clause: Clause, decision: Decision, option_id: str) -> dict[str, str]:
    from cardrules.oracle.crosscheck.redemption.common import ENCODED_AREAS, READ_DECISIONS
    from cardrules.specs.smt.redemption.battle_ts.variants import ENCODED_DECISIONS

    if option_id == decision.chosen or decision.id in READ_DECISIONS or decision.id in ENCODED_DECISIONS:
        return {"status": "encoded"}
    if clause.area in ENCODED_AREAS:
        where = f"the {clause.area} rule-level encoding (specs.smt.redemption) reads only the chosen option"
    else:
        where = "neither the battle encoding (specs.smt.redemption.battle_ts) nor a rule-level encoding reads it"
    return {"status": "refused",
            "reason": f"no z3 encoding of {decision.id}={option_id}: {where} ({decision.chosen!r})"}


def _fftcg_z3(decision: Decision, option_id: str) -> dict[str, str]:
    from cardrules.specs.smt.fftcg.variants import UnknownVariant, Variants

    try:
        Variants.of({decision.id: option_id})
    except UnknownVariant as error:
        return {"status": "refused", "reason": f"specs.smt.fftcg: {error}"}
    return {"status": "encoded"}


def z3_status(clause: Clause, decision: Decision, option_id: str) -> dict[str, str]:
    """Whether the z3 encodings of the clause's game read ``option_id`` of ``decision``."""
    if clause.game == "fftcg":
        return _fftcg_z3(decision, option_id)
    return _redemption_z3(clause, decision, option_id)


def option_rows(clause: Clause, decision: Decision) -> list[dict[str, Any]]:
    """One entry per option of ``decision`` (see the module docstring)."""
    ids = [o.id for o in decision.options]
    selectable = set(game_model(clause.game).modelled_options(decision.id, ids))
    rows = []
    for option in decision.options:
        chosen = option.id == decision.chosen
        rows.append({
            "id": option.id,
            "chosen": chosen,
            "model_selectable": chosen or option.id in selectable,
            "z3": z3_status(clause, decision, option.id),
            "changes_behaviour": not chosen and not option.same_play,
            "same_play": option.same_play or None,
            "unseen_here": option.unseen_here or None,
        })
    return rows


def unselectable_changes(game: str, catalogue: Any) -> list[str]:
    """``decision=option`` for every alternative of ``game`` that changes play but the model cannot select."""
    out = []
    for decision_id, (clause, decision) in sorted(catalogue.decisions.items()):
        if clause.game != game:
            continue
        for row in option_rows(clause, decision):
            if row["changes_behaviour"] and not row["model_selectable"]:
                out.append(f"{decision_id}={row['id']}")
    return out
