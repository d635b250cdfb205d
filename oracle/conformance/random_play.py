"""Seeded random play against an engine over the adapter protocol, shrunk to the shortest divergence.

Each game starts at one of the game's embedded scenario positions (the roots the generated suites are
explored from), under one of the live plans of the game (:func:`.live.live_plans`: each rule version, with
the engine's declared readings), both drawn by the game's seeded generator (:func:`draw_start`). At each
step that :class:`random.Random`, seeded from the run's seed and the game's number, picks one
of the reference model's legal actions, until the game is over or ``max_steps`` actions were played. The
walk becomes a ``play`` vector (every step's state, legal actions and clauses, as a generated vector) and
runs through the runner, so that the engine's declared profile, macro steps and comparison points apply
exactly as for a suite file.

When the engine differs, the walk is shrunk, always replaying from the start: first the shortest prefix
that still differs; then, while the difference remains, each earlier action is dropped in turn (a
candidate the model refuses is not a game and is passed over), until no single drop keeps a difference.
Each round of candidates runs in one adapter session. The result is the shrunk vector's
:class:`VectorResult`, kind ``random``. Everything is deterministic for a seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Sequence

from cardrules.model.games import game_model
from cardrules.oracle.conformance import FORMAT
from cardrules.oracle.conformance.declaration import Declaration
from cardrules.oracle.conformance.generate import with_v4
from cardrules.oracle.conformance.live import live_plans
from cardrules.oracle.conformance.plan import SuitePlan, clauses_for
from cardrules.oracle.conformance.runner import VectorResult, run_adapter
from cardrules.oracle.conformance.vectors import listing, replay_steps, vector_id
from cardrules.properties.engines.exploration import Game
from cardrules.properties.games import make_game
from cardrules.properties.scenarios import Scenario, load_scenarios

__all__ = ["DIVERGED", "Divergent", "draw_start", "game_rng", "random_divergences", "random_play", "walk"]

DIVERGED = ("fail", "error", "crashed", "timeout", "garbage")
"""Verdicts that count as a divergence (a declared reading, a skip or ``unsupported`` do not)."""


def walk(game: Game[Any, Any], start: Any, rng: random.Random, max_steps: int) -> list[str]:
    """Action texts of one random game from ``start``: a legal action each step, picked by ``rng``."""
    state, texts = start, []
    for _ in range(max_steps):
        legal = sorted(game.action_text(a) for a in game.legal_actions(state))
        if not legal or game.is_terminal(state):
            break
        text = rng.choice(legal)
        texts.append(text)
        state = game.step(state, game.action_from_text(text))
    return texts


def _vector(game: Game[Any, Any], game_name: str, scenario: Scenario, texts: list[str],
            in_force: frozenset[str]) -> dict[str, Any] | None:
    """The ``play`` vector of ``texts`` from the scenario's start (``None``: the model refuses a step)."""
    root = game_model(game_name).load_state(scenario.state)
    try:
        legal, start_clauses = listing(game, root, in_force)
        steps, _ = replay_steps(game, root, texts, in_force)
    except Exception:  # an action the model refuses after a drop: not a game, not a candidate
        return None
    clauses = sorted(set(start_clauses).union(*(s["clauses"] for s in steps)))
    vector = {"id": vector_id(scenario.name, "random", texts), "kind": "play", "clauses": clauses,
              "narrative": f"{scenario.name}: a random game of {len(texts)} action(s)", "scenario": scenario.name,
              "state": game.state_to_json(root), "legal_actions": legal, "start_clauses": sorted(start_clauses),
              "steps": steps}
    return with_v4(game_name, vector)


def _suite(plan: SuitePlan, name: str, vectors: Sequence[dict[str, Any]]) -> dict[str, Any]:
    return {"format": FORMAT, "suite": name, "game": plan.game,
            "description": f"random play under {plan.expression}", "rule_set": plan.rule_set_json(),
            "clauses_in_force": list(clauses_for(plan)), "vectors": list(vectors)}


