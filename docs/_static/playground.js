// The playground: the reference model itself, run in the page by Pyodide from the project's wheel.
// The page is playground.html?game=GAME&rules=RULES#POSITION (POSITION: base64url, no padding, of the
// state's compact sorted JSON); without a position it offers the embedded scenarios. Every view comes
// from cardrules.oracle.playground.session (start_json, act_json, scenarios_json); this file only draws.
// The root element's data-state says where it is: loading, ready, error, no-runtime.
(function () {
  "use strict";
  const root = document.getElementById("cardrules-playground");
  if (!root || root.dataset.runtime !== "present") return;
  const base = root.dataset.static;
  const views = [];  // the positions shown, the current one last (undo pops)
  let session = null;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "class") node.className = value;
      else if (key.startsWith("data-")) node.setAttribute(key, value);
      else node[key] = value;
    }
    for (const child of children.flat()) {
      if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  // A rule's place in the rules view: the hover previews' data (written at build time by
  // docs/_ext/cardrules_previews.py, loaded on every page) knows the page of each rule; without it the
  // area's rules index, which lists every rule.
  function rulePage(clause) {
    const known = (window.CARDRULES_CLAUSES || {})[clause.id];
    return known ? known.page : `rules/${clause.area}.html`;
  }

  function part(name) {
    return root.querySelector(`[data-part="${name}"]`);
  }

  function say(text, state) {
    part("status").textContent = text;
    if (state) root.dataset.state = state;
  }

  function showError(text) {
    part("error").textContent = text;
    part("error").hidden = !text;
  }

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const script = el("script", {src: src});
      script.onload = resolve;
      script.onerror = () => reject(new Error(`cannot load ${src}`));
      document.head.append(script);
    });
  }

  async function boot() {
    say("Loading the Python runtime and the rules model (a few seconds)...", "loading");
    const manifest = await (await fetch(base + "manifest.json")).json();
    await loadScript(base + "pyodide/pyodide.js");
    const pyodide = await globalThis.loadPyodide({indexURL: base + "pyodide/"});
    const wheel = await fetch(`${base}${manifest.wheel}?sha256=${manifest.sha256}`);
    if (!wheel.ok) throw new Error(`cannot load the model's wheel ${manifest.wheel}`);
    const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
    pyodide.unpackArchive(await wheel.arrayBuffer(), "wheel", {extractDir: sitePackages});
    session = pyodide.pyimport("cardrules.oracle.playground.session");
    openAddress();
    // a link to another position pasted into this tab changes only the fragment: open it too
    window.addEventListener("hashchange", openAddress);
  }

  function openAddress() {
    const query = new URLSearchParams(location.search);
    const fragment = location.hash.replace(/^#/, "");
    const shown = views[views.length - 1];
    if (shown && new URL(shown.link, location.href).href === location.href) return;
    if (fragment) {
      open(session.start_json(query.get("game") || "", query.get("rules") || "default", fragment));
    } else {
      const offered = JSON.parse(session.scenarios_json());
      if (offered.error) {
        showError(offered.error);
        say("The embedded scenarios could not be read.", "error");
      } else {
        offerScenarios(offered);
      }
    }
  }

  function open(answerText) {
    const answer = JSON.parse(answerText);
    if (answer.error) {
      showError(answer.error);
      say("The position could not be opened.", "error");
      return;
    }
    showError("");
    views.length = 0;
    show(answer);
  }

  function offerScenarios(scenarios) {
    const list = part("scenarios");
    list.replaceChildren(el("h3", {}, "Start from an embedded scenario"));
    for (const scenario of scenarios) {
      const buttons = scenario.rules.map((rules) => el("button", {
        class: "pg-scenario", type: "button", "data-name": scenario.name, "data-rules": rules,
        onclick: () => open(session.start_json(scenario.game, rules, encodePosition(scenario.position))),
      }, rules === "default" ? "start" : `start (${rules})`));
      list.append(el("div", {class: "pg-scenario-row"},
        el("strong", {}, scenario.name), " ", el("span", {class: "pg-game"}, scenario.game),
        el("p", {}, scenario.description), buttons));
    }
    list.hidden = false;
    say("Pick a scenario, or open a link to a position.", "ready");
  }

  function encodePosition(position) {
    const text = JSON.stringify(sortKeys(position));
    const bytes = new TextEncoder().encode(text);
    let binary = "";
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function sortKeys(value) {
    if (Array.isArray(value)) return value.map(sortKeys);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys(value[key])]));
    }
    return value;
  }

  function act(action) {
    const view = views[views.length - 1];
    const answer = JSON.parse(session.act_json(JSON.stringify(view), action));
    if (answer.error) {
      showError(answer.error);
      return;
    }
    showError("");
    show(answer);
  }

  function undo() {
    if (views.length > 1) {
      views.pop();
      draw(views[views.length - 1]);
    }
  }

  function show(view) {
    views.push(view);
    draw(view);
  }

  function draw(view) {
    part("scenarios").hidden = true;
    const permalink = new URL(view.link, location.href).href;
    part("permalink").href = permalink;
    window.history.replaceState(null, "", permalink);
    part("undo").disabled = views.length < 2;
    part("controls").hidden = false;
    part("title").textContent = `${view.title}, rules: ${view.rules}`;
    const boards = window.cardrulesPlaygroundBoards;
    part("board").replaceChildren((view.game === "fftcg" ? boards.fftcg : boards.redemption)(view.board, el));
    drawActions(view.legal);
    drawLast(view.last);
    say(boards.status(view), "ready");
  }

  function drawActions(legal) {
    const list = part("actions");
    list.replaceChildren();
    if (!legal.length) list.append(el("p", {}, "No legal action: play is over."));
    for (const text of legal) {
      list.append(el("button", {class: "pg-action", type: "button", "data-action": text, onclick: () => act(text)}, text));
    }
  }

  function drawLast(last) {
    const box = part("last");
    box.replaceChildren();
    if (!last) {
      box.append(el("p", {}, "Play an action to see what happens and which rules apply."));
      return;
    }
    box.append(el("p", {class: "pg-played"}, "Played: ", el("code", {}, last.action)));
    box.append(el("h4", {}, "What happened"));
    const events = last.events.length ? last.events.map((text) => el("li", {class: "pg-event"}, text))
      : [el("li", {class: "pg-event pg-quiet"}, "nothing a player sees, beyond the step or decision moving on")];
    box.append(el("ul", {class: "pg-events"}, events));
    box.append(el("h4", {}, `Rules consulted: the model code that ran for this action (${last.clauses.length})`));
    box.append(el("ul", {class: "pg-clauses"}, last.clauses.map((clause) => el("li", {
      class: "pg-clause", "data-clause": clause.id, "data-number": clause.number,
    }, el("a", {href: rulePage(clause)},
      clause.number ? `${clause.number} \u00b7 ${clause.id}` : clause.id), ": ", clause.title))));
  }

  root.querySelector('[data-part="undo"]').addEventListener("click", undo);
  boot().catch((error) => {
    showError(String(error && error.message ? error.message : error));
    say("The playground could not start.", "error");
  });
})();
