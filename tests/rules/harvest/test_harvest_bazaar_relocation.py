"""Harvest Bazaar: a repeated extra action relocates the pieces it placed (H-6, A-H3 amended).

Written from the rule text only (the engine in kbenv/engine/ was not read). The Harvest clarification (EN 1305-1307,
DE 1485-1488) says a repeated extra action brings no new scout tiles, warriors, wagons, ships or city tiles, "However,
these may be relocated during the turn by repeating that extra action" ("erneut platziert oder bewegt"). That specific
rule is read as standing over the general "cannot be relocated" of the scouts (EN 1331) and "remains in place" of
the city hall (EN 859). Default: the Bazaar may repeat the Scout cabin (the scouts placed this turn are picked up and
placed again where the Scout cabin could place them now) and the City hall (the city hall placed this turn goes to
another place where it could be placed now); a repeated Barracks, Wagon or Lighthouse moves the piece already there.
The rule flag ``bazaar_keeps_pieces_in_place`` is the old reading: the Bazaar may not repeat the Scout cabin or the
City hall (they are not offered in its ``choose_power`` phase); it says nothing of Barracks, Wagon and Lighthouse.

Decisions (HA9, docs/api.md): ``"bazaar"`` -> phase ``choose_power`` with the power names -> the power's own decisions.
Boards are mountain-filled; odd-r neighbours (docs/api.md) worked out by hand:

* (10, 10) touches (10, 9) (10, 11) (9, 9) (9, 10) (11, 9) (11, 10);
* (9, 10) touches (8, 10) (8, 11) (9, 9) (9, 11) (10, 10) (10, 11);
* (11, 10) touches (10, 10) (10, 11) (11, 9) (11, 11) (12, 10) (12, 11);
* (8, 10) touches (8, 9) (8, 11) (7, 9) (7, 10) (9, 9) (9, 10);
* (13, 10) touches (12, 10) (12, 11) (13, 9) (13, 11) (14, 10) (14, 11);
* (10, 11) touches (10, 10) (10, 12) (9, 10) (9, 11) (11, 10) (11, 11).

Rule text quoted (the comments below name these):

BAZAAR (EN 1297): "The player may repeat any other one of their extra actions during their turn."
BAZAAR_TOKENS (EN 1305): "By repeating an extra action the player will not gain any additional extra tokens or tiles
    like scout tiles (expansion 4) or warrior, wagon, ship and city tile (expansion 2)."
BAZAAR_RELOCATE (EN 1307): "However, these may be relocated during the turn by repeating that extra action."
BAZAAR_DE (DE 1485-1488): "Durch den Bazar bekommt der Spieler keine zusätzlichen Sonderfiguren oder Plättchen wie
    Späherplättchen (Erweiterung 4) oder Krieger, Planwagen, Schiffe, Stadtplättchen (Erweiterung 2). Diese können
    allerdings durch diese Aktion innerhalb eines Zuges erneut platziert oder bewegt werden."
SCOUT_CABIN (EN 1329): "The player may place both scout tiles on any suitable terrain, water or mountain spaces of
    the game board, connecting to their own settlements."
SCOUTS_NOT_RELOCATED (EN 1331): "Scout tiles placed next to a location do not trigger any extra action, and they
    cannot be relocated."
CITY_HALL (EN 859): "During your turn, you may place your city hall tile on the game board; once placed, this tile
    remains in place for the rest of the game. You must place it adjacent to one of your settlements on 7 empty
    spaces eligible for building."
WAGON (EN 893-895): "Move your wagon up to 3 spaces across empty spaces eligible for building or mountain spaces.
    ... Remove your wagon from the game board and place it back into your supply."
LIGHTHOUSE (EN 910-912): "Move your ship up to 3 spaces across empty water spaces. ... Remove your ship from the
    game board and place it back into your supply."
BARRACKS (EN 874-876): "Place one of your warriors on an empty space eligible for building. You must place this
    warrior adjacent to one of your settlements, if possible. Or Remove one of your warriors from the game board and
    place the token back into your supply."
"""

import pytest

from tests.rules.crossroads.helpers import MAND, MAND_G, cpos, piece
from tests.rules.harvest.helpers import CHOOSE_POWER, DONE, hpos, requires_harvest, scouts_on_board

pytestmark = requires_harvest

FLAG = "bazaar_keeps_pieces_in_place"
KEEP = {FLAG: True}

B1 = (10, 10)
BZ = (10, 9)


# --------------------------------------------------------------------------- Scout cabin

