"""The bridge between the executable Redemption model and its independent z3 encoding
(:mod:`specs.smt.redemption`); the only module that imports both.

The comparison is made at the level of the rule decisions the clauses make. For a model
state (and the model's own successors), the bridge reads the *inputs* of an encoding's
situation off the state, fixes them in z3 together with every clause in force, and asks
z3 which *outputs* the clauses allow; the model's answer is read off the successor
states it produces. Each rule has one ``crosscheck_*`` function returning
:class:`Disagreement` records (state JSON, action, both answers, clause IDs):

- :func:`crosscheck_side_battle_plays`: the target pairs a side battle card may select and
  whether its ability takes effect (RED-SB-TARGET-ZONES, -TARGETS-TWO, -SAME-ALIGNMENT,
  -ONCE-PER-TURN, -RESTRICT-AFTER, -INSTANTANEOUS, RED-BASE-PARALYZED-NO-BATTLE), and for each
  offered play the set of control assignments with who chooses (the four control cases,
  RED-SB-SIDES-BATTLE-PLAYERS), the user's count, the new battle on top (RED-SB-SUSPEND)
  and the recorded 'came from a battle' (decision sb-in-battle-meaning); also the same
  character twice, whether the card may be played once restricted, whether the ability
  lasts, interrupt targets of an ended side battle and special initiative for a victim in a
  paused battle (RED-SB-NO-INTERRUPT-FROM-SUSPENDED), and the negation cascade
  (RED-SB-NEGATE-CASCADE), all in :mod:`oracle.crosscheck.redemption.side_battles`; the same for the side
  battle cards of players outside the battle, with z3 given the outsider as the user (decision
  sb-user-outside-battle: refused by default, used under ``any-player``);
- :func:`crosscheck_resolution`: from the numbers and fighters of a battle when play in it
  stops, the outcome, mission, discarded characters, heal window players, survivors'
  destinations and enhancements, the rescued Lost Soul and end-of-battle draws, against the
  model's resolution run to the end with every heal window declined (RED-BR-*, and for side
  battles RED-SB-RETURN-*, RED-SB-DEFEAT-NORMAL, RED-SB-RESUME);
- :func:`crosscheck_redirect_plays`: redirectable abilities, numbers targets (asked both
  ways), what a redirect may act on, new targets from the redirector's perspective, carrier,
  who chooses, whether it lasts, location and (for a card redirecting both) how many
  redirects after a redirect, the amount moved and which card gets it (RED-RD-*); :func:`crosscheck_phase_change`: ongoing redirects end with their phase;
- :func:`crosscheck_heals` (:mod:`oracle.crosscheck.redemption.heal`): in every position that offers
  heals (a heal window, initiative in battle, the phases outside battle), which heals each player
  who may act can use (every healer on every card in a territory, a battle or a discard pile) and,
  for every heal the model offers, what it does (RED-HEAL-*, both wordings), against the heal
  encoding put to use in a position (:mod:`specs.smt.redemption.heal_use`).

The inputs are raw facts of the position, never the model's bookkeeping: which card sits in
which list (a zone list, a side of a battle, a fighter's enhancements), printed owners and the
battle records' players (:mod:`oracle.crosscheck.redemption.position`); z3 derives from them control,
zones, permanent control, the side a character is on, 'in a battle', 'on a side opposed to a
player' and rescue access (:mod:`specs.smt.redemption.position`, each constraint with its clause
IDs). Where a fighter came from, which no position shows, and how many side battles each player
has initiated this turn (the side battle encoding's own ``count_after``) are the encoding's own log, carried by
:func:`crosscheck_many` along the model's steps from the first state (the exploration's root);
a state handed alone is a starting position, its fighters as it gives them.

Numbers in battle (for resolution) are computed through the redirect encoding
(:func:`card_numbers`: printed numbers, then every active numbers redirect applied by
RED-RD-NUMBERS-TRANSFER / RED-RD-NUMBERS-IN-BATTLE-ONLY).

Every comparison is two-way and reads z3's answer, never the model's: where the clauses should
force one answer (resolution outputs, a survivor's return, the numbers moved), anything but
exactly one z3 answer is a disagreement (``br-unique``, ``encoding-no-answer``,
``encoding-several-answers``), not a skipped state. Main battle survivors' homes and every
fighter's enhancements are z3's ``home`` / ``enh_discarded`` (RED-BR-RETURN-PERMANENT-CONTROLLER,
RED-BR-UNAFFECTED-NORMAL); the rescued Lost Soul is ``soul_rescued``; end-of-battle draws are
``end_fires`` (RED-BR-STEP3-END-ABILITIES, compared when a user has a card to draw). A side
battle or redirect card the model refuses entirely is compared too (z3 must then allow no
target), unless it is refused by a base rule no encoding reads (no own character in the active
battle to play the enhancement on, RED-BASE-ENHANCEMENTS, or a special initiative prompt): those
are counted as ``sb-refused-base-rule`` / ``rd-refused-base-rule``. ``out-of-scope`` counts only
resolutions the BR situation has no room for (more than :data:`specs.smt.redemption.resolution.K`
fighters a side, or an ability's heal window met while resolving). A decision variant the
encodings do not read raises :class:`OutOfScope` (:func:`config_key`).
"""

