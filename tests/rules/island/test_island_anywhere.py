"""QI-1 for every power that can place or move a settlement away from its owner's settlements: "A player can get
there by having to place or move a settlement to a terrain he is not adjacent to, and putting that settlement on the
island" (EN 1445); DE 1692: "Kann ein Spieler nicht angrenzend bauen und darf sich ein neues freies Geländefeld ...
wählen, kann er statt einem Feld auf dem Spielplan auch ein passendes Geländefeld auf der Insel wählen." So wherever a
power's rule may choose a free hex not adjacent to own settlements, the island's hexes that satisfy the power's
condition are options too; powers whose targets are fixed by geometry (Paddock, Caravan, Tavern, Resettlement, Village)
reach only hexes connected to the settlement's own board, island hexes neighbouring only island hexes (spec A-QI2), so
they work within the island (test_island_reach.py holds the mandatory action, Oasis + Farm (EN 1450), Barn, Tower and
Paddock-from-the-board cases; test_island_with_expansions.py the Water mill).

Not covered here, and why: the Tower never reaches the island (A-QI3, test_island_reach.py); Treasure and Sword place
nothing (EN 592, EN 598); the Quarry places walls, not settlements; the Capitol and the Caves stay on board hexes (the
capitol on a castle, EN 1409; caves on board mountains, QV-1); the Canoe reaction (the same targets as the Canoe
bonus tested here), the Refuge and its bonus, the Fountain and the Harvest Scout cabin / Palisade / Bazaar
(targets next to own pieces or repeats of another power) are left for later.

Set-up of every case (conftest ``make_board`` and island_helpers ``ipos``: mountain-filled board and island): player
0 owns S = (5, 5) (odd row; its board neighbours (5,4) (5,6) (4,5) (4,6) (6,5) (6,6) are mountain but for the
location L = (5, 6), whose tile player 0 holds), so no power target is ever adjacent to own settlements on the board;
player 0 holds the flower card with its mandatory hexes MAND_F far away (the island has no flower hex unless a case
says so), player 1 canyon with OPP_C (16, 0) (16, 1) (16, 2) (conftest), which are free canyon hexes.

Rule text quoted (the comments below name these):

MOUNTAIN_STATION (EN 1323), WATCHTOWER (EN 1349), UNIVERSITY (EN 1355): quoted in
    tests/rules/harvest/test_harvest_build_powers.py.
RULE_3 (EN 276-284): "Always, a player must build each new settlement adjacent to at least one of their own existing
    settlements, if possible. If this is not possible, the player must (if mandatory action) or may (if extra
    action) choose a new unoccupied hex where they can build their settlement."
ORACLE (EN 389): "Build one settlement on a hex of the same terrain type as your played terrain card. Build adjacent
    if possible."
FARM (EN 391): "Build one settlement on a grass hex. Build adjacent if possible."
HARBOR (EN 432): "Move any one of your existing settlements to a water hex. Build adjacent if possible. This is the
    only way to build settlements on water hexes."
PADDOCK (EN 434): "Move any one of your existing settlements two hexes in a straight line in any direction
    (horizontally or diagonally) to an eligible hex."
TAVERN (EN 399): "Build one settlement at one end of a line of at least 3 of your own settlements. The orientation
    of the line does not matter (horizontally or diagonally). The chosen hex must be suitable for building."
CARAVAN (EN 694): "Move one of your own previously built settlements in a straight line, either horizontally or
    diagonally, until it is blocked by an obstacle. (Obstacles are water, mountains, castles, location spaces, nomad
    spaces, and each space occupied by a settlement.)"
GARDEN (EN 712): "Build one additional settlement on an empty flower field space. You must build this settlement
    adjacent to one of your settlements, if possible."
OUTPOST (EN 580): "you may use the outpost in order to disregard the adjacency requirement for one settlement. This
    settlement must still be built on the appropriate terrain type"
DONATION (EN 556; FAQ (spec N-8): "If it's possible to build ... next to existing houses, you must."): "Build 3
    additional settlements, taken from your supply, on spaces of the terrain type shown on the nomad tile."
RESETTLEMENT (EN 568): "Settlements can be moved only to adjacent, unoccupied spaces that are eligible for
    building."
FORT (EN 826): "Draw a terrain card and build one settlement on an empty space of the terrain type the card shows.
    You must build this settlement adjacent to one of your settlements, if possible."
CATHEDRAL (EN 1343): "return any number of tiles in order to build that same number of settlements upon suitable
    terrain spaces, according to the drawn terrain card. These must be built connecting to existing settlements of
    that player, if possible."
VILLAGE (EN 706): "Build one additional settlement on an empty space eligible for building that is adjacent to at
    least 3 of your settlements."
TEMPLE_BONUS (EN 1158): "During each of your turns, you may build the first settlement of your mandatory action in a
    hex not adjacent to one of your previously built settlements."
CANOE_BONUS (EN 1123): "Build one settlement on an unoccupied swamp or water hex. If possible, this must be built
    adjacent to one of the player's own previously built settlements."
"""

