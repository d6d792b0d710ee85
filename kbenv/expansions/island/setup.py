"""Island set-up and position keys (issue 23; decision 8, IA2, IA5, IA10, IA11, IA13).

* The set-up: `Setup.island` = (side name, ISLAND_ROWS rows of ISLAND_COLS codes in kbenv letters). A random set-up
  takes `island_side` (a shipped side, kbenv.board.island_files, or the path of a real side's file, `.txt`, named
  after the file) or, without it, a seeded choice of the two sides (independent of the sections, A-QI5).
  `apply_island` writes it into a state: terrain masks, buildable and special
  hexes (ids 400..419) and the Island block (its location hex with 2 tiles, EN 1443).
* Inside kbenv an island hex (r, c) is the extended (ROWS + r, c) (kbenv.board.geometry.hex_id / hex_rc); position
  files write ["island", r, c] (IA5) and `"island,r,c"` keys. `position_in` turns a position's island hexes into
  the extended form (SetupError naming the field at fault), `position_out` turns them back.
* Location tiles: the island's tile is bit ISLAND_TILE_BIT of the tile masks (kbenv.engine.island.rules);
  `location_slots` lists every location hex with its bit for the Python side.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

import numpy as np

from ... import catalogue as CAT
from ...board.bitset import HEX_BIT, HEX_WORD
from ...board.codes import CASTLE, LOCATION, LOCATION_LETTERS, NUM_BUILDABLE, decode_hex_code
from ...board.geometry import ISLAND_COLS, ISLAND_ROWS, ROWS, hex_id, hex_rc
from ...board.island_files import (
    ISLAND_TYPES,
    SUBSTITUTE_SIDES,
    IslandFileError,
    island_rows,
    load_side,
    location_cells,
    read_island_file,
)
from ...engine import state as S
from ...engine.island.rules import ISLAND_TILE_BIT, TILES_PER_LOCATION
from ...safe_json import short_repr

ISLAND = "island"
SIDE_OPTION = "island_side"
HAND_SIDE = "hand-built"  # the label of a side given by its board (a free label, IA2)
# Position keys holding one list of hexes per player, and "then" (decisions): island hexes there are
# ["island", r, c] in files, (ROWS + r, c) inside.
PER_PLAYER_HEX_KEYS = ("settlements", "tiles", "tiles_fresh", "tiles_used")
# Position keys of pieces (lists of hexes, per player or not) that may stand on the island (walls, Crossroads pieces,
# Harvest scouts); capitols and caves never do (their rules place them on the board).
PIECE_HEX_KEYS = tuple(kind.key for kind in CAT.PIECE_KINDS if kind.key not in PER_PLAYER_HEX_KEYS)


class IslandSetupError(ValueError):
    """A bad island in a set-up or position (kbenv.setup turns it into a SetupError)."""


def choose_side(seed: int) -> str:
    """The seeded side of a random set-up without `island_side` (A-QI5: independent of the sections)."""
    return SUBSTITUTE_SIDES[random.Random(int(seed) * 7919 + 23).randrange(len(SUBSTITUTE_SIDES))]


def side_option(name, bits: int) -> tuple[str, tuple[str, ...]]:
    """(side, rows) of a shipped side named by `island_side`; IslandSetupError starting with island_side."""
    if not bits & CAT.ISLAND:
        raise IslandSetupError(f"{SIDE_OPTION}: needs the 'island' expansion")
    if isinstance(name, str) and name.endswith(".txt") and name not in SUBSTITUTE_SIDES:
        try:  # a real side in the board-section format (kbenv.board.island_files), named after its file
            rows = read_island_file(name)
        except IslandFileError as err:
            raise IslandSetupError(f"{SIDE_OPTION}: {err}") from None
        if len(location_cells(rows)) > 1:
            raise IslandSetupError(f"{SIDE_OPTION}: {name}: more than one location hex (each side has one, EN 1443)")
        return Path(name).stem, tuple(rows)
    if not isinstance(name, str) or name not in SUBSTITUTE_SIDES:
        raise IslandSetupError(f"{SIDE_OPTION}: unknown island side {short_repr(name, 500)}; shipped sides: "
                               f"{', '.join(SUBSTITUTE_SIDES)} (substitutes: no printed layout is known), or the "
                               "path of a side file (.txt)")
    return name, tuple(load_side(name))


def validate_island(value, bits: int, seed: int) -> tuple[str, tuple[str, ...]] | None:
    """Setup.island from a set-up value: None, (side, rows), or a position's {"board", "side", "locations"}.
    With the island expansion and no value, the seeded side. IslandSetupError starting with `island`."""
    if value is None:
        return (choose_side(seed), tuple(load_side(choose_side(seed)))) if bits & CAT.ISLAND else None
    if not bits & CAT.ISLAND:
        raise IslandSetupError("island: needs the 'island' expansion")
    if isinstance(value, dict):
        unknown = sorted(set(value) - {"board", "side", "locations"})
        if unknown:
            raise IslandSetupError(f"island: unknown field(s) {', '.join(map(short_repr, unknown))}; known: board, "
                                   "side, locations")
        side = value.get("side", HAND_SIDE)
        if not isinstance(side, str) or not side:
            raise IslandSetupError(f"island.side: expected a name, got {short_repr(side)}")
        if "board" not in value:
            if "locations" in value:
                raise IslandSetupError("island.locations: only with a board")
            if side not in SUBSTITUTE_SIDES:
                raise IslandSetupError(f"island: unknown island side {short_repr(side)} (no board given); shipped "
                                       f"sides: {', '.join(SUBSTITUTE_SIDES)}")
            return side, tuple(load_side(side))
        locations = value.get("locations") or {}
        if not isinstance(locations, dict):
            raise IslandSetupError('island.locations: expected an object {"r,c": type}')
        cells = {}
        for key, kind in locations.items():
            parts = key.split(",") if isinstance(key, str) else []
            if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
                raise IslandSetupError(f"island.locations: expected hexes as \"row,col\", got {short_repr(key)}")
            cells[(int(parts[0]), int(parts[1]))] = kind
        return side, _rows(value["board"], cells)
    if isinstance(value, (list, tuple)) and len(value) == 2 and isinstance(value[0], str):
        rows = value[1]
        return value[0], _rows(rows, location_cells(rows) if isinstance(rows, (list, tuple)) else {})
    raise IslandSetupError(f'island: expected {{"board": [...], "side": name}} or {{"side": name}}, got '
                           f'{short_repr(value)}')


def _rows(board, cells: dict) -> tuple[str, ...]:
    try:
        if isinstance(board, (list, tuple)):
            board = [row if not isinstance(row, str) else
                     "".join("L" if ch in LOCATION_LETTERS else ch for ch in row) for row in board]
            cells = {**{rc: k for rc, k in location_cells([r for r in board if isinstance(r, str)]).items()}, **cells}
        rows = island_rows(board, cells, ISLAND)
    except IslandFileError as err:
        raise IslandSetupError(str(err)) from None
    if len(location_cells(rows)) > 1:
        raise IslandSetupError("island: more than one location hex (each side has one, EN 1443)")
    return tuple(rows)


def extended_board(board, island) -> list[str]:
    """The board's rows, then the island's (rows ROWS.., ISLAND_COLS codes each): the grid of extended hexes."""
    return list(board) + (list(island[1]) if island else [])


def on_grid(r: int, c: int, island: bool) -> bool:
    """(r, c) is a board hex, or with the island an extended island hex."""
    return (0 <= r < ROWS and 0 <= c < 20) or (island and ROWS <= r < ROWS + ISLAND_ROWS and 0 <= c < ISLAND_COLS)


def apply_island(st: np.ndarray, island) -> None:
    """Write the island's terrain and location hex into a state (its bits are zero before)."""
    _, rows = island
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            h = hex_id(ROWS + r, c)
            t, loc = decode_hex_code(ch)
            w, b = HEX_WORD[h], HEX_BIT[h]
            st[S.terrain_off(t) + w] |= b
            if t < NUM_BUILDABLE:
                st[S.BUILDABLE_MASK + w] |= b
            if t in (CASTLE, LOCATION):
                st[S.SPECIAL_MASK + w] |= b
            if t == LOCATION:
                st[S.ISLAND_LOC_AT] = h + 1
                st[S.ISLAND_LOC_TYPE] = loc
                st[S.ISLAND_LOC_TILES] = TILES_PER_LOCATION


