"""Packed observations (kbenv.packed, kbenv.engine.packed): unpacked, they are the float planes bit for bit."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from kbenv.packed import PackedLayout, layout_for_bytes, unpack
from kbenv.vector import BatchArgumentError, VectorGames

RULESETS = [None, ["nomads"], ["capitol"], ["caves"], ["crossroads"], ["nomads", "capitol", "caves", "crossroads"]]
PLAYERS = np.array([2, 3, 4, 5] * 2)


def check_equal(packed: np.ndarray, floats: np.ndarray, layout: PackedLayout) -> None:
    assert packed.dtype == np.uint8 and packed.shape == (len(floats), layout.nbytes)
    unpacked = layout.unpack(packed)
    assert unpacked.dtype == np.float32 and unpacked.shape == floats.shape
    # bit for bit, not just equal values (equal bytes also rule out -0.0 against 0.0)
    assert unpacked.tobytes() == floats.tobytes()


def play_and_compare(expansions, hints: str, steps: int, every: int) -> int:
    v = VectorGames(len(PLAYERS), num_players=PLAYERS, expansions=expansions, hints=hints)
    v.reset(7)
    checked = 0
    for s in range(steps):
        v.step_random()
        if s % every:
            continue
        for seat in range(2):  # the player to move and someone else (hidden cards, no legal planes)
            players = np.full(len(PLAYERS), seat)
            check_equal(v.observations(players=players, packed=True), v.observations(players=players), v.packed_layout)
        check_equal(v.observations(packed=True), v.observations(), v.packed_layout)
        checked += 1
    return checked


@pytest.mark.parametrize("expansions", RULESETS, ids=lambda e: "+".join(e) if e else "base")
def test_packed_equals_float_planes_in_random_games(expansions):
    # long enough that games end and restart (about 60-120 decisions a game at 2-5 players)
    assert play_and_compare(expansions, "none", steps=240, every=4) == 60


@pytest.mark.parametrize("hints", ["greedy", "lookahead"])
def test_packed_equals_float_planes_with_hints(hints):
    assert play_and_compare(None, hints, steps=24, every=6) == 4


@pytest.mark.parametrize("expansions", [None, ["nomads", "capitol", "caves", "crossroads"]], ids=["v0", "v1"])
def test_fused_random_step_writes_packed_observations(expansions):
    v = VectorGames(len(PLAYERS), num_players=PLAYERS, expansions=expansions, packed=True)
    v.reset(3)
    for _ in range(150):
        _, result, obs = v.step_random(observe=True)
        check_equal(obs, v.observations(packed=False), v.packed_layout)
    assert v.episodes.sum() > 0  # games ended and restarted inside the fused kernel


def test_packed_batch_hands_out_packed_rows_by_default():
    v = VectorGames(3, packed=True)
    v.reset(0)
    assert v.observations().shape == (3, v.packed_layout.nbytes)
    assert v.observations(packed=False).shape == (3, 28, 20, 20)


def test_layout_sizes_follow_the_documented_format():
    # v0: 27 plane channels, the tiles-left channel taking 2 bit planes -> 28 planes of 7 words (56 bytes);
    # then 75 float32 features padded to 76 -> 28 * 56 + 76 * 4
    assert PackedLayout("v0").nbytes == 28 * 56 + 76 * 4 == 1872
    # v1 adds 4 bit channels, nomad kind (4 bits: 11 kinds + none), Nomads locations (3 bits: 4 types + none),
    # two piece planes and the city halls (2 bits each), the zone, Crossroads locations (4 bits: 8 types + none),
    # swamp and palaces (1 bit each), Marshlands locations (3 bits: 4 types + none), then Harvest's farmland
    # (1 bit), silos (2 bits: silo, the silo being done), Harvest locations (4 bits: 8 types + none), scouts
    # (1 bit) and Mayors rows (2 bits: own, another player's), then the Island's two tables (2 bits: halves; 3 bits:
    # sixths)
    planes_v1 = 28 + 4 + 4 + 3 + 2 + 2 + 2 + 1 + 4 + 1 + 1 + 3 + 1 + 2 + 4 + 1 + 2 + 2 + 3
    assert PackedLayout("v1").num_planes == planes_v1 == 70
    # floats: v0's 75 features, then the 273 v1 features (129 up to Crossroads, 2 appended by Marshlands' Canoe,
    # 67 Marshlands features, 62 Harvest features, 13 Island features), 348 floats (an even number: no padding)
    assert PackedLayout("v1").nbytes == planes_v1 * 56 + (75 + 273) * 4
    # hints: the hint-best plane as bits; 93 hinted features and the 400 hint values as floats (493 -> 494)
    assert PackedLayout("v0-hints").nbytes == 29 * 56 + 494 * 4
    assert layout_for_bytes(5312).name == "v1"  # 4984 before the Island, 4176 before Harvest, 3624 before Marshlands
    with pytest.raises(ValueError, match="packed: 100 bytes"):
        layout_for_bytes(100)


def test_unpack_of_a_hand_made_row():
    """Bit h % 60 of word h // 60 is hex h; the tiles-left code is over planes 18 and 19."""
    layout = PackedLayout("v0")
    words = np.zeros(layout.words, dtype=np.int64)
    words[0 * 7 + 0] = 1 << 5  # plane 0 (grass): hex 5 = row 0, column 5
    words[0 * 7 + 6] = 1 << 39  # hex 6 * 60 + 39 = 399: row 19, column 19
    words[19 * 7 + 1] = 1 << 3  # tiles-left high bit at hex 63: code 2 -> 2 / 2 = 1.0
    words[18 * 7 + 1] = 1 << 4  # low bit at hex 64: code 1 -> 0.5
    values = words[28 * 7:].view(np.float32)
    values[74] = 0.25  # feature 74 (completed rounds) -> row 3, column 14 of the features plane
    obs = unpack(words.view(np.uint8), layout)
    assert obs[0, 0, 5] == 1.0 and obs[0, 19, 19] == 1.0 and obs[0].sum() == 2.0
    assert obs[18, 3, 3] == 1.0 and obs[18, 3, 4] == 0.5 and obs[18].sum() == 1.5
    assert obs[27, 3, 14] == 0.25 and obs[27].sum() == 0.25
    assert obs.sum() == 2.0 + 1.5 + 0.25


