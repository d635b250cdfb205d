"""Who may act next in a battle: initiative and the PLAY prompt (layer 2 of the model).

Every rule area hands the decision back to the player with initiative
through :func:`play_prompt`; :data:`WAITING` names the decisions that must be
answered first.

Clause IDs: RED-BASE-INITIATIVE.
"""

from __future__ import annotations

from cardrules.model.fastcopy import replace

from cardrules.model.redemption.config import RuleConfig
from cardrules.model.redemption.standing import outcome
from cardrules.model.redemption.state import Battle, Outcome, Prompt, PromptKind, State
from cardrules.specs.catalogue.registry import implements


@implements("RED-BASE-INITIATIVE")
def initiative(state: State, battle: Battle, config: RuleConfig) -> int:
    """Who may play next in a battle (RED-BASE-INITIATIVE).

    The player whose side is losing; at a tie (stalemate or mutual
    destruction) the battling player who did not play the last card. When
    neither did (a side battle a player outside the battle started, decision
    ``sb-user-outside-battle = any-player``), the first battling player.
    """
    standing = outcome(state, battle, config)
    first, second = battle.players
    if standing is Outcome.SIDE0_WINS:
        return second
    if standing is Outcome.SIDE1_WINS:
        return first
    return second if battle.last_player == first else first


@implements("RED-BASE-INITIATIVE")
def opener(state: State, placer: int, config: RuleConfig) -> int:
    """Who counts as having played the last card when a battle opens, before anyone has played in it
    (decision ``red-base-first-initiative``): the player who put the last card in, ``placer`` (the
    blocker of a main battle, the user of a side battle; battle-opener), or always the turn's player
    (attacker)."""
    return state.active if config.option("red-base-first-initiative") == "attacker" else placer


@implements("RED-BASE-INITIATIVE")
def play_prompt(state: State, config: RuleConfig) -> State:
    """Give the active battle's initiative holder, under the run's ``config``, the next decision."""
    battle = state.active_battle
    assert battle is not None
    return replace(state, prompt=Prompt(PromptKind.PLAY, initiative(state, battle, config)))


@implements("RED-BASE-INITIATIVE")
def pass_hands_over(state: State, config: RuleConfig) -> State | None:
    """A pass by the player asked to play (decision ``red-base-pass-ends``): under one-pass it ends play in
    the battle (``None``: the dispatcher goes on to the battle's end). Under both-pass play ends only
    when both battling players pass in succession: the first pass asks the other battling player to play
    (``passed`` set; any other action clears it, :func:`after_action`), and a pass in answer ends play."""
    if state.passed or config.option("red-base-pass-ends") == "one-pass":
        return None
    battle = state.active_battle
    assert battle is not None and state.prompt is not None
    first, second = battle.players
    other = second if state.prompt.player == first else first
    return replace(state, passed=True, prompt=Prompt(PromptKind.PLAY, other))


def after_action(before: State, after: State) -> State:
    """Clear ``passed`` once the action answering a pass is taken (decision ``red-base-pass-ends``)."""
    return replace(after, passed=False) if before.passed and after.passed else after


WAITING: frozenset[PromptKind] = frozenset({PromptKind.SPECIAL_INITIATIVE, PromptKind.HEAL_WINDOW, PromptKind.CHOOSE_SIDES})
"""Decisions that must be answered before the player with initiative plays again."""


def play_prompt_unless_waiting(state: State, config: RuleConfig) -> State:
    """``play_prompt``, unless a decision (special initiative, a heal window) is still open."""
    if state.prompt is not None and state.prompt.kind in WAITING:
        return state
    return play_prompt(state, config)
