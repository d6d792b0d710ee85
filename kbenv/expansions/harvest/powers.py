"""Harvest keys of position files for the powers' state (decision 8): `number_tiles` (per player: the value of the
number tiles held, H-10, A-H5 a; at most the pool's 18 in all, HA16) and `scouts` (per player: the scout tiles on
the board in this turn, H-9, A-H4; only the player to move may have any, 2 at most, on free suitable terrain, water
or mountain). kbenv.expansions.harvest.setup calls these; errors name the key (`number_tiles` or `scouts[p]`).
"""

from __future__ import annotations

import numpy as np

from ... import catalogue as CAT
from ...board.bitset import BITS_PER_WORD, NEIGHBOUR_MASK, WORDS
from ...board.geometry import hex_id
from ...engine import state as S
from ...safe_json import short_repr
from ..checks import ExpansionSetupError, buildable_letters

POWER_KEYS = ("number_tiles", "scouts")
SCOUT_TILES = 2  # EN 1245: 2 scout tiles, shared


def validate_power_keys(resume: dict, n: int, bits: int, current: int, board) -> dict:
    """`number_tiles` and `scouts`, normalised; ExpansionSetupError names the field. `current`: the player to
    move (the only one who may have scouts); `board`: the rows of board letters (scouts' ground)."""
    out: dict = {}
    for name in ("number_tiles", "scouts"):
        if name in resume and not bits & CAT.HARVEST:
            raise ExpansionSetupError(f"{name}: needs the 'harvest' expansion")
    if "number_tiles" in resume:
        value = resume["number_tiles"]
        if not isinstance(value, (list, tuple)) or len(value) != n:
            raise ExpansionSetupError(f"number_tiles: expected one value per player ({n})")
        for p, v in enumerate(value):
            if type(v) is not int or v < 0:
                raise ExpansionSetupError(f"number_tiles[{p}]: expected a value 0..{CAT.NUMBER_TILE_POOL}, got "
                                          f"{short_repr(v)}")
        if sum(value) > CAT.NUMBER_TILE_POOL:
            raise ExpansionSetupError(f"number_tiles: {sum(value)} in all, more than the pool's "
                                      f"{CAT.NUMBER_TILE_POOL} (8 tiles of value 1 and 2 of value 5)")
        out["number_tiles"] = [int(v) for v in value]
    if "scouts" in resume:
        out["scouts"] = _scouts(resume["scouts"], n, bits, current, board)
    return out


def _scouts(value, n: int, bits: int, current: int, board) -> list:
    """`scouts`: per player a list of [r, c]; only the player to move, 2 at most, on suitable terrain, water or
    mountain (A-H4)."""
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise ExpansionSetupError(f"scouts: expected one list of [row, col] per player ({n})")
    ground = buildable_letters(bits) + "AWM"
    out = []
    seen = set()
    for p, hexes in enumerate(value):
        if not isinstance(hexes, (list, tuple)):
            raise ExpansionSetupError(f"scouts[{p}]: expected a list of [row, col] pairs, got {short_repr(hexes)}")
        if hexes and p != current:
            raise ExpansionSetupError(f"scouts[{p}]: scouts leave the board at the end of their player's turn "
                                      f"(H-9); only the player to move ({current}) may have any")
        cells = []
        for rc in hexes:
            if (not isinstance(rc, (list, tuple)) or len(rc) != 2 or not all(type(v) is int for v in rc)
                    or not (0 <= rc[0] < 20 and 0 <= rc[1] < 20)):
                raise ExpansionSetupError(f"scouts[{p}]: expected [row, col] on the board, got {short_repr(rc)}")
            if board is not None and board[rc[0]][rc[1]] not in ground:
                raise ExpansionSetupError(f"scouts[{p}]: hex {list(rc)} is not suitable terrain, water or mountain")
            if tuple(rc) in seen:
                raise ExpansionSetupError(f"scouts[{p}]: hex {list(rc)} is given twice")
            seen.add(tuple(rc))
            cells.append([int(rc[0]), int(rc[1])])
        out.append(sorted(cells))
    if len(seen) > SCOUT_TILES:
        raise ExpansionSetupError(f"scouts: {len(seen)} scouts, but there are only {SCOUT_TILES} scout tiles")
    return out


def apply_power_keys(st: np.ndarray, resume: dict) -> None:
    """The number tiles and the scouts (they count for their player's adjacency and close their hexes, H-9)."""
    for p, value in enumerate(resume.get("number_tiles", ())):
        st[S.NUMBER_TILES + p] = value
    for p, hexes in enumerate(resume.get("scouts", ())):
        for r, c in hexes:
            h = hex_id(r, c)
            st[S.SCOUTS + h // BITS_PER_WORD] |= np.int64(1) << np.int64(h % BITS_PER_WORD)
            st[S.OCCUPIED + h // BITS_PER_WORD] |= np.int64(1) << np.int64(h % BITS_PER_WORD)
            for i in range(WORDS):
                st[S.ADJACENT + p * WORDS + i] |= NEIGHBOUR_MASK[h, i]


def power_keys_of(st: np.ndarray) -> dict:
    """`number_tiles` and `scouts` of a state, as Game.to_position writes them."""
    n = int(st[S.NUM_PLAYERS])
    scouts = [divmod(h, 20) for h in range(400) if st[S.SCOUTS + h // BITS_PER_WORD] >> (h % BITS_PER_WORD) & 1]
    owner = int(st[S.CURRENT])
    return {"number_tiles": [int(st[S.NUMBER_TILES + p]) for p in range(n)],
            "scouts": [[list(rc) for rc in scouts] if p == owner else [] for p in range(n)]}
