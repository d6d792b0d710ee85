"""The 8 location tile powers (base rulebook "Extra location tile actions - Apply building rules
as usual" and building rule 3 a)-c)).

Every test puts the power's location hex at (2, 2) with player 0's settlement (2, 3) next to
it (all other neighbours of (2, 3) are mountain), and player 0 holds that tile since before this
turn. Odd-r geometry: 2-step straight moves from (r, c) go to (r, c+-2), (r-2, c-1), (r-2, c+1),
(r+2, c-1), (r+2, c+1).
"""

import pytest

ORACLE = ("Build one settlement on a hex of the same terrain type as your played terrain card. "
          "Build adjacent if possible.")
FARM = "Build one settlement on a grass hex. Build adjacent if possible."
OASIS = "Build one settlement on a desert hex. Build adjacent if possible."
SKIP = ("Skip this action if there is not a single unoccupied grass [desert] hex on the game "
        "board.")
TOWER = ("Build one settlement at the edge of the game board. Choose any of the 5 suitable "
         "terrain type hexes. Build adjacent if possible.")
TAVERN = ("Build one settlement at one end of a line of at least 3 of your own settlements. The "
          "orientation of the line does not matter (horizontally or diagonally). The chosen hex "
          "must be suitable for building.")
BARN = ("Move any one of your existing settlements to a hex of the same terrain type as your "
        "played terrain card. Build adjacent if possible.")
HARBOR = ("Move any one of your existing settlements to a water hex. Build adjacent if possible. "
          "This is the only way to build settlements on water hexes.")
PADDOCK = ("Move any one of your existing settlements two hexes in a straight line in any "
           "direction (horizontally or diagonally) to an eligible hex. You may jump across any "
           "terrain type hex, even water, mountain, castle and location, and/or your own and "
           "other players' settlements. The target hex must not necessarily be adjacent to one of "
           "your own settlements (building rule no. 3 does not apply in this case).")
BUILD_FROM_SUPPLY = "Extra action: Build one additional settlement from your personal supply."

LOC = (2, 2)
HOME = (2, 3)
CODE = {"oracle": "o", "farm": "f", "oasis": "a", "tower": "w", "tavern": "t", "barn": "b",
        "harbor": "h", "paddock": "p"}


def power_game(kb, tile, cells, own=(), hand="G", opp=(), **kwargs):
    """Player 0 holds ``tile`` (location (2, 2), settlement (2, 3)) plus settlements ``own``;
    player 1 has settlements ``opp`` and the same card."""
    board = {LOC: CODE[tile], HOME: "C"}
    board.update(cells)
    return kb.game(board, hands=[hand, hand], settlements=[[HOME, *own], list(opp)],
                   tiles=[[LOC], []], **kwargs)


def activate(kb, g, tile):
    assert tile in kb.tile_actions(g)
    g.step(kb.TILE[tile])


# --------------------------------------------------------------------------- oracle


@pytest.mark.parametrize("card,expected", [("G", (10, 11)), ("C", (10, 9))])
def test_oracle_builds_on_card_terrain_adjacent_if_possible(kb, card, expected):
    # ORACLE: own (10, 10) touches grass (10, 11) and canyon (10, 9); far grass and canyon exist.
    cells = {(10, 10): "T", (10, 11): "G", (10, 9): "C",
             (15, 2): "G", (15, 4): "G", (15, 6): "C", (15, 8): "C"}
    g = power_game(kb, "oracle", cells, own=[(10, 10)], hand=card)
    supply = g.supply(0)
    activate(kb, g, "oracle")
    assert g.phase == "choose_target"
    assert kb.legal(g) == {kb.H(*expected)}
    kb.build(g, expected)
    assert expected in g.settlements(0)
    assert g.supply(0) == supply - 1  # BUILD_FROM_SUPPLY
    assert g.phase == "idle" and g.current_player == 0
    assert "oracle" not in kb.tile_actions(g)


def test_oracle_anywhere_on_card_terrain_if_not_adjacent(kb):
    cells = {(10, 10): "T", (15, 2): "G", (15, 4): "G", (6, 12): "G", (17, 9): "C"}
    g = power_game(kb, "oracle", cells, own=[(10, 10)], hand="G", opp=[])
    activate(kb, g, "oracle")
    assert kb.hexes(g) == {(15, 2), (15, 4), (6, 12)}


