"""What the player to move may decide now: legal hexes, powers and END_TURN."""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import catalogue as CAT
from ..board.bitset import BITS_PER_WORD, WORDS, clear, has, is_empty, word_lowest_bit
from ..board.codes import NUM_POWERS
from ..board.geometry import NUM_CELLS, NUM_HEXES
from .board_ops import free_of, settlements_word, terrain_view
from .borrow import borrowed
from .dispatch import facts, flow
from .dispatch.powers import (
    REPEATABLE,
    REPEATER_BITS,
    RULE_FARMLAND,
    begin_relocation,
    bonus_usable,
    choosing_terrain,
    crossroads_tiles,
    farm_action_open,
    hand_build_targets,
    hand_terrain,
    option_pending,
    options_legal,
    phase_done_legal,
    phase_hexes,
    places_own_piece,
    relocation_open,
    repeats_used_only,
    return_open,
    take_open,
    usable_nomad,
)
from .powers import (
    base_has_completion,
    builds_settlement,
    power_has_completion,
    power_targets,
    source_has_target,
    terrain_build_targets,
)
from .state import (
    CAVE_USED,
    DECIDER,
    EXPANSIONS,
    HAND,
    LOC_TYPE,
    MANDATORY_DONE,
    MAX_EXTRA_CARDS,
    NUM_LOCATIONS,
    OUTPOST_ARMED,
    PHASE,
    PHASE_CHOOSE_POWER,
    PHASE_IDLE,
    PHASE_MANDATORY,
    PHASE_REACTION,
    PHASE_SILO,
    PHASE_SOURCE,
    PHASE_STEP,
    PHASE_TARGET,
    POWER,
    REPEAT_CARDS,
    SOURCE,
    STEPS_TAKEN,
    SUPPLY,
    TILES_FRESH,
    TILES_HELD,
    TILES_USED,
    scratch_off,
)
from .traits import (
    ARM_POWER,
    BONUS_TYPE,
    POWER_ANY_SOURCE,
    POWER_EXPANSION_BIT,
    POWER_RULE,
    POWER_SOURCE,
    POWER_STOP_EARLY,
    POWER_TARGET,
    POWER_TIMING,
    TARGET_ARM,
    TIMING_BONUS_TILE,
    TIMING_NOMAD_TILE,
    TIMING_ONCE_A_TURN,
    TIMING_REACTION,
    TIMING_TILE,
)

TILE_ACTION_BASE = NUM_HEXES
END_TURN = NUM_HEXES + NUM_POWERS
ACTION_SIZE = END_TURN + 1  # the v0 layout (base game); v1 (expansions) extends it: kbenv.catalogue
ACTION_SIZE_V1 = CAT.ACTION_SIZE_V1
DONE = CAT.DONE
NUM_POWER_CODES = CAT.NUM_POWER_CODES
POWER_ACTION = np.array(CAT.POWER_ACTIONS, dtype=np.int64)  # action id of each power code
ACTION_POWER = np.full(ACTION_SIZE_V1 - NUM_HEXES, -1, dtype=np.int64)  # power code of action 400 + k
for _code, _action in enumerate(CAT.POWER_ACTIONS):
    if _action >= 0:  # the Crossroads tile is passive: no action
        ACTION_POWER[_action - NUM_HEXES] = _code
assert END_TURN == CAT.END_TURN and ACTION_SIZE == CAT.ACTION_SIZE_V0

CAVE_POWER = CAT.CAVE_POWER
EXP_MARSHLANDS = CAT.EXPANSION_BIT["marshlands"]
EXP_HARVEST = CAT.HARVEST
EXP_CROSSROADS = CAT.CROSSROADS
CROSSROADS_POWER = CAT.POWER_CODE["crossroads"]  # the location type code of the Crossroads tile (passive)
OPTION_1 = CAT.ACTION_ID["option-1"]  # phase-dependent choices (silo: build / move; number tiles: take / return)
assert CAT.ACTION_ID["option-2"] == OPTION_1 + 1 and OPTION_1 + 2 == DONE
REACTION_POWER = CAT.REACTION_POWER
FIRST_NOMAD_POWER = CAT.FIRST_NOMAD_POWER
NUM_NOMAD_USABLE = len(CAT.NOMAD_USABLE_KINDS)

