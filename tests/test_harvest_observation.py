"""Observation v1 in Harvest games (issue 22): the appended planes and features, worked out from the rule text
and docs/api.md's table; earlier rulesets read zeros there; packed observations equal the float ones.

Hand-built positions write the state fields the rules name (number tiles, Mayors marks, scouts, Rovers sections)
on a seeded Harvest set-up, so each expected number follows from the feature's documented meaning.
"""

from __future__ import annotations

import numpy as np
import pytest

from kbenv import Game
from kbenv import catalogue as CAT
from kbenv.board.codes import FARMLAND, SILO
from kbenv.board.geometry import NUM_HEXES, hex_id
from kbenv.engine import observe_v1 as O
from kbenv.engine import state as S
from kbenv.engine.observe import CH_LOCATION_OTHER, CH_OTHER_BLOCKED
from kbenv.observation import observation_planes_v1
from tests.observation_checks import feature, packed_equals_float

CARDS = ["mayors", "rovers", "fishermen"]


def hexes_of(st: np.ndarray, off: int) -> set[int]:
    return {h for h in range(NUM_HEXES) if (int(st[off + h // 60]) >> (h % 60)) & 1}


def harvest_game(players: int = 3, seed: int = 4) -> Game:
    return Game.new(players, seed=seed, expansions=["harvest"], cards=CARDS)


def test_the_layout_is_appended():
    """Channels 0..42 and the features before `harvest` keep their places: 5 planes and 62 features follow."""
    names = [name for name, _, _ in O.V1_CHANNELS]
    assert names[-7:-2] == ["farmland", "silos", "harvest_location", "scouts", "mayor_rows"]  # the Island's follow
    assert O.V1_MARSHLANDS_CHANNELS == 43 and O.CH1["farmland"] == 43 and O.V1_HARVEST_CHANNELS == 48
    assert O.F1["harvest"] == O.F1["own_turn"] + 1 == O.V1_MARSHLANDS_FEATURES
    assert O.V1_PREFIX_FEATURES[43] == O.V1_MARSHLANDS_FEATURES and O.V1_PREFIX_FEATURES[48] == O.V1_HARVEST_FEATURES
    assert O.NUM_FEATURES_V1 <= NUM_HEXES and 48 * 400 * 4 == 76_800  # 76.8 KB of float32 planes before the Island
    assert O.layout_table().count("\n| ") >= O.NUM_CHANNELS_V1 - 28 + len(O.V1_FEATURES)


def test_every_harvest_power_has_its_slot():
    """The 8 Harvest location powers and the farm action: slots harvest_power + 0..8, in power-code order."""
    harvest = [name for name, exp in zip(CAT.POWER_NAMES, CAT.POWER_EXPANSION, strict=True) if exp == "harvest"]
    assert len(harvest) == 9 and harvest[-1] == CAT.FARM_ACTION
    for k, name in enumerate(harvest):
        assert O.POWER_SLOT[CAT.POWER_CODE[name]] == O.F1["harvest_power"] + k
    # every power code has a slot of its own (the Island's two: tests/test_island_observation.py)
    slots = O.POWER_SLOT
    assert len(set(slots.tolist())) == len(slots) and (slots >= 0).all()


def test_farmland_silos_and_harvest_locations_have_planes():
    """Each substitute section has farmland, a silo and one location hex of each of two Harvest types (EN 1231)."""
    g = harvest_game()
    st = g.state
    obs = observation_planes_v1(st, 0)
    farmland = hexes_of(st, S.TERRAIN_MASKS + FARMLAND * 7)
    silos = hexes_of(st, S.TERRAIN_MASKS + SILO * 7)
    assert farmland and silos
    assert {h for h in range(NUM_HEXES) if obs[O.CH_FARMLAND].flat[h]} == farmland
    assert {h: float(obs[O.CH_SILOS].flat[h]) for h in range(NUM_HEXES) if obs[O.CH_SILOS].flat[h]} == {
        h: 0.5 for h in silos}
    assert all(obs[CH_OTHER_BLOCKED].flat[h] == 1.0 for h in farmland | silos)  # v0 planes unchanged
    expect = {}
    for i in range(st[S.NUM_LOCATIONS]):
        name = CAT.LOCATION_NAMES[st[S.LOC_TYPE + i]]
        if name in CAT.HARVEST_TYPES:
            expect[int(st[S.LOC_HEX + i])] = (CAT.HARVEST_TYPES.index(name) + 1) / 8
    assert expect and {h: float(obs[O.CH_HARVEST_LOCATION].flat[h]) for h in expect} == expect
    assert np.count_nonzero(obs[O.CH_HARVEST_LOCATION]) == len(expect)
    assert all(obs[CH_LOCATION_OTHER].flat[h] == 1.0 for h in expect)
    assert feature(obs, "harvest") == [1.0]
    assert feature(obs, "harvest_cards") == [1, 0, 0, 0, 0, 1]  # mayors, rovers (fishermen is a base card)
    assert feature(obs, "number_tiles_left") == [1.0] and feature(obs, "scouts_left") == [1.0]


def test_hand_built_number_tiles_scouts_marks_and_rovers():
    g = harvest_game()
    st = g.state.copy()
    mover = int(st[S.CURRENT])
    st[S.NUMBER_TILES : S.NUMBER_TILES + 3] = [3, 0, 5]  # 8 of the pool's 18 held
    st[S.MAYOR_LINES + 4] = 1  # row 4 marked for player 0
    st[S.MAYOR_LINES + 9] = 3  # row 9 for player 2
    st[S.ROVER_SECTIONS] = 0b0101  # quarters 0 and 2
    st[S.FARMLAND_USED + mover] = 1
    scouts = (hex_id(5, 5), hex_id(12, 7))
    for h in scouts:
        st[S.SCOUTS + h // 60] |= 1 << (h % 60)
    obs0 = observation_planes_v1(st, 0)
    obs1 = observation_planes_v1(st, 1)
    # number tiles per seat relative to the observer / 18; the pool keeps 18 - 8 = 10
    assert feature(obs0, "number_tiles") == pytest.approx([3 / 18, 0, 5 / 18, 0, 0])
    assert feature(obs1, "number_tiles") == pytest.approx([0, 5 / 18, 3 / 18, 0, 0])
    assert feature(obs1, "number_tiles_left") == pytest.approx([10 / 18])
    # Mayors rows: every hex of row 4 is own (1) for player 0, another player's (0.5) for player 1
    assert obs0[O.CH_MAYOR_ROWS, 4].tolist() == [1.0] * 20 and obs0[O.CH_MAYOR_ROWS, 9].tolist() == [0.5] * 20
    assert obs1[O.CH_MAYOR_ROWS, 4].tolist() == [0.5] * 20
    assert np.count_nonzero(obs0[O.CH_MAYOR_ROWS]) == 40
    assert feature(obs0, "mayor_lines") == pytest.approx([1 / 20, 1 / 20])
    assert feature(obs1, "mayor_lines") == pytest.approx([0, 2 / 20])
    # the scouts (public, shared): both tiles on the board
    for obs in (obs0, obs1):
        assert {h for h in range(NUM_HEXES) if obs[O.CH_SCOUTS].flat[h]} == set(scouts)
        assert feature(obs, "scouts_left") == [0.0]
        assert feature(obs, "rover_sections") == [1, 0, 1, 0]
        assert feature(obs, "farmland_used") == [1.0]
    for p in range(3):
        assert packed_equals_float(st, p)


def _random_until(phase: str, seeds=range(12)) -> Game:
    for seed in seeds:
        g = Game.new(2 + seed % 3, seed=seed, expansions=["harvest"])
        rng = np.random.default_rng(seed)
        while not g.done:
            if g.phase == phase:
                return g
            g.step(int(rng.choice(g.legal_actions())))
    raise AssertionError(f"no {phase} phase in the random games")


def test_the_silo_phase_has_its_phase_slot_mode_and_silo():
    g = _random_until("silo")
    st = g.state
    obs = observation_planes_v1(st, g.decider)
    assert feature(obs, "phase") == [0.0] * 6 and feature(obs, "canoe")[0] == 0.0  # not the reaction slot
    assert feature(obs, "harvest_phase") == [1.0, 0.0]
    mode = [0.0] * 3
    mode[int(st[S.SILO_MODE])] = 1.0
    assert feature(obs, "silo_mode") == mode
    assert feature(obs, "silo_steps") == pytest.approx([int(st[S.SILO_STEPS]) / 3])
    at = int(st[S.SILO_AT]) - 1
    if at >= 0:  # the silo being done shows 1, the others 0.5
        assert obs[O.CH_SILOS].flat[at] == 1.0
    assert packed_equals_float(st, g.decider) and packed_equals_float(st, (g.decider + 1) % g.num_players)


def test_a_pending_repeat_choice_shows_its_phase_and_power():
    """The power naming another one (the first Harvest type) waits in phase choose_power (A-H3)."""
    g = _random_until("choose_power", seeds=range(40))
    obs = observation_planes_v1(g.state, g.decider)
    assert feature(obs, "harvest_phase") == [0.0, 1.0]
    power = [0.0] * 9
    power[CAT.HARVEST_POWER_NAMES.index(CAT.HARVEST_TYPES[0])] = 1.0
    assert CAT.LOCATION_TYPES[CAT.LOCATION_NAMES.index(CAT.HARVEST_TYPES[0])].power == "power"
    assert feature(obs, "harvest_power") == power

