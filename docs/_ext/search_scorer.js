/*
 * Search ranking of the cardrules spec site (conf.py: html_search_scorer).
 *
 * Sphinx's full-text search gives every page that holds all the query's words
 * much the same score, and sends the reader to the top of the page. A judge
 * types a question ("discarded hero healed"); the page whose headings say it
 * should come first, opened at that heading. So, for full-text and title
 * results only:
 *
 *   - the page's headings (its title and every section title) are compared
 *     with the query's words, stemmed as Sphinx stems them;
 *   - the more words the best heading holds, the higher the page; a heading
 *     that holds them all adds a bonus and the result opens at that heading
 *     (of several, the shortest with an anchor);
 *   - words in the page's own title, and several headings on the page that
 *     share the query's words, add a little more (the page is about them).
 *
 * Words judges use for the same thing (docs/synonyms.toml, given to every page as
 * CARDRULES_SYNONYMS by the site extension) are read as the first word of their group
 * when headings are compared ("sidebattle" as "side battle").
 *
 * Admonition titles (an open question's, a superseded box's) are not headings here.
 *
 * Rules come before their machinery, and the current rule before a superseded one:
 *
 *   - the rules views (pages under rules/, written for judges) get a small
 *     boost over every other page: enough for a clause ID's entry there to
 *     come before the same entry on the reference page, and for a rule
 *     heading there to come before the same heading on the reference page,
 *     not enough to pass a glossary term;
 *   - a rule heading of a superseded wording says "(superseded by NUMBER)";
 *     when it is a page's best heading, the result opens at the current rule
 *     NUMBER instead (a heading starting "NUMBER ·" of that page, or else of
 *     the rules view's page that holds it) and its title says which
 *     superseded rule it replaces; without such a heading the result is
 *     scored down.
 *
 * Index entries (one per clause ID and citable number, scored 100 for an
 * exact match) keep their lead, and their result is titled with the heading
 * that holds the query on that page (the rule's number, ID and title), so a
 * clause ID found on several pages gives distinct entries: the boosts below
 * add at most 35 to a full-text score of at most 15.
 *
 * Sphinx calls Scorer.score(result) with result = [docname, title, anchor,
 * descr, score, filename, kind] and uses the number it returns.
 */
