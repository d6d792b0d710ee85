"""Harvest hooks: the one place where generic engine code (the power dispatcher, legal moves, actions, turns)
reaches the Harvest rules, so that generic modules name Harvest and not each power (as kbenv.engine.marsh_hooks
does for Marshlands).

The rule dispatch hands over only the rule codes that Harvest powers alone use (OWN_RULE); the turn hooks are
called behind `st[EXPANSIONS] & HARVEST`, so games without Harvest never run them. The kernels live in
kbenv.engine.harvest (powers), kbenv.engine.harvest_scoring (cards) and kbenv.engine.silo (the silo end phase).
Built so far (issue 22): the farm action and the Water mill, Mountain station, Watchtower and University; the six
cards (Rovers gold banked here at the end of a turn; Mayors marks from kbenv.engine.board_ops); the silo end phase
(H-5, A-H2), reached through the SILO section below. Bazaar, Scout cabin, Cathedral and Palisade are passive
catalogue rows until built.
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
from .harvest_scoring import bank_rovers, rovers_built
from .silo import apply_silo_decision, begin_silo_phase, silo_done_legal, silo_hexes, silo_options
from .state import FARMLAND_USED, PHASE, PHASE_SILO
from .traits import RULE_CODE

RULE_NEXT_TO_TERRAIN = RULE_CODE["next to terrain"]
RULE_NEXT_TO_OTHER = RULE_CODE["next to another player"]
RULE_NEXT_TO_SPECIAL = RULE_CODE["next to a special hex"]
RULE_FARMLAND = RULE_CODE["farmland"]
DONE = CAT.DONE
# The rule codes only Harvest powers use: kbenv.engine.powers hands their targets to `rule_targets`.
OWN_RULE = np.array([{e for t, e in zip(CAT.POWER_TRAITS, CAT.POWER_EXPANSION, strict=True) if t.rule == r}
                     == {"harvest"} for r in CAT.POWER_RULES], dtype=np.bool_)
assert {CAT.POWER_RULES[r] for r in np.flatnonzero(OWN_RULE)} == {
    "next to terrain", "next to another player", "next to a special hex", "farmland"}


@njit(cache=True)
def rule_targets(st, p: int, rule: int, t: int, out) -> None:
    """The targets of a Harvest rule code (OWN_RULE) for player p; t: the power's terrain column."""
    if rule == RULE_NEXT_TO_TERRAIN:
        next_to_terrain_targets(st, p, t, out)
    elif rule == RULE_NEXT_TO_OTHER:
        next_to_other_player_targets(st, p, out)
    elif rule == RULE_NEXT_TO_SPECIAL:
        next_to_special_targets(st, p, out)
    elif rule == RULE_FARMLAND:
        farmland_targets(st, p, out)
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
    """At the end of p's turn the farm action comes back for p's next turn; the Rovers gold of the turn is
    banked (cards section below)."""
    st[FARMLAND_USED + p] = 0
    bank_rovers(st, p)


# ----- the Harvest cards (engineer CARDS; kernels in kbenv.engine.harvest_scoring) -----------------------------
# Mayors marks are made after every placement or move, in kbenv.engine.board_ops (which this module cannot be
# imported by: kbenv.engine.harvest imports board_ops). End scoring: kbenv.engine.scoring.score_card.
@njit(cache=True)
def settlement_built(st, p: int, h: int) -> None:
    """A new settlement of the turn's flow (mandatory action, a power, the farm action; kbenv.engine.actions):
    its section counts for Rovers (H-19, A-H8). Silo builds, moves, meeples and scouts never come here."""
    rovers_built(st, p, h)


# ----- the silo end phase (H-5, A-H2; kbenv.engine.silo) -------------------------------------------------
# kbenv.engine.turns opens it where the game would end; kbenv.engine.legal asks it for the hexes, the options
# (OPTION_1 "build", OPTION_2 "move") and DONE in PHASE_SILO; kbenv.engine.actions hands it the decisions.
OPTION_1 = CAT.ACTION_ID["option-1"]
OPTION_2 = CAT.ACTION_ID["option-2"]


@njit(cache=True)
def game_end(st) -> None:
    """The last turn is over (PHASE_OVER is set): the silo phase opens if a player touches a silo."""
    begin_silo_phase(st)


@njit(cache=True)
def phase_hexes(st, out) -> None:
    """The legal hexes of a Harvest-only phase (PHASE_SILO)."""
    silo_hexes(st, out)


@njit(cache=True)
def options_legal(st) -> int:
    """Bit 0: OPTION_1 legal, bit 1: OPTION_2 legal (in PHASE_SILO: "build", "move")."""
    if st[PHASE] == PHASE_SILO:
        return silo_options(st)
    return 0


@njit(cache=True)
def phase_done_legal(st) -> bool:
    """DONE in a Harvest-only phase (PHASE_SILO: pass a silo, or stop it after a step)."""
    return silo_done_legal(st)


@njit(cache=True)
def apply_phase_decision(st, action: int) -> None:
    """A legal decision of a Harvest-only phase (PHASE_SILO)."""
    apply_silo_decision(st, OPTION_1, OPTION_2, DONE, action)
