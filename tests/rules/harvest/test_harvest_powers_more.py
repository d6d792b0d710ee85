"""Harvest powers beyond the rule-text tests (issue 22): the interplay with Crossroads that spec
A-H3 names, the position keys `number_tiles` and `scouts` (decision 8, HA4, HA16) and `kbenv legal` names.

Mountain-filled boards as in the other Harvest modules (odd-r neighbours: for even r, (r-1, c-1) (r-1, c) (r, c-1)
(r, c+1) (r+1, c-1) (r+1, c); for odd r, (r-1, c) (r-1, c+1) (r, c-1) (r, c+1) (r+1, c) (r+1, c+1)).

Rule text quoted (the comments below name these):

BAZAAR_RELOCATE (EN 1307): "However, these may be relocated during the turn by repeating that extra action."
"""

import json
import subprocess
import sys

from tests.rules.harvest.helpers import DONE, RETURN, TAKE, hpos, number_tiles, requires_harvest, scouts_on_board, state

pytestmark = requires_harvest

A_H3_BARRACKS = "Barracks, wagon and lighthouse may be repeated (place another warrior from supply, move or remove)."

B1 = (10, 10)          # player 0's settlement; neighbours (9, 9) (9, 10) (10, 9) (10, 11) (11, 9) (11, 10)
BZ = (10, 9)           # bazaar hex
BK = (9, 10)           # barracks hex


def barracks_position(kx, then=None):
    # grass (10, 11) and (11, 10) touch B1; (5, 5) grass far away; the forest MAND_T for the mandatory action
    cells = {**kx.MAND_T, B1: "G", (10, 11): "G", (11, 10): "G", (5, 5): "G"}
    return hpos(kx, cells, settlements=[[B1], []], card="T", locations={BZ: "bazaar", BK: "barracks"},
                tiles=[[BZ, BK], []], expansions=("harvest", "crossroads"), then=then)


def test_A_H3_bazaar_repeats_the_barracks_a_second_warrior(kx):
    # A_H3_BARRACKS: the first warrior on (10, 11) closes its neighbours (the zone, C-12), (11, 10) among them; the
    # second warrior then has no free hex next to own and may go anywhere free, e.g. (5, 5)
    pos = barracks_position(kx, then=["barracks", (10, 11), "bazaar"])
    assert kx.legal(pos) == {"barracks"}
    g = kx.game(kx.with_then(pos, ["barracks", (10, 11), "bazaar", "barracks", (5, 5)]))
    assert sorted(tuple(h) for h in g.pieces(0)["warriors"]) == [(5, 5), (10, 11)]
    assert kx.settlements(g, 0) == {B1}


def test_A_H3_bazaar_before_the_barracks_leaves_its_tile(kx):
    # A-H3 (a): the barracks named by the bazaar runs without using its own tile, which stays usable
    pos = barracks_position(kx, then=["bazaar", "barracks", (10, 11)])
    assert "barracks" in kx.legal(pos)
    assert "bazaar" not in kx.legal(pos)


# --------------------------------------------------------------------------- number_tiles and scouts keys

def cathedral_position(kx, values, then=None, scouts=None):
    cells = {**kx.MAND_T, B1: "G", (10, 11): "T", (10, 12): "T"}
    return hpos(kx, cells, settlements=[[B1], []], card="T", locations={BZ: "cathedral"}, tiles=[[BZ], []],
                number_tiles=values, then=then, scouts=scouts)


def test_number_tiles_round_trip(kx):
    # decision 8 "number_tiles (per player: value of Cathedral number tiles held)": written back as given
    g = kx.game(cathedral_position(kx, [3, 4]))
    assert state(g)["number_tiles"] == [3, 4]
    again = kx.game(json.loads(json.dumps(g.to_position())))
    assert number_tiles(again, 0) == 3 and number_tiles(again, 1) == 4


def test_number_tiles_bad_values_name_the_key(kx):
    # HA16: a wrong length, a negative value or more than the pool's 18 name the key
    for bad in ([1], [-1, 0], [18, 1]):
        kx.setup_error(cathedral_position(kx, bad), "number_tiles")


def test_scouts_bad_values_name_the_key(kx):
    # HA16 / EN 1245 "2 scout tiles": three scouts, a castle hex (not suitable, water or mountain) are refused
    cells_pos = cathedral_position(kx, None, scouts=[[(9, 9), (11, 9), (9, 11)], []])
    kx.setup_error(cells_pos, "scouts")
    pos = cathedral_position(kx, None, scouts=[[(9, 9)], []])
    pos["board"] = [row[:9] + "K" + row[10:] if r == 9 else row for r, row in enumerate(pos["board"])]
    kx.setup_error(pos, "scouts")


