"""The six Marshlands Kingdom Builder cards (M-19 .. M-24, A-M11).

The printed card texts are images missing from both rulebook files; only their notes survive (quoted below). The
scoring follows the spec (TG / kb_prompt readings) with the amounts of ``CARD_GOLD`` (A-M11, unverified, decision
6). Each card has a positive and a negative position, scored with ``score_position`` (``mscores``). Boards are
grass-filled (``fill="G"``) unless a test says otherwise, so only the hexes named are anything else. Hex distances
use cube coordinates: for (r, c) in odd-r, x = c - (r - r % 2) / 2, z = r, y = -x - z, distance = max |difference|.

Rule text quoted (the comments below name these):

GEOLOGISTS_NOTE (EN 1185): "Note: A mountain is a series of adjacent mountain hexes and may consist of only a single
    hex. If mountains are connected to one another through more than one hex, the player still scores for each
    mountain only once."
GEOLOGISTS_TG (M-19): "2 points for each mountain area that is connected with another mountain by your settlements"
MESSENGERS_NOTE (EN 1189): "Note: Consider only the shortest path between the 2 connected settlements that are
    separated by the most distance, regardless of whether the hexes in this path have settlements on them or cannot
    be built upon. Include the hexes where these settlements are located."
MESSENGERS_TG (M-20): "2 points for each hex in the shortest path between your two connected, most distant
    settlements"
NOBLEWOMEN_NOTE (EN 1193): "Note: Palaces are scored only once."
NOBLEWOMEN_EXAMPLE (EN 1195-1197): "Player orange: 5 gold Player blue: 5 gold Player white: 15 gold"
NOBLEWOMEN_TG (M-21): "All special location hexes score as palaces - 5 points for majority control"
VASSALS_NOTE (EN 1201): "Note: You can count these settlements more easily if you carefully pull the sections a
    little bit apart."
VASSALS_TG (M-22): "1 point for each settlement built on the inner edges of the board"
CAPTAINS_TG (M-23): "1 point for each settlement next to at least 3 of your settlements"
SCOUTS_TG (M-24): "1 gold per own settlement adjacent to (not on) the removed terrain"
A_M11 (A-M11): "Card amounts (M-19..24) are configuration (CARD_GOLD table), marked unverified in code and docs.
    Vassals: (a) own settlements on hexes touching an inner section seam (board rows 9-10 or columns 9-10); (b) all
    section-border hexes, including the outer edge. Default (a). Messengers: the maximum over all same-area pairs.
    Geologists: (a) mountain areas, Merchants-style (TG); (b) mountain hexes. Default (a)."
DECISION_6 (spec, Decisions taken 6): "Unverified card amounts (A-M11, A-H9): shipped as catalogue data marked
    unverified with their source; the cards are usable; the docs list them as unverified."
"""

import re
from pathlib import Path

import pytest

from tests.rules.marshlands.helpers import CARD_GOLD, FLAGS, NEW_CARDS, flag, mpos, mscores

REPO = Path(__file__).resolve().parents[3]


def card_position(kx, card, settlements, cells=None, fill="G", hand="G", **kwargs):
    others = [c for c in ("fishermen", "knights", "hermits") if c != card][:2]
    return mpos(kx, cells or {}, fill=fill, settlements=settlements, cards=[card, *others],
                hands=[hand] * len(settlements), opp_area=False, **kwargs)


def card_gold(kx, card, settlements, cells=None, **kwargs):
    return [row["cards"][card] for row in mscores(card_position(kx, card, settlements, cells, **kwargs))]


# --------------------------------------------------------------------------- M-19 geologists

MOUNTAINS = {(5, 5): "M", (5, 6): "M", (5, 9): "M", (10, 15): "M", (10, 18): "M"}
# mountain areas: {(5, 5), (5, 6)}, {(5, 9)} (a single hex), {(10, 15)}, {(10, 18)}


@pytest.mark.parametrize("own,mountains", [
    # (5, 7) touches (5, 6); (5, 8) touches (5, 9): one area links 2 mountains -> 2 x 2 = 4
    ([(5, 7), (5, 8)], 2),
    # GEOLOGISTS_NOTE: more links between the same two mountains ((4, 6) touches (5, 5) and (5, 6), (4, 7) touches
    # (5, 6), (4, 9) touches (5, 9)) -> still 2 mountains -> 4
    ([(5, 7), (5, 8), (4, 6), (4, 7), (4, 8), (4, 9)], 2),
    # a second area (10, 16) (10, 17) links (10, 15) and (10, 18): 4 mountains -> 8
    ([(5, 7), (5, 8), (10, 16), (10, 17)], 4),
], ids=["two-mountains", "en1185-several-links", "two-areas"])
def test_M19_geologists_mountains_linked_by_own_settlements(kx, own, mountains):
    assert card_gold(kx, "geologists", [own, []], MOUNTAINS) == [CARD_GOLD["geologists"] * mountains, 0]