import pytest

from tests.rules.harvest.helpers import DONE, RETURN
from tests.rules.island.helpers import (
    CHOOSE_SOURCE,
    CHOOSE_TARGET,
    I,
    answer,
    game,
    held_tiles,
    inb,
    ipos,
    legal,
    own,
    with_then,
)

S, L = (5, 5), (5, 6)
MAND_F = {(12, 3): "F", (12, 4): "F", (12, 5): "F"}
MAND_F_HEXES = set(MAND_F)
OPP_C_HEXES = {(16, 0), (16, 1), (16, 2)}

FORESTER = ("Build one settlement on an empty forest space. You must build this settlement adjacent to one of your "
            "settlements, if possible.")  # EN 820
MONASTERY = ("Build one settlement on an empty canyon space. You must build this settlement adjacent to one of your "
             "settlements, if possible.")  # EN 823


def place(kx, letter, cells=None, island=None, settlements=((S,), ()), card="F", expansions=("island",),
          locations=None, **kwargs):
    """Player 0 holds the tile of location L (board letter `letter`, or `L` + `locations` for Harvest types)."""
    board = {**MAND_F, S: "G", L: letter, **(cells or {})}
    extra = kwargs.pop("extra", {})
    if locations:
        extra = {**extra, "locations": {f"{r},{c}": kind for (r, c), kind in locations.items()}}
    return ipos(kx, board, settlements=[list(p) for p in settlements], card=card, island=island or {},
                tiles=[[L], []], expansions=expansions, extra=extra, **kwargs)


# --------------------------------------------------------------------------- base game builds

def test_QI1_oracle_goes_to_the_island_on_the_card_terrain(kx):
    # ORACLE + RULE_3: card desert; no desert touches S -> every free desert: board (12, 12), island I(0,0) I(3,3);
    # the island's grass I(2,2) is another terrain
    pos = place(kx, "o", {(12, 12): "D"}, {(0, 0): "D", (3, 3): "D", (2, 2): "G"}, card="D")
    out = answer(with_then(pos, ["oracle"]))
    assert out["phase"] == CHOOSE_TARGET and out["legal"] == {(12, 12), I(0, 0), I(3, 3)}
    g = game(with_then(pos, ["oracle", I(3, 3)]))
    assert own(g, 0) == {S, I(3, 3)} and g.supply(0) == 40 - 2


def test_QI1_farm_goes_to_the_island_grass(kx):
    # FARM: no grass touches S -> (14, 14) or the island's I(2, 1); the island's desert I(4, 3) is no target
    pos = place(kx, "f", {(14, 14): "G"}, {(2, 1): "G", (4, 3): "D"})
    assert legal(with_then(pos, ["farm"])) == {(14, 14), I(2, 1)}


