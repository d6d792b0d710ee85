"""The expansions' power rules: what the power dispatcher (kbenv.engine.powers), legality and actions reach.

The generic modules above the power dispatcher import no expansion package; the kernels of the expansions'
rule codes, timings, phases and open hands come to them from here:
- `expansion_rule_targets` / `expansion_rule_completion`: the ladders over the rule codes no base power has
  (kbenv.catalogue.POWER_RULES), in the order the power dispatcher tried them;
- the turn's open hand (Crossroads' extra cards, Marshlands' swamp cards): `choosing_terrain`,
  `hand_options`, `hand_option`, `hand_terrain`, `card_side`, `is_swamp_card`, `hand_build_targets`;
- the named kernels the decision flow calls by trait (the timing, target and rule traits of
  kbenv.engine.traits): each runs only where its trait says so, so no expansion bit is tested for them.

This module sits below the power dispatcher: nothing it imports reaches kbenv.engine.powers, legal or actions
(checked by tests/test_engine_layout.py).
"""

from __future__ import annotations

from numba import njit

from ...board.bitset import WORDS, clear
from ..board_ops import settlements_word
from ..crossroads.rules import (  # noqa: F401  (the open hand, the Fort and the Crossroads pieces)
    barracks_target,
    barracks_targets,
    choosing_terrain,
    city_hall_targets,
    crossroads_tiles,
    fort_discard,
    fort_draw,
    hand_build_targets,
    hand_option,
    hand_options,
    piece_at,
    place_city_hall,
    relocate_city_hall,
    vehicle_target,
    vehicle_targets,
)
from ..harvest.hooks import OWN_RULE as HARVEST_RULE
from ..harvest.hooks import (  # noqa: F401  (the farm action, repeats, options and the silo phase)
    REPEATABLE,
    REPEATER_BITS,
    RULE_FARMLAND,
    apply_phase_decision,
    begin_relocation,
    choose_option,
    farm_action_open,
    option_pending,
    options_legal,
    phase_done_legal,
    phase_hexes,
    places_own_piece,
    relocation_open,
    repeats_used_only,
    return_open,
    take_farm_action,
    take_open,
)
from ..harvest.hooks import rule_targets as harvest_rule_targets
from ..harvest.hooks import special_completion as harvest_completion
from ..marshlands.hooks import OWN_RULE as MARSH_RULE
from ..marshlands.hooks import (  # noqa: F401  (reactions, bonus tiles, the reserve)
    after_decision,
    apply_reaction,
    reacting,
    tiles_on_board,
    took_source_off,
)
from ..marshlands.hooks import rule_targets as marsh_rule_targets
from ..marshlands.powers import bonus_usable, reserve_owed  # noqa: F401
from ..marshlands.swamp import card_side, hand_terrain, is_swamp_card  # noqa: F401
from ..nomads.rules import (  # noqa: F401  (nomad tiles, walls, victims)
    caravan_targets,
    has_step,
    next_victim,
    place_wall,
    quarry_targets,
    step_targets,
    usable_nomad,
    village_targets,
)
from ..queenies.rules import cave_targets, next_to_cave  # noqa: F401
from ..state import PHASE, PHASE_STEP, VICTIM
from ..traits import (
    RULE_BARRACKS,
    RULE_CARAVAN,
    RULE_CAVE,
    RULE_CITY_HALL,
    RULE_QUARRY,
    RULE_STEP,
    RULE_SWORD,
    RULE_VEHICLE,
    RULE_VILLAGE,
)


@njit(cache=True, inline="always")
def expansion_rule_targets(st, p: int, power: int, rule: int, t: int, src: int, out) -> None:
    """The targets of a rule code of the expansions' powers for player p (t: the power's terrain, src: the
    chosen source); no target for a code no kernel claims."""
    if rule == RULE_CARAVAN:
        caravan_targets(st, src, out)
    elif rule == RULE_QUARRY:
        quarry_targets(st, p, t, out)
    elif rule == RULE_VILLAGE:
        village_targets(st, p, out)
    elif rule == RULE_STEP:
        step_targets(st, src, out)
    elif rule == RULE_SWORD:
        for i in range(WORDS):
            out[i] = settlements_word(st, st[VICTIM], i)
    elif rule == RULE_CITY_HALL:
        city_hall_targets(st, p, out)
    elif rule == RULE_BARRACKS:
        barracks_targets(st, p, out)
    elif rule == RULE_VEHICLE:
        vehicle_targets(st, p, power, st[PHASE] == PHASE_STEP, out)
    elif rule == RULE_CAVE:
        cave_targets(st, src, out)
    elif MARSH_RULE[rule]:
        marsh_rule_targets(st, p, rule, src, out)
    elif HARVEST_RULE[rule]:
        harvest_rule_targets(st, p, rule, t, src, out)
    else:
        clear(out)


@njit(cache=True, inline="always")
def expansion_rule_completion(st, p: int, power: int, rule: int) -> int:
    """Rules of the expansions' powers whose completion is not "some target exists now" (1: usable, 0: not,
    -1: the targets decide): the Sword needs another player with a settlement (A-N5); a wagon or ship on the
    board can always go back to the supply; Harvest's own codes."""
    if rule == RULE_SWORD:
        return 1 if next_victim(st, p, p) >= 0 else 0
    if rule == RULE_VEHICLE and piece_at(st, p, power) >= 0:
        return 1
    if HARVEST_RULE[rule]:
        return harvest_completion(st, p, rule)
    return -1
