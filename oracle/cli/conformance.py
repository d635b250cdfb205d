"""``cardrules conformance schema|generate|run|score|decisive|adapter`` (``decisive``: :mod:`.conformance_decisive`).

``schema`` prints the suite format's JSON Schema, or with ``--game`` one part of a game's formats
(:mod:`cardrules.oracle.conformance.formats`).

:func:`add_parser` registers the command group; ``oracle/cli/parser.py`` calls it.
Exit codes: 0 ok (``run``: every vector passed or was set apart, as unsupported, skipped, reading or known, and
one passed; ``generate``: every clause in force covered or excused), 1 a check failed (a vector failed, or none
passed; a clause uncovered; ``generate``: the model crashed on an action it tried, named by position, state and
action), ``score``: 1 when some clause area kills fewer than 95% of its non-equivalent mutants. 3 bad input (a
suite that fails validation, named with the JSON path of the problem; an adapter command that cannot start; an
unknown rule set; a known-differences file that cannot be used, named with its entry and field).
"""

from __future__ import annotations

import argparse
from contextlib import ExitStack
import importlib
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence, TextIO

from cardrules.model.games import GAME_NAMES
from cardrules.oracle.conformance import OPTION_SETS
from cardrules.oracle.cli.argtypes import MAX_EXAMPLES, MAX_JOBS, MAX_SECONDS, MAX_SEED, int_at_least, seconds_up_to
from cardrules.oracle.cli.common import EXIT_CHECK_FAILED, EXIT_INPUT, EXIT_OK, InputError

from cardrules.oracle.conformance.suite_files import DEFAULT_DIR, suite_files
from cardrules.specs.fileio import check_output_file

if TYPE_CHECKING:
    from cardrules.oracle.conformance.runner import Run


def add_parser(sub: Any) -> None:
    """Add ``conformance`` and its subcommands to the CLI's subparsers."""
    group = sub.add_parser(
        "conformance", help="conformance suites for other engines: schema, generate, run, score, adapter",
        description="Versioned test vectors tagged by rule clause (cardrules-vectors/4), a generator, a "
        "language-agnostic runner speaking JSON lines to an adapter, and the reference model as an adapter.",
    )
    commands = group.add_subparsers(dest="conformance_command", metavar="SUBCOMMAND", required=True)

    p = commands.add_parser(
        "schema", help="print the suite format's JSON Schema, or one game's formats: states, events, actions, refusals",
        description="Without --game: the JSON Schema (draft 2020-12) of the suite format cardrules-vectors/4 "
        "(/2 and /1 are still read). With --game G: one part of that game's formats, generated from the "
        "reference model: 'vectors' (the default: the suite schema with typed states), 'states' and 'events' "
        "(JSON Schemas), 'actions' (the action grammar, EBNF text) or 'refusals' (the refusal reasons and their "
        "clause IDs, text). Exit 3 for an unknown game, part or format.",
    )
    p.add_argument("--game", metavar="G", help=f"one game's formats ({', '.join(GAME_NAMES)})")
    p.add_argument("--part", metavar="P",
                   help="states, events, actions, refusals or vectors (default: vectors); needs --game")
    p.add_argument("--format", dest="output", metavar="F",
                   help="json or text (actions and refusals only; default: text for them, json otherwise)")
    p.set_defaults(handler=cmd_schema)

    p = commands.add_parser(
        "generate", help="generate conformance suites from the embedded scenarios",
        description="One suite per game and rule version, and one per selectable decision option (when it "
        "changes behaviour within the scenarios' bounds; an option that does not is reported as skipped): vectors "
        "chosen by greedy set cover over clause and outcome coverage. Prints suite sizes before and after minimisation and the "
        "coverage per clause; writes the suites and manifest.json atomically. Exit 1 if a clause in force is neither "
        "covered nor excused (conformance_excuse in the catalogue).",
    )
    p.add_argument("--game", choices=GAME_NAMES, help="only this game's suites")
    p.add_argument("--rule-set", action="append", metavar="R",
                   help="only this rule set (repeatable): 'default' or AREA=VERSION / DECISION=OPTION items")
    p.add_argument("--options", choices=OPTION_SETS, default="all",
                   help="decision options that get a suite: every one the model can select (all, the default; "
                   "broken variants are no options), or only those the scenarios' rule sets use (used, faster)")
    p.add_argument("--out", type=Path, default=DEFAULT_DIR, metavar="DIR", help="output folder (default: ./conformance)")
    p.add_argument("--seed", type=int_at_least(0, MAX_SEED), default=0, metavar="N", help="seed of the sampled candidates (default 0)")
    p.add_argument("--jobs", type=int_at_least(1, MAX_JOBS), default=min(2, os.cpu_count() or 1), metavar="N",
                   help="suites generated in parallel (default: 2, or 1 on one core)")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.add_argument("--decisive", action="store_true",
                   help="then, per clause in force in the version suites, the vectors that fail when its own code is "
                   "mutated (as `conformance decisive`: a long job); exit 1 if a clause covered "
                   "is never decisive and no reason is recorded")
    p.set_defaults(handler=cmd_generate)

    _add_run(commands)

    p = commands.add_parser(
        "score", help="mutation score of the suites: killed / survived mutants of the reference model per area",
        description="Run the suites against single-point mutants of the reference model (each in its own process, "
        "through the reference adapter in-process) and report per clause area the mutants killed and the survivors; "
        "equivalent mutants (equivalent.toml, with reasons) are not counted. Exit 0 when every area kills at least "
        "95% of its non-equivalent mutants, 1 otherwise, 3 bad input.",
    )
    p.add_argument("--suite", action="append", type=Path, metavar="PATH",
                   help="a suite file or a folder of them (repeatable; default: ./conformance)")
    from cardrules.oracle.cli.mutate import add_selection_options

    add_selection_options(p)
    p.add_argument("--no-record", action="store_true",
                   help="do not record a run of every mutant in .cardrules/results (or $CARDRULES_RESULTS_DIR)")
    p.set_defaults(handler=cmd_score)

    from cardrules.oracle.cli.conformance_decisive import add_decisive

    add_decisive(commands)

    p = commands.add_parser("adapter", help="run the reference model as an adapter on stdin/stdout",
                            description="Answer the runner's JSON-lines protocol with the reference model.")
    p.add_argument("--profile", choices=("full", "observable"), default=None,
                   help="the profile its hello declares and its state replies speak (default: full, or "
                   "$CARDRULES_ADAPTER_PROFILE)")
    p.set_defaults(handler=cmd_adapter)


