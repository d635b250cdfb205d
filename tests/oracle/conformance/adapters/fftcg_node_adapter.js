#!/usr/bin/env node
// A conformance adapter written in JavaScript for Node.js: a tiny FFTCG engine for a subset,
// speaking the runner's JSON-lines protocol on stdin/stdout (see docs/conformance.rst).
//
// Subset, on purpose:
//   - the default rule set only (any decision option: "unsupported");
//   - single attackers only: no parties (FF-PARTY-*), a declaration of two or more Forwards is refused;
//   - no Pre-emptive Strike: the flag is kept in the state, but damage always resolves in one ordinary part
//     (so vectors where Pre-emptive Strike matters fail, blamed on FF-BASE-PREEMPTIVE).
// Everything else follows the catalogue's FFTCG base clauses: attack and block declaration, blocking
// restrictions, damage exchange, breaks at damage >= power (power >= 1000) or power <= 0, one point of
// damage for an unblocked attack, seven damage loses, removal by an effect, the end of the turn.
"use strict";

const readline = require("readline");

const PRIORITY_STEPS = ["attack-preparation", "attack-declaration", "combat-end"];
const FORWARD_DEFAULTS = {
  p_icon: false, dull: false, damage: 0, since_start: true, haste: false, brave: false, preemptive: false,
  unblockable_by_cost: null, unblockable_by_elements: [],
};

function clone(value) { return JSON.parse(JSON.stringify(value)); }
function ok(extra) { return Object.assign({ ok: true }, extra || {}); }
function fail(kind, message, clauses) {
  const reply = { ok: false, error: kind, message: message };
  if (clauses) reply.clauses = clauses;
  return reply;
}

// --- the state ---------------------------------------------------------------------------------------

function normalise(state) {
  const forward = (f) => {
    const out = Object.assign({}, FORWARD_DEFAULTS, f);
    out.elements = [...out.elements].sort();
    out.unblockable_by_elements = [...out.unblockable_by_elements].sort();
    return {
      id: out.id, name: out.name, elements: out.elements, cost: out.cost, power: out.power, p_icon: out.p_icon,
      dull: out.dull, damage: out.damage, since_start: out.since_start, haste: out.haste, brave: out.brave,
      preemptive: out.preemptive, unblockable_by_cost: out.unblockable_by_cost,
      unblockable_by_elements: out.unblockable_by_elements,
    };
  };
  return {
    turn: state.turn, turn_player: state.turn_player, phase: state.phase || "attack", step: state.step,
    players: state.players.map((p) => ({
      damage: p.damage || 0, forwards: (p.forwards || []).map(forward), break_zone: (p.break_zone || []).map(forward),
    })),
    attack: state.attack ? Object.assign({ declared_preemptive: false, blocked: null, blocker: null,
      attackers_dealt: false, blocker_dealt: false }, state.attack) : null,
    attacked: [...(state.attacked || [])].sort(),
    events: state.events || [],
    outcome: state.outcome || null,
  };
}

function defender(s) { return 1 - s.turn_player; }
function locate(s, id) {
  for (let i = 0; i < 2; i++) {
    const f = s.players[i].forwards.find((x) => x.id === id);
    if (f) return [i, f];
  }
  return null;
}
function onField(s) { return s.players.flatMap((p) => p.forwards); }
function log(s, kind, sources, target, amount) { s.events.push({ kind, sources, target, amount }); }

function canAttack(s, f) {
  return s.players[s.turn_player].forwards.some((x) => x.id === f.id) && !f.dull &&
    (f.since_start || f.haste) && !s.attacked.includes(f.id);
}
function canDeclareNow(s) { return s.outcome === null && s.step === "attack-declaration" && s.attack === null; }
function canBlock(attacker, blocker) {
  if (blocker.dull) return false;
  if (attacker.unblockable_by_cost !== null && blocker.cost >= attacker.unblockable_by_cost) return false;
  return !attacker.unblockable_by_elements.some((e) => blocker.elements.includes(e));
}
function isBroken(f) { return f.power <= 0 || (f.power >= 1000 && f.damage >= f.power); }

