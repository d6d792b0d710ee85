"""Crossroads: Barracks and the warrior zone (C-10, C-12, A-C1, A-C2, A-C3, A-C5).

Positions are built on mountain-filled boards (conftest). Player 0's card is grass and ``MAND`` =
(18, 0) (18, 1) (18, 2) its mandatory area; player 1 holds desert with ``OPP_D`` = (16, 0) (16, 1) (16, 2).
Warriors are given per player in ``warriors``; the pieces on the board are read with ``g.pieces(p)``.

Zone geometry: a warrior on ``WZ`` = (10, 10) closes ``ZONE`` = (9, 9) (9, 10) (10, 9) (10, 11) (11, 9)
(11, 10). Player 0's settlement ``A`` = (10, 12) touches (10, 11) and no other zone hex.

Rule text quoted (the comments below name these):

BARRACKS (EN 872-876): "During each of your turns, you may choose one of these two options: Place one of your
    warriors on an empty space eligible for building. You must place this warrior adjacent to one of your
    settlements, if possible. Or Remove one of your warriors from the game board and place the token back into your
    supply. You may place this warrior on the game board again on a future turn."
ZONE_RULE (EN 878): "A warrior prevents all building and moving actions - whether by you or by any other player - on
    all spaces adjacent to it. Any existing settlements are not affected. After a warrior has been removed, the
    blocked spaces are once again eligible for building."
COUNT (EN 866): "Warriors, wagons and ships count as settlements."
PIECES (EN 776): "10 warriors - Two of each player color"
A_C1 (spec A-C1): "(a) The zone blocks every placement or move of any piece onto a zone hex ... (b) It blocks
    settlements only. Default (a); flag zone_blocks_settlements_only switches to (b)."
A_C2 (spec A-C2): "A warrior counts as a settlement (C-9), so the hexes next to it count as 'adjacent to own'. They
    are all blocked (C-12) ... Adjacency-if-possible is computed over eligible hexes only (X-5)."
A_C3 (spec A-C3): "Default: yes [placing a meeple seizes tiles] for placements and for meeple moves (per step)."
A_C5 (spec A-C5): "One warrior per use of the tile. A player holding two barracks tiles may place 2."
TG_MOVE_OUT (TG, spec C-12): "Warriors DO NOT prevent moving away from their area"
"""

import pytest

from tests.rules.crossroads.helpers import MAND, MAND_G, OPP_D_HEXES, READINGS, cpos


def warriors_of(g, p):
    return {tuple(h) for h in g.pieces(p)["warriors"]}


# --------------------------------------------------------------------------- C-10 barracks

BK = (10, 10)      # the barracks hex
HOME = (10, 11)       # player 0's settlement next to it; neighbours (10, 12) (9, 11) are buildable
FAR = (5, 5)       # a far canyon hex next to the oracle hex (5, 6)


def barracks_position(kx, adjacent=True, warriors=None, extra=None, own=(), tiles=(BK,), then=None, options=None):
    cells = {**MAND_G, BK: "k", HOME: "D", FAR: "C", (5, 6): "o"}
    if adjacent:
        cells.update({(10, 12): "F", (9, 11): "T"})
    cells.update(extra or {})
    return cpos(kx, cells, settlements=[[HOME, *own], []], tiles=[list(tiles), []], warriors=warriors, then=then,
                options=options)


def test_C10_place_a_warrior_adjacent_if_possible(kx):
    pos = barracks_position(kx)
    assert kx.legal(pos) == MAND | {"barracks"}
    out = kx.answer(kx.with_then(pos, ["barracks"]))
    assert out["phase"] == "choose_target"
    assert out["legal"] == {(10, 12), (9, 11)}                  # any buildable terrain, next to HOME
    placed = kx.with_then(pos, ["barracks", (10, 12)])
    assert kx.legal(placed) == MAND                              # once per turn
    g = kx.game(placed)
    assert warriors_of(g, 0) == {(10, 12)}
    assert kx.settlements(g, 0) == {HOME}                           # ZONE_RULE: HOME, now in the zone, stays
    assert g.supply(0) == 39                                     # A-C4: not from the 40 settlements


