"""The analysis board of `kbenv serve` in a real headless Chromium (Selenium; the fixtures of
tests/test_serve_browser.py): the heat map's shares sum to the policy, the eval bars move between two positions,
the hint names a legal decision, the best line previews the board, a replay's eval curve has one point per
decision, twin games that differ only in hidden cards show the same analysis, and the page's legend, rule flags by
description, card text on hover and shipped models per ruleset. Saves docs/images/analysis.png.

Skipped, with the reason, when selenium, Chromium or chromedriver is missing (as tests/test_serve_browser.py).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from . import test_serve_browser as base

CHROMIUM, DRIVER, wait = base.CHROMIUM, base.DRIVER, base.wait
records, server, browser = base.records, base.server, base.browser  # its fixtures (a server and a browser of our own)

pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[dev]')")
from selenium.webdriver.common.by import By  # noqa: E402

from kbenv import Game  # noqa: E402
from kbenv.serve.sessions import GameSession  # noqa: E402

SCREENSHOT = Path(__file__).resolve().parents[1] / "docs" / "images" / "analysis.png"
pytestmark = pytest.mark.skipif(CHROMIUM is None or DRIVER is None, reason="no headless browser (chromium and "
                                                                           "chromedriver)")


def start(browser, url: str) -> None:
    browser.get(url + "/")
    wait(browser, "return S.meta !== null && document.getElementById('seat-1') !== null && S.records !== undefined")


def analysis_on(browser) -> None:
    if not browser.find_element(By.ID, "analysis-toggle").is_selected():
        browser.find_element(By.ID, "analysis-toggle").click()


def wait_analysis(browser, extra: str = "true") -> dict:
    wait(browser, f"return A.data !== null && !A.inFlight && ({extra})")
    return browser.execute_script("return A.data")


def heat_shares(browser) -> dict[int, float]:
    return {int(e.get_attribute("data-action")): float(e.get_attribute("data-share"))
            for e in browser.find_elements(By.CSS_SELECTOR, "#heat polygon.heat")}


def test_heat_map_hint_and_best_line_of_a_live_game(server, browser):
    url, app = server
    start(browser, url)
    seed = browser.find_element(By.ID, "seed")
    seed.clear()
    seed.send_keys("5")  # player_0, the human, starts
    browser.find_element(By.ID, "start").click()
    wait(browser, "return S.view !== null && S.gameId !== null && !S.busy && S.view.decider === 0")
    session = app.state.games.get(browser.execute_script("return S.gameId"))
    analysis_on(browser)
    d = wait_analysis(browser)
    legal = session.game.legal_actions()
    heat = heat_shares(browser)
    assert sorted(heat) == sorted(a for a in legal if a < 400)  # a hex of the heat map per legal hex decision
    others = [x["share"] for x in d["decisions"] if x["action"] >= 400]
    assert math.isclose(sum(heat.values()) + sum(others), 1.0, abs_tol=1e-6)  # the shares are the whole policy
    assert heat == {x["action"]: x["share"] for x in d["decisions"] if x["action"] < 400}
    assert len(browser.find_elements(By.CSS_SELECTOR, "#top-decisions li")) == min(6, len(legal))
    assert len(browser.find_elements(By.CSS_SELECTOR, ".eval-bar")) == 2

    # the hint: a legal decision, its hex marked on the board
    browser.find_element(By.ID, "hint").click()
    wait(browser, "return document.getElementById('hint-result').textContent.startsWith('hint (lookahead)')")
    hint = browser.execute_script("return A.hint")
    assert hint["action"] in legal and hint["words"] in browser.find_element(By.ID, "hint-result").text
    marked = browser.find_elements(By.CSS_SELECTOR, ".hex-hit.hint")
    assert [m.get_attribute("id") for m in marked] == [f"hex-{hint['hex'][0]}-{hint['hex'][1]}"]

    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOT))  # the heat map, the bars, the top decisions, the line and the hint

    # the best line: clicking a step previews the board after it, clicking it again returns
    steps = browser.find_elements(By.CSS_SELECTOR, "#best-line .line-step")
    assert len(steps) == len(d["line"]) >= 3
    browser.find_element(By.ID, "line-step-1").click()
    wait(browser, "return A.preview === 1")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#line-marks circle")) == 2
    assert len(browser.find_elements(By.CSS_SELECTOR, "polygon.settlement")) == 2  # two builds of the line
    assert "preview" in browser.find_element(By.ID, "message").text
    browser.find_element(By.ID, "line-step-1").click()
    wait(browser, "return A.preview === null")
    assert browser.find_elements(By.CSS_SELECTOR, "polygon.settlement") == []
    assert len(browser.find_elements(By.CSS_SELECTOR, "#heat polygon.heat")) == len(heat)

    # a decision taken by a click: the analysis follows the new position
    r, c = divmod(hint["action"], 20)
    browser.find_element(By.ID, f"hex-{r}-{c}").click()
    wait(browser, "return !S.busy && S.view.board.settlements[0].length === 1")
    d2 = wait_analysis(browser, "A.data.decisions.length > 0")
    assert sorted(x["action"] for x in d2["decisions"]) == sorted(session.game.legal_actions())
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]] == []


def test_eval_bars_move_and_the_replays_eval_curve_has_a_point_per_decision(server, browser, records):
    url, _ = server
    _, game = records
    start(browser, url)
    browser.find_element(By.ID, "tab-replay").click()
    browser.find_element(By.ID, "open-replay").click()
    steps = len(game.actions)
    wait(browser, f"return document.getElementById('rp-step').textContent === 'decision 0 / {steps}'")
    analysis_on(browser)
    wait(browser, "return A.curve !== null && document.getElementById('eval-chart').getBoundingClientRect().width > 0")
    assert browser.find_element(By.ID, "chart").is_displayed()  # the score chart beside it
    curves = browser.find_elements(By.CSS_SELECTOR, "#eval-chart polyline.eval-curve")
    assert len(curves) == 2  # a curve per seat
    for curve in curves:
        assert int(curve.get_attribute("data-points")) == steps
        assert len(curve.get_attribute("points").split()) == steps  # one point per decision
    values = []
    for k in (10, 60):
        browser.execute_script(f"replayStep({k})")
        wait_analysis(browser, f"S.replay.step === {k}")
        values.append([float(browser.find_element(By.ID, f"eval-bar-{p}").get_attribute("data-value"))
                       for p in range(2)])
    assert values[0] != values[1]  # the bars moved
    assert len(browser.find_elements(By.CSS_SELECTOR, "#chart polyline")) == 2  # the gold curve is still there


def test_twin_games_that_differ_only_in_hidden_cards_show_the_same_analysis(server, browser):
    url, app = server
    game = Game.new(2, seed=8)
    rng = np.random.default_rng(8)
    while game.decider != 0 or game.turn < 4:
        game.step(int(rng.choice(game.legal_actions())))
    other = game.determinize(0, np.random.default_rng(4))
    assert not np.array_equal(other.state, game.state)
    shown = []
    for k, g in enumerate((game, other)):
        app.state.games.add(GameSession(f"browser-twin{k}", g, ["human", "greedy"], [None, None], 0))
        start(browser, url)
        browser.execute_script(f"""Object.assign(S, {{mode: "play", gameId: "browser-twin{k}", seat: 0, humans: [0]}});
            api("GET", "/api/games/browser-twin{k}?seat=0")
              .then((d) => {{ analystOptions(d.view); render(d.view); }});""")
        analysis_on(browser)
        d = wait_analysis(browser, f"S.gameId === 'browser-twin{k}'")
        shown.append((heat_shares(browser), browser.find_element(By.ID, "eval-bars").text,
                       browser.find_element(By.ID, "top-decisions").text, d))
    assert shown[0] == shown[1]


def test_legend_rule_descriptions_card_text_and_models_per_ruleset(server, browser):
    url, app = server
    start(browser, url)
    specs = lambda: [o.get_attribute("value") for o in browser.find_elements(By.CSS_SELECTOR, "#agent-specs option")]  # noqa: E731
    assert "trained:2p" in specs() and "trained:nomads-2p" not in specs()
    browser.find_element(By.CSS_SELECTOR, "#ruleset summary").click()
    for name in ("nomads", "capitol", "caves"):
        browser.find_element(By.ID, f"exp-{name}").click()
    assert "trained:nomads-2p" in specs() and "trained:2p" not in specs() and "lookahead" in specs()
    rule = browser.find_element(By.ID, "rule-capitol_replaces_castle").find_element(By.XPATH, "..")
    assert "the castle under a capitol no longer scores 3 gold" in rule.text
    assert "capitol_replaces_castle" not in rule.text
    rule.click()
    seat1 = browser.find_element(By.ID, "seat-1")
    seat1.clear()
    seat1.send_keys("greedy")
    browser.find_element(By.ID, "start").click()
    # (a fresh install's first game with expansions compiles their kernels: minutes on 2 cores)
    wait(browser, "return S.view !== null && S.gameId !== null && !S.busy && S.view.rules.length === 1", 600)
    status = browser.find_element(By.ID, "status").text
    assert "the castle under a capitol no longer scores 3 gold" in status and "capitol_replaces_castle" not in status
    view = browser.execute_script("return S.view")
    analysts = [o.get_attribute("value") for o in browser.find_elements(By.CSS_SELECTOR, "#analyst option")]
    assert analysts == ["lookahead", "greedy"]  # no shipped model has this rule flag
    # the legend: every location letter in play with its name and text, and the pieces on the board
    letters = {loc["letter"] for loc in view["board"]["locations"]}
    rows = browser.find_elements(By.CSS_SELECTOR, "#legend .legend-location")
    assert len(rows) == len(letters)
    names = browser.execute_script("return S.meta.location_names")
    for letter in letters:
        name = names[browser.execute_script(f"return S.meta.location_letters.indexOf('{letter}')")]
        row = browser.find_element(By.ID, f"legend-loc-{name}")
        assert row.get_attribute("title") == view["locations_text"][name] and row.get_attribute("title")
    legend = browser.find_element(By.ID, "legend").text
    assert "settlement of player_0" in legend and "castle" in legend
    assert ("capitol" in legend) == bool(view["board"]["capitols"])
    assert ("cave" in legend) == bool(view["board"]["caves"])
    # the cards: their full text on hover, in the table's headings and in the card lines
    for card in view["cards"]:
        assert browser.find_element(By.ID, f"card-{card['name']}").get_attribute("title") == card["text"]
        head = browser.find_element(By.XPATH, f"//th[text()='{card['title']}']")
        assert head.get_attribute("title") == card["text"]
