"""The public Island facts of a game (issue 23), read once for the renderers, the browser page and the words: the
island's side and terrain, its location hex with the tiles left, and the island lines marked for Mayors (Harvest).

Inside kbenv an island hex (r, c) is the extended (ROWS + r, c) (kbenv.expansions.island.setup); people read it as
`island r,c` (`hex_words`), the name of its action (kbenv.catalogue.ISLAND_ACTIONS). Everything here is public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...board.codes import LOCATION_LETTERS, LOCATION_NAMES
from ...board.geometry import ISLAND_COLS, ISLAND_FIRST, ISLAND_ROWS, ROWS
from ...catalogue import ISLAND_ACTION_BASE
from ...engine import state as S

if TYPE_CHECKING:
    pass

ISLAND_WORD = "island"


@dataclass(frozen=True)
class IslandFacts:
    """The island in play: `side` (its name), `rows` (ISLAND_ROWS strings of ISLAND_COLS kbenv letters, line 0
    first), its location hex `location` (island (r, c)) of type `location_type` with `tiles_left` tiles on it, and
    `mayor_lines` {island line: seat} (Harvest's Mayors, empty otherwise)."""

    side: str
    rows: tuple[str, ...]
    location: tuple[int, int] | None
    location_type: str | None
    tiles_left: int
    mayor_lines: dict[int, int]


def island_facts(game) -> IslandFacts | None:
    """The Island facts of a game or PlayerView's public game (anything with `setup` and `state`), or None when
    the island is not in play."""
    island = getattr(game.setup, "island", None)
    if island is None:
        return None
    side, rows = island
    st = game.state
    at = int(st[S.ISLAND_LOC_AT]) - 1
    location = location_type = None
    if at >= 0:
        location = divmod(at - ISLAND_FIRST, ISLAND_COLS)
        location_type = LOCATION_NAMES[int(st[S.ISLAND_LOC_TYPE])]
    else:  # no state block (should not happen): the letter on the rows
        cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch in LOCATION_LETTERS]
        if cells:
            location = cells[0]
            location_type = LOCATION_NAMES[LOCATION_LETTERS.index(rows[location[0]][location[1]])]
    return IslandFacts(side=str(side), rows=tuple(rows), location=location, location_type=location_type,
                       tiles_left=int(st[S.ISLAND_LOC_TILES]) if at >= 0 else 0,
                       mayor_lines={r: int(st[S.ISLAND_MAYOR_LINES + r]) - 1 for r in range(ISLAND_ROWS)
                                    if st[S.ISLAND_MAYOR_LINES + r] > 0})


def on_island(rc) -> bool:
    """Whether an extended (row, col) is an island hex."""
    return int(rc[0]) >= ROWS


def island_rc(rc) -> tuple[int, int]:
    """The island (r, c) of an extended island hex (ROWS + r, c)."""
    return int(rc[0]) - ROWS, int(rc[1])


def extended_rc(r: int, c: int) -> tuple[int, int]:
    """The extended (ROWS + r, c) of island hex (r, c)."""
    return ROWS + int(r), int(c)


def hex_words(rc) -> str:
    """A hex as a person reads and types it: '3,4' on the board, 'island 1,2' on the island."""
    r, c = int(rc[0]), int(rc[1])
    if r >= ROWS:
        return f"{ISLAND_WORD} {r - ROWS},{c}"
    return f"{r},{c}"


def island_action(r: int, c: int) -> int:
    """The action id of island hex (r, c): `island r,c` (kbenv.catalogue.ISLAND_ACTION_BASE + 4r + c)."""
    return ISLAND_ACTION_BASE + ISLAND_COLS * int(r) + int(c)


def parse_island_hex(text: str) -> tuple[int, int] | str | None:
    """The island (r, c) of typed text 'island r,c' (also 'island r c', 'i r,c'), the reason it is off the island,
    or None when the text names no island hex."""
    words = text.strip().lower().replace(",", " ").split()
    if len(words) != 3 or words[0] not in (ISLAND_WORD, "i"):
        return None
    if not all(w.lstrip("-").isdigit() for w in words[1:]):
        return None
    r, c = int(words[1]), int(words[2])
    if not (0 <= r < ISLAND_ROWS and 0 <= c < ISLAND_COLS):
        return (f"island {r},{c} is off the island (lines 0..{ISLAND_ROWS - 1}, columns 0..{ISLAND_COLS - 1})")
    return r, c


def island_heading(facts: IslandFacts) -> str:
    """The line above the island's drawing: its side and that it is not connected to the board."""
    return (f"island ({facts.side}; not connected to the board; its hexes are island r,c, lines 0..{ISLAND_ROWS - 1},"
            f" columns 0..{ISLAND_COLS - 1}):")


def island_side_lines(facts: IslandFacts | None) -> list[str]:
    """The side text of the island: its location with the tiles left, the island lines marked for Mayors."""
    if facts is None:
        return []
    from ...board.colours import seat_name

    lines = []
    if facts.location is not None:
        r, c = facts.location
        name = (facts.location_type or "location").replace("_", " ")
        lines.append(f"island location: {name} at island {r},{c}, {facts.tiles_left} tile"
                     f"{'' if facts.tiles_left == 1 else 's'} left")
    if facts.mayor_lines:
        marks = ", ".join(f"line {r} {seat_name(p)}" for r, p in sorted(facts.mayor_lines.items()))
        lines.append(f"mayors island lines: {marks}")
    return lines
