"""Harvest hooks: the one place where generic engine code (the power dispatcher, legal moves, actions, turns)
reaches the Harvest rules, so that generic modules name Harvest and not each power (as kbenv.engine.marshlands.hooks
does for Marshlands).

The rule dispatch hands over only the rule codes that Harvest powers alone use (OWN_RULE); the turn hooks are
called behind `st[EXPANSIONS] & HARVEST`, so games without Harvest never run them. The kernels live in
kbenv.engine.harvest.builds (the farm action and the Water mill, Mountain station, Watchtower and University),
kbenv.engine.harvest.powers (the Palisade, the Cathedral's number tiles and the Scout cabin's scouts),
kbenv.engine.harvest.scoring (the six cards: Rovers gold banked here at the end of a turn, Mayors marks from
kbenv.engine.board_ops) and kbenv.engine.harvest.silo (the silo end phase, H-5, A-H2). The Bazaar has its rule code here
and its choice of power in kbenv.engine.legal.repeat_choices (REPEATABLE, REPEATER_BITS); the Crossroads tile's
passive extra action (one more card, C-7) is the Bazaar's option-1 (kbenv.engine.legal.repeat_card_open,
choose_option here, REPEAT_CARDS drawn by kbenv.engine.crossroads.rules.draw_extra_cards).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ... import catalogue as CAT
from ...board.bitset import WORDS, clear, is_empty, popcount
from ..board_ops import terrain_build_targets
from ..state import (
    CITY_HALL_AT,
    CURRENT,
    FARMLAND_USED,
    NUMBER_TILE_MODE,
    NUMBER_TILES,
    PHASE,
    PHASE_CHOOSE_POWER,
    PHASE_SILO,
    PHASE_TARGET,
    POWER,
    REPEAT_CARDS,
    RULE_FLAGS,
    SCOUTS,
    STEPS_LEFT,
)
from ..traits import POWER_RULE, POWER_TARGET, POWER_TIMING, RULE_CODE, TARGET_PASSIVE, TIMING_TILE
from .builds import (
    farmland_targets,
    next_to_other_player_targets,
    next_to_special_targets,
    next_to_terrain_targets,
)
from .powers import (
    choose_number_tiles,
    number_tile_left,
    palisade_targets,
    place_scout,
    remove_scouts,
    returned_one,
    returning,
    scout_targets,
)
from .scoring import bank_rovers, rovers_built
from .silo import apply_silo_decision, begin_silo_phase, silo_done_legal, silo_hexes, silo_options

RULE_NEXT_TO_TERRAIN = RULE_CODE["next to terrain"]
RULE_NEXT_TO_OTHER = RULE_CODE["next to another player"]
RULE_NEXT_TO_SPECIAL = RULE_CODE["next to a special hex"]
RULE_FARMLAND = RULE_CODE["farmland"]
DONE = CAT.DONE
RULE_PALISADE = RULE_CODE["palisade"]
RULE_CATHEDRAL = RULE_CODE["cathedral"]
RULE_SCOUT = RULE_CODE["scout"]
RULE_BAZAAR = RULE_CODE["bazaar"]
USED_POWER_ONLY = CAT.RULE_BIT["bazaar_repeats_used_power_only"]  # A-H3 (b)
# The powers a Bazaar may run once more (A-H3): location powers of tiles, not the Bazaar itself, not passive
# ones; never the farm action, nomad or bonus tiles. A repeat gives no new scouts, warriors, wagons, ships or city
# halls, "however, these may be relocated during the turn by repeating that extra action" (EN 1305-1307, DE 1487):
# the Scout cabin and the City hall are repeated only to relocate (RELOCATES; kbenv.engine.legal.repeat_choices),
# or not at all with the flag bazaar_keeps_pieces_in_place (the old reading, A-H3).
REPEATABLE = np.array([k < len(CAT.LOCATION_TYPES) and POWER_TIMING[k] == TIMING_TILE
                       and POWER_TARGET[k] != TARGET_PASSIVE
                       and CAT.POWER_RULES[POWER_RULE[k]] != "bazaar"
                       for k in range(CAT.NUM_POWER_CODES)], dtype=np.bool_)
RULE_CITY_HALL = RULE_CODE["city hall"]
KEEPS_PIECES = CAT.RULE_BIT["bazaar_keeps_pieces_in_place"]
REPEATER_BITS = sum(1 << k for k in range(CAT.NUM_POWER_CODES) if POWER_RULE[k] == RULE_BAZAAR)
# The rule codes only Harvest powers use: kbenv.engine.powers hands their targets to `rule_targets`.
OWN_RULE = np.array([{e for t, e in zip(CAT.POWER_TRAITS, CAT.POWER_EXPANSION, strict=True) if t.rule == r}
                     == {"harvest"} for r in CAT.POWER_RULES], dtype=np.bool_)
assert {CAT.POWER_RULES[r] for r in np.flatnonzero(OWN_RULE)} == {
    "next to terrain", "next to another player", "next to a special hex", "farmland",
    "palisade", "cathedral", "scout", "bazaar"}


@njit(cache=True)
def rule_targets(st, p: int, rule: int, t: int, src: int, out) -> None:
    """The targets of a Harvest rule code (OWN_RULE) for player p; t: the power's terrain column; src: the
    chosen source of a move power."""
    if rule == RULE_NEXT_TO_TERRAIN:
        next_to_terrain_targets(st, p, t, out)
    elif rule == RULE_NEXT_TO_OTHER:
        next_to_other_player_targets(st, p, out)
    elif rule == RULE_NEXT_TO_SPECIAL:
        next_to_special_targets(st, p, out)
    elif rule == RULE_FARMLAND:
        farmland_targets(st, p, out)
    elif rule == RULE_PALISADE:
        palisade_targets(st, p, src, out)
    elif rule == RULE_CATHEDRAL and t >= 0:  # its builds: the turn's terrain, adjacent if possible (EN 1343)
        terrain_build_targets(st, p, t, out)
    elif rule == RULE_SCOUT:
        scout_targets(st, p, out)
    else:
        clear(out)


# ----- the farm action's once-a-turn flag (kbenv.engine.legal, actions, turns) ---------------------------------
@njit(cache=True, inline="always")
def farm_action_open(st, p: int) -> bool:
    """p has not taken the farm action in this turn (A-H1: once per own turn)."""
    return st[FARMLAND_USED + p] == 0


@njit(cache=True, inline="always")
def take_farm_action(st, p: int) -> None:
    st[FARMLAND_USED + p] = 1


@njit(cache=True)
def end_turn(st, p: int) -> None:
    """At the end of p's turn the farm action comes back for p's next turn, p's scouts leave (H-9) and the Rovers
    gold of the turn is banked (cards section below)."""
    st[FARMLAND_USED + p] = 0
    remove_scouts(st, p)
    bank_rovers(st, p)


# ----- the Harvest cards (kernels in kbenv.engine.harvest.scoring) -----------------------------------------------
# Mayors marks are made after every placement or move, in kbenv.engine.board_ops (which this module cannot be
# imported by: kbenv.engine.harvest.builds imports board_ops). End scoring: kbenv.engine.scoring.score_card.
@njit(cache=True)
def settlement_built(st, p: int, h: int) -> None:
    """A new settlement of the turn's flow (mandatory action, a power, the farm action; kbenv.engine.actions):
    its section counts for Rovers (H-19, A-H8). Silo builds, moves, meeples and scouts never come here."""
    rovers_built(st, p, h)


# ----- the silo end phase (H-5, A-H2; kbenv.engine.harvest.silo) -------------------------------------------------
# kbenv.engine.turns opens it where the game would end; kbenv.engine.legal asks it for the hexes, the options
# (OPTION_1 "build", OPTION_2 "move") and DONE in PHASE_SILO; kbenv.engine.actions hands it the decisions.
OPTION_1 = CAT.ACTION_ID["option-1"]
OPTION_2 = CAT.ACTION_ID["option-2"]


@njit(cache=True)
def game_end(st) -> None:
    """The last turn is over (PHASE_OVER is set): the silo phase opens if a player touches a silo."""
    begin_silo_phase(st)


@njit(cache=True, inline="always")
def phase_hexes(st, out) -> None:
    """The legal hexes of a Harvest-only phase (PHASE_SILO)."""
    silo_hexes(st, out)


@njit(cache=True, inline="always")
def options_legal(st) -> int:
    """Bit 0: OPTION_1 legal, bit 1: OPTION_2 legal (in PHASE_SILO: "build", "move")."""
    if st[PHASE] == PHASE_SILO:
        return silo_options(st)
    return 0


@njit(cache=True, inline="always")
def phase_done_legal(st) -> bool:
    """DONE in a Harvest-only phase (PHASE_SILO: pass a silo, or stop it after a step)."""
    return silo_done_legal(st)


@njit(cache=True, inline="always")
def apply_phase_decision(st, action: int) -> None:
    """A legal decision of a Harvest-only phase (PHASE_SILO)."""
    apply_silo_decision(st, OPTION_1, OPTION_2, DONE, action)


# ----- Harvest powers: Palisade, Cathedral, Scout cabin, Bazaar -----------------------------------------------
@njit(cache=True, inline="always")
def special_completion(st, p: int, rule: int) -> int:
    """powers.special_completion of a Harvest rule (1: usable, 0: not, -1: its targets decide): the Cathedral is
    usable when a number tile is left to take, else when p holds value to return and a build target exists."""
    if rule == RULE_CATHEDRAL:
        if number_tile_left(st):
            return 1
        return -1 if st[NUMBER_TILES + p] > 0 else 0
    if rule == RULE_BAZAAR:
        return 1  # kbenv.engine.legal keeps it only while repeat_choices offers a power (REPEATER_BITS)
    return -1


@njit(cache=True, inline="always")
def enters_choice(st, p: int, power: int) -> bool:
    """Activating a power that names another power (the Bazaar): the phase choose_power opens (HA9)."""
    if POWER_RULE[power] == RULE_BAZAAR:
        st[POWER] = power
        st[PHASE] = PHASE_CHOOSE_POWER
        return True
    return False


@njit(cache=True, inline="always")
def places_own_piece(power: int) -> bool:
    """The Scout cabin or the City hall: a repeat of it only relocates their pieces (EN 1305-1307)."""
    rule = POWER_RULE[power]
    return rule == RULE_SCOUT or rule == RULE_CITY_HALL


@njit(cache=True)
def relocation_open(st, p: int, power: int) -> bool:
    """A repeat may run the Scout cabin or the City hall (places_own_piece): the turn owner's scouts or p's city
    hall stand on the board to be relocated, and the flag bazaar_keeps_pieces_in_place is off."""
    if st[RULE_FLAGS] & KEEPS_PIECES:
        return False
    if POWER_RULE[power] == RULE_SCOUT:
        return p == st[CURRENT] and not is_empty(st[SCOUTS : SCOUTS + WORDS])
    return st[CITY_HALL_AT + p] != 0


@njit(cache=True)
def begin_relocation(st, p: int, power: int) -> None:
    """A repeat runs the Scout cabin or the City hall (relocation_open): the scouts are lifted and as many placed
    again (STEPS_LEFT = their number, kbenv.engine.harvest.powers.scouts_allowed); the city hall stays until its
    new place is chosen (STEPS_LEFT = 1, kbenv.engine.crossroads.rules.city_hall_targets)."""
    if POWER_RULE[power] == RULE_SCOUT:
        lifted = popcount(st[SCOUTS : SCOUTS + WORDS])
        remove_scouts(st, p)
        st[STEPS_LEFT] = lifted
    else:
        st[STEPS_LEFT] = 1


@njit(cache=True)
def repeats_used_only(st) -> bool:
    """The flag bazaar_repeats_used_power_only (A-H3 b)."""
    return st[RULE_FLAGS] & USED_POWER_ONLY != 0


@njit(cache=True)
def option_pending(st) -> bool:
    """A choice between option-1 and option-2 is open (the Cathedral's "take" / "return", HA8): no hex is legal."""
    power = st[POWER]
    return (power >= 0 and st[PHASE] == PHASE_TARGET and POWER_RULE[power] == RULE_CATHEDRAL
            and not returning(st))


@njit(cache=True, inline="always")
def take_open(st, p: int) -> bool:
    """Option-1 of the open choice: "take" needs a number tile left (A-H5 pool limits)."""
    return number_tile_left(st)


@njit(cache=True, inline="always")
def return_open(st, p: int) -> bool:
    """Option-2 of the open choice, before its targets: "return" needs value held (A-H5)."""
    return st[NUMBER_TILES + p] > 0


@njit(cache=True, inline="always")
def choose_option(st, p: int, k: int) -> bool:
    """Apply option k (0, 1) of the open choice; True when the power is carried out by it. In the phase
    choose_power, option-1 is the Crossroads tile's extra action run once more (A-H3, A-C8): one more terrain
    card at the end of the turn (kbenv.engine.crossroads.rules.draw_extra_cards)."""
    if st[PHASE] == PHASE_CHOOSE_POWER:
        st[REPEAT_CARDS] += 1
        return True
    return choose_number_tiles(st, p, k)


@njit(cache=True, inline="always")
def build_goes_on(st, p: int, power: int) -> bool:
    """After a build of a Harvest power: whether the power may build again (the Cathedral while value is
    left; the dispatcher checks the supply and the targets)."""
    if POWER_RULE[power] == RULE_CATHEDRAL:
        return returned_one(st, p)
    return False


@njit(cache=True)
def place_piece(st, p: int, power: int, h: int) -> bool:
    """A piece of a Harvest rule placed on h (a scout, A-H4); False when the power's rule is not Harvest's."""
    if POWER_RULE[power] == RULE_SCOUT:
        place_scout(st, p, h)
        return True
    return False


@njit(cache=True, inline="always")
def power_finished(st) -> None:
    """A power is carried out: the number tiles' choice is closed."""
    st[NUMBER_TILE_MODE] = 0
