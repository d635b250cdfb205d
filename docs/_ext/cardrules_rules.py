"""Sphinx extension part: the rules views, one page per rule area written for judges.

``rules/<area>.rst`` is generated at ``builder-inited`` and holds
``.. cardrules-rules:: <area>``, which renders the area's rules in reading
order (by citable number, :mod:`cardrules.specs.catalogue.numbers`): each rule
as its own section titled ``NUMBER · ID: title`` (a distinct search target),
with its statement, its source, the decisions that change its answer, its
examples in the players' words (:mod:`cardrules_examples`) and a link to its
formal encodings and tests on the area page. The current wording
comes first; clauses of a superseded wording follow, each in a marked box
naming the current rule that replaced it. :func:`rules_lines` is pure, so
tests render a view without a build.
"""

from __future__ import annotations

import json
from pathlib import Path

from cardrules.oracle.examples import EXAMPLES_FILE
from cardrules.specs.catalogue import Area, Catalogue, Clause, Decision, default_catalogue
from cardrules.specs.catalogue.numbers import NUMBERS_FILE, Numbering, default_numbers
from cardrules_examples import rule_example_lines
from cardrules_judges import SYNONYMS_FILE, decisions_changing, judge_note, link_references, load_synonyms, synonyms_for
from cardrules_rst import RstDirective, escape, label, write_pages
from docutils import nodes
from sphinx.application import Sphinx

SUPERSEDED_MARK = "superseded by"
"""Headings of superseded rules say ``(superseded by NUMBER)``; the search scorer reads it."""


KIND_WORDS = {"rule": "", "default-condition": "a default condition", "special-condition": "a special condition",
              "clarification": "a clarification", "assumption": "an assumption: the base rules, as this project reads them"}
"""How a rule's kind reads beside its source (a plain rule says nothing more)."""


def rule_label(clause_id: str) -> str:
    return f"rule-{clause_id.lower()}"


def decision_label(decision_id: str) -> str:
    return f"decision-{decision_id}"


def is_current(area: Area, clause: Clause) -> bool:
    return area.default_version in clause.versions


def write_rules_pages(app: Sphinx) -> None:
    """``rules/index.rst`` and one ``rules/<area>.rst`` per area (rewritten only when they change)."""
    catalogue = default_catalogue()
    pages = {"index.rst": rules_index(catalogue)}
    for area in catalogue.areas:
        title = f"{area.title}: the rules"
        pages[f"{area.id}.rst"] = f"{title}\n{'=' * len(title)}\n\n.. cardrules-rules:: {area.id}\n"
    write_pages(Path(app.srcdir) / "rules", pages)


def rules_index(catalogue: Catalogue) -> str:
    lines = ["The rules, by area", "==================", "",
             "Every rule in force, numbered for citing (area letters, section of the source, place in it: "
             "``SB 2.4``). Each rule also has a stable ID (``RED-SB-CONTROL-OUTSIDERS``); search the site "
             "with either to land on the rule.", "",
             "Under each rule, an example in the players' words: a position, what a player does and the "
             "ruling, with the numbers of the rules that apply. The examples are taken from runs of the "
             "project's executable model of the rules and replayed on it by the tests, so each ruling is "
             "what the rules, as this site reads them, give. \"Try it\" opens the example's position in the "
             "playground, where the next actions can be played.", "",
             ".. toctree::", "   :maxdepth: 1", ""]
    lines += [f"   {area.id}" for area in catalogue.areas]
    return "\n".join(lines) + "\n"


def rules_lines(catalogue: Catalogue, numbering: Numbering, area_id: str,
                synonyms: tuple[tuple[str, ...], ...]) -> list[str]:
    """The reST of one area's rules view."""
    area = catalogue.area(area_id)
    clauses = sorted(catalogue.select(area=area_id), key=lambda c: numbering.sort_key(c.id))
    current = [c for c in clauses if is_current(area, c)]
    superseded = [c for c in clauses if not is_current(area, c)]
    version = area.version(area.default_version)
    lines = [escape(judge_note(area.summary)), "",
             f"Current wording: **{escape(version.title)}**. Cite a rule by its number or its ID. "
             f"How each rule is encoded and tested: :doc:`the {escape(area.title)} reference page "
             f"<../areas/{area.id}>`.", ""]
    if superseded:
        lines += [f"The current rules come first; the {len(superseded)} rules of the superseded wording "
                  "follow under :ref:`their own heading <superseded-" + area.id + ">`, for reference only.", ""]
    lines += ["Current rules", "-------------", ""]
    for clause in current:
        lines += _rule_lines(catalogue, numbering, clause, synonyms, replaced=None)
    if superseded:
        lines += [f".. _superseded-{area.id}:", "", "Superseded wording", "------------------", ""]
        lines += ["These rules are **not in force**: they belong to a wording that the current one replaced, "
                  "and each box names the current rule to apply instead.", ""]
        for clause in superseded:
            lines += _rule_lines(catalogue, numbering, clause, synonyms, replaced=area)
    return lines


