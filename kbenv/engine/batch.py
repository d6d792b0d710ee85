"""Kernels over a batch of games: one (N, STATE_SIZE) array, one row per game, parallel over games.

Every kernel takes `idx`, the rows to work on, so callers can step any subset of the batch.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..rewards import terminal_rewards_into
from .actions import apply_unchecked
from .greedy import greedy_action, greedy_values
from .hints import hints_into
from .init import NUM_DRAWS, new_game
from .legal import is_legal, legal_mask_into
from .lookahead import lookahead_action, lookahead_values
from .observe import observe_into
from .playout import random_legal_action
from .scoring import SCORE_COLUMNS, score_table
from .state import CURRENT, MAX_PLAYERS, PHASE, PHASE_OVER, START_PLAYER
from .turns import begin_turn, settle


@njit(cache=True)
def start_game(st, num_players: int, seed: int, forced, lords_count_zero: bool) -> None:
    draws = np.empty(NUM_DRAWS, dtype=np.int64)
    codes = np.empty(400, dtype=np.int64)
    locations = np.empty(400, dtype=np.int64)
    new_game(st, num_players, seed, forced, lords_count_zero, draws, codes, locations)
    begin_turn(st, st[START_PLAYER])
    settle(st)


@njit(cache=True, parallel=True)
def new_games(states, idx, num_players, seeds, forced, lords_count_zero: bool) -> None:
    for j in prange(len(idx)):
        i = idx[j]
        start_game(states[i], num_players[i], seeds[i], forced, lords_count_zero)


@njit(cache=True, parallel=True)
def legal_masks(states, idx, out) -> None:
    for j in prange(len(idx)):
        legal_mask_into(states[idx[j]], out[j])


@njit(cache=True, parallel=True)
def check_legal(states, idx, actions, ok) -> None:
    for j in prange(len(idx)):
        ok[j] = is_legal(states[idx[j]], actions[j])


@njit(cache=True, parallel=True)
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


@njit(cache=True, parallel=True)
def observations(states, idx, players, out, hint_kind: int) -> None:
    """out[j] = observation of players[j] in game idx[j] (with hint planes unless hint_kind is 0)."""
    for j in prange(len(idx)):
        observe_into(states[idx[j]], players[j], out[j])
        hints_into(states[idx[j]], players[j], out[j], hint_kind)


@njit(cache=True, parallel=True)
def random_actions(states, idx, rng_state, out) -> None:
    """Uniformly random legal actions; rng_state has one generator per batch row."""
    for j in prange(len(idx)):
        out[j] = random_legal_action(states[idx[j]], rng_state, idx[j])


@njit(cache=True, parallel=True)
def greedy_actions(states, idx, rng_state, out) -> None:
    for j in prange(len(idx)):
        out[j] = greedy_action(states[idx[j]], rng_state, idx[j])



@njit(cache=True, parallel=True)
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


@njit(cache=True, parallel=True)
def greedy_value_table(states, idx, out) -> None:
    """out[j, a] = greedy value of legal action a in game idx[j], -inf for illegal actions."""
    for j in prange(len(idx)):
        greedy_values(states[idx[j]], out[j])


@njit(cache=True, parallel=True)
def lookahead_actions(states, idx, rng_state, out) -> None:
    for j in prange(len(idx)):
        out[j] = lookahead_action(states[idx[j]], rng_state, idx[j])


@njit(cache=True, parallel=True)
def lookahead_value_table(states, idx, out) -> None:
    """out[j, a] = lookahead value of legal action a in game idx[j], -inf for illegal actions."""
    for j in prange(len(idx)):
        lookahead_values(states[idx[j]], out[j])
