"""The browser page's JSON for Harvest games (issue 22): scouts, Mayors marks, number tiles and the silo phase come
from PlayerView (public facts), and the silo's and the number tiles' choices have readable button labels."""

from __future__ import annotations

import numpy as np

from kbenv import Game
from kbenv import catalogue as CAT
from kbenv.board.geometry import hex_id
from kbenv.engine import state as S
from kbenv.present.image import mayor_mark_centre
from kbenv.serve.views import board_meta, seat_view, spectator_view


def test_the_view_carries_scouts_marks_and_number_tiles():
    g = Game.new(3, seed=4, expansions=["harvest"], cards=["mayors", "rovers", "fishermen"])
    st = g.state
    st[S.NUMBER_TILES : S.NUMBER_TILES + 3] = [3, 0, 5]
    st[S.MAYOR_LINES + 9] = 3  # row 9 marked for player 2
    st[S.ROVER_SECTIONS] = 0b10
    h = hex_id(5, 5)
    st[S.SCOUTS + h // 60] |= 1 << (h % 60)
    owner = g.current_player
    for view in (seat_view(g, 1, ["human"] * 3), spectator_view(g, ["human"] * 3)):
        assert view["board"]["scouts"] == [{"hex": [5, 5], "seat": owner}]
        assert view["board"]["mayor_lines"] == [{"row": 9, "seat": 2}]
        harvest = view["harvest"]
        assert harvest["number_tiles"] == [3, 0, 5] and harvest["number_tiles_left"] == 18 - 8
        assert harvest["rover_sections"] == [1] and harvest["scouts_left"] == 1 and harvest["silo"] is None
    assert board_meta()["geometry"]["mayor_marks"][9] == [round(v, 3) for v in mayor_mark_centre(9)]
    base = seat_view(Game.new(2, seed=1), 0, ["human"] * 2)
    assert base["harvest"] is None and base["board"]["scouts"] == [] and base["board"]["mayor_lines"] == []


def _first(phase: str, want) -> Game:
    for seed in range(40):
        g = Game.new(2 + seed % 3, seed=seed, expansions=["harvest"])
        rng = np.random.default_rng(seed)
        while not g.done:
            if g.phase == phase and want(g):
                return g
            g.step(int(rng.choice(g.legal_actions())))
    raise AssertionError(f"no {phase} decision found")


def test_the_silo_choice_has_readable_buttons_and_status():
    build, move = CAT.ACTION_ID["option-1"], CAT.ACTION_ID["option-2"]
    g = _first("silo", lambda g: build in g.legal_actions())
    view = seat_view(g, g.decider, ["human"] * g.num_players)
    words = {d["action"]: d["words"] for d in view["legal"]}
    assert words[build] == "Silo: build up to 3 settlements"
    if move in words:
        assert words[move] == "Silo: move up to 3 settlements"
    assert view["harvest"]["silo"]["seat"] == g.decider and view["phase"] == "silo"


def test_the_number_tiles_choice_has_readable_buttons():
    take = CAT.ACTION_ID["option-1"]
    g = _first("choose_target", lambda g: take in g.legal_actions())
    words = {d["action"]: d["words"] for d in seat_view(g, g.decider, ["human"] * g.num_players)["legal"]}
    assert words[take] == "take a number tile"
