"""Harvest Scout cabin (H-9, A-H4, A-H1 with scouts, X-3, X-6).

Mountain-filled board. Player 0's settlement ``O1`` = (10, 10) holds the scout-cabin tile of ``SC`` = (10, 9). The
neighbours of O1 are (9, 9) a castle, (9, 10) mountain, (10, 9) the cabin hex, (10, 11) water, (11, 9) mountain,
(11, 10) grass: the first scout may go on ``T1`` = (9, 10) (10, 11) (11, 9) (11, 10) (suitable terrain, water or
mountain touching own; not a castle or location hex). With the first scout on (9, 10), the second may go on the free
hexes touching O1 or (9, 10): ``T2`` = (8, 10) (8, 11) (9, 11) (10, 11) (11, 9) (11, 10).

Forest: ``MAND_T`` (18, 0) (18, 1) (18, 2) far away and ``FOREST_NEAR`` = (7, 9) (7, 10) (6, 9); (7, 9) and (7, 10)
touch (8, 10), nothing of them touches O1 or (9, 10). Player 0's card is forest; player 1 holds canyon (``OPP_C``).
A tower hex (12, 9) touches (11, 9); the farmland (12, 10) touches (11, 9) but not O1. (Neighbours worked out by
hand, checked with a throw-away script.)

Rule text quoted (the comments below name these):

SCOUT_CABIN (EN 1329): "The player may place both scout tiles on any suitable terrain, water or mountain spaces of
    the game board, connecting to their own settlements."
SCOUTS_COUNT (EN 1331): "They count as settlements during the player's turn, and the player may build new
    settlements connecting to them. Scout tiles placed next to a location do not trigger any extra action, and they
    cannot be relocated. They are removed from the game board at the end of the player's turn, to be used again by
    the next player with a scout cabin."
SCOUTS_NOTE (EN 1333): "Note: The scout do not generate points for the following Kingdom Builder cards: Mayor &
    Rovers from expansion 4 and Ambassadors, Families & Shepherds from expansion 1."
SCOUT_EXAMPLE (EN 1337): "Example: The orange player uses his scout cabin first and places the 2 scouts next to his
    settlements on mountain spaces. Then he builds his 3 settlements of the mandatory action now able to connect to
    the castle."
SCOUTS_DE (DE 1589): "Späher, die angrenzend an ein Ortsfeld platziert werden, bringen dem Spieler keine
    Ortsplättchen."
A_H4 (spec A-H4): "'may place both': Default place 1 or 2. Placement: a free hex (suitable terrain, water or
    mountain; not a cave; not a zone) touching OWN[p]. The second scout may touch the first. There are only 2 scout
    tiles (shared; removed at the end of the turn). Scouts seize no tiles, get no red-card or Mayors/Rovers credit,
    and are excluded from OWN after the turn."
"""

from tests.rules.harvest.helpers import DONE, FARM, hpos, mayor_lines, requires_harvest, scouts_on_board, state

pytestmark = requires_harvest


O1 = (10, 10)
SC = (10, 9)
T1 = {(9, 10), (10, 11), (11, 9), (11, 10)}
T2 = {(8, 10), (8, 11), (9, 11), (10, 11), (11, 9), (11, 10)}
FOREST_NEAR = {(7, 9): "T", (7, 10): "T", (6, 9): "T"}
TOWER = (12, 9)
FARMLAND = (12, 10)


def scout_position(kx, then=None, **kwargs):
    cells = {**kx.MAND_T, **FOREST_NEAR, O1: "G", (9, 9): "K", (10, 11): "W", (11, 10): "G", FARMLAND: "A"}
    return hpos(kx, cells, settlements=[[O1], []], card="T", locations={SC: "scout_cabin", TOWER: "tower"},
                tiles=[[SC], []], then=then, **kwargs)


def test_H9_place_the_first_scout_touching_own(kx):
    # SCOUT_CABIN "suitable terrain, water or mountain spaces ..., connecting to their own settlements"
    pos = scout_position(kx)
    assert kx.legal(pos) == kx.MAND_T_HEXES | set(FOREST_NEAR) | {"scout_cabin"}
    out = kx.answer(kx.with_then(pos, ["scout_cabin"]))
    assert out["player"] == 0 and out["phase"] == "choose_target"
    assert out["legal"] == T1


