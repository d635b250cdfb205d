"""The playground page in a real browser: the reference model run by Pyodide in headless Chromium, offline.

The built site is served on 127.0.0.1 and nothing else: the page loads Pyodide
and the project's wheel from the site itself. A party of two (3000 and 2000)
attacks, a 5000 Forward blocks, and the split offered must be the six ways the
rules allow (in steps of 1000, seed 003 "Parties and Damage"); the split
3000/2000 must break all three Forwards, citing the split rule by number. A
Redemption side battle is played to its end from the embedded scenarios: its
survivors must go back where they came from (seed 000). Undo and the permalink
are checked on the way.

A site built without the browser runtime (no ``npm ci --prefix docs/playground``)
makes these tests skip, saying so, unless ``CARDRULES_REQUIRE_PLAYGROUND=1`` or
``CI=true`` is set: then they fail.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest
from tests.docs import test_site_in_browser as site
from tests.oracle.playground.positions import FIRE_PARTY
from tests.paths import REPO

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
REQUIRED = os.environ.get("CARDRULES_REQUIRE_PLAYGROUND") == "1" or os.environ.get("CI") == "true"
"""In CI (``CI=true``, as CI runs ``.ci/run``) or with ``CARDRULES_REQUIRE_PLAYGROUND=1``, a missing runtime fails."""
NUMBERS = tomllib.loads((REPO / "specs" / "clauses" / "numbers" / "numbers.toml").read_text())["numbers"]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (CHROMIUM and DRIVER) and not REQUIRED,
                       reason="headless Chromium not found: apt-get install chromium chromium-driver (as .ci/run does)"),
]

browser = site.browser
"""Headless Chromium, started as the site's own browser tests start it."""
site_url = site.site_url
"""The built site, served on 127.0.0.1."""


@pytest.fixture(scope="module")
def playground_url(built_site: Path, site_url: str) -> str:
    if not (built_site / "_static" / "playground" / "manifest.json").is_file():
        message = ("the site was built without the playground's browser runtime "
                   "(npm ci --prefix docs/playground, and the wheel build): see playground.html")
        if REQUIRED:
            pytest.fail(message + " [CARDRULES_REQUIRE_PLAYGROUND=1]")
        pytest.skip(message)
    return site_url + "playground.html"


def fragment(state: dict[str, Any]) -> str:
    text = json.dumps(state, separators=(",", ":"), sort_keys=True)
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def open_page(browser: Any, url: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    browser.set_window_size(400, 900)  # a phone's width: the board must wrap, not scroll sideways
    browser.get("about:blank")  # a fresh page, as a judge opening a link gets
    browser.get(url)
    root = browser.find_element("id", "cardrules-playground")
    WebDriverWait(browser, 180).until(lambda _: root.get_attribute("data-state") in ("ready", "error"))
    assert root.get_attribute("data-state") == "ready", browser.find_element("css selector", "[data-part=error]").text


def press(browser: Any, selector: str) -> None:
    element = browser.find_element("css selector", selector)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", element)
    element.click()


def play(browser: Any, *actions: str) -> None:
    for action in actions:
        press(browser, f'.pg-action[data-action="{action}"]')


def texts(browser: Any, selector: str, attribute: str | None = None) -> list[str]:
    found = browser.find_elements("css selector", selector)
    return [e.get_attribute(attribute) if attribute else e.text for e in found]


@pytest.mark.clause("FF-BASE-PARTY-SPLIT", "FF-PARTY-SPLIT-THOUSANDS", "FF-PARTY-BLOCKED-SUM", "FF-BASE-BREAK-DAMAGE")
def test_a_party_attack_to_the_blockers_split_shows_the_ruling(browser: Any, playground_url: str) -> None:
    open_page(browser, f"{playground_url}?game=fftcg&rules=default#{fragment(FIRE_PARTY)}")
    play(browser, "attack a1 a2", "pass", "block b1", "pass")
    # a 5000 blocker against two members, in steps of 1000: 5000/0 ... 0/5000
    assert texts(browser, ".pg-action", "data-action") == [f"split a1={5000 - k * 1000} a2={k * 1000}" for k in range(6)]
    assert "player 1" in browser.find_element("css selector", "[data-part=status]").text
    play(browser, "split a1=3000 a2=2000")
    events = texts(browser, ".pg-event")
    assert "Stone Warden (b1) was broken, credited to Fire Knight (a1) and Fire Squire (a2)" in events
    assert "Fire Knight (a1) was broken, credited to Stone Warden (b1)" in events
    assert "Fire Squire (a2) was broken, credited to Stone Warden (b1)" in events
    assert NUMBERS["FF-PARTY-SPLIT-THOUSANDS"] in texts(browser, ".pg-clause", "data-number")
    scroll, inner = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner, f"the playground is {scroll}px wide in a {inner}px window"
    press(browser, "[data-part=undo]")
    assert len(texts(browser, ".pg-action")) == 6, "undo goes back to the split"


@pytest.mark.infrastructure("the permalink reopens the position shown, with its game and rule set")
def test_the_permalink_reopens_the_position(browser: Any, playground_url: str) -> None:
    open_page(browser, f"{playground_url}?game=fftcg&rules=default#{fragment(FIRE_PARTY)}")
    play(browser, "attack a1 a2", "pass")
    link = browser.find_element("css selector", "[data-part=permalink]").get_attribute("href")
    assert link.startswith(f"{playground_url}?game=fftcg&rules=default#") and browser.current_url == link
    open_page(browser, link)
    assert texts(browser, ".pg-action", "data-action") == ["block b1", "noblock"]


@pytest.mark.clause("RED-SB-CONTROL-SAME-MIXED", "RED-SB-RETURN-TO-BATTLE", "RED-SB-RETURN-TO-TERRITORY")
def test_a_side_battle_from_the_embedded_scenarios_runs_to_its_end(browser: Any, playground_url: str) -> None:
    open_page(browser, playground_url)
    press(browser, '.pg-scenario[data-name="redemption-side-battle-reach"]')
    play(browser, "attack 1 h0", "block e1", "play sb0 on h0 -> e1 e2")
    if "decline" in texts(browser, ".pg-action", "data-action"):  # player 1 lets the side battle card resolve
        play(browser, "decline")
    # both targets are player 1's, only e1 in battle: player 1 keeps e1, player 0 takes e2
    assert "e2: player 1's territory \u2192 the side battle (level 2), player 0's side" in texts(browser, ".pg-event")
    play(browser, "pass")  # e1 4/4 against e2 3/5: a stalemate, the side battle ends
    events = texts(browser, ".pg-event")
    assert "e1: the side battle (level 2), player 1's side \u2192 the battle (level 1), player 1's side" in events
    assert "e2: the side battle (level 2), player 0's side \u2192 player 1's territory" in events
    cited = texts(browser, ".pg-clause", "data-clause")
    assert {"RED-SB-RETURN-TO-BATTLE", "RED-SB-RETURN-TO-TERRITORY"} <= set(cited)
    assert len(texts(browser, ".pg-battle")) == 1, "the main battle resumes alone on the stack"
