"""The piece table (kbenv.catalogue.PIECE_KINDS) resolved against the state layout.

Each kind's state field and slots, the readers and writers of slot-stored pieces that Game.pieces, position
files and the renderers share, and the numba arrays the observation kernels loop over (kbenv.engine.observe_v1,
kbenv.engine.packed). The rule kernels of a piece (kbenv.engine.crossroads.rules) keep their named offsets
(state.py's `*_AT` constants), which state.py derives from the same rows.
"""

from __future__ import annotations

import numpy as np

from .. import catalogue as CAT
from ..board.bitset import WORDS
from ..board.geometry import neighbours
from . import state as S

PIECE_KINDS = CAT.PIECE_KINDS
PIECE_KIND = CAT.PIECE_KIND
SLOT_PIECES = CAT.SLOT_PIECES
# The state offset of each kind's field (a mask: per player or shared; slots: see slot_offset).
PIECE_FIELD = {k.name: getattr(S, k.field) for k in PIECE_KINDS}
assert all(PIECE_FIELD[k.name] == S.PIECE_AT[k.name] for k in SLOT_PIECES), "state.py allocates the slots"


def field_size(kind: CAT.PieceKind) -> int:
    """int64 words of a kind's state field: a hex mask per player or shared, or one slot per piece."""
    if kind.storage == "mask":
        return S.MAX_PLAYERS * WORDS if kind.per_player else WORDS
    return S.MAX_PLAYERS * kind.per_player if kind.per_player else kind.pool


def slot_offset(kind: CAT.PieceKind, player: int) -> int:
    """The first slot of a player's pieces of a slot-stored kind."""
    return PIECE_FIELD[kind.name] + player * kind.per_player


def slot_hexes(st: np.ndarray, kind: CAT.PieceKind, player: int) -> list[int | None]:
    """The hex of each of a player's pieces of a slot-stored kind, in slot order (None: in the supply)."""
    at = slot_offset(kind, player)
    return [int(v) - 1 if v > 0 else None for v in st[at : at + kind.per_player]]


def write_slot(st: np.ndarray, kind: CAT.PieceKind, player: int, slot: int, h: int | None) -> None:
    """Put a player's piece (slot `slot` of its kind) on hex h, or in the supply (None); the slot only, not
    OWN or OCCUPIED."""
    if not 0 <= slot < kind.per_player:
        raise ValueError(f"{kind.key}: slot {slot} is not one of 0..{kind.per_player - 1}")
    st[slot_offset(kind, player) + slot] = 0 if h is None else h + 1


def covered(kind: CAT.PieceKind, h: int) -> list[int]:
    """The hexes one piece on h covers: h, and its 6 neighbours for a kind of 7 cells (C-8)."""
    return [h, *neighbours(h)] if kind.cells > 1 else [h]


def player_key(kind: CAT.PieceKind) -> str:
    """The key of a kind in Game.pieces: its position key for a kind of several pieces (a sorted list of
    hexes), its name for a single piece (a hex or None)."""
    return kind.key if kind.per_player > 1 else kind.name


# ----- numba arrays of the v1 observation (kbenv.engine.observe_v1, kbenv.engine.packed) ----------------
# The kinds drawn in the own_pieces / other_pieces planes, in table order (a later one on the same hex wins):
# each one's first slot, slots per player, and value in thirds.
PLANE_KINDS = tuple(k for k in SLOT_PIECES if k.plane == "pieces")
PLANE_PIECE_AT = np.array([PIECE_FIELD[k.name] for k in PLANE_KINDS], dtype=np.int64)
PLANE_PIECE_SLOTS = np.array([k.per_player for k in PLANE_KINDS], dtype=np.int64)
PLANE_PIECE_CODE = np.array([k.plane_code for k in PLANE_KINDS], dtype=np.int64)
# The own_pieces_left feature: per slot-stored kind of Crossroads, the share of the player's pieces in the supply.
LEFT_KINDS = tuple(k for k in SLOT_PIECES if k.expansion == "crossroads")
LEFT_PIECE_AT = np.array([PIECE_FIELD[k.name] for k in LEFT_KINDS], dtype=np.int64)
LEFT_PIECE_SLOTS = np.array([k.per_player for k in LEFT_KINDS], dtype=np.int64)
# The city_halls plane draws the one kind covering several hexes (its centre and 6 neighbours), one per player.
(CELL_KIND,) = (k for k in SLOT_PIECES if k.plane == "city_halls")
assert CELL_KIND.cells == 7 and CELL_KIND.per_player == 1
CELL_PIECE_AT = PIECE_FIELD[CELL_KIND.name]  # the centre hex + 1 of each player's piece, 0 = not placed


def piece_table() -> str:
    """The piece kinds as a markdown table (printed in docs/design-notes.md and tested against it)."""
    lines = ["| piece | expansion | count | storage | state field | supply | position key | owned | moves | "
             "taken back | cells | placed by | ground | mark | colour | v1 plane |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    yes = {True: "yes", False: "-"}
    for k in PIECE_KINDS:
        count = f"{k.per_player} each" if k.per_player else f"{k.pool} shared"
        field = f"{k.field} ({PIECE_FIELD[k.name]}, {field_size(k)})"
        mark = f"`{k.mark}`" + (f", cells `{k.cell_mark}`" if k.cell_mark else "") if k.mark else "digit"
        plane = f"{k.plane} {k.plane_code}/3" if k.plane_code else k.plane
        colour = f"{k.colour} (turn owner)" if k.turn_owner else k.colour
        supply = k.supply or ("slot 0" if k.storage == "slots" else f"{k.pool} - on the board")
        lines.append(f"| {k.name} | {k.expansion or 'base'} | {count} | {k.storage} | {field} | {supply} "
                     f"| {k.key} | {yes[k.owned]} | {yes[k.moves]} | {yes[k.taken_back]} | {k.cells} | "
                     f"{k.power or 'terrain cards'} | {k.ground or 'its rules'} | {mark} | {colour} | {plane} |")
    return "\n".join(lines)
