"""Observation planes from one player's point of view, built in numba.

The layout (channel indices) is defined once here and documented in kbenv/kingdom_builder_v0.py.
Nothing hidden from the observing player is read: other players' hands (except the played card of the
player to move) and the order of the draw pile never enter an observation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board.bitset import BITS_PER_WORD, WORDS, word_lowest_bit
from ..board.codes import CASTLE, LOCATION, MOUNTAIN, NUM_BUILDABLE, NUM_POWERS, NUM_TERRAIN_CODES, WATER
from ..board.geometry import EDGE_HEXES
from .legal import SCRATCH_LEGAL, legal_hexes
from .state import (
    CARDS,
    CURRENT,
    DECK_COUNT,
    DECK_SIZE,
    DISCARD,
    DISCARD_COUNT,
    ENDING,
    EXTRA_COUNT,
    HAND,
    LOC_HEX,
    LOC_TILES,
    LOC_TYPE,
    MANDATORY_BUILT,
    MANDATORY_DONE,
    MAX_PLAYERS,
    NUM_CARDS_IN_PLAY,
    NUM_LOCATIONS,
    NUM_PLAYERS,
    OWN,
    PHASE,
    PHASE_OVER,
    PHASE_TARGET,
    POWER,
    SETTLEMENTS_PER_PLAYER,
    SOURCE,
    START_PLAYER,
    SUPPLY,
    TERRAIN_FIXED,
    TERRAIN_MASKS,
    TILES_FRESH,
    TILES_HELD,
    TILES_USED,
    TURN,
)

# ---- channel layout ------------------------------------------------------------------------
CH_TERRAIN = 0  # 5 planes: grass, canyon, desert, flower field, forest
CH_WATER = 5
CH_MOUNTAIN = 6
CH_CASTLE = 7
CH_OTHER_BLOCKED = 8  # nomad spaces and other unbuildable special terrain
CH_LOCATION = 9  # 8 planes: location hexes by power (oracle .. paddock)
CH_LOCATION_OTHER = 17  # location hexes of types without a power (Nomads)
CH_TILES_LEFT = 18  # tiles left on each location hex / 2
CH_OWN = 19  # own settlements
CH_OPPONENTS = 20  # 4 planes: settlements of the next players in seat order after self
CH_LEGAL = 24  # legal hexes of the current decision (only when the observer is to move)
CH_SOURCE = 25  # the settlement being moved (choose_target of a move power)
CH_EDGE = 26  # board edge (Tower)
CH_FEATURES = 27  # the scalar features below, packed row-major into the plane's first cells
NUM_CHANNELS = 28

# Scalar features (index k lives at row k // 20, column k % 20 of plane CH_FEATURES).
F_OWN_CARD = 0  # 5: own terrain card (one-hot G C D F T)
F_MOVER_CARD = 5  # 5: played card of the player to move
F_PHASE = 10  # 5: idle, mandatory, choose_source, choose_target, game_over
F_MANDATORY_BUILT = 15  # settlements built in this mandatory action / 3
F_MANDATORY_DONE = 16
F_POWER = 17  # 8: power being resolved
F_OWN_TILES = 25  # 8: own tiles held per power / 2
F_OWN_READY = 33  # 8: own tiles usable now per power / 2
F_OPP_TILES = 41  # 8: tiles held by all opponents per power / 8
F_SUPPLY = 49  # 5: supply / 40 of self then the next players in seat order
F_CARDS = 54  # 10: Kingdom Builder cards in play
F_TO_MOVE = 64
F_LAST_ROUND = 65
F_DECK = 66  # draw pile size / 25
F_DISCARD = 67  # 5: discard pile per terrain / 5
F_SEAT = 72  # place in the turn order from the start player / 4
F_NUM_PLAYERS = 73  # players / 5
F_ROUND = 74  # completed rounds / 20 (at most 1)
NUM_FEATURES = 75
NUM_PHASES_V0 = 5
NUM_BASE_CARDS = 10


@njit(cache=True)
def set_feature(out, k: int, value: float) -> None:
    """Set scalar feature k (in the features plane)."""
    out[CH_FEATURES, k // 20, k % 20] = value


def _terrain_channels() -> np.ndarray:
    """Plane of each terrain code (LOCATION hexes get their plane by type)."""
    channel = np.full(NUM_TERRAIN_CODES, CH_OTHER_BLOCKED, dtype=np.int64)
    channel[:NUM_BUILDABLE] = CH_TERRAIN + np.arange(NUM_BUILDABLE)
    channel[WATER] = CH_WATER
    channel[MOUNTAIN] = CH_MOUNTAIN
    channel[CASTLE] = CH_CASTLE
    return channel


TERRAIN_CHANNEL = _terrain_channels()


@njit(cache=True)
def mark_hexes(out, ch: int, mask) -> None:
    """out[ch] = 1 on every hex of the mask."""
    for i in range(WORDS):
        w = mask[i]
        while w != 0:
            h = i * BITS_PER_WORD + word_lowest_bit(w)
            w &= w - 1
            out[ch, h // 20, h % 20] = 1.0


@njit(cache=True)
def observe_into(st, player: int, out) -> None:
    """Write the observation of `player` into out (NUM_CHANNELS, 20, 20) float32."""
    out[:] = 0.0
    n = st[NUM_PLAYERS]
    mover = st[CURRENT]
    to_move = st[PHASE] != PHASE_OVER and mover == player
    legal = st[SCRATCH_LEGAL : SCRATCH_LEGAL + WORDS]
    if to_move:
        legal_hexes(st, legal)
    for code in range(NUM_TERRAIN_CODES):
        if code != LOCATION:
            terrain = st[TERRAIN_MASKS + code * WORDS : TERRAIN_MASKS + (code + 1) * WORDS]
            mark_hexes(out, TERRAIN_CHANNEL[code], terrain)
    for h in EDGE_HEXES:
        out[CH_EDGE, h // 20, h % 20] = 1.0
    if to_move:
        mark_hexes(out, CH_LEGAL, legal)
    for k in range(n):
        q = (player + k) % n
        mark_hexes(out, CH_OWN + k, st[OWN + q * WORDS : OWN + (q + 1) * WORDS])
    for i in range(st[NUM_LOCATIONS]):
        h = st[LOC_HEX + i]
        r = h // 20
        c = h % 20
        t = st[LOC_TYPE + i]
        if t < NUM_POWERS:
            out[CH_LOCATION + t, r, c] = 1.0
        else:
            out[CH_LOCATION_OTHER, r, c] = 1.0
        out[CH_TILES_LEFT, r, c] = st[LOC_TILES + i] / 2.0
    if st[PHASE] == PHASE_TARGET and st[SOURCE] >= 0:
        out[CH_SOURCE, st[SOURCE] // 20, st[SOURCE] % 20] = 1.0

    f = np.zeros(NUM_FEATURES, dtype=np.float32)
    features_into(st, player, f)
    for k in range(NUM_FEATURES):
        out[CH_FEATURES, k // 20, k % 20] = f[k]


@njit(cache=True)
def features_into(st, player: int, f) -> None:
    """Write the scalar features of `player` (F_* indices) into f, a float32 vector of NUM_FEATURES or more
    zeros (the features plane of observe_into, and the float part of kbenv.engine.packed)."""
    n = st[NUM_PLAYERS]
    mover = st[CURRENT]
    to_move = st[PHASE] != PHASE_OVER and mover == player
    own_card = st[HAND + player]
    if own_card >= 0:
        f[F_OWN_CARD + own_card] = 1.0
    if st[PHASE] != PHASE_OVER and st[HAND + mover] >= 0 and (
            mover == player or st[EXTRA_COUNT + mover] == 0 or st[TERRAIN_FIXED] == 1):  # Crossroads: chosen
        f[F_MOVER_CARD + st[HAND + mover]] = 1.0
    if st[PHASE] < NUM_PHASES_V0:  # the expansion phases are in the v1 features (kbenv.engine.observe_v1)
        f[F_PHASE + st[PHASE]] = 1.0
    f[F_MANDATORY_BUILT] = st[MANDATORY_BUILT] / 3.0
    f[F_MANDATORY_DONE] = float(st[MANDATORY_DONE])
    if 0 <= st[POWER] < NUM_POWERS:
        f[F_POWER + st[POWER]] = 1.0
    held = st[TILES_HELD + player]
    ready = held & ~st[TILES_FRESH + player] & ~st[TILES_USED + player]
    for i in range(st[NUM_LOCATIONS]):  # (sums of halves and eighths: exact in float32, no scratch arrays)
        t = st[LOC_TYPE + i]
        if t >= NUM_POWERS:
            continue
        if (held >> i) & 1:
            f[F_OWN_TILES + t] += 0.5
        if (ready >> i) & 1:
            f[F_OWN_READY + t] += 0.5
        for q in range(n):
            if q != player and (st[TILES_HELD + q] >> i) & 1:
                f[F_OPP_TILES + t] += 0.125
    for k in range(n):
        f[F_SUPPLY + k] = st[SUPPLY + (player + k) % n] / SETTLEMENTS_PER_PLAYER
    for k in range(NUM_CARDS_IN_PLAY):
        if st[CARDS + k] < NUM_BASE_CARDS:
            f[F_CARDS + st[CARDS + k]] = 1.0
    if to_move:
        f[F_TO_MOVE] = 1.0
    f[F_LAST_ROUND] = float(st[ENDING])
    f[F_DECK] = st[DECK_COUNT] / DECK_SIZE
    for t in range(NUM_BUILDABLE):
        share = 0.0  # summed card by card in float64, as the discard pile is counted
        for k in range(st[DISCARD_COUNT]):
            if st[DISCARD + k] == t:
                share += 0.2
        if share > 0:
            f[F_DISCARD + t] = share
    f[F_SEAT] = ((player - st[START_PLAYER] + n) % n) / 4.0
    f[F_NUM_PLAYERS] = n / MAX_PLAYERS
    f[F_ROUND] = min(1.0, ((st[TURN] - 1) // n) / 20.0)
