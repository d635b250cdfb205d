"""Which of the clauses a change touches had their code run during ``cardrules diff``'s exploration.

A clause the change touches is *watchable* when code stands for it: a model
function linked to it with ``@implements`` (:func:`~cardrules.oracle.trace.coverage.model_clause_map`),
or a proposal's hook for an extension point that names it. A profile hook
watches the linked functions while the lockstep exploration runs (a profile
hook slows the model several times, so the separate property explorations
are not watched; a proposal's hooks are seen in both) and removes itself as
soon as every watchable clause has run, so a change exercised early costs
almost nothing; the hooks are wrapped to record their calls (and, while
:mod:`~cardrules.oracle.rulechange.decisive` records a step, their answers). A
watchable clause that never ran is reported as "changed but never exercised":
the scenarios never reach the situation it governs, so "no difference found"
says nothing about it.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from types import CodeType, FrameType
from typing import Any, Callable, Iterator

Hooks = tuple[tuple[str, Callable[..., Any]], ...]


class ClauseWatch:
    """Records which touched clauses' code ran while :meth:`watching` blocks run."""

    def __init__(self, game: str, touched: frozenset[str], hooks: Hooks = ()) -> None:
        from cardrules.model.extension import EXTENSION_POINTS
        from cardrules.oracle.trace.coverage import model_clause_map

        self.codes: dict[CodeType, tuple[str, ...]] = {}
        for code, clause_ids in model_clause_map().items():
            wanted = tuple(c for c in clause_ids if c in touched)
            if wanted:
                self.codes[code] = wanted
        self.hook_clauses = {name: tuple(c for c in point.clause_ids if c in touched)
                             for (point_game, name), point in EXTENSION_POINTS.items() if point_game == game}
        self.watchable = frozenset({c for ids in self.codes.values() for c in ids}
                                   | {c for name, _ in hooks for c in self.hook_clauses.get(name, ())})
        self.seen: set[str] = set()
        self._previous: Any = None

    @property
    def never(self) -> tuple[str, ...]:
        """The watchable clauses whose code never ran."""
        return tuple(sorted(self.watchable - self.seen))

    @property
    def done(self) -> bool:
        return self.seen >= self.watchable

    def wrap(self, hooks: Hooks) -> Hooks:
        """The hooks, each recording its extension point's clauses as exercised when called."""
        return tuple((name, self._recording(name, function)) for name, function in hooks)

    def _recording(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        clauses = self.hook_clauses.get(name, ())

        def recorded(*arguments: Any) -> Any:
            from cardrules.oracle.rulechange.decisive import record_hook

            self.seen.update(clauses)
            answer = function(*arguments)
            record_hook(name, answer)  # the decisive clause search records each hook's answer
            return answer

        return recorded

    def _profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            found = self.codes.get(frame.f_code)
            if found:
                self.seen.update(found)
                if self.done:
                    sys.setprofile(self._previous)

    @contextmanager
    def watching(self) -> Iterator[None]:
        """Run the block with the linked functions watched (not at all once every watchable clause ran)."""
        if self.done:
            yield
            return
        self._previous = sys.getprofile()
        sys.setprofile(self._profile)
        try:
            yield
        finally:
            sys.setprofile(self._previous)
