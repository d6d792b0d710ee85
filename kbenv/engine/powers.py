"""The power dispatcher: where a power may build, move or place (its targets) and whether it can be used
at all (its completion), read from the trait arrays of kbenv.engine.traits.

Every building rule is a mask operation: candidates = allowed terrain & unoccupied, then restricted to
hexes next to the player's own settlements if that leaves any ("build adjacent if possible"). Powers whose
rule is generic ("terrain": build on a terrain, "move to terrain": Barn and Harbor) need nothing but their
catalogue row; every other rule code names its kernel in `special_targets` (the one registration spot for
targets; the expansions' codes go on in kbenv.engine.dispatch.powers) and, where the default ("some target
exists") is not the rule, in `special_completion` and `source_has_target`. Chosen hexes are carried out by
kbenv.engine.actions, the same way.
"""

from __future__ import annotations

from numba import njit

from ..board.bitset import BITS_PER_WORD, WORDS, clear, is_empty, word_lowest_bit
from .base_powers import (  # noqa: F401  (re-exported)
    SCRATCH_LIFTED,
    free_buildable,
    move_targets,
    paddock_has_target,
    paddock_targets,
    tavern_targets,
    tower_targets,
)
from .board_ops import (  # noqa: F401  (re-exported: the building rules live in board_ops)
    adjacent_view,
    free_of,
    own_view,
    restrict_adjacent_if_possible,
    settlements_word,
    terrain_build_targets,
    terrain_view,
)
from .dispatch.powers import (
    card_side,
    choosing_terrain,
    expansion_rule_completion,
    expansion_rule_targets,
    hand_option,
    hand_options,
    hand_terrain,
    has_step,
    is_swamp_card,
    next_to_cave,
)
from .state import (
    DECK_COUNT,
    DISCARD_COUNT,
    FORT_CARD,
    NO_CARD,
    SUPPLY,
    scratch_off,
)
from .traits import (  # noqa: F401  (BUILD_POWER re-exported)
    BUILD_POWER,
    LAST_GENERIC_RULE,
    POWER_ANY_SOURCE,
    POWER_RULE,
    POWER_SOURCE,
    POWER_TARGET,
    POWER_TERRAIN,
    RULE_ARM,
    RULE_BARRACKS,
    RULE_CARAVAN,
    RULE_CAVE,
    RULE_CITY_HALL,
    RULE_MOVE_TO_TERRAIN,
    RULE_PADDOCK,
    RULE_QUARRY,
    RULE_STEP,
    RULE_SWORD,
    RULE_TAVERN,
    RULE_TERRAIN,
    RULE_TOWER,
    RULE_VEHICLE,
    RULE_VILLAGE,
    TARGET_REMOVE,
    TERRAIN_CARD,
    TERRAIN_DRAWN,
)

SCRATCH_CARD_TARGETS = scratch_off("hand")  # one card's targets inside a union over the hand


@njit(cache=True, inline="always")
def builds_settlement(power: int) -> bool:
    """Powers that build settlements from the supply (the ones an Outpost can serve)."""
    return BUILD_POWER[power]


@njit(cache=True)
def power_terrain(st, p: int, power: int) -> int:
    """The terrain code the power uses now: its fixed terrain, the turn's card, or the card it drew
    (negative: none, or the rule needs no terrain)."""
    t = POWER_TERRAIN[power]
    if t == TERRAIN_CARD:
        return hand_terrain(st, p)
    if t == TERRAIN_DRAWN:
        return st[FORT_CARD]
    return t


# ----- targets --------------------------------------------------------------------------------------
@njit(cache=True)
def power_targets(st, p: int, power: int, src: int, out) -> None:
    """Hexes the power may choose now (build on, move src to, place on); with an open Crossroads hand the
    union over its cards, each with its own adjacency rule (A-C8)."""
    if POWER_TERRAIN[power] == TERRAIN_CARD and choosing_terrain(st, p):
        hand_targets(st, p, power, src, out)
    elif POWER_TERRAIN[power] == TERRAIN_DRAWN and is_swamp_card(st[FORT_CARD]):
        drawn_swamp_targets(st, p, power, src, out)
    else:
        terrain_targets(st, p, power, power_terrain(st, p, power), src, out)


