"""Scoring of the 10 base Kingdom Builder cards and of castles.

Every expected value below is worked out by hand from the rule text
(shared/rules/bigbox-2nd-edition-en.txt "End of the game and final scoring" and the card notes,
shared/kb-data/cards.md sections 0 and 1), never from the engine.  The arithmetic is in the
comment next to each expected number.

Geometry (docs/api.md, kb-data/README.md): (row, col) on the 20x20 board, pointy-top hexes, odd
rows shifted half a hex to the right ("odd-r").  Sectors are the four 10x10 quadrants.
"""

from __future__ import annotations

import itertools

import pytest

from kbenv import Game, score_position

# --------------------------------------------------------------------------------------------
# helpers (test-side only; they encode the rule geometry, not the engine)
# --------------------------------------------------------------------------------------------

SIZE = 20


def make_board(cells: dict[tuple[int, int], str] | None = None, fill: str = "G") -> list[str]:
    """20 strings of 20 codes: `fill` everywhere, overridden by {(r, c): code}."""
    rows = [[fill] * SIZE for _ in range(SIZE)]
    for (r, c), code in (cells or {}).items():
        rows[r][c] = code
    return ["".join(row) for row in rows]


def nb(r: int, c: int) -> set[tuple[int, int]]:
    """Odd-r neighbours on the board, used only to sanity-check the hand-built layouts."""
    if r % 2 == 0:
        cand = [(r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c)]
    else:
        cand = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1)]
    return {(a, b) for a, b in cand if 0 <= a < SIZE and 0 <= b < SIZE}


def score(cards, settlements, cells=None, fill="G", **kwargs):
    pos = {
        "board": make_board(cells, fill),
        "cards": list(cards),
        "settlements": [[[r, c] for r, c in player] for player in settlements],
    }
    return score_position(pos, **kwargs)


def card(res, player: int, name: str) -> int:
    return res[player]["cards"][name]


def check_totals(res, cards) -> None:
    """total = sum of the three cards in play + castles, and only the cards in play appear."""
    for p in res:
        assert set(p["cards"]) == set(cards)
        assert p["total"] == sum(p["cards"].values()) + p["castles"]


# --------------------------------------------------------------------------------------------
# result shape, totals, cards in play
# --------------------------------------------------------------------------------------------


def test_result_shape_and_total_first_game_cards():
    cards = ["fishermen", "knights", "merchants"]
    cells = {(2, 2): "W", (8, 8): "K", (8, 11): "t"}
    p0 = [(2, 3), (8, 9), (8, 10)]
    p1 = [(2, 1), (3, 2), (15, 0)]
    # layout sanity
    assert (2, 2) in nb(2, 3) and (2, 2) in nb(2, 1) and (2, 2) in nb(3, 2)
    assert (8, 8) in nb(8, 9) and (8, 11) in nb(8, 10)
    res = score(cards, [p0, p1], cells)
    assert len(res) == 2
    check_totals(res, cards)
    # p0: fishermen (2,3) touches water = 1; knights best row 8 has 2 -> 2*2 = 4;
    #     merchants: chain (8,9)-(8,10) links castle (8,8) and tavern (8,11) -> 2*4 = 8;
    #     castles: (8,9) next to castle (8,8) -> 3.  total 1+4+8+3 = 16
    assert res[0]["cards"] == {"fishermen": 1, "knights": 4, "merchants": 8}
    assert res[0]["castles"] == 3
    assert res[0]["total"] == 16
    # p1: fishermen (2,1) and (3,2) touch water (2,2) = 2; knights best row has 1 -> 2;
    #     merchants 0; castles 0.  total 2+2 = 4
    assert res[1]["cards"] == {"fishermen": 2, "knights": 2, "merchants": 0}
    assert res[1]["castles"] == 0
    assert res[1]["total"] == 4


def test_only_the_three_cards_in_play_are_scored():
    # Fishermen/Knights would pay here, but they are not in play.
    cards = ["discoverers", "hermits", "citizens"]
    cells = {(1, 0): "W", (5, 5): "K"}
    p0 = [(0, 0), (0, 1), (5, 4)]
    assert (1, 0) in nb(0, 0) and (1, 0) in nb(0, 1) and (5, 5) in nb(5, 4)
    res = score(cards, [p0, []], cells)
    check_totals(res, cards)
    assert set(res[0]["cards"]) == {"discoverers", "hermits", "citizens"}
    # discoverers rows {0,5} = 2; hermits areas {(0,0),(0,1)}, {(5,4)} = 2;
    # citizens largest area 2 -> 2//2 = 1; castles 3.  total 2+2+1+3 = 8
    assert res[0]["cards"] == {"discoverers": 2, "hermits": 2, "citizens": 1}
    assert res[0]["castles"] == 3
    assert res[0]["total"] == 8
    # a player without settlements scores nothing at all
    assert res[1]["cards"] == {"discoverers": 0, "hermits": 0, "citizens": 0}
    assert res[1]["castles"] == 0 and res[1]["total"] == 0


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_two_to_five_players(num_players):
    cards = ["discoverers", "knights", "hermits"]
    # one castle per player at (3i, 1); player i builds (3i,0), (3i,2) around it and (3i+1,15)
    cells = {(3 * i, 1): "K" for i in range(num_players)}
    settlements = [[(3 * i, 0), (3 * i, 2), (3 * i + 1, 15)] for i in range(num_players)]
    for i in range(num_players):
        assert (3 * i, 1) in nb(3 * i, 0) and (3 * i, 1) in nb(3 * i, 2)
    res = score(cards, settlements, cells)
    assert len(res) == num_players
    check_totals(res, cards)
    for p in range(num_players):
        # discoverers rows {3i, 3i+1} = 2; knights row 3i has 2 -> 2*2 = 4;
        # hermits: (3i,0), (3i,2) are not adjacent (castle between does not join), + (3i+1,15)
        # -> 3 areas = 3; castles: castle (3i,1) touched -> 3.  total 2+4+3+3 = 12
        assert res[p]["cards"] == {"discoverers": 2, "knights": 4, "hermits": 3}
        assert res[p]["castles"] == 3
        assert res[p]["total"] == 12


