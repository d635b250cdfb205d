// A small Final Fantasy TCG combat engine in plain JavaScript (Node.js, no packages).
//
// It knows nothing of cardrules: its own cards, its own steps, its own moves and its own messages.
// adapter.js translates between it and the conformance protocol. What it plays:
//   attacks by one Forward or by a party (two or more Forwards sharing an element, or all with the P icon);
//   blocking, with the "cannot be blocked by" restrictions; the exchange of combat damage, a blocker's
//   power split among a party's members in steps of 1000; one point of damage for an unblocked attack;
//   breaks; seven damage loses; removal of a Forward by an effect; the end of the turn.
// What it leaves out, on purpose: First Strike / Pre-emptive Strike (a card's flag is read and ignored).
//
// Its turn structure: each step with a priority window is played out by the two players passing in turn
// (the turn player first); when both have passed in a row, the step ends. Combat damage has no step of
// its own: it is dealt as soon as the window after the block closes (unless the blocker's controller must
// first assign a split, which is a step of its own here: "assign").
"use strict";

const SEVEN = 7;
const WINDOW_STEPS = ["prepare", "declare", "block", "wrap-up"];

class RuleError extends Error {
  // A move the rules forbid: a message of our own, and the rule references (clause IDs) behind it.
  constructor(message, refs) { super(message); this.refs = refs; }
}

function card(spec) {
  return {
    id: spec.id, name: spec.name || spec.id, elements: [...spec.elements], cost: spec.cost, power: spec.power, pIcon: !!spec.pIcon,
    haste: !!spec.haste, brave: !!spec.brave, firstStrike: !!spec.firstStrike,
    maxBlockerCost: spec.maxBlockerCost ?? null, shunnedElements: [...(spec.shunnedElements || [])],
    dull: !!spec.dull, damage: spec.damage || 0, newcomer: !!spec.newcomer, attacked: !!spec.attacked,
  };
}

class Game {
  // setup: {turn, active, step, winner, players: [{damage, field: [card spec], graveyard: [card spec]}],
  //         combat: null | {attackers: [ids], party, blocked: null|bool, blocker: id|null},
  //         log: this turn's happenings so far, [{what: "hit"|"broken"|"removed"|"disbanded", ...}]}
  // options.bug = "per-member-unblocked" plants a rules bug on purpose (the tests show how a report finds it):
  // an unblocked party then deals one point of damage per member instead of one.
  constructor(setup, options = {}) {
    this.turn = setup.turn;
    this.active = setup.active;
    this.step = setup.step;
    this.winner = setup.winner ?? null;
    this.players = setup.players.map((p) => ({
      damage: p.damage, field: p.field.map(card), graveyard: p.graveyard.map(card),
    }));
    this.combat = setup.combat ? { ...setup.combat, attackers: [...setup.combat.attackers] } : null;
    this.log = (setup.log || []).map((entry) => ({ ...entry }));
    this.priority = this.active;
    this.passes = 0;
    this.bug = options.bug || "";
  }

  clone() {
    const copy = Object.create(Game.prototype);
    return Object.assign(copy, JSON.parse(JSON.stringify(this)));
  }

  get defender() { return 1 - this.active; }
  find(id) {
    for (const [owner, p] of this.players.entries()) {
      const c = p.field.find((x) => x.id === id);
      if (c) return { owner, card: c };
    }
    return null;
  }
  ownField(player, id) { return this.players[player].field.find((x) => x.id === id) || null; }

  // --- who may do what ---------------------------------------------------------------------------------

