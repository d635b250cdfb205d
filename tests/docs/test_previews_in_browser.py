"""Judges' aids of the spec site in headless Chromium: hover previews, pictures, the page's contents, instant search.

A reference to a rule, hovered, reached with the keyboard or tapped once,
shows a box with the rule's number, title and statement (and "superseded by"
for a rule of the replaced heal wording) that stays inside a 400 px window;
the statement is checked against the catalogue, not against the page. The
board pictures and the drawn pictures fit a 400 px window with their text
large enough to read and inside its boxes. At 1,280 px the page's table of
contents is in view. Typing in the search box lists the search page's first
results at once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tests.docs.test_site_in_browser as browsing
from cardrules.specs.catalogue import default_catalogue
from cardrules.specs.catalogue.numbers import default_numbers

browser = browsing.browser
"""Headless Chromium, as the site's browser tests start it (the same fixture)."""
site_url = browsing.site_url
"""The built site served on 127.0.0.1 (the same fixture)."""

pytestmark = [
    pytest.mark.infrastructure("hover previews and board pictures on the published site"),
    pytest.mark.slow,
    pytest.mark.skipif(not (browsing.CHROMIUM and browsing.DRIVER),
                       reason="headless Chromium not found: apt-get install chromium chromium-driver"),
]

FIND_LINK = """
const wanted = arguments[0];
for (const a of document.querySelectorAll('article a[href]')) {
  const m = /#(?:rule|clause)-([a-z0-9-]+)$/.exec(a.getAttribute('href'));
  if (!m || a.classList.contains('headerlink') || !a.getClientRects().length) continue;
  if (wanted && m[1] !== wanted) continue;
  a.scrollIntoView({block: 'center', behavior: 'instant'});
  return a;
}
return null;
"""
"""The first visible reference to a rule on the page (to ``arguments[0]``'s rule when given), scrolled into view."""

PREVIEW = """
const box = document.getElementById('clause-preview');
if (!box || box.hidden) return null;
const r = box.getBoundingClientRect();
return {text: box.innerText, clause: box.dataset.clause, left: r.left, right: r.right, top: r.top,
        bottom: r.bottom, width: document.documentElement.clientWidth, height: window.innerHeight};
"""


def _preview(driver: object) -> dict[str, object]:
    from selenium.webdriver.support.ui import WebDriverWait

    found: dict[str, object] = WebDriverWait(driver, 10).until(lambda d: d.execute_script(PREVIEW))
    return found


def _check(found: dict[str, object], clause_id: str) -> None:
    catalogue, numbers = default_catalogue(), default_numbers()
    clause = catalogue.clause(clause_id)
    text = " ".join(str(found["text"]).split())
    assert found["clause"] == clause_id
    assert numbers.number(clause_id) in text and clause.title in text, text
    assert " ".join(clause.statement.split()) in text, text
    inside = 0 <= float(found["left"]) and float(found["right"]) <= float(found["width"])  # type: ignore[arg-type]
    inside = inside and 0 <= float(found["top"]) and float(found["bottom"]) <= float(found["height"])  # type: ignore[arg-type]
    assert inside, found


@pytest.mark.parametrize("page, target", [
    ("areas/heal.html", None),
    ("heal-revision.html", "clause-red-heal-prev-to-owner"),
    ("rules/side-battle.html", None),
])
def test_hovering_a_clause_reference_previews_the_rule_inside_a_400px_window(browser: object, site_url: str,
                                                                            page: str, target: str | None) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    browser.set_window_size(400, 900)  # type: ignore[attr-defined]
    browser.get(site_url + page)  # type: ignore[attr-defined]
    link = browser.execute_script(FIND_LINK, target.split("-", 1)[1] if target else None)  # type: ignore[attr-defined]
    assert link is not None, f"no visible clause reference on {page}"
    href = link.get_attribute("href")
    clause_id = href.rsplit("#", 1)[1].split("-", 1)[1].upper()
    ActionChains(browser).move_to_element(link).perform()
    found = _preview(browser)
    _check(found, clause_id)
    if target == "clause-red-heal-prev-to-owner":
        # the previous wording sent a healed character to its owner; the revision replaced that rule
        replaced_by = "RED-HEAL-TO-PERMANENT-CONTROLLER"
        assert f"superseded by {default_numbers().number(replaced_by)} ({replaced_by})" in str(found["text"])


