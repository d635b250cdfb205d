"""Battle Resolution, model against the Battle Resolution encoding (and the side battle encoding for side
battle survivors): :func:`crosscheck_resolution` (see :mod:`oracle.crosscheck.redemption.decisions`)."""

from __future__ import annotations

from typing import Any

import z3

from cardrules.oracle.crosscheck.disagreement import Disagreement
from cardrules.model.redemption.actions import Action, CompleteDiscard, Pass
from cardrules.model.redemption.config import DEFAULT, RuleConfig
from cardrules.model.redemption.engine import step
from cardrules.model.redemption.resolution import mission_result as model_mission_of
from cardrules.model.redemption.standing import outcome as model_outcome_of
from cardrules.model.redemption.state import (
    Battle, BattleKind, Effect, Mission, Outcome, PromptKind, RecordStatus, State,
)
from cardrules.specs.smt.redemption import position as pos
from cardrules.specs.smt.redemption import resolution as br
from cardrules.specs.smt.redemption import side_battle_vars as sb
from cardrules.specs.smt.redemption.common import NONE
from cardrules.oracle.crosscheck.redemption.common import (CrosscheckReport, OutOfScope, br_query, config_key, sb_query)
from cardrules.oracle.crosscheck.redemption.position import Log, entry, initial_log, raw_stack
from cardrules.oracle.crosscheck.redemption.redirect import card_numbers, fighter_numbers


# --- battle resolution ---------------------------------------------------------------------------------

BR_CLAUSES = ("RED-BR-FOUR-OUTCOMES", "RED-BR-STEP1-OUTCOME", "RED-BASE-DEFEAT")
MISSION_CLAUSES = ("RED-BR-MISSION-RESULT", "RED-BR-CHALLENGE-RESULT", "RED-BR-RESCUE-SUCCESS", "RED-BR-RESCUE-FAIL")
_KIND = {BattleKind.RESCUE: br.RESCUE, BattleKind.CHALLENGE: br.CHALLENGE, BattleKind.SIDE: br.SIDE}
_OUTCOME = {Outcome.SIDE0_WINS: br.SIDE0_WINS, Outcome.SIDE1_WINS: br.SIDE1_WINS,
            Outcome.MUTUAL_DESTRUCTION: br.MUTUAL, Outcome.STALEMATE: br.STALEMATE}
_MISSION = {Mission.SUCCESS: br.SUCCESS, Mission.FAILURE: br.FAILURE, Mission.NONE: br.NO_MISSION,
            Mission.UNDETERMINED: br.UNDETERMINED}


def resolution_starts(before: State, after: State) -> bool:
    """Play in the top battle stopped: its outcome got fixed, or it left the stack at once."""
    if not before.battles or before.battles[-1].outcome is not None:
        return False
    index = len(before.battles) - 1
    if len(after.battles) <= index:
        return True
    return after.battles[index].id == before.battles[-1].id and after.battles[index].outcome is not None


def _run_resolution(after: State, battle_id: int, config: RuleConfig) -> tuple[State, list[tuple[int, tuple[str, ...]]]]:
    """Decline every heal window until the battle leaves the stack; the windows seen (player, cards)."""
    windows: list[tuple[int, tuple[str, ...]]] = []
    state = after
    for _ in range(20):
        if not any(b.id == battle_id for b in state.battles):
            return state, windows
        prompt = state.prompt
        if prompt is None or prompt.kind is not PromptKind.HEAL_WINDOW or prompt.record >= 0:
            raise OutOfScope(f"resolution of battle {battle_id} waits on {prompt}")
        windows.append((prompt.player, prompt.cards))
        state = step(state, CompleteDiscard(), config)
    raise OutOfScope("resolution did not finish")