def test_oracle_settlement_then_counts_for_mandatory_adjacency(kb):
    # Building rule 3 applies to the following mandatory settlements: (10, 12) touches the
    # oracle settlement (10, 11) and must be taken.
    cells = {(10, 10): "T", (10, 11): "G", (10, 12): "G", (15, 2): "G", (15, 4): "G"}
    g = power_game(kb, "oracle", cells, own=[(10, 10)], hand="G")
    kb.use(g, "oracle", (10, 11))
    assert kb.legal(g) == {kb.H(10, 12)}


# --------------------------------------------------------------------------- farm / oasis


@pytest.mark.parametrize("tile,terrain", [("farm", "G"), ("oasis", "D")])
def test_farm_oasis_build_their_terrain_adjacent_if_possible(kb, tile, terrain):
    # FARM / OASIS: the tile's terrain, whatever the card (canyon here).
    cells = {(10, 10): "T", (10, 11): terrain, (17, 2): terrain, (17, 4): terrain,
             (10, 9): "C", (15, 10): "C", (15, 12): "C", (15, 14): "C"}
    g = power_game(kb, tile, cells, own=[(10, 10)], hand="C")
    supply = g.supply(0)
    activate(kb, g, tile)
    assert g.phase == "choose_target"
    assert kb.legal(g) == {kb.H(10, 11)}
    kb.build(g, (10, 11))
    assert (10, 11) in g.settlements(0)
    assert g.supply(0) == supply - 1
    assert g.phase == "idle"


@pytest.mark.parametrize("tile,terrain", [("farm", "G"), ("oasis", "D")])
def test_farm_oasis_anywhere_if_not_adjacent(kb, tile, terrain):
    cells = {(10, 10): "T", (17, 2): terrain, (17, 4): terrain, (6, 15): terrain,
             (15, 10): "C", (15, 12): "C", (15, 14): "C"}
    g = power_game(kb, tile, cells, own=[(10, 10)], hand="C", opp=[(6, 15)])
    activate(kb, g, tile)
    assert kb.hexes(g) == {(17, 2), (17, 4)}


@pytest.mark.parametrize("tile,terrain", [("farm", "G"), ("oasis", "D")])
def test_farm_oasis_unavailable_without_free_hex(kb, tile, terrain):
    # SKIP: the only grass/desert hex is occupied by player 1.
    cells = {(10, 10): "T", (17, 2): terrain, (15, 10): "C", (15, 12): "C", (15, 14): "C"}
    g = power_game(kb, tile, cells, own=[(10, 10)], hand="C", opp=[(17, 2)])
    assert kb.tile_actions(g) == set()
    kb.assert_illegal(g, kb.TILE[tile])


# --------------------------------------------------------------------------- tower

EDGE_CELLS = {
    # buildable edge hexes (row 0, row 19, col 0, col 19), every terrain
    (0, 5): "G", (0, 6): "C", (19, 3): "D", (7, 0): "F", (12, 19): "T", (19, 0): "G",
    # not legal: water / castle on the edge, occupied edge hex, buildable interior hexes
    (0, 7): "W", (19, 19): "K", (19, 10): "G", (1, 5): "G", (18, 3): "D", (10, 11): "G",
    (10, 10): "T",
}
EDGE_FREE = {(0, 5), (0, 6), (19, 3), (7, 0), (12, 19), (19, 0)}


@pytest.mark.parametrize("card", ["G", "C"])
def test_tower_any_free_buildable_edge_hex(kb, card):
    # TOWER + rule 3 c): no own settlement touches the edge, so every free edge hex of the five
    # buildable terrains, whatever the card.
    g = power_game(kb, "tower", EDGE_CELLS, own=[(10, 10)], hand=card, opp=[(19, 10)])
    supply = g.supply(0)
    activate(kb, g, "tower")
    assert g.phase == "choose_target"
    assert kb.hexes(g) == EDGE_FREE
    kb.build(g, (19, 3))
    assert (19, 3) in g.settlements(0)
    assert g.supply(0) == supply - 1


@pytest.mark.parametrize("own,edge", [
    ((1, 8), (0, 8)), ((10, 18), (10, 19)), ((18, 5), (19, 5)), ((9, 1), (9, 0)),
])
def test_tower_adjacent_if_possible(kb, own, edge):
    # TOWER "Build adjacent if possible": the own settlement touches exactly one free edge hex.
    cells = dict(EDGE_CELLS)
    cells.update({own: "T", edge: "F", (1, 9): "G", (0, 9): "K"})
    g = power_game(kb, "tower", cells, own=[(10, 10), own], hand="G", opp=[(19, 10)])
    activate(kb, g, "tower")
    assert kb.hexes(g) == {edge}


