"""Marshlands Refuge and Refuge bonus (M-14, M-15, A-M9).

Player 0's card is forest with ``MAND_T`` = (18, 0) (18, 1) (18, 2); player 1 holds canyon with ``OPP_C`` =
(16, 0) (16, 1) (16, 2). For the bonus tests player 0 holds two refuge tiles, from the refuge hexes (2, 2) and
(2, 16) through its settlements (2, 3) and (2, 17), and the refuge bonus tile; everything else is mountain unless
a test names it. Straight lines ("rays") follow the six hex directions of the odd-r layout (docs/api.md): from an
even row, north-east is (r-1, c), south-west (r+1, c-1); from an odd row, north-east is (r-1, c+1), south-west
(r+1, c). The rays of (2, 3) and (2, 17) meet no free buildable hex in any of the positions below.

Rule text quoted (the comments below name these):

REFUGE (EN 1167): "Relocate one of your previously built settlements to an adjacent unoccupied hex suitable to be
    built upon; this hex does not have to be adjacent to one of your previously built settlements."
REFUGE_BONUS (EN 1173): "Relocate one of your previously built settlements in a straight line from its current
    location to the next unoccupied hex suitable to be built upon."
EXAMPLE_1177 (EN 1177): "Example: Using his refuge bonus action, Frank (orange) relocates his settlement, jumping
    over the location space and Ani's settlements (blue) to land next to the temple location and claim his second
    temple location tile, thus gaining the temple bonus action."
A_M9 (spec A-M9): "In each of the 6 directions, skip hexes that are not eligible (anything, including water,
    specials and pieces) and land on the first eligible hex. A direction with none before the edge is not an option.
    At least one hex of movement. A warrior zone hex is not eligible, so it is skipped."
"""

import pytest

from tests.rules.marshlands.helpers import bonus_held, mpos

RH = (10, 10)
HOME = (10, 11)
X = (5, 5)
Y = (4, 7)


def refuge_position(kx, then=None):
    """Refuge tile through HOME. Around X = (5, 5): (5, 4) grass, (5, 6) swamp, (4, 5) water, (4, 6) canyon,
    (6, 5) mountain, (6, 6) player 1's settlement. Y = (4, 7) touches (4, 6) and (5, 6). HOME touches the free
    desert (10, 12)."""
    cells = {**kx.MAND_T, HOME: "G", (10, 12): "D", X: "G", Y: "G", (5, 4): "G", (5, 6): "S", (4, 5): "W",
             (4, 6): "C", (6, 6): "G"}
    return mpos(kx, cells, settlements=[[HOME, X, Y], [(6, 6)]], card="T", locations={RH: "refuge"},
                tiles=[[RH], []], then=then)


def test_M14_refuge_moves_to_any_eligible_neighbour(kx):
    # REFUGE: sources = own settlements with a free suitable neighbour: HOME ((10, 12)), X, Y.
    pos = refuge_position(kx)
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"refuge"}
    out = kx.answer(kx.with_then(pos, ["refuge"]))
    assert out["phase"] == "choose_source" and out["legal"] == {HOME, X, Y}
    # "does not have to be adjacent": (5, 4) touches no other own settlement and is legal although (4, 6) and
    # (5, 6) touch Y (an adjacent-if-possible rule would leave only those two). Not water, mountain, occupied.
    out = kx.answer(kx.with_then(pos, ["refuge", X]))
    assert out["phase"] == "choose_target" and out["legal"] == {(5, 4), (5, 6), (4, 6)}
    g = kx.game(kx.with_then(pos, ["refuge", X, (5, 6)]))
    assert kx.settlements(g, 0) == {HOME, Y, (5, 6)}                 # moved onto the swamp
    assert g.supply(0) == 40 - 3                                     # a move, not a build
    assert kx.legal(kx.with_then(pos, ["refuge", X, (5, 6)])) == kx.MAND_T_HEXES


@pytest.mark.parametrize("target", [(4, 5), (6, 5), (6, 6), (18, 0), (10, 12)], ids=["water", "mountain", "occupied",
                                                                                   "far", "far-desert"])
def test_M14_illegal_refuge_targets_are_refused(kx, target):
    kx.then_error(refuge_position(kx, then=["refuge", X, target]), 2)


def test_M14_moving_away_from_the_refuge_hex_loses_the_tile(kx):
    # base tile rule (EN 217): HOME is the only settlement next to RH; after moving it to (10, 12) the tile is gone
    g = kx.game(refuge_position(kx, then=["refuge", HOME, (10, 12)]))
    assert kx.tiles(g, 0) == []
    assert kx.settlements(g, 0) == {(10, 12), X, Y}


# --------------------------------------------------------------------------- M-15 refuge bonus

REFUGE_TILES = {(2, 2): "refuge", (2, 16): "refuge"}
REFUGE_OWN = [(2, 3), (2, 17)]
F = (12, 2)


