"""`kbenv serve` with the Island in a real headless Chromium (Selenium), as tests/test_serve_browser.py: a new game
with the island expansion and the shipped side `island-substitute-1` chosen in the form; the island is drawn right
of the board (20 hexes in their terrain colours, the rope bridge with its 2 tiles), its legal hexes are highlighted,
a click on one builds there (the action `island r,c`), a click on an illegal one says why and builds nothing.

At the start player's first decision nobody has a settlement, so every free hex of the played card's terrain is
legal (base rule), the island's among them (QI-1). Side 1 (kbenv/data/islands/island-substitute-1.txt):
G F G T / G L W D / C W D M / F T M C / D F T C, L = the rope bridge.

Skipped, with the reason, when selenium, Chromium or chromedriver is missing. Saves no picture.
"""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[dev]')")

from selenium.webdriver.common.by import By  # noqa: E402

from kbenv import Game  # noqa: E402
from kbenv.board.colours import LOCATION_RGB, TERRAIN_RGB  # noqa: E402
from kbenv.serve import create_app  # noqa: E402
from tests.browser_checks import NO_BROWSER, WHY_NO_BROWSER, browser_fixture, served, wait  # noqa: E402

pytestmark = pytest.mark.skipif(NO_BROWSER, reason=WHY_NO_BROWSER)
SIDE_1 = ("GFGT", "GLWD", "CWDM", "FTMC", "DFTC")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = create_app([tmp_path_factory.mktemp("records")])
    with served(app) as url:
        yield url, app


browser = browser_fixture("1700,900")


def start_seed() -> int:
    """A seed whose island game starts with player_0 (the human seat)."""
    return next(s for s in range(50) if Game.new(2, seed=s, expansions=["island"],
                                                 island_side="island-substitute-1").current_player == 0)


def rgb(c) -> str:
    return f"rgb({c[0]},{c[1]},{c[2]})"


def test_the_island_is_drawn_and_clickable(server, browser):
    url, app = server
    browser.get(url + "/")
    wait(browser, "return S.meta !== null && document.getElementById('seat-1') !== null")
    assert not browser.find_element(By.ID, "island-side-box").get_attribute("hidden")
    seed = start_seed()
    browser.execute_script(
        "document.getElementById('exp-island').checked = true;"
        "document.getElementById('island-side').value = 'island-substitute-1';"
        f"document.getElementById('seed').value = '{seed}';"
        "document.getElementById('seat-1').value = 'random';")
    browser.find_element(By.ID, "start").click()
    wait(browser, "return S.view !== null && S.gameId !== null && !S.busy && S.view.decider === 0")
    session = next(iter(app.state.games.games.values()))
    game = session.game
    assert game.setup.island[0] == "island-substitute-1" and game.current_player == 0

    # drawn: 20 island hexes in their terrain colours, the rope bridge in the location colour with 2 tile dots
    hexes = browser.find_elements(By.CSS_SELECTOR, "#island polygon.island-hex")
    assert len(hexes) == 20
    for k, polygon in enumerate(hexes):
        letter = SIDE_1[k // 4][k % 4]
        want = LOCATION_RGB if letter == "L" else TERRAIN_RGB[letter]
        assert polygon.get_attribute("fill") == rgb(want)
    assert browser.find_element(By.CSS_SELECTOR, "#island .island-location").get_attribute("data-tiles") == "2"
    assert browser.find_element(By.ID, "island-side-name").text == "island-substitute-1"
    # right of the board, not touching it
    board_right = browser.execute_script("return S.meta.geometry.width")
    left = browser.execute_script("return document.getElementById('island-0-0').getBBox().x")
    assert left > board_right

    # the legal island hexes: those of the played card's terrain (nobody has a settlement yet)
    card = game.hand(0)
    expected = {(r, c) for r in range(5) for c in range(4) if SIDE_1[r][c] == card}
    legal = {(int(e.get_attribute("data-r")), int(e.get_attribute("data-c")))
             for e in browser.find_elements(By.CSS_SELECTOR, ".island-hit.legal")}
    assert legal == expected and expected

    # an illegal island hex: the reason, nothing built
    r, c = next((r, c) for r in range(5) for c in range(4) if SIDE_1[r][c] not in (card, "L"))
    browser.find_element(By.ID, f"island-{r}-{c}").click()
    wait(browser, "return document.getElementById('message').className === 'error'")
    assert "illegal" in browser.find_element(By.ID, "message").text and game.actions == []

    # a legal one: the action island r,c, a settlement drawn on the island
    r, c = sorted(expected)[0]
    browser.find_element(By.ID, f"island-{r}-{c}").click()
    wait(browser, "return !S.busy && S.view.board.island.settlements[0].length === 1")
    assert game.actions == [458 + 4 * r + c]
    assert browser.execute_script("return S.view.board.island.settlements[0]") == [[r, c]]
    assert len(browser.find_elements(By.CSS_SELECTOR, "#island polygon.settlement")) == 1
    assert "build at island" in browser.find_element(By.ID, "log").text