ISLAND_ACTION_BASE = CAT.ISLAND_ACTION_BASE  # action of island hex NUM_HEXES + k (kbenv.catalogue)
NUM_ISLAND_HEXES = NUM_CELLS - NUM_HEXES
ISLAND_SHIFT = NUM_HEXES - (WORDS - 1) * BITS_PER_WORD  # bit of hex 400 in the last word (40)
BOARD_LAST_WORD = (1 << ISLAND_SHIFT) - 1  # the board's bits of the last word
assert NUM_CELLS == WORDS * BITS_PER_WORD, "the island fills the last word"

SCRATCH_LEGAL = scratch_off("legal")  # legal hexes of the current decision
SCRATCH_TMP = scratch_off("tmp")


@njit(cache=True)
def is_move_power(power: int) -> bool:
    """Powers that move a settlement: choose the source first (the `source` trait)."""
    return POWER_SOURCE[power]


@njit(cache=True)
def usable_tile(st, p: int, power: int) -> int:
    """Index of a location whose tile of this power p may use now (held before this turn, unused), or -1."""
    ready = st[TILES_HELD + p] & ~st[TILES_FRESH + p] & ~st[TILES_USED + p]
    for i in range(st[NUM_LOCATIONS]):
        if (ready >> i) & 1 and st[LOC_TYPE + i] == power:
            return i
    if st[EXPANSIONS] != 0:
        return flow.usable_off_board_tile(st, ready, power)  # e.g. the island's location
    return -1


@njit(cache=True, inline="always")
def ready_types(st, p: int) -> int:
    """Bit t set = p holds a tile of location type t usable now (held before this turn, unused)."""
    return tile_types(st, st[TILES_HELD + p] & ~st[TILES_FRESH + p] & ~st[TILES_USED + p])


@njit(cache=True)
def tile_types(st, tiles: int) -> int:
    """Bit t set = one of the location tiles of `tiles` (bit i: location hex i) is of type t."""
    bits = 0
    if st[EXPANSIONS] != 0:  # tiles of no LOC_* slot (the island's)
        bits, tiles = flow.off_board_tile_types(st, tiles)
    i = 0
    while tiles != 0:
        if tiles & 1:
            bits |= 1 << st[LOC_TYPE + i]
        tiles >>= 1
        i += 1
    return bits


@njit(cache=True)
def legal_powers(st) -> int:
    """Bit k set = activating power code k is legal now (codes: kbenv.catalogue.POWER_NAMES)."""
    st = borrowed(st)
    if st[PHASE] != PHASE_IDLE:
        if st[EXPANSIONS] == 0:
            return 0  # the base game: powers are activated in the idle phase only
        if st[PHASE] == PHASE_REACTION:
            return 1 << REACTION_POWER  # a reaction: its power or DONE ("pass"), kbenv.engine.marshlands.hooks
        if st[PHASE] == PHASE_CHOOSE_POWER:  # Harvest: the power a repeat runs once more (A-H3)
            return repeat_choices(st, st[DECIDER], st[SCRATCH_TMP : SCRATCH_TMP + WORDS])
        return outpost_bit(st) if facts.power_in_play(st, ARM_POWER) else 0
    p = st[DECIDER]
    ready = ready_types(st, p)
    if ready == 0 and st[EXPANSIONS] == 0:
        return 0  # the base game without a tile ready (the most frequent case)
    tmp = st[SCRATCH_TMP : SCRATCH_TMP + WORDS]
    bits = 0
    if ready != 0:  # the base game's powers: location tiles of base rules (the hot path)
        for power in range(NUM_POWERS):
            if (ready >> power) & 1 and base_has_completion(st, p, power, tmp):
                bits |= 1 << power
    if st[EXPANSIONS] != 0:
        bits |= expansion_powers(st, p, tmp, ready)
    return bits