def example_1177(kx, then=None):
    """EXAMPLE_1177 on a hand-built row 12: F = (12, 2) (player 0), (12, 3) a location hex without tiles (a canoe
    hex), (12, 4) (12, 5) player 1's settlements, (12, 6) mountain, (12, 7) free grass, (12, 8) a temple hex,
    (12, 9) free grass. Player 0 already holds one temple tile, from (6, 18) through (6, 17)."""
    cells = {**kx.MAND_T, F: "G", (12, 4): "G", (12, 5): "G", (12, 7): "G", (12, 9): "G", (6, 17): "G",
             **{h: "G" for h in REFUGE_OWN}}
    locations = {**REFUGE_TILES, (12, 3): "canoe", (12, 8): "temple", (6, 18): "temple"}
    return mpos(kx, cells, settlements=[[F, (6, 17), *REFUGE_OWN], [(12, 4), (12, 5)]], card="T",
                locations=locations, tiles=[[(2, 2), (2, 16), (6, 18)], []], tiles_left={(12, 3): 0},
                bonus_tiles=[["refuge"], []], then=then)


def test_M15_en1177_jump_over_a_location_and_opponents(kx):
    # REFUGE_BONUS / A_M9. Rays of F: east (12, 3) location, (12, 4) (12, 5) occupied, (12, 6) mountain -> lands
    # on (12, 7); west: mountains to the edge -> none; south-west (13, 1) (14, 1) (15, 0) -> (16, 0) (player 1's
    # free canyon); north-east, north-west, south-east: no free suitable hex before the edge.
    # The plain refuge has no target (every neighbour of every own settlement is mountain or a location), so it is
    # not offered. The temple tile of (6, 18), held since before this turn, is usable (EN 1148: any own settlement
    # may be removed), so "temple" is offered too.
    pos = example_1177(kx)
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"refuge_bonus", "temple"}
    out = kx.answer(kx.with_then(pos, ["refuge_bonus"]))
    assert out["phase"] == "choose_source" and out["legal"] == {F}
    out = kx.answer(kx.with_then(pos, ["refuge_bonus", F]))
    assert out["phase"] == "choose_target" and out["legal"] == {(12, 7), (16, 0)}
    g = kx.game(kx.with_then(pos, ["refuge_bonus", F, (12, 7)]))
    assert kx.settlements(g, 0) == {(12, 7), (6, 17), *REFUGE_OWN}
    # "claim his second temple location tile, thus gaining the temple bonus action"
    assert kx.tiles(g, 0) == [("refuge", (2, 2)), ("refuge", (2, 16)), ("temple", (6, 18)), ("temple", (12, 8))]
    assert bonus_held(g, 0) == {"refuge", "temple"}
    assert g.tiles_left((12, 8)) == 1
    assert g.supply(0) == 40 - 4
    # the bonus is used for this turn; the plain refuge still has no target; the first temple tile stays usable
    assert kx.legal(kx.with_then(pos, ["refuge_bonus", F, (12, 7)])) == kx.MAND_T_HEXES | {"temple"}


@pytest.mark.parametrize("target", [(12, 9), (12, 6), (12, 4), (18, 0)], ids=["beyond-the-first", "mountain",
                                                                             "occupied", "off-the-line"])
def test_M15_only_the_first_eligible_hex_of_a_line(kx, target):
    kx.then_error(example_1177(kx, then=["refuge_bonus", F, target]), 2)


def test_A_M9_one_step_and_long_jumps_in_every_direction(kx):
    # A_M9: Z = (8, 8) with the refuge bonus. East (8, 9) is free grass: one step. West: (8, 7) water, (8, 6)
    # mountain, (8, 5) free swamp. North-east: (7, 8) a castle, (6, 9) free grass. South-east: (9, 8) player 1's
    # settlement, (10, 9) free grass. North-west (7, 7) (6, 7) (5, 6) ... and south-west (9, 7) (10, 7) (11, 6) ...:
    # no free suitable hex before the edge.
    z = (8, 8)
    cells = {**kx.MAND_T, z: "G", (8, 9): "G", (8, 7): "W", (8, 5): "S", (7, 8): "K", (6, 9): "G", (9, 8): "G",
             (10, 9): "G", **{h: "G" for h in REFUGE_OWN}}
    pos = mpos(kx, cells, settlements=[[z, *REFUGE_OWN], [(9, 8)]], card="T", locations=REFUGE_TILES,
               tiles=[list(REFUGE_TILES), []], bonus_tiles=[["refuge"], []])
    # the plain refuge: z's only free suitable neighbour is (8, 9)
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"refuge", "refuge_bonus"}
    assert kx.legal(kx.with_then(pos, ["refuge", z])) == {(8, 9)}
    assert kx.legal(kx.with_then(pos, ["refuge_bonus"])) == {z}
    assert kx.legal(kx.with_then(pos, ["refuge_bonus", z])) == {(8, 9), (8, 5), (6, 9), (10, 9)}
    # after the jump to (10, 9) (even row: (10, 8) (10, 10) (9, 8) (9, 9) (11, 8) (11, 9), none free and suitable)
    # no plain refuge is possible and the bonus is spent
    assert kx.legal(kx.with_then(pos, ["refuge_bonus", z, (10, 9)])) == kx.MAND_T_HEXES
    after = kx.with_then(pos, ["refuge_bonus", z, (8, 5)])
    # from (8, 5) (even row) the neighbours (8, 4) (8, 6) (7, 4) (7, 5) (9, 4) (9, 5) are all mountain: still no
    # plain refuge target; the bonus is spent
    assert kx.legal(after) == kx.MAND_T_HEXES
    # the second refuge tile is still usable (EN 1097: "perform that extra action twice"): from (8, 9) the refuge can
    # step back onto z = (8, 8), which the first refuge left free
    assert kx.legal(kx.with_then(pos, ["refuge", z, (8, 9)])) == kx.MAND_T_HEXES | {"refuge", "refuge_bonus"}
