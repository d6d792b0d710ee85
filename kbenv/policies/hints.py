"""Optional hint planes: a built-in policy's value of every legal decision, for the observer to move.

With hints an observation has two more hex planes after the standard ones, and two more groups of
scalar features in the features plane:

- CH_HINT_VALUE: for each legal hex decision, (its value - the mover's position value now) / HINT_SCALE,
  clipped to [-1, 1]; the value is greedy's (gold + 2 per tile after the decision) or lookahead's
  (the same after greedily finishing the turn), see kbenv.policies.greedy and kbenv.policies.lookahead.
- CH_HINT_BEST: 1 on the legal hexes with the highest value (all ties).
- F_HINT_VALUE (9: the 8 powers, then end turn) and F_HINT_BEST (9): the same for those decisions.

Everything is zero when the observer is not to move. The values come from public information plus
the mover's own card, so hints reveal nothing hidden.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board.geometry import NUM_HEXES
from ..engine.legal import ACTION_SIZE
from ..engine.observe import NUM_CHANNELS, NUM_FEATURES, set_feature
from ..engine.state import CURRENT, PHASE, PHASE_OVER
from . import HINT_KINDS  # noqa: F401 (re-exported: the hint kinds are declared with the policies)
from .greedy import TIE, greedy_values, position_value
from .lookahead import lookahead_values

CH_HINT_VALUE = NUM_CHANNELS
CH_HINT_BEST = NUM_CHANNELS + 1
HINT_CHANNELS = 2
HINT_SCALE = 10.0
F_HINT_VALUE = NUM_FEATURES
F_HINT_BEST = NUM_FEATURES + (ACTION_SIZE - NUM_HEXES)
HINTED_NUM_FEATURES = F_HINT_BEST + (ACTION_SIZE - NUM_HEXES)  # scalar features with hints


@njit(cache=True)
def hint_table(st, player: int, kind: int, gain, best) -> bool:
    """Fill gain and best (float64, ACTION_SIZE) with the hints of `kind` for every legal action (NaN gain for
    the others); False when there are no hints (kind 0, the game over, or `player` not to move)."""
    if kind == 0 or st[PHASE] == PHASE_OVER or st[CURRENT] != player:
        return False
    values = np.empty(ACTION_SIZE, dtype=np.float64)
    if kind == 1:
        greedy_values(st, values)
    else:
        lookahead_values(st, values)
    base = position_value(st, player)
    top = values.max()
    for a in range(ACTION_SIZE):
        if not np.isfinite(values[a]):
            gain[a] = np.nan
            continue
        gain[a] = min(1.0, max(-1.0, (values[a] - base) / HINT_SCALE))
        best[a] = 1.0 if values[a] > top - TIE else 0.0
    return True


@njit(cache=True)
def hints_into(st, player: int, out, kind: int) -> None:
    """Write the hint planes of `kind` (an index into HINT_KINDS) into an observation already filled."""
    gain = np.empty(ACTION_SIZE, dtype=np.float64)
    best = np.empty(ACTION_SIZE, dtype=np.float64)
    if not hint_table(st, player, kind, gain, best):
        return
    for a in range(ACTION_SIZE):
        if np.isnan(gain[a]):
            continue
        if a < NUM_HEXES:
            out[CH_HINT_VALUE, a // 20, a % 20] = gain[a]
            out[CH_HINT_BEST, a // 20, a % 20] = best[a]
        else:
            set_feature(out, F_HINT_VALUE + a - NUM_HEXES, gain[a])
            set_feature(out, F_HINT_BEST + a - NUM_HEXES, best[a])