def test_game_custom_scores_agree_with_score_position():
    cards = ["fishermen", "merchants", "citizens"]
    cells = {(5, 5): "K", (5, 9): "o", (12, 12): "W"}
    settlements = [
        [(5, 6), (5, 7), (5, 8)],  # links castle and oracle
        [(12, 11), (12, 13), (11, 12)],  # around the water hex
        [(18, 0)],
    ]
    res = score(cards, settlements, cells)
    check_totals(res, cards)
    # p0: fishermen 0; merchants 2 specials * 4 = 8; citizens area 3 -> 1; castles 3 -> total 12
    assert res[0]["cards"] == {"fishermen": 0, "merchants": 8, "citizens": 1}
    assert res[0]["total"] == 12
    # p1: (12,11), (12,13), (11,12) all touch water (12,12) -> fishermen 3; merchants 0;
    #     areas: (11,12) odd row touches (12,12),(12,13) -> {(11,12),(12,13)} and {(12,11)}
    #     -> largest 2 -> citizens 1; total 3+0+1 = 4
    assert (12, 12) in nb(12, 11) and (12, 12) in nb(12, 13) and (12, 12) in nb(11, 12)
    assert (12, 13) in nb(11, 12) and (12, 11) not in nb(11, 12)
    assert res[1]["cards"] == {"fishermen": 3, "merchants": 0, "citizens": 1}
    assert res[1]["total"] == 4
    # p2: nothing -> 0 (single settlement: citizens 1//2 = 0)
    assert res[2]["total"] == 0

    g = Game.custom(
        board=make_board(cells),
        num_players=3,
        cards=cards,
        settlements=settlements,
        hands=["G", "C", "D"],
    )
    # score_position also reports the capitol and banked-gold columns (0 in base games)
    assert g.scores() == [{k: v for k, v in r.items() if k not in ("capitols", "gold")} for r in res]
    assert all(r["capitols"] == 0 and r["gold"] == 0 for r in res)


# --------------------------------------------------------------------------------------------
# Fishermen: 1 gold per settlement touching >= 1 water hex; settlements ON water score 0
# --------------------------------------------------------------------------------------------

FISH = ["fishermen", "hermits", "citizens"]


def test_fishermen_basic_odd_r_adjacency():
    cells = {(5, 5): "W"}
    # neighbours of the odd-row hex (5,5): (5,4) (5,6) (4,5) (4,6) (6,5) (6,6)
    p0 = [(5, 4), (4, 6), (6, 6), (4, 4), (6, 4)]
    assert (5, 5) in nb(5, 4) and (5, 5) in nb(4, 6) and (5, 5) in nb(6, 6)
    assert (5, 5) not in nb(4, 4) and (5, 5) not in nb(6, 4)
    res = score(FISH, [p0, []], cells)
    check_totals(res, FISH)
    # (5,4), (4,6), (6,6) touch the water; (4,4) and (6,4) do not -> 3 * 1 = 3
    assert card(res, 0, "fishermen") == 3
    assert card(res, 1, "fishermen") == 0


def test_fishermen_touching_several_water_hexes_still_one():
    cells = {(5, 5): "W", (5, 6): "W", (4, 7): "W"}
    assert {(5, 5), (5, 6), (4, 7)} <= nb(4, 6)
    res = score(FISH, [[(4, 6)], []], cells)
    # one settlement touching 3 water hexes -> 1 (not 3)
    assert card(res, 0, "fishermen") == 1


def test_fishermen_settlement_on_water_scores_nothing():
    cells = {(5, 5): "W", (5, 6): "W", (5, 7): "W"}
    # p0: (5,6) stands ON water (Harbor move) and touches water (5,5), (5,7) -> 0
    #     (4,6) on grass touches (5,5), (5,6) -> 1
    # p1: only a settlement on water -> 0
    p0 = [(5, 6), (4, 6)]
    p1 = [(5, 7)]
    assert (5, 5) in nb(4, 6)
    res = score(FISH, [p0, p1], cells)
    check_totals(res, FISH)
    assert card(res, 0, "fishermen") == 1  # 0 + 1
    assert card(res, 1, "fishermen") == 0
    # the settlement on water is still an ordinary settlement for the other cards:
    # p0 (5,6)-(4,6) adjacent -> 1 area of 2 -> hermits 1, citizens 2//2 = 1
    assert (4, 6) in nb(5, 6)
    assert card(res, 0, "hermits") == 1
    assert card(res, 0, "citizens") == 1


def test_fishermen_each_player_independently_and_across_the_seam():
    cells = {(10, 10): "W", (10, 0): "W"}
    # p0 (10,9) and p1 (10,11) touch the same water hex -> 1 each
    # p0 (9,0): odd row, lower neighbours (10,0), (10,1) -> touches water across the sector seam
    assert (10, 0) in nb(9, 0)
    res = score(FISH, [[(10, 9), (9, 0)], [(10, 11)]], cells)
    assert card(res, 0, "fishermen") == 2  # 1 + 1
    assert card(res, 1, "fishermen") == 1


# --------------------------------------------------------------------------------------------
# Miners: 1 gold per settlement touching >= 1 mountain hex
# --------------------------------------------------------------------------------------------

