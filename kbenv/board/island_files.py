"""Island sides: the file format, the two shipped substitute sides and the procedure that made them.

No layout of either printed island side is reachable (spec section 2, decision 5), so kbenv ships two substitutes,
`island-substitute-1` (the rope bridge side) and `island-substitute-2` (the tree house side), in
kbenv/data/islands/, made by `substitute_side` below (scripts/make_island_substitutes.py writes the files; a test
regenerates them and compares). A user who owns the game loads a real side from a file in the same format.

The format is a board section's (kb-data README; decision 8 "its own section file format is the same as a board
section's"), with the island's size: `#` header lines (`# key: value`; `# location: r,c type` for each `L`), then
exactly ISLAND_ROWS lines of ISLAND_COLS codes, line 0 first (odd-r: odd lines sit half a hex to the right). Codes:
the terrain letters, `L` for the location hex, or kbenv's own location letters. The island is the fixed 5 x 4 grid of
kbenv.board.geometry (IA3); a ragged real island would need a no-hex letter, not supported yet.

The substitute procedure (seed 23, issue 23), following the printed component counts (EN 1435-1443: one location hex
per side with its 2 tiles; 5 lines, A-QI4): side k (1, 2) has one location hex of type k of the island (rope bridge,
tree house), placed on a random inner hex (one with 6 island neighbours); the other 19 hexes get, in a random order,
    G C D F T: 3 each, W: 2, M: 2
(the base sections' mix of card terrains, water and mountains, scaled down), from random.Random(23 * 10 + k); a
draw is kept when the location hex has at least 3 buildable neighbours and the side has canyon and forest hexes
off the location (the targets of the two powers), else the generator draws again.
"""

from __future__ import annotations

import random
from pathlib import Path

from ..catalogue import LOCATION_NAMES, LOCATION_TYPES
from ..safe_json import short_repr
from .codes import LOCATION_LETTERS, TERRAIN_LETTERS
from .geometry import ISLAND_COLS, ISLAND_ROWS, ROWS, STEP1, hex_id

ISLAND_TYPES = tuple(loc.name for loc in LOCATION_TYPES if loc.expansion == "island")  # rope_bridge, tree_house
SUBSTITUTE_SIDES = tuple(f"island-substitute-{k + 1}" for k in range(len(ISLAND_TYPES)))
SUBSTITUTE_SEED = 23
SUBSTITUTE_MIX = "GGGCCCDDDFFFTTTWWMM"  # 19 hexes besides the location hex
ISLAND_CODES = "GCDFTWM"  # terrains a side may have (no castles, nomad spaces or expansion terrains on the island)
DATA = Path(__file__).resolve().parent.parent / "data" / "islands"


class IslandFileError(ValueError):
    """An island side that cannot be used; the message names the source, the line and the field."""


def _fail(source: str, line: int | None, fieldname: str, message: str) -> IslandFileError:
    at = f"{source}, line {line}" if line else source
    return IslandFileError(f"{at}: {fieldname}: {message}")


def parse_island_file(text: str, source: str = "island") -> list[str]:
    """The ISLAND_ROWS rows of an island side file, location hexes as kbenv's location letters."""
    grid: list[tuple[int, str]] = []
    locations: dict[tuple[int, int], tuple[str, int]] = {}
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            body = line[1:].strip()
            key, _, value = (part.strip() for part in body.partition(":"))
            if key == "location":
                parts = value.split()
                rc = parts[0].split(",") if parts else []
                if len(parts) != 2 or len(rc) != 2 or not all(x.strip().isdigit() for x in rc):
                    raise _fail(source, n, "location", f"expected 'row,col type', got {short_repr(value)}")
                r, c = (int(x) for x in rc)
                if not (0 <= r < ISLAND_ROWS and 0 <= c < ISLAND_COLS):
                    raise _fail(source, n, "location", f"hex {r},{c} is outside the island ({ISLAND_ROWS} lines of "
                                f"{ISLAND_COLS})")
                if parts[1] not in ISLAND_TYPES:
                    raise _fail(source, n, "location", f"{short_repr(parts[1])} is no island location type; expected "
                                f"{' or '.join(ISLAND_TYPES)}")
                locations[(r, c)] = (parts[1], n)
            continue
        grid.append((n, line))
    if len(grid) != ISLAND_ROWS:
        raise _fail(source, None, "grid", f"expected {ISLAND_ROWS} lines of {ISLAND_COLS} codes, found {len(grid)}")
    return island_rows([line for _, line in grid], {rc: kind for rc, (kind, _) in locations.items()}, source,
                       [n for n, _ in grid])


