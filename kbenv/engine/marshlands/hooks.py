"""Marshlands hooks: the one place where generic engine code (the power dispatcher, turns, actions, legal
moves, building) reaches the Marshlands powers, so that generic modules name Marshlands and not each power.

Each hook is called behind `st[EXPANSIONS] & MARSHLANDS` (or, for the rule dispatch, only for the rule codes
that Marshlands powers alone use), so games without Marshlands never run it. The kernels themselves live in
kbenv.engine.marshlands.powers (the Fountain, the Temple's reserve, the bonus tiles) and
kbenv.engine.marshlands.reactions (the Canoe's reactions); the Refuge is the generic one-space step (rule "step").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ... import catalogue as CAT
from ...board.bitset import WORDS, clear
from ..board_ops import settlements_word
from ..state import MANDATORY_DONE, MANDATORY_TARGET
from ..traits import RULE_CODE
from .powers import (
    TEMPLE_OWED,
    fountain_targets,
    owe_reserve,
    ray_targets,
    reserve_to_build,
    return_unbuilt_reserve,
    set_aside,
    temple_waiver,
    tiles_ready_at_turn_end,
    tiles_ready_at_turn_start,
)
from .reactions import (  # noqa: F401  (after_decision .. tiles_on_board: the reaction hooks, re-exported)
    after_decision,
    apply_reaction,
    canoe_targets,
    reacting,
    tiles_on_board,
)

RULE_FOUNTAIN, RULE_TEMPLE, RULE_RAY = RULE_CODE["fountain"], RULE_CODE["temple"], RULE_CODE["ray"]
RULE_CANOE = RULE_CODE["canoe"]
# The rule codes only Marshlands powers use: kbenv.engine.powers hands their targets to `rule_targets`.
OWN_RULE = np.array([{e for t, e in zip(CAT.POWER_TRAITS, CAT.POWER_EXPANSION, strict=True) if t.rule == r}
                     == {"marshlands"} for r in CAT.POWER_RULES], dtype=np.bool_)
assert {CAT.POWER_RULES[r] for r in np.flatnonzero(OWN_RULE)} == {"fountain", "temple", "ray", "canoe"}


@njit(cache=True)
def rule_targets(st, p: int, rule: int, src: int, out) -> None:
    """The targets of a Marshlands rule code (OWN_RULE) for player p (src: the chosen source, if any)."""
    if rule == RULE_FOUNTAIN:
        fountain_targets(st, p, out)
    elif rule == RULE_RAY:
        ray_targets(st, src, out)
    elif rule == RULE_TEMPLE:  # the settlement chosen as the source is the one taken off
        for i in range(WORDS):
            out[i] = settlements_word(st, p, i)
    elif rule == RULE_CANOE:
        canoe_targets(st, p, out)
    else:
        clear(out)


# ----- turn hooks (kbenv.engine.turns, kbenv.engine.actions, kbenv.engine.legal) --------------------
@njit(cache=True)
def begin_turn(st, p: int) -> None:
    """At the start of p's turn: p's tiles taken before are ready (A-M5); the Temple's reserve is owed in this
    mandatory action, on top (M-12)."""
    tiles_ready_at_turn_start(st, p)
    owe_reserve(st, p)
    st[MANDATORY_TARGET] += st[TEMPLE_OWED]
    if st[TEMPLE_OWED] > 0:
        st[MANDATORY_DONE] = 0


@njit(cache=True)
def end_turn(st, p: int, round_over: bool) -> None:
    """At the end of p's turn: a Temple reserve owed and not built goes back to the supply (A-M6 R); the tiles
    taken become ready as kbenv.engine.marshlands.powers.tiles_ready_at_turn_end says."""
    return_unbuilt_reserve(st, p)
    tiles_ready_at_turn_end(st, round_over)


@njit(cache=True, inline="always")
def before_mandatory_build(st, p: int) -> None:
    """A mandatory build takes the Temple's reserve owed first (A-M6)."""
    reserve_to_build(st, p)


@njit(cache=True, inline="always")
def took_source_off(st, p: int) -> None:
    """A power that takes its chosen source off the board (the Temple) put it in p's reserve (A-M6)."""
    set_aside(st, p)


@njit(cache=True, inline="always")
def waives_adjacency(st, p: int) -> bool:
    """The mandatory action's next build may ignore adjacency (the Temple bonus on the first build, M-13)."""
    return temple_waiver(st, p)
