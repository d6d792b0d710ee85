"""Crossroads: Wagon and Lighthouse (ship) (C-13, C-14, A-C1, A-C3, A-C6).

Wagon positions use a water-filled board (``fill="W"``), so that the only land a wagon may enter is
the land a test names; ship positions use the usual mountain-filled board. Player 0's card is grass with
``MAND`` = (18, 0) (18, 1) (18, 2); player 1 holds desert with ``OPP_D`` = (16, 0) (16, 1) (16, 2). The
wagon (lighthouse) tile comes from the location hex ``LOC`` = (3, 3) through player 0's settlement
``H`` = (3, 4). Pieces on the board: ``wagons`` / ``ships`` per player, read back with ``g.pieces(p)``.

Decision flow (contract): activate by name; with the piece in supply the targets are placement hexes;
with the piece on the board the targets are the hexes one step away plus the piece's own hex (= remove);
after the first step the phase is "step" with the next step hexes plus "done"; at most 3 steps.

Rule text quoted (the comments below name these):

WAGON (EN 886-895): "During each of your turns, you may choose one of these three options: Place your wagon on an
    empty space eligible for building or a mountain space. You must place this wagon adjacent to one of your
    settlements, if possible. You can take this action only if your wagon is not on the game board. Or Move your
    wagon up to 3 spaces across empty spaces eligible for building or mountain spaces. These spaces may not be
    occupied by settlements, other wagons, or any of your own or other players' warriors. Or Remove your wagon from
    the game board and place it back into your supply."
WAGON_NOTE (EN 897): "You may build settlements adjacent to your wagon. Wagons score gold at the end of the game,
    like other settlements."
WAGON_DE (DE 1001, spec C-13): "ueber jeweils angrenzende, leere und bebaubare Gelaendefelder oder Bergfelder"
LIGHTHOUSE (EN 905-912): "Place your ship on an empty water space. You must place this ship adjacent to one of your
    settlements, if possible. You can take this action only if your ship is not on the game board. Or Move your ship
    up to 3 spaces across empty water spaces. These spaces may not be occupied by ships. Or Remove your ship from
    the game board and place it back into your supply."
SHIP_NOTE (EN 914): "You may build settlements adjacent to your ship."
SHIP_DE (DE 970, spec C-14): "Diese Felder duerfen nicht besiedelt sein und es darf sich dort kein anderes Schiff
    befinden"
ZONE_RULE (EN 878): "A warrior prevents all building and moving actions - whether by you or by any other player - on
    all spaces adjacent to it."
A_C6 (spec A-C6): "Moves go step by step through adjacent hexes, 1-3 steps, and each hex entered must be eligible
    (wagon: eligible-or-mountain, not in a zone (A-C1); ship: empty water). Tiles are seized en route (A-N2).
    Whether a step may return to an earlier hex: allowed (R). Adjacency-if-possible applies to placement only, not
    to moves."
A_C3 (spec A-C3): "Default: yes [placing a meeple or city hall seizes location tiles] for placements and for meeple
    moves (per step). Tiles are kept while any OWN piece stays adjacent."
A_N2 (spec A-N2): "Default: every single step is a move that seizes tiles and loses orphaned ones."
"""

import pytest

from tests.rules.crossroads.helpers import MAND, MAND_G, OPP_D_HEXES, READINGS, cpos, piece

LOC = (3, 3)
H = (3, 4)


# --------------------------------------------------------------------------- C-13 wagon: placement

A = (8, 8)   # neighbours: (7, 7) castle, (7, 8) water, (8, 7) mountain, (8, 9) flower, (9, 7) (9, 8) water
PLACE_CELLS = {**MAND_G, LOC: "n", H: "D", A: "D", (7, 7): "K", (8, 7): "M", (8, 9): "F", (8, 10): "o",
               (5, 5): "M", (5, 7): "F"}


def test_C13_place_the_wagon_on_an_eligible_or_mountain_hex_adjacent_if_possible(kx):
    pos = cpos(kx, PLACE_CELLS, fill="W", settlements=[[H, A], []], tiles=[[LOC], []])
    assert kx.legal(pos) == MAND | {"wagon"}
    out = kx.answer(kx.with_then(pos, ["wagon"]))
    assert out["phase"] == "choose_target"
    assert out["legal"] == {(8, 7), (8, 9)}                  # not the castle, not water, not the far hexes
    on_mountain = kx.with_then(pos, ["wagon", (8, 7)])
    assert kx.legal(on_mountain) == MAND
    g = kx.game(on_mountain)
    assert piece(g, 0, "wagon") == (8, 7)
    assert g.supply(0) == 38 and kx.settlements(g, 0) == {H, A}
    # A_C3: placed on (8, 9), the wagon takes a tile of the oracle (8, 10)
    g = kx.game(kx.with_then(pos, ["wagon", (8, 9)]))
    assert piece(g, 0, "wagon") == (8, 9)
    assert kx.tiles(g, 0) == [("oracle", (8, 10)), ("wagon", LOC)]
    assert g.tiles_left((8, 10)) == 1


