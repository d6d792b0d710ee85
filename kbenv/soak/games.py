"""Random games checked at every decision, many at once (the soak's kernel).

Game g of a call starts from seeds[g] with players[g] players and the ruleset in `forced` (the batch engine's
set-up, kbenv.vector.forced_options), as `Game.new(players, seed=seed, expansions=..., rules=...)` does. Its
decisions are uniformly random legal ones from the generator `seed_u32(seed * 7919 + 17)` (the stream of
`VectorGames.random_actions` for that seed). Before each decision the legal mask is checked against the engine
(the chosen action is accepted, one random action id is accepted exactly when the mask has it); after each,
kbenv.soak.invariants.first_violation; at the end, the score totals. A game stops at its first violation.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..catalogue import ACTION_SIZE_V1
from ..engine.actions import apply_unchecked
from ..engine.batch import start_game
from ..engine.island.rules import ISLAND_TILE_BIT
from ..engine.legal import is_legal, legal_mask_into
from ..engine.rng import rand_below, seed_u32
from ..engine.state import LOC_TILES, MAX_LOCATIONS, PHASE, PHASE_OVER, STATE_SIZE
from ..parallel import twin_kernels
from ..policies.playout import random_legal_action
from .invariants import DECISIONS, ENDS, NUM_CARD_IDS, OK, card_counts_into, first_violation, totals_violation

assert ISLAND_TILE_BIT == MAX_LOCATIONS  # last_tiles keeps the island's tiles after the board's locations


@njit(cache=True)
def action_stream(seed: int) -> np.ndarray:
    """The two generators of a soaked game: [0] picks the decisions (VectorGames' stream for the seed), [1] the
    action ids tried against the mask."""
    rng = np.empty(2, dtype=np.int64)
    rng[0] = seed_u32(seed * 7919 + 17)
    rng[1] = seed_u32(seed * 104729 + 3)
    return rng


@njit(cache=True)
def soak_game(st, players: int, seed: int, forced, max_decisions: int, actions) -> tuple[int, int]:
    """Play one checked random game in st; (violation code, decisions played). actions (len >= 1): the decisions
    taken are written there while they fit (a game of interest is played again with room for all)."""
    start_game(st, players, seed, forced)
    rng = action_stream(seed)
    start_cards = np.zeros(NUM_CARD_IDS, dtype=np.int64)
    counts = np.zeros(NUM_CARD_IDS, dtype=np.int64)
    card_counts_into(st, start_cards)
    last_tiles = np.full(MAX_LOCATIONS + 1, 2, dtype=np.int64)
    for i in range(MAX_LOCATIONS):
        last_tiles[i] = st[LOC_TILES + i]
    mask = np.zeros(ACTION_SIZE_V1, dtype=np.int8)
    code = first_violation(st, start_cards, last_tiles, counts)
    n = 0
    while code == OK and st[PHASE] != PHASE_OVER:
        if n >= max_decisions:
            return ENDS, n
        legal_mask_into(st, mask)
        a = random_legal_action(st, rng, 0)
        if a < 0 or mask[a] == 0 or not is_legal(st, a):
            return DECISIONS, n
        b = rand_below(rng, 1, ACTION_SIZE_V1)
        if is_legal(st, b) != (mask[b] == 1):
            return DECISIONS, n
        if n < len(actions):
            actions[n] = a
        apply_unchecked(st, a)
        n += 1
        code = first_violation(st, start_cards, last_tiles, counts)
    if code == OK:
        legal_mask_into(st, mask)
        if mask.sum() != 0:
            return DECISIONS, n
        code = totals_violation(st)
    return code, n


@twin_kernels(min_rows=2, rows_arg=0)
def soak_games(seeds, players, forced, max_decisions: int, codes, decisions) -> None:
    """Soak one game per entry of seeds (players[g] players each): codes[g] = its first violation (0: none),
    decisions[g] = decisions played (up to the violation)."""
    for g in prange(len(seeds)):
        st = np.zeros(STATE_SIZE, dtype=np.int64)
        no_record = np.zeros(1, dtype=np.int64)
        code, n = soak_game(st, players[g], seeds[g], forced, max_decisions, no_record)
        codes[g] = code
        decisions[g] = n
