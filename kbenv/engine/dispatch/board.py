"""The board operations' events (kbenv.engine.board_ops calls them; see kbenv.engine.dispatch):
- `tile_seized(p, i)`: p took a tile of location i; `tiles_seized(p, h)` / `tiles_dropped(p, h)`: p's piece
  came to or left h, after the board's location tiles were seized or dropped;
- `supply_build(p)`: a settlement came from p's supply onto the board; `supply_emptied(p)`: p's supply is empty
  (True when an expansion decides what follows);
- `settlement_built(p, h)`: the consequences of a build in play; `piece_placed(p, h)`: of any piece placed or
  moved onto h (True when they emptied p's supply);
- `adjacency_changed(p)`: p's adjacent hexes were recomputed; `settlement_moved(p)` / `piece_lifted(p)`: after a
  move or a lift, once the tiles are settled.
"""

from __future__ import annotations

from numba import njit

from ...catalogue import CROSSROADS, HARVEST, ISLAND, MARSHLANDS, NOMADS, RULE_BIT
from ..crossroads.zone import reblock_zone
from ..harvest.powers import scout_adjacency, seized_tile
from ..harvest.scoring import mark_mayor_row
from ..island.rules import drop_island_tile, seize_island_tile
from ..marshlands.powers import lose_bonus_tiles, take_bonus_tiles
from ..marshlands.powers import supply_emptied as marsh_supply_emptied
from ..nomads.hooks import claim_nomads, red_cards_after_build
from ..state import CURRENT, EXPANSIONS, OUTPOST_ARMED, RULE_FLAGS

RED_CARDS_REACTIONS = RULE_BIT["red_cards_score_reactions"]  # the old reading of EN 604 for a reactor


@njit(cache=True)
def tile_seized(st, p: int, i: int) -> None:
    if st[EXPANSIONS] & HARVEST:
        seized_tile(st, p, i)  # a tile that brings something with it (Harvest number tiles)


@njit(cache=True)
def tiles_seized(st, p: int, h: int) -> None:
    if st[EXPANSIONS] & ISLAND:
        seize_island_tile(st, p, h)  # the island's location hex (kbenv.engine.island.rules)


@njit(cache=True)
def tiles_dropped(st, p: int, h: int) -> None:
    if st[EXPANSIONS] & ISLAND:
        drop_island_tile(st, p, h)


@njit(cache=True)
def supply_build(st, p: int) -> None:
    if st[EXPANSIONS] & MARSHLANDS:
        take_bonus_tiles(st, p)


@njit(cache=True)
def supply_emptied(st, p: int) -> bool:
    """True when an expansion settles what an empty supply means (Marshlands: a reserve set aside, A-M6)."""
    if st[EXPANSIONS] & MARSHLANDS:
        marsh_supply_emptied(st, p)
        return True
    return False


@njit(cache=True)
def settlement_built(st, p: int, h: int) -> bool:
    """A settlement built in play (not the silo phase's); True when its consequences emptied p's supply."""
    if st[EXPANSIONS] & NOMADS:
        st[OUTPOST_ARMED] = 0  # an armed Outpost serves this one settlement (N-10)
        claim_nomads(st, p, h)
        if p == st[CURRENT] or st[RULE_FLAGS] & RED_CARDS_REACTIONS:
            red_cards_after_build(st, p, h)  # "The active player must check" (EN 604): not a reactor
    return piece_placed(st, p, h)


@njit(cache=True)
def piece_placed(st, p: int, h: int) -> bool:
    """One of p's pieces was built, placed or moved onto h: Mayors may mark its row, taking a settlement from the
    supply (H-15, A-H7; kbenv.engine.harvest.scoring); True when that emptied the supply."""
    if st[EXPANSIONS] & HARVEST:
        return mark_mayor_row(st, p, h)
    return False


@njit(cache=True)
def adjacency_changed(st, p: int) -> None:
    if st[EXPANSIONS] & HARVEST:
        scout_adjacency(st, p)  # the turn owner's scouts count for its adjacency (H-9)


@njit(cache=True)
def settlement_moved(st, p: int, dst: int) -> None:
    """After p's settlement moved onto dst and the location tiles were seized and dropped."""
    if st[EXPANSIONS] & MARSHLANDS:
        take_bonus_tiles(st, p)
        lose_bonus_tiles(st, p)
    if st[EXPANSIONS] & NOMADS:
        claim_nomads(st, p, dst)
    if st[EXPANSIONS] & CROSSROADS:
        reblock_zone(st)  # a settlement may leave a warrior zone; the hex it left stays closed


@njit(cache=True)
def piece_lifted(st, p: int) -> None:
    """After p's piece left the board and p's location tiles were dropped."""
    if st[EXPANSIONS] & MARSHLANDS:
        lose_bonus_tiles(st, p)
    if st[EXPANSIONS] & CROSSROADS:
        reblock_zone(st)
