"""Marshlands: when a freshly taken Canoe tile may react (A-M5 amended, EN 213 / DE 206).

Written from the rule text only (the engine in kbenv/engine/ was not read). The general location-tile rule says a
tile is usable "from their next turn on" (EN 213, the default reading) or "erst ab der nächsten Runde" (DE 206, "only
from the next round on", the rule flag ``tiles_ready_next_round``). The Canoe's extra action is a reaction in another
player's turn (EN 1105-1107), so the two readings differ for a canoe tile taken by a seat after the start player:

* EN: the tile of seat s is ready once seat s's next turn has begun. Taken by seat 1 of 3 in round 0, it is not ready
  in seat 2's turn of round 0 nor in seat 0's turn of round 1 (which comes before seat 1's next turn), and ready
  from seat 1's turn of round 1 on (seat 2's turn of round 1 tested).
* DE: the tile is ready from the start of the next round, i.e. already in seat 0's turn of round 1.

Taken by the start player (seat 0), both readings agree: not ready in seats 1 and 2's turns of the same round, ready
in the next round.

Layout (3 players, mountain-filled board, odd-r neighbours of docs/api.md; checked by hand): each player builds a
row of its own terrain, three hexes per turn from the west, one row each, far apart:

* seat 0 grass ``ROW0`` = (2, 1) .. (2, 9); seat 1 canyon ``ROW1`` = (6, 1) ..; seat 2 flower ``ROW2`` = (10, 1) ..
  Hands G, C, F and a deck G C F G C F G (each seat draws its own terrain again at the end of each turn).
* A location hex at (1, c) touches (2, c) and (2, c + 1) of ``ROW0`` (and nothing of the other rows); one at (5, c)
  touches (6, c) (6, c + 1); one at (9, c) touches (10, c) (10, c + 1).
* The "trigger" hexes are oasis hexes holding their last tile; there is no desert on the board, so an oasis tile
  never gives its taker an action of its own (the turns end by themselves after the third build).
* Swamp (18, 18) and water (18, 16): a free swamp or water hex for the canoe build (no own settlement touches them,
  so each option is "anywhere", EN 1105 "if possible").

Rule text quoted (the comments below name these):

CANOE (EN 1105), CANOE_ORDER (EN 1107): quoted in tests/rules/marshlands/test_marshlands_canoe.py.
TILE_READY_EN (EN 213): "Whenever a player builds a settlement next to a location hex, they seize immediately one of
    these location tiles, if available. Then, they place this tile in front of themselves, picture side face up and
    can use this extra action from their next turn on."
TILE_READY_DE (DE 202-207): "Sobald ein Spieler eine Siedlung angrenzend an ein Ortsfeld baut, nimmt er sich,
    solange vorhanden, sofort ein dort liegendes Ortsplättchen und legt es mit der Bildseite nach oben auf ein
    freies Feld auf seinem Spielertableau ab. Die Sonderaktion kann erst ab der nächsten Runde genutzt werden."
"""

import pytest

from tests.rules.marshlands.helpers import PASS, REACTION, mpos

FLAG = "tiles_ready_next_round"
READINGS = [pytest.param(None, id="EN-next-turn"), pytest.param({FLAG: True}, id="DE-next-round")]

ROW0 = [(2, c) for c in range(1, 10)]
ROW1 = [(6, c) for c in range(1, 10)]
ROW2 = [(10, c) for c in range(1, 10)]
SWAMP, WATER = (18, 18), (18, 16)
HANDS = ["G", "C", "F"]
DECK = ["G", "C", "F", "G", "C", "F", "G"]


def turn(row, k):
    """The three builds of a seat's k-th turn (k = 0, 1, ...) along its row."""
    return row[3 * k : 3 * k + 3]


