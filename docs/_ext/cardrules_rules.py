"""Sphinx extension part: the rules views, each rule area's rules written for judges.

An area's rules are split into pages of a few rules each (:func:`rules_pages`), so that no page
is much longer than ten screens: in reading order (by citable number,
:mod:`cardrules.specs.catalogue.numbers`), a section of the source's numbering per page, small
sections sharing one and a long section split. At ``builder-inited`` this writes
``rules/<area>.rst``, the area's index (its summary and every page with the numbers and titles
of its rules), and one ``rules/<area>-<section>-<n>.rst`` per page, named after its first rule's
number and holding ``.. cardrules-rules:: <area> <page>``. :func:`rule_page` is the one place
that says on which page a rule is: every producer of a raw link to a rule asks it (the hover
previews' data, and through them the playground); ``:ref:`` links find the page by themselves.

Each rule is its own section titled ``NUMBER · ID: title`` (a distinct search target), with
its statement, its source, the decisions that change its answer, its examples in the players'
words (:mod:`cardrules_examples`) and a link to its formal encodings and tests (a page per
clause, :mod:`cardrules_docs`). The current wording comes first; clauses of a superseded
wording follow on pages of their own, each in a marked box naming the current rule that
replaced it. :func:`rules_lines` (a whole area) and :func:`page_lines` (one page) are pure, so
tests render a view without a build.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
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


MAX_RULES_PER_PAGE = 5
"""Rules on one page of a rules view at most: a rule with its examples and board pictures takes one to
two screens at 1,280 px, so five stay within about ten (``tests/docs/test_site_in_browser.py`` measures)."""


@dataclass(frozen=True, slots=True)
class RulesPage:
    """One page of an area's rules view: its document name under ``rules/`` and its rules in reading order."""

    name: str
    clause_ids: tuple[str, ...]
    superseded: bool

    def span(self, numbering: Numbering) -> str:
        """``HEAL 2.9 to 2.12``: the numbers of its first and last rules."""
        first, last = numbering.number(self.clause_ids[0]), numbering.number(self.clause_ids[-1])
        return first if first == last else f"{first} to {last.split(' ', 1)[1]}"

    def title(self, area: Area, numbering: Numbering) -> str:
        return f"{area.title}{', superseded wording' if self.superseded else ''}: {self.span(numbering)}"


