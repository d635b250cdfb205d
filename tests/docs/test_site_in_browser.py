"""The spec site in a real browser: headless Chromium (Debian's chromium and chromium-driver) via selenium.

The site is served on 127.0.0.1. Checked: no page is wider than the window
at 400 px, nor a key page at 1,280 px (code blocks, which scroll inside
themselves, aside); every internal link and anchor resolves; a search for a
clause ID or a citable number lands on that rule in its rules view, a search
for a rule term on its glossary entry, a judge's question in plain words
(``discarded hero healed``) on the home page's heading of that question, with
the rules view of the answer in the first three results, the old words of a
superseded rule on the current rule (saying what it replaces), and the
one-word ``sidebattle`` on the side battle rules; every picture loads. Screenshots of key pages are saved in
``docs/_build/screenshots/`` (CI keeps them as artifacts).

Needs ``apt-get install chromium chromium-driver`` (``.ci/run`` does it);
without them these tests skip and say so.
"""

from __future__ import annotations

import functools
import re
import http.server
import shutil
import threading
from html.parser import HTMLParser
from pathlib import Path
from typing import Iterator
from urllib.parse import unquote, urldefrag, urljoin, urlparse

import pytest
from tests.paths import REPO

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
SCREENSHOTS = REPO / "docs" / "_build" / "screenshots"
KEY_PAGES = ("index.html", "rules/index.html", "rules/heal.html", "rules/heal-2-9.html", "rules/side-battle.html",
             "areas/red-heal-to-permanent-controller.html", "areas/side-battle.html", "areas/heal.html", "heal-revision.html", "glossary.html",
             "traceability.html", "scenarios.html", "areas/party.html", "commands.html", "conformance.html",
             "performance.html", "developers.html")

pytestmark = [
    pytest.mark.infrastructure("the published site in a browser"),
    pytest.mark.slow,
    pytest.mark.skipif(
        not (CHROMIUM and DRIVER),
        reason="headless Chromium not found: apt-get install chromium chromium-driver (as .ci/run does)",
    ),
]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    request_queue_size = 64
    """A page's pictures, scripts and styles are asked for at once; the default backlog (5) can drop some."""