@pytest.mark.parametrize("target", [FAR, (10, 13), HOME, BK], ids=["far", "mountain", "occupied", "location"])
def test_C10_illegal_warrior_hexes_are_refused(kx, target):
    kx.then_error(barracks_position(kx, then=["barracks", target]), 1)


def test_C10_anywhere_eligible_when_nothing_touches_own_and_tiles_are_seized(kx):
    # no buildable hex next to HOME: any free buildable hex (the mandatory and player 1's areas included)
    pos = barracks_position(kx, adjacent=False)
    assert kx.legal(kx.with_then(pos, ["barracks"])) == MAND | OPP_D_HEXES | {FAR}
    # A_C3: the warrior on (5, 5) takes a tile of the oracle (5, 6) (usable from the next turn)
    placed = kx.with_then(pos, ["barracks", FAR])
    g = kx.game(placed)
    assert warriors_of(g, 0) == {FAR}
    assert kx.tiles(g, 0) == [("barracks", BK), ("oracle", (5, 6))]
    assert g.tiles_left((5, 6)) == 1
    assert kx.legal(placed) == MAND


@pytest.mark.parametrize("options,targets", [
    # (a): (9, 11) lies in the zone of the warrior (10, 12), so no eligible hex touches own (A_C2): anywhere
    (None, MAND | OPP_D_HEXES | {FAR}),
    # (b): warriors may stand in a zone, and (9, 11) touches HOME
    ({"zone_blocks_settlements_only": True}, {(9, 11)}),
], ids=["zone-blocks-all", "zone-blocks-settlements-only"])
def test_C10_remove_a_warrior_back_to_supply(kx, options, targets):
    # one warrior on (10, 12), one in supply: the targets are the placement hexes plus the warrior (remove)
    pos = barracks_position(kx, warriors=[[(10, 12)], []], options=options)
    assert kx.legal(pos) == MAND | {"barracks"}
    assert kx.legal(kx.with_then(pos, ["barracks"])) == targets | {(10, 12)}
    removed = kx.with_then(pos, ["barracks", (10, 12)])
    assert kx.legal(removed) == MAND
    g = kx.game(removed)
    assert warriors_of(g, 0) == set()
    assert g.supply(0) == 39


def test_C10_at_most_two_warriors(kx):
    # PIECES: both warriors on the board -> the barracks can only remove one
    pos = barracks_position(kx, warriors=[[(10, 12), FAR], []])
    assert kx.legal(kx.with_then(pos, ["barracks"])) == {(10, 12), FAR}
    kx.then_error(kx.with_then(pos, ["barracks", (9, 11)]), 1)


def test_A_C5_two_barracks_tiles_place_two_warriors(kx):
    # a second barracks hex (3, 3) through own (3, 4); (3, 5) touches (3, 4)
    pos = barracks_position(kx, extra={(3, 3): "k", (3, 4): "D", (3, 5): "F"}, own=[(3, 4)], tiles=(BK, (3, 3)))
    assert kx.legal(kx.with_then(pos, ["barracks"])) == {(10, 12), (9, 11), (3, 5)}
    first = ["barracks", (10, 12)]
    assert kx.legal(kx.with_then(pos, first)) == MAND | {"barracks"}
    # (9, 11) is now in the zone of (10, 12): the second warrior goes to (3, 5), or the first is taken back
    assert kx.legal(kx.with_then(pos, first + ["barracks"])) == {(3, 5), (10, 12)}
    both = kx.with_then(pos, first + ["barracks", (3, 5)])
    assert kx.legal(both) == MAND
    assert warriors_of(kx.game(both), 0) == {(10, 12), (3, 5)}


# --------------------------------------------------------------------------- C-12 warrior zone

WZ = (10, 10)
ZONE = {(9, 9), (9, 10), (10, 9), (10, 11), (11, 9), (11, 10)}
A = (10, 12)
ZFAR = (5, 5)
LOC = (3, 3)        # the location hex of the power tested; held through H
H = (3, 4)
S = (14, 14)        # a settlement to move with Barn or Harbor
S2 = (12, 10)       # a settlement to move with Paddock: two hexes NE (10, 11), NW (10, 9), E (12, 12)

