"""Final scoring: the ten Kingdom Builder cards and castles, one function per card; the cards of the
expansions in kbenv.engine.marshlands.scoring (Marshlands) and kbenv.engine.harvest.scoring (Harvest).

Hex lists are sized for every hex id (NUM_CELLS: the board and the island), so no board or settlement count can
overflow them. The island's readings (QI-2, A-QI1, A-QI2) are in kbenv.engine.island.rules, behind the island bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board.bitset import (
    NEIGHBOUR_MASK,
    ROW_MASK,
    SECTOR_MASK,
    WORDS,
    count_and,
    has,
    intersects,
    label_areas,
    popcount,
    to_hex_list,
)
from ..board.codes import (
    CASTLE,
    CITIZENS,
    DISCOVERERS,
    FARMERS,
    FISHERMEN,
    HERMITS,
    KNIGHTS,
    LORDS,
    MERCHANTS,
    MINERS,
    MOUNTAIN,
    WATER,
    WORKERS,
)
from ..board.geometry import NUM_CELLS, STEP1
from ..catalogue import RULE_BIT
from .board_ops import own_view
from .dispatch import facts, flow
from .powers import terrain_view
from .state import (
    CAPITOL_HEX,
    CARDS,
    EXPANSIONS,
    GOLD,
    LORDS_COUNT_ZERO,
    MAX_PLAYERS,
    NUM_CAPITOLS,
    NUM_CARDS_IN_PLAY,
    NUM_PLAYERS,
    RULE_FLAGS,
    SPECIAL_MASK,
)

CAPITOL_REPLACES_CASTLE = RULE_BIT["capitol_replaces_castle"]

# Columns of a score table row: the three cards in play, castles, capitols, gold banked during play,
# Crossroads task cards, Marshlands palaces, total.
COL_CASTLES = NUM_CARDS_IN_PLAY
COL_CAPITOLS = NUM_CARDS_IN_PLAY + 1
COL_GOLD = NUM_CARDS_IN_PLAY + 2
COL_TASKS = NUM_CARDS_IN_PLAY + 3
COL_PALACES = NUM_CARDS_IN_PLAY + 4
SCORE_COLUMNS = NUM_CARDS_IN_PLAY + 6
CASTLE_GOLD = 3


@njit(cache=True)
def settlements_touching(st, p: int, terrain_mask, exclude_standing_on) -> int:
    """Settlements of p next to at least one hex of terrain_mask (those standing on it excluded)."""
    own = own_view(st, p)
    hexes = np.empty(NUM_CELLS, dtype=np.int64)
    n = to_hex_list(own, hexes)
    total = 0
    for k in range(n):
        h = hexes[k]
        if exclude_standing_on and has(terrain_mask, h):
            continue
        if intersects(NEIGHBOUR_MASK[h], terrain_mask):
            total += 1
    return total


@njit(cache=True)
def areas(st, p: int, label) -> int:
    """Label each of p's settlements with its area (connected group); return the number of areas.

    label[h] = area index for hexes with a settlement of p, -1 elsewhere.
    """
    return label_areas(own_view(st, p), label)


@njit(cache=True, inline="always")
def score_merchants(st, p: int) -> int:
    """4 gold per castle/location hex linked by a chain of p's settlements to another one."""
    label = np.empty(NUM_CELLS, dtype=np.int64)
    areas(st, p, label)
    special = st[SPECIAL_MASK : SPECIAL_MASK + WORDS]
    specials = np.empty(NUM_CELLS, dtype=np.int64)
    n_special = to_hex_list(special, specials)
    scored = 0
    for k in range(n_special):
        s = specials[k]
        linked = False
        # s counts if one area touching s also touches another special hex.
        for d in range(6):
            nb = STEP1[s, d]
            if nb < 0 or label[nb] < 0:
                continue
            a = label[nb]
            for j in range(n_special):
                if j == k or linked:
                    continue
                t = specials[j]
                for e in range(6):
                    nb2 = STEP1[t, e]
                    if nb2 >= 0 and label[nb2] == a:
                        linked = True
                        break
            if linked:
                break
        if linked:
            scored += 1
    return 4 * scored


@njit(cache=True, inline="always")
def score_hermits(st, p: int) -> int:
    label = np.empty(NUM_CELLS, dtype=np.int64)
    return areas(st, p, label)


@njit(cache=True, inline="always")
def score_citizens(st, p: int) -> int:
    label = np.empty(NUM_CELLS, dtype=np.int64)
    n_areas = areas(st, p, label)
    sizes = np.zeros(max(n_areas, 1), dtype=np.int64)
    for h in range(facts.hexes_in_play(st)):
        if label[h] >= 0:
            sizes[label[h]] += 1
    return sizes.max() // 2


@njit(cache=True, inline="always")
def score_discoverers(st, p: int) -> int:
    own = own_view(st, p)
    total = 0
    for r in range(20):
        if intersects(own, ROW_MASK[r]):
            total += 1
    if st[EXPANSIONS] != 0:
        total += flow.extra_lines(st, p)  # (the island's lines: up to 5 more, QI-2)
    return total


