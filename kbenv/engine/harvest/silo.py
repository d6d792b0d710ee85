"""Harvest's silo end phase (H-5, A-H2): after the last turn of the game and before the final scoring.

EN 1279-1285: "At the end of the game, but before final scoring takes place, a player may either build up to
three settlements or move up to three of their existing settlements for each silo that is adjacent to one or
more of their settlements." The phase (PHASE_SILO, decided by the silo player, DECIDER):

* Order (A-H2): (a, default) each player in turn order from the start player does all their silos, the silos
  adjacent to their settlements (own pieces included) when their silo turn starts (the eligibility stays fixed
  while they build and move); (b, rule flag `silo_by_silo`) silo by silo (ascending hex ids), and for each silo
  the players in turn order, each one's eligibility checked when their turn at that silo starts. Silos of a
  player are done in ascending hex order.
* At each silo the player chooses OPTION_1 "build" (offered while the supply is not empty), OPTION_2 "move"
  (offered while they have a plain settlement) or DONE (pass). No mixing: the mode holds for that silo; the
  next silo chooses again.
* Build: a settlement from the supply on a free buildable hex (farmland included) touching their own (no
  fallback); up to 3, DONE after the first; the silo closes by itself after the third, when the supply is
  empty or when no hex is left (also at once when "build" finds no hex).
* Move: a plain settlement (one next to the silo too) to a free buildable hex touching their own with it
  lifted (never its own hex); a source is offered only with a target; up to 3 moves, DONE between them; the
  silo closes by itself after the third or when no settlement can move.
* Tiles next to a silo build or move are seized (they cannot be used: the game is over). Red cards (Nomads)
  are not scored for silo builds (A-X3) and no turn ends, so nothing is banked at a turn's end (Rovers, A-H8).
  The end trigger (ENDING) no longer matters.

A game in which no player touches a silo has no silo phase. Generic engine code reaches this module only
through kbenv.engine.harvest.hooks.
"""

from __future__ import annotations

from numba import njit

from ...board.bitset import BITS_PER_WORD, WORDS, add, clear, dilate_into, has, is_empty, remove, word_lowest_bit
from ...board.codes import SILO
from ...catalogue import EXPANSION_BIT, RULE_BIT
from ..board_ops import (
    adjacent_view,
    harvest_after_placing,
    move_settlement,
    own_view,
    place_from_supply,
    settlements_word,
    terrain_view,
)
from ..nomads.hooks import claim_nomads
from ..state import (
    BUILDABLE_MASK,
    CURRENT,
    DECIDER,
    DECISIONS,
    EXPANSIONS,
    NUM_PLAYERS,
    OCCUPIED,
    PHASE,
    PHASE_OVER,
    PHASE_SILO,
    POWER,
    RULE_FLAGS,
    SILO_AT,
    SILO_LEFT,
    SILO_MODE,
    SILO_SEAT,
    SILO_STEPS,
    SOURCE,
    START_PLAYER,
    SUPPLY,
    scratch_off,
)

MODE_CHOOSE, MODE_BUILD, MODE_MOVE = 0, 1, 2
SILO_STEPS_MAX = 3  # EN 1279 "up to three" builds or moves per silo (A-H2: moves up to 3 too)
OPTION_BUILD, OPTION_MOVE = 1, 2  # bits of `silo_options`: OPTION_1 "build", OPTION_2 "move"
SILO_BY_SILO = RULE_BIT["silo_by_silo"]
SCRATCH_TMP = scratch_off("tmp")  # a source's targets inside silo_move_sources
SCRATCH_LEGAL = scratch_off("legal")  # what is left to do after a decision (apply_silo_decision)
SCRATCH_LIFTED = scratch_off("lifted")
EXP_NOMADS = EXPANSION_BIT["nomads"]


# ----- targets -----------------------------------------------------------------------------------------------
@njit(cache=True)
def silo_build_targets(st, p: int, out) -> None:
    """Free buildable hexes touching p's own (no fallback)."""
    adj = adjacent_view(st, p)
    for i in range(WORDS):
        out[i] = adj[i] & st[BUILDABLE_MASK + i] & ~st[OCCUPIED + i]