@pytest.mark.parametrize("target", [(7, 7), (7, 8), (5, 5), A], ids=["castle", "water", "far", "occupied"])
def test_C13_illegal_wagon_placements_are_refused(kx, target):
    pos = cpos(kx, PLACE_CELLS, fill="W", settlements=[[H, A], []], tiles=[[LOC], []], then=["wagon", target])
    kx.then_error(pos, 1)


def test_C13_wagon_placement_anywhere_when_nothing_touches_own(kx):
    cells = {**PLACE_CELLS, (8, 7): "W", (8, 9): "W"}
    pos = cpos(kx, cells, fill="W", settlements=[[H, A], []], tiles=[[LOC], []])
    assert kx.legal(kx.with_then(pos, ["wagon"])) == MAND | OPP_D_HEXES | {(5, 5), (5, 7)}


# --------------------------------------------------------------------------- C-13 wagon: moves

WG = (5, 5)
# a land path through the water: (4, 5) M, (5, 5) M (wagon), (5, 6) F, (5, 7) M, (5, 8) C, (5, 9) T;
# own A = (8, 8) with a free flower (8, 9) next to it (a placement hex while the wagon is in supply)
MOVE_CELLS = {**MAND_G, LOC: "n", H: "D", (4, 5): "M", WG: "M", (5, 6): "F", (5, 7): "M", (5, 8): "C", (5, 9): "T",
              A: "D", (8, 9): "F"}


def move_position(kx, cells=None, settlements=((H, A), ()), wagons=(WG, None), warriors=None, then=None,
                  options=None):
    return cpos(kx, {**MOVE_CELLS, **(cells or {})}, fill="W", settlements=[list(s) for s in settlements],
                tiles=[[LOC], []], wagons=list(wagons), warriors=warriors, then=then, options=options)


def test_C13_move_the_wagon_up_to_three_steps(kx):
    pos = move_position(kx)
    assert kx.legal(pos) == MAND | {"wagon"}
    out = kx.answer(kx.with_then(pos, ["wagon"]))
    # one step away: (4, 5) mountain and (5, 6) flower; its own hex removes it. No placement hexes ((8, 9)):
    # "only if your wagon is not on the game board"
    assert out["phase"] == "choose_target" and out["legal"] == {WG, (4, 5), (5, 6)}
    out = kx.answer(kx.with_then(pos, ["wagon", (5, 6)]))
    # A_C6: the hex just left may be entered again
    assert out["phase"] == "step" and out["legal"] == {WG, (5, 7), "done"}
    assert kx.legal(kx.with_then(pos, ["wagon", (5, 6), (5, 7)])) == {(5, 6), (5, 8), "done"}
    # the third step ends the move (the engine closes it, or offers a lone "done")
    out, end = kx.settled(kx.with_then(pos, ["wagon", (5, 6), (5, 7), (5, 8)]))
    assert out["player"] == 0 and out["phase"] == "idle" and out["legal"] == MAND
    g = kx.game(end)
    assert piece(g, 0, "wagon") == (5, 8)
    assert g.supply(0) == 38


def test_C13_stop_after_one_step(kx):
    pos = move_position(kx, then=["wagon", (5, 6), "done"])
    assert kx.legal(pos) == MAND
    assert piece(kx.game(pos), 0, "wagon") == (5, 6)


def test_C13_no_fourth_step_and_no_jump(kx):
    pos = move_position(kx)
    kx.then_error(kx.with_then(pos, ["wagon", (5, 7)]), 1)                      # two hexes away
    kx.then_error(kx.with_then(pos, ["wagon", (5, 6), (5, 8)]), 2)
    out, end = kx.settled(kx.with_then(pos, ["wagon", (5, 6), (5, 7), (5, 8)]))
    kx.then_error(kx.with_then(end, list(end["then"]) + [(5, 9)]), len(end["then"]))


def test_C13_remove_the_wagon(kx):
    removed = move_position(kx, then=["wagon", WG])
    assert kx.legal(removed) == MAND
    g = kx.game(removed)
    assert piece(g, 0, "wagon") is None
    assert g.supply(0) == 38


OBSTACLES = {
    "water": ({(5, 7): "W"}, {}),
    "castle": ({(5, 7): "K"}, {}),
    "location": ({(5, 7): "o"}, {}),
    "own-settlement": ({(5, 7): "F"}, {"own": [(5, 7)]}),
    "opponent-settlement": ({(5, 7): "F"}, {"opp": [(5, 7)]}),
    "other-wagon": ({}, {"wagon1": (5, 7)}),
}


