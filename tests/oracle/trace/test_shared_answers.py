"""The model's traced answers shared across rule sets (:mod:`cardrules.oracle.trace.shared`): an answer given
under another rule set is what tracing the model there finds (the result, the clauses and every outcome
feature), it is shared only where the options it read agree, and a model that reads an option behind the
configuration's back is caught."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cardrules.model.errors import IllegalAction
from cardrules.model.fftcg import state as fftcg_state
from cardrules.model.redemption.config import RuleConfig
from cardrules.oracle.trace.coverage import outcomes_exercised
from cardrules.oracle.trace.shared import SharedAnswers, UnsoundSharing, sharing_key
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.games import make_game
from cardrules.properties.scenarios import RuleSetSpec, load_scenarios

pytestmark = [pytest.mark.infrastructure("the conformance generator's traced answers shared across rule sets"),
              pytest.mark.usefixtures("each_tracer")]


def _direct(run: Any) -> tuple[Any, frozenset[str], frozenset[str]]:
    def call() -> Any:
        try:
            return run()
        except IllegalAction as refused:
            return refused

    return outcomes_exercised(call)


def _same(given: tuple[Any, frozenset[str], frozenset[str]], direct: tuple[Any, frozenset[str], frozenset[str]]) -> bool:
    if isinstance(given[0], IllegalAction):
        return isinstance(direct[0], IllegalAction) and given[0].clause_ids == direct[0].clause_ids and given[1:] == direct[1:]
    return given == direct


def _scenario(name: str) -> Any:
    [found] = [s for s in load_scenarios() if s.name == name]
    return found


@pytest.mark.parametrize("game, scenario, versions, option", [
    ("redemption", "redemption-side-battles-3p", {"heal": ("revised",)}, {"sb-return-territory": "permanent-controller"}),
    ("fftcg", "fftcg-party-basics", {}, {"ff-base-blocker-dulls": "dulls"}),
])
def test_answers_given_under_an_option_are_what_tracing_the_model_under_it_finds(
    game: str, scenario: str, versions: dict[str, tuple[str, ...]], option: dict[str, str],
) -> None:
    shared = SharedAnswers()
    start = _scenario(scenario)
    base = make_game(game, RuleSetSpec("base", versions, {}))
    other = make_game(game, RuleSetSpec("option", versions, option))
    assert sharing_key(base) == sharing_key(other)
    graph = explore(base, [base.state_from_json(start.state)], [], Bounds(max_states=60), keep_edges=True,
                    progress=False)
    assert graph.edges
    for view in (shared.view(base), shared.view(other)):  # recorded under the base, then given under the option
        for state in graph.states:
            if base.is_terminal(state):
                continue
            given = view.traced("legal", state, None, lambda: view.game.legal_actions(state))
            assert _same(given, _direct(lambda: view.game.legal_actions(state)))
        for source, _, action in graph.edges:
            state = graph.states[source]
            given = view.traced("step", state, action, lambda: view.game.step(state, action))
            assert _same(given, _direct(lambda: view.game.step(state, action)))
    assert shared.given > len(graph.edges) // 2  # most answers did not depend on the option


def test_an_answer_that_read_a_changed_option_is_not_given_under_it() -> None:
    """``RED-SB-RETURN-TERRITORY`` reads ``sb-return-territory``: asked under the other option, the answer is
    traced afresh, and it is the model's answer there."""
    shared = SharedAnswers()
    calls: list[str] = []

    def option_of(config: RuleConfig) -> str:
        calls.append("ran")
        return config.option("sb-return-territory")

    owner = make_game("redemption", RuleSetSpec("a", {}, {"sb-return-territory": "owner"}))
    controller = make_game("redemption", RuleSetSpec("b", {}, {"sb-return-territory": "permanent-controller"}))
    first = shared.view(owner).traced("probe", None, None, lambda: option_of(owner.config))
    second = shared.view(controller).traced("probe", None, None, lambda: option_of(controller.config))
    third = shared.view(controller).traced("probe", None, None, lambda: option_of(controller.config))
    assert (first[0], second[0], third[0]) == ("owner", "permanent-controller", "permanent-controller")
    assert shared.recorded == 2 and shared.given == 1  # traced under each option, given the second time
    assert calls[:2] == ["ran", "ran"]
    # the option method's own lines are features, as a direct trace finds them under each rule set
    assert first[2] == _direct(lambda: owner.config.option("sb-return-territory"))[2]
    assert second[2] == _direct(lambda: controller.config.option("sb-return-territory"))[2]


