"""Scoring with the Island (QI-2, A-QI1, A-QI2, A-QI3, A-QI4).

End-scoring positions are scored with ``score_position`` (island_helpers ``scores``) on grass-filled boards unless
a test says otherwise; the islands are the 5 x 4 test islands of island_helpers (IA3), mountain-filled, with the
named hexes set. Sectors are the four 10x10 quadrants of the board (docs/api.md). Card rules are those of the base
game (kb-data cards.md section 1, summarised in ``CARDS``); the arithmetic is next to every expected number.

Rule text quoted (the comments below name these):

QI_2 (EN 1447): "Important: The island does not count as its own sector, and thus does not score gold for the
    "LORDS" kingdom builder card. It is also ignored in scoring for "FARMERS". You can choose a line on the island
    for "KNIGHTS". You can score up to 5 gold for the horizontal lines on the island for "DISCOVERERS". All other
    kingdom builder cards score normally."
QI_2_DE (DE 1697-1702): "Wichtig: Die Insel zählt nicht als eigener Quadrant. Sie gibt keine Punkte für die Kingdom
    Builder Karte „LORDS“ und wird auch nicht bei den „BAUERN“ und dem „RITTER“ berücksichtigt. Bei den „ENTDECKERN“
    können aber 5 zusätzliche Gold erzielt werden. Alle übrigen Kingdom Builder Karten gelten ohne Einschränkung
    auch für die Inselfelder."
A_QI2 (spec A-QI2): "The coast spaces are adjacent to water spaces. The surrounding water is NOT made of spaces, so
    no tokens can go there (TG). Default as TG, flag."
A_QI4 (spec A-QI4): "The island has 5 horizontal lines (implied by 'up to 5 gold'). Island rows are separate lines
    for Discoverers, Knights, Rangers and Mayors. It is not a sector (Lords, Farmers, Homesteaders, Rovers,
    Vassals)."
FARMERS_NOTE (EN 386): "In order to qualify as a "Farmer" a player must have built at least 1 settlement in each
    sector."
"""

from tests.rules.island.helpers import (
    COLS,
    ROWS,
    I,
    coast,
    flag,
    inb,
    ipos,
    requires_island,
    scores,
    with_options,
)

pytestmark = requires_island

A_QI1 = "Knights conflict: the EN text says an island line may be chosen, the DE text ignores the island. Default EN."
CARDS = {  # kb-data cards.md section 1 (the card texts are pictures in the rulebook files)
    "fishermen": "1 gold per own settlement that touches >= 1 water hex",
    "miners": "1 gold per own settlement that touches >= 1 mountain hex",
    "workers": "1 gold per own settlement that touches >= 1 castle or location hex",
    "merchants": "4 gold per castle/location hex linked by own settlements to another castle/location hex",
    "discoverers": "1 gold per horizontal line with >= 1 own settlement",
    "hermits": "1 gold per own settlement area",
    "citizens": "1 gold per 2 settlements of the largest own area",
    "knights": "2 gold per own settlement on the own single best horizontal line",
    "lords": "per sector: 12 gold for the most settlements, 6 for the second most",
    "farmers": "3 gold per own settlement in the own weakest sector; 0 without a settlement in every sector",
}


def card_gold(kx, card, settlements, island=None, fill="G", cells=None, options=None, **kwargs):
    """``card``'s gold per player; every island settlement hex is grass unless ``island`` names it."""
    others = [c for c in ("hermits", "citizens", "fishermen") if c != card][:2]
    isl = {(h[1], h[2]): "G" for p in settlements for h in p if isinstance(h, tuple) and len(h) == 3}
    isl.update(island or {})
    board = {h: "G" for p in settlements for h in p if len(h) == 2}
    board.update(cells or {})
    pos = ipos(kx, board, fill=fill, settlements=[list(p) for p in settlements], island=isl, cards=[card, *others],
               hands=["G"] * len(settlements), opp_area=False, **kwargs)
    if options:
        pos = with_options(pos, options)
    return [row["cards"][card] for row in scores(pos)]


# --------------------------------------------------------------------------- QI-2: Lords, Farmers

