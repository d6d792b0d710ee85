"""The expansions' parts of the observations: kbenv.engine.observe_v1 and kbenv.engine.packed call these events.

Each writes the planes, features or packed bits of the expansions in play, in the order of the v1 layout
(kbenv.engine.observe_layout): Crossroads, Marshlands, Harvest, the Island. The callers check
`st[EXPANSIONS] != 0` first. The round count of the nomad tiles comes from here too, so that the observation
modules import no expansion package.
"""

from __future__ import annotations

from numba import njit

from ...catalogue import CROSSROADS, HARVEST, ISLAND, MARSHLANDS
from ..crossroads.observe import crossroads_features, crossroads_planes, pack_crossroads
from ..harvest.observe import harvest_features, harvest_planes, pack_harvest
from ..island.observe import island_features, island_planes, pack_island
from ..marshlands.observe import marsh_features, marsh_planes, pack_marsh
from ..nomads.hooks import current_round  # noqa: F401
from ..observe_layout import CH_ISLAND_HEXES, F_ISLAND
from ..state import EXPANSIONS


@njit(cache=True, inline="always")
def expansion_planes(st, player: int, out) -> None:
    """The expansions' planes of `player`'s v1 observation (out: the float planes)."""
    if st[EXPANSIONS] & CROSSROADS:
        crossroads_planes(st, player, out)
    if st[EXPANSIONS] & MARSHLANDS:
        marsh_planes(st, out)
    if st[EXPANSIONS] & HARVEST:
        harvest_planes(st, player, out)
    if st[EXPANSIONS] & ISLAND:
        island_planes(st, player, out, CH_ISLAND_HEXES)


@njit(cache=True, inline="always")
def expansion_features(st, player: int, f) -> None:
    """The expansions' v1 scalar features of `player` (f: the feature vector)."""
    if st[EXPANSIONS] & CROSSROADS:
        crossroads_features(st, player, f)
    if st[EXPANSIONS] & MARSHLANDS:
        marsh_features(st, player, f)
    if st[EXPANSIONS] & HARVEST:
        harvest_features(st, player, f)
    if st[EXPANSIONS] & ISLAND:
        island_features(st, player, f, F_ISLAND)


@njit(cache=True, inline="always")
def expansion_bits(st, player: int, bits) -> None:
    """The expansions' bit planes of `player`'s packed v1 observation (bits: the packed row)."""
    if st[EXPANSIONS] & CROSSROADS:
        pack_crossroads(st, player, bits)
    if st[EXPANSIONS] & MARSHLANDS:
        pack_marsh(st, bits)
    if st[EXPANSIONS] & HARVEST:
        pack_harvest(st, player, bits)
    if st[EXPANSIONS] & ISLAND:
        pack_island(st, player, bits)
