"""Harvest hooks: the one place where generic engine code (the power dispatcher, legal moves, actions, turns)
reaches the Harvest rules, so that generic modules name Harvest and not each power (as kbenv.engine.marsh_hooks
does for Marshlands).

The rule dispatch hands over only the rule codes that Harvest powers alone use (OWN_RULE); the turn hooks are
called behind `st[EXPANSIONS] & HARVEST`, so games without Harvest never run them. The kernels live in
kbenv.engine.harvest. Built so far (issue 22, first part): the farm action and the Water mill, Mountain station,
Watchtower and University; Bazaar, Scout cabin, Cathedral and Palisade are passive catalogue rows until built.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import catalogue as CAT
from ..board.bitset import clear
from .harvest import (
    farmland_targets,
    next_to_other_player_targets,
    next_to_special_targets,
    next_to_terrain_targets,
)
from .harvest_powers import palisade_targets
from .state import FARMLAND_USED
from .traits import RULE_CODE

RULE_NEXT_TO_TERRAIN = RULE_CODE["next to terrain"]
RULE_NEXT_TO_OTHER = RULE_CODE["next to another player"]
RULE_NEXT_TO_SPECIAL = RULE_CODE["next to a special hex"]
RULE_FARMLAND = RULE_CODE["farmland"]
RULE_PALISADE = RULE_CODE["palisade"]
# The rule codes only Harvest powers use: kbenv.engine.powers hands their targets to `rule_targets`.
OWN_RULE = np.array([{e for t, e in zip(CAT.POWER_TRAITS, CAT.POWER_EXPANSION, strict=True) if t.rule == r}
                     == {"harvest"} for r in CAT.POWER_RULES], dtype=np.bool_)
assert {CAT.POWER_RULES[r] for r in np.flatnonzero(OWN_RULE)} == {
    "next to terrain", "next to another player", "next to a special hex", "farmland", "palisade"}


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
    else:
        clear(out)


# ----- the farm action's once-a-turn flag (kbenv.engine.legal, actions, turns) ---------------------------------
@njit(cache=True)
def farm_action_open(st, p: int) -> bool:
    """p has not taken the farm action in this turn (A-H1: once per own turn)."""
    return st[FARMLAND_USED + p] == 0


@njit(cache=True)
def take_farm_action(st, p: int) -> None:
    st[FARMLAND_USED + p] = 1


@njit(cache=True)
def end_turn(st, p: int) -> None:
    """At the end of p's turn the farm action comes back for p's next turn."""
    st[FARMLAND_USED + p] = 0