def location_slots(st: np.ndarray) -> list[tuple[int, int]]:
    """(tile bit, hex id) of every location hex: the board's LOC_* slots, then the island's."""
    out = [(i, int(st[S.LOC_HEX + i])) for i in range(int(st[S.NUM_LOCATIONS]))]
    if st[S.ISLAND_LOC_AT] > 0:
        out.append((ISLAND_TILE_BIT, int(st[S.ISLAND_LOC_AT]) - 1))
    return out


def location_info(st: np.ndarray, bit: int) -> tuple[int, int]:
    """(location type, tiles left) of the location with tile bit `bit`."""
    if bit == ISLAND_TILE_BIT:
        return int(st[S.ISLAND_LOC_TYPE]), int(st[S.ISLAND_LOC_TILES])
    return int(st[S.LOC_TYPE + bit]), int(st[S.LOC_TILES + bit])


def set_tiles_left(st: np.ndarray, bit: int, k: int) -> None:
    st[S.ISLAND_LOC_TILES if bit == ISLAND_TILE_BIT else S.LOC_TILES + bit] = k


def island_position(island) -> dict:
    """The "island" key of a position (IA2, IA10): board rows with L, side, locations."""
    side, rows = island
    cells = location_cells(rows)
    board = ["".join("L" if ch in LOCATION_LETTERS else ch for ch in row) for row in rows]
    return {"board": board, "side": side, "locations": {f"{r},{c}": kind for (r, c), kind in cells.items()}}