def crosscheck_resolution(before: State, action: Action, after: State, config: RuleConfig = DEFAULT,
                          report: CrosscheckReport | None = None, log: Log | None = None) -> list[Disagreement]:
    """Compare one resolution (``before --action--> after`` starts it) with the encodings (``log``:
    the encoding's log of the play up to ``before``; by default ``before`` is a starting position)."""
    if not resolution_starts(before, after):
        return []
    log = initial_log(before) if log is None else log
    battle = before.battles[-1]
    if any(len(side) > br.K for side in battle.sides):
        raise OutOfScope(f"more than {br.K} characters on a side")
    resolving = after.battles[len(before.battles) - 1] if len(after.battles) >= len(before.battles) else None
    final, windows = _run_resolution(after, battle.id, config) if resolving is not None else (after, [])
    data, text, found = before.to_json(), action.text(), []
    v, query = br.BRVars.make(br.K), br_query(config_key(config))
    attached = {e for _, f in battle.fighters() for e in f.enhancements}
    end_records = [r for r in before.records if r.effect is Effect.DRAW_ON_SUCCESS and r.status is RecordStatus.ACTIVE
                   and r.battle == battle.id and r.card in attached]
    fixed, slot = _raw_inputs(v, before, battle, card_numbers(before, config), log, bool(end_records))
    cards = list(slot)
    main = battle.kind is not BattleKind.SIDE
    answers = query.allowed(fixed, _projection(v, slot, bool(end_records), main), limit=4)
    if report:
        report.count("br-resolution")
    if len(answers) != 1:
        found.append(Disagreement("br-unique", data, text, sorted(answers), "one answer",
                                  (*BR_CLAUSES, "RED-BR-RETURN-PERMANENT-CONTROLLER", "RED-BR-UNAFFECTED-NORMAL")))
        return found
    (outcome, mission, soul_rescued, *rest) = next(iter(answers))
    end_fires = rest.pop(2 * len(cards)) if end_records else None
    n = len(cards)
    doomed = {c for c, d in zip(cards, rest[:n]) if d}
    window_player = dict(zip(cards, rest[n:2 * n]))
    smt_home: dict[str, int] = dict(zip(cards, rest[2 * n:3 * n])) if main else {}
    smt_enh_discarded: dict[str, bool] = dict(zip(cards, rest[3 * n:4 * n])) if main else {}
    model_outcome, model_mission = _model_result(before, action, battle, resolving, final, config, report)
    if model_outcome is not None and model_outcome != outcome:
        found.append(Disagreement("br-outcome", data, text, br.OUTCOMES[outcome], br.OUTCOMES[model_outcome], BR_CLAUSES))
    if model_mission is not None and model_mission != mission:
        found.append(Disagreement("br-mission", data, text, br.MISSIONS[mission], br.MISSIONS[model_mission], MISSION_CLAUSES))
    discarded = {c for c in cards if c in final.zones[final.card(c).owner].discard}
    if discarded != doomed:
        found.append(Disagreement("br-discard", data, text, sorted(doomed), sorted(discarded),
                                  ("RED-BR-STEP4-DISCARD-RETURN", "RED-SB-DEFEAT-NORMAL", "RED-BASE-DEFEAT")))
    model_windows = {c: player for player, group in windows for c in group}
    smt_windows = {c: window_player[c] for c in doomed}
    if model_windows != smt_windows:
        found.append(Disagreement("br-heal-window", data, text, smt_windows, model_windows, ("RED-BR-HEAL-WINDOW",)))
    found += _soul_and_end_abilities(before, battle, final, bool(soul_rescued), end_records, end_fires, data, text, report)
    found += _survivors(before, battle, final, doomed, smt_home, smt_enh_discarded, data, text, config, report, log)
    return found


