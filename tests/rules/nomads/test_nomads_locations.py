"""Nomads locations: Quarry (+ stone walls), Caravan, Village, Garden (N-18..N-21).

Positions are built on mountain-filled boards (conftest). Player 0 holds the location tile since
before this turn (``tiles``), so the power is usable now. Unless a test says otherwise player 0's card
is forest and ``MAND_T`` (18, 0) (18, 1) (18, 2) is its mandatory area, so the idle legal set before
the mandatory action is ``MAND_T_HEXES`` plus the powers.

Rule text quoted (the comments below name these):

QUARRY (EN 682-684): "Build 1 or 2 stone walls on empty terrain spaces of the same type as your played terrain card.
    These stone walls must be adjacent to at least one of your settlements on the game board. Stone walls are not
    owned by any player, and they generate no gold for anyone. Instead, they simply block the spaces they're on for
    the remainder of the game."
QUARRY_EXAMPLE (EN 688): "For her mandatory action, the orange player has revealed a desert terrain card and built 3
    settlements. She then builds 1 stone wall adjacent to one of her newly built settlements. She cannot build a
    second stone wall because no available desert spaces are adjacent to one of her own settlements."
WALLS (EN 516): "25 stone walls - These pieces come into play via the quarry location tile"
CARAVAN (EN 694-696): "Move one of your own previously built settlements in a straight line, either horizontally or
    diagonally, until it is blocked by an obstacle. (Obstacles are water, mountains, castles, location spaces, nomad
    spaces, and each space occupied by a settlement.) Place this settlement on the empty space eligible for building
    directly in front of the obstacle."
CARAVAN_EXAMPLE (EN 700): "The orange player wants to move this settlement. She has four options as one direction is
    blocked by a mountain and another is blocked by an opponent's settlement."
VILLAGE (EN 706): "Build one additional settlement on an empty space eligible for building that is adjacent to at
    least 3 of your settlements."
GARDEN (EN 712): "Build one additional settlement on an empty flower field space. You must build this settlement
    adjacent to one of your settlements, if possible."
A_N6 (spec A-N6): "Is a wall a Caravan obstacle? Default: yes; the caravan stops in front of it (a wall hex is not
    'eligible')."
A_N8 (spec A-N8): "The edge blocks the slide like an obstacle (TG). A direction whose first hex is an obstacle is
    not an option. Default: stop on the last eligible hex before the first obstacle or edge."
A_N2_CARAVAN (spec A-N2): "TG: ... 'Caravan does NOT [pick up nomad tiles en route] ... it is a single move'."
"""

import pytest

# --------------------------------------------------------------------------- quarry (N-18)

QUARRY_HEX = (10, 10)
QUARRY_HOME = (10, 11)   # neighbours (10, 10) q, (10, 12), (9, 10), (9, 11), (11, 10), (11, 11)


def quarry_position(kx, extra=None, walls=None, then=None):
    """Card desert. Own (10, 11) next to the quarry (10, 10). Desert (10, 12) and (11, 11) touch it,
    grass (9, 11) touches it (not the card terrain), desert (15, 5) (15, 7) (15, 9) lie far away."""
    cells = {QUARRY_HEX: "q", QUARRY_HOME: "G", (10, 12): "D", (11, 11): "D", (9, 11): "G",
             (15, 5): "D", (15, 7): "D", (15, 9): "D"}
    cells.update(extra or {})
    return kx.position(cells, settlements=[[QUARRY_HOME], []], card="D", tiles=[[QUARRY_HEX], []],
                       walls=walls, then=then)


def test_N18_quarry_one_or_two_walls_on_card_terrain_touching_own(kx):
    # QUARRY: targets = empty desert (card) hexes touching own (10, 11): (10, 12), (11, 11). Not the grass
    # (9, 11) (other terrain), not the far deserts (no "if possible" fallback).
    pos = quarry_position(kx)
    assert kx.legal(pos) == {(10, 12), (11, 11), "quarry"}      # mandatory start: adjacent deserts
    assert kx.legal(kx.with_then(pos, ["quarry"])) == {(10, 12), (11, 11)}
    # "1 or 2": after the first wall the second is optional
    assert kx.legal(kx.with_then(pos, ["quarry", (10, 12)])) == {(11, 11), "done"}
    # two walls: no desert next to own is left, so the mandatory action may start on any free desert;
    # the wall hexes are never targets (they "block the spaces ... for the remainder of the game")
    two = kx.with_then(pos, ["quarry", (10, 12), (11, 11)])
    assert kx.legal(two) == {(15, 5), (15, 7), (15, 9)}
    g = kx.game(two)
    assert kx.settlements(g, 0) == {QUARRY_HOME}                # walls are not settlements
    assert g.supply(0) == 39                                    # nor taken from the supply