def _add_run(commands: Any) -> None:
    """The ``run`` subcommand and its options."""
    p = commands.add_parser(
        "run", help="run conformance suites against an engine's adapter",
        description="Start the adapter (split like a shell would, never run through one), ask what it declares "
        "(hello: profile, features, readings), send each vector over JSON lines, and report the adapter's declaration, "
        "every difference grouped by kind (clause, action, field) with its shortest example, the per-clause table, each "
        "vector that did not pass (expected and got, missing and extra actions, a perft divide), and what the engine "
        "lacks. Vectors set apart are counted apart, never a failure nor a suspect: unsupported (the engine said so), "
        "skipped (a feature it did not declare), reading (a reading it declared), known (in the --known file). "
        "Exit 0 when every vector passed or was set apart (and at least one passed), 1 when any failed "
        "(fail, error, crashed, timeout, garbage) or none passed, 3 bad input (a suite, the adapter command, the "
        "--known file).",
    )
    p.add_argument("--adapter", required=True, metavar="CMD",
                   help='the adapter command, e.g. "cardrules conformance adapter"; run without a shell, so a pipe, '
                   "redirection, ';', '&&' or substitution in it (or a NUL byte) is bad input")
    p.add_argument("--suite", action="append", type=Path, metavar="PATH",
                   help="a suite file or a folder of them (repeatable; default: ./conformance)")
    p.add_argument("--timeout", type=seconds_up_to(MAX_SECONDS), default=10.0, metavar="S", help="seconds allowed per vector (default 10)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    p.add_argument("--junit", type=Path, metavar="FILE", help="also write JUnit XML")
    p.add_argument("--known", type=Path, metavar="FILE",
                   help="known differences (TOML, cardrules-known/1): the differences it matches are reported apart, "
                   "with their reasons, and entries that matched nothing are listed as stale")
    p.add_argument("--first-only", action="store_true",
                   help="stop each vector at its first difference (default: load the expected state and keep going, "
                   "so that every difference is reported)")
    p.add_argument("--live", action="store_true",
                   help="the live oracle: the reference model answers each position as the run goes, under the "
                   "adapter's declared readings (no --suite needed)")
    p.add_argument("--random", type=int_at_least(0, MAX_EXAMPLES), default=0, metavar="N",
                   help="with --live: also play N random games against the model and shrink any divergence (default 0)")
    p.add_argument("--seed", type=int_at_least(0, MAX_SEED), default=0, metavar="N",
                   help="with --live: the seed of the positions and random games (default 0)")
    p.set_defaults(handler=cmd_run)


def cmd_schema(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.oracle.conformance.formats.parts import FormatsError, render
    from cardrules.oracle.conformance.schema import schema_text

    if args.game is None:
        if args.part is not None or args.output is not None:
            raise InputError("--part and --format choose a part of one game's formats: give --game too")
        out.write(schema_text())
        return EXIT_OK
    try:
        text = render(args.game, args.part or "vectors", args.output)
    except FormatsError as problem:
        raise InputError(str(problem)) from None
    out.write(text)
    return EXIT_OK


def cmd_adapter(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.oracle.conformance.adapter import ReferenceAdapter, serve

    return serve(ReferenceAdapter(profile=args.profile), stdout=out)


def cmd_score(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.oracle.cli.mutate import load_suites_for, run_probe

    suites = [] if args.list else load_suites_for(args.suite)
    return run_probe(args, out, ["conformance"], suites, per_check=False, every_check=False, no_survivors=False,
                     record=not args.no_record)


def cmd_generate(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.oracle.conformance.candidates import GenerationError
    from cardrules.oracle.conformance.output import check_out, write_suites
    from cardrules.oracle.conformance.plan import SuitePlan, default_plans, plan_from_expression
    from cardrules.oracle.trace.coverage import pure_python_note
    from cardrules.properties.scenarios.rulesets import RuleSetError

    check_out(args.out)  # before minutes of generation: a folder that cannot be written is bad input
    note = pure_python_note()  # also before minutes of generation: CARDRULES_TRACER naming no tracer is bad input
    if note:
        print(f"cardrules: {note}", file=sys.stderr)
    plans: list[SuitePlan] = []
    try:
        for text in args.rule_set or []:
            plans.extend(plan_from_expression(text, args.game))
    except (RuleSetError, ValueError) as problem:
        raise InputError(str(problem)) from None
    plans = plans if args.rule_set else default_plans(args.game, args.options)
    plans = list({p.id: p for p in plans}.values())
    try:
        results, texts = _generate_all(plans, args.seed, args.jobs, args.quiet)
    except GenerationError as crash:
        print(f"cardrules: generation error: {crash}", file=sys.stderr)
        return EXIT_CHECK_FAILED
    write_suites(args.out, results, args.seed, texts)
    print_generation(results, out)
    out.write(f"wrote {sum(r.suite is not None for r in results)} suite(s) and manifest.json to {args.out}\n")
    decided = True
    if args.decisive:
        from cardrules.oracle.cli.conformance_decisive import decisive_rows, text_report

        rows, stale = decisive_rows([r.suite for r in results if r.suite is not None], profile="observable",
                                    jobs=args.jobs, reasons_path=None, quiet=args.quiet)
        out.write("\ndecisive vectors per clause (observable profile):\n" + text_report(rows, stale))
        decided = all(r.passes for r in rows)
    return EXIT_CHECK_FAILED if any(r.uncovered for r in results) or not decided else EXIT_OK


def _generate_all(plans: Sequence[Any], seed: int, workers: int, quiet: bool
                  ) -> tuple[list[Any], list[str | None]]:
    """The suites of ``plans``, in their order, and the text of each one's file, with a progress display:
    with ``workers`` > 1 on worker processes (:func:`~cardrules.oracle.conformance.parallel.generate_parallel`),
    each suite shown as it is done; else one family of plans after the other in this process, sharing the
    model's traced answers within a family."""
    from cardrules.oracle.conformance.generate import families, generate_family
    from cardrules.oracle.conformance.output import suite_text
    from cardrules.oracle.conformance.parallel import generate_parallel
    from cardrules.oracle.progress import RunProgress

    progress = RunProgress("conformance generate", len(plans), quiet=quiet)
    if workers > 1 and len(plans) > 1:
        def shown(index: int, result: Any, seconds: float) -> None:
            progress.finished(plans[index].id, _vectors(result), seconds)

        with ExitStack() as stack:  # the live display's thread starts once the workers are forked
            return generate_parallel(plans, seed, workers, shown, on_start=lambda: stack.enter_context(progress))
    results: dict[int, Any] = {}
    texts: dict[int, str | None] = {}
    with progress:
        for group in families(plans):
            made = generate_family([plans[i] for i in group], seed)
            for index in group:
                with progress.phase(plans[index].id) as phase:
                    results[index] = _shown(phase, next(made))
                    texts[index] = suite_text(results[index])
    return [results[i] for i in range(len(plans))], [texts[i] for i in range(len(plans))]


def _vectors(result: Any) -> str:
    """A generated suite's vector count, as its progress line shows it."""
    return f"{len(result.suite['vectors']) if result.suite else 0} vectors"


def _shown(phase: Any, result: Any) -> Any:
    """``result``, its vector count shown as its progress phase's result."""
    phase.result = _vectors(result)
    return result


def print_generation(results: Sequence[Any], out: TextIO) -> None:
    """Suite sizes before and after minimisation, then the coverage per clause (vectors per suite)."""
    made = [r for r in results if r.suite is not None]
    out.write("suites (candidates -> chosen by set cover, + perft and invalid-state = vectors; clauses covered):\n")
    for number, r in enumerate(made, 1):
        covered = sum(1 for n in r.coverage.values() if n)
        invalid = sum(v["kind"] == "invalid" for v in r.suite["vectors"])
        extra = f"+{len(r.suite['vectors']) - r.chosen - invalid} perft" + (f", +{invalid} invalid" if invalid else "")
        line = (f"  #{number:<2} {r.plan_id}: {r.candidates} -> {r.chosen} ({extra})"
                f" = {len(r.suite['vectors'])} vectors; {covered}/{len(r.coverage)} clauses")
        if r.excused:
            line += f"; excused {', '.join(sorted(r.excused))}"
        if r.uncovered:
            line += f"; UNCOVERED {', '.join(r.uncovered)}"
        out.write(line + "\n")
    for r in results:
        if r.suite is None:
            out.write(f"  skipped {r.plan_id}: {r.skipped}\n")
    clauses = sorted({c for r in made for c in r.coverage})
    if not clauses:
        return
    out.write("\ncoverage per clause (vectors exercising it, per suite #; '-' not in force, 'x' excused, '!' uncovered):\n")
    width = max(len(c) for c in clauses)
    out.write(" " * width + "  " + " ".join(f"{f'#{n}':>4}" for n in range(1, len(made) + 1)) + "\n")
    for clause in clauses:
        cells = []
        for r in made:
            count = r.coverage.get(clause)
            cells.append("-" if count is None else "x" if clause in r.excused else "!" if count == 0 else str(count))
        out.write(clause.ljust(width) + "  " + " ".join(f"{c:>4}" for c in cells) + "\n")


def cmd_run(args: argparse.Namespace, out: TextIO) -> int:
    from cardrules.oracle.conformance.declaration import HelloError
    from cardrules.oracle.conformance.grouping import step_actions
    from cardrules.oracle.conformance.known import classify, load_known
    from cardrules.oracle.conformance.process import AdapterCommandError, split_command
    from cardrules.oracle.conformance.report import print_report, results_json, run_passed, write_junit
    from cardrules.oracle.conformance.schema import SuiteError, load_suite

    if not args.timeout > 0:
        raise InputError("--timeout must be positive")
    if args.live:  # the live oracle's command module, imported only when asked for
        live = importlib.import_module("cardrules.oracle.cli.conformance_live")
        return int(live.run_live(args, out))
    if args.random:
        raise InputError("--random plays random games against the live oracle: give --live too")
    if args.junit is not None:
        check_output_file(args.junit)  # before the run: a bad path costs no minutes of work
    known = load_known(args.known) if args.known is not None else None  # a bad file too
    try:
        argv = split_command(args.adapter)
        suites = [load_suite(path) for path in suite_files(args.suite or [DEFAULT_DIR])]
        run = _run(argv, suites, args)
    except (SuiteError, AdapterCommandError, HelloError) as problem:
        raise InputError(str(problem)) from None
    results, declaration = run.results, run.declaration
    games = sorted({s["game"] for s in suites})
    names = [s["suite"] for s in suites]
    actions = step_actions(suites)
    if args.json:
        report = results_json(results, args.adapter, names, declaration=declaration, known=known, games=games,
                              actions=actions)
        out.write(json.dumps(report, indent=1) + "\n")
    else:
        print_report(results, out, declaration=declaration, known=known, games=games, actions=actions)
    if args.junit is not None:  # after the report: a failed write loses nothing already printed
        write_junit(results, str(args.junit), known=known, actions=actions)
    if known is not None:
        results = classify(results, known, actions).results
    return EXIT_OK if run_passed(results) else EXIT_CHECK_FAILED


def _run(argv: list[str], suites: list[Any], args: argparse.Namespace) -> Run:
    """Run the suites with a progress display: the adapter's declaration and every vector's result."""
    from cardrules.oracle.conformance.runner import run_with_progress

    total = sum(len(s["vectors"]) for s in suites)
    if not total:
        raise InputError(f"no vectors to run in {', '.join(s['suite'] for s in suites)}: nothing would be checked")
    return run_with_progress(argv, suites, args.timeout, keep_going=not args.first_only, quiet=args.quiet,
                             title="conformance run")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(EXIT_INPUT)