MINE = ["miners", "fishermen", "hermits"]


def test_miners_basic_and_several_mountains_still_one():
    cells = {(5, 5): "M", (5, 6): "M"}
    p0 = [(4, 6), (5, 4), (7, 5)]
    assert {(5, 5), (5, 6)} <= nb(4, 6) and (5, 5) in nb(5, 4)
    assert not ({(5, 5), (5, 6)} & nb(7, 5))
    res = score(MINE, [p0, []], cells)
    check_totals(res, MINE)
    # (4,6) touches 2 mountains -> 1; (5,4) -> 1; (7,5) -> 0.  total 2
    assert card(res, 0, "miners") == 2
    assert card(res, 0, "fishermen") == 0


def test_miners_ignores_water_and_counts_settlement_on_water():
    cells = {(12, 12): "W", (15, 5): "W", (15, 6): "M"}
    # p0 (12,13) touches only water -> miners 0, fishermen 1
    # p1 (15,5) stands on water next to mountain (15,6) -> miners 1 (settlements on water are
    #    ordinary for every card except Fishermen), fishermen 0 (on water)
    res = score(MINE, [[(12, 13)], [(15, 5)]], cells)
    check_totals(res, MINE)
    assert card(res, 0, "miners") == 0
    assert card(res, 0, "fishermen") == 1
    assert card(res, 1, "miners") == 1
    assert card(res, 1, "fishermen") == 0


# --------------------------------------------------------------------------------------------
# Workers: 1 gold per settlement touching >= 1 castle or location hex
# --------------------------------------------------------------------------------------------

WORK = ["workers", "hermits", "citizens"]


def test_workers_basic_and_two_special_hexes_still_one():
    cells = {(5, 5): "K", (5, 7): "t", (12, 12): "o", (0, 1): "W", (1, 1): "M"}
    p0 = [(5, 6), (4, 5), (12, 13), (0, 0)]
    assert {(5, 5), (5, 7)} <= nb(5, 6) and (5, 5) in nb(4, 5) and (12, 12) in nb(12, 13)
    res = score(WORK, [p0, []], cells)
    check_totals(res, WORK)
    # (5,6) touches castle + tavern -> 1 (not 2); (4,5) castle -> 1; (12,13) oracle -> 1;
    # (0,0) touches only water/mountain -> 0.  total 3
    assert card(res, 0, "workers") == 3
    assert res[0]["castles"] == 3


def test_workers_every_base_location_type_and_castle_count():
    specials = ["o", "f", "a", "w", "t", "b", "h", "p", "K"]
    cells = {(2, 1 + 2 * i): code for i, code in enumerate(specials)}
    # settlement (3, c) (odd row) touches (2, c) and (2, c+1): exactly one special each
    p0 = [(3, 1 + 2 * i) for i in range(len(specials))]
    res = score(WORK, [p0, []], cells)
    check_totals(res, WORK)
    assert card(res, 0, "workers") == 9  # 9 settlements * 1
    assert res[0]["castles"] == 3  # the single castle (2,17) is touched by (3,17)


def _custom_workers_game(tiles, tiles_left):
    cells = {(5, 7): "t", (15, 15): "K"}
    return Game.custom(
        board=make_board(cells),
        num_players=2,
        cards=WORK,
        settlements=[[(5, 6), (5, 8)], [(4, 7), (15, 14)]],
        hands=["G", "G"],
        tiles=tiles,
        tiles_left=tiles_left,
    )


def test_workers_exhausted_location_still_counts():
    # both tiles of the tavern (5,7) are taken: p0 and p1 hold one each, none left
    assert (5, 7) in nb(5, 6) and (5, 7) in nb(5, 8) and (5, 7) in nb(4, 7)
    g = _custom_workers_game(tiles=[[(5, 7)], [(5, 7)]], tiles_left={(5, 7): 0})
    assert g.tiles_left((5, 7)) == 0
    s = g.scores()
    check_totals(s, WORK)
    # p0: (5,6) and (5,8) touch the (exhausted) tavern -> 2
    assert s[0]["cards"]["workers"] == 2
    # p1: (4,7) touches the tavern, (15,14) touches the castle -> 2; castles 3
    assert s[1]["cards"]["workers"] == 2
    assert s[1]["castles"] == 3
    # scoring does not depend on tiles at all: same as score_position
    res = score(WORK, [[(5, 6), (5, 8)], [(4, 7), (15, 14)]], {(5, 7): "t", (15, 15): "K"})
    assert s == [{k: v for k, v in r.items() if k not in ("capitols", "gold")} for r in res]


# --------------------------------------------------------------------------------------------
# Merchants: 4 gold per castle/location hex linked by a chain of own settlements to another one
# --------------------------------------------------------------------------------------------

MERCH = ["merchants", "hermits", "citizens"]


def test_merchants_single_settlement_links_two_special_hexes():
    cells = {(5, 5): "K", (5, 7): "t"}
    res = score(MERCH, [[(5, 6)], []], cells)
    check_totals(res, MERCH)
    assert card(res, 0, "merchants") == 8  # 2 linked special hexes * 4


