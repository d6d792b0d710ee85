"""Marshlands end scoring at the kernel level (kbenv.engine.marshlands.scoring), on hand-built masks.

Expected values are worked out by hand from the rule text (EN = bigbox-2nd-edition-en.txt) and the spec's
readings (M-6, M-19..M-24, A-M1, A-M11). Coordinates are (row, col) on the odd-r 20x20 board: neighbours of
(r, c) are (r, c±1) and, for even r, (r±1, c-1), (r±1, c); for odd r, (r±1, c), (r±1, c+1).
"""

from __future__ import annotations

import numpy as np

from kbenv import Game
from kbenv.board.bitset import WORDS, hexes_of, mask_of
from kbenv.board.codes import MERCHANTS, WORKERS
from kbenv.board.geometry import STEP1
from kbenv.board.marsh_tables import HEX_DISTANCE, SEAM_MASK, area_labels, cube
from kbenv.catalogue import CARD_GOLD, PALACE_GOLD, UNVERIFIED_CARDS
from kbenv.engine import state as S
from kbenv.engine.marshlands import scoring as MS
from kbenv.engine.scoring import score_card


def H(r: int, c: int) -> int:
    return r * 20 + c


def mask(*cells) -> np.ndarray:
    return mask_of([H(r, c) for r, c in cells])


def owns(*players) -> np.ndarray:
    """(players, WORDS) OWN masks from lists of cells."""
    out = np.zeros((len(players), WORDS), dtype=np.int64)
    for p, cells in enumerate(players):
        out[p] = mask(*cells)
    return out


NONE = np.zeros(WORDS, dtype=np.int64)


def test_the_amounts_are_the_spec_ones_and_marked_unverified():
    # A-M11 / kb-data cards.md section 4; M-6 (EN 1083): "earns 5 gold"
    marsh = {"geologists": 2, "messengers": 2, "noblewomen": 5, "vassals": 1, "captains": 1, "scouts": 1}
    assert {name: gold for name, gold in CARD_GOLD.items() if name in marsh} == marsh
    assert PALACE_GOLD == 5
    assert set(marsh) <= set(UNVERIFIED_CARDS)


# ----- palaces (M-6, A-M1) ---------------------------------------------------------------------------
PALACE = (5, 5)  # odd row: neighbours (5,4) (5,6) (4,5) (4,6) (6,5) (6,6)


def palace_gold(palaces, *players) -> list[int]:
    out = np.zeros(len(players), dtype=np.int64)
    MS.palace_gold_into(mask(*palaces), owns(*players), len(players), out)
    return out.tolist()


def test_palace_goes_to_the_most_settlements_next_to_it():
    # EN 1083 / 1089: "built the most settlements next to the palace earns 5 gold"; the others do not
    assert palace_gold([PALACE], [(5, 4), (4, 5)], [(6, 6)], [(0, 0)]) == [5, 0, 0]


def test_palace_tie_pays_each_tied_player():
    # EN 1083: "In case of a tie, each of the tied players earns 5 gold."
    assert palace_gold([PALACE], [(5, 4), (9, 9)], [(5, 6)], [(4, 6), (6, 5)]) == [0, 0, 5]
    assert palace_gold([PALACE], [(5, 4)], [(5, 6)], []) == [5, 5, 0]


def test_palace_with_nobody_next_to_it_pays_nobody():
    # A-M1 default: at least one adjacent settlement is needed (not a three-way tie at 0)
    assert palace_gold([PALACE], [(0, 0)], [(19, 19)], []) == [0, 0, 0]


def test_each_palace_is_scored_and_cells_count_one_by_one():
    # palace 2 at (12,12), even row: neighbours (12,11) (12,13) (11,11) (11,12) (13,11) (13,12)
    assert palace_gold([PALACE, (12, 12)], [(5, 4), (13, 12)], [(12, 11), (11, 12)]) == [5, 5]
    # A-M1: adjacent OWN cells count (a city hall counts per cell): 3 cells beat 2
    assert palace_gold([(12, 12)], [(12, 11), (11, 11), (11, 12)], [(13, 11), (13, 12)]) == [5, 0]


# ----- Noblewomen (M-21; EN 1193-1197) ----------------------------------------------------------------
def test_noblewomen_example_5_5_15_and_palaces_only_once():
    """EN 1195-1197: "Player orange: 5 gold, Player blue: 5 gold, Player white: 15 gold"; "Palaces are scored
    only once." A board with one castle, three locations, one nomad space, a palace and an empty location."""
    castle, loc1, loc2, loc3, nomad, lonely = (3, 3), (3, 13), (13, 3), (13, 13), (7, 7), (1, 17)
    palace = (16, 8)  # even row: neighbours (16,7) (16,9) (15,7) (15,8) (17,7) (17,8)
    special = mask(castle, loc1, loc2, loc3, nomad, lonely)
    orange = [(3, 2), (3, 4), (2, 13)]  # castle: 2; loc1: 1
    blue = [(2, 3), (3, 12), (3, 14), (13, 2)]  # castle: 1; loc1: 2; loc2: 1
    white = [(12, 3), (12, 4), (13, 12), (7, 6), (16, 7), (16, 9), (15, 7)]  # loc2: 2; loc3: 1; nomad: 1; palace: 3
    own = owns(orange, blue, white)
    out = np.zeros(3, dtype=np.int64)
    MS.noblewomen_gold_into(special | mask(palace), mask(palace), own, 3, out)
    assert out.tolist() == [5, 5, 15]
    # the palace itself pays once, by the palace rule (M-6), to white
    palace_out = np.zeros(3, dtype=np.int64)
    MS.palace_gold_into(mask(palace), own, 3, palace_out)
    assert palace_out.tolist() == [0, 0, 5]