def _expansion_code_masks() -> tuple[np.ndarray, np.ndarray]:
    """Per expansion bit b: the power codes from NUM_POWERS on that need it (0: those that need none, which
    are always candidates), split into tile-timed codes (usable when p's ready tiles have their bit) and
    the codes of the other timings usable_now knows; a code of another timing (passive, reaction) is never
    activated in the idle phase."""
    tile = np.zeros(len(CAT.EXPANSIONS) + 1, dtype=np.int64)
    other = np.zeros(len(CAT.EXPANSIONS) + 1, dtype=np.int64)
    for power in range(NUM_POWERS, NUM_POWER_CODES):
        need = int(POWER_EXPANSION_BIT[power])
        row = 0 if need == 0 else need.bit_length()
        if POWER_TIMING[power] == TIMING_TILE:
            tile[row] |= 1 << power
        elif POWER_TIMING[power] in (TIMING_NOMAD_TILE, TIMING_ONCE_A_TURN, TIMING_BONUS_TILE):
            other[row] |= 1 << power
    return tile, other


EXPANSION_TILE_CODES, EXPANSION_OTHER_CODES = _expansion_code_masks()


@njit(cache=True, inline="always")
def expansion_powers(st, p: int, tmp, ready: int) -> int:
    """The power codes from NUM_POWERS on that p may activate now (idle phase), by their timing trait;
    `ready`: ready_types(st, p). Only the codes of the game's expansions that may be usable are checked
    (EXPANSION_TILE_CODES, EXPANSION_OTHER_CODES), in ascending order."""
    candidates = (EXPANSION_TILE_CODES[0] & ready) | EXPANSION_OTHER_CODES[0]
    expansions = st[EXPANSIONS]
    row = 1
    while expansions != 0:
        if expansions & 1:
            candidates |= (EXPANSION_TILE_CODES[row] & ready) | EXPANSION_OTHER_CODES[row]
        expansions >>= 1
        row += 1
    bits = 0
    while candidates != 0:
        power = word_lowest_bit(candidates)
        candidates &= candidates - 1
        if usable_now(st, p, power, ready) and power_has_completion(st, p, power, tmp):
            bits |= 1 << power
    if bits & REPEATER_BITS and repeat_choices(st, p, tmp) == 0 and not repeat_card_open(st, p):
        bits &= ~REPEATER_BITS  # a repeat with no power to run once more has no completion (A-H3)
    return bits


@njit(cache=True)
def repeat_card_open(st, p: int) -> bool:
    """A repeat (Harvest, A-H3) may run the Crossroads tile's extra action once more: p holds a Crossroads tile
    taken before this turn (with the flag of A-H3 b never: that extra action is passive, carried out at the end
    of the turn, so it is not used yet), and the cards p will draw at the end of the turn (one per Crossroads
    tile, one per repeat so far, C-7, A-C8) leave room for one more in the hand (MAX_EXTRA_CARDS)."""
    if not flow.tile_action_repeatable(st):
        return False
    ready = st[TILES_HELD + p] & ~st[TILES_FRESH + p]
    if (tile_types(st, ready) >> CROSSROADS_POWER) & 1 == 0:
        return False
    return crossroads_tiles(st, p) + st[REPEAT_CARDS] < MAX_EXTRA_CARDS