def test_merchants_chain_including_odd_r_zigzag():
    # chain 1 along row 5 from castle (5,5) to tavern (5,10)
    # chain 2 zig-zags down from castle (12,4) to oracle (16,4): (13,4) (14,4) (15,4)
    cells = {(5, 5): "K", (5, 10): "t", (12, 4): "K", (16, 4): "o"}
    chain1 = [(5, 6), (5, 7), (5, 8), (5, 9)]
    chain2 = [(13, 4), (14, 4), (15, 4)]
    assert (13, 4) in nb(12, 4) and (14, 4) in nb(13, 4) and (15, 4) in nb(14, 4)
    assert (16, 4) in nb(15, 4)
    res = score(MERCH, [chain1, []], cells)
    assert card(res, 0, "merchants") == 8  # castle (5,5) + tavern (5,10) = 2 * 4
    res = score(MERCH, [chain2, []], cells)
    assert card(res, 0, "merchants") == 8  # castle (12,4) + oracle (16,4) = 2 * 4
    res = score(MERCH, [chain1 + chain2, []], cells)
    check_totals(res, MERCH)
    # two separate chains each linking 2 special hexes -> 4 hexes * 4 = 16
    assert card(res, 0, "merchants") == 16
    assert card(res, 0, "hermits") == 2


def test_merchants_two_separate_single_links_give_16():
    cells = {(5, 5): "K", (5, 7): "t", (14, 5): "K", (14, 7): "o"}
    res = score(MERCH, [[(5, 6), (14, 6)], []], cells)
    assert card(res, 0, "merchants") == 16  # (2 + 2) special hexes * 4


def test_merchants_chain_touching_three_special_hexes():
    # castle (5,5) - (5,6) (5,7) (5,8) - tavern (5,9); oracle (4,7) touches (5,7)
    cells = {(5, 5): "K", (5, 9): "t", (4, 7): "o"}
    assert (4, 7) in nb(5, 7)
    res = score(MERCH, [[(5, 6), (5, 7), (5, 8)], []], cells)
    assert card(res, 0, "merchants") == 12  # 3 special hexes * 4


def test_merchants_linked_through_a_middle_special_hex():
    # (5,6) links castle (5,5)-tavern (5,7); (5,8) links tavern (5,7)-oracle (5,9):
    # every one of the 3 hexes is linked to another one -> 3 * 4 = 12
    cells = {(5, 5): "K", (5, 7): "t", (5, 9): "o"}
    res = score(MERCH, [[(5, 6), (5, 8)], []], cells)
    assert card(res, 0, "merchants") == 12


def test_merchants_special_hex_on_two_chains_scores_once():
    # castle (5,5) is linked to tavern (5,9) by (5,6)(5,7)(5,8) and to barn (8,5) by a separate
    # chain (6,5)(7,5): castle, tavern, barn each score once -> 3 * 4 = 12 (not 16)
    cells = {(5, 5): "K", (5, 9): "t", (8, 5): "b"}
    chain1 = [(5, 6), (5, 7), (5, 8)]
    chain2 = [(6, 5), (7, 5)]
    assert (6, 5) in nb(5, 5) and (7, 5) in nb(6, 5) and (8, 5) in nb(7, 5)
    assert not any(a in nb(*b) for a in chain1 for b in chain2)
    res = score(MERCH, [chain1 + chain2, []], cells)
    assert card(res, 0, "merchants") == 12
    assert card(res, 0, "hermits") == 2


def test_merchants_unlinked_special_hexes_score_nothing():
    cells = {(5, 5): "K", (5, 9): "t", (12, 12): "o"}
    # (5,6) touches the castle, (5,8) the tavern, but (5,7) is empty -> two areas, no link;
    # (12,13) touches only the oracle
    res = score(MERCH, [[(5, 6), (5, 8), (12, 13)], []], cells)
    check_totals(res, MERCH)
    assert card(res, 0, "merchants") == 0
    assert card(res, 1, "merchants") == 0


def test_merchants_opponent_settlements_do_not_link():
    cells = {(5, 5): "K", (5, 8): "t"}
    # p0 (5,6) touches castle only, p1 (5,7) touches tavern only -> 0 for both
    assert (5, 8) not in nb(5, 6) and (5, 5) not in nb(5, 7)
    res = score(MERCH, [[(5, 6)], [(5, 7)]], cells)
    assert card(res, 0, "merchants") == 0
    assert card(res, 1, "merchants") == 0


def test_merchants_each_player_scores_the_same_hexes_independently():
    cells = {(5, 5): "K", (5, 7): "t"}
    # p0 (5,6) links them; p1 (4,6)-(4,7) links them too -> 8 each
    assert (5, 5) in nb(4, 6) and (5, 7) in nb(4, 7)
    res = score(MERCH, [[(5, 6)], [(4, 6), (4, 7)]], cells)
    assert card(res, 0, "merchants") == 8
    assert card(res, 1, "merchants") == 8


# --------------------------------------------------------------------------------------------
# Discoverers: 1 gold per horizontal line (board row) with >= 1 own settlement
# --------------------------------------------------------------------------------------------

DISC = ["discoverers", "knights", "citizens"]


def test_discoverers_counts_rows():
    p0 = [(0, 0), (0, 5), (5, 5), (19, 19)]
    p1 = [(9, 0), (10, 0)]
    p2 = [(3, 2), (3, 15)]
    res = score(DISC, [p0, p1, p2])
    check_totals(res, DISC)
    assert card(res, 0, "discoverers") == 3  # rows {0, 5, 19}
    assert card(res, 1, "discoverers") == 2  # rows 9 and 10 (across the seam) are different
    assert card(res, 2, "discoverers") == 1  # row 3 crosses two sections but is one line


def test_discoverers_all_twenty_rows():
    p0 = [(r, 0) for r in range(20)]
    for r in range(19):
        assert (r + 1, 0) in nb(r, 0)
    res = score(DISC, [p0, []])
    check_totals(res, DISC)
    # 20 rows -> 20; knights best row has 1 -> 2; column 0 is one connected area of 20 -> 10
    assert res[0]["cards"] == {"discoverers": 20, "knights": 2, "citizens": 10}
    assert res[0]["total"] == 32  # 20 + 2 + 10 + 0 castles


