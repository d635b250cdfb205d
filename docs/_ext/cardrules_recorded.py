"""The recorded results the site shows: the latest complete ``cardrules verify`` and
``cardrules conformance score`` runs (``.cardrules/results``), rendered as reST, or why there are none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardrules_rst import escape

REPO = Path(__file__).resolve().parents[2]


def plain_reason(reason: str) -> str:
    """Why nothing is shown, as reST for a reader of the site: paths relative to the checkout (a built site
    names no folder of the machine that built it) and `commands` as literals, not raw backticks."""
    text = reason.replace(str(REPO) + "/", "")
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: show the text as it is
        return escape(text)
    return "".join(f"``{part}``" if index % 2 else escape(part) for index, part in enumerate(parts))


def recorded_verify(env: Any) -> Any:
    """The checkout's recorded ``cardrules verify`` summary (a RecordedVerify), or why there is none."""
    from cardrules.oracle.verify.results import VERIFY_RESULT, read_verify_result

    folder = REPO / ".cardrules" / "results"
    env.note_dependency(str(folder / VERIFY_RESULT))
    return read_verify_result(folder)


def recorded_score(env: Any) -> Any:
    """The checkout's recorded ``cardrules conformance score`` (a RecordedScore), or why there is none."""
    from cardrules.oracle.verify.results import SCORE_RESULT, read_score_result

    folder = REPO / ".cardrules" / "results"
    env.note_dependency(str(folder / SCORE_RESULT))
    return read_score_result(folder)


def score_lines(recorded: Any) -> list[str]:
    """The 'Conformance mutation score' table: per clause area, the mutants of the model the suites kill."""
    lines = [".. rubric:: Conformance mutation score", ""]
    if isinstance(recorded, str):
        return lines + [f"No recorded score to show: {plain_reason(recorded)}.", ""]
    summary = recorded.summary
    commit = f" at commit ``{summary['commit']}``" if summary.get("commit") else ""
    goal = f"{summary['goal']:.0%}"
    lines += [f"The latest complete ``cardrules conformance score`` ({summary['recorded']}{commit}): every "
              f"single-point mutant of the reference model run against {len(summary.get('suites', []))} suites "
              f"({summary.get('vectors', 0):,} vectors); equivalent mutants are not counted. The goal, at least "
              f"{goal} killed in every area, is {'met' if summary['goal_met'] else '**not met**'}.", "",
              ".. list-table::", "   :header-rows: 1", "",
              "   * - area", "     - mutants", "     - equivalent", "     - killed", "     - score"]
    for area, t in summary["areas"].items():
        score = "-" if t.get("score") is None else f"{100 * t['score']:.1f}%"
        lines += [f"   * - {escape(area)}", f"     - {t['mutants']:,}", f"     - {t['equivalent']:,}",
                  f"     - {t['killed']:,} of {t['counted']:,}", f"     - {score}"]
    lines += ["", f"{len(summary['survivors']):,} mutants survived; ``cardrules conformance score`` lists them.", ""]
    if not recorded.current:
        lines += [".. warning::", "",
                  "   The model's sources changed after that run: this score is stale. "
                  "Run ``cardrules conformance score`` and rebuild.", ""]
    return lines


def verification_lines(recorded: Any) -> list[str]:
    """The 'Verification results' paragraph above the traceability table."""
    lines = [".. rubric:: Verification results", ""]
    if isinstance(recorded, str):
        return lines + [f"No recorded run to show: {plain_reason(recorded)}.", ""]
    summary = recorded.summary
    verdicts = ", ".join(f"{n} {v}" for v, n in summary["verdicts"].items())
    commit = f" at commit ``{summary['commit']}``" if summary.get("commit") else ""
    outcome = "every check passed" if not summary["failed"] else f"**{summary['failed']} checks failed**"
    lines += [f"The latest complete ``cardrules verify`` ({summary['recorded']}{commit}): {summary['checks']:,} "
              f"checks in {summary['runs']} runs, {outcome} ({verdicts}). The *verify* column counts the "
              "property checks (a property, on a scenario, rule set and engine) that name the clause.", ""]
    if not recorded.current:
        lines += [".. warning::", "",
                  "   The catalogue or the scenarios changed after that run: these results are stale. "
                  "Run ``cardrules verify`` and rebuild.", ""]
    return lines


