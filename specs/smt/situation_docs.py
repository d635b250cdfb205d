"""The variables of every consistency situation, listed from the code: name, sort, role and meaning.

A proposal's z3 module writes its clause constraints over a situation's variables, by name
(``heal.healed``, ``sb.count`` ...). :func:`variable_rows` lists them as the situation builders
(:data:`~cardrules.specs.smt.situations.SITUATIONS`) make them, under the default rule set: the
name, the z3 sort, whether it is an *input* (what the situation is) or an *output* (what the rules
decide), and its meaning: the docstring of the variables' field in the encoding's source where it
has one, the codes of an integer-coded variable, else the field's name in words.
``cardrules proposal situations`` prints them and the documentation renders them with the same code.
"""

from __future__ import annotations

import ast
import inspect
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

from cardrules.specs.smt.redemption import heal as h
from cardrules.specs.smt.redemption import side_battle_vars as sbv
from cardrules.specs.smt.redemption.redirect import RDVars
from cardrules.specs.smt.redemption.resolution import BRVars
from cardrules.specs.smt.situations import SITUATIONS

VARIABLE_CLASSES: Mapping[str, type] = {"heal": h.HealVars, "side-battle": sbv.SBVars,
                                        "battle-resolution": BRVars, "redirect": RDVars}
"""Area -> the dataclass whose fields are its situation's variables (their docstrings are the meanings)."""

CODES: Mapping[str, tuple[str, ...]] = {
    "heal.place": h.PLACES, "heal.cause": h.CAUSES, "heal.means": h.MEANS, "heal.phase": h.PHASES,
    "sb.zone_x": sbv.ZONES, "sb.zone_y": sbv.ZONES,
}
"""Integer-coded variables: the meaning of 0, 1, 2 ..."""


@dataclass(frozen=True)
class VariableRow:
    name: str
    sort: str
    role: str
    """``input`` or ``output``."""
    meaning: str

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "sort": self.sort, "role": self.role, "meaning": self.meaning}


@lru_cache(maxsize=None)
def field_docs(cls: type) -> dict[str, str]:
    """The docstrings of a dataclass's fields (a string right after a field's annotation), by field name."""
    tree = ast.parse(inspect.getsource(cls))
    body = tree.body[0].body if isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for field, after in zip(body, body[1:]):
        if (isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name) and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str)):
            docs[field.target.id] = " ".join(after.value.value.split())
    return docs


def _field(name: str) -> str:
    """``heal.place`` -> ``place``; ``br2.doomed[0][1]`` -> ``doomed``."""
    return re.sub(r"\[.*$", "", name.split(".", 1)[1])


def meaning(area: str, name: str) -> str:
    """A variable's meaning (see the module docstring)."""
    cls = VARIABLE_CLASSES.get(area)
    text = field_docs(cls).get(_field(name), "") if cls is not None else ""
    text = text or _field(name).replace("_", " ")
    if name in CODES:
        text += " (" + ", ".join(f"{code} = {words}" for code, words in enumerate(CODES[name])) + ")"
    return text


def variable_rows(area: str) -> list[VariableRow]:
    """Every variable of ``area``'s situation, inputs first, in the situation's order."""
    situation = SITUATIONS[area](None)  # type: ignore[arg-type]
    return [VariableRow(str(v), str(v.sort()), role, meaning(area, str(v)))
            for role, variables in (("input", situation.inputs), ("output", situation.outputs)) for v in variables]


def areas() -> list[str]:
    """Every area with a consistency situation, sorted."""
    return sorted(SITUATIONS)