def test_scouts_round_trip_and_leave_at_the_end_of_the_turn(kx):
    # a scout on the mountain (11, 9) next to B1: written back by to_position; gone after the turn (H-9)
    pos = cathedral_position(kx, None, scouts=[[(11, 9)], []])
    g = kx.game(pos)
    assert scouts_on_board(g, 0) == {(11, 9)}
    assert scouts_on_board(kx.game(json.loads(json.dumps(g.to_position()))), 0) == {(11, 9)}
    # the cathedral tile (a number tile can be taken) keeps the turn open: end it by hand
    g = kx.game(kx.with_then(pos, [(10, 11), (10, 12), (18, 0), "end_turn"]))
    assert g.current_player == 1
    assert state(g)["scouts"] == [[], []]


def test_cathedral_choice_names_in_kbenv_legal(kx, tmp_path):
    # decision 8: the Cathedral's choice is written "take" / "return" (HA8), in `kbenv legal --json` too
    path = tmp_path / "cathedral.json"
    path.write_text(json.dumps(cathedral_position(kx, [2, 0], then=["cathedral"])))
    out = subprocess.run([sys.executable, "-m", "kbenv.cli", "legal", str(path), "--json"], capture_output=True,
                         text=True, check=True)
    answer = json.loads(out.stdout)
    assert answer["player"] == 0 and sorted(answer["legal"]) == [RETURN, TAKE]
    assert kx.legal(cathedral_position(kx, [2, 0], then=["cathedral", RETURN, (10, 11)])) == {(10, 12), DONE}


def test_A_H4_a_scout_counts_for_the_taverns_line(kx):
    # A-H4 (TG: "Scouts do count as YOUR settlements, so they work for Tavern"): (10, 10) (10, 11) and the scout on
    # the mountain (10, 12) make a line of 3 whose free end (10, 13) is grass; the other end (10, 9) is a mountain.
    # Without the scout the tavern (its hex (9, 10) touches (10, 10)) has no line and no target.
    cells = {**kx.MAND_T, (10, 10): "G", (10, 11): "G", (10, 13): "G"}
    pos = hpos(kx, cells, settlements=[[(10, 10), (10, 11)], []], card="T", locations={(9, 10): "tavern"},
               tiles=[[(9, 10)], []], scouts=[[(10, 12)], []])
    assert kx.legal(kx.with_then(pos, ["tavern"])) == {(10, 13)}
    del pos["scouts"]
    assert "tavern" not in kx.legal(pos)


def test_a_full_position_keeps_the_return_choice(kx):
    # after "return" and before the first build the full-state position says so (decision.number_tiles_returning):
    # reloaded, the forest hex (10, 11) next to B1 is asked for, not the take/return choice again
    g = kx.game(cathedral_position(kx, [2, 0], then=["cathedral", RETURN]))
    full = json.loads(json.dumps(g.to_position()))
    assert full["decision"]["number_tiles_returning"] is True
    assert kx.legal(full) == {(10, 11)}
    assert kx.legal(kx.with_then(full, [(10, 11)])) == {(10, 12), DONE}


def test_random_harvest_games_end_with_the_invariants_of_the_powers():
    # random decisions from the legal list in Harvest games alone and with every expansion: each game ends; scouts
    # never stand on a settlement and always close their hex (H-9); the number tiles held never exceed the pool of
    # 8 ones + 2 fives (A-H5); the four powers of this part are all chosen somewhere in these seeds
    import random

    from kbenv.catalogue import ACTION_NAMES
    from kbenv.engine import state as S
    from tests.rules.harvest.helpers import new_game

    used = set()
    for seed, expansions in [(s, ("harvest",)) for s in range(8)] + [(s, ("harvest", "nomads", "crossroads",
                                                                          "marshlands")) for s in range(3)]:
        g = new_game(2 + seed % 3, seed, expansions=expansions)
        rng = random.Random(seed)
        for _ in range(20000):
            if g.done:
                break
            action = rng.choice(list(g.legal_actions()))
            used.add(ACTION_NAMES[action])
            g.step(action)
            st = g.state
            for i in range(S.WORDS):
                scouts = int(st[S.SCOUTS + i])
                assert scouts & ~int(st[S.OCCUPIED + i]) == 0
                assert all(scouts & int(st[S.OWN + p * S.WORDS + i]) == 0 for p in range(g.num_players))
            assert sum(int(st[S.NUMBER_TILES + p]) for p in range(g.num_players)) <= 18
        assert g.done, (seed, expansions)
    assert {"palisade", "cathedral", "option-1", "option-2", "scout_cabin", "bazaar"} <= used
