"""Marshlands' Canoe (M-8, A-M5): reactions in other players' turns, on the interrupt stack.

When a build, move or placement of player X takes the last tile of a location hex (or, with Nomads, the tile of
a nomad space), the decision in progress is interrupted: a frame is pushed (kbenv.engine.frames) with a queue of
the seats to ask, in seat order from the left of the active player (the active player last), without X (unless
the rule flag `canoe_taker_reacts`, A-M5 b, DE 1181). A seat is asked when its turn in the queue comes, if it
then holds a ready canoe tile (not fresh: taken before its own turn began, or under the flag
tiles_ready_next_round before this round began, kbenv.engine.marshlands.powers; and not used since its own last turn
ended: TILES_FRESH / TILES_USED), a settlement in supply and a free swamp or water hex. It decides in
PHASE_REACTION ("canoe" or DONE = "pass"); "canoe" spends one tile and asks for a hex: the union of the free
swamp hexes and the free water hexes, each adjacent to the reactor's settlements if possible on its own (EN
1111, decision 8). A canoe build that empties another location pushes a nested frame (LIFO, each frame with its
own queue). When a frame's queue is done the frame is popped and the interrupted decision goes on exactly.

DECIDER is the reactor during a reaction; CURRENT stays the turn owner. Every path here runs only with
st[EXPANSIONS] & MARSHLANDS (kbenv.engine.actions calls it behind that bit).
"""

from __future__ import annotations

from numba import njit

from ...board.bitset import WORDS, is_empty
from ...board.codes import SWAMP, WATER
from ...catalogue import POWER_CODE, RULE_BIT
from ..board_ops import adjacent_view, build_settlement, free_of, restrict_adjacent_if_possible, terrain_view
from ..frames import pop_frame, push_frame
from ..state import (
    BUILT_THIS_TURN,
    CURRENT,
    DECIDER,
    FRAME_DEPTH,
    LOC_TILES,
    LOC_TYPE,
    MANDATORY_DONE,
    MAX_FRAMES,
    NOMAD_KIND,
    NOMAD_ON_SPACE,
    NOMAD_OWNER,
    NUM_LOCATIONS,
    NUM_NOMADS,
    NUM_PLAYERS,
    OUTPOST_ARMED,
    PHASE,
    PHASE_IDLE,
    PHASE_MANDATORY,
    PHASE_REACTION,
    PHASE_TARGET,
    POWER,
    REACT_QUEUE,
    RULE_FLAGS,
    SOURCE,
    SUPPLY,
    TILES_FRESH,
    TILES_HELD,
    TILES_USED,
    scratch_off,
)
from ..traits import POWER_TIMING, TIMING_REACTION
from .powers import reserve_owed

CANOE_POWER = POWER_CODE["canoe"]
TAKER_REACTS = RULE_BIT["canoe_taker_reacts"]
SCRATCH_PART = scratch_off("hand")  # one terrain's part of the union
SCRATCH_CANOE = scratch_off("tmp")
ADVANCE = -1  # DECIDER of a context whose frame must ask its next seat (saved when a canoe build nests)


@njit(cache=True)
def canoe_targets(st, p: int, out) -> None:
    """out = free swamp hexes | free water hexes, each part next to p's settlements if that leaves any."""
    part = st[SCRATCH_PART : SCRATCH_PART + WORDS]
    adj = adjacent_view(st, p)
    free_of(st, terrain_view(st, SWAMP), out)
    restrict_adjacent_if_possible(out, adj)
    free_of(st, terrain_view(st, WATER), part)
    restrict_adjacent_if_possible(part, adj)
    for i in range(WORDS):
        out[i] |= part[i]


@njit(cache=True)
def ready_canoe(st, p: int) -> int:
    """Index of a location whose canoe tile p may react with now, or -1."""
    ready = st[TILES_HELD + p] & ~st[TILES_FRESH + p] & ~st[TILES_USED + p]
    for i in range(st[NUM_LOCATIONS]):
        if (ready >> i) & 1 and st[LOC_TYPE + i] == CANOE_POWER:
            return i
    return -1


@njit(cache=True, inline="always")
def may_react(st, p: int) -> bool:
    """A ready canoe tile, a settlement in supply and a free swamp or water hex (A-M5)."""
    if st[SUPPLY + p] == 0 or ready_canoe(st, p) < 0:
        return False
    tmp = st[SCRATCH_CANOE : SCRATCH_CANOE + WORDS]
    canoe_targets(st, p, tmp)
    return not is_empty(tmp)