@njit(cache=True)
def terrain_targets(st, p: int, power: int, t: int, src: int, out) -> None:
    """power_targets on terrain t: the generic rules here, the others by their rule code."""
    rule = POWER_RULE[power]
    if rule == RULE_TERRAIN:  # every power that builds on a terrain: fixed, the card or the drawn card
        if t < 0:
            clear(out)
        else:
            terrain_build_targets(st, p, t, out)
    elif rule == RULE_MOVE_TO_TERRAIN:
        move_targets(st, p, src, t, out)
    else:
        special_targets(st, p, power, rule, t, src, out)


@njit(cache=True, inline="always")
def special_targets(st, p: int, power: int, rule: int, t: int, src: int, out) -> None:
    """The registration spot of the rules with a kernel of their own (kbenv.catalogue.POWER_RULES)."""
    if rule == RULE_TOWER:
        tower_targets(st, p, out)
    elif rule == RULE_TAVERN:
        tavern_targets(st, p, out)
    elif rule == RULE_PADDOCK:
        paddock_targets(st, src, out)
    else:
        expansion_rule_targets(st, p, power, rule, t, src, out)


# The union below and crossroads.hand_build_targets repeat one loop shape: the mandatory action's union
# stays a small kernel of its own on the base game's hot path (merged kernels measured 7-13% slower there).
@njit(cache=True)
def hand_targets(st, p: int, power: int, src: int, out) -> None:
    """The power's targets over every card of an open hand."""
    clear(out)
    one = st[SCRATCH_CARD_TARGETS : SCRATCH_CARD_TARGETS + WORDS]
    for k in range(hand_options(st, p)):
        card = hand_option(st, p, k)
        if card != NO_CARD:
            terrain_targets(st, p, power, card, src, one)
            for i in range(WORDS):
                out[i] |= one[i]


@njit(cache=True, inline="always")
def drawn_swamp_targets(st, p: int, power: int, src: int, out) -> None:
    """A swamp card drawn by the Fort: its holder chooses swamp or the other terrain, each with its own
    adjacency (A-C9 (R): one build either way)."""
    clear(out)
    one = st[SCRATCH_CARD_TARGETS : SCRATCH_CARD_TARGETS + WORDS]
    for side in range(2):
        terrain_targets(st, p, power, card_side(st[FORT_CARD], side), src, one)
        for i in range(WORDS):
            out[i] |= one[i]


# ----- completion: can the power be used now (so activating it is legal)? ---------------------------------
@njit(cache=True)
def power_has_completion(st, p: int, power: int, tmp) -> bool:
    """Whether the power can be carried out now (so activating it is legal)."""
    if BUILD_POWER[power] and st[SUPPLY + p] == 0:
        return False
    t = POWER_TERRAIN[power]
    if t == TERRAIN_CARD:
        if choosing_terrain(st, p):
            return hand_has_completion(st, p, power, tmp)
        if hand_terrain(st, p) == NO_CARD:
            return False
    elif t == TERRAIN_DRAWN:
        return st[DECK_COUNT] + st[DISCARD_COUNT] > 0  # the drawn card is not known before it is drawn (C-6)
    if POWER_SOURCE[power]:
        return has_source(st, p, power, tmp)
    rule = POWER_RULE[power]
    if rule > LAST_GENERIC_RULE:
        known = special_completion(st, p, power, rule)
        if known >= 0:
            return known == 1
    power_targets(st, p, power, -1, tmp)
    return not is_empty(tmp)