@njit(cache=True)
def silo_move_targets(st, p: int, src: int, out) -> None:
    """Free buildable hexes touching p's own with the settlement on src lifted (src itself is occupied)."""
    lifted = st[SCRATCH_LIFTED : SCRATCH_LIFTED + WORDS]
    own = own_view(st, p)
    remove(own, src)
    dilate_into(lifted, own)
    add(own, src)
    for i in range(WORDS):
        out[i] = lifted[i] & st[BUILDABLE_MASK + i] & ~st[OCCUPIED + i]


@njit(cache=True)
def silo_move_sources(st, p: int, out) -> None:
    """p's plain settlements that have a move target."""
    tmp = st[SCRATCH_TMP : SCRATCH_TMP + WORDS]
    for i in range(WORDS):
        out[i] = settlements_word(st, p, i)
        w = out[i]
        while w != 0:
            bit = w & -w
            w &= w - 1
            silo_move_targets(st, p, i * BITS_PER_WORD + word_lowest_bit(bit), tmp)
            if is_empty(tmp):
                out[i] &= ~bit


@njit(cache=True, inline="always")
def has_plain_settlement(st, p: int) -> bool:
    for i in range(WORDS):
        if settlements_word(st, p, i) != 0:
            return True
    return False


# ----- legal decisions (kbenv.engine.legal through harvest_hooks) --------------------------------------------
@njit(cache=True, inline="always")
def silo_hexes(st, out) -> None:
    """The hexes legal now: build targets, move sources, or the chosen source's targets."""
    p = st[DECIDER]
    mode = st[SILO_MODE]
    if mode == MODE_BUILD:
        silo_build_targets(st, p, out)
    elif mode == MODE_MOVE and st[SOURCE] < 0:
        silo_move_sources(st, p, out)
    elif mode == MODE_MOVE:
        silo_move_targets(st, p, st[SOURCE], out)
    else:
        clear(out)


@njit(cache=True, inline="always")
def silo_options(st) -> int:
    """OPTION_BUILD | OPTION_MOVE bits legal now: only at the mode choice; "build" needs the supply (A-H2),
    "move" a plain settlement."""
    if st[SILO_MODE] != MODE_CHOOSE:
        return 0
    p = st[DECIDER]
    bits = 0
    if st[SUPPLY + p] > 0:
        bits |= OPTION_BUILD
    if has_plain_settlement(st, p):
        bits |= OPTION_MOVE
    return bits


@njit(cache=True, inline="always")
def silo_done_legal(st) -> bool:
    """DONE passes a silo at the mode choice, and stops it after its first build or move (not between a
    move's source and target)."""
    return st[SILO_MODE] == MODE_CHOOSE or (st[SILO_STEPS] > 0 and st[SOURCE] < 0)


# ----- the flow ----------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def begin_silo_phase(st) -> None:
    """At the end of the game (PHASE_OVER just set): open the silo phase at its first silo, if any."""
    silos = terrain_view(st, SILO)
    if is_empty(silos):
        return
    left = st[SILO_LEFT : SILO_LEFT + WORDS]
    if st[RULE_FLAGS] & SILO_BY_SILO:
        for i in range(WORDS):
            left[i] = silos[i]
        st[SILO_AT] = 0
        st[SILO_SEAT] = -1
    else:
        eligible_silos(st, st[START_PLAYER], left)
        st[SILO_SEAT] = 0
    next_silo(st)


@njit(cache=True)
def eligible_silos(st, p: int, out) -> None:
    """The silos adjacent to one or more of p's pieces on the board (A-H2: checked as p's silo turn starts)."""
    silos = terrain_view(st, SILO)
    adj = adjacent_view(st, p)
    for i in range(WORDS):
        out[i] = silos[i] & adj[i]


@njit(cache=True)
def first_hex(m) -> int:
    for i in range(WORDS):
        if m[i] != 0:
            return i * BITS_PER_WORD + word_lowest_bit(m[i])
    return -1


