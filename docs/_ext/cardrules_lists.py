"""Directives that list what the project ships: the versions of every rule area, every property,
every embedded scenario, and the generated pictures."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardrules.specs.catalogue import default_catalogue
from cardrules_rst import RstDirective, escape, label
from docutils import nodes


class VersionsDirective(RstDirective):
    def run(self) -> list[nodes.Node]:
        catalogue = default_catalogue()
        lines: list[str] = []
        for area in catalogue.areas:
            lines += [f"* **{escape(area.title)}** (``{area.id}``)", ""]
            for version in area.versions:
                count = len(catalogue.select(area=area.id, version=version.id))
                default = ", default" if version.id == area.default_version else ""
                lines.append(f"  * ``{version.id}`` ({count} clauses{default}): {escape(version.description)}")
            lines.append("")
        return self.render(lines)


class PropertiesDirective(RstDirective):
    """Every property, from the registry every engine reads."""

    def run(self) -> list[nodes.Node]:
        from cardrules.properties.games import ALL_PROPERTIES as PROPERTIES

        lines: list[str] = []
        for game in sorted({p.game for p in PROPERTIES}):
            title = {"fftcg": "Final Fantasy TCG", "redemption": "Redemption CCG"}.get(game, game)
            lines += [title, "-" * len(title), ""]
            for prop in sorted((p for p in PROPERTIES if p.game == game), key=lambda p: p.name):
                lines += [f"``{prop.name}`` ({prop.kind} property{'' if prop.must_hold else ', known gap'})", ""]
                lines += [f"   {escape(prop.statement)}", ""]
                refs = ", ".join(f":ref:`{cid} <{label(cid)}>`" for cid in prop.clause_ids)
                lines += [f"   Clauses: {refs}."]
                if prop.versions:
                    applies = "; ".join(f"{area}: {', '.join(sorted(v))}" for area, v in prop.versions.items())
                    lines += ["", f"   Applies to: {applies}."]
                lines.append("")
        return self.render(lines)


class ScenariosDirective(RstDirective):
    """Every embedded scenario with its rule sets and mutants."""

    def run(self) -> list[nodes.Node]:
        from cardrules.properties.scenarios import load_scenarios

        lines: list[str] = []
        for scenario in load_scenarios():
            lines += [f"``{scenario.name}`` ({scenario.game})", "-" * (len(scenario.name) + len(scenario.game) + 7), ""]
            lines += [escape(scenario.description), ""]
            bounds = ", ".join(
                f"{name} {value}" for name, value in
                (("turns", scenario.max_turns), ("depth", scenario.max_depth), ("states", scenario.max_states))
                if value is not None
            )
            lines += [f":Bounds: {bounds or 'none'}", f":File: ``properties/scenarios/{scenario.file}``"]
            rule_sets = "; ".join(
                f"``{r.name}``" + (f" ({escape(describe_rule_set(r))})" if describe_rule_set(r) else "") for r in scenario.rule_sets
            )
            lines.append(f":Rule sets: {rule_sets}")
            if scenario.mutants:
                mutants = "; ".join(
                    f"``{m.name}`` ({escape(describe_rule_set(m))}) must break {', '.join(f'``{p}``' for p in m.expect_violated)}"
                    for m in scenario.mutants
                )
                lines.append(f":Mutants: {mutants}")
            lines.append("")
            for mutant in scenario.mutants:
                lines += [f".. cardrules-picture:: counterexample-{scenario.name}:{mutant.name}", ""]
            lines.append("")
        return self.render(lines)


class PictureDirective(RstDirective):
    """``.. cardrules-picture:: NAME``: a picture drawn at build time (see ``cardrules_pictures``)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        from cardrules_pictures import write_picture

        path, caption = write_picture(self.arguments[0], Path(self.env.srcdir) / "_generated")
        lines = [f".. figure:: /_generated/{path.name}", "   :figclass: cardrules-picture", "", f"   {escape(caption)}", ""]
        return self.render(lines)


def describe_rule_set(rule_set: Any) -> str:
    parts = [f"{area} {', '.join(v)}" for area, v in rule_set.versions.items()]
    parts += [f"{d} = {o}" for d, o in rule_set.decisions.items()]
    parts += [f"broken variant {b}" for b in getattr(rule_set, "broken", ())]
    return "; ".join(parts)