@pytest.mark.parametrize("own", [
    [(10, 14), (9, 14)],                # one area touching one mountain ((10, 15)) through two hexes
    [(10, 14), (10, 17)],               # two areas, each touching one mountain: nothing is linked
    [(12, 12)],                         # touching no mountain
], ids=["one-mountain", "unlinked-areas", "none"])
def test_M19_geologists_negative(kx, own):
    assert card_gold(kx, "geologists", [own, []], MOUNTAINS) == [0, 0]


def test_M19_opponents_do_not_link_mountains(kx):
    # (5, 7) own, (5, 8) player 1's: player 0's area touches (5, 6) only, player 1's (5, 9) only
    assert card_gold(kx, "geologists", [[(5, 7)], [(5, 8)]], MOUNTAINS) == [0, 0]


# --------------------------------------------------------------------------- M-20 messengers

CHAIN = [(10, 2), (9, 2), (8, 2), (8, 3), (8, 4), (8, 5), (9, 5), (10, 6)]
# the chain bends around the mountains (10, 3) (10, 4) (10, 5) (9, 3) (9, 4)


def test_M20_messengers_longest_shortest_path_inclusive(kx):
    # MESSENGERS_NOTE: the most distant connected pair is (8, 2) - (10, 6): cube (x, y, z) = (-2, -6, 8) and
    # (1, -11, 10) -> distance max(3, 5, 2) = 5; the shortest path has 5 + 1 = 6 hexes (both ends included),
    # whatever stands on them (the straight path crosses the mountains) -> 2 x 6 = 12.
    cells = {(10, 3): "M", (10, 4): "M", (10, 5): "M", (9, 3): "M", (9, 4): "M"}
    assert card_gold(kx, "messengers", [CHAIN, []], cells) == [CARD_GOLD["messengers"] * 6, 0]


def test_M20_messengers_row(kx):
    # (5, 2) .. (5, 5): distance 3 -> 4 hexes -> 8
    assert card_gold(kx, "messengers", [[(5, 2), (5, 3), (5, 4), (5, 5)], []]) == [8, 0]


def test_M20_messengers_only_connected_settlements(kx):
    # two areas of 2 adjacent settlements, far apart: (2, 2) (2, 3) and (15, 15) (15, 16); the far pair is not
    # connected (distance 21 would give 44) -> each pair has distance 1, 2 hexes -> 4
    assert card_gold(kx, "messengers", [[(2, 2), (2, 3), (15, 15), (15, 16)], []]) == [4, 0]
    assert card_gold(kx, "messengers", [[], []]) == [0, 0]


# --------------------------------------------------------------------------- M-21 noblewomen

NOBLE_CELLS = {(5, 5): "K", (10, 5): "K", (15, 10): "P"}
NOBLE_LOCATIONS = {(5, 10): "fountain", (10, 10): "temple", (15, 5): "refuge"}


def test_M21_noblewomen_en1195_5_5_15(kx):
    # NOBLEWOMEN_EXAMPLE / NOBLEWOMEN_NOTE, a position built to the example's totals. Each special hex gives 5 to
    # the players with the most settlements next to it (at least 1). Castle (5, 5): orange 2 ((5, 4) (5, 6)),
    # white 1 ((4, 5)) -> orange. Location (5, 10): blue 1 ((5, 11)) -> blue. Castle (10, 5): white ((10, 4)).
    # Location (10, 10): white 2 ((10, 9) (10, 11)), blue 1 ((9, 10)) -> white. Location (15, 5): white ((15, 4)).
    # Palace (15, 10): white ((15, 9)) -> 5 in the palaces column only ("scored only once").
    settlements = [[(5, 4), (5, 6)], [(5, 11), (9, 10)], [(4, 5), (10, 4), (10, 9), (10, 11), (15, 4), (15, 9)]]
    pos = card_position(kx, "noblewomen", settlements, NOBLE_CELLS, locations=NOBLE_LOCATIONS)
    rows = mscores(pos)
    assert [row["cards"]["noblewomen"] for row in rows] == [5, 5, 15]
    assert [row["palaces"] for row in rows] == [0, 0, 5]
    assert [row["castles"] for row in rows] == [3, 0, 6]           # base castles: 3 per castle touched


def test_M21_noblewomen_ties_and_nobody(kx):
    # a tie at the castle (5, 5): 5 each (as for the palace); nobody next to anything: 0 (A-M1)
    assert card_gold(kx, "noblewomen", [[(5, 4)], [(4, 5)]], NOBLE_CELLS, locations=NOBLE_LOCATIONS) == [5, 5]
    assert card_gold(kx, "noblewomen", [[(0, 0)], [(19, 19)]], NOBLE_CELLS, locations=NOBLE_LOCATIONS) == [0, 0]