def island_rows(board, locations: dict, source: str = "island", lines=None) -> list[str]:
    """Validated island rows (kbenv letters) of ISLAND_ROWS strings of ISLAND_COLS codes, `L` replaced by the types
    in `locations` {(r, c): type}; IslandFileError names what is wrong."""
    if not isinstance(board, (list, tuple)) or len(board) != ISLAND_ROWS:
        raise _fail(source, None, "board", f"expected {ISLAND_ROWS} lines of {ISLAND_COLS} codes")
    rows = []
    for r, line in enumerate(board):
        at = lines[r] if lines else None
        if not isinstance(line, str) or len(line) != ISLAND_COLS:
            raise _fail(source, at, "board", f"line {r}: expected a string of {ISLAND_COLS} codes, got "
                                             f"{short_repr(line)}")
        out = []
        for c, ch in enumerate(line):
            if ch == "L":
                if (r, c) not in locations:
                    raise _fail(source, at, "board", f"L at {r},{c} is a location hex without its type")
                out.append(LOCATION_LETTERS[LOCATION_NAMES.index(locations[(r, c)])])
            elif ch in ISLAND_CODES:
                out.append(ch)
            elif ch in LOCATION_LETTERS and LOCATION_NAMES[LOCATION_LETTERS.index(ch)] in ISLAND_TYPES:
                out.append(ch)
            else:
                raise _fail(source, at, "board", f"line {r}, column {c}: unknown code {short_repr(ch)}; an island "
                                                 f"holds {' '.join(ISLAND_CODES)} and L (a "
                                                 f"{' or '.join(ISLAND_TYPES)} location)")
        rows.append("".join(out))
    for (r, c), kind in locations.items():
        if kind not in ISLAND_TYPES:
            raise _fail(source, None, "locations", f"{short_repr(kind)} is no island location type; expected "
                        f"{' or '.join(ISLAND_TYPES)}")
        if not (0 <= r < ISLAND_ROWS and 0 <= c < ISLAND_COLS) or board[r][c] != "L":
            raise _fail(source, None, "locations", f"hex {r},{c} is not marked L on the island")
    return rows


def location_cells(rows) -> dict[tuple[int, int], str]:
    """{(r, c): type} of the location hexes of island rows in kbenv letters."""
    return {(r, c): LOCATION_NAMES[LOCATION_LETTERS.index(ch)]
            for r, row in enumerate(rows) for c, ch in enumerate(row) if ch in LOCATION_LETTERS}


def _island_neighbours(r: int, c: int) -> list[tuple[int, int]]:
    out = []
    for n in STEP1[hex_id(ROWS + r, c)]:
        if n >= 0:
            rr, cc = divmod(int(n) - hex_id(ROWS, 0), ISLAND_COLS)
            out.append((rr, cc))
    return out


def substitute_side(k: int) -> list[str]:
    """Side k (1 or 2) by the seeded procedure of the module docstring (rows in kbenv letters)."""
    rng = random.Random(SUBSTITUTE_SEED * 10 + k)
    kind = ISLAND_TYPES[k - 1]
    inner = [(r, c) for r in range(ISLAND_ROWS) for c in range(ISLAND_COLS) if len(_island_neighbours(r, c)) == 6]
    while True:
        loc = rng.choice(inner)
        mix = list(SUBSTITUTE_MIX)
        rng.shuffle(mix)
        grid = [[""] * ISLAND_COLS for _ in range(ISLAND_ROWS)]
        grid[loc[0]][loc[1]] = LOCATION_LETTERS[LOCATION_NAMES.index(kind)]
        cells = [(r, c) for r in range(ISLAND_ROWS) for c in range(ISLAND_COLS) if (r, c) != loc]
        for (r, c), ch in zip(cells, mix, strict=True):
            grid[r][c] = ch
        if sum(grid[r][c] in "GCDFT" for r, c in _island_neighbours(*loc)) >= 3:
            return ["".join(row) for row in grid]


def side_file_text(k: int) -> str:
    """The file of substitute side k, as shipped in kbenv/data/islands/."""
    rows = substitute_side(k)
    (r, c), kind = next(iter(location_cells(rows).items()))
    grid = ["".join("L" if ch in LOCATION_LETTERS else ch for ch in row) for row in rows]
    head = [f"# island: substitute side {k} (stands in for the printed {kind} side)",
            f"# id: {SUBSTITUTE_SIDES[k - 1]}",
            "# expansion: island",
            f"# SUBSTITUTE: generated by kbenv.board.island_files.substitute_side (seed {SUBSTITUTE_SEED}); "
            "no printed layout is reachable",
            f"# location: {r},{c} {kind}",
            f"# coords: (row,col); {ISLAND_ROWS} lines of {ISLAND_COLS}; odd lines sit half a hex to the right"]
    return "\n".join(head + grid) + "\n"


def load_side(name: str) -> list[str]:
    """The rows of a shipped side by name; KeyError if there is none of that name."""
    if name not in SUBSTITUTE_SIDES:
        raise KeyError(name)
    path = DATA / f"{name}.txt"
    return parse_island_file(path.read_text(encoding="utf-8"), str(path.name))


def read_island_file(path) -> list[str]:
    """The rows of an island side file (a real side a user owns); IslandFileError names what is wrong."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise IslandFileError(f"island file {short_repr(str(path), 500)}: cannot be read "
                              f"({err.__class__.__name__})") from None
    return parse_island_file(text, str(path))


__all__ = ["SUBSTITUTE_SIDES", "ISLAND_TYPES", "load_side", "read_island_file", "parse_island_file", "island_rows",
           "TERRAIN_LETTERS"]
