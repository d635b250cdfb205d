"""Conformance suites for other engines: test vectors tagged by rule clause.

Modules:

- :mod:`.schema`: the ``cardrules-vectors/4`` format (``/3``, ``/2`` and ``/1`` still read), its JSON Schema
  (``vectors.schema.json``) and validation naming the JSON path of a problem;
- :mod:`.plan`: which suites exist (one per game and rule version, one per
  selectable decision option);
- :mod:`.candidates` and :mod:`.targeted`: candidate vectors from the explored
  scenario graphs (and refusals aimed at one clause), with their coverage features;
- :mod:`.invalid`: invalid-state vectors (single corruptions an engine must refuse to load);
- :mod:`.generate` and :mod:`.output`: greedy set-cover minimisation, suite
  building, deterministic atomic writing with a ``manifest.json``;
- :mod:`.adapter`: the reference model as an adapter (JSON lines on stdin/stdout);
- :mod:`.process`: one adapter subprocess with timeouts and output limits;
- :mod:`.declaration`, :mod:`.macro` and :mod:`.profiles`: the adapter's hello (``cardrules-adapter/2``):
  what an engine declares (features, readings, profile, macro steps, where states are compared);
- :mod:`.runner`, :mod:`.checks`, :mod:`.results` and :mod:`.report`: running suites, verdicts per vector and per clause,
  JSON and JUnit XML;
- :mod:`.cli`: ``cardrules conformance schema|generate|run|adapter``.
"""

from __future__ import annotations

FORMAT = "cardrules-vectors/4"
"""The suite file format this package writes. Version 4: every vector carries ``requires``, the features an
engine needs for it (``specs/clauses/features/features.toml``), and every step its ``observable`` state form
(compared with an engine speaking the observable profile)."""

FORMAT_V3 = "cardrules-vectors/3"
"""The third version, still read: ``invalid`` vectors, states that break the state format's consistency
rules, whose ``load`` the engine must refuse (``bad-request``); no ``requires`` nor ``observable``."""

FORMAT_V2 = "cardrules-vectors/2"
"""The second version, still read: a refusal vector's ``refuse.clauses`` (the clauses in force that forbid
the action) is compared with the clauses the engine names; no ``invalid`` vectors."""

FORMAT_V1 = "cardrules-vectors/1"
"""The first version, still read: its refusal vectors are checked for the refusal and the unchanged
position only, not for the clauses the engine names."""

READ_FORMATS = (FORMAT_V1, FORMAT_V2, FORMAT_V3, FORMAT)
"""Every suite format the runner and ``score`` read."""

OPTION_SETS = ("all", "used")
"""Which decision options get a suite (``--options``): every one the model can select, or those the
scenarios' rule sets use (:func:`.plan.default_plans`)."""
