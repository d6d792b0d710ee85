"""The six Harvest Kingdom Builder cards (H-14 .. H-19, A-H7, A-H8, A-H9) and silos for Workers (A-X2).

The English text gives only the Travellers note, the Mayors text and the Rovers text; Rangers, Homesteaders and
Chainers are images missing from both rulebook files, so their rule and amount follow the spec (TG / kb_prompt
readings, ``CARD_GOLD``, unverified: decision 6). End-scoring positions are scored with ``score_position``
(``hscores``) on grass-filled boards (``fill="G"``). Sections (quadrants): rows 0-9 / 10-19, columns 0-9 / 10-19.

Rule text quoted (the comments below name these):

TRAVELLERS_NOTE (EN 1371): "Note: Consider each edge of the complete game board, not of each section. A settlement
    on a corner space does not count twice."
TRAVELLERS_TG (spec H-14 (TG, kb_prompt)): "1 gold per own settlement on the board edge"
MAYORS (EN 1375-1377): "If a player builds a settlement or moves one of their settlements in such a way that at
    least four of their settlements are arranged in a horizontal line, they mark this by placing a settlement from
    their supply next to that line outside of the game board. This can be done only if this line is not marked
    already by some other player. The settlements forming this line may be moved again later. At the end of the
    game, each marked line is worth 4 gold for that player."
MAYORS_EXAMPLE (EN 1381): "Example: The orange player builds three of his settlements on desert spaces, therefore
    having at least 4 settlements on that horizontal line. He takes one settlement from his supply and marks that
    horizontal line outside the game board."
MAYORS_SCORES (EN 1385-1389): "= 8 gold for the black player = 12 gold for the orange player = 4 gold for the blue
    player"
HOMESTEADERS_TG (spec H-16 (U)): "for each settlement in the quadrant where you have most settlements"
RANGERS_TG (spec H-17 (U)): "2 gold per horizontal line with exactly one own settlement"
CHAINERS_TG (spec H-18 (U)): "1 gold per own settlement adjacent to exactly 2 own settlements"
ROVERS (EN 1395): "After each newly built settlement, the active player checks if they meet the conditions of the
    card. In case they do, they record the additional gold by flipping one of the summary of location tiles of that
    game board section. At the end of their turn they get gold equal to the flipped summary of location tiles and
    move their token on the score track accordingly. Then the summary of location tiles are flipped back. The rovers
    are not scored during final scoring."
ROVERS_EXAMPLE (EN 1399): "Example: The orange player has build settlements on two different game board sections,
    therefore getting 2 gold this turn."
A_H7 (spec A-H7): "(a) >=4 own settlements anywhere in the row of the built or moved-to hex; (b) 4 contiguous in
    that row. Default (a), flag. Marking is automatic if the row is unmarked and the player's supply > 0. It takes 1
    settlement from the supply. Whether the marker counts toward the end trigger: Default (a) yes. The mark is
    permanent even if the row later has fewer settlements."
A_H8 (spec A-H8): "Only new settlement builds count: not moves, not scouts, and not meeple placement. Silo builds do
    not count (TG, D)."
A_X2 (spec A-X2): "Default: castle + location + nomad space + palace count. Silo is off, flag."
DECISION_6 (spec, Decisions taken 6): "Unverified card amounts (A-M11, A-H9): shipped as catalogue data marked
    unverified with their source; the cards are usable; the docs list them as unverified."
"""

import re

import pytest

from tests.rules.harvest.helpers import (
    CARD_GOLD,
    MAYOR_GOLD,
    NEW_CARDS,
    REPO,
    flag,
    game_hscores,
    hpos,
    hscores,
    mayor_lines,
    requires_harvest,
    state,
)

pytestmark = requires_harvest


def card_gold(kx, card, settlements, cells=None, **kwargs):
    others = [c for c in ("fishermen", "knights", "hermits") if c != card][:2]
    pos = hpos(kx, cells or {}, fill="G", settlements=settlements, cards=[card, *others],
               hands=["G"] * len(settlements), opp_area=False, **kwargs)
    return [row["cards"][card] for row in hscores(pos)]


# --------------------------------------------------------------------------- H-14 travellers

def test_H14_travellers_edge_settlements_corner_once(kx):
    # TRAVELLERS_NOTE: (0, 0) is a corner (top and left edge) -> 1; (0, 5) top, (10, 19) right, (19, 10) bottom;
    # (10, 10) inner; (9, 0) on the left edge of the board (the seam row 9 / 10 is no edge) -> 5 settlements
    own = [(0, 0), (0, 5), (10, 19), (19, 10), (10, 10), (9, 0)]
    assert card_gold(kx, "travellers", [own, [(5, 5)]]) == [5 * CARD_GOLD["travellers"], 0]


