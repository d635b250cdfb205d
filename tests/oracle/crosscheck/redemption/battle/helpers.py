"""Small hand-built positions of the battle fragment and their breadth-first explorations."""

from __future__ import annotations

from typing import Callable

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.scenario import evil, evil_enh, good_enh, hero, position, soul
from cardrules.model.redemption.state import State
from cardrules.oracle.crosscheck.redemption.battle import SOURCE_PHASES
from cardrules.properties.engines.explore import Bounds, explore
from cardrules.properties.redemption.game import RedemptionGame


def root_rescue() -> State:
    """1 Hero vs 1 Evil Character, a Lost Soul in bondage; player 0 already has four rescued souls,
    so a successful rescue wins the game. Each side holds one matching numbers enhancement."""
    cards = [
        hero("h1", 0, 3, 3), evil("e1", 1, 2, 3),
        good_enh("g1", 0, 2, 0), evil_enh("x1", 1, 0, 2),
        soul("s1", 1), *[soul(f"r{k}", 1) for k in range(4)],
    ]
    return position(cards, {
        0: {"territory": ["h1"], "hand": ["g1"], "redemption": [f"r{k}" for k in range(4)]},
        1: {"territory": ["e1"], "hand": ["x1"], "bondage": ["s1"]},
    }, 2)


def root_two_heroes() -> State:
    """2 Heroes (blue, green) vs 1 Evil Character with two Lost Souls; numbers enhancements in both
    hands, of matching and non-matching brigades (and a good one in the evil player's hand). In
    the next turn player 1 may put the Hero k1 from hand into play and challenge player 0, whose
    Evil Character f1 (which could not attack) may block; its enhancement g3 now matches k1."""
    cards = [
        hero("h1", 0, 3, 3), hero("h2", 0, 2, 2, ("green",)), evil("e1", 1, 3, 3),
        good_enh("g1", 0, 2, 0), good_enh("g2", 0, 1, 1, brigades=("green",)),
        good_enh("g4", 0, 1, 0, brigades=("purple",)),
        evil_enh("x1", 1, 0, 2), evil_enh("x2", 1, 2, 0, brigades=("black",)), good_enh("g3", 1, 1, 1),
        soul("s1", 1), soul("s2", 1), evil("f1", 0, 1, 1), hero("k1", 1, 2, 2),
    ]
    return position(cards, {
        0: {"territory": ["h1", "h2", "f1"], "hand": ["g1", "g2", "g4"]},
        1: {"territory": ["e1"], "hand": ["x1", "x2", "g3", "k1"], "bondage": ["s1", "s2"]},
    }, 2)


def root_challenge() -> State:
    """A battle challenge (no Lost Soul), player 1's turn: a Hero vs two Evil Characters of
    different brigades, enhancements for each."""
    cards = [
        hero("h1", 1, 3, 4), evil("e1", 0, 2, 2), evil("e2", 0, 1, 3, ("gray",)),
        good_enh("g1", 1, 1, 1), evil_enh("x1", 0, 2, 0, brigades=("gray",)), evil_enh("x2", 0, 0, 1),
    ]
    state = position(cards, {
        1: {"territory": ["h1"], "hand": ["g1"]},
        0: {"territory": ["e1", "e2"], "hand": ["x1", "x2"]},
    }, 2, active=1)
    return state


def root_draws() -> State:
    """Equal numbers, so mutual destruction (both discarded, two heal windows) and, with a
    toughness enhancement on each side, stalemate are reachable; a 0-toughness Hero is defeated
    even unblocked."""
    cards = [
        hero("h1", 0, 2, 2), hero("h0", 0, 1, 0), evil("e1", 1, 2, 2),
        good_enh("g1", 0, 0, 1), evil_enh("x1", 1, 0, 1),
        soul("s1", 1),
    ]
    return position(cards, {
        0: {"territory": ["h1", "h0"], "hand": ["g1"]},
        1: {"territory": ["e1"], "hand": ["x1"], "bondage": ["s1"]},
    }, 2)


ROOTS: tuple[Callable[[], State], ...] = (root_rescue, root_two_heroes, root_challenge, root_draws)


def reachable(root: State, config: RuleConfig, turns: int = 2) -> list[State]:
    """Every state the model reaches from ``root`` within ``turns`` turns (``properties.engines.explore``
    BFS bounded by turns: the first draw-phase states after them are included, not expanded)."""
    return explore(RedemptionGame(config), [root], [], Bounds(max_turns=root.turn + turns - 1)).states


def sources(states: list[State]) -> list[State]:
    """The states the cross-check takes as sources (every phase, see ``SOURCE_PHASES``)."""
    return [s for s in states if s.phase in SOURCE_PHASES]