# --------------------------------------------------------------------------------------------
# Hermits: 1 gold per area (lone settlements count)
# --------------------------------------------------------------------------------------------

HERM = ["hermits", "citizens", "discoverers"]


def test_hermits_areas_and_lone_settlements():
    p0 = [(0, 0), (5, 5), (5, 6), (10, 10), (11, 10), (11, 11)]
    assert (11, 10) in nb(10, 10)
    p1 = [(2, 2), (2, 6), (8, 8), (15, 15)]
    res = score(HERM, [p0, p1])
    check_totals(res, HERM)
    # p0: {(0,0)}, {(5,5),(5,6)}, {(10,10),(11,10),(11,11)} -> 3
    assert card(res, 0, "hermits") == 3
    # p1: four lone settlements -> 4
    assert card(res, 1, "hermits") == 4


def test_hermits_odd_r_adjacency():
    # p0 (4,4) even row: lower neighbours (5,3), (5,4) -> (5,4) joins -> 1 area
    # p1 (4,14) even row: (5,15) is not a neighbour -> 2 areas
    # p2 (7,5) odd row: upper neighbours (6,5), (6,6) -> (6,6) joins -> 1 area
    assert (5, 4) in nb(4, 4) and (5, 15) not in nb(4, 14) and (6, 6) in nb(7, 5)
    res = score(HERM, [[(4, 4), (5, 4)], [(4, 14), (5, 15)], [(7, 5), (6, 6)]])
    assert card(res, 0, "hermits") == 1
    assert card(res, 1, "hermits") == 2
    assert card(res, 2, "hermits") == 1


def test_hermits_special_hexes_and_opponents_do_not_join_areas():
    cells = {(5, 5): "K"}
    # p0 (5,4) and (5,6) on both sides of a castle; (12,4) and (12,6) on both sides of p1 (12,5)
    res = score(HERM, [[(5, 4), (5, 6), (12, 4), (12, 6)], [(12, 5)]], cells)
    check_totals(res, HERM)
    assert card(res, 0, "hermits") == 4  # four lone settlements
    assert card(res, 1, "hermits") == 1


# --------------------------------------------------------------------------------------------
# Citizens: 1 gold per 2 settlements of the largest area, rounded down
# --------------------------------------------------------------------------------------------

CIT = ["citizens", "hermits", "knights"]


def test_citizens_largest_area_halved_rounded_down():
    p0 = [(5, c) for c in range(9)] + [(15, 0), (15, 1), (15, 2)]
    p1 = [(17, c) for c in range(10, 20)]
    res = score(CIT, [p0, p1])
    check_totals(res, CIT)
    assert card(res, 0, "citizens") == 4  # largest area 9 -> 9 // 2 = 4
    assert card(res, 1, "citizens") == 5  # area 10 -> 5


def test_citizens_two_equal_largest_areas_count_once():
    p0 = [(2, c) for c in range(4)] + [(12, c) for c in range(4)]
    res = score(CIT, [p0, [(7, 7)], []])
    check_totals(res, CIT)
    assert card(res, 0, "citizens") == 2  # largest area 4 -> 2 (not 2 + 2)
    assert card(res, 1, "citizens") == 0  # area 1 -> 1 // 2 = 0
    assert card(res, 2, "citizens") == 0  # no settlement


def test_citizens_areas_cross_sector_seams():
    # p0 row 3 cols 8..11 crosses the vertical seam -> area 4 -> 2
    # p1 (8,5) (9,5) (10,5) (11,5) (12,5) crosses the horizontal seam -> area 5 -> 2
    p1 = [(8, 5), (9, 5), (10, 5), (11, 5), (12, 5)]
    for a, b in itertools.pairwise(p1):
        assert b in nb(*a)
    res = score(CIT, [[(3, 8), (3, 9), (3, 10), (3, 11)], p1])
    assert card(res, 0, "citizens") == 2
    assert card(res, 1, "citizens") == 2
    assert card(res, 1, "hermits") == 1


def test_citizens_odd_r_non_adjacent_hexes_are_separate_areas():
    # (4,4) even row: lower neighbours (5,3), (5,4); (5,5) odd row: lower neighbours (6,5), (6,6)
    p0 = [(4, 4), (5, 5), (6, 4)]
    assert (5, 5) not in nb(4, 4) and (6, 4) not in nb(5, 5) and (6, 4) not in nb(4, 4)
    res = score(CIT, [p0, []])
    assert card(res, 0, "hermits") == 3
    assert card(res, 0, "citizens") == 0  # largest area 1 -> 0


# --------------------------------------------------------------------------------------------
# Knights: 2 gold per settlement on the single best horizontal line
# --------------------------------------------------------------------------------------------

KNI = ["knights", "discoverers", "hermits"]


def test_knights_best_row_not_adjacent():
    p0 = [(5, 0), (5, 10), (5, 19), (7, 3), (7, 4)]
    res = score(KNI, [p0, [(0, 0)], []])
    check_totals(res, KNI)
    assert card(res, 0, "knights") == 6  # row 5 has 3 (not adjacent) -> 3 * 2
    assert card(res, 1, "knights") == 2  # 1 * 2
    assert card(res, 2, "knights") == 0


def test_knights_tied_rows_count_once():
    p0 = [(2, 0), (2, 5), (2, 15), (6, 1), (6, 2), (6, 3)]
    res = score(KNI, [p0, []])
    assert card(res, 0, "knights") == 6  # rows 2 and 6 both have 3 -> one line: 3 * 2 (not 12)


