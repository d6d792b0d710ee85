"""Observation v1 with the Island (issue 23 part 2): two appended table channels (row k = island hex k, one column
per fact, kbenv.engine.island.observe) and the island features; every earlier channel and feature keeps its place,
earlier rulesets read zeros there, and packed observations equal the float ones.

Expected values are worked out by hand from the shipped side island-substitute-1 (kbenv/data/islands/):

    line 0: G F G T        hexes  0  1  2  3
    line 1: G L W D        hexes  4  5  6  7   (L: the rope bridge, an inner hex)
    line 2: C W D M        hexes  8  9 10 11
    line 3: F T M C        hexes 12 13 14 15
    line 4: D F T C        hexes 16 17 18 19

Odd-r lines (odd lines half a hex to the right): the hexes with 6 island neighbours are (1,1) (1,2) (2,1) (2,2)
(3,1) (3,2) = hexes 5 6 9 10 13 14; the other 14 are coast hexes (A-QI2: next to the water around the island).
Pieces are written into the state fields the rules name, as in tests/test_harvest_observation.py.
"""

from __future__ import annotations

import numpy as np

from kbenv import Game
from kbenv import catalogue as CAT
from kbenv.board.bitset import HEX_BIT, HEX_WORD
from kbenv.board.geometry import NUM_HEXES
from kbenv.engine import observe_v1 as O
from kbenv.engine import state as S
from kbenv.engine.island import observe as I
from kbenv.engine.island.rules import ISLAND_TILE
from kbenv.engine.piece_table import PIECE_FIELD
from kbenv.observation import observation_planes_v1
from tests.observation_checks import feature, packed_equals_float

SIDE_1 = "GFGT" "GLWD" "CWDM" "FTMC" "DFTC"
TERRAIN_COLUMN = {"G": 0, "C": 1, "D": 2, "F": 3, "T": 4, "W": 5, "M": 6}  # as v0 channels 0..6
INNER = {5, 6, 9, 10, 13, 14}
HEXES, PIECES = O.CH_ISLAND_HEXES, O.CH_ISLAND_PIECES


def island_game(players: int = 3, seed: int = 4, **kwargs) -> Game:
    return Game.new(players, seed=seed, expansions=["island"], island_side="island-substitute-1", **kwargs)


def put(st: np.ndarray, off: int, k: int) -> None:
    """Island hex k (id 400 + k) into the hex mask at st[off:]."""
    h = 400 + k
    st[off + HEX_WORD[h]] |= HEX_BIT[h]


def test_the_layout_is_appended():
    """Channels 0..47 and the features before `island` keep their places: 2 channels and 13 features follow."""
    names = [name for name, _, _ in O.V1_CHANNELS]
    assert names[-2:] == ["island_hexes", "island_pieces"]
    assert O.V1_HARVEST_CHANNELS == 48 and (HEXES, PIECES) == (48, 49) and O.NUM_CHANNELS_V1 == 50
    assert O.F1["island"] == O.F1["harvest_cards"] + len(CAT.HARVEST_CARDS) == O.V1_HARVEST_FEATURES
    assert O.NUM_FEATURES_V1 == O.V1_HARVEST_FEATURES + 13 <= NUM_HEXES
    assert O.V1_PREFIX_FEATURES[48] == O.V1_HARVEST_FEATURES and O.V1_PREFIX_FEATURES[50] == O.NUM_FEATURES_V1
    assert [name for name, _, _ in O.V1_FEATURES][-8:] == [
        "island", "island_power", "own_island_tiles", "own_island_ready", "others_island_tiles", "island_tiles_left",
        "island_mayor_lines", "island_rules"]
    assert "| 48 `island_hexes` |" in O.layout_table() and "| 49 `island_pieces` |" in O.layout_table()
    assert len(I.ISLAND_HEX_COLUMNS) == 20 and len(I.ISLAND_PIECE_COLUMNS) == 7


