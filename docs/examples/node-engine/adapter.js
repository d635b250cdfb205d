#!/usr/bin/env node
// The conformance adapter for engine.js: JSON lines on stdin, one JSON reply per line on stdout
// (protocol cardrules-adapter/2; docs/conformance.rst walks through this file part by part).
"use strict";

const readline = require("readline");
const { Game, RuleError } = require("./engine");

// --- part 1: the hello ----------------------------------------------------------------------------------
// What this engine is: it answers with the observable profile, the FFTCG features it implements (no
// Pre-emptive Strike), the default reading of every decision, and the one step it merges.
const HELLO = {
  ok: true,
  engine: "node-fftcg-example",
  profile: "observable",
  games: { fftcg: { features: ["multi-element", "p-icon-party", "party", "zero-power-break"], readings: {} } },
  macro_steps: ["fftcg:damage-resolution"],
  compare_at: "every-step",
};

// --- part 2: loading a position -------------------------------------------------------------------------
// The runner sends positions in the model's JSON form; we read the fields we need into our own setup.
const STEP_IN = {
  "attack-preparation": "prepare", "attack-declaration": "declare", "block-declaration": "block",
  "damage-resolution": "damage", "combat-end": "wrap-up",
};

function cardSpec(f, attacked) {
  return {
    id: f.id, name: f.name, elements: f.elements, cost: f.cost, power: f.power, pIcon: f.p_icon, haste: f.haste, brave: f.brave,
    firstStrike: !!f.preemptive, maxBlockerCost: f.unblockable_by_cost ?? null, shunnedElements: f.unblockable_by_elements || [],
    dull: !!f.dull, damage: f.damage || 0, newcomer: f.since_start === false, attacked: attacked.includes(f.id),
  };
}

// The model's event log, as the happenings our engine keeps (damage to Forwards it does not log).
function logEntry(e) {
  if (e.kind === "hit") return { what: "hit", player: Number(e.target.slice(1)), amount: e.amount };
  if (e.kind === "break") return { what: "broken", id: e.target };
  if (e.kind === "remove") return { what: "removed", id: e.target };
  if (e.kind === "disband") return { what: "disbanded", members: [...e.sources].sort() };
  return null;
}

function setupFrom(state) {
  const step = STEP_IN[state.step];
  if (state.step === "damage-preemptive") throw new RuleError("this engine has no Pre-emptive Strike part", []);
  if (step === undefined) throw new Error(`step: unknown step ${JSON.stringify(state.step)}`);
  const attack = state.attack;
  const attacked = state.attacked || [];
  const setup = {
    turn: state.turn, active: state.turn_player, step, winner: state.outcome ? state.outcome.winner : null,
    players: state.players.map((p) => ({
      damage: p.damage || 0,
      field: (p.forwards || []).map((f) => cardSpec(f, attacked)),
      graveyard: (p.break_zone || []).map((f) => cardSpec(f, [])),
    })),
    log: (state.events || []).map(logEntry).filter((entry) => entry !== null),
    combat: attack ? { attackers: attack.attackers, party: !!attack.party, blocked: attack.blocked ?? null,
      blocker: attack.blocker ?? null } : null,
  };
  if (step === "damage" && attack && (attack.attackers_dealt || attack.blocker_dealt)) {
    setup.unsupported = "this engine deals all combat damage at once, never in parts";
  }
  if (step === "damage" && attack && attack.blocked && attack.blocker !== null && attack.party && attack.attackers.length) {
    setup.step = "assign";
  }
  return setup;
}

// A position the rules cannot reach is refused as bad input (the state format's consistency rules).
function problemIn(game) {
  const seen = new Set();
  for (const [i, p] of game.players.entries()) {
    for (const c of [...p.field, ...p.graveyard]) {
      if (seen.has(c.id)) return `card ${c.id} appears twice`;
      seen.add(c.id);
    }
    for (const c of p.field) if (game.destroyed(c)) return `${c.id} should already be in the break zone`;
    if (game.winner === null && p.damage >= 7) return `player ${i} has 7 damage but has not lost`;
  }
  const combat = game.combat;
  if (combat) {
    if (combat.attackers.some((id) => !game.ownField(game.active, id))) return "an attacker is not on the turn player's field";
    if (combat.blocker !== null && !game.ownField(game.defender, combat.blocker)) return "the blocker is not on the defending field";
    if (!combat.party && combat.attackers.length >= 2 && game.step !== "wrap-up") return "several attackers but no party";
    if (combat.party && combat.attackers.length < 2) return "a party of fewer than two";
  }
  return null;
}

// --- part 3: actions, both ways ---------------------------------------------------------------------------
function actionText(move) {
  switch (move.type) {
    case "attack": return `attack ${[...move.ids].sort().join(" ")}`;
    case "block": return `block ${move.id}`;
    case "no-block": return "noblock";
    case "assign": return "split " + Object.keys(move.shares).sort().map((id) => `${id}=${move.shares[id]}`).join(" ");
    case "remove": return `remove ${move.id}`;
    default: return move.type; // pass, end-turn
  }
}