def test_H14_travellers_section_seams_are_not_edges(kx):
    # TRAVELLERS_NOTE "each edge of the complete game board, not of each section": rows 9 / 10 and columns 9 / 10
    own = [(9, 5), (10, 5), (5, 9), (5, 10)]
    assert card_gold(kx, "travellers", [own, []]) == [0, 0]


# --------------------------------------------------------------------------- H-16 homesteaders

def test_H16_homesteaders_the_section_with_the_most(kx):
    # top-left: (1, 1) (1, 3) (2, 5) = 3; bottom-right: (15, 15) (15, 17) = 2 -> 3; player 1: top-right (3, 15) -> 1
    own = [(1, 1), (1, 3), (2, 5), (15, 15), (15, 17)]
    g = CARD_GOLD["homesteaders"]
    assert card_gold(kx, "homesteaders", [own, [(3, 15)]]) == [3 * g, 1 * g]


def test_H16_homesteaders_nothing_on_the_board(kx):
    assert card_gold(kx, "homesteaders", [[], [(3, 15), (3, 17)]]) == [0, 2 * CARD_GOLD["homesteaders"]]


# --------------------------------------------------------------------------- H-17 rangers

def test_H17_rangers_rows_with_exactly_one(kx):
    # row 2: (2, 2) alone -> counts; row 5: (5, 1) and (5, 8) -> no; row 7: (7, 7) alone -> counts; 2 rows x 2
    own = [(2, 2), (5, 1), (5, 8), (7, 7)]
    assert card_gold(kx, "rangers", [own, [(2, 5)]]) == [2 * CARD_GOLD["rangers"], 1 * CARD_GOLD["rangers"]]


def test_H17_rangers_negative(kx):
    # every row with two or more own settlements
    own = [(5, 1), (5, 8), (6, 0), (6, 19), (6, 10)]
    assert card_gold(kx, "rangers", [own, []]) == [0, 0]


# --------------------------------------------------------------------------- H-18 chainers

def test_H18_chainers_exactly_two_own_neighbours(kx):
    # the row (10, 10) .. (10, 13): the two middle ones have exactly 2 own neighbours, the ends 1 -> 2;
    # the triangle (5, 5) (5, 6) (4, 6): each touches the other two -> 3; total 5
    own = [(10, 10), (10, 11), (10, 12), (10, 13), (5, 5), (5, 6), (4, 6)]
    assert card_gold(kx, "chainers", [own, []]) == [5 * CARD_GOLD["chainers"], 0]


def test_H18_chainers_negative(kx):
    # (10, 10) with 3 own neighbours (9, 9) (9, 10) (10, 11): 3 is not 2; the three outer ones touch 1 or 2 own:
    # (9, 9) touches (9, 10) and (10, 10) -> 2 (counts); (9, 10) touches (9, 9) (10, 10) (10, 11) -> 3;
    # (10, 11) touches (9, 10) (10, 10) -> 2 (counts). Opponents' settlements do not count: (15, 5) between player 1's
    # (15, 4) and (15, 6) belongs to player 0 and has 0 own neighbours.
    own = [(10, 10), (9, 9), (9, 10), (10, 11), (15, 5)]
    assert card_gold(kx, "chainers", [own, [(15, 4), (15, 6)]]) == [2 * CARD_GOLD["chainers"], 0]


# --------------------------------------------------------------------------- H-15 mayors

DESERT = [(14, 1), (14, 2), (14, 3)]
MAYOR_CARDS = ["mayors", "fishermen", "knights"]


def mayors_position(kx, own=((14, 9),), then=None, **kwargs):
    cells = {**{h: "D" for h in DESERT}, **{h: "G" for h in own}}
    return hpos(kx, cells, settlements=[list(own), []], card="D", cards=MAYOR_CARDS, then=then, **kwargs)


