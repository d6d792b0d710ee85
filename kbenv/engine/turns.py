"""Turn flow: starting a turn, the no-eligible-hex exception, ending a turn, the end of the game (in Harvest
games the silo end phase comes first: kbenv.engine.harvest.silo)."""

from __future__ import annotations

from numba import njit

from .borrow import borrowed
from .deck import card_has_free_hex, discard_card, draw_card, remove_card
from .dispatch import flow
from .legal import only_end_turn_legal
from .state import (
    BUILT_THIS_TURN,
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
    PHASE,
    PHASE_IDLE,
    PHASE_OVER,
    POWER,
    SOURCE,
    START_PLAYER,
    SUPPLY,
    TILES_FRESH,
    TILES_USED,
    TURN,
    TURNS_WITHOUT_BUILD,
)

MANDATORY_BUILDS = 3  # settlements of the base game's mandatory action


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
        if st[EXPANSIONS] == 0:
            if st[HAND + p] != NO_CARD and card_has_free_hex(st, st[HAND + p]):
                return
        elif flow.hand_has_free_hex(st, p):
            return
        if st[HAND + p] == NO_CARD:
            st[MANDATORY_DONE] = 1
            return
        remove_card(st, st[HAND + p])
        st[HAND + p] = draw_card(st)
        if st[EXPANSIONS] != 0:
            flow.mandatory_card_replaced(st)


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
        flow.turn_begun(st, p)
    ensure_usable_card(st, p)


@njit(cache=True)
def last_seat(st) -> int:
    """The player to the right of the start player: the last to move in a round."""
    return (st[START_PLAYER] + st[NUM_PLAYERS] - 1) % st[NUM_PLAYERS]


@njit(cache=True)
def end_turn(st) -> None:
    """Discard and draw, then either end the game or begin the next player's turn."""
    st = borrowed(st)
    p = st[CURRENT]
    discard_card(st, st[HAND + p])
    if st[EXPANSIONS] == 0:
        st[HAND + p] = draw_card(st)
        st[TILES_FRESH + p] = 0  # ready from the next turn on (EN 213)
    else:
        flow.hand_discarded(st, p)
        st[HAND + p] = draw_card(st)
        flow.hand_drawn(st, p)  # and the tiles taken this turn, ready from the next (EN 213) or later (A-M5)
    st[TILES_USED + p] = 0
    if st[BUILT_THIS_TURN] == 1:
        st[TURNS_WITHOUT_BUILD] = 0
    else:
        st[TURNS_WITHOUT_BUILD] += 1
    stalled = st[TURNS_WITHOUT_BUILD] >= 2 * st[NUM_PLAYERS]
    if st[EXPANSIONS] != 0:
        flow.turn_ended(st, p, p == last_seat(st))
    if (st[ENDING] == 1 and p == last_seat(st)) or stalled:
        st[PHASE] = PHASE_OVER
        st[POWER] = -1
        st[SOURCE] = -1
        if st[EXPANSIONS] != 0:
            flow.game_ending(st)  # (Harvest: the silo phase comes before the final scoring, H-5)
        return
    begin_turn(st, (p + 1) % st[NUM_PLAYERS])


@njit(cache=True)
def settle(st) -> None:
    """Take every forced END_TURN until a player has a real choice or the game is over."""
    st = borrowed(st)
    while st[PHASE] == PHASE_IDLE and only_end_turn_legal(st):
        end_turn(st)
