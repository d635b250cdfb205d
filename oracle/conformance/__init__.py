"""Conformance suites for other engines (issue 10): test vectors tagged by rule clause.

Modules:

- :mod:`.schema`: the ``cardrules-vectors/1`` format, its JSON Schema
  (``vectors.schema.json``) and validation naming the JSON path of a problem;
- :mod:`.plan`: which suites exist (one per game and rule version, one per
  selectable decision option);
- :mod:`.candidates` and :mod:`.targeted`: candidate vectors from the explored
  scenario graphs (and refusals aimed at one clause), with their coverage features;
- :mod:`.generate` and :mod:`.output`: greedy set-cover minimisation, suite
  building, deterministic atomic writing with a ``manifest.json``;
- :mod:`.adapter`: the reference model as an adapter (JSON lines on stdin/stdout);
- :mod:`.process`: one adapter subprocess with timeouts and output limits;
- :mod:`.runner` and :mod:`.report`: running suites, verdicts per vector and per clause,
  JSON and JUnit XML;
- :mod:`.cli`: ``cardrules conformance schema|generate|run|adapter``.
"""

from __future__ import annotations

FORMAT = "cardrules-vectors/1"
"""The suite file format this package writes and reads."""

OPTION_SETS = ("all", "used")
"""Which decision options get a suite (``--options``): every one the model can select, or those the
scenarios' rule sets use (:func:`.plan.default_plans`)."""