def test_N18_quarry_stop_after_one_wall_and_once_per_turn(kx):
    pos = quarry_position(kx, then=["quarry", (10, 12), "done"])
    # back in idle: the quarry is used; the mandatory action must touch own -> (11, 11) only
    assert kx.legal(pos) == {(11, 11)}
    # the wall at (10, 12) stays out of every later set: after (11, 11), desert next to own = none
    assert kx.legal(kx.with_then(pos, ["quarry", (10, 12), "done", (11, 11)])) == {(15, 5), (15, 7), (15, 9)}


@pytest.mark.parametrize("target", [(15, 5), (9, 11), (10, 11)], ids=["not-touching-own", "not-card-terrain",
                                                                      "occupied"])
def test_N18_quarry_illegal_walls_are_refused(kx, target):
    kx.then_error(quarry_position(kx, then=["quarry", target]), 1)


def test_N18_en688_second_wall_impossible_after_mandatory(kx):
    # QUARRY_EXAMPLE: desert row (10, 12)..(10, 15) east of own (10, 11); the mandatory action fills
    # (10, 12) (10, 13) (10, 14) (each forced by adjacency), leaving one desert next to own: (10, 15).
    cells = {QUARRY_HEX: "q", QUARRY_HOME: "G", (10, 12): "D", (10, 13): "D", (10, 14): "D", (10, 15): "D"}
    pos = kx.position(cells, settlements=[[QUARRY_HOME], []], card="D", tiles=[[QUARRY_HEX], []])
    assert kx.legal(pos) == {(10, 12), "quarry"}
    after = kx.with_then(pos, [(10, 12), (10, 13), (10, 14)])
    assert kx.legal(after) == {"quarry", "end_turn"}
    assert kx.legal(kx.with_then(after, [(10, 12), (10, 13), (10, 14), "quarry"])) == {(10, 15)}
    # after the first wall no second is possible: the power closes (or offers a lone "done"), nothing
    # is left in the turn, so the turn ends and player 1 (canyon card, OPP_C) is to move.
    out, _ = kx.settled(kx.with_then(after, [(10, 12), (10, 13), (10, 14), "quarry", (10, 15)]))
    assert out["player"] == 1
    assert out["legal"] == kx.OPP_C_HEXES


WALL_ROW = [(0, c) for c in range(20)] + [(1, c) for c in range(6)]   # 26 grass hexes out of the way


def walls_elsewhere(n):
    return {h: "G" for h in WALL_ROW[:n]}, WALL_ROW[:n]


def test_N18_quarry_24_walls_on_board_allow_only_one_more(kx):
    # WALLS: 25 in the box. With 24 on the board the first wall is the 25th; a 26th does not exist.
    cells, walls = walls_elsewhere(24)
    pos = quarry_position(kx, extra=cells, walls=walls, then=["quarry"])
    assert kx.legal(pos) == {(10, 12), (11, 11)}
    out, pos2 = kx.settled(kx.with_then(pos, ["quarry", (10, 12)]))
    # no second wall: only the mandatory action (adjacent desert (11, 11)) is left
    assert out["player"] == 0 and out["legal"] == {(11, 11)}
    g = kx.game(kx.with_then(pos2, list(pos2["then"]) + [(11, 11)]))
    assert (11, 11) in kx.settlements(g, 0)                      # it was still free: no 26th wall


def test_N18_quarry_not_offered_when_all_25_walls_are_placed(kx):
    cells, walls = walls_elsewhere(25)
    assert kx.legal(quarry_position(kx, extra=cells, walls=walls)) == {(10, 12), (11, 11)}


def test_N18_position_with_26_walls_is_refused(kx):
    cells, walls = walls_elsewhere(26)
    kx.setup_error(quarry_position(kx, extra=cells, walls=walls), "walls")