@pytest.fixture(scope="module")
def site_url(built_site: Path) -> Iterator[str]:
    server = _Server(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(built_site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or ""
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(DRIVER or ""), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


OVERFLOW = """
const inner = window.innerWidth;
const view = document.documentElement.clientWidth;  // the window less its scroll bar
const offCanvas = (e) => {  // furo's navigation and contents drawers wait beside the window on a phone
  const drawer = e.closest('.sidebar-drawer, .toc-drawer');
  if (!drawer) return false;
  const r = drawer.getBoundingClientRect();
  return r.left >= view - 1 || r.right <= 1;
};
const wide = [];
for (const e of document.body.querySelectorAll('*')) {
  const r = e.getBoundingClientRect();
  if (r.width === 0 || r.right <= view + 1 || e.closest('pre, div.highlight') || offCanvas(e)) continue;
  const p = e.parentElement.getBoundingClientRect();
  if (p.right > view + 1 && !e.parentElement.closest('pre, div.highlight') && !offCanvas(e.parentElement)) continue;
  wide.push(`${e.tagName.toLowerCase()}.${e.className} (${Math.round(r.right)}px): ${e.textContent.trim().slice(0, 50)}`);
}
return [document.documentElement.scrollWidth, inner, wide.slice(0, 3)];
"""
"""A page's scroll width, the window's width, and the outermost elements (code blocks, which scroll
inside themselves, and furo's closed drawers aside) that reach past the window's right edge."""


def _pages(built_site: Path) -> list[str]:
    return sorted(p.relative_to(built_site).as_posix() for p in built_site.rglob("*.html")
                  if "_static" not in p.relative_to(built_site).parts)


@pytest.mark.parametrize("width", [400, 1280])
def test_no_page_is_wider_than_the_window(browser: object, site_url: str, built_site: Path, width: int) -> None:
    """At 400 px every page (at 1,280 px the key pages) reads without sideways scrolling outside code blocks."""
    browser.set_window_size(width, 900)  # type: ignore[attr-defined]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pages = _pages(built_site) if width == 400 else list(KEY_PAGES)
    assert set(KEY_PAGES) <= set(pages)
    too_wide = []
    for page in pages:
        browser.get(site_url + page)  # type: ignore[attr-defined]
        scroll, inner, wide = browser.execute_script(OVERFLOW)  # type: ignore[attr-defined]
        if scroll > inner or wide:
            too_wide.append(f"{page}: {scroll}px of content in a {inner}px window; {wide}")
        if page in KEY_PAGES:
            browser.save_screenshot(str(SCREENSHOTS / f"{page.replace('/', '-')}-{width}.png"))  # type: ignore[attr-defined]
    assert too_wide == [], f"{len(too_wide)} of {len(pages)} pages too wide at {width}px: {too_wide[:5]}"


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"] or "")
        for name in ("href", "src"):
            if values.get(name) and tag in ("a", "img", "link", "script"):
                self.hrefs.append(values[name] or "")


def test_every_internal_link_and_anchor_resolves(built_site: Path) -> None:
    pages = {p.relative_to(built_site).as_posix(): p for p in built_site.rglob("*.html")}
    parsed = {}
    for name, path in pages.items():
        links = _Links()
        links.feed(path.read_text(encoding="utf-8"))
        parsed[name] = links
    broken = []
    for name, links in parsed.items():
        for href in links.hrefs:
            if urlparse(href).scheme or href.startswith(("mailto:", "javascript:", "//")):
                continue
            target, fragment = urldefrag(urljoin(name, href))
            target = unquote(target.split("?")[0]) or name
            if not (built_site / target).exists():
                broken.append(f"{name}: {href}")
            elif fragment and target.endswith(".html") and target != "playground.html" \
                    and fragment not in parsed.get(target, _Links()).ids:  # the playground's fragment is a position
                broken.append(f"{name}: {href} (no such anchor)")
    assert broken == [], f"{len(broken)} broken links, e.g. {broken[:10]}"


def in_rules_view(url: str, view: str) -> bool:
    """Whether ``url`` is in the rules view ``view`` (``.../rules/heal.html``): its index or one of its pages
    (``rules/heal-2-9.html``, split by section of the numbering), with any fragment."""
    page = urldefrag(url)[0]
    return page == view or re.fullmatch(re.escape(view.removesuffix(".html")) + r"-\d+-\d+\.html", page) is not None


def _search(browser: object, site_url: str, query: str) -> list[str]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(f"{site_url}search.html?q={query}")  # type: ignore[attr-defined]
    WebDriverWait(browser, 60).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "ul.search li a") or "did not match" in d.page_source)
    return [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "ul.search li a")]  # type: ignore[attr-defined]


def _anchor_gap(browser: object, href: str, element_id: str) -> float | None:
    """How far below the result's anchor the element sits, once the result is opened."""
    browser.get(href)  # type: ignore[attr-defined]
    return browser.execute_script(  # type: ignore[attr-defined, no-any-return]
        "const a = document.getElementById(arguments[0]); const c = document.getElementById(arguments[1]);"
        "return a && c ? c.getBoundingClientRect().top - a.getBoundingClientRect().top : null;",
        urldefrag(href)[1], element_id)


@pytest.mark.parametrize("query, page, clause_id", [
    ("RED-SB-ONCE-PER-TURN", "rules/side-battle.html", "RED-SB-ONCE-PER-TURN"),
    ("FF-PARTY-SPLIT-THOUSANDS", "rules/party.html", "FF-PARTY-SPLIT-THOUSANDS"),
    ("RED-HEAL-NOT-IN-DISCARD-PILE", "rules/heal.html", "RED-HEAL-NOT-IN-DISCARD-PILE"),
    ("RED-HEAL-PREV-TO-OWNER", "rules/heal.html", "RED-HEAL-PREV-TO-OWNER"),
    ("SB 1.1", "rules/side-battle.html", "RED-SB-SUSPEND"),
])
def test_searching_a_clause_id_or_number_lands_on_the_rule(browser: object, site_url: str, query: str, page: str,
                                                           clause_id: str) -> None:
    """A clause ID or a citable number opens the rule in its rules view; the entries of one ID on
    several pages are titled apart (the heading with number, ID and title), not repeated bare."""
    from selenium.webdriver.common.by import By

    results = _search(browser, site_url, query)
    first = results[0]
    assert in_rules_view(first, site_url + page) and "#" in first, first
    titles = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "ul.search li a")]  # type: ignore[attr-defined]
    assert clause_id in titles[0], titles[0]
    on_rule = [title for title in titles if clause_id in title]
    assert len(on_rule) == len(set(on_rule)), on_rule  # titled apart, never repeated bare
    gap = _anchor_gap(browser, first, f"rule-{clause_id.lower()}")
    assert gap is not None and 0 <= gap < 200, f"the result's anchor is not at {clause_id} (gap {gap})"