@njit(cache=True)
def base_has_completion(st, p: int, power: int, tmp) -> bool:
    """power_has_completion of the base game's codes (0..7), read from the same traits without the cases
    no base power has (a drawn card, a special completion): the base game's hot path stays small."""
    if BUILD_POWER[power] and st[SUPPLY + p] == 0:
        return False
    t = POWER_TERRAIN[power]
    if t == TERRAIN_CARD:
        if choosing_terrain(st, p):
            return hand_has_completion(st, p, power, tmp)
        t = hand_terrain(st, p)
        if t == NO_CARD:
            return False
    rule = POWER_RULE[power]
    if rule == RULE_TERRAIN:
        terrain_build_targets(st, p, t, tmp)
    elif rule == RULE_MOVE_TO_TERRAIN:
        if not has_settlement(st, p):
            return False
        free_of(st, terrain_view(st, t), tmp)  # every settlement can move once one free hex exists
    elif POWER_SOURCE[power]:
        return has_movable(st, p, power, tmp)
    elif rule == RULE_TOWER:
        tower_targets(st, p, tmp)
    else:
        tavern_targets(st, p, tmp)  # the base game's rules: BASE_RULES (kbenv.engine.traits)
    return not is_empty(tmp)


@njit(cache=True, inline="always")
def special_completion(st, p: int, power: int, rule: int) -> int:
    """Rules whose completion is not "some target exists now" (1: usable, 0: not, -1: the targets decide):
    the Outpost arms; the expansions' other rules: kbenv.engine.dispatch.powers.expansion_rule_completion."""
    if rule == RULE_ARM:
        return 1
    return expansion_rule_completion(st, p, power, rule)


@njit(cache=True)
def hand_has_completion(st, p: int, power: int, tmp) -> bool:
    """An open hand: some card of the hand gives a target (a move power: some card has a free hex)."""
    if POWER_ANY_SOURCE[power]:
        if not has_settlement(st, p):
            return False
        for k in range(hand_options(st, p)):
            card = hand_option(st, p, k)
            if card != NO_CARD:
                free_of(st, terrain_view(st, card), tmp)
                if not is_empty(tmp):
                    return True
        return False
    hand_targets(st, p, power, -1, tmp)
    return not is_empty(tmp)


@njit(cache=True)
def has_settlement(st, p: int) -> bool:
    for i in range(WORDS):
        if settlements_word(st, p, i) != 0:
            return True
    return False


@njit(cache=True, inline="always")
def has_source(st, p: int, power: int, tmp) -> bool:
    """A move power: one of p's plain settlements can be moved by it."""
    if POWER_ANY_SOURCE[power]:
        # Every settlement can move as soon as one free hex of the terrain exists.
        if not has_settlement(st, p):
            return False
        free_of(st, terrain_view(st, power_terrain(st, p, power)), tmp)
        return not is_empty(tmp)
    return has_movable(st, p, power, tmp)


@njit(cache=True)
def has_movable(st, p: int, power: int, tmp) -> bool:
    """Whether one of p's settlements can be moved by the power."""
    for i in range(WORDS):
        w = settlements_word(st, p, i)
        while w != 0:
            s = i * BITS_PER_WORD + word_lowest_bit(w)
            w &= w - 1
            if source_has_target(st, p, power, s, tmp):
                return True
    return False


@njit(cache=True)
def source_has_target(st, p: int, power: int, src: int, tmp) -> bool:
    """Whether the settlement on src can be moved by the power (cheap checks where a rule has one)."""
    rule = POWER_RULE[power]
    if rule == RULE_MOVE_TO_TERRAIN:
        return True
    if rule == RULE_PADDOCK:
        return paddock_has_target(st, src)
    if rule == RULE_STEP:
        return has_step(st, src)
    if POWER_TARGET[power] == TARGET_REMOVE:
        return True  # a power taking its source off accepts every own plain settlement (M-12)
    if rule == RULE_CAVE and not next_to_cave(st, src):
        return False
    power_targets(st, p, power, src, tmp)
    return not is_empty(tmp)