def test_N18_walls_belong_to_nobody(kx):
    # QUARRY "not owned by any player ... generate no gold": a wall next to a castle scores nothing.
    cells = {(5, 5): "K", (5, 6): "G", (10, 10): "G"}
    pos = kx.position(cells, settlements=[[(10, 10)], []], walls=[(5, 6)],
                      cards=["knights", "hermits", "citizens"])
    s0, s1 = kx.scores(pos)
    # player 0: knights 2 x 1 on row 10, hermits 1 area, citizens floor(1 / 2) = 0; castles 0
    assert s0["cards"] == {"knights": 2, "hermits": 1, "citizens": 0}
    assert s0["castles"] == 0 and s0["total"] == 3
    assert s1["castles"] == 0 and s1["total"] == 0


WALLED = (10, 11)   # the wall hex in every case below; own (10, 10) touches it


@pytest.mark.parametrize("case", ["mandatory", "garden", "donation", "village", "resettlement"])
def test_N18_wall_hex_is_never_a_target(kx, case):
    # QUARRY "block the spaces they're on for the remainder of the game": without the wall, (10, 11)
    # would be the only adjacent (or the 3-neighbour) choice in each case.
    if case == "mandatory":
        pos = kx.position({(10, 10): "G", WALLED: "G", (15, 5): "G", (15, 6): "G"},
                          settlements=[[(10, 10)], []], card="G", walls=[WALLED])
        expected = {(15, 5), (15, 6)}                         # no free grass touches own -> anywhere
    elif case == "garden":
        pos = kx.position({**kx.MAND_T, (10, 9): "g", (10, 10): "G", WALLED: "F", (15, 5): "F"},
                          settlements=[[(10, 10)], []], card="T", walls=[WALLED], tiles=[[(10, 9)], []],
                          then=["garden"])
        expected = {(15, 5)}
    elif case == "donation":
        pos = kx.position({**kx.MAND_T, (10, 10): "C", WALLED: "G", (15, 5): "G"},
                          settlements=[[(10, 10)], []], card="T", walls=[WALLED],
                          nomad_tiles=[["donation-G"], []], then=["donation-G"])
        expected = {(15, 5)}
    elif case == "village":
        # (10, 11) touches own (10, 10) (10, 12) (9, 11): without the wall it is the village target
        pos = kx.position({**kx.MAND_T, (8, 11): "v", (10, 10): "G", (10, 12): "G", (9, 11): "G", WALLED: "G"},
                          settlements=[[(10, 10), (10, 12), (9, 11)], []], card="T", walls=[WALLED],
                          tiles=[[(8, 11)], []])
        expected = kx.MAND_T_HEXES                            # village not offered
    else:
        pos = kx.position({**kx.MAND_T, (10, 10): "G", WALLED: "G", (10, 9): "G"},
                          settlements=[[(10, 10)], []], card="T", walls=[WALLED],
                          nomad_tiles=[["resettlement"], []], then=["resettlement", (10, 10)])
        expected = {(10, 9)}
    assert kx.legal(pos) == expected


# --------------------------------------------------------------------------- caravan (N-19)

CARAVAN_LOC = {(4, 4): "c", (4, 5): "G"}   # player 0 holds the caravan tile through (4, 5), which is boxed in
CARAVAN_OWN = (4, 5)
S = (10, 10)


def caravan_position(kx, cells, own=(), opp=(), walls=None, then=None, nomad_spaces=None):
    board = {**kx.MAND_T, **CARAVAN_LOC, **cells}
    return kx.position(board, settlements=[[CARAVAN_OWN, *own], list(opp)], card="T", tiles=[[(4, 4)], []],
                       walls=walls, then=then, nomad_spaces=nomad_spaces)


