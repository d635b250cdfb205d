"""The ``cardrules-vectors/4`` suite format: its JSON Schema and validation.

A suite file is one JSON object: ``format``, ``suite`` (an id), ``game``,
``rule_set`` (expression, versions, decision options), ``cardrules_version``
and ``vectors``. Each vector has a stable ``id``, a ``kind`` (``play``,
``refusal``, ``perft``, ``invalid``), the ``clauses`` it exercises, a one-line
``narrative`` and the initial ``state`` in the model's JSON form; the rest
depends on the kind (see ``docs/conformance.rst`` and ``vectors.schema.json``).
Version 2 differs from version 1 only in what the runner checks: a refusal
vector's ``refuse.clauses`` must be the clauses the engine names (in force,
any order). Version 3 adds ``invalid`` vectors (a state the engine must refuse to load). Version 4 adds each
vector's ``requires`` (the features an engine needs for it) and each step's ``observable`` state form. The
schema takes all four; a version 1 to 3 suite runs as before (the features needed then come from its clauses).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema

from cardrules.oracle.conformance import FORMAT, FORMAT_V1, FORMAT_V2, FORMAT_V3, READ_FORMATS
from cardrules.specs.fileio import FileProblem, load_json

SCHEMA_PATH = Path(__file__).with_name("vectors.schema.json")

MAX_SUITE_BYTES = 256 * 1024 * 1024
"""Largest suite file read (the largest generated suite is a few MB)."""


class SuiteError(ValueError):
    """A suite file that cannot be used: unreadable, not JSON, or not valid ``cardrules-vectors/1``, ``/2`` or ``/3``.

    ``where`` is the JSON path of the problem (``$.vectors[3].steps[0].action``).
    """

    def __init__(self, file: str, where: str, problem: str) -> None:
        self.file = file
        self.where = where
        self.problem = problem
        super().__init__(f"{file}: {where}: {problem}" if where else f"{file}: {problem}")


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The shipped JSON Schema of the format."""
    loaded: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return loaded


def schema_text() -> str:
    """The schema file as shipped (printed by ``cardrules conformance schema``)."""
    return SCHEMA_PATH.read_text(encoding="utf-8")


def validate_suite(data: Any, file: str = "<suite>") -> None:
    """Raise :class:`SuiteError` naming the JSON path of the most relevant problem, if any."""
    if isinstance(data, dict) and data.get("format") not in (None, *READ_FORMATS):
        raise SuiteError(file, "$.format", f"unsupported format {data.get('format')!r}; this runner reads "
                         f"{' and '.join(READ_FORMATS)} (regenerate the suite with `cardrules conformance generate`, "
                         f"which writes {FORMAT})")
    validator = jsonschema.Draft202012Validator(schema())
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is not None:
        raise SuiteError(file, error.json_path, error.message[:300])
    ids = [v["id"] for v in data["vectors"]]
    for index, vector_id in enumerate(ids):
        if ids.index(vector_id) != index:
            raise SuiteError(file, f"$.vectors[{index}].id", f"duplicate vector id {vector_id!r}")
    for index, vector in enumerate(data["vectors"]):
        if vector["kind"] == "invalid" and data["format"] in (FORMAT_V1, FORMAT_V2):
            raise SuiteError(file, f"$.vectors[{index}].kind", f"an 'invalid' vector needs {FORMAT_V3} or later")
        if vector["kind"] == "perft" and len(vector["nodes"]) != vector["depth"]:
            raise SuiteError(file, f"$.vectors[{index}].nodes", "one node count per depth 1..depth is expected")
    _check_clauses(data, file)


def _vector_clause_lists(vector: dict[str, Any], where: str) -> list[tuple[str, list[str]]]:
    """Every list of clause IDs a vector carries, with its JSON path."""
    lists = [(f"{where}.clauses", vector["clauses"])]
    if "start_clauses" in vector:
        lists.append((f"{where}.start_clauses", vector["start_clauses"]))
    for number, step in enumerate(vector.get("steps", ())):
        if "clauses" in step:
            lists.append((f"{where}.steps[{number}].clauses", step["clauses"]))
    if "refuse" in vector:
        lists.append((f"{where}.refuse.clauses", vector["refuse"]["clauses"]))
    return lists


def _check_clauses(data: dict[str, Any], file: str) -> None:
    """Every clause a suite names is a clause of its game in the catalogue; refusals cite clauses in force.

    A suite that breaks this cannot be judged (a vector of the other game, an
    emptied ``clauses_in_force``, a refusal citing a clause nobody has):
    :class:`SuiteError`, so bad input (exit 3), never a run of failures.
    """
    from cardrules.specs.catalogue import default_catalogue

    game = data["game"]
    of_game = frozenset(c.id for c in default_catalogue().select(game=game))
    in_force = data.get("clauses_in_force")
    if data["format"] not in (FORMAT_V1,):
        if not in_force:
            raise SuiteError(file, "$.clauses_in_force", "empty: a suite names the clauses in force of its rule set")
        for n, clause in enumerate(in_force):
            if clause not in of_game:
                raise SuiteError(file, f"$.clauses_in_force[{n}]", f"{clause!r} is not a {game} clause of the catalogue")
    for index, vector in enumerate(data["vectors"]):
        for where, clauses in _vector_clause_lists(vector, f"$.vectors[{index}]"):
            for n, clause in enumerate(clauses):
                if clause not in of_game:
                    raise SuiteError(file, f"{where}[{n}]", f"{clause!r} is not a {game} clause of the catalogue "
                                     "(a vector of another game, or a clause the catalogue does not have)")
                if in_force and where.endswith("refuse.clauses") and clause not in in_force:
                    raise SuiteError(file, f"{where}[{n}]", f"{clause!r} is not in the suite's clauses_in_force")


def load_suite(path: Path) -> dict[str, Any]:
    """Read and validate one suite file (:class:`SuiteError` on any problem)."""
    try:
        data = load_json(path, MAX_SUITE_BYTES)
    except FileProblem as problem:
        raise SuiteError(problem.path, problem.where, problem.what) from None
    validate_suite(data, str(path))
    loaded: dict[str, Any] = data
    return loaded