@njit(cache=True)
def next_silo(st) -> None:
    """Open the next (player, silo) decision of the phase, or end the game when none is left."""
    n = st[NUM_PLAYERS]
    left = st[SILO_LEFT : SILO_LEFT + WORDS]
    if st[RULE_FLAGS] & SILO_BY_SILO:  # (b): each silo in turn, its players in turn order
        s = st[SILO_AT] - 1
        k = st[SILO_SEAT]
        while True:
            k += 1
            if s < 0 or k >= n:
                s = first_hex(left)
                if s < 0:
                    game_over(st)
                    return
                remove(left, s)
                st[SILO_AT] = s + 1
                k = 0
            st[SILO_SEAT] = k
            p = (st[START_PLAYER] + k) % n
            if has(adjacent_view(st, p), s):
                open_silo(st, p, s)
                return
    # (a): each player in turn order does all the silos eligible when their silo turn starts
    k = st[SILO_SEAT]
    while True:
        s = first_hex(left)
        if s >= 0:
            remove(left, s)
            open_silo(st, (st[START_PLAYER] + k) % n, s)
            return
        k += 1
        if k >= n:
            game_over(st)
            return
        st[SILO_SEAT] = k
        eligible_silos(st, (st[START_PLAYER] + k) % n, left)


@njit(cache=True)
def open_silo(st, p: int, s: int) -> None:
    st[PHASE] = PHASE_SILO
    st[DECIDER] = p
    st[SILO_AT] = s + 1
    st[SILO_MODE] = MODE_CHOOSE
    st[SILO_STEPS] = 0
    st[SOURCE] = -1


@njit(cache=True)
def game_over(st) -> None:
    """The silo phase is over: the game is (the silo fields go back to zero, the turn owner decides nothing)."""
    st[PHASE] = PHASE_OVER
    st[DECIDER] = st[CURRENT]
    st[POWER] = -1
    st[SOURCE] = -1
    st[SILO_SEAT] = 0
    st[SILO_AT] = 0
    st[SILO_MODE] = 0
    st[SILO_STEPS] = 0
    clear(st[SILO_LEFT : SILO_LEFT + WORDS])


@njit(cache=True, inline="always")
def silo_build(st, p: int, h: int) -> None:
    """A settlement from the supply on h: tiles and nomad tiles are seized, Mayors may mark its row (H-15: "a
    player builds"), but red cards do not score it (A-X3) and no Outpost is spent."""
    place_from_supply(st, p, h)
    if st[EXPANSIONS] & EXP_NOMADS:
        claim_nomads(st, p, h)
    harvest_after_placing(st, p, h)


@njit(cache=True, inline="always")
def apply_silo_decision(st, option_1: int, option_2: int, done: int, action: int) -> None:
    """Apply a legal decision of the silo phase (action ids of OPTION_1, OPTION_2 and DONE given)."""
    st[DECISIONS] += 1
    p = st[DECIDER]
    tmp = st[SCRATCH_LEGAL : SCRATCH_LEGAL + WORDS]
    if action == done:
        next_silo(st)
    elif action == option_1:
        st[SILO_MODE] = MODE_BUILD
        silo_build_targets(st, p, tmp)
        if is_empty(tmp):
            next_silo(st)  # nothing to build: the silo closes by itself
    elif action == option_2:
        st[SILO_MODE] = MODE_MOVE
        silo_move_sources(st, p, tmp)
        if is_empty(tmp):
            next_silo(st)  # no settlement can move: the silo closes by itself
    elif st[SILO_MODE] == MODE_BUILD:
        silo_build(st, p, action)
        st[SILO_STEPS] += 1
        silo_build_targets(st, p, tmp)
        if st[SILO_STEPS] >= SILO_STEPS_MAX or st[SUPPLY + p] == 0 or is_empty(tmp):
            next_silo(st)
    elif st[SOURCE] < 0:
        st[SOURCE] = action
    else:
        move_settlement(st, p, st[SOURCE], action)
        st[SOURCE] = -1
        st[SILO_STEPS] += 1
        silo_move_sources(st, p, tmp)
        if st[SILO_STEPS] >= SILO_STEPS_MAX or is_empty(tmp):
            next_silo(st)