def rule_heading(numbering: Numbering, clause: Clause, superseded: bool) -> str:
    number = numbering.number(clause.id)
    if superseded:
        first = numbering.replaced_by[clause.id][0]
        return f"{number} · {clause.id} ({SUPERSEDED_MARK} {numbering.number(first)}): {escape(clause.title)}"
    return f"{number} · {clause.id}: {escape(clause.title)}"


def _rule_lines(catalogue: Catalogue, numbering: Numbering, clause: Clause,
                synonyms: tuple[tuple[str, ...], ...], replaced: Area | None) -> list[str]:
    number = numbering.number(clause.id)
    heading = rule_heading(numbering, clause, superseded=replaced is not None)
    lines = [f".. index:: ! {number}", f"   ! {clause.id}", "", f".. _{rule_label(clause.id)}:", "",
             heading, "~" * len(heading), ""]
    body = _body_lines(catalogue, numbering, clause, synonyms)
    if replaced is None:
        return lines + body
    by = ", ".join(_rule_ref(numbering, cid) for cid in numbering.replaced_by[clause.id])
    version = replaced.version(replaced.default_version)
    lines += [f".. admonition:: Superseded wording: replaced by {by} in the {escape(version.title)}",
              "   :class: warning superseded", ""]
    return lines + [f"   {line}" if line else "" for line in body]


def _body_lines(catalogue: Catalogue, numbering: Numbering, clause: Clause,
                synonyms: tuple[tuple[str, ...], ...]) -> list[str]:
    source = catalogue.sources.get(clause.source.doc)
    where = source.title if source else clause.source.doc
    kind = KIND_WORDS.get(clause.kind, clause.kind)
    lines = [escape(" ".join(clause.statement.split())), "",
             f"**Source:** {escape(where)}, section \u201c{escape(clause.source.section)}\u201d"
             + (f" ({kind})." if kind else "."), ""]
    replaces = sorted((cid for cid, by in numbering.replaced_by.items() if clause.id in by), key=numbering.sort_key)
    if replaces:
        lines += ["**Replaces** the superseded " + ", ".join(_rule_ref(numbering, cid) for cid in replaces) + ".", ""]
    if clause.refs:
        lines += ["**Relies on** " + ", ".join(_rule_ref(numbering, r) for r in clause.refs) + ".", ""]
    note = judge_note(clause.notes)
    if note:
        lines += ["**Note:** " + _linked(catalogue, numbering, escape(note)), ""]
    for owner, decision in decisions_changing(catalogue, clause):
        lines += _decision_lines(numbering, clause, owner, decision)
    lines += rule_example_lines(clause.id, numbering, escape)
    lines += [f":ref:`Formal encodings and tests <{label(clause.id)}>`", ""]
    extra = synonyms_for(f"{clause.title} {clause.statement}", synonyms)
    if extra:
        lines += [".. rst-class:: search-words", "", "Also searched as: " + escape(", ".join(extra)) + ".", ""]
    return lines


def _decision_lines(numbering: Numbering, clause: Clause, owner: Clause, decision: Decision) -> list[str]:
    """The decision where the rule text is open: the reading applied, in one line, and the others named."""
    chosen = decision.option(decision.chosen)
    own = owner.id == clause.id
    target = [f".. _{decision_label(decision.id)}:", ""] if own else []
    head = "Open question" if own else f"Open question (settled at {_rule_ref(numbering, owner.id)})"
    lines = target + [f".. admonition:: {head}: {escape(' '.join(decision.question.split()))}",
                      "   :class: decision", "",
                      f"   **Reading applied:** {escape(judge_note(chosen.reading))}", ""]
    others = [f"``{o.id}`` ({escape(judge_note(o.reading))})" if judge_note(o.reading) else f"``{o.id}``"
              for o in decision.alternatives]
    if others:
        lines += ["   **Other readings:** " + "; ".join(others), ""]
    return lines


def _rule_ref(numbering: Numbering, clause_id: str) -> str:
    return f":ref:`{numbering.number(clause_id)} ({clause_id}) <{rule_label(clause_id)}>`"


def _linked(catalogue: Catalogue, numbering: Numbering, text: str) -> str:
    decisions = catalogue.decisions
    return link_references(
        text, lambda cid: _rule_ref(numbering, cid) if cid in numbering.numbers else cid,
        lambda did: f":ref:`the open question <{decision_label(did)}>`" if did in decisions else f"decision {did}")


def synonyms_script(groups: tuple[tuple[str, ...], ...]) -> str:
    """The synonym groups for the search scorer (``search_scorer.js``), as an inline script of every page."""
    return f"var CARDRULES_SYNONYMS = {json.dumps([list(g) for g in groups])};"


class RulesDirective(RstDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        for path in (NUMBERS_FILE, SYNONYMS_FILE, EXAMPLES_FILE):
            self.env.note_dependency(str(path))
        lines = rules_lines(default_catalogue(), default_numbers(), self.arguments[0], load_synonyms())
        return self.render(lines)