def test_a_question_naming_a_superseded_rule_opens_the_current_one_and_says_so(browser: object,
                                                                               site_url: str) -> None:
    """Where a healed character goes: the previous wording said its owner's territory, the revision
    the permanent controller's; a search with the old words opens the current rule first."""
    from selenium.webdriver.common.by import By

    results = _search(browser, site_url, "owner territory healed")
    first_title = browser.find_elements(By.CSS_SELECTOR, "ul.search li a")[0].text  # type: ignore[attr-defined]
    assert in_rules_view(results[0], site_url + "rules/heal.html") and "#" in results[0], results[:4]
    assert "RED-HEAL-TO-PERMANENT-CONTROLLER" in first_title, first_title
    assert "replaces superseded HEAL" in first_title, first_title
    gap = _anchor_gap(browser, results[0], "rule-red-heal-to-permanent-controller")
    assert gap is not None and 0 <= gap < 200, gap


def test_the_one_word_spelling_finds_the_side_battle_rules(browser: object, site_url: str) -> None:
    top = [urldefrag(href)[0] for href in _search(browser, site_url, "sidebattle")[:3]]
    assert any(in_rules_view(url, site_url + "rules/side-battle.html") for url in top), top


@pytest.mark.parametrize("term, anchor", [("heal window", "term-heal-window"), ("side battle", "term-side-battle")])
def test_searching_a_rule_term_lands_on_its_glossary_entry(browser: object, site_url: str, term: str,
                                                            anchor: str) -> None:
    first = _search(browser, site_url, term)[0]
    assert first == f"{site_url}glossary.html#{anchor}"


@pytest.mark.parametrize("question, page", [
    ("discarded hero healed", "rules/heal.html"),
    ("who controls a side battle", "rules/side-battle.html"),
])
def test_a_judges_question_finds_its_rule_page_near_the_top(browser: object, site_url: str, question: str,
                                                            page: str) -> None:
    """The words of a question, not a clause ID: a page of its rules is among the first three results."""
    top = [urldefrag(href)[0] for href in _search(browser, site_url, question)[:3]]
    assert any(in_rules_view(url, site_url + page) for url in top), top


@pytest.mark.parametrize("question, anchor", [
    ("discarded hero healed", "can-a-discarded-hero-be-healed"),
    ("who controls a side battle", "who-controls-a-side-battle"),
])
def test_a_heading_holding_every_word_of_a_search_comes_first_and_opens_there(browser: object, site_url: str,
                                                                              question: str, anchor: str) -> None:
    """The home page asks the judges' questions as headings; a search with their words opens at the heading."""
    first = _search(browser, site_url, question)[0]
    assert first == f"{site_url}index.html#{anchor}"