def test_knights_counts_board_rows_not_columns():
    p0 = [(r, 0) for r in range(5)]  # a vertical chain: 5 rows with 1 each
    res = score(KNI, [p0, []])
    assert card(res, 0, "knights") == 2  # 1 * 2
    assert card(res, 0, "discoverers") == 5


# --------------------------------------------------------------------------------------------
# Lords: per sector, most settlements 12, second most 6 (ties share)
# --------------------------------------------------------------------------------------------

LORDS = ["lords", "discoverers", "knights"]


def test_lords_rulebook_example_8_8_6_2():
    settlements = [
        [(0, c) for c in range(8)],  # 8 in the top-left sector
        [(2, c) for c in range(8)],  # 8
        [(4, c) for c in range(6)],  # 6
        [(6, c) for c in range(2)],  # 2
    ]
    res = score(LORDS, settlements)
    check_totals(res, LORDS)
    # 8, 8 tie for most -> 12 each; 6 is second most -> 6; 2 -> 0; other sectors empty -> 0
    assert [card(res, p, "lords") for p in range(4)] == [12, 12, 6, 0]


def _lords_two_player_position():
    p0 = [(1, 1), (1, 3), (1, 5), (12, 1), (12, 3)]
    p1 = [(3, 1), (1, 12), (1, 14), (14, 1), (14, 3)]
    return [p0, p1]


def test_lords_each_sector_separately_default():
    res = score(LORDS, _lords_two_player_position())
    check_totals(res, LORDS)
    # TL: p0 3, p1 1 -> 12 / 6.  TR: p1 2, p0 0 -> 12 / nothing (no settlement there).
    # BL: 2 vs 2 -> 12 / 12.     BR: nobody -> nothing.
    assert card(res, 0, "lords") == 24  # 12 + 0 + 12 + 0
    assert card(res, 1, "lords") == 30  # 6 + 12 + 12 + 0


def test_lords_count_zero_bga_reading():
    res = score(LORDS, _lords_two_player_position(), lords_count_zero=True)
    check_totals(res, LORDS)
    # TL 12 / 6; TR: p1 2 -> 12, p0 0 is the second distinct count -> 6; BL 12 / 12;
    # BR: everybody 0 -> all tie for most -> 12 each
    assert card(res, 0, "lords") == 42  # 12 + 6 + 12 + 12
    assert card(res, 1, "lords") == 42  # 6 + 12 + 12 + 12


def test_lords_five_against_zero():
    settlements = [[(0, 0), (0, 2), (0, 4), (0, 6), (0, 8)], []]
    res = score(LORDS, settlements)
    assert card(res, 0, "lords") == 12  # TL most
    assert card(res, 1, "lords") == 0  # nowhere present
    res = score(LORDS, settlements, lords_count_zero=True)
    # TL: 5 vs 0 -> 12 and 6; the three empty sectors -> 12 each for both players
    assert card(res, 0, "lords") == 48  # 12 + 3 * 12
    assert card(res, 1, "lords") == 42  # 6 + 3 * 12


def _lords_three_player_position():
    p0 = [(0, 0), (0, 2), (0, 4), (0, 6), (0, 8)]  # TL 5
    p1 = [(2, 0), (2, 2), (2, 4)]  # TL 3
    p2 = [(4, 0), (4, 2), (4, 4)]  # TL 3
    p0 += [(0, 10), (0, 12), (0, 14), (0, 16)]  # TR 4
    p1 += [(2, 10), (2, 12), (2, 14), (2, 16)]  # TR 4
    p2 += [(4, 10), (4, 12), (4, 14), (4, 16)]  # TR 4
    p0 += [(10, 0), (10, 2)]  # BL 2
    p1 += [(12, 0)]  # BL 1
    p2 += [(15, 15)]  # BR 1 (alone)
    return [p0, p1, p2]


def test_lords_ties_for_second_default():
    res = score(LORDS, _lords_three_player_position())
    check_totals(res, LORDS)
    # TL 5,3,3 -> 12,6,6; TR 4,4,4 -> 12,12,12; BL 2,1,0 -> 12,6,0; BR 0,0,1 -> 0,0,12
    assert card(res, 0, "lords") == 36  # 12 + 12 + 12 + 0
    assert card(res, 1, "lords") == 24  # 6 + 12 + 6 + 0
    assert card(res, 2, "lords") == 30  # 6 + 12 + 0 + 12


def test_lords_ties_for_second_count_zero():
    res = score(LORDS, _lords_three_player_position(), lords_count_zero=True)
    # BL 2,1,0 -> 12,6,0 (0 is the third distinct count); BR 0,0,1 -> 6,6,12
    assert card(res, 0, "lords") == 42  # 12 + 12 + 12 + 6
    assert card(res, 1, "lords") == 30  # 6 + 12 + 6 + 6
    assert card(res, 2, "lords") == 30  # 6 + 12 + 0 + 12


def test_lords_five_players():
    settlements = [[(2 * p, 2 * k) for k in range(5 - p)] for p in range(5)]  # TL 5,4,3,2,1
    res = score(LORDS, settlements)
    check_totals(res, LORDS)
    assert [card(res, p, "lords") for p in range(5)] == [12, 6, 0, 0, 0]
    res = score(LORDS, settlements, lords_count_zero=True)
    # plus 3 empty sectors where everybody ties at 0 -> +36 each
    assert [card(res, p, "lords") for p in range(5)] == [48, 42, 36, 36, 36]