def test_QI2_lords_the_island_is_no_sector(kx):
    # top-left sector: player 0 (1, 1) (1, 3) = 2 -> 12; player 1 (3, 3) = 1 -> 6; no other sector has settlements.
    # Player 1's 4 island settlements count nowhere (as a sector of their own they would give 12 more; added to a
    # quadrant they would make player 1 first there)
    p0 = [(1, 1), (1, 3)]
    p1 = [(3, 3), I(0, 0), I(0, 2), I(2, 0), I(2, 2)]
    assert card_gold(kx, "lords", [p0, p1]) == [12, 6]


def test_QI2_farmers_ignore_the_island(kx):
    # player 0: one settlement in each quadrant, none on the island -> min 1 -> 3 (were the island a sector, 0);
    # player 1: two in each quadrant + 3 on the island -> min 2 -> 6 (the island's 3 neither lower nor raise it)
    p0 = [(1, 1), (1, 11), (11, 1), (11, 11)]
    p1 = [(3, 3), (3, 5), (3, 13), (3, 15), (13, 3), (13, 5), (13, 13), (13, 15), I(0, 0), I(0, 2), I(4, 0)]
    assert card_gold(kx, "farmers", [p0, p1]) == [3 * 1, 3 * 2]


def test_QI2_farmers_the_island_does_not_stand_in_for_a_sector(kx):
    # FARMERS_NOTE: player 0 has 2 settlements in three quadrants, none in the bottom right, 5 on the island -> 0
    p0 = [(3, 3), (3, 5), (3, 13), (3, 15), (13, 3), (13, 5), I(0, 0), I(0, 2), I(2, 0), I(2, 2), I(4, 3)]
    assert card_gold(kx, "farmers", [p0, [(15, 15)]]) == [0, 0]


# --------------------------------------------------------------------------- QI-2 / A-QI4: Discoverers

def test_QI2_A_QI4_discoverers_island_lines_are_extra_lines(kx):
    # player 0: board rows 0 and 5 -> 2; island rows 0, 1, 2 -> 3 more (not the board's rows 0..2) -> 5.
    # player 1: nothing on the board, island row 4 -> 1
    p0 = [(0, 3), (5, 5), I(0, 0), I(1, 1), I(2, 3)]
    p1 = [I(4, 2)]
    assert card_gold(kx, "discoverers", [p0, p1]) == [2 + 3, 1]


def test_QI2_A_QI4_discoverers_up_to_5_more(kx):
    # every board row (20) and every island row (5) -> 20 + 5 = 25: "up to 5 gold" more for the island's lines
    p0 = [(r, (3 * r) % 20) for r in range(20)] + [I(r, r % COLS) for r in range(ROWS)]
    assert card_gold(kx, "discoverers", [p0, []]) == [20 + 5, 0]


# --------------------------------------------------------------------------- A-QI1 / A-QI4: Knights

KNIGHTS_P0 = [(3, 1), (3, 5), I(1, 0), I(1, 1), I(1, 3)]      # board row 3: 2; island row 1: 3
KNIGHTS_P1 = [(0, 0), (0, 2), I(0, 0), I(0, 3)]                # board row 0: 2; island row 0: 2


def test_A_QI1_knights_may_choose_an_island_line(kx):
    # QI_2 "You can choose a line on the island for KNIGHTS" (default): player 0's best line is island row 1 with 3
    # -> 2 x 3 = 6; player 1: board row 0 and island row 0 are separate lines of 2 each (A_QI4) -> 2 x 2 = 4, not 8
    assert card_gold(kx, "knights", [KNIGHTS_P0, KNIGHTS_P1]) == [2 * 3, 2 * 2]


def test_A_QI1_flag_the_de_reading_ignores_the_island_for_knights(kx):
    # QI_2_DE "wird auch nicht bei ... dem RITTER berücksichtigt": only board lines -> player 0 row 3: 2 x 2 = 4;
    # player 1 row 0: 2 x 2 = 4
    assert card_gold(kx, "knights", [KNIGHTS_P0, KNIGHTS_P1], options=flag("A-QI1")) == [2 * 2, 2 * 2]