@pytest.mark.parametrize("kind", list(OBSTACLES))
def test_C13_wagon_does_not_enter_obstacles(kx, kind):
    # WAGON: "These spaces may not be occupied by settlements, other wagons ..."; water, castles and
    # locations are neither eligible for building nor mountain
    cells, extra = OBSTACLES[kind]
    pos = move_position(kx, cells, settlements=((H, A, *extra.get("own", [])), tuple(extra.get("opp", []))),
                        wagons=(WG, extra.get("wagon1")))
    assert kx.legal(kx.with_then(pos, ["wagon", (5, 6)])) == {WG, "done"}
    kx.then_error(kx.with_then(pos, ["wagon", (5, 6), (5, 7)]), 2)


@pytest.mark.parametrize("options", READINGS)
def test_C13_A_C1_wagon_and_the_warrior_zone(kx, options):
    # player 1's warrior on (6, 8) closes (5, 7) and (5, 8): (a) the wagon may not enter them; (b) it may
    pos = move_position(kx, {(6, 8): "C"}, warriors=[[], [(6, 8)]], options=options)
    expected = {WG, "done"} if options is None else {WG, (5, 7), "done"}
    assert kx.legal(kx.with_then(pos, ["wagon", (5, 6)])) == expected


@pytest.mark.parametrize("options", READINGS)
def test_C13_wagon_never_enters_a_warrior_hex(kx, options):
    # player 1's warrior on (5, 7) closes (5, 6) too (a); under (b) the wagon may go to (5, 6) but never onto
    # the warrior ("any of your own or other players' warriors")
    pos = move_position(kx, {(5, 7): "C"}, warriors=[[], [(5, 7)]], options=options)
    if options is None:
        assert kx.legal(kx.with_then(pos, ["wagon"])) == {WG, (4, 5)}
    else:
        assert kx.legal(kx.with_then(pos, ["wagon"])) == {WG, (4, 5), (5, 6)}
        assert kx.legal(kx.with_then(pos, ["wagon", (5, 6)])) == {WG, "done"}


def test_C12_wagon_may_leave_a_zone(kx):
    # TG "Warriors DO NOT prevent moving away": player 1's warrior on (4, 5) closes (5, 5), where the wagon
    # already stands; (5, 6) is outside the zone
    pos = move_position(kx, {(4, 5): "C"}, warriors=[[], [(4, 5)]])
    assert kx.legal(kx.with_then(pos, ["wagon"])) == {WG, (5, 6)}


@pytest.mark.parametrize("stop,holds", [(False, False), (True, True)], ids=["passes-by", "stops-next-to-it"])
def test_A_C3_wagon_seizes_tiles_per_step(kx, stop, holds):
    # A_C3 / A_N2: the oracle (4, 7) touches (5, 6) and (5, 7), not (5, 8). The wagon takes its tile at the
    # first step; passing on to (5, 8) leaves no own piece next to it, so the tile is lost (out of the game).
    pos = move_position(kx, {(4, 7): "o"})
    then = ["wagon", (5, 6), (5, 7), "done"] if stop else ["wagon", (5, 6), (5, 7), (5, 8)]
    _, end = kx.settled(kx.with_then(pos, then))
    g = kx.game(end)
    assert kx.tiles(g, 0) == ([("oracle", (4, 7))] if holds else []) + [("wagon", LOC)]
    assert g.tiles_left((4, 7)) == 1


# --------------------------------------------------------------------------- C-14 ship

SHIP_PLACE_CELLS = {**MAND_G, LOC: "i", H: "D", A: "D", (8, 9): "W", (5, 5): "W", (5, 6): "W"}


def test_C14_place_the_ship_on_empty_water_adjacent_if_possible(kx):
    pos = cpos(kx, SHIP_PLACE_CELLS, settlements=[[H, A], []], tiles=[[LOC], []])
    assert kx.legal(pos) == MAND | {"lighthouse"}
    out = kx.answer(kx.with_then(pos, ["lighthouse"]))
    assert out["phase"] == "choose_target" and out["legal"] == {(8, 9)}
    placed = kx.with_then(pos, ["lighthouse", (8, 9)])
    assert kx.legal(placed) == MAND
    g = kx.game(placed)
    assert piece(g, 0, "ship") == (8, 9)
    assert g.supply(0) == 38
    kx.then_error(kx.with_then(pos, ["lighthouse", (8, 7)]), 1)          # a mountain is no water


def test_C14_ship_placement_anywhere_on_empty_water_when_none_touches_own(kx):
    # (8, 9) is a mountain; (5, 6) holds player 1's settlement (moved there by a Harbor): only (5, 5)
    cells = {**SHIP_PLACE_CELLS, (8, 9): "M"}
    pos = cpos(kx, cells, settlements=[[H, A], [(5, 6)]], tiles=[[LOC], []])
    assert kx.legal(kx.with_then(pos, ["lighthouse"])) == {(5, 5)}


