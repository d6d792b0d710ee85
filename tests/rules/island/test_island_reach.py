"""Reaching the Island and building on it (QI-1, A-QI2 adjacency, A-QI3 Tower, X-5).

Boards are mountain-filled (conftest ``make_board``), islands are the mountain-filled 5 x 4 test islands of
island_helpers (IA3; no real island layout is known). Island neighbours (IA4, odd-r with the island's own rows):
``inb(0, 0)`` = I(0,1) I(1,0); ``inb(0, 1)`` = I(0,0) I(0,2) I(1,0) I(1,1); ``inb(1, 1)`` = I(1,0) I(1,2) I(0,1)
I(0,2) I(2,1) I(2,2); ``inb(2, 1)`` = I(2,0) I(2,2) I(1,0) I(1,1) I(3,0) I(3,1). Board neighbours of (5, 5) (odd
row): (5,4) (5,6) (4,5) (4,6) (6,5) (6,6). Player 1 holds canyon with ``OPP_C`` (conftest), so a turn of player 1
waits for a real decision.

Rule text quoted (the comments below name these):

QI_1 (EN 1445): "The island is an extra board, but not connected to the rest of the board. A player can get there by
    having to place or move a settlement to a terrain he is not adjacent to, and putting that settlement on the
    island. Once on the island, a player may be forced to play there due to being adjacent to terrains there, just
    like anywhere else on the board."
QI_1_DE (DE 1692-1695): "Kann ein Spieler nicht angrenzend bauen und darf sich ein neues freies Geländefeld zum Bau
    seiner Siedlung wählen, kann er statt einem Feld auf dem Spielplan auch ein passendes Geländefeld auf der Insel
    wählen."
EXAMPLE (EN 1450): "Example: Frank (orange) builds his three mandatory action settlements on desert (1). With his
    extra action (Oasis) he is allowed to build another settlement on a desert space. He may build it onto the
    island (2), because no unoccupied desert space is adjacent to his settlements. With his second extra action
    (Fram) he builds another settlement, next to it, on a grass space (3)."
RULE_3 (EN 276-284): "Always, a player must build each new settlement adjacent to at least one of their own existing
    settlements, if possible. If this is not possible, the player must (if mandatory action) or may (if extra
    action) choose a new unoccupied hex where they can build their settlement."
TOWER (EN 411): "Build one settlement at the edge of the game board. Choose any of the 5 suitable terrain type
    hexes. Build adjacent if possible."
BARN (EN 426): "Move any one of your existing settlements to a hex of the same terrain type as your played terrain
    card. Build adjacent if possible."
PADDOCK (EN 438): "Move any one of your existing settlements two hexes in a straight line in any direction
    (horizontally or diagonally) to an eligible hex."
A_QI2 (spec A-QI2): "Island hexes neighbour only island hexes."
A_QI3 (spec A-QI3): "TG: 'Tower CANNOT build on the Island'. Default: island hexes are not board-edge hexes (Tower,
    Advance, Compass points, Travellers)."
"""

from tests.rules.island.helpers import (
    CHOOSE_SOURCE,
    CHOOSE_TARGET,
    I,
    answer,
    game,
    inb,
    ipos,
    legal,
    own,
    requires_island,
    with_then,
)

pytestmark = requires_island


S = (5, 5)
BOARD_D = {(10, 10): "D", (10, 11): "D"}
ISLAND_D = {(0, 0): "D", (0, 1): "D", (3, 3): "D"}


def desert_position(kx, settlements=((S,), ()), then=None, island=None, **kwargs):
    cells = {**BOARD_D, S: "G", **kwargs.pop("cells", {})}
    return ipos(kx, cells, settlements=[list(p) for p in settlements], card="D", island=island or ISLAND_D, then=then,
                **kwargs)


# --------------------------------------------------------------------------- QI-1: getting there

def test_QI1_mandatory_action_without_an_adjacent_hex_may_go_to_the_island(kx):
    # RULE_3 + QI_1: no desert touches (5, 5) -> every free desert hex of the board AND of the island
    assert inb(0, 0) == {I(0, 1), I(1, 0)}
    out = answer(desert_position(kx))
    assert out["player"] == 0 and out["phase"] == "idle"
    assert out["legal"] == {(10, 10), (10, 11), I(0, 0), I(0, 1), I(3, 3)}