def test_lords_and_farmers_sector_boundaries():
    cards = ["lords", "farmers", "discoverers"]
    # p0: one settlement in each sector, right at the inner corner
    p0 = [(9, 9), (9, 10), (10, 9), (10, 10)]  # TL, TR, BL, BR
    p1 = [(0, 0), (0, 2), (19, 19), (19, 17)]  # TL 2, BR 2
    res = score(cards, [p0, p1])
    check_totals(res, cards)
    # lords: TL p1 2 -> 12, p0 1 -> 6; TR p0 12; BL p0 12; BR p1 12, p0 6
    assert card(res, 0, "lords") == 36  # 6 + 12 + 12 + 6
    assert card(res, 1, "lords") == 24  # 12 + 0 + 0 + 12
    # farmers: p0 weakest sector 1 -> 3; p1 has empty sectors -> 0
    assert card(res, 0, "farmers") == 3
    assert card(res, 1, "farmers") == 0
    # discoverers: p0 rows {9,10}, p1 rows {0,19}
    assert res[0]["total"] == 41  # 36 + 3 + 2
    assert res[1]["total"] == 26  # 24 + 0 + 2


# --------------------------------------------------------------------------------------------
# Farmers: 3 gold per settlement in the own weakest sector; needs >= 1 in every sector
# --------------------------------------------------------------------------------------------

FARM = ["farmers", "hermits", "knights"]


def _sectors(tl: int, tr: int, bl: int, br: int, row: int = 1) -> list[tuple[int, int]]:
    """tl..br settlements in the four sectors, on row `row` / `row+10`, every other column."""
    out = [(row, 2 * k) for k in range(tl)]
    out += [(row, 10 + 2 * k) for k in range(tr)]
    out += [(row + 10, 2 * k) for k in range(bl)]
    out += [(row + 10, 10 + 2 * k) for k in range(br)]
    return out


def test_farmers_weakest_sector_ties_count_once():
    res = score(FARM, [_sectors(3, 2, 4, 2), _sectors(5, 5, 5, 0, row=3)])
    check_totals(res, FARM)
    assert card(res, 0, "farmers") == 6  # min(3, 2, 4, 2) = 2 -> 2 * 3 (not 12)
    assert card(res, 1, "farmers") == 0  # bottom-right empty -> 0


def test_farmers_rulebook_example_and_one_each():
    res = score(FARM, [_sectors(5, 5, 5, 4), _sectors(1, 1, 1, 1, row=5), []])
    check_totals(res, FARM)
    assert card(res, 0, "farmers") == 12  # fewest 4 in bottom right -> 4 * 3
    assert card(res, 1, "farmers") == 3  # 1 * 3
    assert card(res, 2, "farmers") == 0


# --------------------------------------------------------------------------------------------
# Castles: 3 gold per castle hex with >= 1 adjacent own settlement
# --------------------------------------------------------------------------------------------

CAST = ["hermits", "discoverers", "knights"]


def test_castle_several_adjacent_settlements_still_three():
    cells = {(5, 5): "K"}
    p0 = [(5, 4), (5, 6), (4, 5)]
    assert all((5, 5) in nb(*h) for h in p0)
    res = score(CAST, [p0, [(7, 5)]], cells)
    check_totals(res, CAST)
    assert res[0]["castles"] == 3  # one castle -> 3 (not 9)
    assert res[1]["castles"] == 0  # (7,5) is two hexes away
    assert "castles" not in res[0]["cards"]


def test_castles_two_castles_and_shared_castle():
    cells = {(5, 5): "K", (14, 14): "K"}
    p0 = [(5, 6), (14, 13)]
    p1 = [(14, 15), (13, 14)]
    assert (14, 14) in nb(14, 13) and (14, 14) in nb(14, 15) and (14, 14) in nb(13, 14)
    res = score(CAST, [p0, p1], cells)
    check_totals(res, CAST)
    assert res[0]["castles"] == 6  # two castles touched -> 2 * 3
    assert res[1]["castles"] == 3  # the shared castle pays each player


def test_castles_odd_r_non_adjacent():
    cells = {(5, 5): "K"}
    # (4,4) and (6,4) are diagonal-looking but not neighbours of the odd-row hex (5,5)
    assert (5, 5) not in nb(4, 4) and (5, 5) not in nb(6, 4)
    res = score(CAST, [[(4, 4), (6, 4)], [(6, 5)]], cells)
    assert res[0]["castles"] == 0
    assert (5, 5) in nb(6, 5)
    assert res[1]["castles"] == 3


# --------------------------------------------------------------------------------------------
# sections: [("tavern", False), ("paddock", True), ("oasis", False), ("farm", False)]
# --------------------------------------------------------------------------------------------

# grids copied from shared/kb-data/sections/*.txt ('L' = the section's location type)
SECTION_GRIDS = {
    "tavern": (
        "t",
        [
            "FDDMMDDCCC",
            "FFDDDMMCCC",
            "FFFFFFFMMM",
            "WWFKGGTTMM",
            "FFWWGGGTTC",
            "FCCWGTTCCC",
            "DFLCWTTLCG",
            "DDCWTTGGGG",
            "DDDWTTTGGG",
            "DDWWTTTGGG",
        ],
    ),
    "paddock": (
        "p",
        [
            "CCCDDWDDDD",
            "MMCDDWDDDD",
            "MMCMMWDDLF",
            "MCMMWMDFFF",
            "CCTTWMMCFF",
            "CTTWCCCMFF",
            "CLTTWFFFFF",
            "GGTWGKGFGT",
            "GGTTWGGGGT",
            "GGTTWGGGTT",
        ],
    ),
    "oasis": (
        "a",
        [
            "DDCWWTTGGG",
            "DCWFFTTTGG",
            "DDWFFTTLFG",
            "WWWFGTFFFF",
            "WWWWGGGGFF",
            "WTTWGGCCDC",
            "WTCTWGCCDC",
            "WKCFWLDDCW",
            "WWCFWWWDDW",
            "WWWWWWWWWW",
        ],
    ),
    "farm": (
        "f",
        [
            "DDCWWTTTGG",
            "DKCWTTTLGG",
            "CCCFFFTCFF",
            "CCFFWDDCCF",
            "CGGWFFDDCC",
            "GGLFWFWDDC",
            "GGGTFFWWDD",
            "GGTTMWWWDW",
            "GMTTWWWWWW",
            "TTTWWWWWWW",
        ],
    ),
}