def _open_page(browser: object, url: str) -> None:
    """Load ``url`` and wait until it is that page, fully loaded; once more if the browser shows anything else
    (a dropped connection to the local server shows Chromium's error page, which has no pictures)."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    def arrived(driver: object) -> bool:
        return bool(driver.execute_script(  # type: ignore[attr-defined]
            "return document.readyState === 'complete' && location.href === arguments[0]"
            " && document.querySelector('article') !== null", url))

    for attempt in range(2):
        browser.get(url)  # type: ignore[attr-defined]
        try:
            WebDriverWait(browser, 30).until(arrived)
            return
        except TimeoutException:  # try once more, then say what the browser shows
            if attempt:
                shown = browser.execute_script("return [location.href, document.title]")  # type: ignore[attr-defined]
                raise AssertionError(f"{url} did not load: the browser shows {shown}") from None


def test_every_picture_loads(browser: object, site_url: str, built_site: Path) -> None:
    browser.set_window_size(1280, 900)  # type: ignore[attr-defined]
    seen = 0
    for page in ("areas/side-battle.html", "areas/battle-resolution.html", "scenarios.html"):
        assert "<img " in (built_site / page).read_text(encoding="utf-8"), f"the built {page} has no picture"
        _open_page(browser, site_url + page)
        sizes = browser.execute_script(  # type: ignore[attr-defined]
            "return Array.from(document.images).map(i => [i.src, i.complete && i.naturalWidth > 0])")
        assert sizes, f"{page} has no picture in the browser"
        assert all(ok for _, ok in sizes), [src for src, ok in sizes if not ok]
        seen += len(sizes)
    # the side-battle control cases, the resolution flow, and a counterexample strip per mutant of a scenario: five
    # FFTCG scenarios with split-in-hundreds, four of redemption-side-battle-answered, one each of the 3p and 4p
    assert seen >= 1 + 1 + 5 + 4 + 2


SCREEN = (1280, 800)
"""A laptop's window: a screen is its inner height."""
MAX_SCREENS = 10.5
"""About ten screens: no page is taller at :data:`SCREEN` (the rules views and the clause pages are split so)."""
TALL_ON_PURPOSE = {
    "source/": "a module's whole source, listed for reading beside the clause pages' excerpts",
    "genindex.html": "Sphinx's index of every clause ID and number, one page by design",
    "commands.html": "the generated command reference, every subcommand's options on one page",
    "conformance.html": "the engine authors' guide, with the vector format reference and the per-clause "
                        "results tables; not split yet",
    "conformance-live.html": "the live oracle's guide for engine authors; not split yet",
    "performance.html": "the recorded figures of every benchmark (kept by the benchmarks' owners)",
    "scenarios.html": "every scenario with its counterexample strips; not split yet",
    "scopes.html": "the scope format and every shipped scope; not split yet",
    "smt-situations.html": "every z3 consistency situation; not split yet",
    "heal-revision.html": "the revision page: wordings side by side, contradictions and play differences",
    "properties.html": "every property with its clauses; not split yet",
    "proposing.html": "the guide to proposing a rule change; not split yet",
    "glossary.html": "the glossary, one page so that every term is a search target of its own",
    "traceability.html": "the generated traceability report, one table row per clause; taller where the build "
                         "shows verification results (a build after `cardrules verify`, as in CI)",
}
"""Pages (a name or a folder's prefix) allowed to be taller, and why. Only pages outside the rules views
and the clause pages: every page of those two is held to :data:`MAX_SCREENS`."""


def test_no_page_is_taller_than_ten_screens_at_laptop_size(browser: object, site_url: str, built_site: Path) -> None:
    browser.set_window_size(*SCREEN)  # type: ignore[attr-defined]
    tall = []
    pages = _pages(built_site)
    assert sum(page.startswith("rules/") for page in pages) > 7 and sum(page.startswith("areas/") for page in pages) > 100
    for page in pages:
        if any(page.startswith(prefix) for prefix in TALL_ON_PURPOSE):
            assert not page.startswith(("rules/", "areas/")), page
            continue
        browser.get(site_url + page)  # type: ignore[attr-defined]
        height, screen = browser.execute_script(  # type: ignore[attr-defined]
            "return [document.documentElement.scrollHeight, window.innerHeight];")
        if height > MAX_SCREENS * screen:
            tall.append(f"{page}: {height / screen:.1f} screens")
    assert tall == [], f"{len(tall)} pages taller than {MAX_SCREENS} screens: {tall}"


def test_an_old_bookmark_to_a_rule_on_its_areas_page_lands_on_the_rule(browser: object, site_url: str) -> None:
    """``rules/heal.html#rule-red-heal-prev-to-owner`` was that rule's address when an area's rules were one page:
    opened now, it goes on to the page that shows the rule, at the rule."""
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(site_url + "rules/heal.html#rule-red-heal-prev-to-owner")  # type: ignore[attr-defined]
    WebDriverWait(browser, 10).until(lambda b: "rules/heal.html" not in b.current_url)  # type: ignore[attr-defined]
    landed = browser.current_url  # type: ignore[attr-defined]
    assert in_rules_view(landed, site_url + "rules/heal.html") and landed.endswith("#rule-red-heal-prev-to-owner")
    assert browser.execute_script(  # type: ignore[attr-defined]
        "return document.getElementById('rule-red-heal-prev-to-owner') !== null")
