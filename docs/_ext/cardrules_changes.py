"""Directives that show what a rule change changes: an area's clauses by version with z3's
contradictions, the two wordings side by side, and ``cardrules diff`` between two rule sets."""

from __future__ import annotations

from pathlib import Path

from cardrules.specs.catalogue import default_catalogue
from cardrules_rst import RstDirective, escape, label
from docutils import nodes
from docutils.parsers.rst import directives


class VersionDiffDirective(RstDirective):
    """What a rule change changes: clauses of one area by version, and the contradictions z3 finds
    when the versions are read as one text."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        from cardrules_shared import computed

        area = self.arguments[0]
        return self.render(computed(("version-diff", area), lambda: version_diff_lines(area)))


def version_diff_lines(area_id: str) -> list[str]:
    """The reST of ``.. cardrules-version-diff:: AREA`` (z3 searches each version, and all read as one)."""
    from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force
    from cardrules.specs.smt.consistency import Verdict, find_contradictions
    from cardrules.specs.smt.situations import SITUATIONS

    catalogue = default_catalogue()
    area = catalogue.area(area_id)
    versions = [v.id for v in area.versions]
    members = {v: set(clauses_in_force(area.id, RuleSet(versions={area.id: frozenset({v})}))) for v in versions}
    lines: list[str] = []
    everywhere = set.intersection(*members.values())
    for version in versions:
        only = [c for c in catalogue.select(area=area.id) if c.id in members[version] - everywhere]
        lines += [f"Only in ``{version}`` ({len(only)} clauses):", ""]
        lines += [f"* :ref:`{c.id} <{label(c.id)}>`: {escape(c.title)}" for c in only] + [""]
    lines += [f"In every version: {len(everywhere)} clauses.", ""]
    build = SITUATIONS.get(area.id)
    if build is None:
        return lines
    for chosen in [frozenset({v}) for v in versions] + ([frozenset(versions)] if len(versions) > 1 else []):
        rule_set = RuleSet(versions={area.id: chosen})
        report = find_contradictions(build(rule_set), clauses_in_force(area.id, rule_set))
        name = " and ".join(f"``{v}``" for v in sorted(chosen)) + (" read as one text" if len(chosen) > 1 else "")
        if report.verdict is Verdict.CONSISTENT:
            lines += [f"{name}: consistent (z3 finds no situation where its clauses conflict).", ""]
        elif report.verdict is Verdict.UNKNOWN:
            lines += [f"{name}: z3 could not decide ({escape(report.reason)}).", ""]
        else:
            lines += [f"{name}: {len(report.contradictions)} minimal sets of clauses that cannot all hold:", ""]
            for contradiction in report.contradictions:
                refs = ", ".join(f":ref:`{cid} <{label(cid)}>`" for cid in contradiction.clause_ids)
                when = "; ".join(f"{k}: {v}" for k, v in contradiction.situation.items())
                lines += [f"* {refs}", "", f"  when {escape(when)}", ""]
    return lines


class PairedWordingsDirective(RstDirective):
    """Two wordings of an area side by side, topic by topic.

    Arguments: the area and its two versions. Content: one line per topic,
    ``Topic: ID, ID | ID, ID`` (first version's clauses | second's); the
    statements come from the catalogue, and a clause not in the version its
    column names is a build error.
    """

    required_arguments = 3
    has_content = True

    def run(self) -> list[nodes.Node]:
        catalogue = default_catalogue()
        area, first, second = self.arguments
        lines = [".. list-table::", "   :header-rows: 1", "   :widths: 20 40 40", "",
                 "   * - topic", f"     - ``{first}``", f"     - ``{second}``"]
        for entry in self.content:
            if not entry.strip():
                continue
            topic, _, sides = entry.partition(":")
            columns = [[c.strip() for c in side.split(",") if c.strip()] for side in sides.split("|")]
            if len(columns) != 2:
                raise self.error(f"paired wordings: {entry!r} is not 'Topic: IDs | IDs'")
            lines.append(f"   * - {escape(topic.strip())}")
            for version, ids in zip((first, second), columns):
                cells = []
                for clause_id in ids:
                    clause = catalogue.clause(clause_id)
                    if clause.area != area or version not in clause.versions:
                        raise self.error(f"paired wordings: {clause_id} is not a {version} clause of {area}")
                    cells.append(f":ref:`{clause_id} <{label(clause_id)}>`: {escape(clause.statement)}")
                cells = cells or ["(nothing)"]
                lines.append(f"     - {cells[0]}")
                for cell in cells[1:]:
                    lines += ["", f"       {cell}"]
        return self.render(lines)


class RuleDiffDirective(RstDirective):
    """Behaviour differences between two rule sets, generated by ``cardrules diff`` (every scenario of the game).

    Arguments: rule set A, rule set B (as on the command line, e.g. ``heal=previous heal=revised``).
    """

    required_arguments = 2

    def run(self) -> list[nodes.Node]:
        from cardrules_shared import computed

        a, b = self.arguments
        lines = computed(("rule-diff", a, b), lambda: rule_diff_lines(a, b))
        self.env.note_dependency(str(Path(__file__)))
        return self.render(lines)


def rule_diff_lines(a_text: str, b_text: str) -> list[str]:
    """The reST of ``.. cardrules-rule-diff:: A B``: ``cardrules diff A B`` over every scenario of the game."""
    from cardrules.oracle.rulechange.lockstep import KINDS
    from cardrules.oracle.rulechange.report import run_diff
    from cardrules.oracle.selection import select_scenarios
    from cardrules.properties.scenarios.rulesets import parse_rule_set_expression

    a, b = (parse_rule_set_expression(text) for text in (a_text, b_text))
    game = a.game or b.game or "redemption"
    report = run_diff(game, a, b, [s for s in select_scenarios(None) if s.game == game], with_smt=False)
    explained = {
        "tightened": "an action allowed under the first is refused under the second",
        "relaxed": "an action refused under the first is allowed under the second",
        "changed": "the same action has another result",
    }
    lines = [f"Generated by ``cardrules diff {a.text} {b.text}`` over every {game} scenario "
             "(each explored completely within its turn bound).", ""]
    for scenario in report.scenarios:
        lines += [f"Scenario ``{scenario.scenario}``", "~" * (len(scenario.scenario) + 13), ""]
        if not scenario.differs:
            lines += [f"No difference in play ({escape(scenario.bound_text())}).", ""]
            continue
        for kind in KINDS:
            if kind not in scenario.examples:
                continue
            count = sum(scenario.by_depth[kind].values())
            lines += [f"**{kind.capitalize()}** ({explained[kind]}) in {count} reachable state(s); "
                      "the shortest scenario:", "", ".. code-block:: text", ""]
            lines += [f"   {line}" for line in report.narratives[scenario.scenario][kind]] + [""]
    if report.properties:
        lines += ["Properties with another verdict:", ""]
        lines += [f"* ``{p.property}`` in ``{p.scenario}``: broken under "
                  f"{'the second' if p.broken_under == 'B' else 'the first'} only" for p in report.properties]
        lines.append("")
    else:
        lines += ["Every property has the same verdict under both.", ""]
    return lines


class PlayDifferencesDirective(RstDirective):
    """What a rule change changes at the table, in the players' words, two columns side by side.

    Arguments: rule set A and rule set B (expressions, as on the command line). Options ``:first:`` and
    ``:second:``: the columns' headings. Content: one case per line, ``Title = EXAMPLE-ID: IDs | IDs``: a stored
    example (:mod:`cardrules.oracle.examples`) whose position and action are played again under A and
    under B on the model at build time, and the clauses that settle it under each (each must be in force
    under its rule set). The position is drawn (:mod:`cardrules_boards`); a case whose two rulings are the
    same, or a clause not in force under its column's rule set, is a build error.
    """

    required_arguments = 2
    has_content = True
    option_spec = {"first": directives.unchanged_required, "second": directives.unchanged_required}

    def run(self) -> list[nodes.Node]:
        from cardrules.oracle.examples import EXAMPLES_FILE

        self.env.note_dependency(str(EXAMPLES_FILE))
        try:
            lines = play_difference_lines(self.arguments[0], self.arguments[1], list(self.content),
                                          (self.options.get("first", "A"), self.options.get("second", "B")))
        except ValueError as problem:
            raise self.error(f"play differences: {problem}") from None
        return self.render(lines)


def play_difference_lines(a_text: str, b_text: str, cases: list[str], headings: tuple[str, str]) -> list[str]:
    """The reST of ``.. cardrules-play-differences::`` (see :class:`PlayDifferencesDirective`)."""
    from cardrules.oracle.examples import stored_examples
    from cardrules.oracle.examples.generate import outcome
    from cardrules.properties.scenarios.rulesets import parse_rule_set_expression
    from cardrules.specs.catalogue.numbers import default_numbers
    from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force

    catalogue = default_catalogue()
    examples = {e["id"]: e for e in stored_examples()}
    numbering = default_numbers()
    lines: list[str] = []
    for number, entry in enumerate((c for c in cases if c.strip()), 1):
        title, _, rest = entry.rpartition("=") if "=" in entry.partition(":")[0] else ("", "", entry)
        example_id, _, sides = rest.partition(":")
        example = examples.get(example_id.strip())
        if example is None:
            raise ValueError(f"no stored example {example_id.strip()!r}")
        columns = [[c.strip() for c in side.split(",") if c.strip()] for side in sides.split("|")] if sides else [[], []]
        if len(columns) != 2:
            raise ValueError(f"{entry!r} is not 'Title = EXAMPLE-ID: IDs | IDs'")
        results = []
        for text, ids in zip((a_text, b_text), columns):
            spec = parse_rule_set_expression(text).spec
            rule_set = RuleSet(versions={a: frozenset(v) for a, v in spec.versions.items()},
                               decisions=dict(spec.decisions))
            for clause_id in ids:
                area = catalogue.clause(clause_id).area
                if clause_id not in clauses_in_force(area, rule_set, catalogue):
                    raise ValueError(f"{clause_id} is not in force under {text}")
            results.append(outcome(example["game"], text, example["state"], example["actions"]))
        if results[0]["ruling"] == results[1]["ruling"]:
            raise ValueError(f"example {example['id']} gives the same ruling under {a_text} and {b_text}")
        lines += [f".. rubric:: Case {number}" + (f": {escape(title.strip())}" if title.strip() else ""), "",
                  f"**Position.** {escape(example['position'])}", "",
                  f".. cardrules-board:: {example['id']}", "   :zones:", "",
                  f"**Then.** {escape(results[1]['event'])}", "",
                  ".. grid:: 1 1 2 2", "   :gutter: 2", "   :class-container: play-difference", ""]
        for heading, result, ids in zip(headings, results, columns):
            cited = ", ".join(f":ref:`{numbering.number(c)} <rule-{c.lower()}>`" for c in ids)
            lines += [f"   .. grid-item-card:: {escape(heading)}", "",
                      f"      {escape(result['ruling'])}" + (f" ({cited})" if cited else ""), ""]
    return lines