def test_QI1_harbor_moves_onto_island_water(kx):
    # HARBOR: the only settlement S moves; with it lifted nothing own is left to be adjacent to -> any free water:
    # board (14, 2) or the island's I(4, 3) (water on the island is a water hex like any other)
    pos = place(kx, "h", {(14, 2): "W"}, {(4, 3): "W", (1, 1): "G"})
    out = answer(with_then(pos, ["harbor"]))
    assert out["phase"] == CHOOSE_SOURCE and out["legal"] == {S}
    assert legal(with_then(pos, ["harbor", S])) == {(14, 2), I(4, 3)}
    g = game(with_then(pos, ["harbor", S, I(4, 3)]))
    assert own(g, 0) == {I(4, 3)} and g.supply(0) == 40 - 1
    assert held_tiles(g, 0) == set()  # nothing own touches L any more: its tile is lost (EN 217)


def test_QI1_paddock_jumps_within_the_island(kx):
    # PADDOCK from island hex (2, 1) (even line): two hexes in each straight line: E (2, 3), W (2, -1) off the island,
    # NE (0, 2), NW (0, 0), SE (4, 2), SW (4, 0). Eligible: (2, 3) grass, (0, 2) desert; (0, 0) (4, 2) mountain,
    # (4, 0) water are not
    island = {(2, 1): "G", (2, 2): "T", (2, 3): "G", (0, 2): "D", (4, 0): "W"}
    pos = place(kx, "p", {}, island, settlements=((S, I(2, 1)), ()))
    assert legal(with_then(pos, ["paddock", I(2, 1)])) == {I(2, 3), I(0, 2)}
    g = game(with_then(pos, ["paddock", I(2, 1), I(0, 2)]))
    assert own(g, 0) == {S, I(0, 2)}


def test_QI1_tavern_extends_a_line_on_the_island(kx):
    # TAVERN: own I(2,0) I(2,1) I(2,2) are a horizontal line of 3 on the island; its ends are (2, -1) (off the island)
    # and (2, 3) grass -> the only target; board hexes do not continue an island line (A-QI2)
    island = {(2, 0): "G", (2, 1): "G", (2, 2): "G", (2, 3): "G"}
    pos = place(kx, "t", {(5, 7): "G"}, island, settlements=((S, I(2, 0), I(2, 1), I(2, 2)), ()))
    assert legal(with_then(pos, ["tavern"])) == {I(2, 3)}


# --------------------------------------------------------------------------- Nomads

NOMADS = ("nomads", "island")


def test_QI1_outpost_may_put_the_mandatory_build_on_the_island(kx):
    # OUTPOST: card grass; (5, 4) grass touches S, so the mandatory build must take it ... unless the outpost waives
    # adjacency: then any free grass, board (15, 5) or the island's I(1, 2)
    pos = place(kx, "M", {(5, 4): "G", (15, 5): "G"}, {(1, 2): "G"}, card="G", expansions=NOMADS,
                nomad_tiles=[["outpost"], []])
    pos["tiles"] = [[], []]
    assert legal(pos) == {(5, 4), "outpost"}
    assert legal(with_then(pos, ["outpost"])) == {(5, 4), (15, 5), I(1, 2)}
    after = with_then(pos, ["outpost", I(1, 2)])
    # the 2nd build must touch own settlements again: (5, 4) next to S; nothing grass touches I(1, 2)
    assert legal(after) == {(5, 4)}


def test_QI1_garden_goes_to_the_island_flowers(kx):
    # GARDEN: no flower touches S -> every free flower hex: the mandatory MAND_F hexes, (14, 14), the island's I(3, 0)
    pos = place(kx, "g", {(14, 14): "F"}, {(3, 0): "F", (3, 1): "T"}, expansions=NOMADS, card="C")
    assert legal(with_then(pos, ["garden"])) == {*MAND_F_HEXES, (14, 14), I(3, 0)}