function toBreakZone(s, id) {
  const [index, f] = locate(s, id);
  const player = s.players[index];
  player.forwards = player.forwards.filter((x) => x.id !== id);
  player.break_zone.push(Object.assign({}, f, { dull: false, damage: 0, since_start: false }));
}
function leftField(s, id) {
  if (s.attack === null) return;
  if (s.attack.blocker === id) { s.attack.blocker = null; return; }
  s.attack.attackers = s.attack.attackers.filter((x) => x !== id);
}
function checkBreaks(s, credits) {
  const broken = onField(s).filter(isBroken).map((f) => f.id).sort();
  for (const id of broken) { toBreakZone(s, id); log(s, "break", credits[id] || [], id, 0); }
  for (const id of broken) leftField(s, id);
}
function checkLoss(s) {
  if (s.outcome !== null) return;
  for (let i = 0; i < 2; i++) {
    if (s.players[i].damage >= 7) { s.outcome = { winner: 1 - i, reason: "seven-damage" }; return; }
  }
}

// --- legality ----------------------------------------------------------------------------------------

function parse(text) {
  const words = text.trim().split(/\s+/);
  return { kind: words[0], args: words.slice(1) };
}

function whyIllegal(s, a) {
  if (s.outcome !== null) return ["the game is over", ["FF-BASE-SEVEN-DAMAGE-LOSES"]];
  const attack = s.attack;
  switch (a.kind) {
    case "attack": {
      if (!canDeclareNow(s)) return ["not the time to declare an attack", ["FF-BASE-ATTACK-STEPS", "FF-BASE-ONE-ATTACK-AT-A-TIME"]];
      if (a.args.length !== 1) {
        // no parties here; a group that could never be one is refused for the reasons a party engine gives
        const group = a.args.map((id) => s.players[s.turn_player].forwards.find((x) => x.id === id));
        const shared = group.every((f) => f) && group.reduce((common, f) => common.filter((e) => f.elements.includes(e)),
          group[0].elements).length > 0;
        const allP = group.every((f) => f && f.p_icon);
        if (group.every((f) => f) && !shared && !allP) {
          return ["the group shares no element", ["FF-PARTY-FORM-VALID", "FF-PARTY-TWO-TYPES", "FF-PARTY-ELEMENT",
            "FF-PARTY-P-ICON"]];
        }
        return ["this engine does not form parties", ["FF-PARTY-FORM-VALID"]];
      }
      const f = s.players[s.turn_player].forwards.find((x) => x.id === a.args[0]);
      if (!f || !canAttack(s, f)) return [`${a.args[0]} cannot attack`, ["FF-BASE-CAN-ATTACK"]];
      return null;
    }
    case "block":
    case "noblock": {
      if (s.step !== "block-declaration" || attack === null || attack.blocked !== null) return ["no block now", ["FF-BASE-BLOCK"]];
      if (a.kind === "noblock") return null;
      const b = s.players[defender(s)].forwards.find((x) => x.id === a.args[0]);
      if (!b || b.dull) return [`${a.args[0]} cannot block`, ["FF-BASE-BLOCK"]];
      const attackers = attack.attackers.map((id) => locate(s, id)[1]);
      if (!attackers.some((x) => canBlock(x, b))) return [`${a.args[0]} cannot block this attacker`, ["FF-BASE-BLOCK"]];
      return null;
    }
    case "remove": {
      const window = PRIORITY_STEPS.includes(s.step) || (s.step === "block-declaration" && attack !== null && attack.blocked !== null);
      if (!window) return ["no player may act now", ["FF-BASE-ATTACK-STEPS"]];
      if (!locate(s, a.args[0])) return [`${a.args[0]} is not on the field`, ["FF-PARTY-LEAVE-FIELD"]];
      return null;
    }
    case "pass": {
      if (s.step === "attack-declaration" && attack === null) return ["declare an attack or end the turn", ["FF-BASE-ATTACK-STEPS"]];
      if (s.step === "block-declaration" && attack !== null && attack.blocked === null) return ["block first", ["FF-BASE-BLOCK"]];
      return null;
    }
    case "end-turn": {
      if (!["attack-preparation", "attack-declaration"].includes(s.step) || attack !== null) {
        return ["finish the attack first", ["FF-BASE-ONE-ATTACK-AT-A-TIME", "FF-BASE-END-OF-TURN"]];
      }
      return null;
    }
    default:
      return [`unknown action ${a.kind}`, []];
  }
}