def test_M21_noblewomen_never_counts_the_palace(kx):
    # only the palace is touched: noblewomen 0, palaces 5
    rows = mscores(card_position(kx, "noblewomen", [[(15, 9)], []], NOBLE_CELLS, locations=NOBLE_LOCATIONS))
    assert rows[0]["cards"]["noblewomen"] == 0 and rows[0]["palaces"] == 5


# --------------------------------------------------------------------------- M-22 vassals

VASSAL_OWN = [(9, 3), (10, 15), (4, 9), (10, 10), (8, 3), (0, 0), (19, 5)]


def test_M22_vassals_inner_seams(kx):
    # A_M11 (a): rows 9-10 and columns 9-10 touch the inner seams: (9, 3), (10, 15), (4, 9), (10, 10) -> 4 x 1;
    # (8, 3) is inside a section, (0, 0) and (19, 5) are on the outer edge only
    assert card_gold(kx, "vassals", [VASSAL_OWN, []]) == [4 * CARD_GOLD["vassals"], 0]
    assert card_gold(kx, "vassals", [[(8, 3), (0, 0), (19, 5), (11, 11)], []]) == [0, 0]


def test_A_M11_flag_vassals_count_the_outer_edge(kx):
    # A_M11 (b): every section-border hex (rows and columns 0, 9, 10, 19): 4 + (0, 0) + (19, 5) = 6
    assert FLAGS["A-M11-vassals"] == "vassals_count_outer_edge"
    assert card_gold(kx, "vassals", [VASSAL_OWN, []], options=flag("A-M11-vassals")) == [6, 0]


# --------------------------------------------------------------------------- M-23 captains


def test_M23_captains_settlements_with_three_own_neighbours(kx):
    # own (10, 10) (10, 9) (10, 11) (9, 10) (9, 9): own neighbours 4 for (10, 10) ((10, 9) (10, 11) (9, 9) (9, 10)),
    # 3 for (9, 10) ((9, 9) (10, 10) (10, 11)), 3 for (9, 9) ((9, 10) (10, 9) (10, 10)), 2 for (10, 9), 2 for
    # (10, 11) -> 3 x 1
    own = [(10, 10), (10, 9), (10, 11), (9, 10), (9, 9)]
    assert card_gold(kx, "captains", [own, []]) == [3 * CARD_GOLD["captains"], 0]


def test_M23_captains_negative(kx):
    # a line: at most 2 own neighbours each -> 0; opponents' settlements do not count: (10, 10) has 2 own and 2
    # opponent neighbours -> 0
    assert card_gold(kx, "captains", [[(5, 2), (5, 3), (5, 4), (5, 5)], []]) == [0, 0]
    assert card_gold(kx, "captains", [[(10, 10), (10, 9), (10, 11)], [(9, 10), (9, 9)]]) == [0, 0]


# --------------------------------------------------------------------------- M-24 scouts (scoring)

SCOUT_CELLS = {(5, 5): "D", (10, 11): "D", (15, 15): "D"}


def test_M24_scouts_settlements_next_to_the_removed_terrain(kx):
    # desert removed: (5, 4) and (5, 6) touch (5, 5); (10, 12) touches (10, 11) -> 3 x 1. (12, 12) touches no
    # desert; (15, 15) stands on desert but touches none -> 0 for those.
    own = [(5, 4), (5, 6), (10, 12), (12, 12), (15, 15)]
    assert card_gold(kx, "scouts", [own, []], SCOUT_CELLS, removed_terrain="D") == [3 * CARD_GOLD["scouts"], 0]


def test_M24_scouts_negative(kx):
    assert card_gold(kx, "scouts", [[(12, 12), (15, 15)], [(2, 2)]], SCOUT_CELLS, removed_terrain="D") == [0, 0]
    # grass removed instead (hands of desert): on the grass-filled board every one of these settlements touches
    # grass -> 2 for player 0, 1 for player 1
    assert card_gold(kx, "scouts", [[(12, 12), (15, 15)], [(2, 2)]], SCOUT_CELLS, removed_terrain="G",
                     hand="D") == [2, 1]


# --------------------------------------------------------------------------- decision 6


def test_decision6_the_docs_list_the_six_cards_as_unverified():
    # DECISION_6: docs/rules-readings.md names every new card and says its amounts are unverified
    text = (REPO / "docs" / "rules-readings.md").read_text(encoding="utf-8").lower()
    for card in NEW_CARDS:
        assert card in text, card
    assert re.search(r"unverified", text)