def test_H15_en1381_three_desert_builds_mark_the_row(kx):
    # MAYORS_EXAMPLE: (14, 9) and three desert builds in row 14 -> 4 settlements in that line -> marked, with a
    # settlement from the supply: 40 - 1 - 3 - 1 = 35
    pos = mayors_position(kx, then=DESERT)
    g = kx.game(pos)
    assert mayor_lines(g) == {14: 0}
    assert g.supply(0) == 35
    assert len(kx.settlements(g, 0)) == 4              # the marker is not on the board
    assert game_hscores(g)[0]["cards"]["mayors"] == MAYOR_GOLD
    # three settlements in the row are not enough
    assert mayor_lines(kx.game(mayors_position(kx, then=DESERT[:2]))) == {}


def test_H15_a_row_marked_by_another_player_is_not_marked_again(kx):
    # MAYORS "only if this line is not marked already by some other player"
    g = kx.game(mayors_position(kx, then=DESERT, mayor_lines={14: 1}))
    assert mayor_lines(g) == {14: 1}
    assert g.supply(0) == 36
    rows = game_hscores(g)
    assert rows[0]["cards"]["mayors"] == 0
    assert rows[1]["cards"]["mayors"] == MAYOR_GOLD    # A_H7 "The mark is permanent": player 1 has nothing there


def test_H15_a_row_is_marked_once(kx):
    # already marked by player 0: a 5th settlement takes no second marker
    g = kx.game(mayors_position(kx, own=((14, 9), (14, 7)), then=DESERT, mayor_lines={14: 0}))
    assert mayor_lines(g) == {14: 0} and g.supply(0) == 40 - 2 - 3


def test_A_H7_flag_mayors_contiguous(kx):
    # A_H7 (b): (14, 9) is not next to the desert builds -> no mark; starting from (14, 0) the line (14, 0) .. (14, 3)
    # is contiguous -> a mark under both readings
    options = flag("A-H7")
    assert mayor_lines(kx.game(mayors_position(kx, then=DESERT, options=options))) == {}
    for opts in (None, options):
        assert mayor_lines(kx.game(mayors_position(kx, own=((14, 0),), then=DESERT, options=opts))) == {14: 0}


def test_H15_moving_a_settlement_into_a_row_marks_it(kx):
    # MAYORS "or moves one of their settlements": the barn (13, 1) touches (14, 1); the barn moves (5, 5) to the desert
    # (14, 4) (the only desert touching own) -> row 14 holds 4
    cells = {**{h: "G" for h in DESERT}, (14, 4): "D", (5, 5): "G"}
    pos = hpos(kx, cells, settlements=[[*DESERT, (5, 5)], []], card="D", cards=MAYOR_CARDS,
               locations={(13, 1): "barn"}, tiles=[[(13, 1)], []], then=["barn", (5, 5), (14, 4)])
    g = kx.game(pos)
    assert mayor_lines(g) == {14: 0}
    assert g.supply(0) == 40 - 4 - 1


def test_A_H7_the_marker_needs_the_supply_and_counts_for_the_end(kx):
    # A_H7 "supply > 0"; "Whether the marker counts toward the end trigger: Default (a) yes"
    g = kx.game(mayors_position(kx, then=DESERT, supply=[3, 40]))
    assert mayor_lines(g) == {} and g.supply(0) == 0 and state(g)["ending"] is True
    g = kx.game(mayors_position(kx, then=DESERT, supply=[4, 40]))
    assert mayor_lines(g) == {14: 0} and g.supply(0) == 0 and state(g)["ending"] is True
    g = kx.game(mayors_position(kx, then=DESERT, supply=[5, 40]))
    assert mayor_lines(g) == {14: 0} and g.supply(0) == 1 and state(g)["ending"] is False


def test_H15_en1385_scores_of_the_example(kx):
    # MAYORS_SCORES: 2, 3 and 1 marked lines -> 8, 12 and 4 gold
    lines = {3: 0, 5: 0, 7: 1, 9: 1, 11: 1, 13: 2}
    pos = hpos(kx, {}, fill="G", settlements=[[(0, 0)], [(0, 2)], [(0, 4)]], cards=MAYOR_CARDS,
               hands=["G", "G", "G"], opp_area=False, mayor_lines=lines)
    assert [row["cards"]["mayors"] for row in hscores(pos)] == [8, 12, 4]


# --------------------------------------------------------------------------- H-19 rovers

ROVER_CARDS = ["rovers", "fishermen", "knights"]
GRASS = [(5, 9), (5, 10), (5, 11)]     # (5, 9) top-left, (5, 10) and (5, 11) top-right