LAYOUT = [["tavern", False], ["paddock", True], ["oasis", False], ["farm", False]]


def assemble(layout) -> list[str]:
    """Test-side assembly: TL, TR, BL, BR; turned section cell (r,c) -> (9-r, 9-c)."""
    rows = [[""] * SIZE for _ in range(SIZE)]
    for idx, (name, turned) in enumerate(layout):
        letter, grid = SECTION_GRIDS[name]
        b, k = divmod(idx, 2)
        for r in range(10):
            for c in range(10):
                sr, sc = (9 - r, 9 - c) if turned else (r, c)
                code = grid[sr][sc]
                rows[r + 10 * b][c + 10 * k] = letter if code == "L" else code
    return ["".join(row) for row in rows]


def test_assembled_board_facts():
    board = assemble(LAYOUT)
    assert board[3][3] == "K"  # tavern castle (3,3), top-left, not turned
    assert board[2][14] == "K"  # paddock castle (7,5) turned -> (2,4) -> board (2,14)
    assert board[7][15] != "K"  # where it would be without turning
    assert board[7][11] == "p" and board[3][18] == "p"  # paddock (2,8)->(7,1), (6,1)->(3,8)
    assert board[17][1] == "K"  # oasis castle (7,1) -> (17,1)
    assert board[11][11] == "K"  # farm castle (1,1) -> (11,11)


def test_sections_castles_workers_merchants_discoverers():
    cards = ["workers", "merchants", "discoverers"]
    # p0: chain (3,4)-(4,5)-(5,5)-(6,6) from the tavern castle (3,3) to the tavern (6,7);
    #     (1,13) next to the turned paddock castle at board (2,14)
    chain = [(3, 4), (4, 5), (5, 5), (6, 6)]
    p0 = chain + [(1, 13)]
    # p1: (8,15) next to (7,15), where the paddock castle would be if the section were not turned;
    #     (17,2) next to the oasis castle (17,1)
    p1 = [(8, 15), (17, 2)]
    board = assemble(LAYOUT)
    for a, b in itertools.pairwise(chain):
        assert b in nb(*a)
    assert (3, 3) in nb(3, 4) and (6, 7) in nb(6, 6) and (2, 14) in nb(1, 13)
    assert (7, 15) in nb(8, 15) and (17, 1) in nb(17, 2)
    assert all(board[r][c] in "GCDFT" for r, c in p0 + p1)
    res = score_position({"sections": LAYOUT, "cards": cards,
                          "settlements": [[list(h) for h in p0], [list(h) for h in p1]]})
    check_totals(res, cards)
    # p0: workers (3,4) castle, (6,6) tavern, (1,13) castle -> 3; merchants castle (3,3) +
    #     tavern (6,7) -> 2 * 4 = 8; discoverers rows {1,3,4,5,6} -> 5; castles 2 * 3 = 6
    #     total 3 + 8 + 5 + 6 = 22
    assert res[0]["cards"] == {"workers": 3, "merchants": 8, "discoverers": 5}
    assert res[0]["castles"] == 6
    assert res[0]["total"] == 22
    # p1: workers (17,2) -> 1; merchants 0; discoverers rows {8,17} -> 2; castles 3 (oasis only)
    #     total 1 + 0 + 2 + 3 = 6
    assert res[1]["cards"] == {"workers": 1, "merchants": 0, "discoverers": 2}
    assert res[1]["castles"] == 3
    assert res[1]["total"] == 6


def test_sections_terrain_of_turned_section():
    cards = ["fishermen", "miners", "workers"]
    # p0 (2,15): turned paddock section cell (7,4); neighbours (1,15), (3,15), (2,16) are water
    #     (paddock cells (8,4), (6,4), (7,3)) and (2,14) is the castle.
    # p0 (4,14): section cell (5,5); lower neighbours (5,13), (5,14) are mountains
    #     (paddock cells (4,6), (4,5)), no water around.
    # p1 (3,4): tavern castle (3,3) next to it, no water / mountain around.
    board = assemble(LAYOUT)
    assert [board[r][c] for r, c in [(1, 15), (3, 15), (2, 16), (2, 14)]] == ["W", "W", "W", "K"]
    assert board[5][13] == "M" and board[5][14] == "M"
    p0 = [(2, 15), (4, 14)]
    p1 = [(3, 4)]
    settlements = [[list(h) for h in p0], [list(h) for h in p1]]
    res = score_position({"sections": LAYOUT, "cards": cards, "settlements": settlements})
    check_totals(res, cards)
    # p0: fishermen 1 ((2,15)); miners 1 ((4,14)); workers 1 ((2,15) castle); castles 3 -> 6
    assert res[0]["cards"] == {"fishermen": 1, "miners": 1, "workers": 1}
    assert res[0]["castles"] == 3
    assert res[0]["total"] == 6
    # p1: fishermen 0, miners 0, workers 1, castles 3 -> 4
    assert res[1]["cards"] == {"fishermen": 0, "miners": 0, "workers": 1}
    assert res[1]["total"] == 4
    # the same position given as an explicit board scores the same
    res_board = score_position({"board": board, "cards": cards, "settlements": settlements})
    assert res_board == res