@dataclass(frozen=True)
class _Sneaky:
    """A game whose answer reads the options field directly, not through ``option``: the sharing cannot see
    the read, and the sampled check must catch the wrong answer."""

    config: RuleConfig

    def legal_actions(self, state: Any) -> tuple[str, ...]:
        return tuple(option for _, option in self.config.variants)


def test_a_model_reading_an_option_behind_the_configuration_is_caught() -> None:
    shared = SharedAnswers()
    first = shared.view(_Sneaky(RuleConfig.of({"sb-return-territory": "owner"})))
    second = shared.view(_Sneaky(RuleConfig.of({"sb-return-territory": "permanent-controller"})))
    assert first.traced("legal", "s", None, lambda: first.game.legal_actions("s"))[0] == ("owner",)
    with pytest.raises(UnsoundSharing, match="differs from the model's own"):
        second.traced("legal", "s", None, lambda: second.game.legal_actions("s"))


def test_a_refusal_is_shared_as_the_refusal() -> None:
    shared = SharedAnswers()
    game = make_game("fftcg", RuleSetSpec("default", {}, {}))
    root = game.state_from_json(_scenario("fftcg-party-basics").state)
    graph = explore(game, [root], [], Bounds(max_states=40), keep_edges=True, progress=False)
    assert graph.edges
    legal_here = set(game.legal_actions(root))
    action = next(a for _, _, a in graph.edges if a not in legal_here)  # legal later, refused at the start
    view = shared.view(game)
    traced, _, _ = view.traced("step", root, action, lambda: game.step(root, action))
    assert isinstance(traced, IllegalAction) and traced.clause_ids
    with pytest.raises(IllegalAction) as refused:  # the explorer's step: the refusal recorded, raised again
        view.step(root, action)
    assert shared.recorded == 1 and shared.given == 1
    assert refused.value.clause_ids == traced.clause_ids


@pytest.mark.clause("FF-BASE-BREAK-ZERO-POWER")
def test_the_first_copy_of_a_kind_in_a_process_adds_no_feature() -> None:
    """The compiled copier of a state class runs the first time the process copies that class with those
    fields, and never again: it is left out as a remembered function, so a step's features are the same the
    first time and after (a suite does not depend on which suites the process generated before)."""
    game = make_game("fftcg", RuleSetSpec("default", {}, {}))
    state = game.state_from_json(_scenario("fftcg-party-basics").state)
    action = game.legal_actions(state)[0]
    fftcg_state._REPLACERS.clear()
    fftcg_state._compiled.cache_clear()
    first = _direct(lambda: game.step(state, action))
    again = _direct(lambda: game.step(state, action))
    assert first == again
    assert not any("_make_replacer" in f or "_builder_class" in f for f in first[2])


def test_an_option_read_inside_a_remembered_look_up_is_seen() -> None:
    """The heal clauses in force under a rule set are a remembered look-up (``wording.heal_clauses``) that
    reads the redline options once per configuration: asked while an answer is recorded, so an answer that
    depends on them is not given to a rule set that reads the redline differently, and is given to one that
    differs only in an option it never asked."""
    from cardrules.model.redemption import wording

    shared = SharedAnswers()
    unchanged = RuleConfig.of({"redline-window": "unchanged"}, heal_version="previous")
    inserted = RuleConfig.of({"redline-window": "inserted"}, heal_version="previous")
    elsewhere = RuleConfig.of({"redline-window": "unchanged", "sb-return-territory": "permanent-controller"},
                              heal_version="previous")
    clause = next(iter(wording.heal_clauses(unchanged) - wording.heal_clauses(inserted)))
    answers = {}
    for config in (unchanged, inserted, elsewhere):
        wording.heal_clauses(config)  # remembered before the answer is asked: its body does not run by itself
        view = shared.view(_Sneaky(config))
        answers[config] = view.traced("probe", None, None, lambda c=config: wording.in_force(c, clause))[0]
    assert answers == {unchanged: True, inserted: False, elsewhere: True}
    assert shared.recorded == 2 and shared.given == 1


