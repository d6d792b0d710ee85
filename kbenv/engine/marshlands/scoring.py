"""End scoring of Marshlands: palaces and the six Kingdom Builder cards, as plain kernels over hex masks.

Every kernel reads bitmasks (kbenv.board.bitset; 7 words per mask) rather than the state, so that each one
can be checked on a hand-built board. `own` is one player's OWN mask (settlements and every piece that
counts as one, X-3); `owns` is an (players, 7) array of them. The amounts are catalogue.CARD_GOLD
(unverified, A-M11) and catalogue.PALACE_GOLD. `score_palaces` and `score_marsh_card` read a state for
kbenv.engine.scoring.score_table (the `palaces` column and the six cards).

- Palace (M-6, A-M1): each palace pays PALACE_GOLD to the player with the most OWN cells next to it; tied
  players each get it; nobody with at least one adjacent cell, nobody gets it.
- Geologists (M-19, A-M11 a): 2 per mountain area linked by an area of own settlements to another mountain
  area; each mountain area counts once. An own cell touches a mountain area when it stands on it or next to it.
- Messengers (M-20): 2 per hex of the shortest path between the two connected own settlements farthest
  apart, both ends included: 2 * (distance + 1), maximum over the pairs of one area; no two connected
  settlements, no gold.
- Noblewomen (M-21): each special hex (castle, location, nomad space) scored like a palace (majority of
  adjacent OWN cells, ties each, at least one); palaces are skipped ("Palaces are scored only once").
- Vassals (M-22, A-M11 a): 1 per own cell next to an inner section seam (board rows 9-10, columns 9-10).
- Captains (M-23): 1 per own cell with at least 3 own cells next to it.
- Scouts (M-24): 1 per own cell next to the terrain removed at set-up (M-16); a cell standing on that
  terrain does not count (as Fishermen and Miners ignore settlements standing on water and mountain).
- Palaces count as special hexes for Workers and Merchants (M-6, EN 1085): `special_with_palaces_into`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...board.bitset import NEIGHBOUR_MASK, WORDS, count_and, has, intersects, popcount, to_hex_list
from ...board.codes import MOUNTAIN, PALACE
from ...board.geometry import NUM_CELLS, STEP1
from ...board.marsh_tables import HEX_DISTANCE, SEAM_MASK, SEAM_OUTER_MASK, label_areas
from ...catalogue import CARD_GOLD, CARD_ID, PALACE_GOLD, RULE_BIT
from ..state import NUM_PLAYERS, OWN, REMOVED_TERRAIN, RULE_FLAGS, SPECIAL_MASK, TERRAIN_MASKS

GEOLOGISTS_GOLD = CARD_GOLD["geologists"]
MESSENGERS_GOLD = CARD_GOLD["messengers"]
NOBLEWOMEN_GOLD = CARD_GOLD["noblewomen"]
VASSALS_GOLD = CARD_GOLD["vassals"]
CAPTAINS_GOLD = CARD_GOLD["captains"]
SCOUTS_GOLD = CARD_GOLD["scouts"]
CAPTAINS_NEIGHBOURS = 3
GEOLOGISTS, MESSENGERS, NOBLEWOMEN, VASSALS, CAPTAINS, SCOUTS = (
    CARD_ID[n] for n in ("geologists", "messengers", "noblewomen", "vassals", "captains", "scouts"))
FIRST_MARSH_CARD = GEOLOGISTS
VASSALS_OUTER_EDGE = RULE_BIT["vassals_count_outer_edge"]


@njit(cache=True)
def majority_gold_into(hexes_mask, skip_mask, owns, num_players: int, gold: int, out) -> None:
    """out[p] += gold for each hex of hexes_mask (not in skip_mask) where p has the most OWN cells next to it,
    ties each, and at least one."""
    hexes = np.empty(NUM_CELLS, dtype=np.int64)
    n = to_hex_list(hexes_mask, hexes)
    counts = np.zeros(num_players, dtype=np.int64)
    for k in range(n):
        h = hexes[k]
        if has(skip_mask, h):
            continue
        best = 0
        for p in range(num_players):
            counts[p] = count_and(NEIGHBOUR_MASK[h], owns[p])
            if counts[p] > best:
                best = counts[p]
        if best == 0:
            continue
        for p in range(num_players):
            if counts[p] == best:
                out[p] += gold


@njit(cache=True)
def palace_gold_into(palace_mask, owns, num_players: int, out) -> None:
    """out[p] += PALACE_GOLD per palace where p has the most adjacent OWN cells (ties each, at least 1)."""
    none = np.zeros(WORDS, dtype=np.int64)
    majority_gold_into(palace_mask, none, owns, num_players, PALACE_GOLD, out)


@njit(cache=True)
def noblewomen_gold_into(special_mask, palace_mask, owns, num_players: int, out) -> None:
    """out[p] += NOBLEWOMEN_GOLD per special hex (palaces skipped) won like a palace."""
    majority_gold_into(special_mask, palace_mask, owns, num_players, NOBLEWOMEN_GOLD, out)


@njit(cache=True)
def geologists_gold(mountain_label, num_mountain_areas: int, own) -> int:
    """GEOLOGISTS_GOLD per mountain area linked by an area of own cells to another mountain area.

    mountain_label: label_areas of the board's mountain mask (-1 off the mountains)."""
    if num_mountain_areas < 2:
        return 0
    label = np.empty(NUM_CELLS, dtype=np.int64)
    n_areas = label_areas(own, label)
    touches = np.zeros((max(n_areas, 1), num_mountain_areas), dtype=np.bool_)
    hexes = np.empty(NUM_CELLS, dtype=np.int64)
    n = to_hex_list(own, hexes)
    for k in range(n):
        h = hexes[k]
        a = label[h]
        if mountain_label[h] >= 0:
            touches[a, mountain_label[h]] = True
        for d in range(6):
            nb = STEP1[h, d]
            if nb >= 0 and mountain_label[nb] >= 0:
                touches[a, mountain_label[nb]] = True
    scored = np.zeros(num_mountain_areas, dtype=np.bool_)
    for a in range(n_areas):
        linked = 0
        for m in range(num_mountain_areas):
            if touches[a, m]:
                linked += 1
        if linked >= 2:
            for m in range(num_mountain_areas):
                if touches[a, m]:
                    scored[m] = True
    return GEOLOGISTS_GOLD * int(scored.sum())


