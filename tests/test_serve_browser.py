"""`kbenv serve` in a real headless Chromium (Selenium): start a game against greedy, play a whole turn by
clicking hexes, see the score change, check the opponent's hand never reaches the page, replay a record
forward and back. Saves the screenshot of the README (docs/images/serve.png).

Skipped, with the reason, when selenium, Chromium or chromedriver is missing (`.ci/run` installs Debian's
chromium and chromium-driver when it runs as root). KBENV_CHROMIUM / KBENV_CHROMEDRIVER name other binaries.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[dev]')")

from selenium.webdriver.common.by import By  # noqa: E402

from kbenv import Game  # noqa: E402
from kbenv.serve import create_app  # noqa: E402
from tests.browser_checks import CHROMIUM, DRIVER, NO_BROWSER, WHY_NO_BROWSER, browser_fixture, served, wait  # noqa: E402,F401

SCREENSHOT = Path(__file__).resolve().parents[1] / "docs" / "images" / "serve.png"


pytestmark = pytest.mark.skipif(NO_BROWSER, reason=WHY_NO_BROWSER)


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records")
    game = Game.new(2, seed=3)
    rng = np.random.default_rng(3)
    while not game.done:
        game.step(int(rng.choice(game.legal_actions())))
    (folder / "game.json").write_text(json.dumps(game.to_record()))
    return folder, game


@pytest.fixture(scope="module")
def server(records):
    app = create_app([records[0]])
    with served(app) as url:
        yield url, app


browser = browser_fixture("1500,900")


def best_hex(game: Game) -> tuple[int, int]:
    """The legal hex that raises player 0's total most now (what a person wanting to see the score move picks)."""
    def gain(action: int) -> int:
        g = game.clone()
        g.step(action)
        return int(g.score_table()[0, -1])
    hexes = [a for a in game.legal_actions() if a < 400]
    best = max(hexes, key=gain)
    return best // 20, best % 20


def test_play_a_turn_against_greedy_by_clicking(server, browser):
    url, app = server
    browser.get(url + "/")
    wait(browser, "return S.meta !== null && document.getElementById('seat-1') !== null")
    seed = browser.find_element(By.ID, "seed")
    seed.clear()
    seed.send_keys("5")  # seed 5: player_0 (the human) starts
    assert browser.find_element(By.ID, "seat-1").get_attribute("value") == "greedy"
    browser.find_element(By.ID, "start").click()
    wait(browser, "return S.view !== null && S.gameId !== null && !S.busy && S.view.decider === 0")
    session = next(iter(app.state.games.games.values()))
    assert browser.find_element(By.ID, "total-0").text == "0"
    assert len(browser.find_elements(By.CSS_SELECTOR, ".hex-hit.legal")) == \
        len([a for a in session.game.legal_actions() if a < 400])

    # an illegal click: the reason in the message line, nothing built
    legal = set(session.game.legal_actions())
    r, c = next(divmod(h, 20) for h in range(400) if h not in legal)
    browser.find_element(By.ID, f"hex-{r}-{c}").click()
    wait(browser, "return document.getElementById('message').className === 'error'")
    assert "illegal" in browser.find_element(By.ID, "message").text
    assert session.game.actions == []

    # the opponent's hand is not on the page: its cell says hidden, the page's data holds no card
    hidden = session.game.hand(1)
    assert browser.find_element(By.ID, "hand-1").text == "1 hidden"
    assert browser.execute_script("return S.view.seats[1].hand") == []
    assert f'"hand": ["{hidden}"]' not in json.dumps(browser.execute_script("return S.view"))

    for k in range(3):  # the mandatory action: three builds, each by a click
        r, c = best_hex(session.game)
        browser.find_element(By.ID, f"hex-{r}-{c}").click()
        wait(browser, f"return !S.busy && S.view.board.settlements[0].length === {k + 1} || S.view.decider !== 0")
    own = browser.execute_script("return S.view.board.settlements[0]")
    assert len(own) == 3 and len(browser.find_elements(By.CSS_SELECTOR, "polygon.settlement")) >= 3
    ends = browser.find_elements(By.ID, "decision-end_turn")
    if ends:  # a tile taken: the turn ends with the button
        ends[0].click()
    wait(browser, "return !S.busy && S.view.decider === 0 && S.view.turn > 2 || S.view.done")
    total = session.game.score_table()[0, -1]
    assert total > 0
    assert browser.find_element(By.ID, "total-0").text == str(total)  # the score moved on the page
    assert browser.find_element(By.ID, "total-1").text == str(session.game.score_table()[1, -1])
    assert len(browser.find_elements(By.CSS_SELECTOR, "#log li")) == len(session.game.actions)
    source = browser.page_source
    hidden = session.game.hand(1)
    assert browser.find_element(By.ID, "hand-1").text == "1 hidden"
    assert f'id="hand-1">{hidden}' not in source
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOT))


def test_replay_a_record_forward_and_back(server, browser, records):
    url, _ = server
    _, game = records
    browser.get(url + "/")
    wait(browser, "return S.meta !== null && S.records !== undefined")
    browser.find_element(By.ID, "tab-replay").click()
    assert "game.json" in browser.find_element(By.ID, "record-list").text
    browser.find_element(By.ID, "open-replay").click()
    steps = len(game.actions)
    wait(browser, f"return document.getElementById('rp-step').textContent === 'decision 0 / {steps}'")
    assert browser.find_elements(By.CSS_SELECTOR, "polygon.settlement") == []
    for _ in range(3):
        browser.find_element(By.ID, "rp-forward").click()
    wait(browser, f"return document.getElementById('rp-step').textContent === 'decision 3 / {steps}'")
    assert len(browser.find_elements(By.CSS_SELECTOR, "polygon.settlement")) == 3  # three builds
    browser.find_element(By.ID, "rp-back").click()
    wait(browser, f"return document.getElementById('rp-step').textContent === 'decision 2 / {steps}'")
    assert len(browser.find_elements(By.CSS_SELECTOR, "polygon.settlement")) == 2
    browser.find_element(By.ID, "rp-last").click()
    wait(browser, f"return document.getElementById('rp-step').textContent === 'decision {steps} / {steps}'")
    totals = [s["total"] for s in game.scores()]
    assert [browser.find_element(By.ID, f"total-{p}").text for p in range(2)] == [str(t) for t in totals]
    assert "game over" in browser.find_element(By.ID, "status").text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#chart polyline")) == 2  # a score line per seat