@njit(cache=True)
def repeat_choices(st, p: int, tmp) -> int:
    """Bit k set = a repeat power (Harvest, REPEATER_BITS) may run power k once more now (A-H3 a): a location
    power of a tile p holds and may use (not taken this turn), used or not (with the flag of A-H3 b: used this
    turn), of the REPEATABLE kinds, with a completion. Its own tile is not used by the repeat. The powers
    that place pieces of their own (scouts, a city hall) run only to relocate them (EN 1305-1307): their completion
    is tried on a copy."""
    held = st[TILES_HELD + p] & ~st[TILES_FRESH + p]
    if repeats_used_only(st):
        held &= st[TILES_USED + p]
    types = tile_types(st, held)
    bits = 0
    while types != 0:
        power = word_lowest_bit(types)
        types &= types - 1
        if not REPEATABLE[power]:
            continue
        if places_own_piece(power):
            if relocation_open(st, p, power) and relocation_has_completion(st, p, power):
                bits |= 1 << power
        elif power_has_completion(st, p, power, tmp):
            bits |= 1 << power
    return bits


@njit(cache=True)
def relocation_has_completion(st, p: int, power: int) -> bool:
    """The relocation of a repeat (harvest_hooks.begin_relocation) finds a place, tried on a copy of the game."""
    trial = st.copy()
    begin_relocation(trial, p, power)
    trial[POWER] = power
    trial[PHASE] = PHASE_TARGET
    return power_has_completion(trial, p, power, trial[SCRATCH_TMP : SCRATCH_TMP + WORDS])


@njit(cache=True, inline="always")
def usable_now(st, p: int, power: int, ready: int) -> bool:
    """The timing trait: a location tile held before this turn and unused; a nomad tile claimed in the
    previous round (N-6; an Outpost not armed yet); the once-a-turn cave move not taken yet."""
    timing = POWER_TIMING[power]
    if timing == TIMING_TILE:
        return ((ready >> power) & 1) != 0
    if timing == TIMING_NOMAD_TILE:
        return usable_nomad(st, p, power - FIRST_NOMAD_POWER) >= 0 and (
            POWER_TARGET[power] != TARGET_ARM or st[OUTPOST_ARMED] == 0)
    if timing == TIMING_ONCE_A_TURN:  # the cave move, or the Harvest farm action (A-H1)
        return farm_action_open(st, p) if POWER_RULE[power] == RULE_FARMLAND else st[CAVE_USED] == 0
    if timing == TIMING_BONUS_TILE:
        return bonus_usable(st, p, BONUS_TYPE[power])
    return False


@njit(cache=True, inline="always")
def outpost_bit(st) -> int:
    """The Outpost may also be armed between mandatory builds and inside a building power (N-10)."""
    phase = st[PHASE]
    p = st[DECIDER]
    if st[OUTPOST_ARMED] != 0 or usable_nomad(st, p, ARM_POWER - FIRST_NOMAD_POWER) < 0:
        return 0
    if phase == PHASE_MANDATORY or ((phase == PHASE_TARGET or phase == PHASE_STEP) and builds_settlement(st[POWER])
                                    and POWER_TIMING[st[POWER]] != TIMING_REACTION):  # not a reaction
        return 1 << ARM_POWER
    return 0


@njit(cache=True)
def done_legal(st) -> bool:
    """DONE ends a power that may stop early (the `stop_early` trait) after its first hex: in the step
    phase (a second Quarry wall, a wagon's or ship's next space), or, for a move power, when the next
    source is to be chosen (Resettlement); in a reaction DONE passes."""
    st = borrowed(st)
    if st[PHASE] == PHASE_REACTION:
        return True
    if st[PHASE] == PHASE_SILO:
        return phase_done_legal(st)  # pass a silo, or stop it after a step (kbenv.engine.harvest.silo)
    power = st[POWER]
    if power < 0 or not POWER_STOP_EARLY[power]:
        return False
    if st[PHASE] == PHASE_STEP:
        return True
    return st[PHASE] == PHASE_SOURCE and st[STEPS_TAKEN] > 0


