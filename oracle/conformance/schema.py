"""The ``cardrules-vectors/3`` suite format: its JSON Schema and validation.

A suite file is one JSON object: ``format``, ``suite`` (an id), ``game``,
``rule_set`` (expression, versions, decision options), ``cardrules_version``
and ``vectors``. Each vector has a stable ``id``, a ``kind`` (``play``,
``refusal``, ``perft``, ``invalid``), the ``clauses`` it exercises, a one-line
``narrative`` and the initial ``state`` in the model's JSON form; the rest
depends on the kind (see ``docs/conformance.rst`` and ``vectors.schema.json``).
Version 2 differs from version 1 only in what the runner checks: a refusal
vector's ``refuse.clauses`` must be the clauses the engine names (in force,
any order). Version 3 adds ``invalid`` vectors (a state the engine must refuse to load). The schema takes
all three; a version-1 or -2 suite runs as before.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema

from cardrules.oracle.conformance import FORMAT, FORMAT_V1, FORMAT_V2, READ_FORMATS

SCHEMA_PATH = Path(__file__).with_name("vectors.schema.json")


class SuiteError(ValueError):
    """A suite file that cannot be used: unreadable, not JSON, or not valid ``cardrules-vectors/1``, ``/2`` or ``/3``.

    ``where`` is the JSON path of the problem (``$.vectors[3].steps[0].action``).
    """

    def __init__(self, file: str, where: str, problem: str) -> None:
        self.file = file
        self.where = where
        self.problem = problem
        super().__init__(f"{file}: {where}: {problem}")


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
            raise SuiteError(file, f"$.vectors[{index}].kind", f"an 'invalid' vector needs {FORMAT}")
        if vector["kind"] == "perft" and len(vector["nodes"]) != vector["depth"]:
            raise SuiteError(file, f"$.vectors[{index}].nodes", "one node count per depth 1..depth is expected")


def load_suite(path: Path) -> dict[str, Any]:
    """Read and validate one suite file (:class:`SuiteError` on any problem)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise SuiteError(str(path), "$", f"cannot read: {error.strerror or error}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise SuiteError(str(path), "$", f"not valid JSON: {error}") from None
    validate_suite(data, str(path))
    loaded: dict[str, Any] = data
    return loaded