  inWindow() {
    if (this.winner !== null || !WINDOW_STEPS.includes(this.step)) return false;
    if (this.step === "block") return this.combat !== null && this.combat.blocked !== null;
    return true;
  }
  mayAttackWith(c) { return !c.dull && (!c.newcomer || c.haste) && !c.attacked; }
  mayBlock(attacker, blocker) {
    if (blocker.dull) return false;
    if (attacker.maxBlockerCost !== null && blocker.cost >= attacker.maxBlockerCost) return false;
    return !attacker.shunnedElements.some((e) => blocker.elements.includes(e));
  }
  isParty(members) {
    const shared = members.reduce((common, c) => common.filter((e) => c.elements.includes(e)), members[0].elements);
    return members.length >= 2 && (shared.length > 0 || members.every((c) => c.pIcon));
  }
  splitTotal() { return Math.floor(Math.max(this.ownField(this.defender, this.combat.blocker).power, 0) / 1000) * 1000; }

  check(move) {
    if (this.winner !== null) throw new RuleError(`game over, player ${this.winner} has won`, ["FF-BASE-SEVEN-DAMAGE-LOSES"]);
    const handler = {
      attack: () => this.checkAttack(move.ids), block: () => this.checkBlock(move.id), "no-block": () => this.checkBlock(null),
      assign: () => this.checkAssign(move.shares), remove: () => this.checkRemove(move.id), pass: () => this.checkPass(),
      "end-turn": () => this.checkEndTurn(),
    }[move.type];
    if (!handler) throw new RuleError(`no such move: ${move.type}`, []);
    handler();
  }

  checkAttack(ids) {
    const party = ids.length >= 2;
    if (this.step !== "declare" || this.combat !== null) {
      throw party ? new RuleError("parties form only when an attack is declared", ["FF-PARTY-FORM-DECLARATION"])
        : new RuleError("attacks are declared in the declaration step, one at a time", ["FF-BASE-ATTACK-STEPS", "FF-BASE-ONE-ATTACK-AT-A-TIME"]);
    }
    const refs = party ? ["FF-PARTY-ALL-CAN-ATTACK", "FF-BASE-CAN-ATTACK"] : ["FF-BASE-CAN-ATTACK"];
    const members = ids.map((id) => {
      const c = this.ownField(this.active, id);
      if (!c) throw new RuleError(`${id}: not on your field`, refs);
      if (!this.mayAttackWith(c)) throw new RuleError(`${id} may not attack (dull, summoning sick or already attacked)`, refs);
      return c;
    });
    if (party && !this.isParty(members)) {
      throw new RuleError("not a party: no common element and not all P", ["FF-PARTY-FORM-VALID", "FF-PARTY-TWO-TYPES", "FF-PARTY-ELEMENT", "FF-PARTY-P-ICON"]);
    }
  }

  checkBlock(id) {
    if (this.step !== "block" || this.combat === null || this.combat.blocked !== null) {
      throw new RuleError("blocks are declared once, in the block step", ["FF-BASE-BLOCK"]);
    }
    if (id === null) return;
    const blocker = this.ownField(this.defender, id);
    if (!blocker) throw new RuleError(`${id}: not on the defending field`, ["FF-BASE-BLOCK"]);
    if (blocker.dull) throw new RuleError(`${id} is dull`, ["FF-BASE-BLOCK"]);
    const attackers = this.combat.attackers.map((a) => this.find(a).card);
    if (!attackers.some((a) => this.mayBlock(a, blocker))) {
      throw this.combat.party ? new RuleError(`${id} can block no member of the party`, ["FF-PARTY-BLOCK-ANY-MEMBER", "FF-BASE-BLOCK"])
        : new RuleError(`${id} cannot block this attacker`, ["FF-BASE-BLOCK"]);
    }
  }

  checkAssign(shares) {
    if (this.step !== "assign") throw new RuleError("nothing to assign now", ["FF-PARTY-SPLIT-THOUSANDS"]);
    const names = Object.keys(shares).sort();
    if (names.join(" ") !== [...this.combat.attackers].sort().join(" ")) {
      throw new RuleError("assign a share to each attacking member", ["FF-PARTY-SPLIT-THOUSANDS"]);
    }
    const amounts = names.map((n) => shares[n]);
    if (amounts.some((a) => a % 1000 !== 0) || amounts.reduce((x, y) => x + y, 0) !== this.splitTotal()) {
      throw new RuleError(`shares go in 1000s and add up to ${this.splitTotal()}`, ["FF-PARTY-SPLIT-THOUSANDS", "FF-BASE-PARTY-SPLIT"]);
    }
  }