# --------------------------------------------------------------------------- tavern

TAVERN_LINES = [
    (10, 5), (10, 6), (10, 7),      # horizontal; ends (10, 4) and (10, 8)
    (12, 10), (13, 10), (14, 11),   # diagonal down-right; ends (11, 9) and (15, 11)
    (4, 12), (5, 11), (6, 11),      # diagonal down-left; ends (3, 12) and (7, 10)
    (17, 3), (17, 4),               # only two in a line; ends (17, 2) and (17, 5)
]


def test_tavern_ends_of_lines_of_three_in_all_three_axes(kb):
    cells = {rc: "T" for rc in TAVERN_LINES}
    cells.update({
        (10, 4): "G", (10, 8): "C", (11, 9): "D", (3, 12): "F",   # legal ends, any terrain
        (15, 11): "W",                                            # end not buildable
        (7, 10): "T",                                             # end occupied by player 1
        (17, 2): "G", (17, 5): "G",                               # ends of a line of two
        (9, 6): "G",                                              # beside a line, not at an end
        (18, 15): "C", (18, 16): "C", (18, 17): "C",
    })
    g = power_game(kb, "tavern", cells, own=TAVERN_LINES, hand="C", opp=[(7, 10)])
    supply = g.supply(0)
    activate(kb, g, "tavern")
    assert g.phase == "choose_target"
    # TAVERN: ends of lines of >= 3 own settlements in the 3 axes, free and buildable.
    assert kb.hexes(g) == {(10, 4), (10, 8), (11, 9), (3, 12)}
    kb.build(g, (11, 9))
    assert (11, 9) in g.settlements(0)
    assert g.supply(0) == supply - 1


def test_tavern_line_of_four_only_outer_ends(kb):
    line = [(16, 8), (16, 9), (16, 10), (16, 11)]
    cells = {rc: "T" for rc in line}
    cells.update({(16, 7): "G", (16, 12): "G", (15, 9): "G", (17, 9): "G", (3, 15): "G"})
    g = power_game(kb, "tavern", cells, own=line, hand="G")
    activate(kb, g, "tavern")
    assert kb.hexes(g) == {(16, 7), (16, 12)}


@pytest.mark.parametrize("layout", ["pairs_and_gap", "ends_blocked"])
def test_tavern_unavailable(kb, layout):
    if layout == "pairs_and_gap":
        # A line of two, and three own settlements in a row broken by player 1's settlement.
        own = [(17, 3), (17, 4), (8, 14), (8, 16), (8, 17)]
        opp = [(8, 15)]
        cells = {rc: "T" for rc in own + opp}
        cells.update({(17, 2): "G", (17, 5): "G", (8, 13): "G", (8, 18): "G"})
    else:
        # A line of three whose ends are water and mountain.
        own = [(10, 5), (10, 6), (10, 7)]
        opp = []
        cells = {rc: "T" for rc in own}
        cells.update({(10, 4): "W", (10, 8): "M", (9, 6): "G"})
    cells.update({(3, 15): "G", (3, 17): "G"})
    g = power_game(kb, "tavern", cells, own=own, hand="G", opp=opp)
    assert kb.tile_actions(g) == set()
    kb.assert_illegal(g, kb.TILE["tavern"])


# --------------------------------------------------------------------------- barn / harbor

A, B = (10, 10), (14, 14)
X, Y, Z = (10, 11), (14, 15), (18, 2)   # X touches only A, Y touches only B, Z nothing


@pytest.mark.parametrize("tile,terrain", [("barn", "G"), ("harbor", "W")])
@pytest.mark.parametrize("source,expected", [(A, {Y}), (B, {X}), (HOME, {X, Y})])
def test_move_adjacent_if_possible_judged_without_moved_settlement(kb, tile, terrain, source,
                                                                   expected):
    # BARN / HARBOR "Build adjacent if possible": adjacency to the player's other settlements
    # (the moved one has left its hex). (9, 10), next to A, has the other terrain (water for the
    # barn, grass for the harbor) and is never a target.
    other = {"barn": "W", "harbor": "G"}[tile]
    cells = {A: "T", B: "T", X: terrain, Y: terrain, Z: terrain, (9, 10): other,
             (16, 5): "G", (16, 7): "G", (16, 9): "G"}
    g = power_game(kb, tile, cells, own=[A, B], hand="G")
    supply = g.supply(0)
    activate(kb, g, tile)
    assert g.phase == "choose_source"
    # Every own settlement has a destination.
    assert kb.legal(g) == {kb.H(*HOME), kb.H(*A), kb.H(*B)}
    kb.build(g, source)
    assert g.phase == "choose_target"
    assert kb.hexes(g) == expected
    target = sorted(expected)[0]
    kb.build(g, target)
    assert g.settlements(0) == ({HOME, A, B} - {source}) | {target}
    assert g.supply(0) == supply  # moving does not use the supply
    assert g.phase == "idle" and g.current_player == 0
    assert tile not in kb.tile_actions(g)


