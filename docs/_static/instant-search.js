// Instant search: results appear under the search box as the judge types, on every page, ranked as the
// search page ranks them (Sphinx's searchtools.js with this site's scorer and synonyms, which
// language_data.js carries). The search files are fetched on the first key press; Enter still opens the
// full search page.
(function () {
  "use strict";

  const ROOT = document.documentElement.dataset.content_root || "";
  const SHOWN = 8;
  let loading = null;
  let panel = null;
  let timer = 0;
  const typed = new Map();

  function load(src) {
    return new Promise((done, fail) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = done;
      script.onerror = () => fail(new Error(`could not load ${src}`));
      document.head.append(script);
    });
  }

  function ready() {
    if (loading) return loading;
    const index = () => new Promise((done) => {
      if (Search.hasIndex()) return done();
      const set = Search.setIndex;
      Search.setIndex = (data) => { set(data); done(); };
      load(ROOT + "searchindex.js");
    });
    // searchtools.js and language_data.js declare Search and Stemmer as global constants and classes,
    // which are shared by the page's scripts but are not properties of window
    loading = (typeof Stemmer !== "undefined" ? Promise.resolve() : load(ROOT + "_static/language_data.js"))
      .then(() => (typeof Search !== "undefined" ? null : load(ROOT + "_static/searchtools.js")))
      .then(() => typed.forEach((value, input) => { input.value = value; }))  // its init clears the box
      .then(index);
    return loading;
  }

  function hide() {
    if (panel) panel.hidden = true;
  }

  function place(input) {
    const view = document.documentElement.clientWidth;
    const r = input.getBoundingClientRect();
    const width = Math.min(Math.max(r.width, 384), view - 16);
    panel.style.width = `${width}px`;
    panel.style.left = `${Math.max(8, Math.min(r.left, view - width - 8))}px`;
    panel.style.top = `${Math.round(r.bottom + 4)}px`;
  }

  function show(input, query) {
    if (!panel) {
      panel = document.createElement("div");
      panel.id = "instant-search";
      panel.setAttribute("aria-live", "polite");
      document.body.append(panel);
    }
    const search = Search;
    Scorer.instantQuery = query;  // the site's scorer ranks by the query's words (docs/_ext/search_scorer.js)
    let found;
    try {
      found = search._performSearch(...search._parseQuery(query)).slice().reverse().slice(0, SHOWN);
    } finally {
      Scorer.instantQuery = null;
    }
    const docnames = search._index.docnames;
    const suffix = DOCUMENTATION_OPTIONS.FILE_SUFFIX;
    panel.replaceChildren();
    const list = document.createElement("ol");
    for (const [docname, title, anchor] of found) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = ROOT + docname + suffix + anchor;
      link.textContent = title;
      const page = search._index.titles[docnames.indexOf(docname)];
      const where = document.createElement("span");
      where.className = "is-page";
      where.textContent = page && page !== title ? page : "";
      item.append(link, where);
      list.append(item);
    }
    const more = document.createElement("a");
    more.className = "is-more";
    more.href = `${ROOT}search.html?q=${encodeURIComponent(query)}`;
    more.textContent = found.length ? "All results" : `No page holds every word of \u201c${query}\u201d`;
    panel.append(list, more);
    panel.hidden = false;
    place(input);
  }

  function onInput(event) {
    const input = event.target;
    typed.set(input, input.value);
    clearTimeout(timer);
    const query = input.value.trim();
    if (query.length < 2) return hide();
    timer = setTimeout(() => ready().then(() => {
      if (input.value.trim() === query) show(input, query);
    }), 120);
  }

  function start() {
    if (document.getElementById("search-results")) return;  // the search page lists results itself
    for (const input of document.querySelectorAll('input[name="q"]')) {
      input.setAttribute("autocomplete", "off");
      input.addEventListener("input", onInput);
      input.addEventListener("keydown", (e) => {
        if (e.key === "Escape") hide();
        if (e.key === "ArrowDown" && panel && !panel.hidden) {
          e.preventDefault();
          const first = panel.querySelector("a");
          if (first) first.focus();
        }
      });
    }
    document.addEventListener("click", (e) => {
      if (panel && !panel.contains(e.target) && !(e.target instanceof Element && e.target.matches('input[name="q"]'))) hide();
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