def test_keyboard_focus_shows_the_preview_and_escape_hides_it(browser: object, site_url: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    browser.set_window_size(400, 900)  # type: ignore[attr-defined]
    browser.get(site_url + "rules/heal.html")  # type: ignore[attr-defined]
    link = browser.execute_script(FIND_LINK, "red-heal-to-permanent-controller")  # type: ignore[attr-defined]
    assert link is not None
    browser.execute_script("arguments[0].focus()", link)  # type: ignore[attr-defined]
    found = _preview(browser)
    _check(found, "RED-HEAL-TO-PERMANENT-CONTROLLER")
    assert "superseded" not in str(found["text"])  # the rule in force says nothing of the kind
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    assert browser.execute_script(PREVIEW) is None  # type: ignore[attr-defined]


BOARDS = """
const view = document.documentElement.clientWidth;
const out = [];
for (const svg of document.querySelectorAll('figure.board-picture svg')) {
  svg.scrollIntoView({behavior: 'instant'});
  const r = svg.getBoundingClientRect();
  const scale = r.width / svg.viewBox.baseVal.width;
  const size = Math.min(...Array.from(svg.querySelectorAll('text'), t => parseFloat(t.getAttribute('font-size'))));
  const cut = [];
  for (const g of svg.querySelectorAll('g.board-box')) {
    const box = g.querySelector('rect').getBBox();
    for (const t of g.querySelectorAll('text')) {
      const b = t.getBBox();
      if (b.x < box.x || b.x + b.width > box.x + box.width) cut.push(t.textContent);
    }
  }
  for (const t of svg.querySelectorAll('text')) {
    const b = t.getBBox();
    if (b.x + b.width > svg.viewBox.baseVal.width) cut.push(t.textContent);
  }
  out.push({left: r.left, right: r.right, view: view, px: size * scale, cut: cut,
            words: svg.textContent});
}
return out;
"""


@pytest.mark.parametrize("page, words", [
    ("rules/party.html", "blocked by Player 2's Forward"),
    ("rules/side-battle.html", "a side battle (being fought)"),
    ("heal-revision.html", "owned by Player 2"),
])
def test_board_pictures_fit_a_400px_window_legibly_with_no_text_cut(browser: object, site_url: str, built_site: Path,
                                                                    page: str, words: str) -> None:
    """A rules view's pictures are on the pages of its rules (``rules/party-3-1.html``), read together."""
    browser.set_window_size(400, 900)  # type: ignore[attr-defined]
    view = page.removesuffix(".html")
    pages = sorted(p.relative_to(built_site).as_posix() for p in built_site.glob(f"{view}-*-*.html")) or [page]
    pictures = []
    for shown in pages:
        browser.get(site_url + shown)  # type: ignore[attr-defined]
        pictures += browser.execute_script(BOARDS)  # type: ignore[attr-defined]
    assert pictures, f"{page} has no board picture"
    assert any(words in p["words"] for p in pictures), words
    for picture in pictures:
        assert 0 <= picture["left"] and picture["right"] <= picture["view"], picture
        assert picture["px"] >= 10, f"text drawn at {picture['px']:.1f} px"
        assert picture["cut"] == [], picture["cut"]


@pytest.mark.parametrize("page", ["rules/heal-2-1.html", "areas/side-battle.html", "heal-revision.html"])
def test_the_pages_table_of_contents_is_in_view_beside_the_text_at_laptop_width(browser: object, site_url: str,
                                                                                 page: str) -> None:
    """At 1,280 px the "On this page" list is shown beside the text, not in a drawer behind a button."""
    browser.set_window_size(1280, 800)  # type: ignore[attr-defined]
    browser.get(site_url + page)  # type: ignore[attr-defined]
    toc, content, links = browser.execute_script(  # type: ignore[attr-defined]
        "const t = document.querySelector('.toc-drawer').getBoundingClientRect();"
        "const c = document.querySelector('article').getBoundingClientRect();"
        "const view = document.documentElement.clientWidth;"
        "const shown = Array.from(document.querySelectorAll('.toc-tree a')).filter(a => {"
        "  const r = a.getBoundingClientRect(); return r.width > 0 && r.left >= 0 && r.right <= view; });"
        "return [[t.left, t.right, view], [c.left, c.right], shown.length];")
    left, right, view = toc
    assert 0 <= left and right <= view and right - left > 150, toc
    assert content[1] <= left, (content, toc)  # beside the text, not over it
    assert links >= 3, links


@pytest.mark.parametrize("page", ["areas/side-battle.html", "areas/battle-resolution.html", "scenarios.html"])
def test_drawn_pictures_keep_nearly_their_own_size_at_400px(browser: object, site_url: str, page: str) -> None:
    """The control cases, the resolution flow and the counterexample strips are drawn narrow, so a phone shows
    them at no less than 85% of their size (their text at about 9 px or more) and never past the edge."""
    browser.set_window_size(400, 900)  # type: ignore[attr-defined]
    browser.get(site_url + page)  # type: ignore[attr-defined]
    sizes = browser.execute_script(  # type: ignore[attr-defined]
        "return Array.from(document.querySelectorAll('figure.cardrules-picture img'), i => {"
        "  const r = i.getBoundingClientRect();"
        "  return [i.getAttribute('src'), r.width / i.naturalWidth, r.right, document.documentElement.clientWidth]; })")
    assert sizes, f"{page} has no drawn picture"
    for src, scale, right, view in sizes:
        assert scale >= 0.85 and right <= view, (src, scale, right, view)


INSTANT = """
const panel = document.getElementById('instant-search');
if (!panel || panel.hidden || !panel.querySelector('li a')) return null;
return Array.from(panel.querySelectorAll('li a'), a => [a.href, a.textContent]);
"""


@pytest.mark.parametrize("query, page, words", [
    # HEAL 2.10 is on the third page of HEAL 2's twelve rules; SB 3's two rules and SB 4's two share a page
    ("owner territory healed", "rules/heal-2-9.html#", "RED-HEAL-TO-PERMANENT-CONTROLLER"),
    ("RED-SB-ONCE-PER-TURN", "rules/side-battle-3-1.html#", "SB 4.1"),
])
def test_results_appear_under_the_search_box_as_the_judge_types(browser: object, site_url: str, query: str,
                                                                page: str, words: str) -> None:
    """Typed into the search box of any page, without pressing Enter: the search page's first result shows at
    once under the box (the current heal rule for the superseded rule's words, and says it replaces it)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.set_window_size(1280, 900)  # type: ignore[attr-defined]
    browser.get(site_url + "glossary.html")  # type: ignore[attr-defined]
    browser.find_element(By.CSS_SELECTOR, "input.sidebar-search").send_keys(query)  # type: ignore[attr-defined]
    results = WebDriverWait(browser, 30).until(lambda d: d.execute_script(INSTANT))
    assert browser.current_url == site_url + "glossary.html"  # type: ignore[attr-defined]
    first_href, first_title = results[0]
    assert first_href.startswith(site_url + page) and words in first_title, results[:3]
    if query == "owner territory healed":
        assert "replaces superseded HEAL" in first_title, first_title


def test_a_first_tap_previews_the_rule_and_a_second_tap_follows_the_link(browser: object, site_url: str) -> None:
    """On a phone there is no hover: the first tap on a reference shows the preview and stays on the page."""
    browser.set_window_size(400, 900)  # type: ignore[attr-defined]
    browser.get(site_url + "rules/heal.html")  # type: ignore[attr-defined]
    browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})  # type: ignore[attr-defined]
    try:
        link = browser.execute_script(FIND_LINK, None)  # type: ignore[attr-defined]
        assert link is not None
        target = link.get_attribute("href")
        x, y = browser.execute_script(  # type: ignore[attr-defined]
            "const r = arguments[0].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];", link)

        def tap() -> None:
            for kind, points in (("touchStart", [{"x": x, "y": y}]), ("touchEnd", [])):
                browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})  # type: ignore[attr-defined]

        tap()
        found = _preview(browser)
        _check(found, target.rsplit("#", 1)[1].split("-", 1)[1].upper())
        assert browser.current_url == site_url + "rules/heal.html"  # type: ignore[attr-defined]
        tap()
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(browser, 10).until(lambda d: d.current_url == target)
    finally:
        browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})  # type: ignore[attr-defined]
