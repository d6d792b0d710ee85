"""Marshlands location tiles and bonus tiles (M-2, M-7, A-M4).

How a bonus tile is written in a position (``"bonus_tiles"``), read back (``bonus_held``, ``bonus_ready``) and
validated is assumption A4 of ``marshlands_helpers``. Unless a test says otherwise the board is water-filled
(``fill="W"``), player 0 holds grass, and the grass row ``ROW`` = (4, 5) (4, 6) (4, 7) is its mandatory area:
(4, 5) touches the location hex (4, 4); player 1 holds canyon with ``OPP_C``.

Rule text quoted (the comments below name these):

LOCATION_TILES (EN 1059): "Stack two location tiles on each corresponding location space, and place the bonus action
    tiles on the appropriate summary cards."
COMPONENTS (EN 990-1012): "16 location tiles: 4x temple 4x refuge 4x canoe 4x fountain; 8 bonus action tiles: 2x
    temple 2x refuge 2x canoe 2x fountain"
BONUS (EN 1095-1099): "When a player takes a second location tile of the same type, they also take the bonus action
    tile from the corresponding bonus action summary card. Now the player can not only perform that extra action
    twice during each game round, but they can also perform the additional bonus action as well. As with extra
    actions, a bonus action may be performed before or after the mandatory action."
A_M4 (spec A-M4): "Taken only with the 2nd tile of the same type, and only while bonus tiles of that type are left
    (2 per type). Usable from the next turn. Losing one of the two location tiles: (a) keep the bonus, (b) lose it
    (out of the game, like tiles). Default (b), flag KEEP_BONUS."
"""

import pytest

from tests.rules.marshlands.helpers import FLAGS, MARSH_TYPES, bonus_held, bonus_ready, flag, mpos, state

L1 = (10, 10)
A = (10, 11)
L2 = (4, 4)
ROW = [(4, 5), (4, 6), (4, 7)]


@pytest.mark.parametrize("kind", MARSH_TYPES)
def test_M2_a_marshlands_location_hex_starts_with_two_tiles(kx, kind):
    # LOCATION_TILES: nobody holds a tile of (4, 4) -> 2 tiles; building (4, 5) takes one
    pos = mpos(kx, {h: "G" for h in ROW}, fill="W", settlements=[[], []], locations={L2: kind})
    g = kx.game(pos)
    assert g.tiles_left(L2) == 2
    g = kx.game(kx.with_then(pos, ROW))
    assert kx.tiles(g, 0) == [(kind, L2)]
    assert g.tiles_left(L2) == 1


@pytest.mark.parametrize("kind", MARSH_TYPES)
def test_M7_the_second_tile_of_a_type_brings_its_bonus_tile(kx, kind):
    # BONUS / A_M4: player 0 holds the tile of L1 (through A) and takes the second one of the same type at L2 with
    # the first build of its mandatory action (read before the turn is over)
    cells = {A: "G", **{h: "G" for h in ROW}}
    pos = mpos(kx, cells, fill="W", settlements=[[A], []], locations={L1: kind, L2: kind}, tiles=[[L1], []],
               then=ROW[:1])
    g = kx.game(pos)
    assert kx.tiles(g, 0) == [(kind, L2), (kind, L1)]
    assert bonus_held(g, 0) == {kind}
    assert bonus_ready(g, 0) == set()                    # A_M4: usable from the next turn


@pytest.mark.parametrize("kind", MARSH_TYPES)
def test_M7_two_tiles_of_different_types_bring_no_bonus(kx, kind):
    other = MARSH_TYPES[(MARSH_TYPES.index(kind) + 1) % 4]
    cells = {A: "G", **{h: "G" for h in ROW}}
    pos = mpos(kx, cells, fill="W", settlements=[[A], []], locations={L1: kind, L2: other}, tiles=[[L1], []],
               then=ROW[:1])
    g = kx.game(pos)
    assert kx.tiles(g, 0) == sorted([(kind, L1), (other, L2)])
    assert bonus_held(g, 0) == set()


def test_M7_base_location_pairs_bring_no_bonus(kx):
    # bonus tiles exist for the 4 Marshlands types only (COMPONENTS): two oracle tiles give none
    cells = {A: "G", **{h: "G" for h in ROW}}
    pos = mpos(kx, cells, fill="W", settlements=[[A], []], locations={L1: "oracle", L2: "oracle"}, tiles=[[L1], []],
               then=ROW[:1])
    g = kx.game(pos)
    assert len(kx.tiles(g, 0)) == 2 and bonus_held(g, 0) == set()


def three_player_cells():
    """Player 1 holds the tiles of (2, 3) and (2, 5) through (2, 4); player 2 those of (6, 3) and (6, 5) through
    (6, 4); player 0 the tile of L1 through A, and takes L2's with (4, 5). A hand-built board may have more than
    two location hexes of a type; the bonus tiles stay 2 per type."""
    return {A: "G", (2, 4): "G", (6, 4): "G", **{h: "G" for h in ROW}}


