"""The Redemption state's consistency rules and the load that applies them.

:func:`read_state` reads the JSON form by types alone (:mod:`.jsonform`);
:func:`problems` lists every way such a state breaks a rule of the game's
structure; :func:`load_state` is the load: read, then refuse the first problem.
"""

from __future__ import annotations

from typing import Any

from cardrules.model.errors import ScenarioError
from cardrules.model.redemption.jsonform import from_jsonable
from cardrules.model.redemption.state import (
    HELD, MAX_BATTLES, MAX_BRIGADES, MAX_CARDS, MAX_NUMBER, MAX_PLAYERS, MAX_RECORDS, MIN_PLAYERS, Card, CardType, Effect, Fighter, OriginKind, PlayRecord, PromptKind, RecordStatus, State, Undo, all_locations,
)


def read_state(data: Any) -> State:
    """The state of this JSON form, checked for types and the fields' own ranges only (no
    consistency rule): :func:`load_state` is the load; this is for tools that list every problem
    of a state (the conformance suites' invalid vectors)."""
    return from_jsonable(State, data, "")  # type: ignore[no-any-return]


def load_state(data: Any) -> State:
    """Read and check a state; malformed input raises ScenarioError naming the path."""
    state = read_state(data)
    found = problems(state)
    if found:
        where, problem = found[0]
        raise ScenarioError(where, problem)
    return state