def _raw_inputs(v: Any, before: State, battle: Battle, numbers: Any, log: Log,
                end_ability: bool) -> tuple[list[Any], dict[str, tuple[int, int]]]:
    """The encoding's inputs, from the raw position and the encoding's own log (never the model's
    derived fields): rescue access, permanent control and 'came from a battle' are derived in z3
    (specs.smt.redemption.position). Also each fighter's (side, slot)."""
    stack = pos.StackPos.of(*raw_stack(before))
    fixed = [v.kind == _KIND[battle.kind], v.players[0] == battle.players[0], v.players[1] == battle.players[1],
             v.player_count == before.players, v.end_ability == end_ability,
             v.access == pos.rescue_access(stack, v.kind == br.RESCUE, v.players[1])]
    slot: dict[str, tuple[int, int]] = {}
    for s, fighters in enumerate(battle.sides):
        fixed.append(v.n[s] == len(fighters))
        for i, fighter in enumerate(fighters):
            strength, toughness = fighter_numbers(before, fighter, numbers)
            slot[fighter.card] = (s, i)
            logged = entry(log, fighter.card)
            fixed += [v.strength[s][i] == strength, v.toughness[s][i] == toughness, v.perm[s][i] == logged.perm,
                      v.healed[s][i] == False,  # noqa: E712
                      v.from_battle[s][i] == z3.And(v.kind == br.SIDE, pos.came_from_a_battle(z3.IntVal(logged.zone)))]
        for i in range(len(fighters), br.K):
            fixed += [v.strength[s][i] == 0, v.toughness[s][i] == 1, v.perm[s][i] == 0, v.healed[s][i] == False,  # noqa: E712
                      v.from_battle[s][i] == False]  # noqa: E712
    return fixed, slot


def _projection(v: Any, slot: dict[str, tuple[int, int]], end_ability: bool, main: bool) -> list[Any]:
    """What the encoding is asked: outcome, mission, the rescued soul, who is doomed and whose heal
    window, whether end-of-battle abilities fire; in a main battle also each survivor's home
    (RED-BR-RETURN-PERMANENT-CONTROLLER; none for a discarded character) and whether each fighter's
    enhancements are discarded (RED-BR-UNAFFECTED-NORMAL). Side battle survivors are governed by
    RED-SB-RETURN-* and compared through the side battle encoding (see :func:`_survivors`)."""
    project = [v.outcome, v.mission, v.soul_rescued, *[v.doomed[s][i] for s, i in slot.values()],
               *[z3.If(v.doomed[s][i], v.window_player[s][i], NONE) for s, i in slot.values()]]
    if end_ability:
        project.append(v.end_fires)  # RED-BR-STEP3-END-ABILITIES
    if main:
        project += [z3.If(v.doomed[s][i], NONE, v.home[s][i]) for s, i in slot.values()]
        project += [v.enh_discarded[s][i] for s, i in slot.values()]
    return project


def _model_result(before: State, action: Action, battle: Battle, resolving: Battle | None, final: State,
                  config: RuleConfig, report: CrosscheckReport | None) -> tuple[int | None, int | None]:
    """The model's outcome and mission of the battle, as the encoding numbers them (None: not recorded)."""
    model_outcome = _OUTCOME[resolving.outcome] if resolving is not None and resolving.outcome else (
        _OUTCOME[final.last_outcome] if battle.kind is not BattleKind.SIDE and final.last_outcome else None)
    model_mission = _MISSION[resolving.mission] if resolving is not None and resolving.mission else (
        _MISSION[final.last_mission] if battle.kind is not BattleKind.SIDE and final.last_mission else None)
    if model_outcome is None and battle.kind is BattleKind.SIDE and isinstance(action, Pass):
        # A side battle that leaves the stack at once (no heal window) records its outcome
        # nowhere; a pass changes neither the battle nor any number, so the model's step 1 and
        # step 2 decisions read on ``before`` are the ones its resolution took.
        result = model_outcome_of(before, battle, config)
        model_outcome, model_mission = _OUTCOME[result], _MISSION[model_mission_of(before, battle, result, config)]
        if report:
            report.count("br-outcome-at-once")
    if model_outcome is None and report:
        report.count("br-outcome-unrecorded")
    return model_outcome, model_mission