# --------------------------------------------------------------------------- A-QI2: coast and water

def test_A_QI2_fishermen_coast_hexes_touch_the_water(kx):
    # IA6: I(0,0) and I(4,3) lie on the rim (coast), I(2,2) is inner (6 island neighbours, none water); the board is
    # grass without water, and the board's own edge (0, 0) is no coast -> player 0: 1 + 1 = 2, player 1: 0 + 0 = 0
    assert coast(0, 0) and coast(4, 3) and not coast(2, 2) and len(inb(2, 2)) == 6
    p0 = [I(0, 0), I(4, 3)]
    p1 = [I(2, 2), (0, 0)]
    assert card_gold(kx, "fishermen", [p0, p1]) == [2, 0]


def test_A_QI2_flag_coast_hexes_are_not_next_to_water(kx):
    # the alternative reading: the surrounding water is no hex -> nobody touches water -> 0, 0
    p0 = [I(0, 0), I(4, 3)]
    p1 = [I(2, 2), (0, 0)]
    assert card_gold(kx, "fishermen", [p0, p1], options=flag("A-QI2")) == [0, 0]


def test_A_QI2_fishermen_island_water_hexes_count(kx):
    # "All other kingdom builder cards score normally": I(2,1) (inner) touches the island's water hex I(2,2) -> 1
    assert I(2, 2) in inb(2, 1) and not coast(2, 1)
    assert card_gold(kx, "fishermen", [[I(2, 1)], []], island={(2, 2): "W"}, options=flag("A-QI2")) == [1, 0]


# --------------------------------------------------------------------------- QI-2 "all other cards score normally"

def test_QI2_miners_island_mountains_only(kx):
    # mountain-filled board and island. Player 0: board (0, 0) touches board mountains -> 1; I(0,0) touches only
    # I(0,1) I(1,0), both grass -> 0 (the board's mountains are no island neighbours); I(3,3) touches island
    # mountains -> 1; total 2. Player 1: I(0,3) touches I(0,2) I(1,2) I(1,3), mountains -> 1
    assert inb(0, 0) == {I(0, 1), I(1, 0)}
    island = {(0, 1): "G", (1, 0): "G"}
    p0 = [(0, 0), I(0, 0), I(3, 3)]
    p1 = [I(0, 3)]
    assert card_gold(kx, "miners", [p0, p1], island=island, fill="M") == [2, 1]


def test_QI2_hermits_and_citizens_the_island_is_a_separate_area(kx):
    # player 0: board (0, 0) (0, 1) = one area of 2; island I(0,0) I(0,1) I(1,1) I(1,2) = one area of 4
    # (I(0,1) in inb(0,0), I(1,1) in inb(0,1), I(1,2) in inb(1,1)); the same coordinates on both boards do not
    # join -> hermits 2 areas = 2; citizens: largest 4 -> 4 // 2 = 2
    assert I(0, 1) in inb(0, 0) and I(1, 1) in inb(0, 1) and I(1, 2) in inb(1, 1)
    p0 = [(0, 0), (0, 1), I(0, 0), I(0, 1), I(1, 1), I(1, 2)]
    assert card_gold(kx, "hermits", [p0, []]) == [2, 0]
    assert card_gold(kx, "citizens", [p0, []]) == [4 // 2, 0]


def test_QI2_workers_and_merchants_with_the_island_location(kx):
    # the island's location hex I(2,2) (tree house) and a board castle (5, 6). Player 0: I(2,1) touches I(2,2) -> 1,
    # (5, 5) touches the castle -> 1: workers 2. Merchants: the castle and the island's location are not linked by
    # a chain of own settlements (the island is not connected to the board), nothing else is special -> 0
    cells = {(5, 6): "K"}
    p0 = [(5, 5), I(2, 1)]
    kwargs = {"island_locations": {(2, 2): "tree_house"}, "cells": cells}
    assert card_gold(kx, "workers", [p0, []], **kwargs) == [2, 0]
    assert card_gold(kx, "merchants", [p0, []], **kwargs) == [0, 0]
