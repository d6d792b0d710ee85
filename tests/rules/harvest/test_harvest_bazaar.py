"""Harvest Bazaar (H-6, A-H3).

Mountain-filled board. Player 0's settlement ``B1`` = (10, 10) touches the bazaar hex ``BZ`` = (10, 9), the oracle
hex ``OR`` = (9, 10) and the farmland (11, 10); (9, 9) and (11, 9) are its other neighbours. Its card is forest:
``FOREST_ROW`` = (10, 11) (10, 12) (10, 13) (each touches the one before; (10, 11) touches B1) and ``MAND_T`` far
away, so the oracle and the mandatory action build along FOREST_ROW. Player 1 holds canyon with ``OPP_C``. After
``"bazaar"`` the player names the power to repeat (phase ``CHOOSE_POWER``, HA9).

Rule text quoted (the comments below name these):

BAZAAR (EN 1297): "The player may repeat any other one of their extra actions during their turn."
BAZAAR_NOTE (EN 1299): "Note: However, they cannot repeat the farm action."
BAZAAR_DE (DE 1478): "Eine der eigenen anderen Sonderaktionen eines Ortsplättchens kann ein zweites Mal im gleichen
    Zug verwendet werden."
BAZAAR_TOKENS (EN 1305): "By repeating an extra action the player will not gain any additional extra tokens or tiles
    like scout tiles (expansion 4) or warrior, wagon, ship and city tile (expansion 2)."
BAZAAR_RELOCATE (EN 1307): "However, these may be relocated during the turn by repeating that extra action."
BAZAAR_NOMADS (EN 1309): "The bazaar action can be used in combination with extra actions of location tiles only,
    not with the nomads' tiles (expansion 1)."
A_H3 (spec A-H3, amended: the text): "(a) It grants one more use of another held, usable (not fresh) location power
    this turn, whether or not it was already used. (b) Only a power already used this turn. Default (a) (DE 'ein
    zweites Mal'), flag. It cannot target bazaar, the farm action, nomad tiles or bonus actions (R). Two bazaar
    tiles give two repeats. City hall ... has no completion under Bazaar. Scout cabin repeat: no new scouts (EN
    1305), and relocating is forbidden (EN 1331: 'cannot be relocated'), so it has no completion."
"""

from tests.rules.harvest.helpers import (
    CHOOSE_POWER,
    DONE,
    FARM,
    flag,
    hpos,
    requires_harvest,
    scouts_on_board,
    with_options,
)

pytestmark = requires_harvest

# (BAZAAR_RELOCATE) lets a repeat relocate the scouts and the city hall; the spec's reading is the flag
# bazaar_keeps_pieces_in_place.

B1 = (10, 10)
BZ = (10, 9)
OR = (9, 10)
FARMLAND = (11, 10)
FOREST_ROW = [(10, 11), (10, 12), (10, 13)]


def bazaar_position(kx, then=None, extra_cells=None, locations=None, tiles=(), **kwargs):
    cells = {**kx.MAND_T, B1: "G", FARMLAND: "A", **{h: "T" for h in FOREST_ROW}, **(extra_cells or {})}
    locs = {BZ: "bazaar", OR: "oracle", **(locations or {})}
    return hpos(kx, cells, settlements=[[B1], []], card="T", locations=locs, tiles=[[BZ, OR, *tiles], []],
                then=then, **kwargs)


