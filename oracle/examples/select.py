"""Picking the positions that illustrate each clause, from runs of the executable model.

The runs: every embedded scenario (``properties/scenarios``), every
conformance position (``oracle/conformance/positions``, read as data) and the
few positions of this package (``positions/``: cases judges ask about that no
other run reaches, such as a healed character owned by another player) under
each of its rule sets, explored breadth first up to :data:`STATES_PER_RUN`
states. Every step is taken under the clause tracer
(:func:`cardrules.oracle.trace.coverage.clauses_exercised`), so each step
says which clauses in force decided it; actions played elsewhere in the same
run but not legal in a state are tried there too, and the clauses the model's
refusal names are the clauses that forbid it.

For each clause the pick is the most telling step: one whose visible result
is what the clause is about (:data:`WITNESSES`, for the rules a judge asks
about most) first, then the step in which the fewest other clauses took part,
then the shallowest. A clause that forbids something (its refusals exist) also
gets the refusal a player would ask about. Everything here is deterministic:
the same model gives the same picks.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from cardrules.model.errors import IllegalAction, ScenarioError
from cardrules.oracle.trace.coverage import clauses_exercised
from cardrules.properties.games import make_game
from cardrules.properties.scenarios.loader import RuleSetSpec, Scenario, load_scenario, load_scenarios
from cardrules.specs.catalogue import default_catalogue
from cardrules.specs.catalogue.rulesets import RuleSet, clauses_in_force

STATES_PER_RUN = 400
"""States expanded per (position, rule set): every clause is reached well within it, and the whole
selection takes under a minute on one core."""
CANDIDATES = 6
"""Steps kept per clause, so that the examples can spread over different steps."""
REFUSAL_STATES = 120
"""States of a run (the first, breadth first) at which actions from elsewhere in the run are tried."""
POSITIONS_DIR = Path(__file__).resolve().parents[1] / "conformance" / "positions"
"""The conformance positions: scenario files whose positions aim at single clauses."""

OWN_POSITIONS_DIR = Path(__file__).resolve().parent / "positions"
"""Positions written for examples, in the scenario format (``properties/scenarios/loader.py``)."""

Witness = Callable[[str, dict[str, Any], str, dict[str, Any]], bool]
"""(game, state before as JSON, action text, state after as JSON) -> whether the step shows the clause's effect."""


@dataclass(frozen=True)
class Run:
    """One position explored under one rule set."""

    source: str
    """The scenario or conformance position's name."""
    game: str
    rules: str
    """The rule set as an expression (``default``, ``heal=previous``, ``DECISION=OPTION,...``)."""
    spec: RuleSetSpec
    state: Any


@dataclass(frozen=True, order=True)
class Pick:
    """A step of a run that illustrates a clause: from ``state`` (JSON), ``action`` is played or refused."""

    key: tuple[int, int, int, int]
    """Smaller is better: (no witness, clauses in the step, depth, run order)."""
    game: str = field(compare=False)
    rules: str = field(compare=False)
    source: str = field(compare=False)
    state: dict[str, Any] = field(compare=False, hash=False)
    action: str = field(compare=False)
    kind: str = field(compare=False)
    """``play`` or ``refusal``."""
    clauses: tuple[str, ...] = field(compare=False)
    """The clauses in force that took part in the step (for a refusal: that the refusal names)."""
    step: tuple[int, int, str] = field(compare=False)
    """Which step it is: (run order, the state's hash, the action)."""


def rules_expression(spec: RuleSetSpec) -> str | None:
    """The expression of a scenario's rule set (None when it reads several wordings of one area as one)."""
    items = []
    for area, versions in sorted(spec.versions.items()):
        if len(versions) != 1:
            return None
        items.append(f"{area}={versions[0]}")
    items += [f"{decision}={option}" for decision, option in sorted(spec.decisions.items())]
    return ",".join(items) or "default"


def sources() -> list[Scenario]:
    """The embedded scenarios, the conformance positions, then the positions of this package (cases a
    judge asks about that no other run reaches), each by name."""
    positions = [load_scenario(path) for folder in (POSITIONS_DIR, OWN_POSITIONS_DIR)
                 for path in sorted(folder.glob("*.json"))]
    return list(load_scenarios()) + positions


def runs() -> Iterator[Run]:
    for scenario in sources():
        for spec in scenario.rule_sets:
            rules = rules_expression(spec)
            if rules is not None:
                yield Run(scenario.name, scenario.game, rules, spec, scenario.state)


def in_force(game: str, spec: RuleSetSpec) -> frozenset[str]:
    catalogue = default_catalogue()
    rule_set = RuleSet({a: frozenset(v) for a, v in spec.versions.items()}, dict(spec.decisions))
    return frozenset(c for area in catalogue.areas if area.game == game
                     for c in clauses_in_force(area.id, rule_set, catalogue))