@njit(cache=True)
def tiles_on_board(st) -> int:
    """Bits of the tiles that can still be taken: location i (bit i) with tiles left, nomad space k (bit 8 + k)
    with its tile on it. A bit that clears during a decision is a canoe trigger."""
    bits = 0
    for i in range(st[NUM_LOCATIONS]):
        if st[LOC_TILES + i] > 0:
            bits |= 1 << i
    for k in range(st[NUM_NOMADS]):
        if st[NOMAD_OWNER + k] == NOMAD_ON_SPACE and st[NOMAD_KIND + k] >= 0:
            bits |= 1 << (8 + k)
    return bits


@njit(cache=True, inline="always")
def reacting(st) -> bool:
    """A canoe reaction is being decided (its "canoe"/"pass", or its hex)."""
    if st[FRAME_DEPTH] == 0:
        return False
    return st[PHASE] == PHASE_REACTION or (st[PHASE] == PHASE_TARGET and st[POWER] >= 0
                                           and POWER_TIMING[st[POWER]] == TIMING_REACTION)


@njit(cache=True, inline="always")
def apply_reaction(st, action: int, done: int) -> None:
    """A reactor's decision (legal): "canoe" (spend a tile, choose a hex), DONE ("pass") or the hex."""
    p = st[DECIDER]
    if st[PHASE] == PHASE_REACTION:
        if action == done:
            st[DECIDER] = ADVANCE
            return
        st[TILES_USED + p] |= 1 << ready_canoe(st, p)
        st[POWER] = CANOE_POWER
        st[PHASE] = PHASE_TARGET
        return
    # the canoe build: the turn owner's mandatory-action state and armed Outpost are not the reactor's
    mandatory_done = st[MANDATORY_DONE]
    armed = st[OUTPOST_ARMED]
    build_settlement(st, p, action)
    st[MANDATORY_DONE] = mandatory_done
    st[OUTPOST_ARMED] = armed
    st[BUILT_THIS_TURN] = 1
    st[POWER] = -1
    st[PHASE] = PHASE_REACTION
    st[DECIDER] = ADVANCE


@njit(cache=True, inline="always")
def after_decision(st, before: int, taker: int) -> None:
    """After a decision of `taker` in a Marshlands game: open a frame if it took a last tile, and ask the
    next reactor where one is owed (`before`: tiles_on_board before the decision)."""
    if before & ~tiles_on_board(st) != 0 and st[FRAME_DEPTH] < MAX_FRAMES:
        push_frame(st)
        n = st[NUM_PLAYERS]
        queue = (1 << n) - 1
        if st[RULE_FLAGS] & TAKER_REACTS == 0:
            queue &= ~(1 << taker)
        st[REACT_QUEUE + st[FRAME_DEPTH] - 1] = queue
        st[DECIDER] = ADVANCE
    if st[DECIDER] == ADVANCE:
        next_reactor(st)


@njit(cache=True, inline="always")
def next_reactor(st) -> None:
    """Ask the next seat of the innermost frame that may react; pop exhausted frames (the interrupted
    decision goes on, or its own frame asks its next seat)."""
    while st[FRAME_DEPTH] > 0:
        d = st[FRAME_DEPTH] - 1
        n = st[NUM_PLAYERS]
        active = st[CURRENT]
        for k in range(1, n + 1):
            s = (active + k) % n
            if (st[REACT_QUEUE + d] >> s) & 1:
                st[REACT_QUEUE + d] &= ~(1 << s)
                if may_react(st, s):
                    st[DECIDER] = s
                    st[PHASE] = PHASE_REACTION
                    st[POWER] = -1
                    st[SOURCE] = -1
                    return
        st[REACT_QUEUE + d] = 0
        pop_frame(st)
        if st[DECIDER] != ADVANCE:
            break
    if st[FRAME_DEPTH] == 0:
        resumed(st)


@njit(cache=True, inline="always")
def resumed(st) -> None:
    """Back in the turn owner's decision: a mandatory action with nothing left to build (supply and the
    reserve owed, A-M6) counts as done."""
    phase = st[PHASE]
    if (phase == PHASE_IDLE or phase == PHASE_MANDATORY) and st[SUPPLY + st[CURRENT]] == 0 and reserve_owed(st) == 0:
        st[MANDATORY_DONE] = 1
        st[PHASE] = PHASE_IDLE