function candidates(s) {
  const out = ["pass", "end-turn", "noblock"];
  for (const f of onField(s)) out.push(`remove ${f.id}`);
  if (canDeclareNow(s)) for (const f of s.players[s.turn_player].forwards) if (canAttack(s, f)) out.push(`attack ${f.id}`);
  if (s.step === "block-declaration" && s.attack !== null && s.attack.blocked === null) {
    for (const f of s.players[defender(s)].forwards) out.push(`block ${f.id}`);
  }
  return out;
}

// --- playing -----------------------------------------------------------------------------------------

function endOfAttack(s) { s.step = "combat-end"; }

function resolveDamage(s) {
  const attack = s.attack;
  if (attack.blocked === false) {
    if (attack.attackers.length) {
      const p = s.players[defender(s)];
      p.damage = Math.min(7, p.damage + 1);
      log(s, "hit", attack.attackers, `p${defender(s)}`, 1);
      checkLoss(s);
    }
  } else if (attack.blocker !== null && attack.attackers.length) {
    const attackersDeal = !attack.attackers_dealt;
    const blockerDeal = !attack.blocker_dealt;
    const attacker = locate(s, attack.attackers[0])[1];
    const blocker = locate(s, attack.blocker)[1];
    const credits = {};
    const amounts = [];
    if (attackersDeal) {
      amounts.push([blocker, Math.max(attacker.power, 0)]);
      log(s, "damage", attack.attackers, blocker.id, Math.max(attacker.power, 0));
      credits[blocker.id] = attack.attackers;
    }
    if (blockerDeal) {
      const amount = Math.max(blocker.power, 0);
      if (amount > 0) { amounts.push([attacker, amount]); log(s, "damage", [blocker.id], attacker.id, amount); }
      credits[attacker.id] = [blocker.id];
    }
    for (const [f, amount] of amounts) f.damage += amount;
    attack.attackers_dealt = attack.attackers_dealt || attackersDeal;
    attack.blocker_dealt = attack.blocker_dealt || blockerDeal;
    checkBreaks(s, credits);
  }
  if (s.outcome === null) endOfAttack(s);
}

function apply(s, a) {
  switch (a.kind) {
    case "attack": {
      const f = locate(s, a.args[0])[1];
      if (!f.brave) f.dull = true;
      s.attack = { attackers: [f.id], party: false, declared: [f.id], declared_preemptive: f.preemptive,
        blocked: null, blocker: null, attackers_dealt: false, blocker_dealt: false };
      s.attacked = [...s.attacked, f.id].sort();
      break;
    }
    case "block": s.attack.blocked = true; s.attack.blocker = a.args[0]; break;
    case "noblock": s.attack.blocked = false; s.attack.blocker = null; break;
    case "remove":
      toBreakZone(s, a.args[0]);
      log(s, "remove", [], a.args[0], 0);
      leftField(s, a.args[0]);
      if (s.attack !== null && !s.attack.attackers.length && ["attack-declaration", "block-declaration"].includes(s.step)) endOfAttack(s);
      break;
    case "pass":
      if (s.step === "attack-preparation") s.step = "attack-declaration";
      else if (s.step === "attack-declaration") s.step = "block-declaration";
      else if (s.step === "block-declaration") s.step = "damage-resolution"; // no Pre-emptive Strike part here
      else if (s.step === "damage-resolution" || s.step === "damage-preemptive") resolveDamage(s);
      else { s.attack = null; s.step = "attack-declaration"; }
      break;
    case "end-turn": {
      const next = 1 - s.turn_player;
      s.players.forEach((p, i) => p.forwards.forEach((f) => {
        f.damage = 0; f.since_start = true; if (i === next) f.dull = false;
      }));
      Object.assign(s, { turn_player: next, turn: s.turn + 1, step: "attack-preparation", attack: null, attacked: [], events: [] });
      checkLoss(s);
      break;
    }
  }
  if (onField(s).some(isBroken)) checkBreaks(s, {});
}