def problems(state: State) -> list[tuple[str, str]]:
    """Structural problems of a state, as ``(path, problem)``; empty when well formed.

    Checks: player count, cards sorted and unique, every card in exactly one
    place, zone contents of the right card type, battles between two
    distinct players, prompt players in range, a prompt exactly while a battle
    is on (every step of a battle waits on a player); then the input bounds
    (MAX_CARDS, MAX_NUMBER, MAX_BRIGADES, MAX_BATTLES, MAX_RECORDS), counters,
    and every reference: player indexes (controllers, origins, carriers,
    piles), battle ids (unique, below ``next_battle``; a character's origin
    battle below it on the stack), play record ids (unique, below
    ``next_record``; ``#n`` targets and the prompt's record exist) and card ids,
    so that the rule modules never meet a dangling reference.
    """
    out: list[tuple[str, str]] = []
    if not MIN_PLAYERS <= state.players <= MAX_PLAYERS:
        out.append(("zones", f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, found {state.players}"))
        return out
    ids = [c.id for c in state.cards]
    if ids != sorted(set(ids)):
        out.append(("cards", "card ids must be unique and sorted"))
    by_id = {c.id: c for c in state.cards}
    for i, card in enumerate(state.cards):
        if not 0 <= card.owner < state.players:
            out.append((f"cards[{i}].owner", f"no player {card.owner}"))
    if len(state.side_battles) != state.players:
        out.append(("side_battles", "needs one counter per player"))
    if not 0 <= state.active < state.players:
        out.append(("active", f"no player {state.active}"))
    places: dict[str, str] = {}
    for card_id, place in all_locations(state):
        if card_id not in by_id:
            out.append((place, f"unknown card {card_id!r}"))
        elif card_id in places:
            out.append((place, f"card {card_id!r} is also in {places[card_id]}"))
        else:
            places[card_id] = place
    for card_id in ids:
        if card_id not in places:
            out.append(("cards", f"card {card_id!r} is in no zone"))
    for p, zones in enumerate(state.zones):
        for name, kind in (("territory", CardType.CHARACTER), ("bondage", CardType.LOST_SOUL), ("redemption", CardType.LOST_SOUL)):
            for card_id in sorted(getattr(zones, name)):
                if card_id in by_id and by_id[card_id].type is not kind:
                    out.append((f"zones[{p}].{name}", f"{card_id!r} is not a {kind.value}"))
    for b, battle in enumerate(state.battles):
        a, d = battle.players
        if a == d or not (0 <= a < state.players and 0 <= d < state.players):
            out.append((f"battles[{b}].players", "needs two distinct players of the game"))
        for side, fighters in enumerate(battle.sides):
            for f, fighter in enumerate(fighters):
                fighting = by_id.get(fighter.card)
                if fighting is not None and fighting.type is not CardType.CHARACTER:
                    out.append((f"battles[{b}].sides[{side}][{f}].card", f"{fighter.card!r} is not a character"))
                for enh in fighter.enhancements:
                    if enh in by_id and by_id[enh].type is not CardType.ENHANCEMENT:
                        out.append((f"battles[{b}].sides[{side}][{f}].enhancements", f"{enh!r} is not an enhancement"))
    if state.prompt is not None and not 0 <= state.prompt.player < state.players:
        out.append(("prompt.player", f"no player {state.prompt.player}"))
    if state.prompt is not None and not state.battles:
        out.append(("prompt", "a prompt needs a battle"))
    if state.battles and state.prompt is None:
        out.append(("prompt", "a battle is on, so a player has a decision to make"))
    for enh, host in sorted(state.placed):
        if enh in by_id and by_id[enh].type is not CardType.ENHANCEMENT:
            out.append((f"placed[{enh}]", f"{enh!r} is not an enhancement"))
        if state.in_territory(host) is None:
            out.append((f"placed[{enh}]", f"{host!r} is not a character in a territory"))
    for i, event in enumerate(state.discards):
        if event.card not in by_id:
            out.append((f"discards[{i}].card", f"unknown card {event.card!r}"))
    for check in (size_problems, _counter_problems, _battle_problems, _record_problems, _prompt_problems,
                  _reference_problems):
        out.extend(check(state, by_id))
    return out


def _player_range(state: State, value: int, where: str) -> list[tuple[str, str]]:
    return [] if 0 <= value < state.players else [(where, f"no player {value} (the game has {state.players})")]


def size_problems(state: State, by_id: dict[str, Card]) -> list[tuple[str, str]]:
    """Input bounds (MAX_CARDS, MAX_NUMBER, MAX_BRIGADES, MAX_BATTLES, MAX_RECORDS)."""
    out: list[tuple[str, str]] = []
    if len(state.cards) > MAX_CARDS:
        out.append(("cards", f"at most MAX_CARDS = {MAX_CARDS} cards, found {len(state.cards)}"))
    for i, card in enumerate(state.cards):
        for name in ("strength", "toughness"):
            if abs(getattr(card, name)) > MAX_NUMBER:
                out.append((f"cards[{i}].{name}", f"must be between {-MAX_NUMBER} and {MAX_NUMBER}"))
        if card.stated_amount is not None and any(n > MAX_NUMBER for n in card.stated_amount):
            out.append((f"cards[{i}].stated_amount", f"numbers between 0 and {MAX_NUMBER}"))
        if len(card.brigades) > MAX_BRIGADES:
            out.append((f"cards[{i}].brigades", f"at most {MAX_BRIGADES} brigades"))
    if len(state.battles) > MAX_BATTLES:
        out.append(("battles", f"at most MAX_BATTLES = {MAX_BATTLES} battles on the stack"))
    if len(state.records) > MAX_RECORDS:
        out.append(("records", f"at most MAX_RECORDS = {MAX_RECORDS} play records"))
    return out


def _counter_problems(state: State, by_id: dict[str, Card]) -> list[tuple[str, str]]:
    """Counters in range: turn, battle and record numbering, side battle counts, winner."""
    out: list[tuple[str, str]] = []
    if state.turn < 1:
        out.append(("turn", "must be at least 1"))
    if state.battles_started < 0:
        out.append(("battles_started", "must not be negative"))
    for p, count in enumerate(state.side_battles):
        if count < 0:
            out.append((f"side_battles[{p}]", "must not be negative"))
    if state.next_battle < 1:
        out.append(("next_battle", "must be at least 1"))
    if state.next_record < 1:
        out.append(("next_record", "must be at least 1"))
    if state.winner is not None:
        out.extend(_player_range(state, state.winner, "winner"))
    return out


def _fighter_problems(state: State, fighter: Fighter, where: str, below: dict[int, int]) -> list[tuple[str, str]]:
    """A fighter's controller and origins; ``below``: battle id -> stack index of the battles it may come from."""
    out = _player_range(state, fighter.permanent, f"{where}.permanent")
    if not fighter.origins:
        out.append((f"{where}.origins", "a character in battle has at least one origin"))
    for o, origin in enumerate(fighter.origins):
        out.extend(_player_range(state, origin.player, f"{where}.origins[{o}].player"))
        if origin.kind is OriginKind.BATTLE:
            if origin.battle not in below:
                out.append((f"{where}.origins[{o}].battle", f"no battle {origin.battle} below this one on the stack"))
            if origin.side not in (0, 1):
                out.append((f"{where}.origins[{o}].side", "expected 0 or 1"))
    return out


def _battle_problems(state: State, by_id: dict[str, Card]) -> list[tuple[str, str]]:
    """Battle ids unique and numbered below next_battle; players, fighters and defeated cards valid."""
    out: list[tuple[str, str]] = []
    below: dict[int, int] = {}
    for b, battle in enumerate(state.battles):
        where = f"battles[{b}]"
        if battle.id in below:
            out.append((f"{where}.id", f"battle id {battle.id} is used twice"))
        elif not 1 <= battle.id < state.next_battle:
            out.append((f"{where}.id", f"must be between 1 and next_battle - 1 ({state.next_battle - 1})"))
        out.extend(_player_range(state, battle.last_player, f"{where}.last_player"))
        if battle.opened_by != -1 and not 1 <= battle.opened_by < state.next_record:
            out.append((f"{where}.opened_by", "expected -1 or the number of a play record"))
        for side, fighters in enumerate(battle.sides):
            for f, fighter in enumerate(fighters):
                out.extend(_fighter_problems(state, fighter, f"{where}.sides[{side}][{f}]", below))
        for d, card_id in enumerate(battle.defeated):
            if card_id not in by_id:
                out.append((f"{where}.defeated[{d}]", f"unknown card {card_id!r}"))
        below[battle.id] = b
    return out


def _record_problems(state: State, by_id: dict[str, Card]) -> list[tuple[str, str]]:
    """Play records: unique ids below next_record, players in range, cards and ``#n`` targets that exist; a
    numbers redirect names at most one card, and one while active (RED-RD-NUMBERS-TARGET: it is never interrupted,
    RED-RD-NUMBERS-NO-INTERRUPT, so never redirected to new targets); only an interruptible ability's record waits
    (pending or announced: RED-BASE-INTERRUPT, RED-BASE-SPECIAL-INITIATIVE)."""
    out: list[tuple[str, str]] = []
    ids = {r.id for r in state.records}
    seen: set[int] = set()
    for i, record in enumerate(state.records):
        where = f"records[{i}]"
        if record.id in seen:
            out.append((f"{where}.id", f"record id {record.id} is used twice"))
        elif not 1 <= record.id < state.next_record:
            out.append((f"{where}.id", f"must be between 1 and next_record - 1 ({state.next_record - 1})"))
        seen.add(record.id)
        out.extend(_player_range(state, record.player, f"{where}.player"))
        if record.carrier != -1:
            out.extend(_player_range(state, record.carrier, f"{where}.carrier"))
        for name in ("card", "on"):
            if getattr(record, name) not in by_id:
                out.append((f"{where}.{name}", f"unknown card {getattr(record, name)!r}"))
        for t, target in enumerate(record.targets):
            if target.startswith("#"):
                if not target[1:].isascii() or not target[1:].isdigit() or int(target[1:]) not in ids:
                    out.append((f"{where}.targets[{t}]", f"{target!r} is not a play record of this state"))
            elif target not in by_id:
                out.append((f"{where}.targets[{t}]", f"unknown card {target!r}"))
        if record.effect in (Effect.INTERRUPT, Effect.NEGATE, Effect.REDIRECT_ABILITY) and record.status in (
            RecordStatus.ACTIVE, RecordStatus.ANNOUNCED, RecordStatus.PENDING
        ) and not (record.targets and record.targets[0].startswith("#")):
            out.append((f"{where}.targets", f"a {record.effect.value} ability targets a play record '#n' first"))
        if record.effect is Effect.REDIRECT_NUMBERS and (
            len(record.targets) > 1 or any(t.startswith("#") for t in record.targets)
            or (record.status is RecordStatus.ACTIVE and not record.targets)
        ):
            out.append((f"{where}.targets", "a numbers redirect (redirect-numbers) names at most one card, and one while active"))
        if record.status in (RecordStatus.PENDING, RecordStatus.ANNOUNCED) and record.effect not in HELD:
            out.append((f"{where}.status", f"only the record of an ability an interrupt can hold (a discard, a status, "
                        f"a decrease, a heal, a side battle) is {record.status.value}"))
        if not record.battle_path:
            out.append((f"{where}.battle_path", "names at least the battle it was played in"))
        for b, battle_id in enumerate(record.battle_path):
            if not 1 <= battle_id < state.next_battle:
                out.append((f"{where}.battle_path[{b}]", f"no battle {battle_id} was started"))
        out.extend(_undo_problems(state, record.undo, f"{where}.undo"))
        if any(abs(n) > MAX_NUMBER for n in record.amount):
            out.append((f"{where}.amount", f"numbers between {-MAX_NUMBER} and {MAX_NUMBER}"))
        out.extend(_lasting_problems(state, record, where))
    return out


def _lasting_problems(state: State, record: PlayRecord, where: str) -> list[tuple[str, str]]:
    """An ongoing redirect's end (RED-RD-UNTIL-END-OF-PHASE): only a numbers redirect has one, an active
    one lasts until the end of the current phase, and outside battle only those are kept."""
    out: list[tuple[str, str]] = []
    if record.lasts_until is not None and record.effect is not Effect.REDIRECT_NUMBERS:
        out.append((f"{where}.lasts_until", "only a numbers redirect (redirect-numbers) is ongoing"))
    elif record.lasts_until is not None and record.status is RecordStatus.ACTIVE:
        turn, phase = record.lasts_until
        if (turn, phase) != (state.turn, state.phase):
            out.append((f"{where}.lasts_until", f"an active redirect lasts until the end of the current phase "
                        f"(turn {state.turn}, {state.phase.value}), found turn {turn}, {phase.value}"))
    if not state.battles and not (record.effect is Effect.REDIRECT_NUMBERS and record.status is RecordStatus.ACTIVE):
        out.append((where, "outside battle the records hold only numbers redirects still in force"))
    return out


def _undo_problems(state: State, undo: Undo, where: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if undo.side not in (-1, 0, 1):
        out.append((f"{where}.side", "expected -1, 0 or 1"))
    for name in ("battle", "opened"):
        value = getattr(undo, name)
        if value != -1 and not 1 <= value < state.next_battle:
            out.append((f"{where}.{name}", f"expected -1 or a battle started ({state.next_battle - 1} so far)"))
    if undo.fighter is not None:
        fighter = undo.fighter
        out.extend(_player_range(state, fighter.permanent, f"{where}.fighter.permanent"))
        if not fighter.origins:
            out.append((f"{where}.fighter.origins", "a character in battle has at least one origin"))
        for o, origin in enumerate(fighter.origins):
            out.extend(_player_range(state, origin.player, f"{where}.fighter.origins[{o}].player"))
            if origin.side not in (-1, 0, 1):
                out.append((f"{where}.fighter.origins[{o}].side", "expected -1, 0 or 1"))
        if not state.has_card(fighter.card):
            out.append((f"{where}.fighter.card", f"unknown card {fighter.card!r}"))
        for e, enh in enumerate(fighter.enhancements):
            if not state.has_card(enh):
                out.append((f"{where}.fighter.enhancements[{e}]", f"unknown card {enh!r}"))
    return out


def _prompt_problems(state: State, by_id: dict[str, Card]) -> list[tuple[str, str]]:
    """A prompt's record exists where its kind needs one; its cards exist; ``passed`` (decision
    red-base-pass-ends = both-pass) only at a play prompt; ``reduced`` (rd-lapse-reduction) names cards."""
    out: list[tuple[str, str]] = [(f"reduced[{i}]", f"unknown card {card_id!r}")
                                  for i, (card_id, _, _) in enumerate(state.reduced) if card_id not in by_id]
    prompt = state.prompt
    if state.passed and (prompt is None or prompt.kind is not PromptKind.PLAY):
        out.append(("passed", "a pass waits for the other battling player only at a play prompt"))
    if prompt is None:
        return out
    ids = {r.id for r in state.records}
    needs_record = prompt.kind in (PromptKind.CHOOSE_SIDES, PromptKind.SPECIAL_INITIATIVE)
    if (needs_record or prompt.record != -1) and prompt.record not in ids:
        wanted = "the number of a play record" if needs_record else "-1 or the number of a play record"
        out.append(("prompt.record", f"expected {wanted}, found {prompt.record} (records: {sorted(ids) or 'none'})"))
    for c, card_id in enumerate(prompt.cards):
        if card_id not in by_id:
            out.append((f"prompt.cards[{c}]", f"unknown card {card_id!r}"))
    if prompt.kind is PromptKind.CHOOSE_SIDES and len(prompt.cards) != 2:
        out.append(("prompt.cards", "choosing sides needs the two selected characters"))
    return out


def _reference_problems(state: State, by_id: dict[str, Card]) -> list[tuple[str, str]]:
    """Statuses, decreased abilities, discard events and searches name real cards and players."""
    out: list[tuple[str, str]] = []
    for card_id, _ in sorted(state.statuses, key=lambda s: (s[0], s[1].value)):
        if card_id not in by_id:
            out.append(("statuses", f"unknown card {card_id!r}"))
    for card_id in sorted(state.decreased):
        if card_id not in by_id:
            out.append(("decreased", f"unknown card {card_id!r}"))
    for i, event in enumerate(state.discards):
        out.extend(_player_range(state, event.pile, f"discards[{i}].pile"))
        out.extend(_player_range(state, event.controller, f"discards[{i}].controller"))
    for i, search in enumerate(state.searches):
        out.extend(_player_range(state, search.player, f"searches[{i}].player"))
        out.extend(_player_range(state, search.pile, f"searches[{i}].pile"))
        if search.target not in by_id:
            out.append((f"searches[{i}].target", f"unknown card {search.target!r}"))
    for enh, host in sorted(state.placed):
        if host not in by_id:
            out.append((f"placed[{enh}]", f"unknown card {host!r}"))
    return out