def test_H19_en1399_two_sections_two_gold_at_the_end_of_the_turn(kx):
    # ROVERS_EXAMPLE: three builds in two sections -> 2 gold at the end of the turn; not scored at the end
    pos = hpos(kx, {h: "G" for h in GRASS}, settlements=[[], []], card="G", cards=ROVER_CARDS, then=GRASS)
    assert kx.answer(pos)["player"] == 1              # the turn is over
    g = kx.game(pos)
    assert g.gold(0) == 2
    row = game_hscores(g)[0]
    assert row["gold"] == 2 and row["cards"]["rovers"] == 0


def test_H19_one_section_one_gold(kx):
    cells = {(5, 1): "G", (5, 2): "G", (5, 3): "G"}
    pos = hpos(kx, cells, settlements=[[], []], card="G", cards=ROVER_CARDS, then=[(5, 1), (5, 2), (5, 3)])
    assert kx.game(pos).gold(0) == 1


def test_H19_a_farm_action_build_in_a_third_section_counts(kx):
    # ROVERS "After each newly built settlement": player 0's (12, 5) (bottom-left) touches the farmland (12, 6)
    cells = {**{h: "G" for h in GRASS}, (12, 5): "T", (12, 6): "A"}
    pos = hpos(kx, cells, settlements=[[(12, 5)], []], card="G", cards=ROVER_CARDS,
               then=["farmland", (12, 6)] + GRASS)
    assert kx.game(pos).gold(0) == 3


def test_A_H8_moves_do_not_count(kx):
    # A_H8 "not moves": the paddock moves (10, 10) (bottom-right) two hexes to (8, 9) (top-left; the other five
    # paddock targets (8, 11) (10, 8) (10, 12) (12, 9) (12, 11) are mountains); the grass builds (5, 12) (5, 13)
    # (5, 14) are in the top-right section only -> 1 gold (2 if the move counted)
    cells = {(10, 10): "T", (8, 9): "G", (5, 12): "G", (5, 13): "G", (5, 14): "G"}
    pos = hpos(kx, cells, settlements=[[(10, 10)], []], card="G", cards=ROVER_CARDS,
               locations={(10, 11): "paddock"}, tiles=[[(10, 11)], []],
               then=["paddock", (10, 10), (8, 9), (5, 12), (5, 13), (5, 14)])
    assert kx.game(pos).gold(0) == 1


def test_A_H8_silo_builds_do_not_count(kx):
    # A_H8 "Silo builds do not count (TG, D)": player 0 builds (9, 11) (top-right) and (10, 12) (bottom-right) in the
    # silo phase after player 1's last turn -> no Rovers gold. After the two builds no free hex touches player 0,
    # so the silo closes by itself (as a power with no target left ends, HA10) and the game is over: no "done".
    cells = {(10, 10): "O", (10, 11): "G", (9, 11): "D", (10, 12): "G"}
    pos = hpos(kx, cells, settlements=[[(10, 11)], []], card="G", cards=ROVER_CARDS, start_player=0,
               current_player=1, ending=True, then=[(16, 0), (16, 1), (16, 2), "build", (9, 11), (10, 12)])
    g = kx.game(pos)
    assert g.done
    assert g.gold(0) == 0


# --------------------------------------------------------------------------- A-X2 silos for Workers

def test_A_X2_silos_count_for_workers_only_with_the_flag(kx):
    # A_X2: (10, 11) touches the silo (10, 10) only; (5, 6) touches the bazaar hex (5, 5) (a location: 1 gold)
    cells = {(10, 10): "O"}
    kwargs = {"locations": {(5, 5): "bazaar"}}
    assert card_gold(kx, "workers", [[(10, 11), (5, 6)], []], cells, **kwargs) == [1, 0]
    assert card_gold(kx, "workers", [[(10, 11), (5, 6)], []], cells, options=flag("A-X2"), **kwargs) == [2, 0]


# --------------------------------------------------------------------------- decision 6 / A-H9

@pytest.mark.parametrize("card", ["travellers", "homesteaders", "rangers", "chainers"])
def test_A_H9_unverified_amounts_are_catalogue_data(card):
    # DECISION_6 / A-H9 "Card amounts H-14, 16, 17, 18 are configuration, marked unverified"
    from kbenv import catalogue

    assert catalogue.CARD_GOLD[card] == CARD_GOLD[card]
    assert card in catalogue.UNVERIFIED_CARDS


def test_decision6_the_docs_list_the_six_cards(kx):
    text = (REPO / "docs" / "rules-readings.md").read_text(encoding="utf-8").lower()
    for card in NEW_CARDS:
        assert card in text, card
    assert re.search(r"unverified", text)