def test_an_untraced_answer_is_recorded_with_its_option_reads_and_given_where_they_agree() -> None:
    """``result`` (the explorer's and the targeted derivations' untraced asks) keeps what it worked out with
    the options it read: a rule set that reads ``sb-return-territory`` alike gets it without the model
    running, one that reads it otherwise gets the model's own answer there."""
    shared = SharedAnswers()
    calls: list[str] = []

    def option_of(config: RuleConfig) -> str:
        calls.append(config.option("sb-return-territory"))
        return calls[-1]

    owner = make_game("redemption", RuleSetSpec("a", {}, {"sb-return-territory": "owner"}))
    also_owner = make_game("redemption", RuleSetSpec("b", {}, {"sb-return-territory": "owner",
                                                               "sb-user-outside-battle": "any-player"}))
    controller = make_game("redemption", RuleSetSpec("c", {}, {"sb-return-territory": "permanent-controller"}))
    answers = [shared.view(game).result("probe", None, None, lambda g=game: option_of(g.config), remember=True)
               for game in (owner, also_owner, controller)]
    assert answers == ["owner", "owner", "permanent-controller"]
    # the second rule set's answer was given (the model ran again only as the sampled check of a given answer)
    assert shared.given == 1 and calls == ["owner", "owner", "permanent-controller"]
    assert shared.recorded == 0  # nothing traced: no features are kept for it


def test_an_untraced_answer_is_never_given_as_a_traced_one() -> None:
    """An answer worked out untraced has no features: asked traced later, the model is traced."""
    shared = SharedAnswers()
    game = make_game("fftcg", RuleSetSpec("default", {}, {}))
    root = game.state_from_json(_scenario("fftcg-party-basics").state)
    view = shared.view(game)
    listed = view.result("legal", root, None, lambda: game.legal_actions(root), remember=True)
    traced = view.traced("legal", root, None, lambda: game.legal_actions(root))
    assert traced[0] == listed and shared.recorded == 1
    assert _same(traced, _direct(lambda: game.legal_actions(root)))
    assert traced[2]  # the outcome features of listing, not the empty set of an untraced answer


def test_a_remembered_look_up_of_another_games_configuration_is_not_asked() -> None:
    """``heal_clauses`` takes Redemption's configuration: an FFTCG rule set (whose configuration class has the
    same name) neither asks it afresh nor counts its reads, and its untraced answers are the model's; the
    FFTCG damage splits' look-up is FFTCG's alone."""
    shared = SharedAnswers()
    game = make_game("fftcg", RuleSetSpec("default", {}, {}))
    root = game.state_from_json(_scenario("fftcg-party-basics").state)
    view = shared.view(game)
    assert view.config_only == [] and view.config_only_reads() == []
    assert [cache.__name__ for cache in view.caches] == ["_remembered_splits"]  # FFTCG's own look-up only
    assert view.result("legal", root, None, lambda: game.legal_actions(root), remember=True) == game.legal_actions(root)
    redemption = shared.view(make_game("redemption", RuleSetSpec("previous", {"heal": ("previous",)}, {})))
    assert [cache.__name__ for cache in redemption.config_only] == ["heal_clauses"]
    assert [cache.__name__ for cache in redemption.caches] == ["heal_clauses"]
    # the heal clauses in force, and the heal wording, count as read by every untraced answer
    assert [(config, name, args, inside) for config, name, args, inside in redemption.config_only_reads()] == [
        (redemption.config, "heal_clauses", (), True), (redemption.config, "field:heal_version", (), True)]
    assert view.versions == [] and redemption.versions == ["heal_version"]


