"""The side battle rule decisions, model against the side battle encoding (:func:`crosscheck_side_battle_plays`;
see :mod:`oracle.crosscheck.redemption.decisions`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import z3

from cardrules.oracle.crosscheck.counts import cached_with_notes
from cardrules.oracle.crosscheck.disagreement import Disagreement
from cardrules.model.redemption.actions import Action, Decline, Play, Sides, Use
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.engine import legal_actions, step
from cardrules.model.redemption.state import (
    Alignment, BattleKind, Effect, OriginKind, PromptKind, RecordStatus, State, Status,
)
from cardrules.specs.smt.redemption import position as pos
from cardrules.specs.smt.redemption import side_battle_terms as sb_terms
from cardrules.specs.smt.redemption import side_battle_vars as sb
from cardrules.specs.smt.redemption.common import NONE
from cardrules.oracle.crosscheck.redemption.common import (
    CrosscheckReport, EncodingNoAnswer, Key, characters_in, config_key, refused_by_base_rules, sb_query, rule_set_of,
)
from cardrules.oracle.crosscheck.redemption.side_battle_clarifications import (
    crosscheck_interrupt_plays, crosscheck_paused_victims, crosscheck_side_battle_negation,
)
from cardrules.oracle.crosscheck.redemption.position import (
    Log, Raw, SideBattleCounter, initial_log, raw_card, raw_stack, side_battles_of,
)


# --- side battles: inputs --------------------------------------------------------------------------

SBKey = tuple[tuple[tuple[int, int], ...], tuple[int, ...], int, int, int, bool, tuple[tuple[Raw, bool, bool], ...],
              tuple[bool, bool], tuple[bool, bool]]
"""The raw facts a side battle answer depends on: the battle records' players (bottom first), the
bondage sizes, the player count, the user, the user's side battles this turn (the encoding's own count,
carried in the log: :func:`side_battle_counter`), whether x is y,
per character its raw place (with the log's permanent controller), printed alignment and status, and per
player of the battle on top (in its record's order) whether a character besides x and y fights on their side
and whether their hand holds an interrupt or negate they may play there (:func:`_answers`)."""


def _answers(state: State, x: str, y: str) -> tuple[tuple[bool, bool], tuple[bool, bool]]:
    """Per player of the battle on top: another character on their side than x and y, and an interrupt or
    negate card in their hand of the alignment and a brigade of a character on their side (where the base
    rules let them play it, RED-BASE-ENHANCEMENTS; raw facts: the sides' lists, the hand, printed data)."""
    if not state.battles:
        return (False, False), (False, False)
    top = state.battles[-1]
    rests, answers = [], []
    for side in (0, 1):
        mine = [f.card for f in top.sides[side]]
        hand = [state.card(c) for c in sorted(state.zones[top.players[side]].hand)]
        rests.append(any(c not in (x, y) for c in mine))
        answers.append(any(
            card.ability in (Effect.INTERRUPT, Effect.NEGATE) and any(
                state.card(c).alignment is card.alignment and state.card(c).brigades & card.brigades for c in mine)
            for card in hand))
    return (rests[0], rests[1]), (answers[0], answers[1])


def _sb_fixed(state: State, user: int, x: str, y: str, log: Log) -> SBKey:
    """The raw facts of ``state`` the side battle situation reads for ``user`` selecting x and y
    (control, zones, permanent control and previous sides are derived from them in z3)."""
    players, bondage = raw_stack(state)
    chars = tuple((tuple(sorted(raw_card(state, c, log).items())), state.card(c).alignment is Alignment.GOOD,
                   state.has_status(c, Status.PARALYZED)) for c in (x, y))
    rests, answers = _answers(state, x, y)
    return players, bondage, state.players, user, side_battles_of(log, state)[user], x == y, chars, rests, answers


def _sb_constraints(v: sb.SBVars, fixed: SBKey) -> list[z3.BoolRef]:
    """The situation's inputs, derived by z3 from the raw facts (:mod:`specs.smt.redemption.position`)."""
    players, bondage, count_players, user, count, same, chars, rests, answers = fixed
    stack = pos.StackPos.of(players, bondage)
    top = stack.height - 1
    out = [v.players == count_players, v.user == user, v.count == count, v.used, v.same_card == same,
           v.p0 == stack.player0[top], v.p1 == stack.player1[top], v.m0 == stack.player0[0],
           v.m1 == stack.player1[0], v.nested == (stack.height > 1), v.rest_0 == rests[0], v.rest_1 == rests[1],
           v.answer_0 == answers[0], v.answer_1 == answers[1]]
    for c, (raw, hero, paralyzed) in zip(sb.CHARS, chars):
        p = pos.CardPos.of(dict(raw))
        out += [v.of("ctrl", c) == pos.control(p, stack), v.of("zone", c) == pos.sb_zone(p, stack),
                v.of("perm", c) == pos.permanent(p), v.of("prev_side", c) == pos.side_now(p),
                v.of("owner", c) == p.owner, v.of("hero", c) == hero, v.of("paralyzed", c) == paralyzed]
    return out


@dataclass(frozen=True)
class SideBattleAnswer:
    """What the side battle encoding says about one use of a side battle ability on (x, y)."""

    takes_effect: bool
    assignments: frozenset[tuple[int, int, int]]
    """(side_x, side_y, chooser) when it takes effect."""
    count_after: frozenset[int]
    players: frozenset[tuple[int, int]]
    came_from_battle: tuple[bool, bool]
    suspended: frozenset[bool] = frozenset()
    """Output ``suspended`` (RED-SB-SUSPEND: the paused battle waits under the new one)."""
    lasting: frozenset[bool] = frozenset()
    """Output ``lasting`` when it takes effect (RED-SB-INSTANTANEOUS: it acts once, when used)."""
    playable: frozenset[bool] = frozenset()
    """Output ``card_playable`` whether or not it takes effect (RED-SB-RESTRICT-AFTER decides it
    once the allowance is used up; otherwise the clauses leave it open)."""
    answerer: frozenset[int] = frozenset()
    """Output ``answerer`` when it takes effect: who may answer it before it starts (RED-BASE-SPECIAL-INITIATIVE)."""


@cached_with_notes(maxsize=100_000)
def sb_answer(key: Key, fixed: SBKey) -> SideBattleAnswer:
    query, v = sb_query(key), sb.SBVars.make()
    rs = rule_set_of(RuleConfig(heal_version=key[0], variants=key[1]))
    inputs = _sb_constraints(v, fixed)
    base = inputs + [v.takes_effect]
    playable = frozenset(p for (p,) in query.allowed(inputs, [v.card_playable]))
    if not query.possible(base):
        return SideBattleAnswer(False, frozenset(), frozenset(), frozenset(), (False, False), playable=playable)
    stack = pos.StackPos.of(fixed[0], fixed[1])
    came = tuple(pos.evaluate(sb_terms.in_a_battle(pos.sb_zone(pos.CardPos.of(dict(raw)), stack), rs)) for raw, _, _ in fixed[6])
    return SideBattleAnswer(
        True,
        frozenset(query.allowed(base, [v.side_x, v.side_y, v.chooser])),
        frozenset(c for (c,) in query.allowed(base, [v.count_after])),
        frozenset(query.allowed(base, [v.sb0, v.sb1])),
        (bool(came[0]), bool(came[1])),
        frozenset(x for (x,) in query.allowed(base, [v.suspended])),
        frozenset(x for (x,) in query.allowed(base, [v.lasting])),
        playable,
        frozenset(a for (a,) in query.allowed(base, [v.answerer])),
    )


def side_battle_answer(state: State, user: int, x: str, y: str, config: RuleConfig = DEFAULT,
                       log: Log | None = None) -> SideBattleAnswer:
    """The encoding's answer for ``user`` using a side battle ability on ``x`` and ``y`` in ``state``
    (``log``: the encoding's log of the play so far; by default ``state`` is a starting position)."""
    return sb_answer(config_key(config), _sb_fixed(state, user, x, y, initial_log(state) if log is None else log))


SB_PAIR_CLAUSES = ("RED-SB-TARGET-ZONES", "RED-SB-TARGETS-TWO", "RED-SB-SAME-ALIGNMENT", "RED-SB-ONCE-PER-TURN",
                   "RED-SB-RESTRICT-AFTER", "RED-SB-INSTANTANEOUS", "RED-BASE-PARALYZED-NO-BATTLE")
SB_CONTROL_CLAUSES = ("RED-SB-SIDES-BATTLE-PLAYERS", "RED-SB-CONTROL-OUTSIDERS", "RED-SB-CONTROL-ONE-INSIDER",
                      "RED-SB-CONTROL-SAME-UNMIXED", "RED-SB-CONTROL-SAME-MIXED")


def _model_side_battle(state: State, play: Play | Use,
                       config: RuleConfig) -> tuple[set[tuple[int, int, int]], list[State], int]:
    """What the model does with a side battle play: the (side_x, side_y, chooser) it offers or
    makes, the states with the new battle open, and the player it gives special initiative against
    the ability before its side battle starts (decision ``sb-answer-before-start``; NONE if nobody).

    After such a special initiative the comparison follows the answer being declined (the ability
    then acts, as z3's other outputs say it does); what an interrupt or negate of it does next is
    compared as any interrupt or negate is (the interrupt targets, the negation cascade) and checked
    by the model's properties (answered-side-battle-starts-nothing)."""
    x, y = sorted(play.targets)
    after = step(state, play, config)
    answerer = NONE
    if after.prompt is not None and after.prompt.kind is PromptKind.SPECIAL_INITIATIVE:
        answerer = after.prompt.player
        after = step(after, Decline(), config)
    opened: list[tuple[State, int]] = []
    if after.prompt is not None and after.prompt.kind is PromptKind.CHOOSE_SIDES:
        for action in legal_actions(after, config):
            if isinstance(action, Sides):
                opened.append((step(after, action, config), after.prompt.player))
    elif len(after.battles) == len(state.battles) + 1:
        opened.append((after, NONE))
    out: set[tuple[int, int, int]] = set()
    states: list[State] = []
    for new, chooser in opened:
        battle = new.battles[len(state.battles)]
        owner_of = {f.card: battle.players[s] for s, f in battle.fighters()}
        out.add((owner_of.get(x, NONE), owner_of.get(y, NONE), chooser))
        states.append(new)
    return out, states, answerer


def crosscheck_side_battle_plays(state: State, config: RuleConfig = DEFAULT,
                                 report: CrosscheckReport | None = None, log: Log | None = None) -> list[Disagreement]:
    """Side battle cards of the player who must act, and, while a battling player holds initiative
    to play, of every player outside the battle (see :func:`crosscheck_outside_users`)."""
    log = initial_log(state) if log is None else log
    found: list[Disagreement] = crosscheck_interrupt_plays(state, config, report)
    found += crosscheck_paused_victims(state, config, report)
    found += crosscheck_side_battle_negation(state, config, report)
    if state.prompt is None or state.prompt.kind not in (PromptKind.PLAY, PromptKind.SPECIAL_INITIATIVE) or not state.battles:
        return found
    user = state.prompt.player
    legal = legal_actions(state, config)
    for card_id in sorted(state.zones[user].hand):
        if state.card(card_id).ability is not Effect.SIDE_BATTLE:
            continue
        plays: list[Play | Use] = [a for a in legal if isinstance(a, Play) and a.card == card_id]
        if not plays and refused_by_base_rules(state, user, card_id):
            if report:
                report.count("sb-refused-base-rule")
            continue
        found += _compare_card(state, user, card_id, plays, config, report, log)
    return found + crosscheck_outside_users(state, legal, config, report, log)


def crosscheck_outside_users(state: State, legal: tuple[Action, ...], config: RuleConfig,
                             report: CrosscheckReport | None, log: Log) -> list[Disagreement]:
    """The side battle cards in the hands of players outside the battle (RED-SB-SIDES-BATTLE-PLAYERS,
    decision ``sb-user-outside-battle``), at a moment a battling player holds initiative to play (the
    moment the option ``any-player`` gives them; the clauses say nothing of moments): the outsider is
    the user z3 is given, a raw fact (the player whose hand holds the card, not one of the two players
    of the battle records). Under ``battling-players-only`` z3 must allow no pair and the model offers
    no ``use``; whether the card may be played at all is then not compared (the outsider has no moment
    to play: the initiative base rule, RED-BASE-INITIATIVE, which no encoding reads; counted as
    ``sb-outside-no-moment``). Under ``any-player`` the pairs, whether it may be played, the control
    with who chooses, the count and the new battle are compared as for a battling player's card
    (:func:`_compare_card`)."""
    if state.prompt is None or state.prompt.kind is not PromptKind.PLAY:
        return []
    players, _ = raw_stack(state)
    battling = set(players[-1])
    found: list[Disagreement] = []
    for outsider in range(state.players):
        if outsider in battling:
            continue
        for card_id in sorted(state.zones[outsider].hand):
            if state.card(card_id).ability is not Effect.SIDE_BATTLE:
                continue
            if report:
                report.count("sb-outside-user")
            uses: list[Play | Use] = [a for a in legal if isinstance(a, Use) and a.card == card_id]
            moment = config.option("sb-user-outside-battle") == "any-player"
            if report and not moment:
                report.count("sb-outside-no-moment")
            found += _compare_card(state, outsider, card_id, uses, config, report, log, verb="use", playability=moment)
    return found


def _compare_card(state: State, user: int, card_id: str, plays: list[Play | Use], config: RuleConfig,
                  report: CrosscheckReport | None, log: Log, verb: str = "play",
                  playability: bool = True) -> list[Disagreement]:
    """One side battle card of ``user``: the pairs the model offers (``plays``: ``play`` actions of
    a battling player, ``use`` actions of an outsider, as ``verb`` says) against the pairs z3 lets
    take effect, whether it may be played (unless ``playability`` is false), and for each pair the
    control, count, players, suspension and origins of the side battle the model opens."""
    found: list[Disagreement] = []
    characters = characters_in(state)
    data = state.to_json()
    if report:
        report.count("sb-pairs")
        if not plays:
            report.count("sb-refused")  # the model refuses the card: z3 must allow no pair either
    model_pairs = {tuple(sorted(a.targets)) for a in plays if a.targets}
    # the same character twice is asked too (RED-SB-TARGETS-TWO: never a legal selection)
    smt_pairs = {(x, y) for i, x in enumerate(characters) for y in characters[i:]
                 if side_battle_answer(state, user, x, y, config, log).takes_effect}
    if playability:
        found += _playable(state, user, card_id, plays, characters, data, config, report, log, verb)
    if model_pairs != smt_pairs:
        found.append(Disagreement("sb-pairs", data, f"{verb} {card_id}", sorted(smt_pairs - model_pairs),
                                  sorted(model_pairs - smt_pairs), SB_PAIR_CLAUSES))
    first: dict[tuple[str, ...], Play | Use] = {}
    for a in plays:
        if a.targets:
            first.setdefault(tuple(sorted(a.targets)), a)
    for (x, y), play in sorted(first.items()):
        answer = side_battle_answer(state, user, x, y, config, log)
        model_set, opened, answerer = _model_side_battle(state, play, config)
        if report:
            report.count("sb-answer-before-start")
        if answer.answerer != {answerer}:
            found.append(Disagreement("sb-answer-before-start", data, play.text(), sorted(answer.answerer), answerer,
                                      ("RED-BASE-SPECIAL-INITIATIVE", "RED-SB-SUSPEND")))
        if report:
            report.count("sb-control")
            if len(model_set) > 1:
                report.count("sb-user-choice")
        if model_set != set(answer.assignments):
            found.append(Disagreement("sb-control", data, play.text(), sorted(answer.assignments), sorted(model_set),
                                      SB_CONTROL_CLAUSES))
        if report:
            report.count("sb-lasting")
        # the model acts at the moment it is used: the new battle is on the stack right after the
        # play (or after the user's choice of sides, part of the same use); else it lasts
        if answer.lasting != {not opened}:
            found.append(Disagreement("sb-lasting", data, play.text(), sorted(answer.lasting),
                                      "opened at once" if opened else "not opened", ("RED-SB-INSTANTANEOUS",)))
        for new in opened:
            found += _compare_opened(state, new, user, x, y, play, answer, data, report)
    return found


def _compare_opened(state: State, new: State, user: int, x: str, y: str, play: Play | Use, answer: SideBattleAnswer,
                    data: dict[str, Any], report: CrosscheckReport | None) -> list[Disagreement]:
    """The side battle the model opened (``new``) against z3's count, players, suspension and origins."""
    found: list[Disagreement] = []
    battle = new.battles[len(state.battles)]
    if report:
        report.count("sb-start")
    if {new.side_battles[user]} != set(answer.count_after):
        found.append(Disagreement("sb-count", data, play.text(), sorted(answer.count_after),
                                  new.side_battles[user], ("RED-SB-ONCE-PER-TURN",)))
    if {battle.players} != set(answer.players) or battle.kind is not BattleKind.SIDE:
        found.append(Disagreement("sb-players", data, play.text(), sorted(answer.players),
                                  (battle.kind.value, battle.players), ("RED-SB-SIDES-BATTLE-PLAYERS",)))
    below = [b.id for b in new.battles[:len(state.battles)]]
    suspended = below == [b.id for b in state.battles] and len(new.battles) == len(state.battles) + 1
    if answer.suspended != {suspended}:
        found.append(Disagreement("sb-suspend", data, play.text(), sorted(answer.suspended),
                                  [b.id for b in new.battles], ("RED-SB-SUSPEND",)))
    came = {f.card: f.origin.kind is OriginKind.BATTLE for _, f in battle.fighters()}
    if (came.get(x), came.get(y)) != answer.came_from_battle:
        found.append(Disagreement("sb-origin", data, play.text(), answer.came_from_battle,
                                  (came.get(x), came.get(y)), ("RED-SB-RETURN-TO-BATTLE", "RED-SB-CONTROL-SAME-MIXED")))
    return found


def _playable(state: State, user: int, card_id: str, plays: list[Play | Use], characters: list[str], data: dict[str, Any],
              config: RuleConfig, report: CrosscheckReport | None, log: Log, verb: str = "play") -> list[Disagreement]:
    """Whether the side battle card may be played at all (with or without its ability taking
    effect), where the clauses decide it: once the user's allowance is used up
    (RED-SB-RESTRICT-AFTER, decision ``sb-restriction-scope``). Asked with the first two
    characters (the answer does not depend on the pair)."""
    if len(characters) < 2:
        return []
    answer = side_battle_answer(state, user, characters[0], characters[1], config, log)
    if len(answer.playable) != 1:
        return []  # the clauses leave it open: nothing to compare
    if report:
        report.count("sb-playable")
    if answer.playable != {bool(plays)}:
        return [Disagreement("sb-playable", data, f"{verb} {card_id}", sorted(answer.playable), bool(plays),
                             ("RED-SB-RESTRICT-AFTER", "RED-SB-ONCE-PER-TURN"))]
    return []


def side_battle_counter(config: RuleConfig = DEFAULT) -> SideBattleCounter:
    """How the encoding's log counts side battles (:class:`~oracle.crosscheck.redemption.position.Logs`):
    from one position to the next, each player's count is the side battle encoding's ``count_after``
    for every side battle ability that took effect in the step (read off the play log: a play record
    of a card printing a side battle ability, with its two selected characters, that was new or
    waiting, announced or interrupted, before the step and is in effect after it), with the inputs of
    the position before (RED-SB-ONCE-PER-TURN); a new turn starts every count at 0. An ability that
    waited (special initiative against it, then declined or interrupted and reactivated) counts when it
    acts; one answered before its side battle started (fizzled, or negated then) counts nothing. A
    redirected side battle ability has no counterpart in the side battle encoding: the user z3 is then
    given is the player who carries it out, the redirecting player (decision ``sb-redirected-initiator`` =
    redirecting-player; the other option is refused by name, :func:`~.common.config_key`)."""
    key = config_key(config)
    waiting = (RecordStatus.ANNOUNCED, RecordStatus.PENDING)

    def took_effect(before: State, record_id: int) -> bool:
        old = next((r for r in before.records if r.id == record_id), None)
        return old is None or old.status in waiting

    def count(before: State, log: Log, after: State) -> tuple[int, ...]:
        if after.turn != before.turn:
            return (0,) * after.players
        counts = list(side_battles_of(log, before))
        for record in after.records:
            if after.card(record.card).ability is not Effect.SIDE_BATTLE or record.status in waiting:
                continue
            if len(record.targets) != 2 or not took_effect(before, record.id):
                continue  # no selection: the ability takes no effect, the count stays (count_after = count)
            if record.status is RecordStatus.FIZZLED or (record.status is RecordStatus.NEGATED and record.undo.opened < 0):
                continue  # answered before it started: it started nothing
            x, y = sorted(record.targets)
            user = record.carrier if record.carrier >= 0 else record.player
            answer = sb_answer(key, _sb_fixed(before, user, x, y, log))
            if answer.takes_effect:
                if len(answer.count_after) != 1:
                    raise EncodingNoAnswer(f"the side battle encoding gives {len(answer.count_after)} counts after "
                                           f"#{record.id}", sorted(answer.count_after), ("RED-SB-ONCE-PER-TURN",))
                counts[user] = next(iter(answer.count_after))
        return tuple(counts)

    return count
