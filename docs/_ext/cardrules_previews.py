"""Sphinx extension part: hover previews of clause references (the ecma262 and MTG rules sites' tooltips).

Every link to a rule (``#rule-<id>`` in a rules view, ``#clause-<id>`` on an
area page) shows, on hover, on keyboard focus and on a first tap, a small box
with the rule's citable number, title and statement, and "superseded by X"
when the rule belongs to a wording its area replaced. The data is written at
build time into the built site as ``_static/clause-previews.js`` (a script, so
the previews work offline and from ``file://``); ``_static/clause-preview.js``
finds the links and draws the box. :func:`preview_data` is pure, so tests read
it without a build.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cardrules.specs.catalogue import Catalogue, default_catalogue
from cardrules.specs.catalogue.numbers import Numbering, default_numbers
from cardrules_rules import rule_label, rule_page
from sphinx.application import Sphinx

DATA_SCRIPT = "clause-previews.js"
"""The generated data, in the built site's ``_static/``."""
PREVIEW_SCRIPT = "clause-preview.js"
"""The hand-written script of ``docs/_static/`` that shows the previews."""


def preview_data(catalogue: Catalogue, numbering: Numbering) -> dict[str, dict[str, Any]]:
    """Clause ID -> what its preview shows: number, title, statement (whitespace folded), the numbers and
    IDs of the current rules that replaced it (empty for a rule in force) and the page of the rules view that
    shows it, with the rule's anchor (:func:`cardrules_rules.rule_page`: the playground links there too)."""
    out: dict[str, dict[str, Any]] = {}
    for clause in catalogue.clauses:
        area = catalogue.area(clause.area)
        current = area.default_version in clause.versions
        replaced = [] if current else [[numbering.number(c), c] for c in numbering.replaced_by.get(clause.id, ())]
        out[clause.id] = {"number": numbering.number(clause.id), "title": clause.title,
                          "statement": " ".join(clause.statement.split()), "superseded_by": replaced,
                          "page": f"{rule_page(catalogue, numbering, clause.id)}.html#{rule_label(clause.id)}"}
    return out


def data_script(data: dict[str, dict[str, Any]]) -> str:
    """The data script's text: one global, sorted, so that the file is the same bytes for the same catalogue."""
    return "window.CARDRULES_CLAUSES = " + json.dumps(data, sort_keys=True, ensure_ascii=False,
                                                      separators=(",", ":")) + ";\n"


def write_data(app: Sphinx, exception: Exception | None) -> None:
    """At ``build-finished``: the preview data into the built site's ``_static/``."""
    if exception is not None or app.builder.format != "html":
        return
    folder = Path(app.outdir) / "_static"
    folder.mkdir(parents=True, exist_ok=True)
    text = data_script(preview_data(default_catalogue(), default_numbers()))
    (folder / DATA_SCRIPT).write_text(text, encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_js_file(DATA_SCRIPT, loading_method="defer")
    app.add_js_file(PREVIEW_SCRIPT, loading_method="defer")
    app.add_css_file("clause-preview.css")
    app.connect("build-finished", write_data)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