  checkRemove(id) {
    if (!this.inWindow()) throw new RuleError("no priority window is open", ["FF-BASE-ATTACK-STEPS"]);
    if (!this.find(id)) throw new RuleError(`${id}: not on the field`, ["FF-PARTY-LEAVE-FIELD"]);
  }

  checkPass() {
    if (this.step === "declare" && this.combat === null) throw new RuleError("attack or end your turn", ["FF-BASE-ATTACK-STEPS"]);
    if (this.step === "block" && this.combat !== null && this.combat.blocked === null) {
      throw new RuleError("the defender must block or not first", ["FF-BASE-BLOCK"]);
    }
    if (this.step === "assign") throw new RuleError("assign the blocker's damage first", ["FF-PARTY-SPLIT-THOUSANDS"]);
  }

  checkEndTurn() {
    if (!["prepare", "declare"].includes(this.step) || this.combat !== null) {
      throw new RuleError("finish the attack before ending the turn", ["FF-BASE-ONE-ATTACK-AT-A-TIME", "FF-BASE-END-OF-TURN"]);
    }
  }

  // --- the moves that could be legal now (a superset; check() decides) ----------------------------------

  candidates() {
    const out = [{ type: "pass" }, { type: "end-turn" }, { type: "no-block" }];
    for (const p of this.players) for (const c of p.field) out.push({ type: "remove", id: c.id });
    if (this.step === "declare" && this.combat === null) {
      const able = this.players[this.active].field.filter((c) => this.mayAttackWith(c)).map((c) => c.id).sort();
      for (let mask = 1; mask < 1 << able.length; mask++) out.push({ type: "attack", ids: able.filter((_, i) => mask & (1 << i)) });
    }
    if (this.step === "block") for (const c of this.players[this.defender].field) out.push({ type: "block", id: c.id });
    if (this.step === "assign") {
      const members = [...this.combat.attackers].sort();
      for (const amounts of compositions(this.splitTotal() / 1000, members.length)) {
        out.push({ type: "assign", shares: Object.fromEntries(members.map((m, i) => [m, amounts[i] * 1000])) });
      }
    }
    return out;
  }

  legalMoves() {
    if (this.winner !== null) return [];
    return this.candidates().filter((m) => { try { this.check(m); return true; } catch (e) { if (e instanceof RuleError) return false; throw e; } });
  }

  // --- playing -----------------------------------------------------------------------------------------

  play(move) {
    this.check(move);
    if (move.type === "attack") this.declareAttack(move.ids);
    else if (move.type === "block") this.declareBlock(move.id);
    else if (move.type === "no-block") this.declareBlock(null);
    else if (move.type === "assign") this.dealCombatDamage(move.shares);
    else if (move.type === "remove") this.removeByEffect(move.id);
    else if (move.type === "pass") this.passPriority();
    else this.endTurn();
  }

  openWindow() { this.priority = this.active; this.passes = 0; }

  declareAttack(ids) {
    const members = ids.map((id) => this.ownField(this.active, id));
    for (const c of members) { c.attacked = true; if (!c.brave) c.dull = true; }
    this.combat = { attackers: [...ids].sort(), party: ids.length >= 2, blocked: null, blocker: null };
    this.openWindow();
  }

  declareBlock(id) {
    this.combat.blocked = id !== null;
    this.combat.blocker = id;
    this.openWindow();
  }