var Scorer = {
  // Sphinx's defaults (searchtools.js only defines Scorer when none exists)
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: { 0: 15, 1: 5, 2: -5 },
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,

  // this site's heading boosts
  bestHeading: 10, // times the share of query words in the best heading
  wholeHeading: 10, // when one heading holds every query word
  pageTitle: 5, // times the share of query words in the page title
  sharedHeadings: 1, // per heading holding two or more query words...
  sharedHeadingsMax: 3, // ...up to this many
  rulesIndex: 5, // an index entry (clause ID, number) on a page of the rules views (rules/...)
  rulesText: 1, // a full-text result on such a page: ahead of the same words elsewhere, not of the glossary
  superseded: -10, // best heading is a superseded rule with no current rule on the page

  /** The query: the search page's ?q=, or what instant search (instant-search.js) set while it ranks. */
  instantQuery: null,
  _query: () => Scorer.instantQuery ?? (new URLSearchParams(window.location.search).get("q") || ""),

  _supersededBy: (title) => {
    const match = title.match(/\(superseded by ([A-Z]+ \d+\.\d+)\)/);
    return match ? match[1] : null;
  },

  /** The result of an index entry, titled and anchored at the page heading holding the query. */
  _indexResult: (result, headings, pageTitle) => {
    const query = Scorer._query().toLowerCase().trim();
    const found = (headings || []).find((heading) => heading[1] !== null && heading[2].toLowerCase().includes(query));
    if (query && found) {
      result[1] = `${pageTitle} > ${found[2]}`;
      result[2] = "#" + found[1];
    }
  },

  /** Open a result whose best heading is superseded at the current rule: on the same page, or on the page
   * of the rules views (rules/...) that holds it, as the rules views are split into pages of a few rules
   * each; false when no page has it. */
  _toCurrent: (result, heading, headings, pageTitle, allHeadings) => {
    const number = Scorer._supersededBy(heading[2]);
    const isCurrent = (h) => h[1] !== null && h[2].startsWith(number + " \u00b7");
    let current = (headings || []).find(isCurrent);
    let title = pageTitle;
    if (!current) {
      const index = Search._index;
      for (const [file, others] of allHeadings) {
        if (!index.docnames[file].startsWith("rules/")) continue;
        current = others.find(isCurrent);
        if (!current) continue;
        [result[0], result[5], title] = [index.docnames[file], index.filenames[file], index.titles[file]];
        break;
      }
    }
    if (!current) return false;
    const old = heading[2].split(" \u00b7 ")[0];
    result[1] = `${title} > ${current[2]} (current rule; replaces superseded ${old})`;
    result[2] = "#" + current[1];
    return true;
  },

  _cache: { query: null, words: [], headings: null },

  _stems: (text) => {
    const stemmer = new Stemmer();
    return splitQuery(text.toLowerCase())
      .filter((word) => !stopwords.has(word) && !word.match(/^\d+$/))
      .map((word) => stemmer.stemWord(word));
  },

  _notHeading: /^(Open question|Superseded wording)\b/,

  /** The query with every synonym replaced by the first word of its group. */
  _canonical: (query) => {
    let text = " " + query.toLowerCase() + " ";
    for (const group of window.CARDRULES_SYNONYMS || []) {
      for (const word of group.slice(1)) {
        const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        text = text.replace(new RegExp(`(^|[^\\w-])${escaped}(?![\\w-])`, "g"), `$1${group[0]}`);
      }
    }
    return text.trim();
  },

  /** The query's stemmed words, and every file's headings as [stems, anchor, title]. */
  _prepare: () => {
    const query = Scorer._query();
    if (Scorer._cache.query === query) return Scorer._cache;
    const headings = new Map();
    const index = Search._index;
    for (const [title, places] of Object.entries(index.alltitles)) {
      if (Scorer._notHeading.test(title)) continue;
      const stems = Scorer._stems(title);
      for (const [file, anchor] of places) {
        if (!headings.has(file)) headings.set(file, []);
        headings.get(file).push([stems, anchor, title]);
      }
    }
    Scorer._cache = { query, words: [...new Set(Scorer._stems(Scorer._canonical(query)))], headings };
    return Scorer._cache;
  },

  _matches: (words, stems) =>
    words.filter((word) => stems.some((stem) => stem === word || stem.startsWith(word))).length,

  /** Of two headings holding as many query words, one with an anchor, then the shorter, is the closer match. */
  _closer: (heading, other) =>
    (heading[1] !== null) !== (other[1] !== null) ? heading[1] !== null : heading[2].length < other[2].length,

  score: (result) => {
    const [docname, title, anchor, descr, score, filename, kind] = result;
    const onRules = docname.startsWith("rules/");
    if (kind !== "text" && kind !== "title" && kind !== "index") return score;
    const { words, headings } = Scorer._prepare();
    const file = Search._index.docnames.indexOf(docname);
    if (file < 0) return score;
    const pageTitle = Search._index.titles[file];
    if (kind === "index") {
      Scorer._indexResult(result, headings.get(file), pageTitle);
      return score + (onRules ? Scorer.rulesIndex : 0);
    }
    const rules = onRules ? Scorer.rulesText : 0;
    if (!words.length) return score + rules;
    let best = null;
    let bestCount = 0;
    let shared = 0;
    for (const heading of headings.get(file) || []) {
      const count = Scorer._matches(words, heading[0]);
      if (count >= 2) shared += 1;
      if (count > bestCount || (count === bestCount && count > 0 && Scorer._closer(heading, best)))
        [best, bestCount] = [heading, count];
    }
    const share = bestCount / words.length;
    let boost = Scorer.bestHeading * share;
    boost += (Scorer.pageTitle * Scorer._matches(words, Scorer._stems(pageTitle))) / words.length;
    boost += Scorer.sharedHeadings * Math.min(shared, Scorer.sharedHeadingsMax);
    if (best !== null && bestCount === words.length) boost += Scorer.wholeHeading;
    // open the page at its best heading (a page's own title has no anchor); a superseded rule's
    // result opens at the current rule that replaced it
    if (best !== null && bestCount > 0 && Scorer._supersededBy(best[2]) !== null) {
      if (!(kind === "text" && !anchor && Scorer._toCurrent(result, best, headings.get(file), pageTitle, headings)))
        boost += Scorer.superseded;
    } else if (best !== null && bestCount === words.length && kind === "text" && best[1] !== null && !anchor) {
      result[1] = `${pageTitle} > ${best[2]}`;
      result[2] = "#" + best[1];
    }
    return score + boost + rules;
  },
};