@njit(cache=True)
def legal_hexes(st, out) -> None:
    """out = the hexes that are legal decisions now."""
    st = borrowed(st)
    out = borrowed(out)
    p = st[DECIDER]
    phase = st[PHASE]
    if (phase == PHASE_IDLE and st[MANDATORY_DONE] == 0) or phase == PHASE_MANDATORY:
        if st[EXPANSIONS] == 0:
            terrain_build_targets(st, p, st[HAND + p], out)
        else:
            expansion_mandatory_hexes(st, p, out)
    elif phase == PHASE_TARGET or phase == PHASE_STEP:
        if st[EXPANSIONS] != 0 and flow.option_pending(st):
            clear(out)  # a choice of option-1 / option-2 comes first
        else:
            power_targets(st, p, st[POWER], st[SOURCE], out)
    elif phase == PHASE_SOURCE:
        for i in range(WORDS):
            out[i] = settlements_word(st, p, i)  # move powers move plain settlements (A-X1 a)
        power = st[POWER]
        if not POWER_ANY_SOURCE[power]:
            tmp = st[SCRATCH_TMP : SCRATCH_TMP + WORDS]
            for i in range(WORDS):
                w = out[i]
                while w != 0:
                    bit = w & -w
                    w &= w - 1
                    if not source_has_target(st, p, power, i * BITS_PER_WORD + word_lowest_bit(bit), tmp):
                        out[i] &= ~bit
    elif phase == PHASE_SILO:
        phase_hexes(st, out)  # Harvest's silo end phase (kbenv.engine.harvest.hooks)
    else:
        clear(out)


@njit(cache=True, inline="always")
def expansion_mandatory_hexes(st, p: int, out) -> None:
    """The mandatory action's hexes with expansions: an open hand (several Crossroads cards, a swamp card,
    A-C8, A-M2) offers each option's hexes; a Marshlands bonus may let the first build ignore adjacency (M-13, A-M7)."""
    waived = flow.adjacency_waived(st, p)
    if choosing_terrain(st, p):
        hand_build_targets(st, p, waived, out)
        return
    terrain = hand_terrain(st, p)
    if waived and terrain >= 0:
        free_of(st, terrain_view(st, terrain), out)
    else:
        terrain_build_targets(st, p, terrain, out)


@njit(cache=True)
def option_bits(st) -> int:
    """Bit k set = option-(k+1) is legal now (a Harvest choice: the silo's build / move, HA10, or the number
    tiles' take / return, HA8)."""
    st = borrowed(st)
    if not facts.has_options(st):
        return 0
    if st[PHASE] == PHASE_SILO:
        return options_legal(st)  # kbenv.engine.harvest.silo
    if st[PHASE] == PHASE_CHOOSE_POWER:  # a repeat of the Crossroads tile's extra action (A-H3, A-C8)
        return 1 if repeat_card_open(st, st[DECIDER]) else 0
    if not option_pending(st):
        return 0
    p = st[DECIDER]
    bits = 1 if take_open(st, p) else 0
    if return_open(st, p) and st[SUPPLY + p] > 0:
        tmp = st[SCRATCH_TMP : SCRATCH_TMP + WORDS]
        power_targets(st, p, st[POWER], st[SOURCE], tmp)
        if not is_empty(tmp):
            bits |= 2
    return bits


@njit(cache=True)
def end_turn_legal(st) -> bool:
    st = borrowed(st)
    return st[PHASE] == PHASE_IDLE and st[MANDATORY_DONE] == 1


@njit(cache=True, inline="always")
def only_end_turn_legal(st) -> bool:
    """True when END_TURN is the one legal decision (the engine then takes it by itself)."""
    return end_turn_legal(st) and legal_powers(st) == 0


