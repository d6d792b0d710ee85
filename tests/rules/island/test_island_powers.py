"""The Island's location: Rope bridge (QI-3) and Tree house (QI-4), its two tiles (set-up) and tile timing (X-6).

Shared layout (both powers, ``X`` = canyon for the Rope bridge, forest for the Tree house): the island's location hex
``LOC`` = I(2,2); player 0 holds its tile through ``SI`` = I(2,1) (grass, touches I(2,2)) and has ``S`` = (5, 5) and
``S2`` = (5, 7) on the board. ``X`` hexes: board (4, 6) (touches S only: S's neighbours are (5,4) (5,6) (4,5) (4,6)
(6,5) (6,6); S2's are (5,6) (5,8) (4,7) (4,8) (6,7) (6,8)), board (12, 12) (touches nothing), island I(3,1) (touches
SI: inb(2, 1) = I(2,0) I(2,2) I(1,0) I(1,1) I(3,0) I(3,1)) and island I(0,0) (touches nothing own). Player 0's
card is flower with ``MAND_F`` (12, 3) (12, 4) (12, 5), so the mandatory hexes never mix with the targets.

Rule text quoted (the comments below name these):

SETUP (EN 1443): "Place the island next to the game board. Put 2 corresponding location tiles on the location hex
    and place the corresponding summary of location tile next to the island."
TILE_TIMING (spec X-6 (EN 213-217, 179-183)): "A location tile is taken immediately when a settlement is built or
    moved next to the location hex. It can be used 'from their next turn on', once per turn, and is lost when no own
    settlement stays adjacent."
"""

import pytest

from tests.rules.island.helpers import (
    CHOOSE_SOURCE,
    CHOOSE_TARGET,
    POWERS,
    I,
    answer,
    game,
    held_tiles,
    inb,
    ipos,
    legal,
    own,
    requires_island,
    then_error,
    tiles_left,
    with_then,
)

pytestmark = requires_island

ROPE_BRIDGE = "Move any of your existing settlements to a canyon hex. Must be adjacent to your settlements if possible."
TREE_HOUSE = "Move any of your existing settlements to a forest hex. Must be adjacent to your settlements if possible."
# EN 1456 / 1462; DE 1710-1723: "Eine beliebige eigene Siedlung auf ein Canyonfeld / Waldfeld versetzen, es muss wenn
# möglich, angrenzend gebaut werden."
APPLY = "New location tiles and there extra actions - Apply the building rules of the basic game"  # EN 1452

LOC = (2, 2)
S, S2, SI = (5, 5), (5, 7), I(2, 1)
MAND_F = {(12, 3): "F", (12, 4): "F", (12, 5): "F"}
MAND_F_HEXES = set(MAND_F)
PARAMS = [pytest.param("rope_bridge", "C", id="QI3-rope-bridge"), pytest.param("tree_house", "T", id="QI4-tree-house")]


def power_position(kx, power, x, adjacent=True, then=None, tiles=True):
    """The shared layout; ``adjacent=False`` drops (4, 6) and I(3, 1), so that no X hex touches own settlements."""
    cells = {S: "G", S2: "G", **MAND_F, (12, 12): x}
    island = {(2, 1): "G", (0, 0): x}
    if adjacent:
        cells[(4, 6)] = x
        island[(3, 1)] = x
    return ipos(kx, cells, settlements=[[S, S2, SI], []], card="F", island=island, island_locations={LOC: power},
                tiles=[[I(*LOC)], []] if tiles else None, then=then)


@pytest.mark.parametrize("power,x", PARAMS)
def test_QI3_QI4_the_power_is_offered_with_the_tile(kx, power, x):
    assert POWERS == ("rope_bridge", "tree_house")
    assert legal(power_position(kx, power, x)) == MAND_F_HEXES | {power}
    out = answer(power_position(kx, power, x, then=[power]))
    # every own settlement has a target ("any of your existing settlements")
    assert out["player"] == 0 and out["phase"] == CHOOSE_SOURCE and out["legal"] == {S, S2, SI}


@pytest.mark.parametrize("power,x", PARAMS)
def test_QI3_QI4_adjacent_if_possible_with_the_moved_settlement_lifted(kx, power, x):
    # S2 lifted: S touches (4, 6), SI touches I(3,1) -> both, nothing else
    assert I(3, 1) in inb(2, 1) and I(0, 0) not in inb(2, 1)
    out = answer(power_position(kx, power, x, then=[power, S2]))
    assert out["phase"] == CHOOSE_TARGET and out["legal"] == {(4, 6), I(3, 1)}
    # S lifted: (4, 6) touched only S -> I(3,1) (touches SI)
    assert legal(power_position(kx, power, x, then=[power, S])) == {I(3, 1)}
    # SI lifted: I(3,1) touched only SI; (4, 6) touches S -> (4, 6)
    assert legal(power_position(kx, power, x, then=[power, SI])) == {(4, 6)}


