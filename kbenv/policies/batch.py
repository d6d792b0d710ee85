"""Built-in policies over a batch of games (kbenv.engine.batch has the rules kernels): random, greedy and
lookahead decisions, their value tables (imitation teachers), the fused random step, and observations
with hint planes. Each kernel is compiled as parallel and serial twins (kbenv.parallel.twin_kernels);
`min_rows` as in kbenv.engine.batch.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..engine.actions import apply_unchecked
from ..engine.batch import start_game
from ..engine.observe import observe_into
from ..engine.packed import pack_into
from ..engine.scoring import SCORE_COLUMNS, score_table
from ..engine.state import DECIDER, MAX_PLAYERS, PHASE, PHASE_OVER
from ..parallel import twin_kernels
from ..rewards import terminal_rewards_into
from .greedy import greedy_action, greedy_values
from .hints import hints_into
from .lookahead import lookahead_action, lookahead_values
from .playout import random_legal_action


def random_step_min_rows(args) -> int:
    """random_steps: 0.4 us a row, 3 us with the float observation (args[13]), about 0.7 packed (args[15])."""
    return (64 if args[15] else 16) if args[13] else 128


def random_step_kind(args) -> tuple[bool, bool]:
    """random_steps' mode for the twin chooser: (observations written, packed)."""
    return bool(args[13]), bool(args[15])


def observation_kind(args) -> int:
    """observations' mode for the twin chooser: the hint kind (hint planes cost 20 times more a row)."""
    return int(args[4])


def observation_min_rows(args) -> int:
    """observations: 2.6 us a row, 50 or more with hint planes (args[4])."""
    return 2 if args[4] else 8


@twin_kernels(min_rows=observation_min_rows, kind=observation_kind)
def observations(states, idx, players, out, hint_kind: int) -> None:
    """out[j] = observation of players[j] in game idx[j] (with hint planes unless hint_kind is 0)."""
    for j in prange(len(idx)):
        observe_into(states[idx[j]], players[j], out[j])
        hints_into(states[idx[j]], players[j], out[j], hint_kind)


@twin_kernels(min_rows=32)
def packed_observations(states, idx, players, bits_out, values_out, v1: bool, hint_kind: int) -> None:
    """Packed observations (kbenv.engine.packed) of players[j] in game idx[j]: v1, v0 with hints, or v0."""
    for j in prange(len(idx)):
        pack_into(states[idx[j]], players[j], bits_out[j], values_out[j], v1, hint_kind)


@twin_kernels(min_rows=256)
def random_actions(states, idx, rng_state, out) -> None:
    """Uniformly random legal actions; rng_state has one generator per batch row."""
    for j in prange(len(idx)):
        out[j] = random_legal_action(states[idx[j]], rng_state, idx[j])


@twin_kernels(min_rows=8)
def greedy_actions(states, idx, rng_state, out) -> None:
    for j in prange(len(idx)):
        out[j] = greedy_action(states[idx[j]], rng_state, idx[j])


@twin_kernels(min_rows=random_step_min_rows, kind=random_step_kind)
def random_steps(states, idx, rng_state, num_players, seeds, seed_stride: int, forced, auto_reset: bool,
                 reward_scheme: int, actions_out, done_out, totals_out, rewards_out,
                 observe: bool, obs_out, packed: bool, bits_out, values_out, v1: bool) -> None:
    """One fused step of random play: pick a legal action, apply it, score and reward finished games,
    restart them (seed + seed_stride), and optionally write the next observation of the player to move:
    the float v0 planes into obs_out, or (packed) the packed v0 or v1 observation into bits_out and
    values_out (kbenv.engine.packed)."""
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
                start_game(st, num_players[i], seeds[i], forced)
        if observe:
            if packed:
                pack_into(st, st[DECIDER], bits_out[j], values_out[j], v1, 0)
            else:
                observe_into(st, st[DECIDER], obs_out[j])


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