def test_the_island_powers_have_slots():
    """rope_bridge and tree_house (power codes 32, 33) are island_power + 0, 1: no power code is without a slot."""
    assert O.POWER_SLOT[CAT.POWER_CODE["rope_bridge"]] == O.F1["island_power"]
    assert O.POWER_SLOT[CAT.POWER_CODE["tree_house"]] == O.F1["island_power"] + 1
    assert (O.POWER_SLOT >= 0).all() and len(set(O.POWER_SLOT.tolist())) == len(O.POWER_SLOT)


def test_a_fresh_island_table():
    g = island_game()
    st = g.state
    observer = (int(st[S.DECIDER]) + 1) % 3  # not to move: no legal marks
    obs = observation_planes_v1(st, observer)
    table = obs[HEXES]
    for k, letter in enumerate(SIDE_1):
        row = np.zeros(20, dtype=np.float32)
        if letter == "L":
            row[9] = 1.0  # location:rope_bridge
            row[11] = 1.0  # 2 tiles / 2
        else:
            row[TERRAIN_COLUMN[letter]] = 1.0
        if k not in INNER:
            row[19] = 1.0  # coast_water
        assert table[k].tolist() == row.tolist(), f"island hex {k}"
    assert not table[20:].any() and not obs[PIECES].any()
    assert feature(obs, "island") == [1.0]
    assert feature(obs, "island_tiles_left") == [1.0]
    assert feature(obs, "own_island_tiles") == [0.0, 0.0] and feature(obs, "island_rules") == [0.0, 0.0]
    assert packed_equals_float(st, observer)


def test_settlements_are_relative_to_the_observer():
    g = island_game()
    st = g.state
    for p, k in ((0, 0), (1, 7), (2, 12)):
        put(st, S.OWN + p * S.WORDS, k)
    seen0 = observation_planes_v1(st, 0)[HEXES]
    seen1 = observation_planes_v1(st, 1)[HEXES]
    assert seen0[0, 12] == 1 and seen0[7, 13] == 1 and seen0[12, 14] == 1  # own, next seat, the one after
    assert seen1[7, 12] == 1 and seen1[12, 13] == 1 and seen1[0, 14] == 1
    assert seen0[:, 12:17].sum() == 3 and seen0[:, 15:17].sum() == 0  # 3 players: opponent:3, :4 empty
    assert packed_equals_float(st, 0) and packed_equals_float(st, 1)


def test_the_legal_column_is_the_island_part_of_the_legal_actions():
    """QI-1: a build on the card's terrain may go to any free island hex of it; the legal column marks exactly the
    island actions (458 + k) of the decider's mask, and nothing for another seat."""
    g = island_game()
    st = g.state
    p = int(st[S.DECIDER])
    letter = g.hand(p)
    expected = [k for k, ch in enumerate(SIDE_1) if ch == letter]
    assert expected  # every terrain card's terrain is on side 1
    obs = observation_planes_v1(st, p)
    assert np.flatnonzero(obs[HEXES, :20, 17]).tolist() == expected
    mask = g.legal_mask()
    assert [a - CAT.ISLAND_ACTION_BASE for a in np.flatnonzero(mask) if a >= CAT.ISLAND_ACTION_BASE] == expected
    assert not observation_planes_v1(st, (p + 1) % 3)[HEXES, :, 17].any()
    assert packed_equals_float(st, p)


