"""The seven questions a tournament judge asks, each answered within two clicks of the home page.

In headless Chromium: the home page asks each question as a heading; one click
on the link in its answer lands on the rule (or page) that settles it, and
that place states the answer, cites the rule's number and shows an example in
the players' words with a "Try it" link. The expected answers are worked out
from the rules text (seeds 000 to 003 and the base rules), not from the site.
"""

from __future__ import annotations

import re
from typing import Iterator

import pytest

import tests.docs.test_site_in_browser as browsing

browser = browsing.browser
"""Headless Chromium, as the site's browser tests start it (the same fixture)."""
site_url = browsing.site_url
"""The built site served on 127.0.0.1 (the same fixture)."""

pytestmark = [
    pytest.mark.infrastructure("the judges' questions on the published site"),
    pytest.mark.slow,
    pytest.mark.skipif(not (browsing.CHROMIUM and browsing.DRIVER), reason="headless Chromium not found: apt-get install chromium chromium-driver"),
]

QUESTIONS = [
    # (heading anchor on the home page, where the first link lands, words the landing place must hold)
    ("can-a-character-be-healed-during-battle-resolution", "rules/heal.html#rule-red-heal-at-resolution",
     ["HEAL 2.6", "may be healed before the discard"]),
    ("who-controls-a-side-battle", "rules/side-battle.html#rule-red-sb-control-outsiders",
     ["SB 2.2", "chooses"]),
    ("what-damage-does-an-unblocked-party-deal", "rules/party.html#rule-ff-party-unblocked-one",
     ["PARTY 3.3", "one point of damage"]),
    ("how-much-damage-does-a-blocked-party-take", "rules/party.html#rule-ff-party-split-thousands",
     ["PARTY 3.2", "1000"]),
    ("when-does-a-numbers-redirect-end", "rules/redirect.html#rule-red-rd-until-end-of-phase",
     ["RD 5.2", "end of the phase"]),
    ("what-did-the-heal-revision-change", "heal-revision.html", ["permanent"]),
    ("how-many-side-battles-may-a-player-start-in-a-turn", "rules/side-battle.html#rule-red-sb-once-per-turn",
     ["SB 4.1", "no more than one side battle"]),
]


def _same_place(url: str, landing: str) -> bool:
    """``rules/heal.html#rule-x`` names the area's rules view and the rule: the rule is on one of the view's
    pages (``rules/heal-2-5.html``), which are split by section and may be regrouped."""
    page, _, fragment = landing.partition("#")
    if "/rules/" not in page or not fragment:
        return url == landing
    return re.fullmatch(re.escape(page.removesuffix(".html")) + r"-\d+-\d+\.html#" + re.escape(fragment), url) is not None


@pytest.fixture()
def home(browser: object) -> Iterator[object]:
    browser.set_window_size(1280, 900)  # type: ignore[attr-defined]
    yield browser


def _landing_text(driver: object, fragment: str) -> str:
    """The text of the section a fragment opens (the whole page when there is none)."""
    return driver.execute_script(  # type: ignore[attr-defined, no-any-return]
        "const e = arguments[0] ? document.getElementById(arguments[0]) : document.body;"
        "const s = e && (e.closest('section') || e); return s ? s.innerText : '';", fragment)


@pytest.mark.parametrize("anchor, landing, words", QUESTIONS, ids=[q[0] for q in QUESTIONS])
def test_each_question_is_answered_in_one_click_from_the_home_page(home: object, site_url: str, anchor: str,
                                                                   landing: str, words: list[str]) -> None:
    from selenium.webdriver.common.by import By

    home.get(site_url + "index.html")  # type: ignore[attr-defined]
    section = home.find_element(By.ID, anchor)  # type: ignore[attr-defined]
    links = section.find_elements(By.CSS_SELECTOR, "p a.reference")
    assert links, f"{anchor}: the answer links nowhere"
    link = links[-1 if anchor == "what-did-the-heal-revision-change" else 0]
    # click 1 (in the page's script: the theme's floating "back to top" button may cover the link)
    home.execute_script("arguments[0].click();", link)  # type: ignore[attr-defined]
    url = home.current_url  # type: ignore[attr-defined]
    assert _same_place(url, site_url + landing), url
    fragment = landing.partition("#")[2]
    text = _landing_text(home, fragment)
    for word in words:
        assert word in text, f"{anchor}: {word!r} not where the link lands"
    if fragment:
        assert "Example" in text and "Try it" in text, f"{anchor}: no example under the rule"


def test_there_are_seven_questions_on_the_home_page(home: object, site_url: str) -> None:
    from selenium.webdriver.common.by import By

    home.get(site_url + "index.html")  # type: ignore[attr-defined]
    asked = home.find_elements(By.CSS_SELECTOR, "#questions-judges-ask section h3")  # type: ignore[attr-defined]
    assert {a for a, _, _ in QUESTIONS} <= {h.find_element(By.XPATH, "..").get_attribute("id") for h in asked}


def test_an_example_s_permalink_points_at_itself(home: object, site_url: str) -> None:
    from selenium.webdriver.common.by import By

    home.get(site_url + "rules/party.html")  # type: ignore[attr-defined]
    # the area's rules index lists the rule; its link opens the page of the view that holds it
    rule = home.find_element(By.CSS_SELECTOR, "a[href$='#rule-ff-party-unblocked-one']")  # type: ignore[attr-defined]
    home.execute_script("arguments[0].click();", rule)  # type: ignore[attr-defined]
    page = home.current_url.partition("#")[0]  # type: ignore[attr-defined]
    assert re.fullmatch(re.escape(site_url) + r"rules/party-\d+-\d+\.html", page), page
    box = home.find_element(  # type: ignore[attr-defined]
        By.XPATH, "//*[@id='example-ff-party-unblocked-one-1']/ancestor::div[contains(@class, 'admonition')]")
    permalink = box.find_element(By.CSS_SELECTOR, "a.example-permalink")
    assert permalink.get_attribute("href") == page + "#example-ff-party-unblocked-one-1"
    try_it = box.find_element(By.CSS_SELECTOR, "a.try-it")
    assert "playground.html?game=fftcg&rules=default#" in try_it.get_attribute("href")