class Picker:
    """The best plays and refusals seen so far for every clause (up to :data:`CANDIDATES` each, distinct
    steps, best first)."""

    def __init__(self, witnesses: dict[str, Witness], untraced: frozenset[str] = frozenset(),
                 refusal_witnesses: dict[str, Witness] | None = None) -> None:
        self.witnesses = witnesses
        self.refusal_witnesses = refusal_witnesses or {}
        self.untraced = untraced
        """Clauses whose code the tracer cannot see (data, such as an enumeration): their witness alone
        picks their step."""
        self.plays: dict[str, list[Pick]] = {}
        self.refusals: dict[str, list[Pick]] = {}

    @staticmethod
    def offer(table: dict[str, list[Pick]], clause: str, pick: Pick) -> None:
        kept = table.setdefault(clause, [])
        if len(kept) == CANDIDATES and not pick < kept[-1]:
            return
        if any(k.step == pick.step for k in kept):
            return
        kept.append(pick)
        kept.sort()
        del kept[CANDIDATES:]

    def explore(self, order: int, run: Run) -> None:
        """Explore one run breadth first, offering every step and every refusal tried."""
        game = make_game(run.game, run.spec)
        force = in_force(run.game, run.spec)
        root = game.state_from_json(run.state)
        seen = {root}
        queue: deque[tuple[Any, int]] = deque([(root, 0)])
        expanded: list[tuple[Any, int, frozenset[str]]] = []
        pool: list[str] = []
        while queue and len(expanded) < STATES_PER_RUN:
            state, depth = queue.popleft()
            if game.is_terminal(state):
                continue
            legal = game.legal_actions(state)
            texts = frozenset(game.action_text(a) for a in legal)
            expanded.append((state, depth, texts))
            step = Step(order, run, depth, state, game.state_to_json(state))
            for action in legal:
                text = game.action_text(action)
                if text not in pool:
                    pool.append(text)
                after, clauses = clauses_exercised(lambda: game.step(state, action))
                self._offer_play(step, text, game.state_to_json(after), clauses & force, self.untraced & force)
                if after not in seen:
                    seen.add(after)
                    queue.append((after, depth + 1))
        for state, depth, texts in expanded[:REFUSAL_STATES]:
            as_json = game.state_to_json(state)
            foreign = [t for t in pool + off_target(run.game, as_json, pool) if t not in texts]
            self._refusals(Step(order, run, depth, state, as_json), game, foreign, force)

    def _offer_play(self, step: "Step", text: str, after: dict[str, Any], clauses: frozenset[str],
                    untraced: frozenset[str]) -> None:
        for clause in clauses | untraced:
            witness = self.witnesses.get(clause)
            shown = witness is not None and witness(step.run.game, step.before, text, after)
            if clause not in clauses and not shown:
                continue
            key = (0 if shown else 1, len(clauses), step.depth, step.order)
            self.offer(self.plays, clause, step.pick(key, text, "play", tuple(sorted(clauses))))

    def _refusals(self, step: "Step", game: Any, foreign: list[str], force: frozenset[str]) -> None:
        for text in foreign:
            try:
                game.step(step.state, game.action_from_text(text))
            except IllegalAction as refused:
                cited = tuple(sorted(c for c in refused.clause_ids if c in force))
            except (ScenarioError, ValueError, KeyError, IndexError):
                continue  # an action that names what is not there: no rule refuses it
            else:
                continue
            for clause in cited:
                witness = self.refusal_witnesses.get(clause)
                shown = witness is not None and witness(step.run.game, step.before, text, {})
                pick = step.pick((0 if shown else 1, len(cited), step.depth, step.order), text, "refusal", cited)
                self.offer(self.refusals, clause, pick)


@dataclass(frozen=True)
class Step:
    """A state of a run from which actions are played or tried."""

    order: int
    run: Run
    depth: int
    state: Any
    before: dict[str, Any]

    def pick(self, key: tuple[int, int, int, int], text: str, kind: str, clauses: tuple[str, ...]) -> Pick:
        return Pick(key, self.run.game, self.run.rules, self.run.source, self.before, text, kind, clauses,
                    (self.order, hash(self.state), text))


def off_target(game: str, state: dict[str, Any], pool: list[str]) -> list[str]:
    """Heals of the run aimed at a card that is not a character (a Lost Soul, an enhancement), which no
    other run plays: the refusal a player asks about when a heal names the wrong kind of card."""
    if game != "redemption":
        return []
    others = [c["id"] for c in state["cards"] if c["type"] != "character"]
    heals = [t.split() for t in pool if t.startswith("heal ")]
    return sorted({f"heal {card} with {words[3]}" for words in heals for card in others})


def pick_all(witnesses: dict[str, Witness], untraced: frozenset[str] = frozenset(),
             refusal_witnesses: dict[str, Witness] | None = None) -> Picker:
    """Explore every run and keep, per clause, its best plays and its best refusals."""
    picker = Picker(witnesses, untraced, refusal_witnesses)
    for order, run in enumerate(runs()):
        picker.explore(order, run)
    return picker