def test_bad_arguments_are_refused():
    v = VectorGames(2)
    v.reset(0)
    before = v.states.copy()
    with pytest.raises(BatchArgumentError, match="packed"):
        v.observations(packed="yes")
    with pytest.raises(ValueError, match="packed"):
        VectorGames(2, packed=1)
    with pytest.raises(ValueError, match="packed: expected"):
        unpack(np.zeros((2, 100), dtype=np.uint8), PackedLayout("v0"))
    with pytest.raises(ValueError, match="packed: expected"):
        unpack(np.zeros((2, 1872), dtype=np.float32), PackedLayout("v0"))
    assert np.array_equal(v.states, before)


SCRIPT = textwrap.dedent(
    """
    import hashlib, sys
    import numpy as np
    from kbenv.vector import VectorGames
    h = hashlib.sha256()
    for exp in (None, ["nomads", "capitol", "caves", "crossroads"]):
        v = VectorGames(2, num_players=np.array([2, 4]), expansions=exp)
        v.reset(5)
        for _ in range(30):
            v.step_random()
            h.update(v.observations(packed=True).tobytes())
    print(h.hexdigest())
    """
)


def test_packing_kernels_agree_compiled_and_interpreted():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    runs = [subprocess.run([sys.executable, "-c", SCRIPT], env=e, capture_output=True, text=True, check=True)
            for e in (env, dict(os.environ))]
    digests = [r.stdout.strip().splitlines()[-1] for r in runs]
    assert len(digests[0]) == 64 and digests[0] == digests[1]