def test_N19_caravan_en700_four_destinations(kx):
    # CARAVAN_EXAMPLE rebuilt around S = (10, 10) (even row). Directions and slides:
    #   E : (10, 11) G, (10, 12) C, (10, 13) water     -> (10, 12)
    #   W : (10, 9) D, (10, 8) F, (10, 7) castle        -> (10, 8)
    #   NW: (9, 9) G, (8, 9) C, (7, 8) nomad space       -> (8, 9)
    #   SW: (11, 9) C, (12, 9) D, (13, 8) F, (14, 8) M   -> (13, 8)
    #   NE: (9, 10) mountain at step 1                  -> no option
    #   SE: (11, 10) opponent's settlement at step 1    -> no option
    cells = {S: "G", (10, 11): "G", (10, 12): "C", (10, 13): "W", (10, 9): "D", (10, 8): "F", (10, 7): "K",
             (9, 9): "G", (8, 9): "C", (7, 8): "N", (11, 9): "C", (12, 9): "D", (13, 8): "F",
             (11, 10): "G"}
    pos = caravan_position(kx, cells, own=[S], opp=[(11, 10)])
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"caravan"}
    # (4, 5) is blocked at step 1 in every direction, so it is not a source
    assert kx.legal(kx.with_then(pos, ["caravan"])) == {S}
    assert kx.legal(kx.with_then(pos, ["caravan", S])) == {(10, 12), (10, 8), (8, 9), (13, 8)}
    moved = kx.with_then(pos, ["caravan", S, (13, 8)])
    assert kx.legal(moved) == kx.MAND_T_HEXES                  # the caravan is used for this turn
    g = kx.game(moved)
    assert kx.settlements(g, 0) == {CARAVAN_OWN, (13, 8)}
    assert g.supply(0) == 38                                    # a move, not a build
    # a hex passed over is not a destination
    kx.then_error(kx.with_then(pos, ["caravan", S, (12, 9)]), 2)


OBSTACLES = {
    "water": ({(10, 13): "W"}, {}),
    "mountain": ({(10, 13): "M"}, {}),
    "castle": ({(10, 13): "K"}, {}),
    "location": ({(10, 13): "o"}, {}),
    "nomad-space": ({(10, 13): "N"}, {}),
    "own-settlement": ({(10, 13): "G"}, {"own": [(10, 13)]}),
    "opponent-settlement": ({(10, 13): "G"}, {"opp": [(10, 13)]}),
    "wall": ({(10, 13): "G"}, {"walls": [(10, 13)]}),
}


@pytest.mark.parametrize("kind", sorted(OBSTACLES))
def test_N19_caravan_stops_before_obstacle(kx, kind):
    # CARAVAN / A_N6: S slides east over (10, 11) G and (10, 12) D and stops in front of (10, 13).
    # Every other direction of S is mountain at step 1.
    cells, extra = OBSTACLES[kind]
    pos = caravan_position(kx, {S: "G", (10, 11): "G", (10, 12): "D", **cells}, own=[S, *extra.get("own", [])],
                           opp=extra.get("opp", []), walls=extra.get("walls"))
    # an own settlement at (10, 13) is itself a source: it slides west to (10, 11), in front of S
    sources = {S, (10, 13)} if kind == "own-settlement" else {S}
    assert kx.legal(kx.with_then(pos, ["caravan"])) == sources
    assert kx.legal(kx.with_then(pos, ["caravan", S])) == {(10, 12)}
    g = kx.game(kx.with_then(pos, ["caravan", S, (10, 12)]))
    assert (10, 12) in kx.settlements(g, 0) and S not in kx.settlements(g, 0)


def test_N19_caravan_stops_at_board_edge(kx):
    # A_N8: from (10, 17) east over (10, 18) G, (10, 19) D; the edge stops it on (10, 19).
    start = (10, 17)
    pos = caravan_position(kx, {start: "G", (10, 18): "G", (10, 19): "D"}, own=[start])
    assert kx.legal(kx.with_then(pos, ["caravan", start])) == {(10, 19)}


def test_N19_caravan_slides_on_to_the_first_obstacle(kx):
    # control: (10, 13) is flower (buildable, free), so the slide goes on to (10, 13) before (10, 14) M
    pos = caravan_position(kx, {S: "G", (10, 11): "G", (10, 12): "D", (10, 13): "F"}, own=[S])
    assert kx.legal(kx.with_then(pos, ["caravan", S])) == {(10, 13)}


def test_N19_caravan_not_offered_when_every_direction_is_blocked_at_step_1(kx):
    # S's neighbours: (10, 11) water, (9, 9) an opponent's settlement, the rest mountain
    pos = caravan_position(kx, {S: "G", (10, 11): "W", (9, 9): "G"}, own=[S], opp=[(9, 9)])
    assert kx.legal(pos) == kx.MAND_T_HEXES