def readiness_position(kx, canoe_hex, triggers, canoe_holder_hex_touches, options=None):
    """``canoe_hex``: the canoe location (2 tiles); ``triggers``: oasis hexes with their last tile."""
    cells = {**{h: "G" for h in ROW0}, **{h: "C" for h in ROW1}, **{h: "F" for h in ROW2}, SWAMP: "S", WATER: "W"}
    locations = {canoe_hex: "canoe", **{h: "oasis" for h in triggers}}
    assert canoe_holder_hex_touches in kx.neighbours(*canoe_hex)
    pos = mpos(
        kx,
        cells,
        settlements=[[], [], []],
        hands=list(HANDS),
        deck=list(DECK),
        start_player=0,
        current_player=0,
        locations=locations,
        tiles_left={h: 1 for h in triggers},
        opp_area=False,
    )
    if options:
        pos["options"] = dict(options)
    return pos


def no_reaction(kx, pos, then, player, next_build):
    """After ``then`` (ending on a build that takes a location's last tile) nobody reacts: ``player`` goes on with
    its mandatory action, whose only hex is ``next_build``."""
    out = kx.answer(kx.with_then(pos, then))
    assert out == {"player": player, "phase": "mandatory", "legal": {next_build}}, (then, out)


def reaction(kx, pos, then, reactor):
    out = kx.answer(kx.with_then(pos, then))
    assert out == {"player": reactor, "phase": REACTION, "legal": {"canoe", PASS}}, (then, out)


# --------------------------------------------------------------------------- taken by the start player (seat 0)

CA = (1, 1)  # canoe hex: touches (2, 1) and (2, 2)
X1, X2, X3 = (5, 1), (9, 1), (5, 4)  # last tiles taken by (6, 1) [seat 1, round 0], (10, 1) [seat 2, round 0],
# (6, 4) [seat 1, round 1]


@pytest.mark.parametrize("options", READINGS)
def test_A_M5_a_canoe_tile_of_the_start_player_reacts_from_the_next_round(kx, options):
    # TILE_READY_EN / TILE_READY_DE / CANOE: seat 0 takes a canoe tile with (2, 1) in round 0. In seats 1 and 2's
    # turns of round 0 its next turn (and the next round) has not begun: no reaction when they take a last tile.
    # In round 1 (after seat 0's own turn) the tile is ready under both readings: seat 1 takes X3's last tile ->
    # seat 0 is asked (CANOE_ORDER: from the left of the active player 1: seat 2 holds nothing, then seat 0).
    pos = readiness_position(kx, CA, [X1, X2, X3], (2, 1), options)
    then = turn(ROW0, 0)
    g = kx.game(kx.with_then(pos, then))
    assert kx.tiles(g, 0) == [("canoe", CA)] and g.current_player == 1
    no_reaction(kx, pos, then + [(6, 1)], 1, (6, 2))
    then += turn(ROW1, 0)
    assert kx.game(kx.with_then(pos, then)).tiles_left(X1) == 0
    no_reaction(kx, pos, then + [(10, 1)], 2, (10, 2))
    then += turn(ROW2, 0) + turn(ROW0, 1)
    g = kx.game(kx.with_then(pos, then))
    assert g.current_player == 1 and g.tiles_left(X3) == 1
    reaction(kx, pos, then + [(6, 4)], 0)
    # the reaction is a real canoe build: any free swamp or water (nothing of them touches seat 0)
    assert kx.legal(kx.with_then(pos, then + [(6, 4), "canoe"])) == {SWAMP, WATER}
    g = kx.game(kx.with_then(pos, then + [(6, 4), "canoe", SWAMP]))
    assert SWAMP in kx.settlements(g, 0)
    assert kx.answer(kx.with_then(pos, then + [(6, 4), "canoe", SWAMP])) == {
        "player": 1,
        "phase": "mandatory",
        "legal": {(6, 5)},
    }


# --------------------------------------------------------------------------- taken by a later seat (seat 1 of 3)

CB = (5, 1)  # canoe hex: touches (6, 1) and (6, 2)
X = (9, 1)  # last tile taken by (10, 1): seat 2, round 0
Y = (1, 4)  # last tile taken by (2, 4): seat 0, round 1
Z = (9, 4)  # last tile taken by (10, 4): seat 2, round 1


def later_seat_position(kx, options=None):
    return readiness_position(kx, CB, [X, Y, Z], (6, 1), options)


ROUND0 = turn(ROW0, 0) + turn(ROW1, 0) + turn(ROW2, 0)


