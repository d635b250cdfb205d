"""A model crash while the generator tries an action is a generation error naming where, never a silent
"not refused": a derived refusal that crashes the model would otherwise vanish from the suite, and
with it the only vector aimed at its clause."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from cardrules.oracle.conformance.candidates import (
    GenerationError, explore_scenario, play_candidates, refusal_candidates, targeted_candidates,
)
from cardrules.oracle.conformance.plan import clauses_for, make_plan
from cardrules.oracle.conformance.targeted import load_positions

pytestmark = pytest.mark.infrastructure("the conformance generator's handling of a model crash")

PLAN = make_plan("redemption", {"heal": ("revised",)}, {})
POSITION = "conformance-redemption-heal-across-territories"


class CrashingOn:
    """The Redemption game, except that stepping one action text raises a RuntimeError (a model bug)."""

    def __init__(self, game: Any, text: str) -> None:
        self.game, self.text = game, text

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def step(self, state: Any, action: Any) -> Any:
        if self.game.action_text(action) == self.text:
            raise RuntimeError("model bug")
        return self.game.step(state, action)


def _graph() -> Any:
    [position] = [p for p in load_positions() if p.name == POSITION]
    in_force = frozenset(clauses_for(PLAN))
    return explore_scenario(position, PLAN, None, in_force), in_force


def test_a_crash_on_a_derived_refusal_names_the_position_the_state_and_the_action() -> None:
    graph, in_force = _graph()
    found = targeted_candidates(0, graph, in_force)
    # the model refuses the derived actions cleanly (IllegalAction): they stay refusal vectors
    assert found and all(c.kind == "refusal" and c.refused_by for c in found)
    first = found[0]
    crashing = replace(graph, game=CrashingOn(graph.game, first.action))
    with pytest.raises(GenerationError) as error:
        targeted_candidates(0, crashing, in_force)
    message = str(error.value)
    assert f"{POSITION} under heal=revised" in message and repr(first.action) in message
    assert f"state {first.source}:" in message and "RuntimeError: model bug" in message


def test_a_crash_on_a_sampled_refusal_or_on_the_base_rule_set_is_a_generation_error_too() -> None:
    import random

    graph, in_force = _graph()
    refusals = refusal_candidates(0, graph, in_force, random.Random(0))
    assert refusals
    crashing = replace(graph, game=CrashingOn(graph.game, refusals[0].action))
    with pytest.raises(GenerationError, match=POSITION):
        refusal_candidates(0, crashing, in_force, random.Random(0))
    # an option suite compares each play with its base rule set: a base that crashes is no "difference"
    ex = graph.exploration
    played = graph.game.action_text(ex.edges[0][2])
    with pytest.raises(GenerationError, match="model bug"):
        play_candidates(0, graph, in_force, CrashingOn(graph.game, played), "base", random.Random(0))


def test_the_generate_command_reports_a_crash_as_one_line_and_writes_nothing(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    from cardrules.oracle import cli
    from cardrules.oracle.conformance import generate

    def crash(*args: Any, **kwargs: Any) -> Any:
        raise GenerationError(f"{POSITION} under heal=revised, state 3: the model crashed on the action 'heal h0 "
                              "with hb' (RuntimeError: model bug) instead of playing or refusing it")

    monkeypatch.setattr(generate, "generate_suite", crash)
    code = cli.main(["conformance", "generate", "--rule-set", "heal=revised", "--out", str(tmp_path / "out"),
                     "--jobs", "1", "--quiet"], io.StringIO())
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("cardrules: generation error: ") and "'heal h0 with hb'" in err
    assert "Traceback" not in err and not (tmp_path / "out").exists()


def test_a_derived_text_that_does_not_parse_is_a_generation_error_not_a_missing_refusal() -> None:
    from cardrules.model.errors import ScenarioError

    graph, in_force = _graph()
    first = targeted_candidates(0, graph, in_force)[0]

    class Unparsable(CrashingOn):
        def action_from_text(self, text: str) -> Any:
            if text == self.text:
                raise ScenarioError("action", "unknown action")
            return self.game.action_from_text(text)

    with pytest.raises(GenerationError, match=r"does not parse .*out of step with the action grammar"):
        targeted_candidates(0, replace(graph, game=Unparsable(graph.game, first.action)), in_force)