from __future__ import annotations

import time
from typing import Callable, Iterable

from cardrules.oracle.crosscheck.counts import comparison, recording
from cardrules.oracle.crosscheck.disagreement import Disagreement
from cardrules.model.redemption.actions import Action
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.engine import legal_actions, step
from cardrules.model.redemption.state import State
from cardrules.oracle.crosscheck.redemption.common import (
    ENCODED_AREAS, READ_DECISIONS, CrosscheckReport, EncodingNoAnswer, OutOfScope, Query, config_key, unread_variants,
    br_query, rd_query, sb_query, rule_set_of,
)
from cardrules.oracle.crosscheck.redemption.position import Logs
from cardrules.oracle.crosscheck.redemption.redirect import (
    transfer, card_numbers, crosscheck_phase_change, crosscheck_redirect_plays, fighter_numbers,
)
from cardrules.oracle.crosscheck.redemption.heal import clear_heal_caches, crosscheck_heals, heal_logs
from cardrules.oracle.crosscheck.redemption.resolution import crosscheck_resolution, resolution_starts
from cardrules.oracle.crosscheck.redemption.side_battles import (
    SideBattleAnswer, sb_answer, crosscheck_side_battle_plays, side_battle_answer, side_battle_counter,
)

__all__ = [
    "ENCODED_AREAS", "READ_DECISIONS", "CrosscheckReport", "EncodingNoAnswer", "OutOfScope", "Query", "SideBattleAnswer",
    "card_numbers", "clear_caches", "crosscheck_many", "crosscheck_phase_change", "crosscheck_redirect_plays",
    "crosscheck_resolution", "crosscheck_side_battle_plays", "crosscheck_state", "fighter_numbers",
    "resolution_starts", "rule_set_of", "side_battle_answer", "unread_variants",
]


def clear_caches() -> None:
    """Forget every solver (after monkeypatching an encoding, in tests)."""
    for cached in (sb_query, br_query, rd_query, sb_answer, transfer):
        cached.cache_clear()
    clear_heal_caches()


# --- everything ---------------------------------------------------------------------------------------------

TransitionCheck = Callable[[State, Action, State, RuleConfig, CrosscheckReport], list[Disagreement]]


def crosscheck_state(state: State, config: RuleConfig = DEFAULT, report: CrosscheckReport | None = None,
                     logs: Logs | None = None) -> list[Disagreement]:
    """Every per-state and per-transition check from ``state`` (each legal action is stepped once).
    ``logs``: the encoding's logs of the play so far (:class:`~oracle.crosscheck.redemption.position.Logs`),
    which this extends to every successor; without them ``state`` is a starting position."""
    report = report if report is not None else CrosscheckReport()
    config_key(config)  # a variant the encodings do not read is an error here, not a silent default
    logs = logs if logs is not None else Logs(side_battle_counter(config))
    log = logs.of(state)
    discards = heal_logs(logs)
    with comparison():  # each block below is one comparison (oracle.crosscheck.counts)
        found = crosscheck_side_battle_plays(state, config, report, log)
    with comparison():
        try:
            found += crosscheck_redirect_plays(state, config, report)
        except EncodingNoAnswer as e:
            found.append(_no_answer(state, "(redirect plays)", e, report))
    found += crosscheck_heals(state, config, report, log, discards.of(state))  # its own comparisons
    for action in legal_actions(state, config):
        after = step(state, action, config)
        logs.record(state, after)
        discards.record(state, after, log)
        report.transitions += 1
        with comparison():
            try:
                found += crosscheck_resolution(state, action, after, config, report, log)
            except OutOfScope as e:
                report.count("out-of-scope")
                report.out_of_scope.append(f"{action.text()}: {e}")
            except EncodingNoAnswer as e:
                found.append(_no_answer(state, action.text(), e, report))
        with comparison():
            found += crosscheck_phase_change(state, action, after, config, report, log)
    return found


def _no_answer(state: State, text: str, error: EncodingNoAnswer, report: CrosscheckReport) -> Disagreement:
    """An encoding that gave no or several answers, as a disagreement (not as out of scope)."""
    report.count("encoding-no-answer")
    return Disagreement("encoding-no-answer", state.to_json(), text, error.answers, f"one answer ({error})",
                        error.clause_ids)


def crosscheck_many(states: Iterable[State], config: RuleConfig = DEFAULT) -> CrosscheckReport:
    """:func:`crosscheck_state` over many states, with counts of every decision compared. The
    states come in the order of a play or a breadth-first exploration (each reached by a step of an
    earlier one, the first a starting position): the encoding's log is carried along those steps
    (``log-starts`` counts the states taken as starting positions)."""
    report = CrosscheckReport()
    logs = Logs(side_battle_counter(config))
    started = time.perf_counter()
    with recording() as counts:
        for state in states:
            report.states += 1
            report.disagreements.extend(crosscheck_state(state, config, report, logs))
    report.count("log-starts", logs.starts)
    report.clauses = dict(counts)
    report.seconds = time.perf_counter() - started
    return report