def test_QI1_donation_builds_reach_the_island_then_follow_adjacency(kx):
    # DONATION (desert): 1st build: no desert touches S -> (12, 12), I(0,0), I(0,1), I(3,3); after I(0,0) the 2nd
    # must touch own: I(0,1) (inb(0, 0)); after I(0,1) nothing desert touches own (inb(0, 1) = I(0,0) I(0,2) I(1,0)
    # I(1,1)) -> any free desert again: (12, 12), I(3, 3)
    assert inb(0, 1) == {I(0, 0), I(0, 2), I(1, 0), I(1, 1)}
    pos = place(kx, "M", {(12, 12): "D"}, {(0, 0): "D", (0, 1): "D", (3, 3): "D"}, expansions=NOMADS,
                nomad_tiles=[["donation-D"], []])
    pos["tiles"] = [[], []]
    assert legal(with_then(pos, ["donation-D"])) == {(12, 12), I(0, 0), I(0, 1), I(3, 3)}
    assert legal(with_then(pos, ["donation-D", I(0, 0)])) == {I(0, 1)}
    assert legal(with_then(pos, ["donation-D", I(0, 0), I(0, 1)])) == {(12, 12), I(3, 3)}


def test_QI1_caravan_slides_to_the_island_rim(kx):
    # CARAVAN from island hex (2, 0): E over (2, 1) (2, 2) grass to (2, 3) grass, then the island ends (the water
    # around it, A-QI2) -> (2, 3); every other direction is blocked at once: W off the island, NE (1, 0) and NW
    # (1, -1) / SE (3, 0) / SW (3, -1): mountain or off the island
    island = {(2, 0): "G", (2, 1): "G", (2, 2): "G", (2, 3): "G"}
    pos = place(kx, "c", {}, island, settlements=((S, I(2, 0)), ()), expansions=NOMADS)
    assert legal(with_then(pos, ["caravan"])) == {I(2, 0)}
    assert legal(with_then(pos, ["caravan", I(2, 0)])) == {I(2, 3)}


def test_QI1_resettlement_steps_stay_on_the_island(kx):
    # RESETTLEMENT: steps go to adjacent hexes only; island (0, 0)'s neighbours are I(0,1) I(1,0) (inb), never the
    # board's (0, 1) (1, 0) (A-QI2), though those are grass too
    assert inb(0, 0) == {I(0, 1), I(1, 0)}
    island = {(0, 0): "G", (0, 1): "G", (1, 0): "D"}
    pos = place(kx, "M", {(0, 1): "G", (1, 0): "G"}, island, settlements=((I(0, 0),), ()), expansions=NOMADS,
                nomad_tiles=[["resettlement"], []])
    pos["tiles"] = [[], []]
    assert legal(with_then(pos, ["resettlement"])) == {I(0, 0)}
    assert legal(with_then(pos, ["resettlement", I(0, 0)])) == {I(0, 1), I(1, 0)}


def test_QI1_village_counts_island_neighbours_only(kx):
    # VILLAGE with own I(0,1) I(1,0) I(1,1) on a grass corner of the island. Own neighbours of each free grass hex
    # (island odd-r, IA4): I(0,0) 2 (I(0,1) I(1,0)), I(0,2) 2 (I(0,1) I(1,1)), I(1,2) 1, I(2,0) 1, I(2,1) 2 (I(1,0)
    # I(1,1)), I(2,2) 1: none touches 3, and S's board neighbours are mountain -> no Village. With own I(2, 2) too,
    # I(2,1) touches I(1,0) I(1,1) I(2,2) = 3 and the rest at most 2 -> the only target.
    assert inb(2, 1) == {I(2, 0), I(2, 2), I(1, 0), I(1, 1), I(3, 0), I(3, 1)}
    island = {h: "G" for h in [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]}
    own_island = [I(0, 1), I(1, 0), I(1, 1)]
    pos = place(kx, "v", {}, island, settlements=((S, *own_island), ()), expansions=NOMADS)
    assert "village" not in legal(pos)  # no free hex touches 3 own settlements
    pos = place(kx, "v", {}, island, settlements=((S, *own_island, I(2, 2)), ()), expansions=NOMADS)
    assert legal(with_then(pos, ["village"])) == {I(2, 1)}


