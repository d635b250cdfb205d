// The playground's boards: a position as the players see it (the game's observable_json), drawn.
// FFTCG: each player's damage, Forwards on the field (name, id, power, damage, dull or active,
// attacking or blocking) and break zone. Redemption: each player's territory, Land of Bondage,
// discard pile, hand, Land of Redemption and deck, then the battle stack with each side's characters.
(function () {
  "use strict";

  const STEPS = {
    "attack-preparation": "Attack Preparation Step", "attack-declaration": "Attack Declaration Step",
    "block-declaration": "Block Declaration Step", "damage-resolution": "Damage Resolution Step",
    "combat-end": "Combat End Step",
  };

  function forward(card, attack, el) {
    const roles = [];
    if (attack && attack.attackers.includes(card.id)) roles.push(attack.party ? "in the attacking party" : "attacking");
    if (attack && attack.blocker === card.id) roles.push("blocking");
    return el("div", {class: "pg-card" + (card.dull ? " pg-dull" : ""), "data-card": card.id},
      el("div", {class: "pg-card-name"}, card.name),
      el("div", {class: "pg-card-id"}, card.id, " \u00b7 ", card.elements.join("/"), card.p_icon ? " \u00b7 P" : ""),
      el("div", {class: "pg-power"}, `${card.power} power`),
      card.damage ? el("div", {class: "pg-damage"}, `${card.damage} damage`) : null,
      el("div", {class: "pg-card-state"}, card.dull ? "dull" : "active",
        card.preemptive ? " \u00b7 Pre-emptive" : "", card.haste ? " \u00b7 Haste" : "", card.brave ? " \u00b7 Brave" : ""),
      roles.length ? el("div", {class: "pg-role"}, roles.join(", ")) : null);
  }

  function fftcg(board, el) {
    const out = el("div", {class: "pg-board pg-fftcg"});
    board.players.forEach((player, index) => {
      out.append(el("section", {class: "pg-player", "data-player": String(index)},
        el("h4", {}, `Player ${index}`, index === board.turn_player ? " (turn player)" : "",
          ` \u00b7 ${player.damage} damage received`),
        el("div", {class: "pg-zone-label"}, "Field"),
        el("div", {class: "pg-row"}, player.field.length ? player.field.map((card) => forward(card, board.attack, el))
          : el("span", {class: "pg-quiet"}, "no Forwards")),
        el("div", {class: "pg-zone-label"}, "Break zone: ",
          player.break_zone.length ? player.break_zone.map((id) => `${board.names[id] || id} (${id})`).join(", ") : "empty")));
    });
    return out;
  }

  function cardLabel(board, id) {
    const card = board.cards.find((c) => c.id === id);
    if (!card) return id;
    if (card.type === "lost-soul") return `${id}: Lost Soul`;
    if (card.type === "character") {
      const kind = card.alignment === "good" ? "Hero" : "Evil Character";
      return `${id}: ${kind} ${card.strength}/${card.toughness}` + (card.ability ? `, ${card.ability}` : "");
    }
    return `${id}: enhancement` + (card.ability ? `, ${card.ability}` : "") +
      (card.strength || card.toughness ? ` +${card.strength}/+${card.toughness}` : "");
  }

  function chips(board, ids, el) {
    if (!ids.length) return el("span", {class: "pg-quiet"}, "empty");
    const statuses = new Map(board.statuses.map(([card, status]) => [card, status]));
    return ids.map((id) => el("span", {class: "pg-chip", "data-card": id}, cardLabel(board, id),
      statuses.has(id) ? ` (${statuses.get(id)})` : ""));
  }

  const ZONES = [["territory", "Territory"], ["bondage", "Land of Bondage"], ["discard", "Discard pile"],
    ["hand", "Hand"], ["redemption", "Land of Redemption"]];

  function redemption(board, el) {
    const out = el("div", {class: "pg-board pg-redemption"});
    board.players.forEach((zones, index) => {
      const section = el("section", {class: "pg-player", "data-player": String(index)},
        el("h4", {}, `Player ${index}`, index === board.active ? " (turn player)" : "",
          zones.deck.length ? ` \u00b7 ${zones.deck.length} cards in deck` : ""));
      for (const [name, words] of ZONES) {
        section.append(el("div", {class: "pg-zone", "data-zone": name}, el("span", {class: "pg-zone-label"}, words + ": "),
          chips(board, zones[name], el)));
      }
      out.append(section);
    });
    const stack = el("section", {class: "pg-battles"}, el("h4", {}, "Battle stack (main battle first)"));
    if (!board.battles.length) stack.append(el("p", {class: "pg-quiet"}, "no battle"));
    board.battles.forEach((battle, level) => {
      const sides = battle.sides.map((fighters, side) => el("div", {class: "pg-side"},
        el("span", {class: "pg-zone-label"}, `Player ${battle.players[side]}'s side: `),
        fighters.length ? fighters.map((f) => el("span", {class: "pg-chip", "data-card": f.card}, cardLabel(board, f.card),
          f.enhancements.length ? ` with ${f.enhancements.join(", ")}` : "")) : el("span", {class: "pg-quiet"}, "no one")));
      stack.append(el("div", {class: "pg-battle", "data-kind": battle.kind},
        el("strong", {}, `Level ${level + 1}: ${battle.kind === "side" ? "side battle" : battle.kind}`),
        battle.outcome ? ` \u00b7 ${battle.outcome}` : "", sides));
    });
    out.append(stack);
    return out;
  }

  function status(view) {
    const board = view.board;
    if (view.game === "fftcg") {
      if (board.winner !== null) return `Player ${board.winner} has won.`;
      if (view.legal.some((text) => text.startsWith("split "))) {
        // the blocker's power is divided as the blocking side chooses (FF-BASE-PARTY-SPLIT)
        return `Turn ${board.turn}, Damage Resolution Step: player ${1 - board.turn_player}, whose Forward blocks, ` +
          "chooses how its damage is divided among the party.";
      }
      return `Turn ${board.turn}, ${STEPS[board.step] || board.step}: player ${board.decider} decides.`;
    }
    if (board.winner !== null) return `Player ${board.winner} has won.`;
    const decision = board.decision;
    const what = decision.kind === "phase-action" ? "acts" : `decides (${decision.kind.replace("-", " ")})`;
    return `Turn ${board.turn}, ${board.phase} phase: player ${decision.player} ${what}.`;
  }

  window.cardrulesPlaygroundBoards = {fftcg: fftcg, redemption: redemption, status: status};
})();