def test_A_H4_the_second_scout_may_touch_the_first_or_stop_with_one(kx):
    # A_H4 "place 1 or 2", "The second scout may touch the first"
    pos = scout_position(kx, then=["scout_cabin", (9, 10)])
    assert kx.legal(pos) == T2 | {DONE}
    g = kx.game(kx.with_then(pos, ["scout_cabin", (9, 10), DONE]))
    assert scouts_on_board(g, 0) == {(9, 10)}
    g = kx.game(kx.with_then(pos, ["scout_cabin", (9, 10), (8, 10)]))
    assert scouts_on_board(g, 0) == {(9, 10), (8, 10)}
    # scouts are not settlements from the supply
    assert kx.settlements(g, 0) == {O1} and g.supply(0) == 39


def test_H9_illegal_scout_hexes_are_refused(kx):
    # a castle, the cabin's location hex, occupied, not touching own, a scout on a scout
    for target in [(9, 9), SC, O1, (5, 5), (8, 10)]:
        kx.then_error(scout_position(kx, then=["scout_cabin", target]), 1)
    kx.then_error(scout_position(kx, then=["scout_cabin", (9, 10), (9, 10)]), 2)
    kx.then_error(scout_position(kx, then=["scout_cabin", (9, 10), (12, 12)]), 2)


def test_H9_en1337_the_mandatory_action_connects_to_the_scouts(kx):
    # SCOUT_EXAMPLE / SCOUTS_COUNT "the player may build new settlements connecting to them": with the scouts on the
    # mountains (9, 10) and (8, 10), the forest hexes (7, 9) and (7, 10) touch own pieces -> the only mandatory
    # starts (adjacent if possible); MAND_T and (6, 9) are out
    placed = ["scout_cabin", (9, 10), (8, 10)]
    assert kx.legal(scout_position(kx, then=placed)) == {(7, 9), (7, 10)}
    turn = placed + [(7, 9), (7, 10), (6, 9)]
    g = kx.game(scout_position(kx, then=turn))
    assert kx.settlements(g, 0) == {O1, (7, 9), (7, 10), (6, 9)}


def test_H9_scouts_are_removed_at_the_end_of_the_turn(kx):
    # SCOUTS_COUNT "removed from the game board at the end of the player's turn"; the settlements built next to
    # them stay
    turn = ["scout_cabin", (9, 10), (8, 10), (7, 9), (7, 10), (6, 9)]
    pos = scout_position(kx, then=turn)
    out = kx.answer(pos)
    assert out["player"] == 1                          # nothing left to do: the turn ended by itself
    g = kx.game(pos)
    assert scouts_on_board(g, 0) == set()
    assert state(g).get("scouts", [[], []]) == [[], []]
    assert kx.settlements(g, 0) == {O1, (7, 9), (7, 10), (6, 9)}


def test_H9_a_scout_next_to_a_location_takes_no_tile(kx):
    # SCOUTS_COUNT "do not trigger any extra action" / SCOUTS_DE "bringen dem Spieler keine Ortsplättchen":
    # (11, 9) touches the tower hex (12, 9)
    g = kx.game(scout_position(kx, then=["scout_cabin", (11, 9), DONE]))
    assert kx.tiles(g, 0) == [("scout_cabin", SC)]
    assert g.tiles_left(TOWER) == 2


def test_H9_scouts_cannot_be_relocated(kx):
    # SCOUTS_COUNT "they cannot be relocated": after the cabin is used (one or two scouts) it is not offered again
    for placed in (["scout_cabin", (9, 10), (8, 10)], ["scout_cabin", (11, 9), DONE]):
        assert "scout_cabin" not in kx.legal(scout_position(kx, then=placed))


def test_A_H1_the_farm_action_may_touch_a_scout(kx):
    # A_H1 "The target must touch OWN[p] (scouts included during the turn)": the farmland (12, 10) touches the scout
    # on (11, 9), not O1
    assert FARM not in kx.legal(scout_position(kx))
    pos = scout_position(kx, then=["scout_cabin", (11, 9), DONE])
    assert kx.legal(pos) == kx.MAND_T_HEXES | set(FOREST_NEAR) | {FARM}
    assert kx.legal(kx.with_then(pos, pos["then"] + [FARM])) == {FARMLAND}


def test_H9_scouts_position_key(kx):
    # decision 8 "scouts (per player: scout tiles on the board this turn)": the same state as after placing them;
    # both scout tiles are on the board, so the cabin has no completion
    pos = scout_position(kx, scouts=[[(9, 10), (8, 10)], []])
    assert kx.legal(pos) == {(7, 9), (7, 10)}
    assert scouts_on_board(kx.game(pos), 0) == {(9, 10), (8, 10)}