def test_H6_A_H3_repeat_a_power_not_yet_used(kx):
    # A_H3 (a) "whether or not it was already used" / BAZAAR_DE "ein zweites Mal": the oracle via the bazaar, then
    # the oracle tile itself is still there
    pos = bazaar_position(kx)
    assert kx.legal(pos) == {FOREST_ROW[0], "bazaar", "oracle", FARM}
    out = kx.answer(kx.with_then(pos, ["bazaar"]))
    assert out["player"] == 0 and out["phase"] == CHOOSE_POWER
    assert out["legal"] == {"oracle"}                  # BAZAAR "other" / BAZAAR_NOTE: not bazaar, not the farm action
    assert kx.legal(kx.with_then(pos, ["bazaar", "oracle"])) == {FOREST_ROW[0]}
    after = kx.with_then(pos, ["bazaar", "oracle", FOREST_ROW[0]])
    assert kx.legal(after) == {FOREST_ROW[1], "oracle", FARM}
    g = kx.game(kx.with_then(pos, ["bazaar", "oracle", FOREST_ROW[0], "oracle", FOREST_ROW[1]]))
    assert kx.settlements(g, 0) == {B1, *FOREST_ROW[:2]}
    assert g.supply(0) == 40 - 3


def test_H6_repeat_a_power_already_used(kx):
    # BAZAAR "repeat any other one of their extra actions"
    pos = bazaar_position(kx, then=["oracle", FOREST_ROW[0], "bazaar"])
    assert kx.legal(pos) == {"oracle"}
    done = bazaar_position(kx, then=["oracle", FOREST_ROW[0], "bazaar", "oracle", FOREST_ROW[1]])
    assert kx.legal(done) == {FOREST_ROW[2], FARM}     # both tiles used this turn
    assert kx.settlements(kx.game(done), 0) == {B1, *FOREST_ROW[:2]}


def test_A_H3_flag_only_a_power_already_used(kx):
    # A_H3 (b): before the oracle is used the bazaar has no completion
    pos = with_options(bazaar_position(kx), flag("A-H3"))
    assert kx.legal(pos) == {FOREST_ROW[0], "oracle", FARM}
    used = with_options(bazaar_position(kx, then=["oracle", FOREST_ROW[0]]), flag("A-H3"))
    assert "bazaar" in kx.legal(used)
    assert kx.legal(kx.with_then(used, ["oracle", FOREST_ROW[0], "bazaar"])) == {"oracle"}


def test_H6_the_farm_action_is_never_repeated(kx):
    # BAZAAR_NOTE: after the farm action the bazaar still offers only the oracle
    pos = bazaar_position(kx, then=[FARM, FARMLAND, "bazaar"])
    assert kx.legal(pos) == {"oracle"}
    kx.then_error(bazaar_position(kx, then=[FARM, FARMLAND, "bazaar", FARM]), 3)
    # a bazaar with nothing but the farm action to repeat has no completion
    cells = {**kx.MAND_T, B1: "G", FARMLAND: "A"}
    alone = hpos(kx, cells, settlements=[[B1], []], card="T", locations={BZ: "bazaar"}, tiles=[[BZ], []])
    assert kx.legal(alone) == kx.MAND_T_HEXES | {FARM}


def test_H6_not_the_nomad_tiles(kx):
    # BAZAAR_NOMADS: the nomad tiles held are not offered
    pos = bazaar_position(kx, expansions=("harvest", "nomads"), nomad_tiles=[["outpost", "resettlement"], []])
    assert "bazaar" in kx.legal(pos)
    assert kx.legal(kx.with_then(pos, ["bazaar"])) == {"oracle"}


def test_A_H3_two_bazaar_tiles_give_two_repeats(kx):
    # A_H3 "Two bazaar tiles give two repeats": a second bazaar hex (11, 9) touches B1; oracle + 2 repeats = 3 oracle
    # builds along FOREST_ROW; a bazaar never repeats a bazaar
    pos = bazaar_position(kx, locations={(11, 9): "bazaar"}, tiles=[(11, 9)])
    then = ["oracle", FOREST_ROW[0], "bazaar"]
    assert kx.legal(kx.with_then(pos, then)) == {"oracle"}
    then += ["oracle", FOREST_ROW[1]]
    assert "bazaar" in kx.legal(kx.with_then(pos, then))
    then += ["bazaar", "oracle", FOREST_ROW[2]]
    g = kx.game(kx.with_then(pos, then))
    assert kx.settlements(g, 0) == {B1, *FOREST_ROW}
    # nothing of forest touches own any more: the mandatory action on MAND_T; no bazaar, no oracle left
    assert kx.legal(kx.with_then(pos, then)) == kx.MAND_T_HEXES | {FARM}


