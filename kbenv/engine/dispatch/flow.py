"""The decision flow's events (kbenv.engine.turns, legal and actions call them; see kbenv.engine.dispatch).

Callers check `st[EXPANSIONS] != 0` first, so base games never enter these ladders. Turns:
- `turn_begun(p)`: p's turn has begun and p holds a card; `mandatory_card_replaced()`: the mandatory action's
  card was replaced (the no-eligible-hex exception); `hand_has_free_hex(p)`: some option of p's hand has a free
  hex;
- `hand_discarded(p)` / `hand_drawn(p)`: around the end of a turn's draw (the turn's tiles become ready there);
  `turn_ended(p, last)`: the turn is over (`last`: the round's last seat); `game_ending()`: the game ends.
"""

from __future__ import annotations

from numba import njit

from ...board.codes import SWAMP
from ...catalogue import CROSSROADS, HARVEST, MARSHLANDS
from ..crossroads.rules import choosing_terrain, discard_extra_cards, draw_extra_cards
from ..crossroads.rules import hand_has_free_hex as crossroads_hand_has_free_hex
from ..deck import card_has_free_hex
from ..harvest.hooks import end_turn as harvest_end_turn
from ..harvest.hooks import game_end as harvest_game_end
from ..marshlands.hooks import begin_turn as marsh_begin_turn
from ..marshlands.hooks import end_turn as marsh_end_turn
from ..marshlands.swamp import PLAIN_BUILDS, SWAMP_BUILDS, hand_terrain
from ..nomads.rules import end_of_round
from ..state import (
    BONUS_USED,
    CAVE_USED,
    EXPANSIONS,
    HAND,
    MANDATORY_TARGET,
    NO_CARD,
    OUTPOST_ARMED,
    TERRAIN_FIXED,
    TILES_FRESH,
    TURN_TERRAIN,
)


# ----- turns --------------------------------------------------------------------------------------------------
@njit(cache=True)
def turn_begun(st, p: int) -> None:
    st[CAVE_USED] = 0
    st[OUTPOST_ARMED] = 0
    if st[EXPANSIONS] & MARSHLANDS:
        marsh_begin_turn(st, p)  # a reserve owed is built in this mandatory action, on top (M-12)


@njit(cache=True)
def mandatory_card_replaced(st) -> None:
    if st[EXPANSIONS] & MARSHLANDS:
        # a drawn card governs the rest of the action: a swamp card offers both options again, and the
        # count of 2 a swamp card's swamp gave goes back to 3 (the new card sets its own when fixed)
        if st[TERRAIN_FIXED] == 1 and st[TURN_TERRAIN] == SWAMP:
            st[MANDATORY_TARGET] += PLAIN_BUILDS - SWAMP_BUILDS
        st[TERRAIN_FIXED] = 0
        st[TURN_TERRAIN] = 0


@njit(cache=True)
def hand_has_free_hex(st, p: int) -> bool:
    """Some terrain p's hand offers has a free hex: an open hand's options (several Crossroads cards, a swamp
    card, A-C8, A-M2), else the terrain of p's card this turn."""
    if choosing_terrain(st, p):
        return crossroads_hand_has_free_hex(st, p)
    return st[HAND + p] != NO_CARD and card_has_free_hex(st, hand_terrain(st, p))


@njit(cache=True)
def hand_discarded(st, p: int) -> None:
    if st[EXPANSIONS] & CROSSROADS:
        discard_extra_cards(st, p)


@njit(cache=True)
def hand_drawn(st, p: int) -> None:
    if st[EXPANSIONS] & CROSSROADS:
        draw_extra_cards(st, p)
    if st[EXPANSIONS] & MARSHLANDS:
        st[TERRAIN_FIXED] = 0
        st[TURN_TERRAIN] = 0
    else:
        st[TILES_FRESH + p] = 0  # ready from the next turn on (EN 213); with Marshlands: turn_ended (A-M5)


@njit(cache=True)
def turn_ended(st, p: int, last: bool) -> None:
    st[OUTPOST_ARMED] = 0
    if st[EXPANSIONS] & MARSHLANDS:
        marsh_end_turn(st, p, last)  # and the tiles taken become ready (A-M5)
        st[BONUS_USED + p] = 0
    if st[EXPANSIONS] & HARVEST:
        harvest_end_turn(st, p)  # the farm action comes back next turn (A-H1)
    if last:
        end_of_round(st)


@njit(cache=True)
def game_ending(st) -> None:
    if st[EXPANSIONS] & HARVEST:
        harvest_game_end(st)  # the silo phase comes before the final scoring (H-5)
