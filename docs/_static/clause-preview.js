// Hover previews of clause references: a link to a rule (#rule-<id> in a rules view, #clause-<id> on an
// area page) shows the rule's number, title and statement, and "superseded by X" for a rule of a replaced
// wording, on hover, on keyboard focus and on a first tap (a second tap follows the link). The data,
// window.CARDRULES_CLAUSES, is written at build time (docs/_ext/cardrules_previews.py).
(function () {
  "use strict";

  const TARGET = /#(?:rule|clause)-([a-z0-9]+(?:-[a-z0-9]+)+)$/;
  const GAP = 6;
  let box = null;
  let shownFor = null;
  let hideTimer = 0;
  let lastPointer = "mouse";
  let lastPointerAt = 0;

  function clauseOf(link) {
    const found = TARGET.exec(link.getAttribute("href") || "");
    const data = window.CARDRULES_CLAUSES || {};
    return found ? data[found[1].toUpperCase()] && found[1].toUpperCase() : null;
  }

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text) node.textContent = text;
    return node;
  }

  function fill(id) {
    const clause = window.CARDRULES_CLAUSES[id];
    box.replaceChildren();
    const head = el("div", "cp-head");
    head.append(el("strong", "cp-number", clause.number), " \u00b7 ", el("span", "cp-title", clause.title));
    box.append(head, el("div", "cp-id", id));
    if (clause.superseded_by.length) {
      box.classList.add("cp-superseded");
      const by = clause.superseded_by.map(([number, cid]) => `${number} (${cid})`).join(", ");
      box.append(el("div", "cp-banner", `Previous wording, not in force: superseded by ${by}`));
    } else {
      box.classList.remove("cp-superseded");
    }
    box.append(el("p", "cp-statement", clause.statement));
  }

  function place(link) {
    const view = document.documentElement.clientWidth;
    box.style.maxWidth = `${Math.min(352, view - 2 * GAP)}px`;
    box.style.left = "0px";
    box.style.top = "0px";
    box.hidden = false;
    const r = link.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    const left = Math.max(GAP, Math.min(r.left, view - b.width - GAP));
    const below = r.bottom + GAP;
    const top = below + b.height <= window.innerHeight - GAP || r.top - GAP - b.height < GAP
      ? below : r.top - GAP - b.height;
    box.style.left = `${Math.round(left)}px`;
    box.style.top = `${Math.round(top)}px`;
  }

  function show(link) {
    const id = clauseOf(link);
    if (!id) return;
    clearTimeout(hideTimer);
    if (!box) {
      box = el("div", "clause-preview");
      box.id = "clause-preview";
      box.setAttribute("role", "tooltip");
      box.hidden = true;
      box.addEventListener("mouseenter", () => clearTimeout(hideTimer));
      box.addEventListener("mouseleave", () => hideSoon());
      document.body.append(box);
    }
    fill(id);
    if (shownFor && shownFor !== link) shownFor.removeAttribute("aria-describedby");
    shownFor = link;
    link.setAttribute("aria-describedby", box.id);
    box.dataset.clause = id;
    place(link);
  }

  function hide() {
    if (!box) return;
    box.hidden = true;
    if (shownFor) shownFor.removeAttribute("aria-describedby");
    shownFor = null;
  }

  function hideSoon() {
    clearTimeout(hideTimer);
    hideTimer = setTimeout(hide, 200);
  }

  function linkFrom(event) {
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    return link && !link.classList.contains("headerlink") && link.closest("article") && clauseOf(link) ? link : null;
  }

  function start() {
    if (!window.CARDRULES_CLAUSES) return;
    // a tap also sends mouseover and focus before its click: those are left to the click (first tap shows)
    const pointer = (e) => { lastPointer = e.pointerType || "mouse"; lastPointerAt = Date.now(); };
    document.addEventListener("pointerover", pointer, true);
    document.addEventListener("pointerdown", pointer, true);
    document.addEventListener("mouseover", (e) => {
      const link = linkFrom(e);
      if (link && lastPointer !== "touch") show(link);
    });
    document.addEventListener("mouseout", (e) => { if (linkFrom(e) && lastPointer !== "touch") hideSoon(); });
    document.addEventListener("focusin", (e) => {
      const link = linkFrom(e);
      if (link && !(lastPointer === "touch" && Date.now() - lastPointerAt < 1000)) show(link);  // keyboard focus
    });
    document.addEventListener("focusout", (e) => { if (linkFrom(e)) hideSoon(); });
    document.addEventListener("keydown", (e) => { if (e.key === "Escape") hide(); });
    document.addEventListener("click", (e) => {
      const link = linkFrom(e);
      if (link && lastPointer === "touch" && (shownFor !== link || !box || box.hidden)) {
        e.preventDefault();  // the first tap previews; the second follows the link
        show(link);
      } else if (!link && box && !box.contains(e.target)) {
        hide();
      }
    });
    const follow = () => { if (box && !box.hidden && shownFor) place(shownFor); };  // stay by the link
    window.addEventListener("scroll", follow, {passive: true});
    window.addEventListener("resize", follow);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