def test_A_H3_a_fresh_tile_is_not_repeated(kx):
    # A_H3 "usable (not fresh)": the first mandatory build (10, 11) takes the tile of the oracle hex (9, 11); the
    # bazaar then offers only the base farm tile of (9, 9) (grass (11, 9) touches B1)
    cells = {**kx.MAND_T, B1: "G", (11, 9): "G", **{h: "T" for h in FOREST_ROW}}
    pos = hpos(kx, cells, settlements=[[B1], []], card="T", locations={BZ: "bazaar", (9, 9): "farm", (9, 11): "oracle"},
               tiles=[[BZ, (9, 9)], []], then=FOREST_ROW)
    assert ("oracle", (9, 11)) in kx.tiles(kx.game(pos), 0)
    assert kx.legal(pos) == {"bazaar", "farm", "end_turn"}
    assert kx.legal(kx.with_then(pos, FOREST_ROW + ["bazaar"])) == {"farm"}


def test_A_H3_city_hall_needs_a_place_to_move_to(kx):
    # BAZAAR_TOKENS "will not gain any additional ... city tile" / BAZAAR_RELOCATE "may be relocated": player 0's
    # city hall stands on (5, 5) and its 6 neighbours (all grass), boxed in by mountains, so it has nowhere else to
    # go; the city hall hex (3, 5) touches the cell (4, 5). Fuller relocation cases: test_harvest_bazaar_relocation.
    rosette = {(5, 5): "G", (4, 5): "G", (4, 6): "G", (5, 4): "G", (5, 6): "G", (6, 5): "G", (6, 6): "G"}
    pos = bazaar_position(kx, extra_cells=rosette, locations={(3, 5): "city_hall"}, tiles=[(3, 5)],
                          expansions=("harvest", "crossroads"))
    pos["city_halls"] = [[5, 5], None]
    assert "city_hall" not in kx.legal(pos)            # once per game (C-8)
    assert kx.legal(kx.with_then(pos, ["bazaar"])) == {"oracle"}


def test_A_H3_scout_cabin_repeated_relocates_the_scout(kx):
    # BAZAAR_RELOCATE: the scout placed this turn moves; no new one (BAZAAR_TOKENS). The scout cabin hex (11, 9)
    # touches B1; the scout goes on the mountain (9, 9), then moves to the forest (10, 11).
    pos = bazaar_position(kx, locations={(11, 9): "scout_cabin"}, tiles=[(11, 9)])
    assert kx.legal(kx.with_then(pos, ["bazaar"])) == {"oracle"}  # no scout on the board: nothing to relocate
    placed = ["scout_cabin", (9, 9), DONE, "bazaar"]
    assert kx.legal(kx.with_then(pos, placed)) == {"oracle", "scout_cabin"}
    assert {(9, 9), (10, 11)} <= kx.legal(kx.with_then(pos, [*placed, "scout_cabin"]))
    g = kx.game(kx.with_then(pos, [*placed, "scout_cabin", (10, 11)]))
    assert scouts_on_board(g, 0) == {(10, 11)}          # one scout lifted, one placed again
    assert g.phase == "idle"


def test_A_H3_flag_keeps_the_pieces_in_place(kx):
    # the old reading (flag bazaar_keeps_pieces_in_place): EN 1331 "they cannot be relocated" over BAZAAR_RELOCATE
    pos = with_options(bazaar_position(kx, locations={(11, 9): "scout_cabin"}, tiles=[(11, 9)]),
                       flag("A-H3 pieces"))
    assert kx.legal(kx.with_then(pos, ["scout_cabin", (9, 9), DONE, "bazaar"])) == {"oracle"}
