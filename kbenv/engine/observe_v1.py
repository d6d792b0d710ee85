"""Observation v1 (kingdom_builder_v1): the v0 planes plus the expansion planes and features.

Channels 0..27 are exactly the v0 observation (kbenv.engine.observe; in expansion games the v0
features for phase, power and cards cover the base values only). Channels 28.. and the v1 features
are declared once below, in V1_CHANNELS and V1_FEATURES; the env docstring and docs/api.md print
these tables (`layout_table`). As in v0, nothing hidden from the observer is read.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import catalogue as CAT
from ..board.bitset import WORDS
from .nomads_hooks import current_round
from .observe import NUM_CHANNELS, mark_hexes, observe_into
from .state import (
    CAPITOL_HEX,
    CARDS,
    CAVE_USED,
    CAVES,
    EXPANSIONS,
    GOLD,
    LOC_HEX,
    LOC_TYPE,
    NOMAD_HEX,
    NOMAD_KIND,
    NOMAD_ON_SPACE,
    NOMAD_OWNER,
    NOMAD_ROUND,
    NUM_CAPITOLS,
    NUM_CARDS_IN_PLAY,
    NUM_LOCATIONS,
    NUM_NOMADS,
    NUM_PLAYERS,
    OUTPOST_ARMED,
    PHASE,
    POWER,
    STEPS_LEFT,
    STEPS_TAKEN,
    TILES_FRESH,
    TILES_HELD,
    TILES_USED,
    VICTIM,
    WALLS,
    WALLS_LEFT,
)

# (name, size, meaning): declared once; offsets follow in order.
V1_CHANNELS = (
    ("walls", 1, "stone walls (Nomads)"),
    ("capitols", 1, "capitol hexes"),
    ("caves", 1, "cave hexes"),
    ("nomad_tile", 1, "nomad spaces with a tile lying on them"),
    ("nomad_kind", 1, "the kind of that tile: (index in catalogue.NOMAD_KINDS + 1) / 11"),
    ("nomad_location", 1, "Nomads location hexes by type: caravan 0.25, quarry 0.5, village 0.75, garden 1"),
    ("features_v1", 1, "the v1 scalar features below, packed row-major"),
)
V1_FEATURES = (
    ("phase", 6, "one-hot: idle, mandatory, choose_source, choose_target, game_over, step"),
    ("power", CAT.NUM_POWER_CODES, "one-hot power being resolved (catalogue.POWER_NAMES)"),
    ("own_nomad_usable", len(CAT.NOMAD_USABLE_KINDS), "own nomad tiles usable now, per kind"),
    ("own_nomad_waiting", len(CAT.NOMAD_USABLE_KINDS), "own nomad tiles claimed this round, per kind"),
    ("others_nomad_tiles", 1, "nomad tiles held by the other players / 6"),
    ("gold", 5, "gold banked during play / 50, self then the next seats"),
    ("walls_left", 1, "walls left / 25"),
    ("outpost_armed", 1, "an Outpost waives adjacency for the next settlement"),
    ("cave_used", 1, "the cave move was used this turn"),
    ("steps_left", 1, "steps left of a multi-step power / 4"),
    ("steps_taken", 1, "steps taken / 4"),
    ("own_nomad_location_tiles", 4, "own tiles of caravan, quarry, village, garden / 2"),
    ("own_nomad_location_ready", 4, "of them usable now / 2"),
    ("red_cards", 3, "families, shepherds, ambassadors in play"),
    ("expansions", 3, "nomads, capitol, caves in play"),
    ("victim", 5, "Sword: the seat whose settlement is chosen next (relative to self)"),
)


def _offsets(rows) -> dict[str, int]:
    out, k = {}, 0
    for name, size, _ in rows:
        out[name] = k
        k += size
    return out


CH1 = {name: NUM_CHANNELS + k for name, k in _offsets(V1_CHANNELS).items()}
F1 = _offsets(V1_FEATURES)
NUM_CHANNELS_V1 = NUM_CHANNELS + sum(size for _, size, _ in V1_CHANNELS)
NUM_FEATURES_V1 = sum(size for _, size, _ in V1_FEATURES)
OBSERVATION_SHAPE_V1 = (NUM_CHANNELS_V1, 20, 20)
CH_WALLS, CH_CAPITOLS, CH_CAVES = CH1["walls"], CH1["capitols"], CH1["caves"]
CH_NOMAD_TILE, CH_NOMAD_KIND, CH_FEATURES_V1 = CH1["nomad_tile"], CH1["nomad_kind"], CH1["features_v1"]
CH_NOMAD_LOCATION = CH1["nomad_location"]
F_PHASE1, F_POWER1 = F1["phase"], F1["power"]
F_USABLE, F_WAITING, F_OTHERS = F1["own_nomad_usable"], F1["own_nomad_waiting"], F1["others_nomad_tiles"]
F_GOLD, F_WALLS_LEFT, F_OUTPOST, F_CAVE_USED = F1["gold"], F1["walls_left"], F1["outpost_armed"], F1["cave_used"]
F_STEPS_LEFT, F_STEPS_TAKEN = F1["steps_left"], F1["steps_taken"]
F_NLOC_TILES, F_NLOC_READY = F1["own_nomad_location_tiles"], F1["own_nomad_location_ready"]
F_RED, F_EXPANSIONS, F_VICTIM = F1["red_cards"], F1["expansions"], F1["victim"]
FIRST_NOMAD_LOCATION = CAT.BASE_POWERS
FIRST_RED_CARD = len(CAT.CARD_NAMES) - len(CAT.RED_CARDS)
NUM_USABLE = len(CAT.NOMAD_USABLE_KINDS)
SWORD_POWER = CAT.POWER_CODE["sword"]


def layout_table() -> str:
    """The v1 channels and features as a Markdown table (for the docs)."""
    lines = ["| v1 channel | meaning |", "|---|---|"]
    lines += [f"| {CH1[name]} `{name}` | {meaning} |" for name, _, meaning in V1_CHANNELS]
    lines += ["", "| v1 feature | size | meaning |", "|---|---|---|"]
    lines += [f"| {F1[name]} `{name}` | {size} | {meaning} |" for name, size, meaning in V1_FEATURES]
    return "\n".join(lines)


@njit(cache=True)
def set_f1(out, k: int, value: float) -> None:
    out[CH_FEATURES_V1, k // 20, k % 20] = value


@njit(cache=True)
def observe_v1_into(st, player: int, out) -> None:
    """Write the v1 observation of `player` into out (NUM_CHANNELS_V1, 20, 20) float32."""
    observe_into(st, player, out[:NUM_CHANNELS])
    out[NUM_CHANNELS:] = 0.0
    n = st[NUM_PLAYERS]
    mark_hexes(out, CH_WALLS, st[WALLS : WALLS + WORDS])
    mark_hexes(out, CH_CAVES, st[CAVES : CAVES + WORDS])
    for k in range(st[NUM_CAPITOLS]):
        h = st[CAPITOL_HEX + k]
        out[CH_CAPITOLS, h // 20, h % 20] = 1.0
    r = current_round(st)
    others = 0
    for i in range(st[NUM_NOMADS]):
        owner = st[NOMAD_OWNER + i]
        kind = st[NOMAD_KIND + i]
        h = st[NOMAD_HEX + i]
        if owner == NOMAD_ON_SPACE and kind >= 0 and h >= 0:
            out[CH_NOMAD_TILE, h // 20, h % 20] = 1.0
            out[CH_NOMAD_KIND, h // 20, h % 20] = (kind + 1) / 11.0
        elif owner == player and kind < NUM_USABLE:
            slot = F_USABLE if st[NOMAD_ROUND + i] + 1 == r else F_WAITING
            out[CH_FEATURES_V1, (slot + kind) // 20, (slot + kind) % 20] += 1.0
        elif owner >= 0 and owner != player:
            others += 1
    set_f1(out, F_OTHERS, others / 6.0)
    set_f1(out, F_PHASE1 + st[PHASE], 1.0)
    if st[POWER] >= 0:
        set_f1(out, F_POWER1 + st[POWER], 1.0)
    for k in range(n):
        set_f1(out, F_GOLD + k, min(1.0, st[GOLD + (player + k) % n] / 50.0))
    set_f1(out, F_WALLS_LEFT, st[WALLS_LEFT] / CAT.WALLS_IN_GAME)
    set_f1(out, F_OUTPOST, float(st[OUTPOST_ARMED]))
    set_f1(out, F_CAVE_USED, float(st[CAVE_USED]))
    set_f1(out, F_STEPS_LEFT, st[STEPS_LEFT] / 4.0)
    set_f1(out, F_STEPS_TAKEN, st[STEPS_TAKEN] / 4.0)
    held = st[TILES_HELD + player]
    ready = held & ~st[TILES_FRESH + player] & ~st[TILES_USED + player]
    for i in range(st[NUM_LOCATIONS]):
        t = st[LOC_TYPE + i] - FIRST_NOMAD_LOCATION
        if 0 <= t < 4:
            h = st[LOC_HEX + i]
            out[CH_NOMAD_LOCATION, h // 20, h % 20] = (t + 1) / 4.0
            if (held >> i) & 1:
                out[CH_FEATURES_V1, (F_NLOC_TILES + t) // 20, (F_NLOC_TILES + t) % 20] += 0.5
            if (ready >> i) & 1:
                out[CH_FEATURES_V1, (F_NLOC_READY + t) // 20, (F_NLOC_READY + t) % 20] += 0.5
    for k in range(NUM_CARDS_IN_PLAY):
        if st[CARDS + k] >= FIRST_RED_CARD:
            set_f1(out, F_RED + st[CARDS + k] - FIRST_RED_CARD, 1.0)
    for b in range(3):
        if (st[EXPANSIONS] >> b) & 1:
            set_f1(out, F_EXPANSIONS + b, 1.0)
    if st[PHASE] == 3 and st[VICTIM] >= 0 and st[POWER] == SWORD_POWER:
        set_f1(out, F_VICTIM + (st[VICTIM] - player + n) % n, 1.0)


assert NUM_FEATURES_V1 <= 400 and np.prod(OBSERVATION_SHAPE_V1) * 4 <= 70_000