# --------------------------------------------------------------------------- Crossroads

CROSSROADS = ("crossroads", "island")


@pytest.mark.parametrize("name, letter, terrain, text", [
    ("foresters_lodge", "e", "T", FORESTER),
    ("monastery", "m", "C", MONASTERY),
])
def test_QI1_crossroads_terrain_builds_reach_the_island(kx, name, letter, terrain, text):
    # FORESTER / MONASTERY: nothing of the terrain touches S -> every free hex of it: (14, 14), the island's I(3, 0)
    # (and for canyon OPP_C, free canyon of the board); the island's other terrain I(3, 1) is no target
    other = "G" if terrain != "G" else "D"
    pos = place(kx, letter, {(14, 14): terrain}, {(3, 0): terrain, (3, 1): other}, expansions=CROSSROADS)
    expected = {(14, 14), I(3, 0)} | (OPP_C_HEXES if terrain == "C" else set())
    out = answer(with_then(pos, [name]))
    assert out["phase"] == CHOOSE_TARGET and out["legal"] == expected, text


def test_QI1_fort_builds_the_drawn_terrain_on_the_island(kx):
    # FORT: the drawn card is desert (top of the deck); no desert touches S -> (12, 12), I(0, 0), I(3, 3)
    pos = place(kx, "r", {(12, 12): "D"}, {(0, 0): "D", (3, 3): "D", (1, 1): "T"}, expansions=CROSSROADS,
                deck=["D", "C", "G", "T"])
    assert legal(with_then(pos, ["fort"])) == {(12, 12), I(0, 0), I(3, 3)}
    g = game(with_then(pos, ["fort", I(0, 0)]))
    assert own(g, 0) == {S, I(0, 0)}


# --------------------------------------------------------------------------- Harvest

HARVEST = ("harvest", "island")


def harvest_place(kx, kind, cells=None, island=None, **kwargs):
    return place(kx, "L", cells, island, expansions=HARVEST, locations={L: kind}, **kwargs)


def test_QI1_mountain_station_reaches_island_hexes_next_to_island_mountains(kx):
    # MOUNTAIN_STATION: S's neighbours are mountain or the location, so nothing is both adjacent and buildable -> every
    # free suitable hex next to a mountain: on the mountain-filled board MAND_F and OPP_C; on the mountain-filled
    # island its grass I(0,0), canyon I(2,2), forest I(1,1) and desert I(4,3) (each touches an island mountain)
    island = {(0, 0): "G", (2, 2): "C", (1, 1): "T", (4, 3): "D"}
    pos = harvest_place(kx, "mountain_station", {}, island)
    assert legal(with_then(pos, ["mountain_station"])) == {*MAND_F_HEXES, *OPP_C_HEXES, I(0, 0), I(2, 2), I(1, 1),
                                                            I(4, 3)}


def test_QI1_watchtower_reaches_island_hexes_next_to_another_players_island_settlement(kx):
    # WATCHTOWER: player 1's only settlement is I(2, 2); its neighbours (even line) (2,1) (2,3) (1,1) (1,2) (3,1) (3,2);
    # of them (2, 1) grass and (1, 2) desert are suitable; (3, 3) forest is not next to it; nothing touches S
    assert inb(2, 2) == {I(2, 1), I(2, 3), I(1, 1), I(1, 2), I(3, 1), I(3, 2)}
    island = {(2, 2): "C", (2, 1): "G", (1, 2): "D", (3, 3): "T"}
    pos = harvest_place(kx, "watchtower", {}, island, settlements=((S,), (I(2, 2),)))
    assert legal(with_then(pos, ["watchtower"])) == {I(2, 1), I(1, 2)}