def test_QI1_a_player_without_settlements_may_start_on_the_island(kx):
    # first turn: nothing to be adjacent to ("a terrain he is not adjacent to") -> board and island desert
    assert legal(desert_position(kx, settlements=((), ()))) == {(10, 10), (10, 11), I(0, 0), I(0, 1), I(3, 3)}


def test_QI1_not_the_island_while_an_adjacent_hex_exists(kx):
    # RULE_3: (5, 6) desert touches (5, 5) -> the only option; the island is reached only when adjacent is impossible
    assert legal(desert_position(kx, cells={(5, 6): "D"})) == {(5, 6)}


def test_QI1_once_on_the_island_its_adjacency_applies(kx):
    # "just like anywhere else": first build I(0,0) (no adjacent option), the second must touch own settlements ->
    # I(0,1) (inb(0, 0)); the third: inb(0, 1) holds no free desert, (10, 10) (10, 11) touch nothing own -> any free
    # desert hex again: board (10, 10) (10, 11) and island I(3, 3)
    pos = desert_position(kx, then=[I(0, 0)])
    out = answer(pos)
    assert out["phase"] == "mandatory" and out["legal"] == {I(0, 1)}
    out = answer(with_then(pos, [I(0, 0), I(0, 1)]))
    assert out["phase"] == "mandatory" and out["legal"] == {(10, 10), (10, 11), I(3, 3)}
    g = game(with_then(pos, [I(0, 0), I(0, 1), I(3, 3)]))
    assert own(g, 0) == {S, I(0, 0), I(0, 1), I(3, 3)}
    assert g.supply(0) == 40 - 1 - 3


def test_QI1_a_settlement_on_the_island_forces_builds_there(kx):
    # QI_1 "may be forced to play there": own I(1,1) (grass) touches desert I(0,1); the board's desert touches
    # nothing own -> I(0,1) only; (10, 10) (10, 11) and the non-adjacent I(0,0) I(3,3) are out
    pos = desert_position(kx, settlements=((S, I(1, 1)), ()), island={**ISLAND_D, (1, 1): "G"})
    assert I(0, 1) in inb(1, 1) and I(0, 0) not in inb(1, 1)
    assert legal(pos) == {I(0, 1)}


def test_A_QI2_island_hexes_neighbour_only_island_hexes(kx):
    # own I(0,0) (grass) only: board (0, 1) and (1, 0) are board neighbours of board (0, 0), not of the island's
    # (0, 0) -> with the island's I(0,1) adjacent, the board desert is not an option
    cells = {(0, 1): "D", (1, 0): "D"}
    island = {(0, 0): "G", (0, 1): "D"}
    pos = ipos(kx, cells, settlements=[[I(0, 0)], []], card="D", island=island)
    assert legal(pos) == {I(0, 1)}
    # and the other way round: own board (0, 0) touches board (0, 1) desert, not the island's I(0, 1) / I(1, 0)
    island = {(0, 1): "D", (1, 0): "D"}
    pos = ipos(kx, {(0, 0): "G", (0, 1): "D", (12, 12): "D"}, settlements=[[(0, 0)], []], card="D", island=island)
    assert legal(pos) == {(0, 1)}


# --------------------------------------------------------------------------- QI-1: extra actions

OASIS, FARM = (5, 6), (4, 5)      # location hexes next to S
MAND_D = [(6, 5), (6, 6), (7, 5)]  # (6, 5) (6, 6) touch S; (7, 5) touches both


def frank_position(kx, then=None):
    cells = {S: "G", OASIS: "a", FARM: "f", **{h: "D" for h in MAND_D}, (12, 12): "D", (14, 14): "G"}
    island = {(1, 1): "D", (1, 2): "G", (2, 2): "G", (4, 0): "G"}
    return ipos(kx, cells, settlements=[[S], []], card="D", island=island, tiles=[[OASIS, FARM], []], then=then)