# ----- island hexes in position files (IA5) ---------------------------------------------------------------------
def _hex_in(entry, name: str):
    """["island", r, c] -> [ROWS + r, c]; anything else unchanged (the board's checks name it)."""
    if isinstance(entry, (list, tuple)) and len(entry) == 3 and entry[0] == ISLAND:
        r, c = entry[1], entry[2]
        if not (type(r) is int and type(c) is int and 0 <= r < ISLAND_ROWS and 0 <= c < ISLAND_COLS):
            raise IslandSetupError(f"{name}: hex {list(entry)} is off the island ({ISLAND_ROWS} lines of "
                                   f"{ISLAND_COLS} hexes)")
        return [ROWS + r, c]
    return entry


def _key_in(key, name: str):
    parts = key.split(",") if isinstance(key, str) else []
    if len(parts) == 3 and parts[0].strip() == ISLAND and all(p.strip().isdigit() for p in parts[1:]):
        r, c = _hex_in([ISLAND, int(parts[1]), int(parts[2])], name)
        return f"{r},{c}"
    return key


def _walk_in(value, name: str):
    """Every ["island", r, c] inside a position value -> its extended [ROWS + r, c] (lists and objects walked)."""
    if isinstance(value, list):
        if len(value) == 3 and value[0] == ISLAND:
            return _hex_in(value, name)
        return [_walk_in(v, f"{name}[{k}]") for k, v in enumerate(value)]
    if isinstance(value, dict):
        return {k: _walk_in(v, f"{name}.{k}") for k, v in value.items()}
    return value


def position_in(position: dict) -> dict:
    """A copy of a position whose island hexes (["island", r, c] anywhere but in the "island" key; "island,r,c" keys
    of "tiles_left") are extended hexes (IslandSetupError naming the field at fault); positions without island
    hexes come back unchanged."""
    if not isinstance(position, dict):
        return position
    pos = {key: value if key == ISLAND else _walk_in(copy.deepcopy(value), key) for key, value in position.items()}
    if isinstance(pos.get("tiles_left"), dict):
        pos["tiles_left"] = {_key_in(k, "tiles_left"): v for k, v in pos["tiles_left"].items()}
    return pos


def hex_out(entry):
    """[ROWS + r, c] -> ["island", r, c]; board hexes and names unchanged."""
    if isinstance(entry, (list, tuple)) and len(entry) == 2 and all(type(v) is int for v in entry) \
            and entry[0] >= ROWS:
        return [ISLAND, entry[0] - ROWS, entry[1]]
    return entry


def _walk_out(value):
    if isinstance(value, list):
        if len(value) == 2 and all(type(v) is int for v in value):
            return hex_out(value)
        return [_walk_out(v) for v in value]
    return value


def position_out(pos: dict) -> dict:
    """A position written by kbenv with extended island hexes, in the file form (IA5); in place."""
    for key in (*PER_PLAYER_HEX_KEYS, *PIECE_HEX_KEYS):
        if isinstance(pos.get(key), list):
            pos[key] = _walk_out(pos[key])
    if isinstance(pos.get("tiles_left"), dict):
        out = {}
        for key, v in pos["tiles_left"].items():
            r, c = (int(x) for x in key.split(","))
            out[f"{ISLAND},{r - ROWS},{c}" if r >= ROWS else key] = v
        pos["tiles_left"] = out
    decision = pos.get("decision")
    if isinstance(decision, dict):
        if "source" in decision:
            decision["source"] = hex_out(decision["source"])
        if isinstance(decision.get("mandatory_hexes"), list):
            decision["mandatory_hexes"] = [hex_out(h) for h in decision["mandatory_hexes"]]
        for frame in decision.get("frames") or ():
            if isinstance(frame, dict) and "source" in frame:
                frame["source"] = hex_out(frame["source"])
    return pos


def hex_label(rc) -> list:
    """A hex for messages and JSON: [r, c] on the board, ["island", r, c] on the island."""
    return hex_out([int(rc[0]), int(rc[1])])


__all__ = ["ISLAND_TYPES", "SUBSTITUTE_SIDES", "hex_rc", "IslandSetupError", "validate_island", "side_option",
           "apply_island", "location_slots", "position_in", "position_out"]