@pytest.mark.parametrize("tile,terrain", [("barn", "G"), ("harbor", "W")])
def test_move_only_settlement_goes_anywhere(kb, tile, terrain):
    # The player's only settlement is lifted: no own settlement remains, so nothing can be
    # adjacent and any free hex of the required terrain is legal, also one next to the old hex.
    cells = {(2, 4): terrain, (12, 12): terrain, (17, 5): terrain}
    if tile == "harbor":
        cells.update({(16, 9): "G", (16, 11): "G", (16, 13): "G"})  # for the grass card
    g = power_game(kb, tile, cells, hand="G")
    activate(kb, g, tile)
    kb.build(g, HOME)
    assert kb.hexes(g) == {(2, 4), (12, 12), (17, 5)}


def test_barn_uses_played_card_terrain(kb):
    # BARN: "a hex of the same terrain type as your played terrain card" (canyon here), adjacent
    # to the remaining settlements if possible: (10, 9), not the grass hex X.
    cells = {A: "T", B: "T", (10, 9): "C", X: "G", (18, 4): "C", (16, 5): "C"}
    g = power_game(kb, "barn", cells, own=[A, B], hand="C")
    activate(kb, g, "barn")
    kb.build(g, B)
    assert kb.hexes(g) == {(10, 9)}


def test_harbor_unavailable_without_free_water(kb):
    cells = {A: "T", (10, 11): "G", (16, 5): "G", (16, 7): "G"}
    g = power_game(kb, "harbor", cells, own=[A], hand="G")
    assert kb.tile_actions(g) == set()
    kb.assert_illegal(g, kb.TILE["harbor"])


# --------------------------------------------------------------------------- paddock

S, S2, OWN_MID = (10, 10), (0, 19), (9, 9)


def _paddock_cells():
    return {
        S: "T", OWN_MID: "T", S2: "T",
        (10, 11): "W", (10, 12): "G",     # east: over water to grass
        (10, 9): "K", (10, 8): "C",       # west: over a castle to canyon
        (8, 11): "D",                     # north-east: over mountain (9, 10) to desert
        (8, 9): "W",                      # north-west: over own (9, 9) to water (not eligible)
        (11, 10): "G", (12, 11): "F",     # south-east: over player 1 to flower field
        (11, 9): "G", (12, 9): "T",       # south-west: to a hex occupied by player 1
        (8, 10): "G", (12, 10): "G",      # two away, but not in a straight line
        (3, 0): "G", (18, 18): "G", (19, 0): "G", (1, 1): "G",  # wrap-around traps for S2
        (17, 14): "G", (17, 16): "G", (17, 18): "G",
    }


def test_paddock_two_hexes_straight_any_direction(kb):
    g = power_game(kb, "paddock", _paddock_cells(), own=[S, OWN_MID, S2], hand="G",
                   opp=[(11, 10), (12, 9)])
    supply = g.supply(0)
    activate(kb, g, "paddock")
    assert g.phase == "choose_source"
    # HOME, OWN_MID and S2 (corner of the board) have no eligible hex two steps away.
    assert kb.legal(g) == {kb.H(*S)}
    kb.build(g, S)
    assert g.phase == "choose_target"
    # PADDOCK: jumps over anything, target buildable and free, no adjacency requirement.
    assert kb.hexes(g) == {(10, 12), (10, 8), (8, 11), (12, 11)}
    kb.build(g, (12, 11))
    assert g.settlements(0) == {HOME, OWN_MID, S2, (12, 11)}
    assert g.supply(0) == supply
    assert g.phase == "idle"


def test_paddock_ignores_adjacency(kb):
    # PADDOCK "building rule no. 3 does not apply": both straight 2-step targets are legal
    # although only one of them touches another own settlement.
    cells = {S: "T", (10, 12): "G", (10, 8): "G", (10, 13): "T", (17, 4): "G", (17, 6): "G"}
    g = power_game(kb, "paddock", cells, own=[S, (10, 13)], hand="G")
    activate(kb, g, "paddock")
    kb.build(g, S)
    assert kb.hexes(g) == {(10, 12), (10, 8)}