def test_noblewomen_ties_pay_each_and_nobody_next_pays_nobody():
    out = np.zeros(2, dtype=np.int64)
    MS.noblewomen_gold_into(mask((3, 3), (1, 17)), NONE, owns([(3, 2)], [(3, 4)]), 2, out)
    assert out.tolist() == [5, 5]


# ----- Geologists (M-19, A-M11 a) -------------------------------------------------------------------
MOUNTAINS = mask((5, 5), (5, 6), (5, 9), (15, 15))  # areas: {(5,5),(5,6)}, {(5,9)}, {(15,15)}


def geologists(mountains, own) -> int:
    label, count = area_labels(mountains)
    return int(MS.geologists_gold(label, count, own))


def test_mountain_areas_are_series_of_adjacent_mountain_hexes():
    # EN 1185: "A mountain is a series of adjacent mountain hexes and may consist of only a single hex."
    label, count = area_labels(MOUNTAINS)
    assert count == 3
    assert label[H(5, 5)] == label[H(5, 6)] != label[H(5, 9)]
    assert label[H(0, 0)] == -1


def test_geologists_two_mountains_linked_by_own_settlements():
    # (5,7) touches (5,6) of the first mountain, (5,8) touches (5,9): 2 mountains linked, 2 gold each
    assert geologists(MOUNTAINS, mask((5, 7), (5, 8))) == 4
    # a settlement next to two mountains links them by itself: (5,6) between mountains (5,5) and (5,7)
    assert geologists(mask((5, 5), (5, 7)), mask((5, 6))) == 4


def test_geologists_each_mountain_once_however_many_links():
    # EN 1185: "connected to one another through more than one hex ... scores for each mountain only once":
    # a second chain (4,7) (4,8) (4,9) also touches (5,6) and (5,9); still 2 mountains
    assert geologists(MOUNTAINS, mask((5, 7), (5, 8), (4, 7), (4, 8), (4, 9))) == 4


def test_geologists_nothing_without_a_link():
    # (5,7) touches the first mountain, (5,10) the second, but they are not connected
    assert geologists(MOUNTAINS, mask((5, 7), (5, 10))) == 0
    # one mountain only
    assert geologists(MOUNTAINS, mask((4, 5), (4, 6), (4, 4))) == 0


# ----- Messengers (M-20) ---------------------------------------------------------------------------
def test_hex_distances_agree_with_steps_on_the_grid():
    # cube coordinates: (2,2) -> (1,-3,2), (4,2) -> (0,-4,4): 2 steps, e.g. via (3,1)
    assert cube(H(2, 2)) == (1, -3, 2)
    assert HEX_DISTANCE[H(2, 2), H(4, 2)] == 2
    assert HEX_DISTANCE[H(0, 0), H(0, 19)] == 19
    assert HEX_DISTANCE[H(0, 0), H(19, 0)] == 19  # zigzag down the left edge: one step per row
    assert HEX_DISTANCE[H(0, 0), H(19, 19)] == 29  # 19 steps down-right reach (19,9), 10 more along the row
    # breadth-first steps from one hex agree with the table everywhere
    dist = {H(7, 4): 0}
    frontier = [H(7, 4)]
    while frontier:
        nxt = []
        for h in frontier:
            for n in STEP1[h]:
                if n >= 0 and int(n) not in dist:
                    dist[int(n)] = dist[h] + 1
                    nxt.append(int(n))
        frontier = nxt
    assert all(HEX_DISTANCE[H(7, 4), h] == d for h, d in dist.items()) and len(dist) == 400


def test_messengers_counts_the_hexes_of_the_path_both_ends_included():
    # EN 1189: "Include the hexes where these settlements are located": 4 in a row, distance 3 -> 4 hexes -> 8
    assert MS.messengers_gold(mask((10, 2), (10, 3), (10, 4), (10, 5))) == 8
    # (2,2) (3,2) (4,2): the farthest pair (2,2)-(4,2) is 2 steps apart -> 3 hexes -> 6
    assert MS.messengers_gold(mask((2, 2), (3, 2), (4, 2))) == 6