@njit(cache=True)
def legal_mask_into(st, mask) -> None:
    """Fill an int8 array with 1 for each legal action: ACTION_SIZE (v0) or ACTION_SIZE_V1 entries."""
    st = borrowed(st)
    mask = borrowed(mask)
    out = st[SCRATCH_LEGAL : SCRATCH_LEGAL + WORDS]
    legal_hexes(st, out)
    for h in range(NUM_HEXES):
        mask[h] = 1 if has(out, h) else 0
    mask[NUM_HEXES:] = 0
    bits = legal_powers(st)
    for k in range(NUM_POWER_CODES):
        if (bits >> k) & 1 and 0 <= POWER_ACTION[k] < len(mask):
            mask[POWER_ACTION[k]] = 1
    mask[END_TURN] = 1 if end_turn_legal(st) else 0
    if len(mask) > DONE and st[EXPANSIONS] != 0:
        if done_legal(st):
            mask[DONE] = 1
        options = option_bits(st)
        for k in range(2):
            mask[OPTION_1 + k] = (options >> k) & 1
        if len(mask) > ISLAND_ACTION_BASE and facts.has_off_board_hexes(st):
            for k in range(NUM_ISLAND_HEXES):  # the island's hexes have action ids of their own
                mask[ISLAND_ACTION_BASE + k] = 1 if has(out, NUM_HEXES + k) else 0


@njit(cache=True)
def is_legal(st, action: int) -> bool:
    st = borrowed(st)
    if action < 0 or action >= ACTION_SIZE_V1:
        return False
    if action < NUM_HEXES:
        out = st[SCRATCH_LEGAL : SCRATCH_LEGAL + WORDS]
        legal_hexes(st, out)
        return has(out, action)
    if action >= ISLAND_ACTION_BASE:  # an island hex (none in games without the island)
        if not facts.has_off_board_hexes(st):
            return False
        out = st[SCRATCH_LEGAL : SCRATCH_LEGAL + WORDS]
        legal_hexes(st, out)
        return has(out, action - ISLAND_ACTION_BASE + NUM_HEXES)
    if action == END_TURN:
        return end_turn_legal(st)
    if action == DONE:
        return st[EXPANSIONS] != 0 and done_legal(st)
    if action == OPTION_1 or action == OPTION_1 + 1:
        return (option_bits(st) >> (action - OPTION_1)) & 1 == 1
    code = ACTION_POWER[action - NUM_HEXES]
    if code < 0:
        return False
    return (legal_powers(st) >> code) & 1 == 1


@njit(cache=True)
def legal_action_list(st, out) -> int:
    """Write the legal actions into out (length ACTION_SIZE_V1) in ascending order; return how many."""
    st = borrowed(st)
    out = borrowed(out)
    hexes = st[SCRATCH_LEGAL : SCRATCH_LEGAL + WORDS]
    legal_hexes(st, hexes)
    n = 0
    for i in range(WORDS - 1):
        w = hexes[i]
        while w != 0:
            out[n] = i * BITS_PER_WORD + word_lowest_bit(w)
            w &= w - 1
            n += 1
    w = hexes[WORDS - 1] & BOARD_LAST_WORD  # the island's bits are hexes with action ids of their own
    while w != 0:
        out[n] = (WORDS - 1) * BITS_PER_WORD + word_lowest_bit(w)
        w &= w - 1
        n += 1
    bits = legal_powers(st)
    for k in range(NUM_POWERS):
        if (bits >> k) & 1:
            out[n] = TILE_ACTION_BASE + k
            n += 1
    if end_turn_legal(st):
        out[n] = END_TURN
        n += 1
    if st[EXPANSIONS] != 0:  # the v1 ids above END_TURN, ascending
        for k in range(NUM_POWERS, NUM_POWER_CODES):
            if (bits >> k) & 1:
                out[n] = POWER_ACTION[k]
                n += 1
        options = option_bits(st)
        for k in range(2):
            if (options >> k) & 1:
                out[n] = OPTION_1 + k
                n += 1
        if done_legal(st):
            out[n] = DONE
            n += 1
        if facts.has_off_board_hexes(st):  # island hexes last: their ids follow every other v1 id
            w = hexes[WORDS - 1] >> ISLAND_SHIFT
            while w != 0:
                out[n] = ISLAND_ACTION_BASE + word_lowest_bit(w)
                w &= w - 1
                n += 1
    return n