def test_paddock_unavailable_without_destination(kb):
    cells = {(15, 4): "G", (15, 6): "G"}
    g = power_game(kb, "paddock", cells, hand="G")
    assert kb.tile_actions(g) == set()
    kb.assert_illegal(g, kb.TILE["paddock"])


# --------------------------------------------------------------------------- supply


def test_build_powers_need_supply_move_powers_do_not(kb):
    # BUILD_FROM_SUPPLY: with an empty supply the farm cannot be used; the barn (a move) can.
    cells = {LOC: "f", HOME: "C", (6, 2): "b", (6, 3): "C",
             (12, 12): "G", (12, 13): "G", (12, 14): "G", (12, 15): "G", (12, 16): "G"}
    g = kb.game(cells, hands=["G", "G"], settlements=[[HOME, (6, 3)], []],
                tiles=[[LOC, (6, 2)], []], supply=[3, 40])
    assert kb.tile_actions(g) == {"farm", "barn"}
    kb.build(g, (12, 12), (12, 13), (12, 14))
    assert g.supply(0) == 0
    assert g.phase == "idle" and g.current_player == 0
    assert kb.legal(g) == {kb.TILE["barn"], kb.END_TURN}
    kb.assert_illegal(g, kb.TILE["farm"])
    # (6, 3) is lifted; the grass hex next to the remaining settlements is (12, 15).
    kb.use(g, "barn", (6, 3))
    assert kb.hexes(g) == {(12, 15)}
    kb.build(g, (12, 15))
    assert g.supply(0) == 0
    assert (12, 15) in g.settlements(0) and (6, 3) not in g.settlements(0)


# --------------------------------------------------------------------------- illegal choices


def test_illegal_choices_while_moving_change_nothing(kb):
    # BARN: only the player's own settlements can be moved ("any one of your existing
    # settlements"); the destination must follow the barn's rules; a started power cannot be
    # interrupted by END_TURN, another power or a mandatory build.
    cells = {A: "T", B: "T", X: "G", Y: "G", Z: "G", (6, 2): "f", (6, 3): "C",
             (16, 16): "T", (16, 5): "G"}
    g = kb.game({LOC: "b", HOME: "C", **cells}, hands=["G", "G"],
                settlements=[[HOME, A, B, (6, 3)], [(16, 16)]], tiles=[[LOC, (6, 2)], []])
    g.step(kb.TILE["barn"])
    assert g.phase == "choose_source"
    for bad in [kb.H(16, 16), kb.H(*X), kb.H(0, 0), kb.END_TURN, kb.TILE["farm"],
                kb.TILE["barn"]]:
        kb.assert_illegal(g, bad)
    kb.build(g, A)
    assert g.phase == "choose_target"
    for bad in [kb.H(*X), kb.H(*Z), kb.H(*A), kb.H(*B), kb.H(16, 16), kb.END_TURN,
                kb.TILE["farm"]]:
        kb.assert_illegal(g, bad)
    assert kb.hexes(g) == {Y}
    kb.build(g, Y)
    assert g.settlements(0) == {HOME, B, Y, (6, 3)}


def test_illegal_paddock_targets_change_nothing(kb):
    g = power_game(kb, "paddock", _paddock_cells(), own=[S, OWN_MID, S2], hand="G",
                   opp=[(11, 10), (12, 9)])
    g.step(kb.TILE["paddock"])
    kb.assert_illegal(g, kb.H(*OWN_MID))   # no eligible hex two steps away
    kb.assert_illegal(g, kb.H(11, 10))     # player 1's settlement
    kb.build(g, S)
    for bad in [(11, 9), (8, 10), (12, 10), (8, 9), (12, 9), (17, 14), (10, 11)]:
        kb.assert_illegal(g, kb.H(*bad))
    assert g.settlements(0) == {HOME, S, OWN_MID, S2}


def test_tower_adjacent_edge_hex_occupied_then_any_edge_hex(kb):
    # TOWER "Build adjacent if possible": the only edge hex next to (1, 8) is occupied, so no
    # adjacent edge hex is possible and any free buildable edge hex is legal.
    cells = dict(EDGE_CELLS)
    cells.update({(1, 8): "T", (0, 8): "F", (1, 9): "G"})
    g = power_game(kb, "tower", cells, own=[(10, 10), (1, 8)], hand="G",
                   opp=[(19, 10), (0, 8)])
    activate(kb, g, "tower")
    assert kb.hexes(g) == EDGE_FREE