def test_N19_caravan_is_one_move_claims_only_at_destination(kx):
    # A_N2_CARAVAN: S slides east (10, 11) (10, 12) to (10, 13) (before (10, 14) M). The nomad space
    # (9, 11) touches only the hexes passed over; (9, 13) touches the destination.
    cells = {S: "G", (10, 11): "G", (10, 12): "C", (10, 13): "D", (9, 11): "N", (9, 13): "N"}
    pos = caravan_position(kx, cells, own=[S], nomad_spaces={(9, 11): "sword", (9, 13): "outpost"})
    assert kx.legal(kx.with_then(pos, ["caravan", S])) == {(10, 13)}
    g = kx.game(kx.with_then(pos, ["caravan", S, (10, 13)]))
    assert kx.nomad_spaces(g) == {(9, 11): "sword", (9, 13): None}


# --------------------------------------------------------------------------- village (N-20)

VILLAGE_CELLS = {(8, 11): "v", (10, 10): "G", (10, 12): "G", (9, 11): "G",   # own; (9, 11) touches v
                 (10, 11): "F",   # own neighbours (10, 10) (10, 12) (9, 11): 3
                 (9, 12): "G",    # own neighbours (9, 11) (10, 12): 2
                 (9, 10): "G",    # own neighbours (9, 11) (10, 10): 2, plus the opponent's (9, 9)
                 (9, 9): "G"}
VILLAGE_OWN = [(10, 10), (10, 12), (9, 11)]


def test_N20_village_needs_three_own_neighbours(kx):
    # VILLAGE: only (10, 11) has 3 own neighbours; (9, 12) has 2; (9, 10) has 2 own + 1 opponent.
    # Any buildable terrain (flower here, the card is forest); no adjacency fallback.
    pos = kx.position({**kx.MAND_T, **VILLAGE_CELLS}, settlements=[VILLAGE_OWN, [(9, 9)]], card="T",
                      tiles=[[(8, 11)], []])
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"village"}
    assert kx.legal(kx.with_then(pos, ["village"])) == {(10, 11)}
    built = kx.with_then(pos, ["village", (10, 11)])
    assert kx.legal(built) == kx.MAND_T_HEXES
    g = kx.game(built)
    assert kx.settlements(g, 0) == {*VILLAGE_OWN, (10, 11)}
    assert g.supply(0) == 36                                   # 40 - 3 on the board - 1 built


def test_N20_village_not_offered_without_a_three_neighbour_hex(kx):
    # the opponent stands on (10, 11): the remaining candidates have 2 own neighbours only
    pos = kx.position({**kx.MAND_T, **VILLAGE_CELLS}, settlements=[VILLAGE_OWN, [(9, 9), (10, 11)]], card="T",
                      tiles=[[(8, 11)], []])
    assert kx.legal(pos) == kx.MAND_T_HEXES


# --------------------------------------------------------------------------- garden (N-21)

GARDEN_CELLS = {(10, 10): "g", (10, 11): "G"}   # own (10, 11) touches the garden (10, 10)


def garden_position(kx, cells, opp=()):
    return kx.position({**kx.MAND_T, **GARDEN_CELLS, **cells}, settlements=[[(10, 11)], list(opp)], card="T",
                       tiles=[[(10, 10)], []])


def test_N21_garden_adjacent_if_possible(kx):
    # GARDEN: flower (10, 12) touches own (10, 11); the far flower (15, 5) is then not allowed
    pos = garden_position(kx, {(10, 12): "F", (15, 5): "F"})
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"garden"}
    assert kx.legal(kx.with_then(pos, ["garden"])) == {(10, 12)}
    built = kx.with_then(pos, ["garden", (10, 12)])
    assert kx.legal(built) == kx.MAND_T_HEXES
    g = kx.game(built)
    assert kx.settlements(g, 0) == {(10, 11), (10, 12)}
    assert g.supply(0) == 38


def test_N21_garden_anywhere_when_no_flower_touches_own(kx):
    pos = garden_position(kx, {(15, 5): "F", (15, 7): "F"})
    assert kx.legal(kx.with_then(pos, ["garden"])) == {(15, 5), (15, 7)}


def test_N21_garden_not_offered_without_an_empty_flower_hex(kx):
    # the only flower hex holds an opponent's settlement
    pos = garden_position(kx, {(10, 12): "F"}, opp=[(10, 12)])
    assert kx.legal(pos) == kx.MAND_T_HEXES
