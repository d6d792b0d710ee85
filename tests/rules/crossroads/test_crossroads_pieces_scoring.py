"""Crossroads pieces as settlements in scoring (C-9, C-11, X-3) and outside the supply (A-C4).

Scoring positions are hand-built on mountain-filled boards: player 0's warriors, wagon and ship stand
where a test puts them (``warriors``, ``wagons``, ``ships``); each test compares with the same position
without the pieces. ``score_position`` rows carry a "tasks" column in Crossroads games (no task card is in
play here, so it adds 0), and ``total`` = cards + castles + capitols + gold + tasks.

Rule text quoted (the comments below name these):

COUNT (EN 866): "Warriors, wagons and ships count as settlements."
WARRIOR_SCORE (EN 880): "Warriors score gold at the end of the game, like other settlements."
WAGON_SCORE (EN 897): "Wagons score gold at the end of the game, like other settlements."
SHIP_SCORE (EN 914): "Ships score gold at the end of the game, like other settlements."
X3 (spec X-3): "OWN[p]: the settlements plus the hexes of p's warriors, wagon, ship and 7 city-hall cells ... It is
    used for adjacency, tile keeping and scoring. None of these comes out of the 40-settlement supply."
FISHERMEN_NOTE (EN 351): "The 'Fishermen' card does not generate gold for settlements on water hexes."
READING_WATER_MOUNTAIN (docs/rules-readings.md (N-8)): "Fishermen and Miners ignore settlements standing on water or
    mountain, so a donation on water scores for Miners next to a mountain, and on mountain for Fishermen next to
    water."
A_C4 (spec A-C4): "The pieces are given at set-up, so they do not touch the 40-settlement supply or the end trigger.
    TG: 'Meeples do not change end of game'."
GAME_END (EN 327): "The game ends when one player has built the last settlement from their personal supply. However,
    the current game round is still completed."
"""

import pytest

from tests.rules.crossroads.helpers import cpos, cscores


def score_pair(kx, cells, cards, own, own1=(), warriors=None, wagon=None, ship=None, fill="M"):
    """(scores with player 0's pieces, scores without them)."""
    common = {"opp": False, "fill": fill, "cards": cards}
    with_pieces = cpos(kx, cells, settlements=[list(own), list(own1)], warriors=[list(warriors or []), []],
                       wagons=[wagon, None], ships=[ship, None], **common)
    without = cpos(kx, cells, settlements=[list(own), list(own1)], **common)
    return cscores(with_pieces), cscores(without)


# --------------------------------------------------------------------------- C-9 / C-11 scoring


def test_C9_C11_pieces_count_for_knights_citizens_hermits(kx):
    # row 10: settlement (10, 10), warrior (10, 11), wagon (10, 12) on a mountain, ship (10, 13) on water:
    # one area of 4, 4 on row 10
    cells = {(10, 10): "G", (10, 11): "C", (10, 12): "M", (10, 13): "W"}
    (s0, s1), (b0, _) = score_pair(kx, cells, ["knights", "citizens", "hermits"], own=[(10, 10)],
                                   warriors=[(10, 11)], wagon=(10, 12), ship=(10, 13))
    assert s0["cards"] == {"knights": 8, "citizens": 2, "hermits": 1}
    assert b0["cards"] == {"knights": 2, "citizens": 0, "hermits": 1}
    assert s1["cards"] == {"knights": 0, "citizens": 0, "hermits": 0}


def test_C9_C11_pieces_count_for_farmers_lords_discoverers(kx):
    # one own piece per sector: settlement (2, 2) TL, warrior (2, 12) TR, wagon (12, 2) BL, ship (12, 12) BR.
    # Player 1 has (3, 3) in TL: tie 1-1 there (12 each); player 0 wins TR, BL, BR alone.
    cells = {(2, 2): "G", (3, 3): "G", (2, 12): "C", (12, 2): "M", (12, 12): "W"}
    (s0, s1), (b0, b1) = score_pair(kx, cells, ["farmers", "lords", "discoverers"], own=[(2, 2)], own1=[(3, 3)],
                                    warriors=[(2, 12)], wagon=(12, 2), ship=(12, 12))
    assert s0["cards"] == {"farmers": 3, "lords": 48, "discoverers": 2}
    assert s1["cards"] == {"farmers": 0, "lords": 12, "discoverers": 1}
    assert b0["cards"] == {"farmers": 0, "lords": 12, "discoverers": 1}
    assert b1["cards"] == {"farmers": 0, "lords": 12, "discoverers": 1}