@pytest.mark.parametrize("traced", [True, False])
def test_a_remembered_look_up_of_the_configuration_is_compared_by_what_it_returns(traced: bool) -> None:
    """The heal clauses in force are worked out from the redline options, but under the revised wording no
    redline option changes them: an answer that asked them under the revised wording is given to a rule set
    of the revised wording with another redline option (nothing it asked answers otherwise), never to the
    previous wording, where that option changes which heal clauses are in force."""
    from cardrules.model.redemption import wording

    shared = SharedAnswers()
    revised = RuleConfig.of({}, heal_version="revised")
    revised_redline = RuleConfig.of({"redline-window": "unchanged"}, heal_version="revised")
    previous = RuleConfig.of({}, heal_version="previous")
    previous_redline = RuleConfig.of({"redline-window": "unchanged"}, heal_version="previous")
    assert wording.heal_clauses(revised) == wording.heal_clauses(revised_redline)  # what the rules say
    assert wording.heal_clauses(previous) != wording.heal_clauses(previous_redline)
    given = []
    for config in (revised, revised_redline, previous, previous_redline):
        view = shared.view(_Sneaky(config))
        before = shared.given
        if traced:
            found = view.traced("probe", None, None, lambda c=config: wording.heal_clauses(c))[0]
        else:
            found = view.result("probe", None, None, lambda c=config: wording.heal_clauses(c), remember=True)
        assert found == wording.heal_clauses(config)
        given.append(shared.given > before)
    # the versions differ, so the two wordings never share; within each, only the revised one shares
    assert given == [False, True, False, False]
    assert shared.recorded == (3 if traced else 0)