SC = (11, 9)  # scout-cabin hex, touches B1
OR = (9, 9)  # oracle hex, touches B1 (a second power the Bazaar may always repeat)
FIRST = {(9, 10), (10, 11), (11, 10)}  # mountains touching B1: where a first scout may go
NEAR_OLD = (7, 10)  # forest touching the scout spot (8, 10)
NEAR_NEW = (13, 10)  # forest touching the scout spot (12, 10)


def scout_position(kx, then=None, options=None):
    """Player 0 (forest card; MAND_T far away) holds the bazaar, scout-cabin and oracle tiles through B1."""
    cells = {**kx.MAND_T, B1: "G", NEAR_OLD: "T", NEAR_NEW: "T"}
    return hpos(
        kx,
        cells,
        settlements=[[B1], []],
        card="T",
        locations={BZ: "bazaar", SC: "scout_cabin", OR: "oracle"},
        tiles=[[BZ, SC, OR], []],
        then=then,
        options=options,
    )


PLACED = ["scout_cabin", (9, 10), (8, 10)]


def test_A_H3_the_bazaar_repeats_the_scout_cabin_to_relocate_both_scouts(kx):
    # BAZAAR_RELOCATE / BAZAAR_DE "erneut platziert": the scouts (9, 10) (8, 10) placed this turn are picked up and
    # placed again as SCOUT_CABIN says: the first touching own settlements (FIRST; the freed (9, 10) among them, the
    # hexes touching only the old spots, like (8, 11) (9, 11), not), the second touching B1 or the first scout.
    pos = scout_position(kx)
    # with the scouts on (9, 10) (8, 10) the forest NEAR_OLD touches own pieces: the only mandatory start
    assert kx.legal(kx.with_then(pos, PLACED)) == {NEAR_OLD, "bazaar", "oracle"}
    out = kx.answer(kx.with_then(pos, PLACED + ["bazaar"]))
    assert out["phase"] == CHOOSE_POWER and out["legal"] == {"scout_cabin", "oracle"}
    out = kx.answer(kx.with_then(pos, PLACED + ["bazaar", "scout_cabin"]))
    assert out["phase"] == "choose_target" and out["legal"] == FIRST
    second = {(9, 10), (10, 11), (11, 11), (12, 10), (12, 11)}  # free neighbours of B1 and (11, 10)
    assert kx.legal(kx.with_then(pos, PLACED + ["bazaar", "scout_cabin", (11, 10)])) == second | {DONE}
    moved = PLACED + ["bazaar", "scout_cabin", (11, 10), (12, 10)]
    g = kx.game(kx.with_then(pos, moved))
    assert scouts_on_board(g, 0) == {(11, 10), (12, 10)}  # BAZAAR_TOKENS: still the two scout tiles
    assert kx.settlements(g, 0) == {B1} and g.supply(0) == 39
    assert not g.occupied() & {(9, 10), (8, 10)}  # the old spots are free again
    # the relocated scouts count as settlements from their new spots: NEAR_NEW is now the only mandatory start
    assert kx.legal(kx.with_then(pos, moved)) == {NEAR_NEW, "oracle"}
    # and they still leave at the end of the turn (the oracle, still usable, keeps the turn open: end it by hand)
    g = kx.game(kx.with_then(pos, moved + [NEAR_NEW, (18, 0), (18, 1), "end_turn"]))
    assert g.current_player == 1 and scouts_on_board(g, 0) == set()
    assert kx.settlements(g, 0) == {B1, NEAR_NEW, (18, 0), (18, 1)}


def test_A_H3_a_relocation_brings_no_additional_scout(kx):
    # BAZAAR_TOKENS "will not gain any additional ... scout tiles": one scout placed this turn is relocated, the
    # repeat places no second one (after the relocated scout the power is over). No forest touches B1 or the scout
    # on (11, 10), so the mandatory action may start on any forest hex.
    pos = scout_position(kx, then=["scout_cabin", (9, 10), DONE, "bazaar", "scout_cabin"])
    assert kx.legal(pos) == FIRST
    after = kx.with_then(pos, ["scout_cabin", (9, 10), DONE, "bazaar", "scout_cabin", (11, 10)])
    out = kx.answer(after)
    assert out["phase"] == "idle" and out["legal"] == kx.MAND_T_HEXES | {NEAR_OLD, NEAR_NEW, "oracle"}
    assert scouts_on_board(kx.game(after), 0) == {(11, 10)}


