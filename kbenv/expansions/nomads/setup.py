"""Nomads: the position fields of its pieces (stone walls, the tiles on the nomad spaces, the tiles the players
hold), checked with the field named and written into a state; the tiles out of the game (`nomad_tiles_gone`)
are read and written with the full state (kbenv.setup.resume)."""

from __future__ import annotations

import numpy as np

from ... import catalogue as CAT
from ...board.geometry import hex_id, hex_rc
from ...engine import piece_table as PT
from ...engine import state as S
from ...engine.nomads.rules import place_wall
from ...safe_json import short_repr
from ..checks import ExpansionSetupError, buildable_letters, hexes, is_int, parse_rc

WALLS_KEY = PT.PIECE_KIND["wall"].key
NOMAD_FIELDS = (WALLS_KEY, "nomad_spaces", "nomad_tiles")
MAX_ROUND = 100_000  # rounds of a game (a game has fewer than 200 turns in all)


def check_walls(board, bits: int, value, occupied: set) -> tuple:
    """Stone walls (N-19): at most the game's 25, on buildable terrain hexes without a settlement."""
    walls = hexes(value, "walls")
    if len(walls) > CAT.WALLS_IN_GAME:
        raise ExpansionSetupError(f"walls: at most {CAT.WALLS_IN_GAME} walls, got {len(walls)}")
    for r, c in walls:
        if board[r][c] not in buildable_letters(bits):
            raise ExpansionSetupError(f"walls: hex {[r, c]} is not a buildable terrain hex")
        if (r, c) in occupied:
            raise ExpansionSetupError(f"walls: hex {[r, c]} already holds a settlement")
    return walls


def check_pieces(check) -> None:
    """The Nomads fields of a position (kbenv.expansions.registry.PieceCheck), normalised in place."""
    out = check.out
    if "walls" in out:
        out["walls"] = check_walls(check.board, check.bits, out["walls"], check.occupied)
    if "nomad_spaces" in out:
        out["nomad_spaces"] = nomad_spaces(check.board, out["nomad_spaces"])
    if "nomad_tiles" in out:
        out["nomad_tiles"] = nomad_tiles(out["nomad_tiles"], check.num_players, check.board)


def nomad_spaces(board, value) -> tuple:
    if isinstance(value, dict):
        pairs = list(value.items())
    elif isinstance(value, (list, tuple)) and all(isinstance(x, (list, tuple)) and len(x) == 2 for x in value):
        pairs = list(value)  # [[r, c], kind] pairs, as a record's set-up stores them
    else:
        raise ExpansionSetupError(f"nomad_spaces: expected an object {{\"r,c\": kind}}, got {short_repr(value)}")
    out = []
    for key, kind in pairs:
        rc = parse_rc(key, "nomad_spaces")
        if board[rc[0]][rc[1]] != "N":
            raise ExpansionSetupError(f"nomad_spaces: hex {list(rc)} is not a nomad space")
        if kind is not None and kind not in CAT.NOMAD_KINDS:
            raise ExpansionSetupError(f"nomad_spaces: unknown nomad tile {short_repr(kind)}; known: "
                                      f"{', '.join(CAT.NOMAD_KINDS)}")
        out.append((rc, kind))
    return tuple(sorted(out))


def nomad_tiles(value, n: int, board) -> tuple:
    """Per player: kinds held since the previous round (usable now), or objects {"kind", "claimed_round",
    "space"} giving the round the tile was claimed in and the nomad space it came from."""
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise ExpansionSetupError(f"nomad_tiles: expected one list of tile kinds per player ({n})")
    out = []
    for p, kinds in enumerate(value):
        if not isinstance(kinds, (list, tuple)):
            raise ExpansionSetupError(f"nomad_tiles[{p}]: expected a list of tile kinds, got {short_repr(kinds)}")
        entries = []
        for k, entry in enumerate(kinds):
            kind = entry.get("kind") if isinstance(entry, dict) else entry
            if kind not in CAT.NOMAD_USABLE_KINDS:
                raise ExpansionSetupError(f"nomad_tiles[{p}]: unknown nomad tile {short_repr(kind)}; "
                                          f"known: {', '.join(CAT.NOMAD_USABLE_KINDS)}")
            if isinstance(entry, dict):
                entries.append(nomad_entry(entry, f"nomad_tiles[{p}][{k}]", board, True))
            else:
                entries.append(kind)
        out.append(tuple(entries))
    return tuple(out)


def nomad_entry(entry: dict, name: str, board, held: bool) -> dict:
    """A nomad tile given as an object: {"kind", "claimed_round", "space"}; "claimed_round" (the round the
    tile was claimed in) is required for a held tile, "space" (the nomad space it came from) is optional."""
    keys = ("kind", "claimed_round", "space")
    unknown = sorted(set(entry) - set(keys))
    if unknown:
        raise ExpansionSetupError(f"{name}: unknown key(s) {', '.join(map(short_repr, unknown))}; known: "
                                  f"{', '.join(keys)}")
    if entry.get("kind") not in CAT.NOMAD_KINDS:
        raise ExpansionSetupError(f"{name}.kind: unknown nomad tile {short_repr(entry.get('kind'))}; "
                                  f"known: {', '.join(CAT.NOMAD_KINDS)}")
    out = {"kind": entry["kind"]}
    if held or "claimed_round" in entry:
        r = entry.get("claimed_round")
        if not is_int(r) or not -1 <= r <= MAX_ROUND:
            raise ExpansionSetupError(f"{name}.claimed_round: expected an integer -1..{MAX_ROUND}, got {short_repr(r)}")
        out["claimed_round"] = int(r)
    space = entry.get("space")
    if space is not None:
        rc = parse_rc(space, f"{name}.space")
        if board[rc[0]][rc[1]] != "N":
            raise ExpansionSetupError(f"{name}.space: hex {list(rc)} is not a nomad space")
        space = f"{rc[0]},{rc[1]}"
    out["space"] = space
    return out