def test_C14_lighthouse_not_offered_without_empty_water(kx):
    cells = {**MAND_G, LOC: "i", H: "D", (5, 6): "W"}
    pos = cpos(kx, cells, settlements=[[H], [(5, 6)]], tiles=[[LOC], []])
    assert kx.legal(pos) == MAND


SH = (12, 2)
# water row (12, 2) .. (12, 6); (11, 3) is a flower field next to (12, 3) and (12, 4)
SHIP_MOVE_CELLS = {**MAND_G, LOC: "i", H: "D", SH: "W", (12, 3): "W", (12, 4): "W", (12, 5): "W", (12, 6): "W",
                   (11, 3): "F"}


def ship_position(kx, cells=None, settlements=((H,), ()), ships=(SH, None), warriors=None, then=None, options=None):
    return cpos(kx, {**SHIP_MOVE_CELLS, **(cells or {})}, settlements=[list(s) for s in settlements],
                tiles=[[LOC], []], ships=list(ships), warriors=warriors, then=then, options=options)


def test_C14_move_the_ship_over_empty_water(kx):
    pos = ship_position(kx, {(11, 5): "o"})
    assert kx.legal(pos) == MAND | {"lighthouse"}
    assert kx.legal(kx.with_then(pos, ["lighthouse"])) == {SH, (12, 3)}
    out = kx.answer(kx.with_then(pos, ["lighthouse", (12, 3)]))
    assert out["phase"] == "step" and out["legal"] == {SH, (12, 4), "done"}        # never onto land (11, 3)
    assert kx.legal(kx.with_then(pos, ["lighthouse", (12, 3), (12, 4)])) == {(12, 3), (12, 5), "done"}
    out, end = kx.settled(kx.with_then(pos, ["lighthouse", (12, 3), (12, 4), (12, 5)]))
    assert out["legal"] == MAND
    g = kx.game(end)
    assert piece(g, 0, "ship") == (12, 5)
    # A_C3: the ship stopped next to the oracle (11, 5) and took a tile
    assert kx.tiles(g, 0) == [("lighthouse", LOC), ("oracle", (11, 5))]
    kx.then_error(kx.with_then(pos, ["lighthouse", (11, 3)]), 1)


def test_C14_remove_the_ship(kx):
    pos = ship_position(kx, then=["lighthouse", SH])
    assert kx.legal(pos) == MAND
    assert piece(kx.game(pos), 0, "ship") is None


@pytest.mark.parametrize("blocker", ["other-ship", "settlement"])
def test_C14_ship_does_not_pass_ships_or_settlements(kx, blocker):
    # LIGHTHOUSE "may not be occupied by ships" / SHIP_DE "not settled": player 1's ship, or player 1's
    # settlement standing on water (Harbor), on (12, 5)
    if blocker == "other-ship":
        pos = ship_position(kx, ships=(SH, (12, 5)))
    else:
        pos = ship_position(kx, settlements=((H,), ((12, 5),)))
    assert kx.legal(kx.with_then(pos, ["lighthouse", (12, 3), (12, 4)])) == {(12, 3), "done"}
    kx.then_error(kx.with_then(pos, ["lighthouse", (12, 3), (12, 4), (12, 5)]), 3)


@pytest.mark.parametrize("options", READINGS)
def test_C14_A_C1_ship_and_the_warrior_zone(kx, options):
    # player 1's warrior on (13, 4) closes the water hexes (12, 4) and (12, 5)
    pos = ship_position(kx, {(13, 4): "C"}, warriors=[[], [(13, 4)]], options=options)
    expected = {SH, "done"} if options is None else {SH, (12, 4), "done"}
    assert kx.legal(kx.with_then(pos, ["lighthouse", (12, 3)])) == expected


# --------------------------------------------------------------------------- building next to a wagon or ship


@pytest.mark.parametrize("kind", ["wagon", "ship"])
def test_C13_C14_building_next_to_the_piece_counts_as_adjacent(kx, kind):
    # WAGON_NOTE / SHIP_NOTE: player 0 has no settlement; its piece on (12, 12) touches the grass (12, 13),
    # so the mandatory action must start there. Without the piece any grass hex is allowed.
    under = "M" if kind == "wagon" else "W"
    cells = {**MAND_G, (12, 12): under, (12, 13): "G"}
    fill = "W" if kind == "wagon" else "M"
    field = {"wagons": [(12, 12), None]} if kind == "wagon" else {"ships": [(12, 12), None]}
    pos = cpos(kx, cells, fill=fill, settlements=[[], []], **field)
    assert kx.legal(pos) == {(12, 13)}
    assert kx.legal(cpos(kx, cells, fill=fill, settlements=[[], []])) == MAND | {(12, 13)}
