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
 * Index entries and objects (one per clause ID, scored 100 for an exact
 * clause ID) are left as Sphinx scores them, so a clause ID still lands on
 * its clause first: the boosts below add at most 30 to a full-text score of
 * at most 15.
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

  _cache: { query: null, words: [], headings: null },

  _stems: (text) => {
    const stemmer = new Stemmer();
    return splitQuery(text.toLowerCase())
      .filter((word) => !stopwords.has(word) && !word.match(/^\d+$/))
      .map((word) => stemmer.stemWord(word));
  },

  /** The query's stemmed words, and every file's headings as [stems, anchor, title]. */
  _prepare: () => {
    const query = new URLSearchParams(window.location.search).get("q") || "";
    if (Scorer._cache.query === query) return Scorer._cache;
    const headings = new Map();
    const index = Search._index;
    for (const [title, places] of Object.entries(index.alltitles)) {
      const stems = Scorer._stems(title);
      for (const [file, anchor] of places) {
        if (!headings.has(file)) headings.set(file, []);
        headings.get(file).push([stems, anchor, title]);
      }
    }
    Scorer._cache = { query, words: [...new Set(Scorer._stems(query))], headings };
    return Scorer._cache;
  },

  _matches: (words, stems) =>
    words.filter((word) => stems.some((stem) => stem === word || stem.startsWith(word))).length,

  /** Of two headings holding as many query words, one with an anchor, then the shorter, is the closer match. */
  _closer: (heading, other) =>
    (heading[1] !== null) !== (other[1] !== null) ? heading[1] !== null : heading[2].length < other[2].length,

  score: (result) => {
    const [docname, title, anchor, descr, score, filename, kind] = result;
    if (kind !== "text" && kind !== "title") return score;
    const { words, headings } = Scorer._prepare();
    const file = Search._index.docnames.indexOf(docname);
    if (!words.length || file < 0) return score;
    const pageTitle = Search._index.titles[file];
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
    if (best !== null && bestCount === words.length) {
      boost += Scorer.wholeHeading;
      // open the page at that heading (a page's own title has no anchor)
      if (kind === "text" && best[1] !== null && !anchor) {
        result[1] = `${pageTitle} > ${best[2]}`;
        result[2] = "#" + best[1];
      }
    }
    return score + boost;
  },
};
