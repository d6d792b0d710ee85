"""The six Harvest Kingdom Builder cards (H-14..H-19) as kernels over hex masks, and the two of them that act
during play: Mayors marks (H-15, A-H7) and Rovers gold (H-19, A-H8).

`own` is one player's OWN mask: settlements and every piece that counts as one (X-3: warriors, wagon, ship,
city hall cells); scouts are a mask of their own and never in OWN, so no card counts them (H-9). The amounts
per counted item are catalogue.CARD_GOLD (A-H9, decision 6: Travellers, Homesteaders, Rangers and Chainers
are unverified; Mayors' 4 per mark is the rule text, EN 1377).

- Travellers (H-14): CARD_GOLD per own cell on the edge of the whole board (rows 0 and 19, columns 0 and 19);
  a corner counts once, the seams between sections are no edge (EN 1371).
- Mayors (H-15): CARD_GOLD per row marked for the player (MAYOR_LINES), however many settlements the row
  holds at the end (the mark is permanent, EN 1377).
- Homesteaders (H-16): CARD_GOLD per own cell in the section (quadrant) where the player has the most.
- Rangers (H-17): CARD_GOLD per row with exactly one own cell.
- Chainers (H-18): CARD_GOLD per own cell next to exactly 2 own cells.
- Rovers (H-19): nothing at the end (EN 1395 "not scored during final scoring"): its gold is banked during
  play into GOLD, in the `gold` column.

During play (called only in Harvest games, `st[EXPANSIONS] & HARVEST`):
- `mark_mayor_row` after every placement or move of one of p's pieces (kbenv.engine.board_ops,
  kbenv.engine.crossroads.rules): the row of the hex is marked for p if it is unmarked, holds at least 4 of p's
  OWN cells (A-H7 a; with the flag `mayors_contiguous`, 4 next to each other, A-H7 b) and p's supply is not
  empty; the mark takes one settlement from the supply (A-H7: it counts for the end trigger).
- `rovers_built` after each new settlement of the turn owner in the turn's flow (mandatory action, powers,
  the farm action; kbenv.engine.actions through kbenv.engine.harvest.hooks): the section's bit of
  ROVER_SECTIONS. Moves, meeple placement, scouts, reactions in another player's turn and silo builds never
  reach it (A-H8). `bank_rovers` at the end of the turn adds the number of sections to GOLD.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...board.bitset import (
    EDGE_MASK,
    ISLAND_ROW_MASK,
    NEIGHBOUR_MASK,
    ROW_MASK,
    SECTOR_MASK,
    WORDS,
    count_and,
    has,
    to_hex_list,
)
from ...board.geometry import COLS, NUM_CELLS, NUM_HEXES, ROWS, SECTOR_OF
from ...catalogue import CARD_GOLD, CARD_ID, RULE_BIT, SCORING_CARDS
from ..island.rules import EXP_ISLAND, mark_island_row
from ..nomads.hooks import card_in_play
from ..state import CURRENT, EXPANSIONS, GOLD, ISLAND_MAYOR_LINES, MAYOR_LINES, OWN, ROVER_SECTIONS, RULE_FLAGS, SUPPLY

HARVEST_CARDS = ("mayors", "rangers", "chainers", "travellers", "homesteaders", "rovers")
MAYORS, RANGERS, CHAINERS, TRAVELLERS, HOMESTEADERS, ROVERS = (CARD_ID[n] for n in HARVEST_CARDS)
FIRST_HARVEST_CARD = MAYORS
assert tuple(c.name for c in SCORING_CARDS if c.expansion == "harvest") == HARVEST_CARDS
assert (RANGERS, CHAINERS, TRAVELLERS, HOMESTEADERS, ROVERS) == tuple(range(MAYORS + 1, MAYORS + 6))
assert ROVERS == len(SCORING_CARDS) - 1, "the Harvest cards are the last rows"
MAYORS_GOLD = CARD_GOLD["mayors"]
RANGERS_GOLD = CARD_GOLD["rangers"]
CHAINERS_GOLD = CARD_GOLD["chainers"]
TRAVELLERS_GOLD = CARD_GOLD["travellers"]
HOMESTEADERS_GOLD = CARD_GOLD["homesteaders"]
MAYORS_LINE = 4  # EN 1375: "at least four of their settlements ... in a horizontal line"
CHAINERS_NEIGHBOURS = 2
MAYORS_CONTIGUOUS = RULE_BIT["mayors_contiguous"]


# ----- end scoring: plain kernels over one player's OWN mask -------------------------------------------------
@njit(cache=True, inline="always")
def travellers_gold(own) -> int:
    """TRAVELLERS_GOLD per own cell on the edge of the board (a corner once)."""
    return TRAVELLERS_GOLD * count_and(own, EDGE_MASK)


@njit(cache=True, inline="always")
def homesteaders_gold(own) -> int:
    """HOMESTEADERS_GOLD per own cell of the section where p has the most (ties: the same count)."""
    best = 0
    for q in range(4):
        best = max(best, count_and(own, SECTOR_MASK[q]))
    return HOMESTEADERS_GOLD * best


@njit(cache=True, inline="always")
def rangers_gold(own) -> int:
    """RANGERS_GOLD per row with exactly one own cell."""
    rows = 0
    for r in range(ROWS):
        if count_and(own, ROW_MASK[r]) == 1:
            rows += 1
    for r in range(len(ISLAND_ROW_MASK)):  # the island's lines are lines of their own (A-QI4); empty without it
        if count_and(own, ISLAND_ROW_MASK[r]) == 1:
            rows += 1
    return RANGERS_GOLD * rows


@njit(cache=True, inline="always")
def chainers_gold(own) -> int:
    """CHAINERS_GOLD per own cell next to exactly 2 own cells."""
    hexes = np.empty(NUM_CELLS, dtype=np.int64)
    n = to_hex_list(own, hexes)
    total = 0
    for k in range(n):
        if count_and(NEIGHBOUR_MASK[hexes[k]], own) == CHAINERS_NEIGHBOURS:
            total += 1
    return CHAINERS_GOLD * total


@njit(cache=True, inline="always")
def mayors_gold(st, p: int) -> int:
    """MAYORS_GOLD per row marked for p."""
    marks = 0
    for r in range(ROWS):
        if st[MAYOR_LINES + r] == p + 1:
            marks += 1
    if st[EXPANSIONS] & EXP_ISLAND:
        for r in range(len(ISLAND_ROW_MASK)):  # island lines marked on their own (A-QI4)
            if st[ISLAND_MAYOR_LINES + r] == p + 1:
                marks += 1
    return MAYORS_GOLD * marks


@njit(cache=True, inline="always")
def score_harvest_card(st, p: int, card: int) -> int:
    """End gold of one of the six Harvest cards (Rovers: 0, paid during play)."""
    own = st[OWN + p * WORDS : OWN + (p + 1) * WORDS]
    if card == MAYORS:
        return mayors_gold(st, p)
    if card == RANGERS:
        return rangers_gold(own)
    if card == CHAINERS:
        return chainers_gold(own)
    if card == TRAVELLERS:
        return travellers_gold(own)
    if card == HOMESTEADERS:
        return homesteaders_gold(own)
    return 0


# ----- Mayors during play ---------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def row_has_line(own, r: int, contiguous: bool) -> bool:
    """Row r holds MAYORS_LINE own cells: anywhere in the row (A-H7 a) or next to each other (A-H7 b)."""
    if not contiguous:
        return count_and(own, ROW_MASK[r]) >= MAYORS_LINE
    run = 0
    for c in range(COLS):
        if has(own, r * COLS + c):
            run += 1
            if run >= MAYORS_LINE:
                return True
        else:
            run = 0
    return False


@njit(cache=True, inline="always")
def mark_mayor_row(st, p: int, h: int) -> bool:
    """After p placed or moved a piece onto h: mark h's row for p when it qualifies (H-15, A-H7), taking a
    settlement from p's supply. Returns True when that mark emptied the supply (the caller ends the game as
    for a last settlement built)."""
    if h >= NUM_HEXES:  # an island hex: its line is marked on its own (A-QI4; kbenv.engine.island.rules)
        return card_in_play(st, MAYORS) and mark_island_row(st, p, h, MAYORS_LINE, False)
    r = h // COLS
    if st[MAYOR_LINES + r] != 0 or st[SUPPLY + p] <= 0 or not card_in_play(st, MAYORS):
        return False
    own = st[OWN + p * WORDS : OWN + (p + 1) * WORDS]
    if not row_has_line(own, r, st[RULE_FLAGS] & MAYORS_CONTIGUOUS != 0):
        return False
    st[MAYOR_LINES + r] = p + 1
    st[SUPPLY + p] -= 1
    return st[SUPPLY + p] == 0


# ----- Rovers during play ---------------------------------------------------------------------------------------
@njit(cache=True)
def rovers_in_play(st) -> bool:
    return card_in_play(st, ROVERS)


@njit(cache=True, inline="always")
def rovers_built(st, p: int, h: int) -> None:
    """p built a new settlement on h in the turn's flow: the section counts for Rovers (the turn owner only); the
    island is in no section (A-QI4, A-H8), so an island build records nothing."""
    if p == st[CURRENT] and rovers_in_play(st) and h < NUM_HEXES:
        st[ROVER_SECTIONS] |= 1 << SECTOR_OF[h]


@njit(cache=True, inline="always")
def bank_rovers(st, p: int) -> None:
    """End of p's turn: GOLD[p] += the sections built in (EN 1395); the record starts afresh."""
    bits = st[ROVER_SECTIONS]
    if bits != 0:
        if rovers_in_play(st):
            st[GOLD + p] += (bits & 1) + (bits >> 1 & 1) + (bits >> 2 & 1) + (bits >> 3 & 1)
        st[ROVER_SECTIONS] = 0
