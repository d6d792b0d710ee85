"""Turn flow: starting a turn, the no-eligible-hex exception, ending a turn, the end of the game (in Harvest
games the silo end phase comes first: kbenv.engine.harvest.silo)."""

from __future__ import annotations

from numba import njit

from ..board.bitset import WORDS
from ..board.codes import SWAMP
from ..catalogue import CROSSROADS as EXP_CROSSROADS
from ..catalogue import HARVEST as EXP_HARVEST
from ..catalogue import MARSHLANDS as EXP_MARSHLANDS
from .crossroads.rules import choosing_terrain, discard_extra_cards, draw_extra_cards, hand_has_free_hex
from .deck import discard_card, draw_card, remove_card
from .harvest.hooks import end_turn as harvest_end_turn
from .harvest.hooks import game_end as harvest_game_end
from .legal import only_end_turn_legal
from .marshlands.hooks import begin_turn as marsh_begin_turn
from .marshlands.hooks import end_turn as marsh_end_turn
from .marshlands.swamp import PLAIN_BUILDS, SWAMP_BUILDS, hand_terrain
from .nomads.rules import end_of_round
from .state import (
    BONUS_USED,
    BUILT_THIS_TURN,
    CAVE_USED,
    CURRENT,
    DECIDER,
    ENDING,
    EXPANSIONS,
    HAND,
    MANDATORY_BUILT,
    MANDATORY_DONE,
    MANDATORY_TARGET,
    NO_CARD,
    NUM_PLAYERS,
    OCCUPIED,
    OUTPOST_ARMED,
    PHASE,
    PHASE_IDLE,
    PHASE_OVER,
    POWER,
    SOURCE,
    START_PLAYER,
    SUPPLY,
    TERRAIN_FIXED,
    TERRAIN_MASKS,
    TILES_FRESH,
    TILES_USED,
    TURN,
    TURN_TERRAIN,
    TURNS_WITHOUT_BUILD,
)

MANDATORY_BUILDS = 3  # settlements of the base game's mandatory action


@njit(cache=True, inline="always")
def card_has_free_hex(st, card: int) -> bool:
    """Some hex of the card's terrain is free (read by offsets, not views: this runs after every build)."""
    terrain_at = TERRAIN_MASKS + card * WORDS
    for i in range(WORDS):
        if st[terrain_at + i] & ~st[OCCUPIED + i]:
            return True
    return False


@njit(cache=True)
def ensure_usable_card(st, p: int) -> None:
    """No-eligible-hex exception: while p's card has no free hex, remove it from the game and draw.

    Applies while the mandatory action is still to be built.  If no card can be drawn at all, the
    mandatory action cannot be built and counts as done. An open hand (several Crossroads cards, a swamp
    card) is replaced only when none of its options has a free hex (A-C8, A-M2).
    """
    if st[MANDATORY_DONE] == 1:
        return
    while True:
        if st[EXPANSIONS] != 0 and choosing_terrain(st, p):
            if hand_has_free_hex(st, p):
                return
        elif st[HAND + p] != NO_CARD and card_has_free_hex(st, hand_terrain(st, p)):
            return
        if st[HAND + p] == NO_CARD:
            st[MANDATORY_DONE] = 1
            return
        remove_card(st, st[HAND + p])
        st[HAND + p] = draw_card(st)
        if st[EXPANSIONS] & EXP_MARSHLANDS:
            # a drawn card governs the rest of the action: a swamp card offers both options again, and the
            # count of 2 a swamp card's swamp gave goes back to 3 (the new card sets its own when fixed)
            if st[TERRAIN_FIXED] == 1 and st[TURN_TERRAIN] == SWAMP:
                st[MANDATORY_TARGET] += PLAIN_BUILDS - SWAMP_BUILDS
            st[TERRAIN_FIXED] = 0
            st[TURN_TERRAIN] = 0


@njit(cache=True)
def begin_turn(st, p: int) -> None:
    st[CURRENT] = p
    st[DECIDER] = p
    st[TURN] += 1
    st[PHASE] = PHASE_IDLE
    st[POWER] = -1
    st[SOURCE] = -1
    st[MANDATORY_BUILT] = 0
    st[MANDATORY_TARGET] = MANDATORY_BUILDS
    st[BUILT_THIS_TURN] = 0
    if st[HAND + p] == NO_CARD:
        st[HAND + p] = draw_card(st)
    st[MANDATORY_DONE] = 1 if st[SUPPLY + p] == 0 else 0
    if st[EXPANSIONS] != 0:
        st[CAVE_USED] = 0
        st[OUTPOST_ARMED] = 0
        if st[EXPANSIONS] & EXP_MARSHLANDS:
            marsh_begin_turn(st, p)  # a reserve owed is built in this mandatory action, on top (M-12)
    ensure_usable_card(st, p)


@njit(cache=True)
def last_seat(st) -> int:
    """The player to the right of the start player: the last to move in a round."""
    return (st[START_PLAYER] + st[NUM_PLAYERS] - 1) % st[NUM_PLAYERS]


@njit(cache=True)
def end_turn(st) -> None:
    """Discard and draw, then either end the game or begin the next player's turn."""
    p = st[CURRENT]
    discard_card(st, st[HAND + p])
    if st[EXPANSIONS] & EXP_CROSSROADS:
        discard_extra_cards(st, p)
    st[HAND + p] = draw_card(st)
    if st[EXPANSIONS] & EXP_CROSSROADS:
        draw_extra_cards(st, p)
    if st[EXPANSIONS] & EXP_MARSHLANDS:
        st[TERRAIN_FIXED] = 0
        st[TURN_TERRAIN] = 0
    if st[EXPANSIONS] & EXP_MARSHLANDS == 0:
        st[TILES_FRESH + p] = 0  # ready from the next turn on (EN 213); with Marshlands: marsh_end_turn
    st[TILES_USED + p] = 0
    if st[BUILT_THIS_TURN] == 1:
        st[TURNS_WITHOUT_BUILD] = 0
    else:
        st[TURNS_WITHOUT_BUILD] += 1
    stalled = st[TURNS_WITHOUT_BUILD] >= 2 * st[NUM_PLAYERS]
    if st[EXPANSIONS] != 0:
        st[OUTPOST_ARMED] = 0
        if st[EXPANSIONS] & EXP_MARSHLANDS:
            marsh_end_turn(st, p, p == last_seat(st))  # and the tiles taken become ready (A-M5)
            st[BONUS_USED + p] = 0
        if st[EXPANSIONS] & EXP_HARVEST:
            harvest_end_turn(st, p)  # the farm action comes back next turn (A-H1)
        if p == last_seat(st):
            end_of_round(st)
    if (st[ENDING] == 1 and p == last_seat(st)) or stalled:
        st[PHASE] = PHASE_OVER
        st[POWER] = -1
        st[SOURCE] = -1
        if st[EXPANSIONS] & EXP_HARVEST:
            harvest_game_end(st)  # the silo phase comes before the final scoring (H-5)
        return
    begin_turn(st, (p + 1) % st[NUM_PLAYERS])


@njit(cache=True)
def settle(st) -> None:
    """Take every forced END_TURN until a player has a real choice or the game is over."""
    while st[PHASE] == PHASE_IDLE and only_end_turn_legal(st):
        end_turn(st)