def _functions_reading(field: str, root: "Path | None" = None) -> set[str]:
    """Every read of ``field`` in the model's source (or the Python files under ``root``), as an attribute or by its name as a string (``getattr``, a
    pattern, ``asdict``'s keys), outside the configuration's own checks when it is made (``__post_init__``): the
    function it is in (``FILE:QUALNAME``, the outermost function for code nested in one; ``FILE:`` at a
    module's or class's top level)."""
    import ast

    import cardrules.model

    root = Path(next(iter(cardrules.model.__path__))) if root is None else root
    reading: set[str] = set()

    def walk(node: ast.AST, file: str, qualname: str, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if isinstance(child, ast.FunctionDef) and child.name == "__post_init__":
                    continue
                name = qualname if in_function else f"{qualname}.{child.name}".lstrip(".")
                walk(child, file, name, in_function or not isinstance(child, ast.ClassDef))
                continue
            read = ((isinstance(child, ast.Attribute) and child.attr == field and isinstance(child.ctx, ast.Load))
                    or (isinstance(child, ast.Constant) and child.value == field))
            if read:
                reading.add(f"{file}:{qualname if in_function else ''}")
            walk(child, file, qualname, in_function)

    for path in root.rglob("*.py"):
        walk(ast.parse(path.read_text(), str(path)), path.relative_to(root).as_posix(), "", False)
    return reading


def test_the_functions_said_to_read_a_version_field_are_all_that_read_it() -> None:
    """An answer that ran no line of the functions of :data:`VERSION_FIELDS` is shared across versions: so every
    read of a version field in the model's source must be in one of those functions (a read at a module's or a
    class's top level is not, and fails), or in the configuration's own checks when it is made; and every listed
    function must read it (a stale entry would hide nothing, but says the list is not kept)."""
    from cardrules.oracle.trace.shared import VERSION_FIELDS

    for field, functions in VERSION_FIELDS.items():
        reading = _functions_reading(field)
        outside = sorted(r for r in reading if r not in functions)
        assert outside == [], f"{field} is read in {outside}: add the functions to VERSION_FIELDS"
        assert set(functions) <= reading


def test_the_version_readers_are_found_in_the_source_as_the_tracer_names_them(tmp_path: Path) -> None:
    """The scan names a function as the tracer does (``FILE:QUALNAME``), a method by its class, and a read in a
    nested function by the function it is nested in; a read at a class's top level names no function."""
    import textwrap

    (tmp_path / "redemption").mkdir()
    (tmp_path / "redemption" / "probe.py").write_text(textwrap.dedent('''
        class Probe:
            kept = "heal_version"

            def method(self, config):
                return config.heal_version

        def outer(config):
            def inner():
                return [c.heal_version for c in [config]]
            return inner
    '''))
    assert _functions_reading("heal_version", tmp_path) == {"redemption/probe.py:", "redemption/probe.py:Probe.method",
                                                            "redemption/probe.py:outer"}


def _walked(game: Any, state: Any, texts: list[str]) -> Any:
    """The state reached from ``state`` by the listed actions of these texts, in turn."""
    for text in texts:
        [action] = [a for a in game.legal_actions(state) if game.action_text(a) == text]
        state = game.step(state, action)
    return state


def test_an_answer_is_shared_across_heal_wordings_only_where_the_wordings_answer_it_alike() -> None:
    """Under the previous heal wording, listing and stepping in a plain battle (no heal can be played) is given
    the revised wording's answer: the listing asks only whether clauses both wordings hold are in force. In a
    heal window the listing asks about clauses only one wording holds (RED-HEAL-PREV-HEALABLE), and refusing a
    heal out of its window runs the code that names the wording in its refusal (``healable.explain``): both
    are traced again. Either way the answer is what tracing finds there."""
    shared = SharedAnswers()
    revised = make_game("redemption", RuleSetSpec("revised", {"heal": ("revised",)}, {}))
    previous = make_game("redemption", RuleSetSpec("previous", {"heal": ("previous",)}, {}))
    plain = revised.state_from_json(_scenario("redemption-plain-battle").state)
    action = revised.legal_actions(plain)[0]
    start = revised.state_from_json(_scenario("redemption-heal-windows-taken").state)
    window = _walked(revised, start, ["attack 1 h0", "block e1", "pass"])
    assert "heal h0 with hc" in [revised.action_text(a) for a in revised.legal_actions(window)]
    given: dict[str, list[bool]] = {}
    for game in (revised, previous):
        view = shared.view(game)
        heal = game.action_from_text("heal h0 with hc")
        calls = [("legal", plain, None, lambda g=game: g.legal_actions(plain)),
                 ("step", plain, action, lambda g=game: g.step(plain, action)),
                 ("legal", window, None, lambda g=game: g.legal_actions(window)),
                 ("attempt", start, "heal h0 with hc", lambda g=game: g.step(start, heal))]
        given[game.config.heal_version] = []
        for kind, state, item, run in calls:
            before = shared.given
            found = view.traced(kind, state, item, run)
            given[game.config.heal_version].append(shared.given > before)
            assert _same(found, _direct(run))
    assert given == {"revised": [False, False, False, False], "previous": [True, True, False, False]}


def test_a_remembered_function_named_as_a_configuration_method_is_refused_even_after_views_were_made(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A remembered function of the configuration alone is a read named by its function's name; one named as a
    method of the configuration would be taken for that method's reads, so a view refuses it, also when views
    of the configuration class were made before the function was added (what a view works out of the class is
    kept by the remembered functions it was worked out from)."""
    from functools import lru_cache

    import cardrules.model.redemption.wording as wording

    game = make_game("redemption", RuleSetSpec("default", {}, {}))
    SharedAnswers().view(game)  # the class's shape worked out and kept

    @lru_cache(maxsize=None)
    def option(config: RuleConfig) -> str:
        return "a look-up named as RuleConfig.option"

    monkeypatch.setattr(wording, "option", option, raising=False)
    with pytest.raises(TypeError, match="named alike, or as its methods: \\['option'\\]"):
        SharedAnswers().view(game)
