"""Harvest Cathedral and the number tiles (H-10, H-2, A-H5).

Mountain-filled board. Player 0's settlement ``C1`` = (10, 10) holds the cathedral tile of ``CH`` = (10, 9). Its card
is forest: ``FOREST_ROW`` = (10, 11) .. (10, 15) (each touches the one before; (10, 11) touches C1) and ``MAND_T``
(18, 0) (18, 1) (18, 2) far away; the grass (11, 10) touches C1. Player 1 holds canyon with ``OPP_C``. The number
tiles a player holds are given and read as their total value (A-H5 a; ``number_tiles``, HA4); the pool is 8 tiles
of value 1 and 2 of value 5 (18 in all).

Rule text quoted (the comments below name these):

CATHEDRAL (EN 1343): "The number tiles are needed for this extra action. During their turn, the player may either
    take one more tile or return any number of tiles in order to build that same number of settlements upon suitable
    terrain spaces, according to the drawn terrain card. These must be built connecting to existing settlements of
    that player, if possible. When a player takes a cathedral tile he also takes a number 1 settlement tile."
CATHEDRAL_DE (DE 1600): "Bekommt ein Spieler den Dom, erhält er ebenfalls ein Siedlungsplättchen mit dem Wert 1."
NUMBER_TILES (EN 1241): "10 Settlement tiles"
NUMBER_TILES_DE (DE 1407): "2x 5er: 8x 1er:"
H_2 (EN 1258): "If the cathedral is included in the game, put the number tiles next to the game board."
A_H5 (spec A-H5): "'take one more tile' = a value-1 tile. (a) by value: tiles summing to N allow N builds; the
    5-tiles are change for five 1s. Default (a): a per-player token value, pool limits 8 ones + 2 fives. Builds use
    the turn's terrain, adjacent if possible, and come from the supply. Return-and-build is one action with k builds
    (DONE may stop early; unbuilt tokens are kept (R)). 'When a player takes a cathedral tile' = when the location
    tile is seized: +1 token at once."
"""

import pytest

from tests.rules.harvest.helpers import DONE, POOL_VALUE, RETURN, TAKE, hpos, number_tiles, requires_harvest

pytestmark = requires_harvest


C1 = (10, 10)
CH = (10, 9)
FOREST_ROW = [(10, 11), (10, 12), (10, 13), (10, 14), (10, 15)]


def cathedral_position(kx, values, then=None):
    cells = {**kx.MAND_T, C1: "G", (11, 10): "G", **{h: "T" for h in FOREST_ROW}}
    return hpos(kx, cells, settlements=[[C1], []], card="T", locations={CH: "cathedral"}, tiles=[[CH], []],
                number_tiles=values, then=then)


def test_H10_take_or_return(kx):
    # CATHEDRAL "either take one more tile or return any number of tiles"
    pos = cathedral_position(kx, [2, 0])
    assert kx.legal(pos) == {FOREST_ROW[0], "cathedral"}        # the mandatory start must touch C1
    assert kx.legal(kx.with_then(pos, ["cathedral"])) == {TAKE, RETURN}


def test_A_H5_take_adds_a_one(kx):
    # A_H5 "'take one more tile' = a value-1 tile"; once per turn with one cathedral tile
    g = kx.game(cathedral_position(kx, [2, 0], then=["cathedral", TAKE]))
    assert number_tiles(g, 0) == 3
    assert kx.legal(cathedral_position(kx, [2, 0], then=["cathedral", TAKE])) == {FOREST_ROW[0]}


def test_H10_return_k_to_build_k_on_the_card_terrain_adjacent_if_possible(kx):
    # CATHEDRAL "return any number of tiles in order to build that same number of settlements ... according to the
    # drawn terrain card ... connecting ..., if possible": value 2 -> 2 forest builds, each adjacent: (10, 11) then
    # (10, 12); MAND_T and the grass (11, 10) are no targets
    pos = cathedral_position(kx, [2, 0], then=["cathedral", RETURN])
    assert kx.legal(pos) == {FOREST_ROW[0]}
    assert kx.legal(cathedral_position(kx, [2, 0], then=["cathedral", RETURN, FOREST_ROW[0]])) == {FOREST_ROW[1], DONE}
    done = cathedral_position(kx, [2, 0], then=["cathedral", RETURN, *FOREST_ROW[:2]])
    g = kx.game(done)
    assert number_tiles(g, 0) == 0
    assert kx.settlements(g, 0) == {C1, *FOREST_ROW[:2]}
    assert g.supply(0) == 40 - 1 - 2                   # from the supply: 37
    # the value is spent: the power is over, the mandatory action goes on from (10, 13)
    assert kx.legal(done) == {FOREST_ROW[2]}


