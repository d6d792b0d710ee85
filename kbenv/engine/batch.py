"""Rules kernels over a batch of games: one (N, STATE_SIZE) array, one row per game, parallel over games.
(The built-in policies over a batch, and observations with hint planes, are in kbenv.policies.batch.)

Every kernel takes `idx`, the rows to work on, so callers can step any subset of the batch.
Each is compiled twice (`kbenv.parallel.twin_kernels`): a parallel twin over the rows and a serial
one. The name is a Python function that runs the serial twin below the kernel's `min_rows`, and
above it whichever twin is faster at the moment (the parallel one on an idle machine, often the
serial one next to busy processes); `.parallel` and `.serial` are the twins, which give identical
results. `min_rows` is where a call's serial work reaches about 40 us, from the per-row costs
measured on the reference machine (serial, in us a row): random_steps 0.4 (3 with the observation),
legal_masks 0.3, check_legal 0.06, random_actions 0.13, apply_actions about 0.3, observations 2.6
(50 and more with hint planes), new_games 2.3, greedy 5, lookahead 50-150.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..board.geometry import NUM_HEXES
from ..parallel import twin_kernels
from .actions import apply_unchecked
from .init import NUM_DRAWS, new_game
from .legal import is_legal, legal_mask_into
from .observe_v1 import observe_v1_into
from .scoring import SCORE_COLUMNS, score_table
from .state import MAX_PLAYERS, PHASE, PHASE_OVER, START_PLAYER
from .turns import begin_turn, settle


@njit(cache=True)
def start_game(st, num_players: int, seed: int, forced) -> None:
    draws = np.empty(NUM_DRAWS, dtype=np.int64)
    codes = np.empty(NUM_HEXES, dtype=np.int64)
    locations = np.empty(NUM_HEXES, dtype=np.int64)
    new_game(st, num_players, seed, forced, draws, codes, locations)
    begin_turn(st, st[START_PLAYER])
    settle(st)


@twin_kernels(min_rows=16)
def new_games(states, idx, num_players, seeds, forced) -> None:
    for j in prange(len(idx)):
        i = idx[j]
        start_game(states[i], num_players[i], seeds[i], forced)


@twin_kernels(min_rows=128)
def legal_masks(states, idx, out) -> None:
    for j in prange(len(idx)):
        legal_mask_into(states[idx[j]], out[j])


@twin_kernels(min_rows=512)
def check_legal(states, idx, actions, ok) -> None:
    for j in prange(len(idx)):
        ok[j] = is_legal(states[idx[j]], actions[j])


@twin_kernels(min_rows=128)
def apply_actions(states, idx, actions, done, totals) -> None:
    """Apply known-legal actions; for games that end, set done and their final totals."""
    for j in prange(len(idx)):
        st = states[idx[j]]
        apply_unchecked(st, actions[j])
        if st[PHASE] == PHASE_OVER:
            done[j] = True
            table = np.zeros((MAX_PLAYERS, SCORE_COLUMNS), dtype=np.int64)
            score_table(st, table)
            for p in range(MAX_PLAYERS):
                totals[j, p] = table[p, SCORE_COLUMNS - 1]


@twin_kernels(min_rows=8)
def observations_v1(states, idx, players, out) -> None:
    """out[j] = v1 observation (kbenv.engine.observe_v1) of players[j] in game idx[j]."""
    for j in prange(len(idx)):
        observe_v1_into(states[idx[j]], players[j], out[j])