def test_C9_C11_warriors_count_for_fishermen_miners_workers_and_castles(kx):
    # warrior (5, 5): next to water (5, 6) and mountains; warrior (14, 6): next to the castle (14, 5) and
    # mountains. X3: pieces count for castles too.
    cells = {(5, 5): "G", (5, 6): "W", (14, 6): "C", (14, 5): "K"}
    (s0, _), (b0, _) = score_pair(kx, cells, ["fishermen", "miners", "workers"], own=[],
                                  warriors=[(5, 5), (14, 6)])
    assert s0["cards"] == {"fishermen": 1, "miners": 2, "workers": 1}
    assert s0["castles"] == 3
    assert s0["total"] == 7
    assert b0["cards"] == {"fishermen": 0, "miners": 0, "workers": 0} and b0["castles"] == 0


def test_C9_wagon_on_a_mountain_and_ship_on_water_follow_the_standing_terrain_rule(kx):
    # FISHERMEN_NOTE / READING_WATER_MOUNTAIN applied to the pieces (they "count as settlements"):
    # the wagon stands on the mountain (8, 8) next to the water (8, 9): Fishermen 1, Miners 0;
    # the ship stands on the water (12, 12) among mountains: Fishermen 0, Miners 1.
    cells = {(8, 8): "M", (8, 9): "W", (12, 12): "W"}
    (s0, _), (b0, _) = score_pair(kx, cells, ["fishermen", "miners", "hermits"], own=[], wagon=(8, 8),
                                  ship=(12, 12))
    assert s0["cards"] == {"fishermen": 1, "miners": 1, "hermits": 2}
    assert b0["cards"] == {"fishermen": 0, "miners": 0, "hermits": 0}


def test_C9_pieces_link_special_hexes_for_merchants(kx):
    # castle (10, 5) - warrior (10, 6) - wagon (10, 7) - oracle (10, 8): both special hexes score 4
    cells = {(10, 5): "K", (10, 6): "C", (10, 7): "M", (10, 8): "o"}
    (s0, _), (b0, _) = score_pair(kx, cells, ["merchants", "hermits", "citizens"], own=[], warriors=[(10, 6)],
                                  wagon=(10, 7))
    assert s0["cards"] == {"merchants": 8, "hermits": 1, "citizens": 1}
    assert s0["castles"] == 3
    assert b0["cards"] == {"merchants": 0, "hermits": 0, "citizens": 0}


# --------------------------------------------------------------------------- A-C4 supply and game end

LOC = (3, 3)
H = (3, 4)          # neighbours (3, 5) flower, (2, 4) water, (2, 5) (4, 4) (4, 5) mountain
ROSETTE = {h: "F" for h in [(3, 6), (3, 5), (3, 7), (2, 6), (2, 7), (4, 6), (4, 7)]}   # centre (3, 6)
GRASS6 = {(18, c): "G" for c in range(6)}


@pytest.mark.parametrize("power,letter,target", [
    ("barracks", "k", (3, 5)),
    ("wagon", "n", (3, 5)),
    ("lighthouse", "i", (2, 4)),
    ("city_hall", "y", (3, 6)),
])
def test_A_C4_pieces_do_not_come_from_the_supply_nor_end_the_game(kx, power, letter, target):
    # player 0 has 4 settlements in supply. It places its piece, then builds the 3 mandatory settlements:
    # 1 left, so the game goes on (GAME_END); had the piece come from the supply, the last settlement
    # would have been built and the game would end after player 1's turn.
    cells = {**GRASS6, **ROSETTE, LOC: letter, H: "D", (2, 4): "W"}
    pos = cpos(kx, cells, settlements=[[H], []], tiles=[[LOC], []], supply=[4, 40], deck=["G", "D", "G", "D"])
    assert power in kx.legal(pos)
    assert target in kx.legal(kx.with_then(pos, [power]))
    placed = [power, target]
    g = kx.game(kx.with_then(pos, placed))
    assert g.supply(0) == 4
    turn0 = placed + [(18, 0), (18, 1), (18, 2)]
    g = kx.game(kx.with_then(pos, turn0))
    assert g.supply(0) == 1
    then = turn0 + ([] if g.current_player == 1 else ["end_turn"])
    then += [(16, 0), (16, 1), (16, 2)]
    out = kx.answer(kx.with_then(pos, then))
    assert out["player"] == 0 and out["phase"] == "idle"
    assert (18, 3) in out["legal"]
    g = kx.game(kx.with_then(pos, then))
    assert not g.done and g.supply(0) == 1
