"""Kernels over a batch of games: one (N, STATE_SIZE) array, one row per game, parallel over games.

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

from ..parallel import twin_kernels
from ..rewards import terminal_rewards_into
from .actions import apply_unchecked
from .greedy import greedy_action, greedy_values
from .hints import hints_into
from .init import NUM_DRAWS, new_game
from .legal import is_legal, legal_mask_into
from .lookahead import lookahead_action, lookahead_values
from .observe import observe_into
from .observe_v1 import observe_v1_into
from .playout import random_legal_action
from .scoring import SCORE_COLUMNS, score_table
from .state import CURRENT, MAX_PLAYERS, PHASE, PHASE_OVER, START_PLAYER
from .turns import begin_turn, settle


def random_step_min_rows(args) -> int:
    """random_steps: 0.4 us a row, 3 us with the observation (args[14])."""
    return 16 if args[14] else 128


def observation_min_rows(args) -> int:
    """observations: 2.6 us a row, 50 or more with hint planes (args[4])."""
    return 2 if args[4] else 8


@njit(cache=True)
def start_game(st, num_players: int, seed: int, forced, lords_count_zero: bool) -> None:
    draws = np.empty(NUM_DRAWS, dtype=np.int64)
    codes = np.empty(400, dtype=np.int64)
    locations = np.empty(400, dtype=np.int64)
    new_game(st, num_players, seed, forced, lords_count_zero, draws, codes, locations)
    begin_turn(st, st[START_PLAYER])
    settle(st)


@twin_kernels(min_rows=16)
def new_games(states, idx, num_players, seeds, forced, lords_count_zero: bool) -> None:
    for j in prange(len(idx)):
        i = idx[j]
        start_game(states[i], num_players[i], seeds[i], forced, lords_count_zero)


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


@twin_kernels(min_rows=observation_min_rows)
def observations(states, idx, players, out, hint_kind: int) -> None:
    """out[j] = observation of players[j] in game idx[j] (with hint planes unless hint_kind is 0)."""
    for j in prange(len(idx)):
        observe_into(states[idx[j]], players[j], out[j])
        hints_into(states[idx[j]], players[j], out[j], hint_kind)


@twin_kernels(min_rows=8)
def observations_v1(states, idx, players, out) -> None:
    """out[j] = v1 observation (kbenv.engine.observe_v1) of players[j] in game idx[j]."""
    for j in prange(len(idx)):
        observe_v1_into(states[idx[j]], players[j], out[j])


@twin_kernels(min_rows=256)
def random_actions(states, idx, rng_state, out) -> None:
    """Uniformly random legal actions; rng_state has one generator per batch row."""
    for j in prange(len(idx)):
        out[j] = random_legal_action(states[idx[j]], rng_state, idx[j])


@twin_kernels(min_rows=8)
def greedy_actions(states, idx, rng_state, out) -> None:
    for j in prange(len(idx)):
        out[j] = greedy_action(states[idx[j]], rng_state, idx[j])


@twin_kernels(min_rows=random_step_min_rows)
def random_steps(states, idx, rng_state, num_players, seeds, seed_stride: int, forced, lords_count_zero: bool,
                 auto_reset: bool, reward_scheme: int, actions_out, done_out, totals_out, rewards_out,
                 observe: bool, obs_out) -> None:
    """One fused step of random play: pick a legal action, apply it, score and reward finished games,
    restart them (seed + seed_stride), and optionally write the next observation of the player to move."""
    for j in prange(len(idx)):
        i = idx[j]
        st = states[i]
        a = random_legal_action(st, rng_state, i)
        actions_out[j] = a
        apply_unchecked(st, a)
        done_out[j] = st[PHASE] == PHASE_OVER
        if done_out[j]:
            table = np.zeros((MAX_PLAYERS, SCORE_COLUMNS), dtype=np.int64)
            score_table(st, table)
            for p in range(MAX_PLAYERS):
                totals_out[j, p] = table[p, SCORE_COLUMNS - 1]
            terminal_rewards_into(totals_out[j], num_players[i], reward_scheme, rewards_out[j])
            if auto_reset:
                seeds[i] += seed_stride
                start_game(st, num_players[i], seeds[i], forced, lords_count_zero)
        if observe:
            observe_into(st, st[CURRENT], obs_out[j])


@twin_kernels(min_rows=8)
def greedy_value_table(states, idx, out) -> None:
    """out[j, a] = greedy value of legal action a in game idx[j], -inf for illegal actions."""
    for j in prange(len(idx)):
        greedy_values(states[idx[j]], out[j])


@twin_kernels(min_rows=2)
def lookahead_actions(states, idx, rng_state, out) -> None:
    for j in prange(len(idx)):
        out[j] = lookahead_action(states[idx[j]], rng_state, idx[j])


@twin_kernels(min_rows=2)
def lookahead_value_table(states, idx, out) -> None:
    """out[j, a] = lookahead value of legal action a in game idx[j], -inf for illegal actions."""
    for j in prange(len(idx)):
        lookahead_values(states[idx[j]], out[j])
