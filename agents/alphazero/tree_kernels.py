"""Numba kernels of the compiled Gumbel search (agents.alphazero.compiled_search) over flat tree arrays.

The tree of game g lives in row g of preallocated arrays of shape (games, nodes, ...); node 0 is the
root and each simulation adds at most one node, so `nodes = simulations + 1`. Per node: its engine
state (`states`, a state pool), whether it is expanded and terminal, the legal actions in ascending
order with their logits and child indices (-1: not created yet), the visit count and summed value
vector of the edge into it (the Python search's `visits[a]` / `value_sum[a]` of its parent), the
rules' score now and the node's value (score + the network's predicted gain, or the final score).

A simulation is `select_leaves` (one leaf per searching game: the root's sequential-halving choice,
then the deterministic interior selection, creating the leaf's state with the engine and writing its
observation (float planes, or packed: kbenv.engine.packed) and legal mask into row j of the shared
buffers), one network call in Python on rows
0..n-1, then `expand_and_backup`. The arithmetic follows agents.alphazero.search operation for
operation, sums included (`psum` is numpy's pairwise summation), so both searches give the same
visit counts, actions and policy targets.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from kbenv.engine.actions import apply_unchecked
from kbenv.engine.legal import legal_mask_into
from kbenv.engine.observe import observe_into
from kbenv.engine.observe_v1 import observe_v1_into
from kbenv.engine.packed import pack_into
from kbenv.engine.scoring import SCORE_COLUMNS, score_table
from kbenv.engine.state import DECIDER, MAX_PLAYERS, NUM_PLAYERS, PHASE, PHASE_OVER

MARGIN_SCALE = 30.0  # as agents.alphazero.search
TINY = np.finfo(np.float64).tiny


@njit(cache=True)
def block_sum(a, lo: int, n: int) -> float:
    """numpy's pairwise sum of up to 128 float64 values: 8 running sums, or a plain loop below 8."""
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[lo + i]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = 8
    while i < n - (n % 8):
        r0 += a[lo + i]
        r1 += a[lo + i + 1]
        r2 += a[lo + i + 2]
        r3 += a[lo + i + 3]
        r4 += a[lo + i + 4]
        r5 += a[lo + i + 5]
        r6 += a[lo + i + 6]
        r7 += a[lo + i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return res


# numpy sums more than 128 values by splitting them in two halves (the first a multiple of 8) and
# recursing; numba's cache does not keep recursive functions safely, so the levels are written out.
@njit(cache=True)
def _sum256(a, lo: int, n: int) -> float:
    if n <= 128:
        return block_sum(a, lo, n)
    half = n // 2
    half -= half % 8
    return block_sum(a, lo, half) + block_sum(a, lo + half, n - half)


@njit(cache=True)
def _sum512(a, lo: int, n: int) -> float:
    if n <= 128:
        return block_sum(a, lo, n)
    half = n // 2
    half -= half % 8
    return _sum256(a, lo, half) + _sum256(a, lo + half, n - half)


@njit(cache=True)
def _sum1024(a, lo: int, n: int) -> float:
    if n <= 128:
        return block_sum(a, lo, n)
    half = n // 2
    half -= half % 8
    return _sum512(a, lo, half) + _sum512(a, lo + half, n - half)


@njit(cache=True)
def psum(a, lo: int, n: int) -> float:
    """sum(a[lo:lo + n]) exactly as numpy adds a contiguous float64 array (pairwise, blocks of 8); exact up to
    2048 values, more than any action space."""
    if n <= 128:
        return block_sum(a, lo, n)
    half = n // 2
    half -= half % 8
    return _sum1024(a, lo, half) + _sum1024(a, lo + half, n - half)


@njit(cache=True)
def softmax_into(x, n: int, out) -> None:
    """out[:n] = softmax(x[:n]) (max subtracted, divided by the pairwise sum)."""
    m = x[0]
    for k in range(1, n):
        if x[k] > m:
            m = x[k]
    for k in range(n):
        out[k] = math.exp(x[k] - m)
    s = psum(out, 0, n)
    for k in range(n):
        out[k] = out[k] / s


@njit(cache=True)
def score_into(st, out, table) -> None:
    """out[p] = seat p's gold margin over the best other player if the game ended now, /30."""
    table[:] = 0
    score_table(st, table)
    n = st[NUM_PLAYERS]
    out[:] = 0.0
    for p in range(n):
        best = -(2**62)
        for q in range(n):
            if q != p and table[q, SCORE_COLUMNS - 1] > best:
                best = table[q, SCORE_COLUMNS - 1]
        out[p] = float(table[p, SCORE_COLUMNS - 1] - best) / MARGIN_SCALE


@njit(cache=True)
def write_leaf(st, v1: bool, packed: bool, obs, bits, values, j: int, mask_row) -> None:
    """The decider's observation (row j of obs, or packed: of bits and values, kbenv.engine.packed) and legal
    mask of a state (all-False mask once the game is over)."""
    player = st[DECIDER]
    if packed:
        pack_into(st, player, bits[j], values[j], v1, 0)
    elif v1:
        observe_v1_into(st, player, obs[j])
    else:
        observe_into(st, player, obs[j])
    mask_row[:] = 0
    if st[PHASE] != PHASE_OVER:
        legal_mask_into(st, mask_row)


@njit(cache=True)
def edge_visits(g: int, node: int, k: int, child, visits) -> int:
    c = child[g, node, k]
    return visits[g, c] if c >= 0 else 0


@njit(cache=True)
def boosted_into(g: int, node: int, states, n_actions, logits, child, visits, value_sum, value,
                 c_visit: float, c_scale: float, min_spread: float, q, prior, prod, pri, out) -> None:
    """out[:n] = logits + sigma(completed q) of a node (GumbelSearch.boosted_logits)."""
    n = n_actions[g, node]
    player = states[g, node, DECIDER]
    own = value[g, node, player]
    total = 0
    most = 0
    for k in range(n):
        v = edge_visits(g, node, k, child, visits)
        total += v
        if v > most:
            most = v
    if total == 0:
        for k in range(n):
            q[k] = own
    else:
        softmax_into(logits[g, node], n, prior)
        m = 0
        for k in range(n):
            v = edge_visits(g, node, k, child, visits)
            if v > 0:
                p = prior[k] if prior[k] > TINY else TINY
                q[k] = value_sum[g, child[g, node, k], player] / v
                prod[m] = p * q[k]
                pri[m] = p
                m += 1
        mixed = (own + total * psum(prod, 0, m) / psum(pri, 0, m)) / (1 + total)
        for k in range(n):
            if edge_visits(g, node, k, child, visits) == 0:
                q[k] = mixed
    lo = q[0]
    hi = q[0]
    for k in range(1, n):
        lo = min(lo, q[k])
        hi = max(hi, q[k])
    scale = (c_visit + most) * c_scale
    span = max(hi - lo, min_spread)
    for k in range(n):
        scaled = (q[k] - lo) / span if span > 0 else 0.0
        out[k] = logits[g, node, k] + scale * scaled


@njit(cache=True)
def init_roots(roots, states, n_nodes, expanded, terminal, visits, value_sum, score, obs, bits, values, masks,
               v1: bool, packed: bool) -> None:
    """Node 0 of each game: the root state, its score; its observation and mask go to row g."""
    table = np.zeros((MAX_PLAYERS, SCORE_COLUMNS), dtype=np.int64)
    for g in range(len(roots)):
        states[g, 0] = roots[g]
        n_nodes[g] = 1
        visits[g, 0] = 0
        value_sum[g, 0] = 0.0
        score_into(states[g, 0], score[g, 0], table)
        terminal[g, 0] = states[g, 0, PHASE] == PHASE_OVER
        expanded[g, 0] = False
        write_leaf(states[g, 0], v1, packed, obs, bits, values, g, masks[g])


@njit(cache=True)
def new_child(g: int, node: int, k: int, states, n_nodes, n_actions, actions, child, visits, value_sum, value,
              score, expanded, terminal, table) -> int:
    """The child of edge k (created with the engine the first time); a terminal child's value is its score."""
    c = child[g, node, k]
    if c >= 0:
        return c
    c = n_nodes[g]
    n_nodes[g] += 1
    st = states[g, c]
    st[:] = states[g, node]
    apply_unchecked(st, actions[g, node, k])
    child[g, node, k] = c
    visits[g, c] = 0
    value_sum[g, c] = 0.0
    n_actions[g, c] = 0
    score_into(st, score[g, c], table)
    over = st[PHASE] == PHASE_OVER
    terminal[g, c] = over
    expanded[g, c] = over
    if over:
        value[g, c] = score[g, c]
    return c


@njit(cache=True)
def select_leaves(sim: int, searching, schedule, gumbel, states, n_nodes, n_actions, actions, logits, child, visits,
                  value_sum, value, score, expanded, terminal, path, path_len, rows, obs, bits, values, masks, v1: bool,
                  packed: bool, c_visit: float, c_scale: float, min_spread: float) -> int:
    """One leaf per searching game; the new non-terminal leaves' observations (packed or not) and masks go to
    rows 0..n-1 of obs (or bits and values) and masks (rows[j] = their game). Returns n."""
    width = logits.shape[2]
    q = np.empty(width)
    prior = np.empty(width)
    prod = np.empty(width)
    pri = np.empty(width)
    boosted = np.empty(width)
    pi = np.empty(width)
    table = np.zeros((MAX_PLAYERS, SCORE_COLUMNS), dtype=np.int64)
    fresh = 0
    for g in range(len(searching)):
        if not searching[g]:
            continue
        boosted_into(g, 0, states, n_actions, logits, child, visits, value_sum, value, c_visit, c_scale, min_spread,
                     q, prior, prod, pri, boosted)
        considered = schedule[g, sim]
        best = -np.inf
        a = 0
        for k in range(n_actions[g, 0]):
            if edge_visits(g, 0, k, child, visits) == considered:
                s = gumbel[g, k] + boosted[k]
                if s > best:
                    best = s
                    a = k
        node = new_child(g, 0, a, states, n_nodes, n_actions, actions, child, visits, value_sum, value, score,
                         expanded, terminal, table)
        depth = 0
        path[g, depth] = node
        depth += 1
        while expanded[g, node] and not terminal[g, node]:
            boosted_into(g, node, states, n_actions, logits, child, visits, value_sum, value, c_visit, c_scale,
                         min_spread, q, prior, prod, pri, boosted)
            n = n_actions[g, node]
            softmax_into(boosted, n, pi)
            total = 0
            for k in range(n):
                total += edge_visits(g, node, k, child, visits)
            best = -np.inf
            a = 0
            for k in range(n):
                s = pi[k] - edge_visits(g, node, k, child, visits) / (1 + total)
                if s > best:
                    best = s
                    a = k
            node = new_child(g, node, a, states, n_nodes, n_actions, actions, child, visits, value_sum, value,
                             score, expanded, terminal, table)
            path[g, depth] = node
            depth += 1
        path_len[g] = depth
        if not expanded[g, node]:
            write_leaf(states[g, node], v1, packed, obs, bits, values, fresh, masks[fresh])
            rows[fresh] = g
            fresh += 1
    return fresh


@njit(cache=True)
def expand(n: int, rows, at_root: bool, masks, net_logits, net_values, states, path, path_len, n_actions, actions,
           logits, child, value, score, expanded) -> None:
    """Expand the leaf of each game rows[j] (the root if at_root) with row j of the network's output:
    legal actions and their logits, value = score now + the predicted gain (observer-relative -> seats)."""
    size = masks.shape[1]
    for j in range(n):
        g = rows[j]
        node = 0 if at_root else path[g, path_len[g] - 1]
        m = 0
        for a in range(size):
            if masks[j, a]:
                actions[g, node, m] = a
                logits[g, node, m] = np.float64(net_logits[j, a])
                child[g, node, m] = -1
                m += 1
        n_actions[g, node] = m
        players = states[g, node, NUM_PLAYERS]
        observer = states[g, node, DECIDER]
        for p in range(players):
            value[g, node, p] = score[g, node, p] + np.float64(net_values[j, (p - observer) % players])
        expanded[g, node] = True


@njit(cache=True)
def backup(searching, states, path, path_len, visits, value_sum, value) -> None:
    """Add the leaf's value to every edge on its path (the edge into each node below the root)."""
    for g in range(len(searching)):
        if not searching[g]:
            continue
        leaf = path[g, path_len[g] - 1]
        players = states[g, 0, NUM_PLAYERS]
        for i in range(path_len[g]):
            node = path[g, i]
            visits[g, node] += 1
            for p in range(players):
                value_sum[g, node, p] += value[g, leaf, p]


@njit(cache=True)
def expand_and_backup(n: int, rows, masks, net_logits, net_values, searching, states, path, path_len, n_actions,
                      actions, logits, child, visits, value_sum, value, score, expanded) -> None:
    """The end of a simulation: expand the new leaves, then back every game's leaf value up."""
    expand(n, rows, False, masks, net_logits, net_values, states, path, path_len, n_actions, actions, logits, child,
           value, score, expanded)
    backup(searching, states, path, path_len, visits, value_sum, value)


@njit(cache=True)
def root_results(games: int, gumbel, states, n_actions, actions, logits, child, visits, value_sum, value,
                 c_visit: float, c_scale: float, min_spread: float, policy, chosen, root_value, root_visits) -> None:
    """Per game: the improved policy pi' over the action space, the chosen action (the most visited
    actions' best gumbel + boosted logit), the searched root value and the root edges' visits."""
    width = logits.shape[2]
    q = np.empty(width)
    prior = np.empty(width)
    prod = np.empty(width)
    pri = np.empty(width)
    boosted = np.empty(width)
    pi = np.empty(width)
    for g in range(games):
        n = n_actions[g, 0]
        players = states[g, 0, NUM_PLAYERS]
        policy[g] = 0.0
        root_visits[g] = 0
        if n == 1:
            policy[g, actions[g, 0, 0]] = 1.0
            chosen[g] = actions[g, 0, 0]
            root_value[g] = value[g, 0]
            continue
        boosted_into(g, 0, states, n_actions, logits, child, visits, value_sum, value, c_visit, c_scale, min_spread,
                     q, prior, prod, pri, boosted)
        softmax_into(boosted, n, pi)
        most = 0
        total = 0
        for k in range(n):
            policy[g, actions[g, 0, k]] = pi[k]
            v = edge_visits(g, 0, k, child, visits)
            root_visits[g, k] = v
            total += v
            most = max(most, v)
        best = -np.inf
        a = 0
        for k in range(n):
            if root_visits[g, k] == most:
                s = gumbel[g, k] + boosted[k]
                if s > best:
                    best = s
                    a = k
        chosen[g] = actions[g, 0, a]
        for p in range(players):
            acc = 0.0
            for k in range(n):
                c = child[g, 0, k]
                acc += value_sum[g, c, p] if c >= 0 else 0.0
            root_value[g, p] = (value[g, 0, p] + acc) / (1 + total)
