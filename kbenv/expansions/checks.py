"""The checks every expansion's position fields share: the error they raise, integers, hexes, per-player
entries, and the terrains buildable under a ruleset."""

from __future__ import annotations

import numpy as np

from ..board.codes import CARD_LETTERS, CARD_TEXT
from ..engine import state as S
from ..safe_json import short_repr

BASE_BUILDABLE = "GCDFT"  # the five terrains of the terrain cards


class ExpansionSetupError(ValueError):
    """Raised as kbenv.setup.SetupError by the caller (kbenv.setup imports the expansions, not the reverse)."""


def is_int(value) -> bool:
    """An integer that is not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def hexes(value, name: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, (list, tuple)):
        raise ExpansionSetupError(f"{name}: expected a list of [row, col] pairs, got {short_repr(value)}")
    out = []
    for rc in value:
        if not isinstance(rc, (list, tuple)) or len(rc) != 2 or not all(is_int(v) for v in rc) \
                or not (all(0 <= v < 20 for v in rc) or (20 <= rc[0] < 25 and 0 <= rc[1] < 4)):  # or the island's
            raise ExpansionSetupError(f"{name}: expected [row, col] pairs on the 20x20 board, got {short_repr(rc)}")
        out.append((int(rc[0]), int(rc[1])))
    if len(set(out)) != len(out):
        raise ExpansionSetupError(f"{name}: a hex is listed twice")
    return tuple(out)


def per_player(value, n: int, name: str) -> list:
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise ExpansionSetupError(f"{name}: expected one entry per player ({n})")
    return list(value)


def one_hex(value, name: str):
    """None or one [row, col] pair."""
    if value is None:
        return None
    return hexes([value], name)[0]


def parse_rc(key, name: str) -> tuple[int, int]:
    """A hex from "r,c" (JSON object keys) or an (r, c) pair."""
    if isinstance(key, str):
        parts = key.split(",")
        if len(parts) == 2 and all(p.strip().lstrip("-").isdigit() for p in parts):
            key = (int(parts[0]), int(parts[1]))
    if isinstance(key, (list, tuple)) and len(key) == 2 and all(is_int(v) for v in key) \
            and all(0 <= v < 20 for v in key):
        return int(key[0]), int(key[1])
    raise ExpansionSetupError(f"{name}: expected hexes as \"row,col\", got {short_repr(key)}")


def buildable_letters(bits: int) -> str:
    """The terrain letters of buildable hexes under a ruleset: the five card terrains and those the expansions
    in play add (swamp with Marshlands, M-5: walls of a Quarry on a swamp turn, Crossroads pieces; farmland with
    Harvest, EN 1231 "suitable for being built upon": the engine's buildable mask, so a warrior or wagon may
    stand there)."""
    from .registry import sides_of

    return BASE_BUILDABLE + "".join(side.buildable_terrains for side in sides_of(bits))



def piece_ground(allowed: str, ground: str) -> str:
    """The words for the hexes a piece may stand on (error messages)."""
    if allowed == "W":
        return "a water hex"
    return "a buildable terrain or mountain hex" if allowed == ground + "M" else "a buildable terrain hex"


def card_letters(value, name: str, size: int = S.DECK_SIZE) -> list[str]:
    """Terrain cards by letter, at most `size` (a pile of more than the base deck holds swamp cards too)."""
    if not isinstance(value, (list, tuple)) or len(value) > size:
        raise ExpansionSetupError(f"{name}: expected a list of at most {size} terrain letters, got {short_repr(value)}")
    allowed = CARD_TEXT if size > S.DECK_SIZE else tuple(CARD_LETTERS)
    for k, letter in enumerate(value):
        if not isinstance(letter, str) or letter.upper() not in allowed:
            raise ExpansionSetupError(f"{name}[{k}]: expected a terrain card ({' '.join(allowed)}), got "
                                      f"{short_repr(letter)}")
    return [letter.upper() for letter in value]