def _chunks(clause_ids: list[str], numbering: Numbering) -> list[list[str]]:
    """Consecutive rules in pages of at most :data:`MAX_RULES_PER_PAGE`: a section of the numbering per
    page where it fits, consecutive small sections sharing a page, a long section split evenly."""
    sections: dict[int, list[str]] = {}
    for clause_id in clause_ids:
        sections.setdefault(numbering.sort_key(clause_id)[0], []).append(clause_id)
    chunks: list[list[str]] = []
    current: list[str] = []
    for members in sections.values():
        if len(members) > MAX_RULES_PER_PAGE:
            if current:
                chunks.append(current)
                current = []
            parts = -(-len(members) // MAX_RULES_PER_PAGE)
            size = -(-len(members) // parts)
            chunks += [members[i:i + size] for i in range(0, len(members), size)]
        elif len(current) + len(members) > MAX_RULES_PER_PAGE:
            chunks.append(current)
            current = list(members)
        else:
            current += members
    if current:
        chunks.append(current)
    return chunks


def rules_pages(catalogue: Catalogue, numbering: Numbering, area_id: str) -> tuple[RulesPage, ...]:
    """The pages of an area's rules view, in reading order: the current rules, then the superseded ones."""
    area = catalogue.area(area_id)
    clauses = sorted(catalogue.select(area=area_id), key=lambda c: numbering.sort_key(c.id))
    pages: list[RulesPage] = []
    for superseded in (False, True):
        ids = [c.id for c in clauses if is_current(area, c) != superseded]
        for chunk in _chunks(ids, numbering):
            section, place = numbering.sort_key(chunk[0])
            pages.append(RulesPage(f"{area_id}-{section}-{place}", tuple(chunk), superseded))
    return tuple(pages)


def rule_page(catalogue: Catalogue, numbering: Numbering, clause_id: str) -> str:
    """The document (``rules/heal-2-7``) whose page shows a rule: what a raw link to ``#rule-<id>`` must name."""
    area = catalogue.clause(clause_id).area
    page = next(p for p in rules_pages(catalogue, numbering, area) if clause_id in p.clause_ids)
    return f"rules/{page.name}"


def write_rules_pages(app: Sphinx) -> None:
    """``rules/index.rst``, each area's index ``rules/<area>.rst`` and the pages of its rules (rewritten
    only when they change)."""
    catalogue = default_catalogue()
    numbering = default_numbers()
    pages = {"index.rst": rules_index(catalogue)}
    for area in catalogue.areas:
        parts = rules_pages(catalogue, numbering, area.id)
        pages[f"{area.id}.rst"] = "\n".join(area_index_lines(catalogue, numbering, area.id, parts)) + "\n"
        for index, part in enumerate(parts):
            title = escape(part.title(area, numbering))
            nav = _nav_line(area, numbering, parts, index)
            pages[f"{part.name}.rst"] = (f"{title}\n{'=' * len(title)}\n\n{nav}\n\n"
                                         f".. cardrules-rules:: {area.id} {part.name}\n\n{nav}\n")
    write_pages(Path(app.srcdir) / "rules", pages)


def _nav_line(area: Area, numbering: Numbering, parts: tuple[RulesPage, ...], index: int) -> str:
    """Previous page, the area's index, next page (``:doc:`` links, so a missing page fails the build)."""
    links = []
    if index > 0:
        links.append(f"\u2190 previous: :doc:`{escape(parts[index - 1].title(area, numbering))} <{parts[index - 1].name}>`")
    links.append(f":doc:`all the {escape(area.title)} rules <{area.id}>` (page {index + 1} of {len(parts)})")
    if index + 1 < len(parts):
        links.append(f"next: :doc:`{escape(parts[index + 1].title(area, numbering))} <{parts[index + 1].name}>` \u2192")
    return ".. rst-class:: rules-nav\n\n" + " \u00b7 ".join(links)


def area_index_lines(catalogue: Catalogue, numbering: Numbering, area_id: str,
                     parts: tuple[RulesPage, ...]) -> list[str]:
    """The reST of an area's rules index: its summary, its current wording, and every page of its rules with
    the number, ID and title of each rule on it."""
    area = catalogue.area(area_id)
    version = area.version(area.default_version)
    title = f"{area.title}: the rules"
    lines = [title, "=" * len(title), "", escape(judge_note(area.summary)), "",
             f"Current wording: **{escape(version.title)}**. Cite a rule by its number or its ID. "
             f"How each rule is encoded and tested: :doc:`the {escape(area.title)} reference page "
             f"<../areas/{area.id}>`.", ""]
    if any(p.superseded for p in parts):
        lines += ["The current rules come first; the rules of the superseded wording follow on pages of their "
                  "own, for reference only.", ""]
    by_id = {c.id: c for c in catalogue.select(area=area_id)}
    for part in parts:
        lines += [f"* :doc:`{escape(part.title(area, numbering))} <{part.name}>`", ""]
        lines += [f"  * {_rule_ref(numbering, cid)}: {escape(by_id[cid].title)}" for cid in part.clause_ids]
        lines.append("")
    lines += [".. toctree::", "   :hidden:", ""] + [f"   {part.name}" for part in parts]
    return lines + ["", *bookmark_redirect(parts)]


def bookmark_redirect(parts: tuple[RulesPage, ...]) -> list[str]:
    """A script for the area's index: a link to ``rules/<area>.html#rule-<id>`` (what every rule's address was
    while an area's rules were one page) goes on to the page that now shows that rule."""
    pages = {rule_label(cid): f"{part.name}.html" for part in parts for cid in part.clause_ids}
    script = ("(function(){var pages=" + json.dumps(pages, sort_keys=True, separators=(",", ":"))
              + ";var rule=decodeURIComponent(location.hash.slice(1));"
              "if(pages[rule]){location.replace(pages[rule]+'#'+rule);}})();")
    return [".. raw:: html", "", f"   <script>{script}</script>"]


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


def page_lines(catalogue: Catalogue, numbering: Numbering, area_id: str, page: str,
               synonyms: tuple[tuple[str, ...], ...]) -> list[str]:
    """The reST of one page of an area's rules view (:func:`rules_pages`): its rules, each a section; on a
    page of superseded rules, a warning first."""
    area = catalogue.area(area_id)
    part = next(p for p in rules_pages(catalogue, numbering, area_id) if p.name == page)
    lines: list[str] = []
    if part.superseded:
        lines += ["These rules are **not in force**: they belong to a wording that the current one replaced, "
                  "and each box names the current rule to apply instead.", ""]
    for clause_id in part.clause_ids:
        lines += _rule_lines(catalogue, numbering, catalogue.clause(clause_id), synonyms,
                             replaced=area if part.superseded else None)
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
    """``.. cardrules-rules:: AREA PAGE``: one page of an area's rules view (``AREA`` alone: all of them)."""

    required_arguments = 1
    optional_arguments = 1

    def run(self) -> list[nodes.Node]:
        for path in (NUMBERS_FILE, SYNONYMS_FILE, EXAMPLES_FILE):
            self.env.note_dependency(str(path))
        catalogue, numbering, synonyms = default_catalogue(), default_numbers(), load_synonyms()
        if len(self.arguments) == 1:
            return self.render(rules_lines(catalogue, numbering, self.arguments[0], synonyms))
        return self.render(page_lines(catalogue, numbering, self.arguments[0], self.arguments[1], synonyms))
