"""Engine bugs found while proving the Island's rules over many games (issue 23 part 2: the property suite
tests/surfaces/test_properties.py (then tests/test_island_properties.py), the round trip
tests/surfaces/test_roundtrip.py, and reading the kernels they exercise),
each with the hand-built position that shows it and the expected result from the rule text.

Rule text quoted (the comments below name these):

HARBOR_NOTE (EN 316-318): "The 'Fishermen' card does not generate gold for settlements on water hexes."
FISHERMEN (base card): "1 gold for each of your settlements built adjacent to one or more water hexes."
A_QI2 (spec A-QI2): "TG: 'The coast spaces are adjacent to water spaces. The surrounding water is NOT made of
    spaces, so no tokens can go there' (i.e. coast hexes count as next to water for Fishermen and Water mill)."
MESSENGERS_NOTE (EN 1189): "Note: Consider only the shortest path between the 2 connected settlements that are
    separated by the most distance, regardless of whether the hexes in this path have settlements on them or cannot
    be built upon. Include the hexes where these settlements are located."
ROVERS_SECTIONS (HA): "the sections (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right) built in this turn"
A_H8 (spec A-H8 / A-QI4: the island is no section): "TG: 'Rovers do not score for building on the Island'"
"""

import json

from kbenv.catalogue import ISLAND_ACTION_BASE
from kbenv.positions.files import game_from_position
from tests.rules.island.helpers import I, game, ipos, requires_island, scores

pytestmark = requires_island


def test_fishermen_with_the_island_ignore_settlements_standing_on_water(kx):
    # Found by the property suite (island alone, seed 2): island games scored a settlement moved onto water by the
    # Harbor for Fishermen. HARBOR_NOTE: (5, 5) on water, next to the water (5, 6), scores nothing; (10, 10) grass next
    # to the water (10, 11) scores 1; the island's I(0, 0) grass is a coast hex (A_QI2) and scores 1; the island's
    # water I(4, 3) (a coast hex) holds a settlement standing on water: nothing. Fishermen = 2.
    cells = {(5, 5): "W", (5, 6): "W", (10, 10): "G", (10, 11): "W"}
    pos = ipos(kx, cells, settlements=[[(5, 5), (10, 10), I(0, 0), I(4, 3)], []], island={(0, 0): "G", (4, 3): "G"},
               cards=["fishermen", "knights", "merchants"])
    pos["island"]["board"][4] = "MMMW"  # I(4, 3) is water (ipos wants buildable hexes under island settlements)
    assert scores(pos)[0]["cards"]["fishermen"] == 2
    # the same board without the island: (10, 10) only
    base = ipos(kx, cells, settlements=[[(5, 5), (10, 10)], []], island_key=False, expansions=(),
                cards=["fishermen", "knights", "merchants"])
    assert scores(base)[0]["cards"]["fishermen"] == 1


MESSENGERS_TG = "2 points for each hex in the shortest path between your two connected, most distant settlements"


def messengers_position(kx, settlements):
    island = {(r, c): "G" for r in range(5) for c in range(4)}
    return ipos(kx, {(5, 2): "G", (5, 3): "G"}, settlements=[settlements, []], island=island,
                expansions=("marshlands", "island"), cards=["messengers", "knights", "merchants"])


def test_messengers_measure_paths_on_the_island(kx):
    # Found by reading the Messengers kernel for the island: its distance table covered the 400 board hexes only, so
    # a connected pair on the island read past the table (an IndexError in pure Python, any number compiled).
    # MESSENGERS_TG: own I(0,0) I(0,1) I(0,2) I(0,3), one island line, connected: the farthest pair I(0,0) - I(0,3)
    # is 3 steps apart, its path 4 hexes -> 8; a board pair (5, 2) (5, 3) (2 hexes, 4) is another area.
    assert scores(messengers_position(kx, [I(0, 0), I(0, 1), I(0, 2), I(0, 3)]))[0]["cards"]["messengers"] == 8
    # island line 0 is even (IA4): I(0, 0) I(1, 0) I(2, 0) I(3, 0) I(4, 0) zigzag down the island's left side;
    # odd-r: (0,0)-(1,0) 1 step, (0,0)-(2,0) 2, (0,0)-(4,0) 4 steps -> 5 hexes -> 10 (more than the board pair)
    column = [I(r, 0) for r in range(5)]
    assert scores(messengers_position(kx, [(5, 2), (5, 3), *column]))[0]["cards"]["messengers"] == 10


def test_rovers_an_island_build_records_no_section_and_the_position_round_trips(kx):
    # Found by the Island round trip: an island build set a fifth "section" bit (the island's) in the Rovers record
    # of the turn, which a position file cannot write, so a game read back mid-turn differed from the original.
    # A_H8: desert card, no desert next to (5, 5): (12, 12) (bottom-right, section 3), then I(0, 0) on the island;
    # mid-turn the record holds section 3 only, and reading the position back gives the same state.
    island = {(0, 0): "D", (0, 1): "D"}
    pos = ipos(kx, {(5, 5): "G", (12, 12): "D"}, settlements=[[(5, 5)], []], card="D", island=island,
               cards=["rovers", "fishermen", "knights"], expansions=("harvest", "island"), then=[(12, 12), I(0, 0)])
    g = game(pos)
    written = json.loads(json.dumps(g.to_position()))
    assert written["rovers_sections"] == [3]
    again = game_from_position(written)
    assert again.state_key() == g.state_key()
    assert again.legal_actions() == [ISLAND_ACTION_BASE + 1]  # the third build must touch I(0, 0): I(0, 1)
    g.step(ISLAND_ACTION_BASE + 1)  # ... and ends the turn: 1 section -> 1 gold (A_H8)
    assert g.gold(0) == 1
