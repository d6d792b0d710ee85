"""The Marshlands keys of a position file (decision 8): `bonus_tiles` and the per-seat counters of the
Marshlands powers (catalogue.PLAYER_COUNTERS), validated with the field named and written into a state; the
full-state keys `bonus_tiles_fresh`, `bonus_tiles_used` and `bonus_tiles_left` (kbenv.setup.resume) are read
and written here too.

* `bonus_tiles`: per player, the location types whose bonus tile the player holds since before this turn
  (usable now, A-M4); a bonus tile needs two tiles of its type (unless the rule flag
  bonus_kept_after_tile_loss is on) and there are 2 of each type (EN 1004-1012).
* a counter (its key is the counter's name): one integer per player, 0 .. the counter's `high`; a counter of
  settlements kept off the board (`off_board`) makes `supply` + board + counter at most 40. What it means is
  the catalogue row's power's rule (docs/api.md lists the keys).
"""

from __future__ import annotations

import numpy as np

from ... import catalogue as CAT
from ...engine import state as S
from ...safe_json import short_repr

MARSH_COUNTERS = tuple(c for c in CAT.PLAYER_COUNTERS if c.expansion == "marshlands")
MARSH_PIECES = ("bonus_tiles", *(c.name for c in MARSH_COUNTERS))
MARSH_RESUME = ("bonus_tiles_fresh", "bonus_tiles_used", "bonus_tiles_left")
FIRST_BONUS_TYPE = CAT.LOCATION_NAMES.index(CAT.BONUS_TYPES[0])


class MarshSetupError(ValueError):
    """Raised as kbenv.setup.SetupError by the caller."""


def _types(value, name: str) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)):
        raise MarshSetupError(f"{name}: expected a list of location types ({', '.join(CAT.BONUS_TYPES)}), "
                              f"got {short_repr(value)}")
    for kind in value:
        if kind not in CAT.BONUS_TYPES:
            raise MarshSetupError(f"{name}: {short_repr(kind)} has no bonus tile; the bonus tiles are "
                                  f"{', '.join(CAT.BONUS_TYPES)}")
    if len(set(value)) != len(value):
        raise MarshSetupError(f"{name}: a bonus tile is listed twice")
    return tuple(sorted(value, key=CAT.BONUS_TYPES.index))


def per_player_types(value, n: int, name: str) -> tuple[tuple[str, ...], ...]:
    """One list of bonus-tile types per player."""
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise MarshSetupError(f"{name}: expected one list of location types per player ({n})")
    return tuple(_types(v, f"{name}[{p}]") for p, v in enumerate(value))


def validate_marsh_pieces(out: dict, n: int) -> None:
    """Validate the Marshlands keys present in `out` (MARSH_PIECES) in place; MarshSetupError names the key."""
    if "bonus_tiles" in out:
        out["bonus_tiles"] = per_player_types(out["bonus_tiles"], n, "bonus_tiles")
    for c in MARSH_COUNTERS:
        if c.name in out:
            out[c.name] = validate_counter(c, out[c.name], n)


def validate_counter(c: CAT.Counter, value, n: int) -> tuple[int, ...]:
    """One integer 0..c.high per player; MarshSetupError names the key and the player."""
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise MarshSetupError(f"{c.name}: expected one integer per player ({n})")
    out = []
    for p, k in enumerate(value):
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= k <= c.high:
            raise MarshSetupError(f"{c.name}[{p}]: expected an integer 0..{c.high}, got {short_repr(k)}")
        out.append(int(k))
    return tuple(out)


def check_marsh_position(board, n: int, pieces: dict, tiles, settlements, supply, keep_bonus: bool) -> None:
    """What the Marshlands keys need of the rest of the position: two tiles of a bonus tile's type, at most 2
    bonus tiles of a type, settlements + supply + reserve at most 40."""
    bonus = pieces.get("bonus_tiles")
    if bonus is not None:
        for kind in CAT.BONUS_TYPES:
            holders = [p for p in range(n) if kind in bonus[p]]
            if len(holders) > CAT.BONUS_TILES_PER_TYPE:
                raise MarshSetupError(f"bonus_tiles: {len(holders)} players hold the {kind} bonus tile; the game has "
                                      f"{CAT.BONUS_TILES_PER_TYPE} of each type")
        if not keep_bonus:
            for p in range(n):
                held = [CAT.LOCATION_LETTERS_TO_NAMES.get(board[r][c]) for r, c in (tiles[p] if tiles else ())]
                for kind in bonus[p]:
                    if held.count(kind) < 2:
                        raise MarshSetupError(f"bonus_tiles[{p}]: the {kind} bonus tile needs two {kind} location "
                                              f"tiles (see tiles), player {p} holds {held.count(kind)}")
    for c in MARSH_COUNTERS:
        counts = pieces.get(c.name)
        if counts is None or not c.off_board:
            continue
        for p, k in enumerate(counts):
            on_board = len(settlements[p]) if settlements else 0
            if supply:  # without it the supply is what is left: 40 - on the board - set aside
                if on_board + supply[p] + k > S.SETTLEMENTS_PER_PLAYER:
                    raise MarshSetupError(f"{c.name}[{p}]: {k} set aside, {on_board} on the board and {supply[p]} "
                                          f"in the supply make more than {S.SETTLEMENTS_PER_PLAYER}")
            elif on_board + k > S.SETTLEMENTS_PER_PLAYER:
                raise MarshSetupError(f"{c.name}[{p}]: {k} set aside and {on_board} on the board make more than "
                                      f"{S.SETTLEMENTS_PER_PLAYER}")