class _Trial:
    """Runs candidate walks of one game against the engine, one adapter session per round."""

    def __init__(self, argv: list[str], plan: SuitePlan, scenario: Scenario, name: str, timeout: float) -> None:
        self.argv, self.plan, self.scenario, self.name, self.timeout = argv, plan, scenario, name, timeout
        self.game = make_game(plan.game, plan.spec)
        self.in_force = frozenset(clauses_for(plan))

    def first_diverging(self, candidates: Sequence[list[str]]) -> tuple[list[str], VectorResult] | None:
        """The first candidate (in the order given) on which the engine diverges, with its result."""
        built = [(texts, v) for texts in candidates
                 if (v := _vector(self.game, self.plan.game, self.scenario, texts, self.in_force)) is not None]
        if not built:
            return None
        run = run_adapter(self.argv, [_suite(self.plan, self.name, [v for _, v in built])], self.timeout,
                          keep_going=False)
        for (texts, _), result in zip(built, run.results):
            if result.verdict in DIVERGED:
                return texts, result
        return None


def shrink(trial: _Trial, texts: list[str], result: VectorResult) -> tuple[list[str], VectorResult]:
    """The shortest diverging prefix, then single drops of earlier actions while a divergence remains."""
    found = trial.first_diverging([texts[:n] for n in range(len(texts) + 1)])
    if found is not None:
        texts, result = found
    while texts:
        found = trial.first_diverging([texts[:i] + texts[i + 1:] for i in range(len(texts))])
        if found is None:
            break
        texts, result = found
    return texts, result


@dataclass(frozen=True)
class Divergent:
    """One shrunk divergence: its result (kind ``random``) and a one-vector suite that replays it."""

    result: VectorResult
    suite: dict[str, Any]


def game_rng(seed: int, game: str, number: int) -> random.Random:
    """The generator of random game ``number`` of ``game`` in a run of ``seed``."""
    return random.Random(f"{seed}:{game}:{number}")


def draw_start(plans: Sequence[SuitePlan], scenarios: Sequence[Scenario],
               rng: random.Random) -> tuple[SuitePlan, Scenario]:
    """A random game's start: a scenario, then a live plan (drawn only when there are several, so that a game
    with one rule version plays the same games as before there was a choice)."""
    scenario = rng.choice(scenarios)
    return (plans[0] if len(plans) == 1 else rng.choice(plans)), scenario


def random_divergences(argv: list[str], declaration: Declaration, game: str, seed: int, games_count: int,
                       max_steps: int, timeout: float) -> list[Divergent]:
    """Play ``games_count`` random games of ``game``; one shrunk divergence per game that diverged."""
    plans = live_plans(declaration, [game])
    scenarios = [s for s in load_scenarios() if s.game == game]
    out: list[Divergent] = []
    for number in range(games_count):
        rng = game_rng(seed, game, number)
        plan, scenario = draw_start(plans, scenarios, rng)
        name = f"random-{plan.id}-seed-{seed}"
        trial = _Trial(argv, plan, scenario, name, timeout)
        texts = walk(trial.game, game_model(game).load_state(scenario.state), rng, max_steps)
        found = trial.first_diverging([texts])
        if found is None:
            continue
        texts, result = shrink(trial, *found)
        result.kind = "random"
        vector = _vector(trial.game, game, scenario, texts, trial.in_force)
        suite = _suite(plan, f"{name}-game-{number}", [dict(vector or {}, kind="play")])
        result.suite = suite["suite"]
        out.append(Divergent(result, suite))
    return out


def random_play(argv: list[str], declaration: Declaration, game: str, seed: int, games_count: int,
                max_steps: int, timeout: float) -> list[VectorResult]:
    """The results of :func:`random_divergences` (shrunk divergences, kind ``random``)."""
    return [d.result for d in random_divergences(argv, declaration, game, seed, games_count, max_steps, timeout)]