def test_A_H3_flag_the_bazaar_does_not_repeat_the_scout_cabin(kx):
    # the old reading (flag bazaar_keeps_pieces_in_place, SCOUTS_NOT_RELOCATED "they cannot be relocated"): the
    # Bazaar names only the oracle; the scouts stay where they are
    pos = scout_position(kx, options=KEEP)
    out = kx.answer(kx.with_then(pos, PLACED + ["bazaar"]))
    assert out["phase"] == CHOOSE_POWER and out["legal"] == {"oracle"}
    kx.then_error(scout_position(kx, then=PLACED + ["bazaar", "scout_cabin"], options=KEEP), 4)
    assert scouts_on_board(kx.game(kx.with_then(pos, PLACED + ["bazaar"])), 0) == {(9, 10), (8, 10)}


# --------------------------------------------------------------------------- City hall (with Crossroads)

Y = (10, 10)  # city hall hex
HOME = (10, 11)  # player 0's settlement, touches Y and BZC
BZC = (9, 10)  # bazaar hex, touches Y and HOME only (no cell of R1 or R2)
R1 = (10, 13)  # centre of a rosette whose cell (10, 12) touches HOME
R1_CELLS = {(10, 13): "C", (10, 12): "F", (10, 14): "T", (9, 12): "C", (9, 13): "F", (11, 12): "T", (11, 13): "D"}
R2 = (12, 10)  # centre of a rosette whose cell (11, 10) touches HOME; no cell of it touches a cell of R1
R2_CELLS = {(12, 10): "D", (11, 9): "C", (11, 10): "F", (12, 9): "T", (12, 11): "C", (13, 9): "F", (13, 10): "T"}


def city_hall_position(kx, city_halls=None, options=None, then=None):
    """Crossroads + Harvest; player 0 (grass card, MAND_G far away) holds the city hall and bazaar tiles; player 1
    holds desert with OPP_D. R1 and R2 are the only places for the city hall (7 free buildable hexes touching own)."""
    cells = {**MAND_G, Y: "L", BZC: "L", HOME: "D", **R1_CELLS, **R2_CELLS}
    pos = cpos(
        kx,
        cells,
        settlements=[[HOME], []],
        tiles=[[Y, BZC], []],
        city_halls=city_halls,
        expansions=("crossroads", "harvest"),
        options=options,
        then=then,
    )
    pos["locations"] = {f"{Y[0]},{Y[1]}": "city_hall", f"{BZC[0]},{BZC[1]}": "bazaar"}
    return pos


def test_A_H3_the_bazaar_repeats_the_city_hall_to_relocate_it(kx):
    # BAZAAR_RELOCATE / BAZAAR_DE: the city hall placed on R1 this turn goes to R2, the other place where CITY_HALL
    # allows it now; the city hall tile stays one (BAZAAR_TOKENS), R1's cells are free again. Whether R1 itself (no
    # relocation) is offered is left open.
    pos = city_hall_position(kx)
    assert kx.legal(kx.with_then(pos, ["city_hall"])) == {R1, R2}
    placed = ["city_hall", R1]
    assert kx.legal(kx.with_then(pos, placed)) == MAND | {"bazaar"}
    out = kx.answer(kx.with_then(pos, placed + ["bazaar"]))
    assert out["phase"] == CHOOSE_POWER and out["legal"] == {"city_hall"}
    out = kx.answer(kx.with_then(pos, placed + ["bazaar", "city_hall"]))
    assert out["phase"] == "choose_target" and out["legal"] - {R1} == {R2}
    moved = kx.with_then(pos, placed + ["bazaar", "city_hall", R2])
    g = kx.game(moved)
    assert piece(g, 0, "city_hall") == R2
    assert not g.occupied() & set(R1_CELLS)
    assert set(R2_CELLS) <= g.occupied()
    assert kx.settlements(g, 0) == {HOME} and g.supply(0) == 39
    assert kx.legal(moved) == MAND  # both tiles used: the mandatory action is left


def test_A_H3_flag_the_bazaar_does_not_repeat_the_city_hall(kx):
    # the old reading (flag, CITY_HALL "once placed, this tile remains in place"): nothing else to repeat, so the
    # Bazaar has no use and is not offered
    pos = city_hall_position(kx, options=KEEP, then=["city_hall", R1])
    assert kx.legal(pos) == MAND
    kx.then_error(city_hall_position(kx, options=KEEP, then=["city_hall", R1, "bazaar"]), 2)


# --------------------------------------------------------------------------- Wagon and Lighthouse (with Crossroads)