def _soul_and_end_abilities(before: State, battle: Battle, final: State, soul_rescued: bool, end_records: list[Any],
                            end_fires: Any, data: dict[str, Any], text: str,
                            report: CrosscheckReport | None) -> list[Disagreement]:
    """The rescued Lost Soul, and whether end-of-battle abilities fired, seen as draws by their users
    (observable only when a user has a card to draw)."""
    found: list[Disagreement] = []
    if battle.kind is BattleKind.RESCUE:
        rescuer = battle.players[0]
        gained = len(final.zones[rescuer].redemption) - len(before.zones[rescuer].redemption)
        expected = 1 if soul_rescued else 0
        if report:
            report.count("br-soul")
        if gained != expected:
            found.append(Disagreement("br-soul", data, text, expected, gained, ("RED-BR-RESCUE-SUCCESS", "RED-BR-UNAFFECTED-NORMAL")))
    users = sorted({r.player for r in end_records})
    if end_records and any(before.zones[p].deck for p in users):
        if report:
            report.count("br-end-ability")
        drew = any(len(final.zones[p].deck) < len(before.zones[p].deck) for p in users)
        if drew != end_fires:
            found.append(Disagreement("br-end-ability", data, text, end_fires, drew, ("RED-BR-STEP3-END-ABILITIES",)))
    return found