def test_QI1_university_reaches_island_hexes_next_to_the_islands_location(kx):
    # UNIVERSITY: the island's location hex I(1, 1) (a rope bridge) counts as a location; its neighbours (odd line)
    # (1,0) (1,2) (0,1) (0,2) (2,1) (2,2): (1, 0) grass and (2, 2) desert are suitable, (3, 3) grass is not next to
    # it. On the board the only location is L, whose neighbours are S and mountains
    island = {(1, 0): "G", (2, 2): "D", (3, 3): "G"}
    pos = harvest_place(kx, "university", {}, island, island_locations={(1, 1): "rope_bridge"})
    assert legal(with_then(pos, ["university"])) == {I(1, 0), I(2, 2)}


def test_QI1_cathedral_builds_reach_the_island(kx):
    # CATHEDRAL: return 2 -> 2 builds on the card's desert, adjacent if possible: the 1st anywhere (no desert touches
    # S): (12, 12), I(0,0), I(0,1), I(3,3); after I(0, 0) the 2nd must touch it: I(0, 1), or stop (DONE)
    island = {(0, 0): "D", (0, 1): "D", (3, 3): "D"}
    pos = harvest_place(kx, "cathedral", {(12, 12): "D"}, island, card="D", extra={"number_tiles": [2, 0]})
    assert legal(with_then(pos, ["cathedral", RETURN])) == {(12, 12), I(0, 0), I(0, 1), I(3, 3)}
    assert legal(with_then(pos, ["cathedral", RETURN, I(0, 0)])) == {I(0, 1), DONE}
    g = game(with_then(pos, ["cathedral", RETURN, I(0, 0), I(0, 1)]))
    assert own(g, 0) == {S, I(0, 0), I(0, 1)} and g.supply(0) == 40 - 3


# --------------------------------------------------------------------------- Marshlands

MARSHLANDS = ("marshlands", "island")
L2 = (4, 5)  # a second location hex next to S (odd row 5: (4, 5) is a neighbour)


def marsh_place(kx, kind, cells=None, island=None, **kwargs):
    """Player 0 holds both tiles of `kind` (L and L2) and its bonus tile (M-7)."""
    board = {**MAND_F, S: "G", L: "L", L2: "L", **(cells or {})}
    extra = {"locations": {f"{r},{c}": kind for r, c in (L, L2)}, "bonus_tiles": [[kind], []]}
    return ipos(kx, board, settlements=[[S], []], island=island or {}, tiles=[[L, L2], []], expansions=MARSHLANDS,
                extra=extra, **kwargs)


def test_QI1_temple_bonus_first_mandatory_build_may_go_to_the_island(kx):
    # TEMPLE_BONUS: card grass; (5, 4) touches S, but the first build may go to any free grass: (15, 5) or the
    # island's I(1, 2); after I(1, 2) the next must touch own: (5, 4) next to S, I(1, 3) next to I(1, 2) (inb)
    assert I(1, 3) in inb(1, 2)
    pos = marsh_place(kx, "temple", {(5, 4): "G", (15, 5): "G"}, {(1, 2): "G", (1, 3): "G", (3, 0): "G"}, card="G")
    assert legal(pos) == {(5, 4), (15, 5), I(1, 2), I(1, 3), I(3, 0), "temple"}
    assert legal(with_then(pos, [I(1, 2)])) == {(5, 4), I(1, 3)}


def test_QI1_canoe_bonus_goes_to_island_water(kx):
    # CANOE_BONUS: no swamp or water touches S -> any free swamp or water: board swamp (8, 8), water (14, 2), and
    # the island's water I(4, 3) (the island has no swamp)
    pos = marsh_place(kx, "canoe", {(8, 8): "S", (14, 2): "W"}, {(4, 3): "W", (0, 0): "G"}, card="F")
    assert legal(pos) == {*MAND_F_HEXES, "canoe_bonus"}
    assert legal(with_then(pos, ["canoe_bonus"])) == {(8, 8), (14, 2), I(4, 3)}
    g = game(with_then(pos, ["canoe_bonus", I(4, 3)]))
    assert own(g, 0) == {S, I(4, 3)}