function moveOf(text) {
  const [verb, ...args] = text.trim().split(/\s+/);
  if (verb === "attack") return { type: "attack", ids: args };
  if (verb === "block") return { type: "block", id: args[0] };
  if (verb === "noblock") return { type: "no-block" };
  if (verb === "remove") return { type: "remove", id: args[0] };
  if (verb === "split") return { type: "assign", shares: Object.fromEntries(args.map((a) => a.split("=")).map(([id, n]) => [id, Number(n)])) };
  if (verb === "pass" || verb === "end-turn") return { type: verb };
  return { type: verb };
}

// The protocol's "pass" is both players passing; our engine passes priority one player at a time.
function apply(game, text) {
  const move = moveOf(text);
  const next = game.clone();
  next.play(move);
  if (move.type === "pass" && next.passes === 1) next.play(move);
  return next;
}

// --- part 4: the observable state -----------------------------------------------------------------------
// What players see, from our own state (never the model's bookkeeping).
const STEP_OUT = { prepare: "attack-preparation", declare: "attack-declaration", block: "block-declaration",
  damage: "damage-resolution", assign: "damage-resolution", "wrap-up": "combat-end" };

function cardJson(c) {
  return {
    id: c.id, name: c.name, elements: [...c.elements].sort(), cost: c.cost, power: c.power, p_icon: c.pIcon,
    haste: c.haste, brave: c.brave, preemptive: c.firstStrike, unblockable_by_cost: c.maxBlockerCost,
    unblockable_by_elements: [...c.shunnedElements].sort(), damage: c.damage, dull: c.dull,
  };
}

function eventJson(entry) {
  if (entry.what === "hit") return { event: "player-damaged", player: entry.player, amount: entry.amount };
  if (entry.what === "broken") return { event: "forward-broken", forward: entry.id };
  if (entry.what === "removed") return { event: "forward-removed", forward: entry.id };
  return { event: "party-disbanded", members: entry.members };
}

// Events are sorted by their text with sorted keys, written as Python's json.dumps writes it.
function sortKey(value) {
  if (Array.isArray(value)) return "[" + value.map(sortKey).join(", ") + "]";
  if (value !== null && typeof value === "object") {
    return "{" + Object.keys(value).sort().map((k) => `${JSON.stringify(k)}: ${sortKey(value[k])}`).join(", ") + "}";
  }
  return JSON.stringify(value);
}
const byId = (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function observable(game) {
  const combat = game.combat;
  const events = game.log.map(eventJson).map((e) => [sortKey(e), e]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return {
    winner: game.winner,
    turn: game.turn,
    turn_player: game.active,
    step: STEP_OUT[game.step],
    decider: game.step === "block" && combat && combat.blocked === null ? game.defender : game.active,
    players: game.players.map((p) => ({
      damage: p.damage,
      field: [...p.field].sort(byId).map(cardJson),
      break_zone: p.graveyard.map((c) => c.id).sort(),
    })),
    attack: combat && { attackers: [...combat.attackers].sort(), party: combat.party, blocked: combat.blocked,
      blocker: combat.blocker },
    events: events.map(([, e]) => e),
  };
}

// --- part 5: the session ----------------------------------------------------------------------------------
let game = null;
const bug = process.env.NODE_ENGINE_BUG || "";

function failure(error, message, extra) { return { ok: false, error, message, ...(extra || {}) }; }

function handle(request) {
  switch (request.op) {
    case "hello": return HELLO;
    case "load": {
      if (request.game !== "fftcg") return failure("unsupported", `this engine plays FFTCG, not ${request.game}`);
      const decisions = (request.rule_set && request.rule_set.decisions) || {};
      const other = Object.keys(decisions).filter((d) => HELLO.games.fftcg.readings[d] !== decisions[d]);
      if (other.length) return failure("unsupported", `readings not implemented: ${other.join(", ")}`);
      let loaded, setup;
      try {
        setup = setupFrom(request.state);
        loaded = new Game(setup, { bug });
      } catch (e) {
        if (e instanceof RuleError) return failure("unsupported", e.message);
        return failure("bad-request", `state: ${e.message}`);
      }
      const problem = problemIn(loaded);
      if (problem !== null) return failure("bad-request", `state: ${problem}`);
      if (setup.unsupported) return failure("unsupported", setup.unsupported);
      game = loaded;
      return { ok: true };
    }
    case "legal_actions":
      return game ? { ok: true, actions: game.legalMoves().map(actionText) } : failure("bad-request", "load a position first");
    case "apply":
      if (!game) return failure("bad-request", "load a position first");
      try { game = apply(game, String(request.action)); } catch (e) {
        if (e instanceof RuleError) return failure("illegal", e.message, { clauses: e.refs });
        throw e;
      }
      return { ok: true };
    case "state":
      return game ? { ok: true, state: observable(game) } : failure("bad-request", "load a position first");
    default:
      return failure("bad-request", `unknown op ${request.op}`);
  }
}

readline.createInterface({ input: process.stdin, terminal: false }).on("line", (line) => {
  if (!line.trim()) return;
  let reply;
  try {
    const request = JSON.parse(line);
    if (request.op === "quit") process.exit(0);
    reply = handle(request);
  } catch (e) {
    reply = failure(e instanceof SyntaxError ? "bad-request" : "internal", String(e));
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