def test_tiles_powers_and_source():
    g = island_game()
    st = g.state
    st[S.CURRENT] = st[S.DECIDER] = 1  # player 1 moves a settlement with the rope bridge; 0 and 2 watch
    st[S.TILES_HELD + 0] |= ISLAND_TILE  # player 0 holds one of the rope bridge's tiles, 1 is left
    st[S.ISLAND_LOC_TILES] = 1
    st[S.PHASE] = S.PHASE_TARGET
    st[S.POWER] = CAT.POWER_CODE["rope_bridge"]
    st[S.SOURCE] = 400 + 4
    obs = observation_planes_v1(st, 0)
    assert feature(obs, "own_island_tiles") == [1.0, 0.0]  # a rope bridge tile
    assert feature(obs, "own_island_ready") == [1.0, 0.0]  # neither taken this turn nor used
    assert feature(obs, "others_island_tiles") == [0.0]
    assert feature(obs, "island_power") == [1.0, 0.0]
    assert obs[HEXES, 4, 18] == 1.0 and obs[HEXES, :, 18].sum() == 1.0  # the settlement being moved
    assert feature(obs, "island_tiles_left") == [0.5] and obs[HEXES, 5, 11] == 0.5
    other = observation_planes_v1(st, 2)
    assert feature(other, "others_island_tiles") == [0.5] and feature(other, "own_island_tiles") == [0.0, 0.0]
    assert packed_equals_float(st, 0) and packed_equals_float(st, 2)
    st[S.TILES_FRESH + 0] |= ISLAND_TILE  # taken this turn: not usable yet
    assert feature(observation_planes_v1(st, 0), "own_island_ready") == [0.0, 0.0]


def test_pieces_table():
    g = island_game()
    st = g.state
    put(st, S.WALLS, 3)
    put(st, S.ZONE, 1)
    put(st, S.SCOUTS, 17)
    st[PIECE_FIELD["warrior"] + 1 * 2] = 400 + 10 + 1  # player 1's first warrior on hex 10
    st[PIECE_FIELD["wagon"] + 0] = 400 + 13 + 1  # player 0's wagon on hex 13
    st[PIECE_FIELD["city_hall"] + 0] = 400 + 9 + 1  # player 0's city hall centred on hex 9 = (2, 1)
    st[S.ISLAND_MAYOR_LINES + 2] = 1  # line 2 marked by seat 0
    st[S.ISLAND_MAYOR_LINES + 4] = 2  # line 4 marked by seat 1
    table = observation_planes_v1(st, 0)[PIECES]
    assert table[3, 0] == 1 and table[1, 4] == 1 and table[17, 5] == 1
    assert table[10, 2] == 1.0  # another player's warrior: 3/3
    assert table[13, 1] == np.float32(2 / 3)  # own wagon: 2/3
    # (2, 1) on an even line touches (1, 0) (1, 1) (2, 0) (2, 2) (3, 0) (3, 1): hexes 4 5 8 10 12 13
    assert np.flatnonzero(table[:, 3]).tolist() == [4, 5, 8, 9, 10, 12, 13] and set(table[:, 3]) == {0, 1}
    assert table[8:12, 6].tolist() == [1.0] * 4 and table[16:20, 6].tolist() == [0.5] * 4
    assert table[:, 6].sum() == 6.0
    assert feature(observation_planes_v1(st, 0), "island_mayor_lines") == [np.float32(0.2)] * 2
    assert observation_planes_v1(st, 1)[PIECES, 13, 2] == np.float32(2 / 3)  # seen by player 1: another's wagon
    assert observation_planes_v1(st, 1)[PIECES, 4, 3] == 0.5
    for p in range(3):
        assert packed_equals_float(st, p)


def test_rule_flags():
    g = island_game(rules={"no_island_knights": True, "island_coast_not_water": True})
    obs = observation_planes_v1(g.state, 0)
    assert feature(obs, "island_rules") == [1.0, 1.0]
    assert not obs[HEXES, :, 19].any()  # no coast hex counts as next to water


def test_random_island_games_pack_as_they_observe():
    g = Game.new(4, seed=11, expansions=["nomads", "crossroads", "harvest", "island"])
    rng = np.random.default_rng(3)
    on_island = 0
    while not g.done:
        for p in range(4):
            assert packed_equals_float(g.state, p)
        legal = g.legal_actions()
        action = int(rng.choice(legal))
        on_island += action >= CAT.ISLAND_ACTION_BASE
        g.step(action)
    assert on_island > 0