  // One player passes priority; two passes in a row close the step's window.
  passPriority() {
    this.passes += 1;
    this.priority = 1 - this.priority;
    if (this.passes < 2) return;
    this.openWindow();
    if (this.step === "prepare") this.step = "declare";
    else if (this.step === "declare") this.step = "block";
    else if (this.step === "block" || this.step === "damage") this.afterBlocks();
    else { this.combat = null; this.step = "declare"; }
  }

  // Combat damage right after the blocks: no step of its own, except for a party's assignment.
  afterBlocks() {
    const c = this.combat;
    if (c.blocked && c.blocker !== null && c.party && c.attackers.length) { this.step = "assign"; return; }
    this.dealCombatDamage(null);
  }

  dealCombatDamage(shares) {
    const c = this.combat;
    if (c.blocked === false && c.attackers.length) {
      const points = this.bug === "per-member-unblocked" && c.party ? c.attackers.length : 1;
      this.players[this.defender].damage = Math.min(SEVEN, this.players[this.defender].damage + points);
      this.log.push({ what: "hit", player: this.defender, amount: points });
      if (this.players[this.defender].damage >= SEVEN) { this.winner = this.active; this.step = "damage"; return; }
    } else if (c.blocked && c.blocker !== null && c.attackers.length) {
      const blocker = this.ownField(this.defender, c.blocker);
      const attackers = c.attackers.map((id) => this.ownField(this.active, id));
      const total = attackers.reduce((sum, a) => sum + Math.max(a.power, 0), 0);
      const dealt = shares || { [c.attackers[0]]: Math.max(blocker.power, 0) };
      blocker.damage += total;
      for (const a of attackers) a.damage += dealt[a.id] || 0;
      this.breakDestroyed();
    }
    this.wrapUp();
  }

  // The attack is over: on to the wrap-up step, where a party that is left stops being one.
  wrapUp() {
    this.step = "wrap-up";
    if (this.combat.party) this.disband();
    this.openWindow();
  }

  destroyed(c) { return c.power <= 0 || (c.power >= 1000 && c.damage >= c.power); }

  breakDestroyed() {
    const gone = this.players.flatMap((p) => p.field.filter((c) => this.destroyed(c)).map((c) => c.id)).sort();
    for (const id of gone) { this.toGraveyard(id); this.log.push({ what: "broken", id }); }
  }

  toGraveyard(id) {
    const { owner, card: c } = this.find(id);
    const p = this.players[owner];
    p.field = p.field.filter((x) => x.id !== id);
    p.graveyard.push({ ...c, dull: false, damage: 0, newcomer: true });
    const combat = this.combat;
    if (combat === null) return;
    if (combat.blocker === id) { combat.blocker = null; return; }
    combat.attackers = combat.attackers.filter((x) => x !== id);
    if (combat.party && combat.attackers.length < 2) this.disband();
  }

  disband() {
    this.log.push({ what: "disbanded", members: [...this.combat.attackers].sort() });
    this.combat.party = false;
  }

  removeByEffect(id) {
    this.toGraveyard(id);
    this.log.push({ what: "removed", id });
    const c = this.combat;
    if (c !== null && c.attackers.length === 0 && ["declare", "block"].includes(this.step)) this.wrapUp();
    else this.openWindow();
  }

  endTurn() {
    const next = 1 - this.active;
    this.players.forEach((p, i) => p.field.forEach((c) => {
      c.damage = 0; c.newcomer = false; c.attacked = false; if (i === next) c.dull = false;
    }));
    Object.assign(this, { active: next, turn: this.turn + 1, step: "prepare", combat: null, log: [] });
    this.openWindow();
    for (const [i, p] of this.players.entries()) if (this.winner === null && p.damage >= SEVEN) this.winner = 1 - i;
  }
}

function* compositions(units, parts) {
  if (parts === 1) { yield [units]; return; }
  for (let first = units; first >= 0; first--) for (const rest of compositions(units - first, parts - 1)) yield [first, ...rest];
}

module.exports = { Game, RuleError };