def test_QI1_en1450_oasis_to_the_island_then_farm_next_to_it(kx):
    # EXAMPLE: the three desert builds (6, 5) (6, 6) (7, 5) leave no free desert next to own settlements; the Oasis
    # may then go to any free desert: board (12, 12) or the island's I(1, 1) (2)
    pos = frank_position(kx)
    assert legal(pos) == {(6, 5), (6, 6), "oasis", "farm"}
    then = [*MAND_D, "oasis"]
    out = answer(frank_position(kx, then))
    assert out["phase"] == CHOOSE_TARGET and out["legal"] == {(12, 12), I(1, 1)}
    # (3): the Farm builds on grass next to own settlements if possible: I(1,2) and I(2,2) touch I(1,1) (inb(1, 1));
    # the board's (14, 14) and the island's I(4, 0) touch nothing own
    out = answer(frank_position(kx, [*then, I(1, 1), "farm"]))
    assert out["phase"] == CHOOSE_TARGET and out["legal"] == {I(1, 2), I(2, 2)}
    g = game(frank_position(kx, [*then, I(1, 1), "farm", I(1, 2)]))
    assert own(g, 0) == {S, *MAND_D, I(1, 1), I(1, 2)}
    assert g.supply(0) == 40 - 1 - 3 - 2


def test_QI1_the_oasis_stays_on_the_board_when_adjacent_is_possible(kx):
    # before the mandatory action (6, 5) and (6, 6) touch S -> the Oasis must take one of them
    out = answer(frank_position(kx, ["oasis"]))
    assert out["legal"] == {(6, 5), (6, 6)}


BARN_HEX = (5, 6)
S2 = (5, 7)   # (5, 6) touches both S and S2


def test_QI1_a_move_reaches_the_island(kx):
    # BARN + QI_1 "place or move": moving S, the rest (S2) touches no desert -> any free desert: (12, 12) or I(2, 2)
    cells = {S: "G", S2: "G", BARN_HEX: "b", (12, 12): "D"}
    pos = ipos(kx, cells, settlements=[[S, S2], []], card="D", island={(2, 2): "D"}, tiles=[[BARN_HEX], []])
    out = answer(with_then(pos, ["barn"]))
    assert out["phase"] == CHOOSE_SOURCE and out["legal"] == {S, S2}
    assert legal(with_then(pos, ["barn", S])) == {(12, 12), I(2, 2)}
    g = game(with_then(pos, ["barn", S, I(2, 2)]))
    assert own(g, 0) == {S2, I(2, 2)}
    assert g.supply(0) == 40 - 2


MAND_F = {(12, 3): "F", (12, 4): "F", (12, 5): "F"}   # player 0's flower card has its mandatory hexes there


def test_QI1_A_QI3_the_tower_never_builds_on_the_island(kx):
    # TOWER / A_QI3: the targets are suitable hexes at the edge of the game board. Own I(0,1) touches the island's
    # rim hex I(0,0) (grass), but the island's rim is no board edge; no edge hex touches own settlements -> every
    # free suitable board-edge hex: (0, 3), (19, 10) and player 1's canyon (16, 0) of OPP_C (column 0); (10, 10) and
    # the flower hexes are inner hexes; nothing on the island
    cells = {S: "G", (5, 6): "w", (0, 3): "G", (19, 10): "C", (10, 10): "G", **MAND_F}
    island = {(0, 0): "G", (0, 1): "G", (4, 3): "G"}
    pos = ipos(kx, cells, settlements=[[S, I(0, 1)], []], card="F", island=island, tiles=[[(5, 6)], []])
    out = answer(with_then(pos, ["tower"]))
    assert out["phase"] == CHOOSE_TARGET and out["legal"] == {(0, 3), (19, 10), (16, 0)}


def test_QI1_the_paddock_jumps_on_the_board_only(kx):
    # PADDOCK: two hexes in a straight line from S = (5, 5): (5, 3) (5, 7) (3, 4) (3, 6) (7, 4) (7, 6); of them only
    # (5, 3) is suitable (the rest is mountain). The island is not connected to the board, so no jump reaches it even
    # though every island hex is grass (our reading: a jump is no "new unoccupied hex" of QI-1)
    cells = {S: "G", (5, 6): "p", (5, 3): "G", **MAND_F}
    island = {(r, c): "G" for r in range(5) for c in range(4)}
    pos = ipos(kx, cells, settlements=[[S], []], card="F", island=island, tiles=[[(5, 6)], []])
    assert legal(with_then(pos, ["paddock", S])) == {(5, 3)}