// A position the rules let stand (docs/conformance.rst, the FFTCG consistency rules): ids unique; an attack's
// attackers and blocker on the right side of the field; no attack of two or more Forwards without a party
// before Combat End; and the state-based checks already applied (no Forward to break on the field, no
// player at 7 damage in a game still going).
function firstProblem(s) {
  const seen = new Set();
  for (const [p, player] of s.players.entries()) {
    for (const f of [...player.forwards, ...player.break_zone]) {
      if (seen.has(f.id)) return `id ${f.id} is used twice`;
      seen.add(f.id);
    }
    for (const f of player.forwards) {
      if (f.power <= 0 || (f.power >= 1000 && f.damage >= f.power)) {
        return `${f.id} (power ${f.power}, damage ${f.damage}) should have been broken (FF-BASE-BREAK-ZERO-POWER, FF-BASE-BREAK-DAMAGE)`;
      }
    }
    if (s.outcome === null && player.damage >= 7) return `player ${p} has 7 damage and the game goes on (FF-BASE-SEVEN-DAMAGE-LOSES)`;
  }
  const attack = s.attack;
  if (attack) {
    const own = (p, id) => s.players[p].forwards.some((f) => f.id === id);
    if (attack.attackers.some((id) => !own(s.turn_player, id))) return "an attacker is not on the turn player's field";
    if (attack.blocker !== null && !own(1 - s.turn_player, attack.blocker)) return "the blocker is not on the defending player's field";
    if (!attack.party && attack.attackers.length >= 2 && s.step !== "combat-end") return "two or more attackers and no party (FF-BASE-ONE-ATTACK-AT-A-TIME)";
    if (attack.party && attack.attackers.length < 2) return "a party of fewer than two (FF-PARTY-MIN-TWO)";
  }
  return null;
}

// --- the protocol ------------------------------------------------------------------------------------

let state = null;

function handle(request) {
  if (request === null || typeof request !== "object" || typeof request.op !== "string") {
    return fail("bad-request", "a request is an object with an 'op' string");
  }
  if (request.op === "load") {
    if (request.game !== "fftcg") return fail("unsupported", `this engine plays FFTCG only, not ${request.game}`);
    const decisions = (request.rule_set && request.rule_set.decisions) || {};
    if (Object.keys(decisions).length) return fail("unsupported", "this engine implements the default rule set only");
    const loaded = normalise(request.state);
    const problem = firstProblem(loaded);
    if (problem !== null) return fail("bad-request", problem);
    state = loaded;
    return ok();
  }
  if (state === null) return fail("bad-request", "no position loaded yet");
  if (request.op === "legal_actions") {
    if (state.outcome !== null) return ok({ actions: [] });
    return ok({ actions: candidates(state).filter((text) => whyIllegal(state, parse(text)) === null).sort() });
  }
  if (request.op === "apply") {
    if (typeof request.action !== "string") return fail("bad-request", "apply needs an 'action' string");
    const action = parse(request.action);
    const why = whyIllegal(state, action);
    if (why !== null) return fail("illegal", why[0], why[1]);
    const next = clone(state);
    apply(next, action);
    state = next;
    return ok();
  }
  if (request.op === "state") return ok({ state: clone(state) });
  return fail("bad-request", `unknown op ${request.op}`);
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  if (!line.trim()) return;
  let reply;
  try {
    const request = JSON.parse(line);
    if (request && request.op === "quit") { process.stdout.write('{"ok":true}\n'); process.exit(0); }
    reply = handle(request);
  } catch (problem) {
    reply = fail(problem instanceof SyntaxError ? "bad-request" : "internal", String(problem));
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