@njit(cache=True, inline="always")
def score_knights(st, p: int) -> int:
    own = own_view(st, p)
    best = 0
    for r in range(20):
        best = max(best, count_and(own, ROW_MASK[r]))
    if st[EXPANSIONS] != 0:
        best = max(best, flow.extra_best_line(st, p))  # (an island line may be chosen, QI-2, A-QI1)
    return 2 * best


@njit(cache=True, inline="always")
def score_farmers(st, p: int) -> int:
    own = own_view(st, p)
    weakest = 1 << 30
    for q in range(4):
        weakest = min(weakest, count_and(own, SECTOR_MASK[q]))
    return 3 * weakest


@njit(cache=True, inline="always")
def score_lords(st, p: int) -> int:
    """Per sector: 12 gold to the most settlements, 6 to the second-most distinct count (ties share)."""
    n = st[NUM_PLAYERS]
    count_zero = st[LORDS_COUNT_ZERO] == 1
    total = 0
    for q in range(4):
        counts = np.empty(MAX_PLAYERS, dtype=np.int64)
        for i in range(n):
            counts[i] = count_and(own_view(st, i), SECTOR_MASK[q])
        mine = counts[p]
        if mine == 0 and not count_zero:
            continue
        # Rank among the distinct counts that compete: how many distinct counts beat mine.
        higher = np.empty(MAX_PLAYERS, dtype=np.int64)
        n_higher = 0
        for i in range(n):
            c = counts[i]
            if c > mine:
                seen = False
                for j in range(n_higher):
                    if higher[j] == c:
                        seen = True
                if not seen:
                    higher[n_higher] = c
                    n_higher += 1
        if n_higher == 0:
            total += 12
        elif n_higher == 1:
            total += 6
    return total


@njit(cache=True)
def score_castles(st, p: int) -> int:
    castles = terrain_view(st, CASTLE)
    hexes = np.empty(NUM_CELLS, dtype=np.int64)
    n = to_hex_list(castles, hexes)
    own = own_view(st, p)
    replaced = st[RULE_FLAGS] & CAPITOL_REPLACES_CASTLE != 0
    total = 0
    for k in range(n):
        if intersects(NEIGHBOUR_MASK[hexes[k]], own) and not (replaced and holds_capitol(st, hexes[k])):
            total += CASTLE_GOLD
    return total


@njit(cache=True, inline="always")
def holds_capitol(st, h: int) -> bool:
    for k in range(st[NUM_CAPITOLS]):
        if st[CAPITOL_HEX + k] == h:
            return True
    return False


@njit(cache=True)
def score_card(st, p: int, card: int) -> int:
    if card == FISHERMEN:
        if st[EXPANSIONS] != 0 and facts.has_off_board_hexes(st):
            return flow.off_board_fishermen(st, p)  # (the island's coast, A-QI2)
        return settlements_touching(st, p, terrain_view(st, WATER), True)
    if card == MINERS:
        return settlements_touching(st, p, terrain_view(st, MOUNTAIN), True)
    if card == WORKERS:
        return settlements_touching(st, p, st[SPECIAL_MASK : SPECIAL_MASK + WORDS], False)
    if card == MERCHANTS:
        return score_merchants(st, p)
    if card == DISCOVERERS:
        return score_discoverers(st, p)
    if card == HERMITS:
        return score_hermits(st, p)
    if card == CITIZENS:
        return score_citizens(st, p)
    if card == KNIGHTS:
        return score_knights(st, p)
    if card == LORDS:
        return score_lords(st, p)
    if card == FARMERS:
        return score_farmers(st, p)
    return flow.expansion_card(st, p, card)


@njit(cache=True)
def score_table(st, out) -> None:
    """out[p] = (card 1, card 2, card 3, castles, capitols, gold banked during play, tasks, palaces, total) per
    player.

    Red cards (Nomads) pay during play only: their column is 0 and their gold is in the banked column."""
    for p in range(st[NUM_PLAYERS]):
        total = 0
        for k in range(NUM_CARDS_IN_PLAY):
            out[p, k] = score_card(st, p, st[CARDS + k])
            total += out[p, k]
        out[p, COL_CASTLES] = score_castles(st, p)
        out[p, COL_CAPITOLS] = flow.capitols(st, p)
        out[p, COL_GOLD] = st[GOLD + p]
        out[p, COL_TASKS] = flow.tasks(st, p)
        out[p, COL_PALACES] = flow.palaces(st, p) if st[EXPANSIONS] != 0 else 0
        out[p, SCORE_COLUMNS - 1] = (total + out[p, COL_CASTLES] + out[p, COL_CAPITOLS] + out[p, COL_GOLD]
                                     + out[p, COL_TASKS] + out[p, COL_PALACES])


@njit(cache=True)
def totals(st, out) -> None:
    """out[p] = total gold of each player (no breakdown)."""
    table = np.zeros((MAX_PLAYERS, SCORE_COLUMNS), dtype=np.int64)
    score_table(st, table)
    for p in range(st[NUM_PLAYERS]):
        out[p] = table[p, SCORE_COLUMNS - 1]


__all__ = ["score_table", "totals", "score_card", "popcount"]
