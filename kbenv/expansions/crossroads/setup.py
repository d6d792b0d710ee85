"""Crossroads: the position fields of its task cards and pieces (warriors, wagons, ships, city halls: the slot
kinds of catalogue.PIECE_KINDS), checked with the field named and written into a state."""

from __future__ import annotations

import numpy as np

from ... import catalogue as CAT
from ...board.bitset import HEX_BIT, HEX_WORD, NEIGHBOUR_MASK, WORDS
from ...board.geometry import hex_id, hex_rc
from ...engine import piece_table as PT
from ...engine import state as S
from ...engine.crossroads.rules import update_zone
from ...safe_json import short_repr
from ..checks import ExpansionSetupError, buildable_letters, hexes, one_hex, per_player, piece_ground

CROSSROADS_KINDS = tuple(kind for kind in PT.SLOT_PIECES if kind.expansion == "crossroads")
CROSSROADS_PIECES = ("tasks", *(kind.key for kind in CROSSROADS_KINDS))
TASK_GOLD = {task.name: task.gold for task in CAT.TASK_CARDS}  # the gold a task card pays (C-2)


def check_pieces(check) -> None:
    """The Crossroads fields of a position (kbenv.expansions.registry.PieceCheck), normalised in place."""
    validate_crossroads(check.board, check.num_players, check.out, check.occupied, check.bits)


def validate_crossroads(board, n: int, out: dict, occupied: set, bits: int = 0) -> None:
    """Tasks and the Crossroads pieces of a position (C-2, C-3); normalised into `out` in place. With Marshlands
    swamp, with Harvest farmland is buildable ground for warriors, wagons and city halls too (the engine's
    buildable mask)."""
    ground = buildable_letters(bits)
    if "tasks" in out:
        tasks = out["tasks"]
        if not isinstance(tasks, (list, tuple)) or len(tasks) > S.MAX_TASKS:
            raise ExpansionSetupError(f"tasks: expected a list of at most {S.MAX_TASKS} task names")
        for name in tasks:
            if name not in CAT.TASK_NAMES:
                raise ExpansionSetupError(f"tasks: unknown task {short_repr(name)}; known: {', '.join(CAT.TASK_NAMES)}")
        if len(set(tasks)) != len(tasks):
            raise ExpansionSetupError("tasks: a task is listed twice")
        out["tasks"] = tuple(tasks)
    taken = set(occupied) | set(out.get("walls", ())) | set(out.get("caves", ()))

    def claim(rc, name: str, allowed: str) -> None:
        r, c = rc
        if board[r][c] not in allowed:
            raise ExpansionSetupError(f"{name}: hex {[r, c]} is not {piece_ground(allowed, ground)}")
        if rc in taken:
            raise ExpansionSetupError(f"{name}: hex {[r, c]} already holds a piece")
        taken.add(rc)

    for kind in CROSSROADS_KINDS:
        if kind.key in out:
            out[kind.key] = _slot_pieces(kind, out[kind.key], n, ground, claim)


def _slot_pieces(kind: CAT.PieceKind, value, n: int, ground: str, claim) -> tuple:
    """One player entry per seat of a slot-stored piece kind (catalogue.PIECE_KINDS): for a kind of several
    pieces a list of [row, col] pairs (null keeps an empty slot in its place), for a single piece a pair or
    null; each hex claimed on the kind's ground (a city hall: its centre and all 6 neighbours, C-8)."""
    allowed = {"buildable": ground, "buildable or mountain": ground + "M", "water": "W"}[kind.ground]
    out = []
    for p, entry in enumerate(per_player(value, n, kind.key)):
        name = f"{kind.key}[{p}]"
        if kind.per_player > 1:
            if not isinstance(entry, (list, tuple)):
                raise ExpansionSetupError(f"{name}: expected a list of [row, col] pairs, got {short_repr(entry)}")
            if len(entry) > kind.per_player:
                raise ExpansionSetupError(f"{name}: at most {kind.per_player} {kind.plural}")
            placed = hexes([rc for rc in entry if rc is not None], name)
            pairs = iter(placed)
            out.append(tuple(None if rc is None else next(pairs) for rc in entry))
        else:
            placed = () if entry is None else (one_hex(entry, name),)
            out.append(placed[0] if placed else None)
        for rc in placed:
            cells = [hex_rc(h) for h in PT.covered(kind, hex_id(*rc))]
            if len(cells) != kind.cells:
                raise ExpansionSetupError(f"{name}: hex {list(rc)} is on the board edge; a {kind.label} covers its "
                                          f"centre and all {kind.cells - 1} neighbours")
            for cell in cells:
                claim(cell, name, allowed)
    return tuple(out)


def apply_pieces(st: np.ndarray, pieces: dict, this_round: int = 0, gone: tuple = ()) -> None:
    apply_crossroads(st, pieces)


def apply_crossroads(st: np.ndarray, pieces: dict) -> None:
    """Tasks and Crossroads pieces of a hand-built position (tiles come from the position's "tiles")."""
    tasks = pieces.get("tasks", ())
    for k, name in enumerate(tasks):
        st[S.TASKS + k] = CAT.TASK_NAMES.index(name)
    st[S.NUM_TASKS] = len(tasks)

    def put(p: int, h: int) -> None:
        for off in (S.OCCUPIED, S.own_off(p), S.meeples_off(p)):
            st[off + HEX_WORD[h]] |= HEX_BIT[h]
        st[S.adjacent_off(p) : S.adjacent_off(p) + WORDS] |= NEIGHBOUR_MASK[h]

    for kind in CROSSROADS_KINDS:
        for p, entry in enumerate(pieces.get(kind.key, ())):
            for k, rc in enumerate(entry if kind.per_player > 1 else (entry,)):
                if rc is not None:
                    PT.write_slot(st, kind, p, k, hex_id(*rc))
                    for h in PT.covered(kind, hex_id(*rc)):
                        put(p, h)
    update_zone(st)


def position_keys(game) -> dict:
    """The tasks in play and each slot kind's entry per player."""
    st, n = game.state, game.num_players
    return {"tasks": list(game.tasks()),
            **{kind.key: [piece_entry(st, kind, p) for p in range(n)] for kind in CROSSROADS_KINDS}}


def piece_entry(st, kind, player: int):
    """A player's entry under a slot-stored piece kind's key: for a kind of several pieces a list in slot order
    (null marks an empty slot before a placed piece), for a single piece its [row, col] or null."""
    hexes = PT.slot_hexes(st, kind, player)
    if kind.per_player == 1:
        return None if hexes[0] is None else list(hex_rc(hexes[0]))
    while hexes and hexes[-1] is None:
        hexes.pop()
    return [None if h is None else list(hex_rc(h)) for h in hexes]