def test_H9_scouts_of_a_player_not_to_move_are_refused(kx):
    # SCOUTS_COUNT: scouts leave the board at the end of their owner's turn (HA16)
    kx.setup_error(scout_position(kx, scouts=[[], [(9, 10)]]), "scouts")


# --------------------------------------------------------------------------- the cards of SCOUTS_NOTE

def test_H9_scouts_do_not_count_for_mayors(kx):
    # SCOUTS_NOTE "Mayor": in row 10 player 0 has (10, 13) (10, 14) and a scout on (10, 12) (a mountain touching
    # (10, 13)); the forest (10, 15) is built in the mandatory action -> 3 settlements + 1 scout: no mark. The same
    # with a settlement on (10, 12) instead of the scout is a mark (4 settlements, H-15).
    forest = {(10, 15): "T", (10, 16): "T", (10, 17): "T"}
    cells = {**forest, (10, 13): "G", (10, 14): "G"}
    cards = ["mayors", "fishermen", "knights"]
    pos = hpos(kx, cells, settlements=[[(10, 13), (10, 14)], []], card="T", cards=cards,
               locations={(9, 13): "scout_cabin"}, tiles=[[(9, 13)], []],
               then=["scout_cabin", (10, 12), DONE, (10, 15)])
    assert mayor_lines(kx.game(pos)) == {}
    cells2 = {**cells, (10, 12): "G"}
    pos2 = hpos(kx, cells2, settlements=[[(10, 12), (10, 13), (10, 14)], []], card="T", cards=cards,
                then=[(10, 15)])
    assert mayor_lines(kx.game(pos2)) == {10: 0}


def test_H9_scouts_do_not_count_for_ambassadors(kx):
    # SCOUTS_NOTE "Ambassadors" (EN 654-656: "1 gold for each of your settlements built adjacent to at least one
    # settlement of another player"): player 1 stands on (11, 8); the scout on (11, 9) touches it -> no gold.
    cells = {**kx.MAND_T, O1: "G", (11, 8): "G"}
    pos = hpos(kx, cells, settlements=[[O1], [(11, 8)]], card="T", cards=["ambassadors", "fishermen", "knights"],
               locations={SC: "scout_cabin"}, tiles=[[SC], []], expansions=("harvest", "nomads"),
               then=["scout_cabin", (11, 9), DONE])
    g = kx.game(pos)
    assert scouts_on_board(g, 0) == {(11, 9)}
    assert kx.game_scores(g)[0]["gold"] == 0


def test_H9_scouts_do_not_count_for_rovers(kx):
    # SCOUTS_NOTE "Rovers" (H-19: gold = sections built in this turn): the mandatory action builds in the bottom-left
    # section only (MAND_T, rows 18); a scout in the top-right section (rows 0-9, columns 10-19) adds nothing:
    # 1 section -> 1 gold at the end of the turn. O1 = (10, 10) is in the bottom-right section: the scout goes on
    # (9, 10), which is in the top-right section.
    cells = {**kx.MAND_T, O1: "G"}
    pos = hpos(kx, cells, settlements=[[O1], []], card="T", cards=["rovers", "fishermen", "knights"],
               locations={SC: "scout_cabin"}, tiles=[[SC], []],
               then=["scout_cabin", (9, 10), DONE] + kx.MAND_T_BUILDS)
    g = kx.game(pos)
    assert kx.answer(pos)["player"] == 1
    assert g.gold(0) == 1


# --------------------------------------------------------------------------- scouts and the Caves (A-QV2)

def test_A_QV2_scouts_stay_off_a_cave_and_may_stand_on_a_plain_mountain_one(kx):
    # SCOUT_CABIN names "mountain spaces" and nothing about caves. A cave is occupied by default (A-QV2 a: "Those
    # hexes count as occupied mountain hexes"), so no scout goes there; with caves_are_plain_mountain (A-QV2 b) a
    # cave is a plain mountain and a scout may stand on it like on any other mountain touching own settlements
    cave = (9, 10)
    pos = scout_position(kx, expansions=("harvest", "caves"), caves=[cave])
    occupied = kx.answer(kx.with_then(pos, ["scout_cabin"]))["legal"]
    assert occupied == T1 - {cave}
    plain = dict(pos, options={"caves_are_plain_mountain": True})
    assert kx.answer(kx.with_then(plain, ["scout_cabin"]))["legal"] == T1
    g = kx.game(kx.with_then(plain, ["scout_cabin", cave, DONE]))
    assert scouts_on_board(g, 0) == {cave}