@pytest.mark.parametrize("options", READINGS)
def test_A_M5_not_ready_in_the_rest_of_the_round_it_was_taken_in(kx, options):
    # TILE_READY_EN / TILE_READY_DE: seat 1 takes the canoe tile with (6, 1) in round 0; seat 2's (10, 1) then takes
    # X's last tile in the same round: neither seat 1's next turn nor the next round has begun -> no reaction
    pos = later_seat_position(kx, options)
    then = turn(ROW0, 0) + turn(ROW1, 0)
    g = kx.game(kx.with_then(pos, then))
    assert kx.tiles(g, 1) == [("canoe", CB)] and g.current_player == 2
    no_reaction(kx, pos, then + [(10, 1)], 2, (10, 2))


def test_A_M5_en_not_ready_in_the_start_players_turn_before_its_holders_next_turn(kx):
    # TILE_READY_EN "from their next turn on": in round 1 seat 0 plays before seat 1; seat 1's next turn has not
    # begun when seat 0's (2, 4) takes Y's last tile -> no reaction (default reading)
    pos = later_seat_position(kx)
    then = ROUND0
    g = kx.game(kx.with_then(pos, then))
    assert g.current_player == 0 and g.tiles_left(Y) == 1 and kx.tiles(g, 1) == [("canoe", CB)]
    no_reaction(kx, pos, then + [(2, 4)], 0, (2, 5))


def test_A_M5_de_flag_ready_from_the_start_of_the_next_round(kx):
    # TILE_READY_DE "erst ab der nächsten Runde" (flag tiles_ready_next_round): round 1 has begun, so seat 1 reacts in
    # seat 0's turn although its own next turn is still to come
    pos = later_seat_position(kx, {FLAG: True})
    reaction(kx, pos, ROUND0 + [(2, 4)], 1)
    # CANOE: a free swamp or water hex, none touching seat 1's settlements
    assert kx.legal(kx.with_then(pos, ROUND0 + [(2, 4), "canoe"])) == {SWAMP, WATER}
    done = ROUND0 + [(2, 4), "canoe", WATER]
    assert kx.answer(kx.with_then(pos, done)) == {"player": 0, "phase": "mandatory", "legal": {(2, 5)}}
    assert WATER in kx.settlements(kx.game(kx.with_then(pos, done)), 1)
    # passing is allowed too (and seat 0 goes on)
    no_reaction(kx, pos, ROUND0 + [(2, 4), PASS], 0, (2, 5))


@pytest.mark.parametrize("options", READINGS)
def test_A_M5_ready_once_its_holders_next_turn_has_begun(kx, options):
    # TILE_READY_EN / TILE_READY_DE: after seat 1's turn of round 1 both readings make the tile ready: seat 2's
    # (10, 4) takes Z's last tile -> seat 1 is asked (CANOE_ORDER: the left of seat 2 is seat 0, holding nothing,
    # then seat 1). Under the DE flag seat 1 passed in seat 0's turn (Y's trigger) first.
    pos = later_seat_position(kx, options)
    then = ROUND0 + [(2, 4)]
    if options:
        then.append(PASS)
    then += [(2, 5), (2, 6)] + turn(ROW1, 1)
    g = kx.game(kx.with_then(pos, then))
    assert g.current_player == 2 and g.tiles_left(Z) == 1
    reaction(kx, pos, then + [(10, 4)], 1)


@pytest.mark.parametrize("options", READINGS)
def test_A_M5_readiness_survives_a_full_state_position(kx, options):
    # the state that makes the tile not ready yet is part of the game's future, so Game.to_position() (docs/api.md
    # "Full-state position files") must carry it: read back at the start of seat 2's turn of round 0 and of seat
    # 0's turn of round 1, the resumed games answer as the played-through ones
    pos = later_seat_position(kx, options)
    middle = kx.game(kx.with_then(pos, turn(ROW0, 0) + turn(ROW1, 0))).to_position()
    no_reaction(kx, middle, [(10, 1)], 2, (10, 2))
    start_of_round1 = kx.game(kx.with_then(pos, ROUND0)).to_position()
    if options:
        reaction(kx, start_of_round1, [(2, 4)], 1)
    else:
        no_reaction(kx, start_of_round1, [(2, 4)], 0, (2, 5))