@njit(cache=True)
def messengers_gold(own) -> int:
    """MESSENGERS_GOLD * (distance + 1) of the two connected own cells farthest apart; 0 without such a pair."""
    label = np.empty(NUM_CELLS, dtype=np.int64)
    label_areas(own, label)
    hexes = np.empty(NUM_CELLS, dtype=np.int64)
    n = to_hex_list(own, hexes)
    best = -1
    for i in range(n):
        for j in range(i + 1, n):
            if label[hexes[i]] == label[hexes[j]]:
                d = np.int64(HEX_DISTANCE[hexes[i], hexes[j]])
                if d > best:
                    best = d
    return 0 if best < 0 else MESSENGERS_GOLD * (best + 1)


@njit(cache=True)
def vassals_gold(own) -> int:
    """VASSALS_GOLD per own cell next to an inner section seam (rows 9-10, columns 9-10)."""
    return VASSALS_GOLD * count_and(own, SEAM_MASK)


@njit(cache=True)
def captains_gold(own) -> int:
    """CAPTAINS_GOLD per own cell with at least 3 own cells next to it."""
    hexes = np.empty(NUM_CELLS, dtype=np.int64)
    n = to_hex_list(own, hexes)
    total = 0
    for k in range(n):
        if count_and(NEIGHBOUR_MASK[hexes[k]], own) >= CAPTAINS_NEIGHBOURS:
            total += 1
    return CAPTAINS_GOLD * total


@njit(cache=True)
def scouts_gold(removed_mask, own) -> int:
    """SCOUTS_GOLD per own cell with a neighbour of the removed terrain ("adjacent to (not on)": standing on
    that terrain does not count by itself; a cell on it that touches another hex of it does)."""
    if popcount(removed_mask) == 0:
        return 0
    hexes = np.empty(NUM_CELLS, dtype=np.int64)
    n = to_hex_list(own, hexes)
    total = 0
    for k in range(n):
        h = hexes[k]
        if intersects(NEIGHBOUR_MASK[h], removed_mask):
            total += 1
    return SCOUTS_GOLD * total


@njit(cache=True)
def special_with_palaces_into(dst, special_mask, palace_mask) -> None:
    """dst = special hexes plus palaces: the set Workers and Merchants read when Marshlands is in play (M-6)."""
    for i in range(WORDS):
        dst[i] = special_mask[i] | palace_mask[i]


# ----- wiring into the score table (kbenv.engine.scoring): read the state -----------------------------
@njit(cache=True)
def owns_of(st):
    """(players, 7) array of every player's OWN mask."""
    n = st[NUM_PLAYERS]
    owns = np.zeros((n, WORDS), dtype=np.int64)
    for p in range(n):
        for i in range(WORDS):
            owns[p, i] = st[OWN + p * WORDS + i]
    return owns


@njit(cache=True, inline="always")
def score_palaces(st, p: int) -> int:
    """The `palaces` column: PALACE_GOLD per palace p wins (M-6, A-M1)."""
    out = np.zeros(st[NUM_PLAYERS], dtype=np.int64)
    palace_gold_into(st[TERRAIN_MASKS + PALACE * WORDS : TERRAIN_MASKS + (PALACE + 1) * WORDS], owns_of(st),
                     st[NUM_PLAYERS], out)
    return out[p]


@njit(cache=True, inline="always")
def score_marsh_card(st, p: int, card: int) -> int:
    """Gold of one of the six Marshlands cards (M-19..M-24; unverified amounts, catalogue.CARD_GOLD)."""
    own = st[OWN + p * WORDS : OWN + (p + 1) * WORDS]
    if card == GEOLOGISTS:
        label = np.empty(NUM_CELLS, dtype=np.int64)
        mountains = label_areas(st[TERRAIN_MASKS + MOUNTAIN * WORDS : TERRAIN_MASKS + (MOUNTAIN + 1) * WORDS],
                                label)
        return geologists_gold(label, mountains, own)
    if card == MESSENGERS:
        return messengers_gold(own)
    if card == NOBLEWOMEN:
        out = np.zeros(st[NUM_PLAYERS], dtype=np.int64)
        palaces = st[TERRAIN_MASKS + PALACE * WORDS : TERRAIN_MASKS + (PALACE + 1) * WORDS]
        noblewomen_gold_into(st[SPECIAL_MASK : SPECIAL_MASK + WORDS], palaces, owns_of(st), st[NUM_PLAYERS], out)
        return out[p]
    if card == VASSALS:
        if st[RULE_FLAGS] & VASSALS_OUTER_EDGE:
            return VASSALS_GOLD * count_and(own, SEAM_OUTER_MASK)
        return vassals_gold(own)
    if card == CAPTAINS:
        return captains_gold(own)
    if card == SCOUTS:
        t = st[REMOVED_TERRAIN] - 1
        if t < 0:
            return 0
        return scouts_gold(st[TERRAIN_MASKS + t * WORDS : TERRAIN_MASKS + (t + 1) * WORDS], own)
    return 0