@pytest.mark.parametrize("kind", MARSH_TYPES)
def test_A_M4_no_bonus_when_both_bonus_tiles_of_the_type_are_taken(kx, kind):
    # A_M4 "only while bonus tiles of that type are left (2 per type)": players 1 and 2 hold both bonus tiles
    locations = {L1: kind, L2: kind, (2, 3): kind, (2, 5): kind, (6, 3): kind, (6, 5): kind}
    pos = mpos(kx, three_player_cells(), fill="W", settlements=[[A], [(2, 4)], [(6, 4)]], locations=locations,
               hands=["G", "C", "C"], tiles=[[L1], [(2, 3), (2, 5)], [(6, 3), (6, 5)]],
               bonus_tiles=[[], [kind], [kind]], then=ROW[:1])
    g = kx.game(pos)
    assert len(kx.tiles(g, 0)) == 2
    assert bonus_held(g, 0) == set()
    assert bonus_ready(g, 1) == {kind} and bonus_ready(g, 2) == {kind}


def test_A_M4_a_third_bonus_tile_of_a_type_is_refused(kx):
    locations = {L1: "canoe", L2: "canoe", (2, 3): "canoe", (2, 5): "canoe", (6, 3): "canoe", (6, 5): "canoe"}
    cells = {**three_player_cells(), (4, 5): "G"}
    pos = mpos(kx, cells, fill="W", settlements=[[A, (4, 5)], [(2, 4)], [(6, 4)]], locations=locations,
               hands=["G", "C", "C"], tiles=[[L1, L2], [(2, 3), (2, 5)], [(6, 3), (6, 5)]],
               bonus_tiles=[["canoe"], ["canoe"], ["canoe"]])
    kx.setup_error(pos, "bonus_tiles")


def test_A_M4_a_bonus_tile_needs_two_tiles_of_its_type(kx):
    pos = mpos(kx, {A: "G"}, fill="W", settlements=[[A], []], locations={L1: "temple"}, tiles=[[L1], []],
               bonus_tiles=[["temple"], []])
    kx.setup_error(pos, "bonus_tiles")
    pos = mpos(kx, {A: "G"}, fill="W", settlements=[[A], []], locations={L1: "temple"}, tiles=[[L1], []],
               bonus_tiles=[["palace"], []])
    kx.setup_error(pos, "bonus_tiles")


# --------------------------------------------------------------------------- A-M4 losing a tile


def loss_position(kx, options=None, then=None):
    """Fill mountain, forest card with MAND_T. Refuge tiles from (4, 4) through (4, 5) and from L1 = (10, 10)
    through A = (10, 11); A touches the free grass (10, 12), (4, 5) touches nothing free. Refuge bonus held."""
    cells = {**kx.MAND_T, A: "G", (10, 12): "G", (4, 5): "G"}
    return mpos(kx, cells, settlements=[[A, (4, 5)], []], card="T", locations={L1: "refuge", L2: "refuge"},
                tiles=[[L1, L2], []], bonus_tiles=[["refuge"], []], options=options, then=then)


def test_M7_bonus_action_before_or_after_the_mandatory_action(kx):
    # BONUS "a bonus action may be performed before or after the mandatory action": the refuge bonus moves A along
    # its east line to (10, 12) (the first free suitable hex)
    pos = loss_position(kx)
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"refuge", "refuge_bonus"}
    after = kx.with_then(pos, kx.MAND_T_BUILDS)
    assert kx.legal(after) == {"refuge", "refuge_bonus", "end_turn"}


def test_A_M4_losing_one_of_the_two_tiles_loses_the_bonus(kx):
    # A_M4 default (b): the refuge moves A to (10, 12), which does not touch L1: the tile of L1 is lost, and with it
    # the bonus. The refuge used the tile of the lowest-numbered hex (4, 4) (docs/rules-readings.md), so no refuge
    # and no refuge bonus is left this turn.
    pos = loss_position(kx, then=["refuge", A, (10, 12)])
    g = kx.game(pos)
    assert kx.tiles(g, 0) == [("refuge", L2)]
    assert bonus_held(g, 0) == set()
    assert kx.legal(pos) == kx.MAND_T_HEXES
    assert "refuge" not in state(g).get("bonus_tiles", [[], []])[0]


def test_A_M4_flag_keeps_the_bonus_after_a_tile_loss(kx):
    # A_M4 alternative (a), the rule flag FLAGS["A-M4"]: the bonus stays; from (10, 12) the refuge bonus can jump
    # back west to (10, 11)
    assert FLAGS["A-M4"] == "bonus_kept_after_tile_loss"
    pos = loss_position(kx, options=flag("A-M4"), then=["refuge", A, (10, 12)])
    g = kx.game(pos)
    assert kx.tiles(g, 0) == [("refuge", L2)]
    assert bonus_ready(g, 0) == {"refuge"}
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"refuge_bonus"}
    assert kx.legal(kx.with_then(pos, ["refuge", A, (10, 12), "refuge_bonus", (10, 12)])) == {A}
