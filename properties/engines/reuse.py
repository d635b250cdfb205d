"""Expansions reused across states that differ only in a write-only log (speed only).

Some games keep in their state a log that the rules only ever write: each step
appends to it, or clears it, and nothing decides a legal action or a successor
by reading it (the FFTCG model's turn event log). Two states that differ only
in that log then have the same legal actions, and successors that differ only
in it too, yet a search stores them as different states (the log is part of
the state, as in the SPIN and TLC twins). In the FFTCG party scenario of the
benchmarks, 1,364,485 states have 72,366 distinct states without their log.

A game declares such a log with three methods (and may withdraw the
declaration for a rule set with ``log_is_write_only``, false: the FFTCG game
does so for a rule set carrying a rule-change proposal's code, which is
handed whole states and might read the log):

- ``split_log(state) -> (rest, log)``: everything in the state but its log (a
  hashable value: states with equal rests differ only in their logs), and the
  log;
- ``without_log(state) -> core``: the state with its log replaced by a
  placeholder the rules never write themselves;
- ``join_log(successor, log) -> state``: ``successor`` was reached from a core;
  give the successor of the state that had ``log``, by putting ``log`` where
  the placeholder is in the successor's log (a cleared log has none).

:class:`Expander` then lists a state's legal actions and successors once per
core, remembered in a bounded cache (emptied whole when full, so memory stays
bounded; the search's breadth-first order reaches a core's states close
together), and joins each state's own log to the remembered successors. A game
without the two methods is expanded directly, as is any search given
``reuse=False``: the states, indices and transitions found are the same.

The declaration is a claim about the game's code, so it is checked as the
search runs: every :data:`CHECK_EVERY`-th reused expansion, and every
:data:`CHECK_COMPUTED_EVERY`-th one computed from a new core (the first
included), is also computed directly from the state itself, and a difference
stops the search with :class:`UnsoundReuse`, naming the state. This is a
sample: a game that reads its log only in states the sample misses is not
caught. The tests compare whole explorations with and without reuse on every
embedded FFTCG scenario, and a search given ``reuse=False`` never relies on
the claim.
"""

from __future__ import annotations

from typing import Any, Callable, Generic, Hashable, Sequence, TypeVar, cast

S = TypeVar("S")
A = TypeVar("A")

CACHE_LIMIT = 1 << 15
"""Cores remembered at most; past it the cache is emptied and starts again."""

CHECK_EVERY = 64
"""One reused expansion in this many is also computed directly and compared."""

CHECK_COMPUTED_EVERY = 4
"""One expansion computed from a core in this many, the first included, is also computed directly from
the state itself and compared: a core's log is the placeholder, never the state's own."""


class UnsoundReuse(RuntimeError):
    """A game's write-only log was read: a reused expansion differs from the direct one."""


class Expander(Generic[S, A]):
    """A state's legal actions and successors, reused across states with the same core when the game
    declares a write-only log (see the module's docstring), else computed directly."""

    def __init__(self, game: Any, reuse: bool = True, check_every: int | None = None,
                 prepare: Callable[[S], S] | None = None) -> None:
        self.game = game
        self.prepare = prepare
        """Applied to each successor of a core before it is remembered (a codec's :meth:`interned`: the
        successors then share the search's own part objects, which it packs without hashing)."""
        self.legal_actions: Callable[[S], Sequence[A]] = game.legal_actions
        self.successor: Callable[[S, A], S] = getattr(game, "successor", None) or game.step
        split = getattr(game, "split_log", None)
        without = getattr(game, "without_log", None)
        join = getattr(game, "join_log", None)
        self.reusing = bool(reuse and split is not None and without is not None and join is not None
                            and getattr(game, "log_is_write_only", True))
        self.split_log: Callable[[S], tuple[Hashable, Any]] = cast("Callable[[S], tuple[Hashable, Any]]", split)
        self.without_log: Callable[[S], S] = cast("Callable[[S], S]", without)
        self.join_log: Callable[[S, Any], S] = cast("Callable[[S, Any], S]", join)
        self.cache: dict[Hashable, tuple[Sequence[A], list[S]]] = {}
        """A state's rest (all but its log) -> the legal actions and successors of its core."""
        self.check_every = check_every or CHECK_EVERY
        self.reused = 0
        """Expansions answered from the cache so far."""
        self.computed = 0
        """Expansions computed (of a core when reusing, else of the state itself)."""

    def direct(self, state: S) -> tuple[Sequence[A], list[S]]:
        """The legal actions of ``state`` and the successor of each, in order, from the game itself."""
        actions = self.legal_actions(state)
        successor = self.successor
        return actions, [successor(state, action) for action in actions]

    def expand(self, state: S) -> tuple[Sequence[A], list[S]]:
        """The legal actions of ``state`` (a state the search expands: not terminal, within its bounds)
        and the successor of each, in order."""
        if not self.reusing:
            self.computed += 1
            return self.direct(state)
        rest, log = self.split_log(state)
        found = self.cache.get(rest)
        if found is None:
            self.computed += 1
            found = self.direct(self.without_log(state))
            if self.prepare is not None:
                found = found[0], [self.prepare(successor) for successor in found[1]]
            if len(self.cache) >= CACHE_LIMIT:
                self.cache.clear()
            self.cache[rest] = found
            checked = self.computed % CHECK_COMPUTED_EVERY == 1  # the first (usually the root), then a sample
        else:
            self.reused += 1
            checked = self.reused % self.check_every == 0
        actions, successors = found
        join = self.join_log
        joined = [join(successor, log) for successor in successors]
        if checked:
            self._check(state, actions, joined)
        return actions, joined

    def _check(self, state: S, actions: Sequence[A], joined: list[S]) -> None:
        """Compare a reused expansion of ``state`` with the direct one."""
        direct_actions, direct_successors = self.direct(state)
        if tuple(direct_actions) != tuple(actions):
            raise UnsoundReuse(
                f"{getattr(self.game, 'name', 'the game')}: the legal actions of a state differ from those of "
                f"the same state with another log ({list(map(str, direct_actions))} against "
                f"{list(map(str, actions))}); the game's log is read, so it may not declare it write-only "
                f"(explore without reuse). The state: {_shown(self.game, state)}")
        for action, reused, direct in zip(actions, joined, direct_successors):
            if reused != direct:
                raise UnsoundReuse(
                    f"{getattr(self.game, 'name', 'the game')}: the successor by {action} differs from that of "
                    f"the same state with another log; the game's log is read, so it may not declare it "
                    f"write-only (explore without reuse). The state: {_shown(self.game, state)}")


def _shown(game: Any, state: Any) -> str:
    summary = getattr(game, "summary", None)
    try:
        return str(summary(state)) if summary is not None else repr(state)
    except Exception:  # noqa: BLE001  (a summary that fails must not hide the error being reported)
        return repr(state)