def check_nomad_counts(board, pieces: dict, gone: tuple = ()) -> None:
    """Tiles lying on spaces, held and gone: at most the game's tiles of each kind (catalogue), each space
    the source of one tile, and slots for the spaces and the tiles that came from no space."""
    spaces = sum(1 for row in board for ch in row if ch == "N")
    loose = sum(1 for held in pieces.get("nomad_tiles", ()) for e in held if isinstance(e, str) or e["space"] is None)
    loose += sum(1 for e in gone if e["space"] is None)
    if spaces + loose > S.MAX_NOMADS:
        raise ExpansionSetupError(f"nomad_tiles: {spaces} nomad spaces and {loose} tiles from no space; at most "
                                  f"{S.MAX_NOMADS} in all")
    kinds = [kind for _, kind in pieces.get("nomad_spaces", ()) if kind is not None]
    kinds += [e if isinstance(e, str) else e["kind"] for held in pieces.get("nomad_tiles", ()) for e in held]
    kinds += [e["kind"] for e in gone]
    for kind, count in CAT.NOMAD_TILE_COUNTS.items():
        if kinds.count(kind) > count:
            raise ExpansionSetupError(f"nomad_tiles: {kinds.count(kind)} {kind} tiles on spaces, held and gone; "
                                      f"the game has {count}")
    spaces = [e["space"] for held in pieces.get("nomad_tiles", ()) for e in held if isinstance(e, dict)]
    spaces += [e["space"] for e in gone]
    spaces = [s for s in spaces if s is not None]
    lying = {f"{r},{c}" for (r, c), kind in pieces.get("nomad_spaces", ()) if kind is not None}
    for s in spaces:
        if s in lying:
            raise ExpansionSetupError(f"nomad_tiles: space {short_repr(s)} still has a tile lying on it")
        if spaces.count(s) > 1:
            raise ExpansionSetupError(f"nomad_tiles: space {short_repr(s)} is the space of two tiles")


def apply_pieces(st: np.ndarray, pieces: dict, this_round: int, gone: tuple = ()) -> None:
    """Walls, the tiles on the spaces, the tiles held (a kind alone: held since the previous round, usable now)
    and the tiles out of the game."""
    for r, c in pieces.get("walls", ()):
        place_wall(st, hex_id(r, c))
    for (r, c), kind in pieces.get("nomad_spaces", ()):
        h = hex_id(r, c)
        for i in range(int(st[S.NUM_NOMADS])):
            if st[S.NOMAD_HEX + i] == h:
                st[S.NOMAD_KIND + i] = -1 if kind is None else CAT.NOMAD_KINDS.index(kind)
    for p, entries in enumerate(pieces.get("nomad_tiles", ())):
        for entry in entries:
            held = {"kind": entry, "space": None} if isinstance(entry, str) else entry
            put_nomad(st, held, p, held.get("claimed_round", this_round - 1))
    for entry in gone:
        put_nomad(st, entry, S.NOMAD_GONE, entry.get("claimed_round", 0))


def put_nomad(st: np.ndarray, entry: dict, owner: int, claimed_round: int) -> None:
    """A nomad tile off its space: back in the slot of the space it came from, or in a new slot."""
    i = int(st[S.NUM_NOMADS])
    if entry["space"] is not None:
        r, c = map(int, entry["space"].split(","))
        i = next(k for k in range(int(st[S.NUM_NOMADS])) if st[S.NOMAD_HEX + k] == hex_id(r, c))
    else:
        st[S.NOMAD_HEX + i] = -1
        st[S.NUM_NOMADS] = i + 1
    st[S.NOMAD_KIND + i] = CAT.NOMAD_KINDS.index(entry["kind"])
    st[S.NOMAD_OWNER + i] = owner
    st[S.NOMAD_ROUND + i] = claimed_round


def space_of(st: np.ndarray, i: int) -> str | None:
    """The nomad space of slot i as "r,c" (None: a tile that came with a position, not from a space)."""
    h = int(st[S.NOMAD_HEX + i])
    return None if h < 0 else "{},{}".format(*hex_rc(h))


def position_keys(game) -> dict:
    """The Nomads keys of a position file: walls, the tiles on the spaces, the tiles each player holds."""
    st, n = game.state, game.num_players
    return {
        WALLS_KEY: sorted(list(x) for x in game.walls()),
        "nomad_spaces": {"{},{}".format(*h): kind for h, kind in sorted(game.nomad_spaces().items())},
        "nomad_tiles": [[{"kind": CAT.NOMAD_KINDS[int(st[S.NOMAD_KIND + i])],
                          "claimed_round": int(st[S.NOMAD_ROUND + i]), "space": space_of(st, i)}
                         for i in range(int(st[S.NUM_NOMADS])) if st[S.NOMAD_OWNER + i] == p]
                        for p in range(n)],
    }