# case: (terrain of the zone hexes and ZFAR, location letter, own settlements besides A, extra cells, then,
#        targets with the warrior, targets without it)
ZONE_CASES = {
    "mandatory": ("G", None, [], {}, [], MAND | {ZFAR}, {(10, 11)}),
    "oracle": ("G", "o", [H], {}, ["oracle"], MAND | {ZFAR}, {(10, 11)}),
    "farm": ("G", "f", [H], {}, ["farm"], MAND | {ZFAR}, {(10, 11)}),
    "foresters_lodge": ("T", "e", [H], {}, ["foresters_lodge"], {ZFAR}, {(10, 11)}),
    "monastery": ("C", "m", [H], {}, ["monastery"], {ZFAR}, {(10, 11)}),
    "barn": ("G", "b", [H, S], {S: "T"}, ["barn", S], MAND | {ZFAR}, {(10, 11)}),
    "harbor": ("W", "h", [H, S], {S: "T"}, ["harbor", S], {ZFAR}, {(10, 11)}),
    "paddock": ("G", "p", [H, S2], {S2: "D", (12, 12): "F"}, ["paddock", S2], {(12, 12)},
                {(10, 11), (10, 9), (12, 12)}),
    # a line of 3 own settlements (10, 12) (10, 13) (10, 14): its ends are (10, 11) and (10, 15)
    "tavern": ("G", "t", [H, (10, 13), (10, 14)], {(10, 13): "D", (10, 14): "D", (10, 15): "F"}, ["tavern"],
               {(10, 15)}, {(10, 11), (10, 15)}),
}


def zone_position(kx, case, warrior, options=None):
    terrain, letter, own, extra, then, _, _ = ZONE_CASES[case]
    cells = {**MAND_G, WZ: "C", A: "D", ZFAR: terrain, **{z: terrain for z in ZONE}, H: "D", **extra}
    if letter:
        cells[LOC] = letter
    return cpos(kx, cells, settlements=[[A, *own], []], tiles=[[LOC] if letter else [], []],
                warriors=[[], [WZ]] if warrior else None, options=options, then=then)


@pytest.mark.parametrize("options", READINGS)
@pytest.mark.parametrize("case", list(ZONE_CASES))
def test_C12_zone_hexes_are_closed_to_settlements(kx, case, options):
    # ZONE_RULE under both readings of A_C1 (settlements are blocked in both). With player 1's warrior on
    # WZ the only hex next to own, (10, 11), is closed, and the fallback ("if possible") skips every zone hex
    # (A_C2: adjacency is judged over eligible hexes only). Without the warrior (10, 11) is the target.
    with_warrior, without = ZONE_CASES[case][5], ZONE_CASES[case][6]
    assert kx.legal(zone_position(kx, case, True, options)) == with_warrior
    assert kx.legal(zone_position(kx, case, False, options)) == without


@pytest.mark.parametrize("options", READINGS)
def test_C12_zone_hexes_are_closed_to_the_tower(kx, options):
    # warrior (0, 10) closes (0, 9) (0, 11) (1, 9) (1, 10); own (0, 12) touches the edge hex (0, 11) only.
    # With the warrior: any free buildable edge hex outside the zone: (0, 2), and (18, 0) (16, 0) on column 0.
    cells = {**MAND_G, (0, 10): "C", (0, 12): "D", (0, 11): "F", (0, 9): "F", (1, 9): "F", (1, 10): "F",
             (0, 2): "F", LOC: "w", H: "D"}
    for warrior, expected in ((True, {(0, 2), (18, 0), (16, 0)}), (False, {(0, 11)})):
        pos = cpos(kx, cells, settlements=[[(0, 12), H], []], tiles=[[LOC], []],
                   warriors=[[], [(0, 10)]] if warrior else None, options=options, then=["tower"])
        assert kx.legal(pos) == expected, warrior