def test_messengers_only_connected_settlements_and_the_shortest_path():
    # two far apart single settlements are not connected: only the 3-hex row scores (distance 2 -> 6)
    assert MS.messengers_gold(mask((0, 0), (19, 19), (10, 2), (10, 3), (10, 4))) == 6
    # a hook (6,0) (6,1) (6,2) (7,2) (8,2) (8,1) (8,0): the chain walks 6 steps, but the shortest path between
    # the farthest pair counts ("regardless of whether the hexes in this path have settlements"): (6,0)-(8,2)
    # is 3 steps -> 4 hexes -> 8
    hook = mask((6, 0), (6, 1), (6, 2), (7, 2), (8, 2), (8, 1), (8, 0))
    assert MS.messengers_gold(hook) == 8


def test_messengers_nothing_without_two_connected_settlements():
    assert MS.messengers_gold(mask((5, 5))) == 0
    assert MS.messengers_gold(mask((5, 5), (5, 7))) == 0
    assert MS.messengers_gold(NONE) == 0


# ----- Vassals (M-22, A-M11 a) ------------------------------------------------------------------------
def test_the_seam_mask_is_rows_and_columns_9_and_10():
    expected = {H(r, c) for r in range(20) for c in range(20) if r in (9, 10) or c in (9, 10)}
    assert set(hexes_of(SEAM_MASK)) == expected and len(expected) == 76


def test_vassals_count_settlements_on_the_inner_seams():
    own = mask((9, 0), (10, 15), (3, 9), (15, 10), (8, 8), (0, 0), (11, 8), (19, 19))
    assert MS.vassals_gold(own) == 4
    assert MS.vassals_gold(mask((8, 8), (11, 11), (0, 19))) == 0


# ----- Captains (M-23) ------------------------------------------------------------------------------
def test_captains_count_settlements_next_to_three_own_ones():
    # (5,5) has (5,4) (5,6) (4,5) next to it: 3; (5,4) has 2, (4,5) 2, (5,6) 1
    assert MS.captains_gold(mask((5, 5), (5, 4), (5, 6), (4, 5))) == 1
    # the full ring around (5,5): the centre has 6, each ring cell the centre and two ring cells: all 7 count
    ring = [(5, 4), (5, 6), (4, 5), (4, 6), (6, 5), (6, 6)]
    assert MS.captains_gold(mask((5, 5), *ring)) == 7


def test_captains_nothing_for_a_line():
    assert MS.captains_gold(mask((3, 1), (3, 2), (3, 3), (3, 4), (3, 5))) == 0


# ----- Scouts (M-24) --------------------------------------------------------------------------------
def test_scouts_count_settlements_next_to_the_removed_terrain():
    removed = mask((8, 8), (8, 9))  # e.g. the desert hexes after the Scouts set-up removed desert
    # (8,7) next to (8,8), (8,10) next to (8,9); (8,8) stands on it and touches (8,9): counted ("adjacent to
    # (not on)": standing on it alone does not count, see the lone hex below); (0,0) is far away
    assert MS.scouts_gold(removed, mask((8, 7), (8, 10), (8, 8), (0, 0))) == 3
    assert MS.scouts_gold(mask((8, 8)), mask((8, 8))) == 0  # on a lone hex of it, touching none


def test_scouts_nothing_without_a_removed_terrain_or_far_from_it():
    assert MS.scouts_gold(NONE, mask((8, 7))) == 0
    assert MS.scouts_gold(mask((8, 8)), mask((0, 0), (19, 19))) == 0


# ----- palaces are special hexes for Workers and Merchants (M-6, EN 1085) --------------------------------
def _position_state(board_cells, settlements):
    board = [["G"] * 20 for _ in range(20)]
    for (r, c), code in board_cells.items():
        board[r][c] = code
    game = Game.custom(board=["".join(row) for row in board], num_players=2,
                       cards=["workers", "merchants", "fishermen"], settlements=settlements, hands=["G", "G"])
    return game.state.copy()


def test_palaces_count_for_workers_and_merchants():
    # Workers: 1 per settlement next to a special hex; (5,4) and (4,5) are next to the palace (5,5)
    st = _position_state({PALACE: "P"}, [[(5, 4), (4, 5)], [(0, 0)]])
    assert score_card(st, 0, WORKERS) == 0  # today's special hexes: castles and locations only
    special = st[S.SPECIAL_MASK : S.SPECIAL_MASK + WORDS].copy()
    MS.special_with_palaces_into(st[S.SPECIAL_MASK : S.SPECIAL_MASK + WORDS], special, mask(PALACE))
    assert score_card(st, 0, WORKERS) == 2
    # Merchants: 4 per special hex linked to another; the chain (5,6) (5,7) links the palace and a castle (5,8)
    st = _position_state({PALACE: "P", (5, 8): "K"}, [[(5, 6), (5, 7)], [(0, 0)]])
    assert score_card(st, 0, MERCHANTS) == 0  # the castle alone is linked to nothing
    special = st[S.SPECIAL_MASK : S.SPECIAL_MASK + WORDS].copy()
    MS.special_with_palaces_into(st[S.SPECIAL_MASK : S.SPECIAL_MASK + WORDS], special, mask(PALACE))
    assert score_card(st, 0, MERCHANTS) == 8