@pytest.mark.parametrize("power,x", PARAMS)
def test_QI3_QI4_QI1_not_adjacent_any_hex_of_the_terrain_board_or_island(kx, power, x):
    # without (4, 6) and I(3,1) no X hex touches own settlements -> every free X hex: (12, 12) and I(0,0), and for the
    # Rope bridge also the free canyon hexes (16, 0) (16, 1) (16, 2) of conftest's OPP_C (player 1 has no settlement
    # there): ROPE_BRIDGE "Move any of your existing settlements to a canyon hex" (EN 1456)
    opp_canyon = {(16, 0), (16, 1), (16, 2)} if x == "C" else set()
    assert legal(power_position(kx, power, x, adjacent=False, then=[power, S2])) == {(12, 12), I(0, 0)} | opp_canyon


@pytest.mark.parametrize("power,x", PARAMS)
def test_QI3_QI4_moving_the_settlement(kx, power, x):
    g = game(power_position(kx, power, x, then=[power, S2, I(3, 1)]))
    assert own(g, 0) == {S, SI, I(3, 1)}
    assert g.supply(0) == 40 - 3          # a move takes nothing from the supply
    # once per turn with one tile: the power is gone, the mandatory hexes stay
    assert legal(power_position(kx, power, x, then=[power, S2, I(3, 1)])) == MAND_F_HEXES


@pytest.mark.parametrize("power,x", PARAMS)
def test_QI3_QI4_illegal_targets_are_refused(kx, power, x):
    # with S2 lifted: (12, 12) and I(0,0) are X but not adjacent while adjacent is possible; I(2,0) is island mountain;
    # I(2,2) is the location hex; S is occupied; (5, 8) is board mountain; I(9, 9) is no island hex
    for target in [(12, 12), I(0, 0), I(2, 0), I(*LOC), S, (5, 8), I(9, 9)]:
        then_error(power_position(kx, power, x, then=[power, S2, target]), 2)


@pytest.mark.parametrize("power,x", PARAMS)
def test_QI3_QI4_the_other_power_is_not_offered(kx, power, x):
    # only the tile's own power: the other island power's name is refused
    other = next(p for p in POWERS if p != power)
    then_error(power_position(kx, power, x, then=[other]), 0)


@pytest.mark.parametrize("power,x", PARAMS)
def test_QI3_QI4_moving_away_from_the_location_loses_the_tile(kx, power, x):
    # TILE_TIMING: SI is player 0's only settlement next to I(2,2); moved to (4, 6) nothing own touches the location
    g = game(power_position(kx, power, x, then=[power, SI, (4, 6)]))
    assert own(g, 0) == {S, S2, (4, 6)}
    assert I(*LOC) not in held_tiles(g, 0)


@pytest.mark.parametrize("power,x", PARAMS)
def test_A_QI5_X6_the_location_hex_starts_with_2_tiles_and_a_build_takes_one(kx, power, x):
    # SETUP: 2 tiles on the island's location hex. Player 0 (no tile yet, flower card) has no flower next to own
    # settlements -> may start on the island's flower I(1,1), which touches I(2,2) (inb(2, 2)); the builds continue
    # I(1,0) (touches I(1,1)) and I(0,0) (touches I(1,0)); the tile is taken at once (X-6) -> 1 left
    assert I(1, 1) in inb(2, 2) and I(1, 0) in inb(1, 1) and I(0, 0) in inb(1, 0)
    island = {(1, 1): "F", (1, 0): "F", (0, 0): "F"}
    pos = ipos(kx, {S: "G"}, settlements=[[S], []], card="F", island=island, island_locations={LOC: power})
    assert tiles_left(game(pos), I(*LOC)) == 2
    assert legal(pos) == {I(1, 1), I(1, 0), I(0, 0)}
    g = game(with_then(pos, [I(1, 1), I(1, 0), I(0, 0)]))
    assert I(*LOC) in held_tiles(g, 0)
    assert tiles_left(g, I(*LOC)) == 2 - 1
    assert own(g, 0) == {S, I(1, 1), I(1, 0), I(0, 0)}


@pytest.mark.parametrize("power,x", PARAMS)
def test_QI3_QI4_X6_a_fresh_tile_waits_for_the_next_turn(kx, power, x):
    # X-6 "from their next turn on": with the tile taken in this turn (tiles_fresh) the power is not offered
    # (docs/api.md: "tiles_fresh" lists location hexes "of held tiles", so the fresh tile is in "tiles" too)
    pos = power_position(kx, power, x, tiles=False)
    pos["tiles"] = [[["island", *LOC]], []]
    pos["tiles_fresh"] = [[["island", *LOC]], []]
    assert legal(pos) == MAND_F_HEXES