def type_bits(kinds) -> int:
    return sum(1 << CAT.LOCATION_NAMES.index(kind) for kind in kinds)


def bits_types(bits: int) -> list[str]:
    return [kind for kind in CAT.BONUS_TYPES if bits >> CAT.LOCATION_NAMES.index(kind) & 1]


def apply_marsh_pieces(st: np.ndarray, pieces: dict) -> None:
    """Write bonus_tiles and the counters; the bonus tiles left are 2 per type minus those held."""
    for p, kinds in enumerate(pieces.get("bonus_tiles", ())):
        st[S.BONUS_HELD + p] = type_bits(kinds)
    for c in MARSH_COUNTERS:
        for p, k in enumerate(pieces.get(c.name, ())):
            st[S.COUNTER_AT[c.name] + p] = k
    count_bonus_left(st)


def count_bonus_left(st: np.ndarray) -> None:
    n = int(st[S.NUM_PLAYERS])
    for k, kind in enumerate(CAT.BONUS_TYPES):
        bit = 1 << CAT.LOCATION_NAMES.index(kind)
        held = sum(1 for p in range(n) if st[S.BONUS_HELD + p] & bit)
        st[S.BONUS_LEFT + k] = max(0, CAT.BONUS_TILES_PER_TYPE - held)


def validate_marsh_resume(resume: dict, n: int, bits: int) -> dict:
    """The Marshlands full-state keys, normalised; MarshSetupError names the field."""
    out: dict = {}
    for name in ("bonus_tiles_fresh", "bonus_tiles_used"):
        if name in resume:
            if not bits & CAT.EXPANSION_BIT["marshlands"]:
                raise MarshSetupError(f"{name}: needs the 'marshlands' expansion")
            out[name] = [list(t) for t in per_player_types(resume[name], n, name)]
    if "bonus_tiles_left" in resume:
        left = resume["bonus_tiles_left"]
        if not isinstance(left, dict):
            raise MarshSetupError('bonus_tiles_left: expected an object {"type": tiles left}')
        for kind, k in left.items():
            _types([kind], "bonus_tiles_left")
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= CAT.BONUS_TILES_PER_TYPE:
                raise MarshSetupError(f"bonus_tiles_left.{kind}: expected 0..{CAT.BONUS_TILES_PER_TYPE}, "
                                      f"got {short_repr(k)}")
        out["bonus_tiles_left"] = dict(left)
    return out


def apply_marsh_resume(st: np.ndarray, resume: dict) -> None:
    """Fresh bonus tiles (taken this turn: held, not usable yet), used ones, and the tiles left."""
    for p, kinds in enumerate(resume.get("bonus_tiles_fresh", ())):
        st[S.BONUS_FRESH + p] = type_bits(kinds)
        st[S.BONUS_HELD + p] |= type_bits(kinds)
    for p, kinds in enumerate(resume.get("bonus_tiles_used", ())):
        st[S.BONUS_USED + p] = type_bits(kinds)
    count_bonus_left(st)
    for kind, k in resume.get("bonus_tiles_left", {}).items():
        st[S.BONUS_LEFT + CAT.BONUS_TYPES.index(kind)] = k


def marsh_position(st: np.ndarray) -> dict:
    """The Marshlands keys of a state, as Game.to_position writes them."""
    n = int(st[S.NUM_PLAYERS])
    held = [int(st[S.BONUS_HELD + p]) for p in range(n)]
    fresh = [int(st[S.BONUS_FRESH + p]) for p in range(n)]
    return {
        "bonus_tiles": [bits_types(held[p] & ~fresh[p]) for p in range(n)],
        **{c.name: [int(st[S.COUNTER_AT[c.name] + p]) for p in range(n)] for c in MARSH_COUNTERS},
        "bonus_tiles_fresh": [bits_types(fresh[p]) for p in range(n)],
        "bonus_tiles_used": [bits_types(int(st[S.BONUS_USED + p])) for p in range(n)],
        "bonus_tiles_left": {kind: int(st[S.BONUS_LEFT + k]) for k, kind in enumerate(CAT.BONUS_TYPES)},
    }
