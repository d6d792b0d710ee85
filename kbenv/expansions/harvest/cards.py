"""Position keys of the Harvest cards, read, validated and written (kbenv.expansions.harvest.setup calls these; errors
name the key):

- `mayor_lines` (decision 8, HA4): `{"row": seat}` for the rows marked by Mayors (H-15, A-H7), row "0".."19";
  a row has one owner. The marks are settlements taken from the supply: a position's `supply` is taken as
  written (its default, 40 minus the settlements on the board, does not subtract marks).
- `rovers_sections`: the sections (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right) in which the player
  to move has built a new settlement in this turn; Rovers pays one gold per section at the end of the turn
  (H-19, A-H8). Written for every Harvest game (empty outside a turn with Rovers in play).
"""

from __future__ import annotations

import numpy as np

from ... import catalogue as CAT
from ...board.geometry import ISLAND_ROWS, ROWS
from ...engine import state as S
from ...safe_json import short_repr
from ..checks import ExpansionSetupError, is_int

CARD_KEYS = ("mayor_lines", "rovers_sections")
NUM_SECTIONS = 4


def line_key(r: int) -> str:
    """A Mayors line as the position writes it: board row "r", island line "island,r" (IA14)."""
    return str(r) if r < ROWS else f"island,{r - ROWS}"


def line_index(key: str) -> int:
    """The inverse of line_key: board rows 0..19, island lines ROWS + r."""
    return ROWS + int(key[7:]) if key.startswith("island,") else int(key)


def validate_card_keys(resume: dict, n: int, bits: int) -> dict:
    """The Harvest card keys of a position, normalised; ExpansionSetupError names the field."""
    out: dict = {}
    for name in CARD_KEYS:
        if name in resume and not bits & CAT.HARVEST:
            raise ExpansionSetupError(f"{name}: needs the 'harvest' expansion")
    if "mayor_lines" in resume:
        lines = resume["mayor_lines"]
        if not isinstance(lines, dict):
            raise ExpansionSetupError(f'mayor_lines: expected {{"row": seat}} for the marked rows, got '
                                      f'{short_repr(lines)}')
        marked = {}
        for row, seat in lines.items():
            r = int(row) if isinstance(row, str) and row.isdigit() else row
            if isinstance(row, str) and row.startswith("island,") and row[7:].isdigit() \
                    and int(row[7:]) < ISLAND_ROWS and bits & CAT.ISLAND:
                r = ROWS + int(row[7:])  # an island line (A-QI4, IA14): kept as ROWS + r inside
            elif not is_int(r) or not 0 <= r < ROWS:
                raise ExpansionSetupError(f"mayor_lines: expected rows \"0\"..\"{ROWS - 1}\", got {short_repr(row)}")
            if int(r) in marked:
                raise ExpansionSetupError(f"mayor_lines: row {int(r)} is given twice")
            if not is_int(seat) or not 0 <= seat < n:
                raise ExpansionSetupError(f"mayor_lines[{short_repr(row)}]: expected a seat 0..{n - 1}, got "
                                          f"{short_repr(seat)}")
            marked[int(r)] = int(seat)
        out["mayor_lines"] = {line_key(r): marked[r] for r in sorted(marked)}
    if "rovers_sections" in resume:
        sections = resume["rovers_sections"]
        if (not isinstance(sections, (list, tuple)) or not all(is_int(q) and 0 <= q < NUM_SECTIONS for q in sections)
                or len(set(int(q) for q in sections)) != len(sections)):
            raise ExpansionSetupError(f"rovers_sections: expected a list of distinct sections 0..{NUM_SECTIONS - 1}, "
                                      f"got {short_repr(sections)}")
        out["rovers_sections"] = sorted(int(q) for q in sections)
    return out


def apply_card_keys(st: np.ndarray, resume: dict) -> None:
    """Write the marked rows and the Rovers sections of this turn into a state."""
    for row, seat in resume.get("mayor_lines", {}).items():
        r = line_index(row)
        st[S.MAYOR_LINES + r if r < ROWS else S.ISLAND_MAYOR_LINES + r - ROWS] = seat + 1
    if "rovers_sections" in resume:
        st[S.ROVER_SECTIONS] = sum(1 << q for q in resume["rovers_sections"])


def card_keys_of(st: np.ndarray) -> dict:
    """The Harvest card keys of a state, as Game.to_position writes them."""
    lines = {str(r): int(st[S.MAYOR_LINES + r]) - 1 for r in range(ROWS) if st[S.MAYOR_LINES + r] > 0}
    lines.update({line_key(ROWS + r): int(st[S.ISLAND_MAYOR_LINES + r]) - 1 for r in range(ISLAND_ROWS)
                  if st[S.ISLAND_MAYOR_LINES + r] > 0})  # island lines (IA14)
    sections = [q for q in range(NUM_SECTIONS) if int(st[S.ROVER_SECTIONS]) >> q & 1]
    return {"mayor_lines": lines, "rovers_sections": sections}
