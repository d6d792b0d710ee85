"""Observation planes from one player's point of view, built in numba.

The layout (channel and feature offsets) is declared once here, in V0_CHANNELS and V0_FEATURES (as v1's
in kbenv.engine.observe_v1), printed by `layout_table()` and documented in kbenv/envs/kingdom_builder_v0.py.
Nothing hidden from the observing player is read: other players' hands (except the played card of the
player to move) and the order of the draw pile never enter an observation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board.bitset import BITS_PER_WORD, WORDS, word_lowest_bit
from ..board.codes import (
    CASTLE,
    LOCATION,
    MOUNTAIN,
    NUM_BUILDABLE,
    NUM_POWERS,
    NUM_TERRAIN_CODES,
    SWAMP_CARD_BASE,
    WATER,
)
from ..board.geometry import EDGE_HEXES
from .borrow import borrowed
from .deck import deck_size, discard_off
from .legal import SCRATCH_LEGAL, legal_hexes
from .state import (
    CARDS,
    CURRENT,
    DECIDER,
    DECK_COUNT,
    DECK_SIZE,
    DISCARD_COUNT,
    ENDING,
    EXTRA_COUNT,
    HAND,
    LOC_HEX,
    LOC_TILES,
    LOC_TYPE,
    MANDATORY_BUILT,
    MANDATORY_DONE,
    MARSH_PILE_SIZE,
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

# ---- layout v0: declared once here (name, size, meaning); offsets follow in order ------------------
# kbenv/envs/kingdom_builder_v0.py documents these tables and `layout_table()` prints them; the CH_* and F_*
# names below are read from the offsets (and checked against the numbers networks were trained with).
V0_CHANNELS = (
    ("terrain", 5, "grass, canyon, desert, flower field, forest"),
    ("water", 1, "water"),
    ("mountain", 1, "mountain"),
    ("castle", 1, "castle"),
    ("other_blocked", 1, "nomad spaces and other unbuildable special terrain"),
    ("location", 8, "location hexes by power: oracle, farm, oasis, tower, tavern, barn, harbor, paddock"),
    ("location_other", 1, "location hexes of types without a power (Nomads)"),
    ("tiles_left", 1, "tiles left on each location hex / 2"),
    ("own", 1, "own settlements"),
    ("opponents", 4, "settlements of the next players in seat order after self (zero planes for absent seats)"),
    ("legal", 1, "legal hexes of the current decision (only when the observer is to move)"),
    ("source", 1, "the settlement being moved (choose_target of a move power)"),
    ("edge", 1, "board edge (Tower)"),
    ("features", 1, "the scalar features below, feature k at row k // 20, column k % 20"),
)
V0_FEATURES = (
    ("own_card", 5, "own terrain card (one-hot G C D F T)"),
    ("mover_card", 5, "played card of the player to move (public)"),
    ("phase", 5, "idle, mandatory, choose_source, choose_target, game_over"),
    ("mandatory_built", 1, "settlements built in this mandatory action / 3 (at most 1)"),
    ("mandatory_done", 1, "mandatory action done"),
    ("power", 8, "power being resolved (oracle .. paddock)"),
    ("own_tiles", 8, "own tiles held per power / 2"),
    ("own_ready", 8, "own tiles usable now per power / 2"),
    ("opp_tiles", 8, "tiles held by all opponents per power / 8"),
    ("supply", 5, "supply / 40 of self then the next players in seat order"),
    ("cards", 10, "Kingdom Builder cards in play, in the order of kbenv.CARD_NAMES"),
    ("to_move", 1, "observer is to move"),
    ("last_round", 1, "last round (a player has built their last settlement)"),
    ("deck", 1, "draw pile size / 25 (Marshlands: / 30)"),
    ("discard", 5, "discard pile per terrain / 5"),
    ("seat", 1, "place in the turn order from the start player / 4"),
    ("num_players", 1, "players / 5"),
    ("round", 1, "completed rounds / 20 (at most 1)"),
)


def offsets(rows) -> dict[str, int]:
    """{name: first index} of (name, size, meaning) rows laid out in order."""
    out, k = {}, 0
    for name, size, _ in rows:
        out[name] = k
        k += size
    return out


CH0 = offsets(V0_CHANNELS)
F0 = offsets(V0_FEATURES)
CH_TERRAIN, CH_WATER, CH_MOUNTAIN, CH_CASTLE = CH0["terrain"], CH0["water"], CH0["mountain"], CH0["castle"]
CH_OTHER_BLOCKED, CH_LOCATION, CH_LOCATION_OTHER = CH0["other_blocked"], CH0["location"], CH0["location_other"]
CH_TILES_LEFT, CH_OWN, CH_OPPONENTS, CH_LEGAL = CH0["tiles_left"], CH0["own"], CH0["opponents"], CH0["legal"]
CH_SOURCE, CH_EDGE, CH_FEATURES = CH0["source"], CH0["edge"], CH0["features"]
NUM_CHANNELS = sum(size for _, size, _ in V0_CHANNELS)
F_OWN_CARD, F_MOVER_CARD, F_PHASE = F0["own_card"], F0["mover_card"], F0["phase"]
F_MANDATORY_BUILT, F_MANDATORY_DONE, F_POWER = F0["mandatory_built"], F0["mandatory_done"], F0["power"]
F_OWN_TILES, F_OWN_READY, F_OPP_TILES, F_SUPPLY = F0["own_tiles"], F0["own_ready"], F0["opp_tiles"], F0["supply"]
F_CARDS, F_TO_MOVE, F_LAST_ROUND, F_DECK = F0["cards"], F0["to_move"], F0["last_round"], F0["deck"]
F_DISCARD, F_SEAT, F_NUM_PLAYERS, F_ROUND = F0["discard"], F0["seat"], F0["num_players"], F0["round"]
NUM_FEATURES = sum(size for _, size, _ in V0_FEATURES)
# The v0 numbers every trained network reads (kingdom_builder_v0's docstring): the table must keep them.
assert (CH_OPPONENTS, CH_EDGE, CH_FEATURES, NUM_CHANNELS) == (20, 26, 27, 28)
assert (F_POWER, F_SUPPLY, F_CARDS, F_TO_MOVE, F_DISCARD, F_ROUND, NUM_FEATURES) == (17, 49, 54, 64, 67, 74, 75)
NUM_PHASES_V0 = 5
NUM_BASE_CARDS = 10


def layout_table() -> str:
    """The v0 channels and features as a Markdown table (for the docs)."""
    lines = ["| v0 channel | size | meaning |", "|---|---|---|"]
    lines += [f"| {CH0[name]} `{name}` | {size} | {meaning} |" for name, size, meaning in V0_CHANNELS]
    lines += ["", "| v0 feature | size | meaning |", "|---|---|---|"]
    lines += [f"| {F0[name]} `{name}` | {size} | {meaning} |" for name, size, meaning in V0_FEATURES]
    return "\n".join(lines)


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


BOARD_WORDS = np.array([(1 << BITS_PER_WORD) - 1] * (WORDS - 1) + [(1 << (400 - (WORDS - 1) * BITS_PER_WORD)) - 1],
                       dtype=np.int64)  # the board's bits of each mask word (the island's ids 400..419 are not drawn)


@njit(cache=True)
def mark_hexes(out, ch: int, mask) -> None:
    """out[ch] = 1 on every board hex of the mask (island hexes: the v1 tables of kbenv.engine.island.observe)."""
    for i in range(WORDS):
        w = mask[i] & BOARD_WORDS[i]
        while w != 0:
            h = i * BITS_PER_WORD + word_lowest_bit(w)
            w &= w - 1
            out[ch, h // 20, h % 20] = 1.0


@njit(cache=True)
def observe_into(st, player: int, out) -> None:
    """Write the observation of `player` into out (NUM_CHANNELS, 20, 20) float32."""
    st = borrowed(st)
    out = borrowed(out)
    out[:] = 0.0
    n = st[NUM_PLAYERS]
    to_move = st[PHASE] != PHASE_OVER and st[DECIDER] == player  # the turn owner but in a reaction
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
    if st[PHASE] == PHASE_TARGET and 0 <= st[SOURCE] < 400:  # a board hex (an island one: observe_island)
        out[CH_SOURCE, st[SOURCE] // 20, st[SOURCE] % 20] = 1.0

    f = np.zeros(NUM_FEATURES, dtype=np.float32)
    features_into(st, player, f)
    for k in range(NUM_FEATURES):
        out[CH_FEATURES, k // 20, k % 20] = f[k]


def _discard_shares(most: int) -> np.ndarray:
    """DISCARD_SHARE[k]: 0.2 added k times in float64 (the F_DISCARD feature of k cards of one terrain, summed
    card by card as the discard pile is counted; a table instead of a sum per terrain and card)."""
    shares = np.zeros(most + 1, dtype=np.float64)
    for k in range(1, most + 1):
        shares[k] = shares[k - 1] + 0.2
    return shares


DISCARD_SHARE = _discard_shares(max(DECK_SIZE, MARSH_PILE_SIZE))


@njit(cache=True)
def card_slot(card: int) -> int:
    """The terrain slot of a card in the card features: a swamp card shows its other terrain (the v0 planes
    have five card slots; a swamp card's own feature is still to be appended to v1)."""
    return card - SWAMP_CARD_BASE if card >= SWAMP_CARD_BASE else card


@njit(cache=True)
def features_into(st, player: int, f) -> None:
    """Write the scalar features of `player` (F_* indices) into f, a float32 vector of NUM_FEATURES or more
    zeros (the features plane of observe_into, and the float part of kbenv.engine.packed)."""
    st = borrowed(st)
    f = borrowed(f)
    n = st[NUM_PLAYERS]
    mover = st[CURRENT]
    decides = st[PHASE] != PHASE_OVER and st[DECIDER] == player  # DECIDER = CURRENT but in a reaction
    own_card = st[HAND + player]
    if own_card >= 0:
        f[F_OWN_CARD + card_slot(own_card)] = 1.0
    if st[PHASE] != PHASE_OVER and st[HAND + mover] >= 0 and (
            mover == player or st[EXTRA_COUNT + mover] == 0 or st[TERRAIN_FIXED] == 1):  # Crossroads: chosen
        f[F_MOVER_CARD + card_slot(st[HAND + mover])] = 1.0
    if st[PHASE] < NUM_PHASES_V0:  # the expansion phases are in the v1 features (kbenv.engine.observe_v1)
        f[F_PHASE + st[PHASE]] = 1.0
    f[F_MANDATORY_BUILT] = min(1.0, st[MANDATORY_BUILT] / 3.0)  # more with a reserve owed: v1 marsh features
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
    if decides:
        f[F_TO_MOVE] = 1.0
    f[F_LAST_ROUND] = float(st[ENDING])
    f[F_DECK] = st[DECK_COUNT] / deck_size(st)  # 30 cards with the swamp cards (M-4)
    discard = discard_off(st)
    for k in range(st[DISCARD_COUNT]):  # count each terrain's cards in its (zero) slot, then write its share
        card = st[discard + k]
        if 0 <= card < NUM_BUILDABLE:
            f[F_DISCARD + card] += 1.0
    for t in range(NUM_BUILDABLE):
        count = int(f[F_DISCARD + t])
        if count:
            f[F_DISCARD + t] = DISCARD_SHARE[count]
    f[F_SEAT] = ((player - st[START_PLAYER] + n) % n) / 4.0
    f[F_NUM_PLAYERS] = n / MAX_PLAYERS
    f[F_ROUND] = min(1.0, ((st[TURN] - 1) // n) / 20.0)