def test_A_H5_done_keeps_the_rest(kx):
    # A_H5 "DONE may stop early; unbuilt tokens are kept (R)": value 3, one build, DONE -> 2 left
    g = kx.game(cathedral_position(kx, [3, 0], then=["cathedral", RETURN, FOREST_ROW[0], DONE]))
    assert number_tiles(g, 0) == 2
    assert kx.settlements(g, 0) == {C1, FOREST_ROW[0]}


def test_A_H5_a_five_builds_five(kx):
    # A_H5 (a) "by value: tiles summing to N allow N builds": one tile worth 5 -> 5 forest builds
    then = ["cathedral", RETURN, *FOREST_ROW]
    g = kx.game(cathedral_position(kx, [5, 0], then=then))
    assert number_tiles(g, 0) == 0
    assert kx.settlements(g, 0) == {C1, *FOREST_ROW}
    assert g.supply(0) == 40 - 1 - 5
    # FOREST_ROW is full and nothing else of forest touches own: the mandatory action may start anywhere on MAND_T
    assert kx.legal(cathedral_position(kx, [5, 0], then=then)) == kx.MAND_T_HEXES


@pytest.mark.parametrize("target", [(18, 0), (11, 10), FOREST_ROW[1], C1])
def test_H10_illegal_cathedral_builds_are_refused(kx, target):
    # not adjacent although possible, grass (not the card), not touching own, occupied
    kx.then_error(cathedral_position(kx, [2, 0], then=["cathedral", RETURN, target]), 2)


def test_A_H5_nothing_to_return_only_take(kx):
    # HA8: with no value held "return" has no completion
    assert kx.legal(cathedral_position(kx, [0, 0], then=["cathedral"])) == {TAKE}
    kx.then_error(cathedral_position(kx, [0, 0], then=["cathedral", RETURN]), 1)


def test_A_H5_pool_limits(kx):
    # NUMBER_TILES_DE "2x 5er: 8x 1er" / A_H5 "pool limits 8 ones + 2 fives" (18 in all).
    # 2 + 16 = 18: every tile is held -> nothing to take
    assert kx.legal(cathedral_position(kx, [2, POOL_VALUE - 2], then=["cathedral"])) == {RETURN}
    # 2 + 15 = 17: 15 = 5 + 5 + five ones and 2 = two ones -> one 1 is left
    assert kx.legal(cathedral_position(kx, [2, POOL_VALUE - 3], then=["cathedral"])) == {TAKE, RETURN}
    # 0 + 18: nothing to take, nothing to return -> the cathedral has no completion
    assert kx.legal(cathedral_position(kx, [0, POOL_VALUE])) == {FOREST_ROW[0]}
    # more than the pool is refused (HA16)
    kx.setup_error(cathedral_position(kx, [10, 9]), "number_tiles")


def test_H10_seizing_the_cathedral_tile_gives_a_one(kx):
    # CATHEDRAL "When a player takes a cathedral tile he also takes a number 1 settlement tile" / CATHEDRAL_DE /
    # A_H5 "+1 token at once": the first forest build (14, 0) touches the cathedral hex (13, 0)
    cells = {(14, 0): "T", (14, 1): "T", (14, 2): "T"}
    pos = hpos(kx, cells, settlements=[[], []], card="T", locations={(13, 0): "cathedral"}, then=[(14, 0)])
    g = kx.game(pos)
    assert kx.tiles(g, 0) == [("cathedral", (13, 0))]
    assert number_tiles(g, 0) == 1
    # (14, 1) touches (13, 0) too: one tile per location hex, one number tile
    g = kx.game(kx.with_then(pos, [(14, 0), (14, 1), (14, 2)]))
    assert number_tiles(g, 0) == 1
    assert g.tiles_left((13, 0)) == 1


def test_H2_a_new_game_starts_without_number_tiles(kx):
    # H_2: the number tiles lie next to the board; nobody holds one
    g = kx.game(cathedral_position(kx, None))
    assert number_tiles(g, 0) == 0 and number_tiles(g, 1) == 0