PIECE_CASES = {
    # power, piece key, its location hex, extra cells, where it is placed, its first-step hexes (the placed hex
    # itself = back to the supply), the step taken
    "wagon": (
        "wagon",
        "wagon",
        (11, 9),
        {(10, 11): "G", (11, 10): "G", (12, 10): "G", (12, 11): "G"},
        (11, 10),
        {(10, 11), (11, 11), (12, 10), (12, 11), (11, 10)},
        (12, 10),
    ),
    "lighthouse": (
        "lighthouse",
        "ship",
        (11, 9),
        {(10, 11): "W", (10, 12): "W", (10, 13): "W"},
        (10, 11),
        {(10, 12), (10, 11)},
        (10, 12),
    ),
}


@pytest.mark.parametrize("options", [None, KEEP], ids=["default", "flag"])
@pytest.mark.parametrize("case", list(PIECE_CASES))
def test_A_H3_a_repeated_wagon_or_lighthouse_moves_the_piece_placed_this_turn(kx, case, options):
    # BAZAAR_TOKENS "will not gain any additional ... wagon, ship" / BAZAAR_RELOCATE: after placing the piece, the
    # Bazaar repeats the power, whose options with the piece on the board are WAGON / LIGHTHOUSE's move (a
    # neighbouring hex it may enter) or back to the supply (its own hex): no second piece. The flag names only the
    # Scout cabin and the City hall, so it changes nothing here. Wagon: its neighbours (10, 10) B1 (occupied) and
    # (11, 9) (a location) are closed, the mountain (11, 11) is open. Ship: only the water (10, 12) touches (10, 11).
    power, key, loc, extra, placed_at, steps, step = PIECE_CASES[case]
    cells = {**kx.MAND_T, B1: "G", **extra}
    pos = hpos(
        kx,
        cells,
        settlements=[[B1], []],
        card="T",
        locations={BZ: "bazaar", loc: power},
        tiles=[[BZ, loc], []],
        expansions=("harvest", "crossroads"),
        options=options,
    )
    placed = [power, placed_at]
    assert kx.legal(kx.with_then(pos, placed)) == kx.MAND_T_HEXES | {"bazaar"}
    out = kx.answer(kx.with_then(pos, placed + ["bazaar"]))
    assert out["phase"] == CHOOSE_POWER and out["legal"] == {power}
    assert kx.legal(kx.with_then(pos, placed + ["bazaar", power])) == steps
    g = kx.game(kx.with_then(pos, placed + ["bazaar", power, step, DONE]))
    assert piece(g, 0, key) == step
    assert placed_at not in g.occupied()


# --------------------------------------------------------------------------- Barracks (with Crossroads)

BK = (11, 9)  # barracks hex, touches B1


def test_A_H3_a_repeated_barracks_places_again_the_warrior_taken_back(kx):
    # BAZAAR_TOKENS "will not gain any additional ... warrior" / BAZAAR_DE "erneut platziert": the Barracks has two
    # options (BARRACKS), place or take back, and no move; repeated by the Bazaar it offers them again, so a warrior
    # is relocated in one turn by taking it back with one use and placing it with the other. Player 0's warriors
    # stand on (5, 5) and (10, 11) (none in the supply); (10, 11)'s zone closes (9, 10) and (11, 10) (C-12), so
    # (9, 9), next to B1, is where a warrior goes now ("adjacent ... if possible": not the far (5, 5)).
    cells = {**kx.MAND_T, B1: "G", (10, 11): "G", (11, 10): "G", (9, 10): "G", (9, 9): "G", (5, 5): "G"}
    pos = hpos(
        kx,
        cells,
        settlements=[[B1], []],
        card="T",
        locations={BZ: "bazaar", BK: "barracks"},
        tiles=[[BZ, BK], []],
        expansions=("harvest", "crossroads"),
    )
    pos["warriors"] = [[[5, 5], [10, 11]], []]
    assert kx.legal(kx.with_then(pos, ["barracks"])) == {(5, 5), (10, 11)}  # both out: take one back
    taken = ["barracks", (5, 5), "bazaar"]
    assert "barracks" in kx.legal(kx.with_then(pos, taken))
    targets = kx.legal(kx.with_then(pos, [*taken, "barracks"]))
    assert (9, 9) in targets and (5, 5) not in targets and (9, 10) not in targets, targets
    g = kx.game(kx.with_then(pos, [*taken, "barracks", (9, 9)]))
    assert {tuple(h) for h in g.pieces(0)["warriors"]} == {(10, 11), (9, 9)}
    assert (5, 5) not in g.occupied()