@pytest.mark.parametrize("options", READINGS)
def test_C12_existing_settlement_in_the_zone_stays_and_may_move_out(kx, options):
    # ZONE_RULE "Any existing settlements are not affected" / TG_MOVE_OUT. Player 0's B = (10, 11) stands in
    # the zone of player 1's warrior (10, 10). B still counts for adjacency: the mandatory grass next to B is
    # (10, 12) (outside the zone); the zone grass (10, 9) (9, 10) (11, 10) is closed.
    B = (10, 11)
    cells = {**MAND_G, WZ: "C", B: "D", (10, 12): "G", (10, 9): "G", (9, 10): "G", (11, 10): "G",
             (10, 13): "F", (8, 12): "F", LOC: "p", H: "D"}
    pos = cpos(kx, cells, settlements=[[B, H], []], tiles=[[LOC], []], warriors=[[], [WZ]], options=options)
    assert kx.legal(pos) == {(10, 12), "paddock"}
    g = kx.game(pos)
    assert kx.settlements(g, 0) == {B, H}
    # Paddock from B: east (10, 13) and north-east (8, 12) are open; west (10, 9) is in the zone
    assert kx.legal(kx.with_then(pos, ["paddock"])) == {B}
    assert kx.legal(kx.with_then(pos, ["paddock", B])) == {(10, 13), (8, 12)}
    moved = kx.with_then(pos, ["paddock", B, (10, 13)])
    assert kx.settlements(kx.game(moved), 0) == {(10, 13), H}


def test_C12_removing_the_warrior_reopens_the_zone(kx):
    # ZONE_RULE "After a warrior has been removed, the blocked spaces are once again eligible for building".
    # Player 0's own warrior on WZ closes (10, 11) to player 0 too ("whether by you or by any other player").
    cells = {**MAND_G, WZ: "C", A: "D", ZFAR: "G", **{z: "G" for z in ZONE}, LOC: "k", H: "D"}
    pos = cpos(kx, cells, settlements=[[A, H], []], tiles=[[LOC], []], warriors=[[WZ], []])
    assert kx.legal(pos) == MAND | {ZFAR, "barracks"}
    # placing the second warrior: nothing eligible touches own -> anywhere outside the zone; or remove WZ
    assert kx.legal(kx.with_then(pos, ["barracks"])) == MAND | OPP_D_HEXES | {ZFAR, WZ}
    removed = kx.with_then(pos, ["barracks", WZ])
    assert kx.legal(removed) == {(10, 11)}
    assert warriors_of(kx.game(removed), 0) == set()


@pytest.mark.parametrize("options", READINGS)
def test_C12_A_N8_caravan_may_cross_a_zone_but_not_stop_in_it(kx, options):
    # spec A-N8 (Nomads + Crossroads): "the settlement may slide through it but may not stop in it ... if that
    # hex is in a warrior zone, the direction is illegal". Player 1's warrior on (8, 12) closes (8, 11) (8, 13)
    # (7, 11) (7, 12) (9, 11) (9, 12). S1 = (9, 9) slides east over (9, 10) and the zone hexes (9, 11) (9, 12)
    # to (9, 13) (before the mountain (9, 14)), or north-east to (8, 10) (before (7, 10)). S2 = (8, 9) slides
    # east over (8, 10) and would stop on (8, 11), in the zone, in front of the warrior: no destination.
    s1, s2 = (9, 9), (8, 9)
    cells = {**MAND_G, LOC: "c", H: "D", s1: "D", s2: "D", (8, 12): "C",
             **{h: "F" for h in [(9, 10), (9, 11), (9, 12), (9, 13), (8, 10), (8, 11)]}}
    for warrior in (True, False):
        pos = cpos(kx, cells, settlements=[[H, s1, s2], []], tiles=[[LOC], []], expansions=("crossroads", "nomads"),
                   warriors=[[], [(8, 12)]] if warrior else None, options=options)
        # without the warrior S2 stops on (8, 12), in front of the mountain (8, 13)
        assert kx.legal(kx.with_then(pos, ["caravan"])) == ({s1} if warrior else {s1, s2}), warrior
        assert kx.legal(kx.with_then(pos, ["caravan", s1])) == {(9, 13), (8, 10)}, warrior