def _survivors(before: State, battle: Battle, final: State, doomed: set[str], smt_home: dict[str, int],
               smt_enh_discarded: dict[str, bool], data: dict[str, Any], text: str,
               config: RuleConfig, report: CrosscheckReport | None, log: Log) -> list[Disagreement]:
    """Where each survivor went and what became of the enhancements on every fighter.

    Main battle: ``smt_home`` / ``smt_enh_discarded`` are the Battle Resolution encoding's unique
    ``home`` (``NONE`` for a discarded character) and ``enh_discarded`` per character
    (RED-BR-RETURN-PERMANENT-CONTROLLER, RED-BR-UNAFFECTED-NORMAL). Side battle: the side battle
    encoding's unique (back, back side, home, keeps, keeps carried) per fighter (RED-SB-RETURN-TO-BATTLE,
    RED-SB-RETURN-TO-TERRITORY), read with the survivor's inputs when selected as the encoding's
    log holds them (never the model's ``origins``), and the battle below resumes (RED-SB-RESUME)."""
    found: list[Disagreement] = []
    w, sbq = sb.SBVars.make(), sb_query(config_key(config))
    for s, fighter in battle.fighters():
        card = fighter.card
        if report:
            report.count("br-return")
        spot = final.fighter(card)
        territory = final.in_territory(card)
        model_place: tuple[Any, ...] = ("battle", final.battles[spot[0]].id, spot[1]) if spot else ("territory", territory)
        if battle.kind is not BattleKind.SIDE:
            home = smt_home[card]
            smt_place = ("discard",) if home == NONE else ("territory", home)
            if card in doomed:
                model_place = ("discard",) if card in final.zones[final.card(card).owner].discard else model_place
            if model_place != smt_place:
                found.append(Disagreement("br-return", data, text, smt_place, model_place,
                                          ("RED-BR-RETURN-PERMANENT-CONTROLLER", "RED-BR-STEP4-DISCARD-RETURN")))
            enh_kept = not smt_enh_discarded[card]
        elif card in doomed:
            enh_kept = False
            found += _side_defeat(before, card, True, final, data, text, config, report)
        else:
            found += _side_defeat(before, card, False, final, data, text, config, report)
            logged = entry(log, card)
            # not doomed by Battle Resolution, so neither defeated nor healed from being discarded
            fixed = [w.takes_effect, w.ended, w.discarded_x == False, w.healed_x == False,  # noqa: E712
                     w.zone_x == logged.zone,
                     w.owner_x == before.card(card).owner, w.perm_x == logged.perm, w.prev_side_x == logged.side,
                     w.ctrl_x == logged.ctrl, w.players == before.players, w.p0 == before.battles[-2].players[0],
                     w.p1 == before.battles[-2].players[1]]
            # a survivor's place: back to its battle on a side, or to a territory; and whether it keeps
            # its enhancements (outputs that do not apply are projected to NONE)
            answers = sbq.allowed(fixed, [w.back_x, z3.If(w.back_x, w.back_side_x, NONE),
                                          z3.If(w.back_x, NONE, w.home_x), w.keeps_x, w.keeps_carried_x], limit=4)
            back_battle = logged.came_from if logged.came_from >= 0 else None
            smt_places = {("battle", back_battle, bs) if back else ("territory", home) for back, bs, home, _, _ in answers}
            clauses = ("RED-SB-RETURN-TO-BATTLE", "RED-SB-RETURN-TO-TERRITORY", "RED-SB-RESUME")
            if report:
                report.count("sb-return")
            if len(answers) != 1:
                found.append(Disagreement("encoding-no-answer" if not answers else "encoding-several-answers", data,
                                          f"{text} ({card})", sorted(map(str, answers)), model_place, clauses))
                continue
            if {model_place} != smt_places:
                found.append(Disagreement("sb-return", data, text, sorted(map(str, smt_places)), model_place, clauses))
            enh_kept, carried_kept = next(iter(answers))[3:]
            # carried in: not played in this side battle (or one stacked on it), as the play records say
            played = {r.card for r in before.records if battle.id in r.battle_path}
            kept_by = {e: carried_kept if e not in played else enh_kept for e in fighter.enhancements}
        for enh in fighter.enhancements:
            if battle.kind is BattleKind.SIDE and card not in doomed:
                enh_kept = kept_by[enh]
            in_pile = enh in final.zones[final.card(enh).owner].discard
            now_on = final.fighter(card)
            still_on = (enh, card) in final.placed or (now_on is not None and enh in now_on[2].enhancements)
            if in_pile == enh_kept or (enh_kept and not still_on):
                found.append(Disagreement("br-enhancement", data, f"{text} ({enh} on {card})",
                                          "kept" if enh_kept else "discarded",
                                          "discarded" if in_pile else "kept" if still_on else "elsewhere",
                                          ("RED-BR-UNAFFECTED-NORMAL", "RED-SB-RETURN-TO-BATTLE", "RED-SB-RETURN-TO-TERRITORY")))
    if battle.kind is BattleKind.SIDE:
        resumed = final.battles[-1].id if final.battles else None
        smt_resumed = sbq.allowed([w.takes_effect, w.ended], [w.resumed])
        if report:
            report.count("sb-resume")
        if smt_resumed != {(resumed == before.battles[-2].id,)}:
            found.append(Disagreement("sb-resume", data, text, sorted(smt_resumed),
                                      f"battle {resumed} on top (the paused one: {before.battles[-2].id})", ("RED-SB-RESUME",)))
    return found


def _side_defeat(before: State, card: str, defeated: bool, final: State, data: dict[str, Any], text: str,
                 config: RuleConfig, report: CrosscheckReport | None) -> list[Disagreement]:
    """Whether a side battle fighter is discarded, given whether normal Battle Resolution defeats it
    (the resolution encoding's answer) and no heal (heal windows are declined):
    RED-SB-DEFEAT-NORMAL, through the side battle encoding."""
    w, sbq = sb.SBVars.make(), sb_query(config_key(config))
    smt = sbq.allowed([w.takes_effect, w.ended, w.defeated_x == defeated, w.healed_x == False],  # noqa: E712
                      [w.discarded_x])
    if report:
        report.count("sb-defeat")
    model = card in final.zones[final.card(card).owner].discard
    if smt != {(model,)}:
        return [Disagreement("sb-defeat", data, f"{text} ({card})", sorted(smt), model, ("RED-SB-DEFEAT-NORMAL",))]
    return []
