"""Section files in the kb-data format, read with errors that name the file, the line and the field.

The format (kb-data README): `#` header lines (`# key: value`, free order), then exactly 10 lines of exactly
10 codes, row 0 first. Codes: the terrain letters `G C D F T W M K N S A P O`, `L` for a location hex whose
type a `# location: r,c type` header line gives, or kbenv's own lower-case location letters. `# castle:`,
`# nomad:` and `# palace: r,c` lines, where given, must match the grid. `# id:` and `# expansion:` are
checked where the caller knows what to expect.

`check_marshlands_section` adds the printed component counts of a Marshlands section (EN 984, 990-996;
spec decision 5 and M7): swamp hexes, a palace instead of castles, and the two location hexes of the one
Marshlands type of the section; special hexes off the section border and not next to each other (as on
every known section, kb-data check.py). Generated substitutes and users' real sections pass the same checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..catalogue import LOCATION_NAMES, LOCATION_TYPES
from ..safe_json import short_repr
from .codes import LOCATION_LETTERS, TERRAIN_LETTERS

SIZE = 10
GRID_CODES = TERRAIN_LETTERS + "L"
MARSHLANDS_TYPES = tuple(loc.name for loc in LOCATION_TYPES if loc.expansion == "marshlands")
MARSHLANDS_CODES = "GCDFTWMSP" + "L" + "".join(loc.letter for loc in LOCATION_TYPES if loc.expansion == "marshlands")
LOCATIONS_PER_MARSHLANDS_SECTION = 2  # 4 tiles of each type (EN 990-996), 2 per location hex, one type per section
CODE_NAMES = {"K": "a castle", "N": "a nomad space", "A": "farmland", "O": "a silo"}


class SectionFileError(ValueError):
    """A section file that cannot be used; the message names the file, the line and the field."""


@dataclass
class SectionFile:
    """A parsed section: rows in kbenv letters (locations as their lower-case letters) and where each part
    was read (line numbers, 1-based) for later messages."""

    source: str
    rows: list[str]
    row_lines: list[int]
    locations: dict[tuple[int, int], str] = field(default_factory=dict)
    header: dict[str, tuple[str, int]] = field(default_factory=dict)  # key -> (value, line)
    declared: dict[str, dict[tuple[int, int], int]] = field(default_factory=dict)  # castle/nomad/palace -> line

    def cells(self, code: str) -> list[tuple[int, int]]:
        """The (row, col) of every hex with this code."""
        return [(r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch == code]

    def where(self, r: int) -> str:
        """'file, line N' of grid row r."""
        return f"{self.source}, line {self.row_lines[r]}"


def _fail(source: str, line: int | None, fieldname: str, message: str) -> SectionFileError:
    at = f"{source}, line {line}" if line else source
    return SectionFileError(f"{at}: {fieldname}: {message}")


def _cell(text: str, source: str, line: int, key: str) -> tuple[int, int]:
    """'r,c' -> (r, c), both 0..9."""
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise _fail(source, line, key, f"expected 'row,col' (two numbers 0..9), got {short_repr(text)}")
    r, c = (int(p) for p in parts)
    if not (0 <= r < SIZE and 0 <= c < SIZE):
        raise _fail(source, line, key, f"hex {r},{c} is outside the section (rows and columns are 0..9)")
    return r, c


def parse_section_file(text: str, source: str = "section") -> SectionFile:
    """Parse a section file's text (kb-data format or kbenv letters); SectionFileError names what is wrong."""
    grid: list[tuple[int, str]] = []
    locations: dict[tuple[int, int], tuple[str, int]] = {}
    header: dict[str, tuple[str, int]] = {}
    declared: dict[str, dict[tuple[int, int], int]] = {"castle": {}, "nomad": {}, "palace": {}}
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            body = line[1:].strip()
            if ":" not in body:
                continue  # free comment
            key, value = (part.strip() for part in body.split(":", 1))
            if key == "location":
                parts = value.split()
                if len(parts) != 2:
                    raise _fail(source, n, "location", f"expected 'row,col type', got {short_repr(value)}")
                rc = _cell(parts[0], source, n, "location")
                if parts[1] not in LOCATION_NAMES:
                    raise _fail(source, n, "location", f"unknown location type {short_repr(parts[1])}; known: "
                                f"{', '.join(LOCATION_NAMES)}")
                if rc in locations:
                    raise _fail(source, n, "location", f"hex {rc[0]},{rc[1]} is already declared on line "
                                f"{locations[rc][1]}")
                locations[rc] = (parts[1], n)
            elif key in declared:
                rc = _cell(value, source, n, key)
                declared[key][rc] = n
            elif key in ("id", "expansion", "section"):
                header[key] = (value, n)
            continue
        grid.append((n, line))
    if len(grid) != SIZE:
        where = f" (line {grid[SIZE][0]} is row {SIZE})" if len(grid) > SIZE else ""
        raise _fail(source, None, "grid", f"expected {SIZE} rows of {SIZE} codes, found {len(grid)}{where}")
    for r, (n, line) in enumerate(grid):
        if len(line) != SIZE:
            raise _fail(source, n, "grid", f"row {r} has {len(line)} codes, expected {SIZE}")
    for (r, c), (_, n) in locations.items():
        if grid[r][1][c] != "L":
            raise _fail(source, n, "location", f"hex {r},{c} shows {short_repr(grid[r][1][c])} in the grid (line "
                        f"{grid[r][0]}), not L")
    rows = []
    for r, (n, line) in enumerate(grid):
        out = []
        for c, ch in enumerate(line):
            if ch == "L":
                if (r, c) not in locations:
                    raise _fail(source, n, "grid", f"L at {r},{c} is a location hex without its type: add a line "
                                f"'# location: {r},{c} <type>'")
                out.append(LOCATION_LETTERS[LOCATION_NAMES.index(locations[(r, c)][0])])
            elif ch in TERRAIN_LETTERS or ch in LOCATION_LETTERS:
                out.append(ch)
            else:
                raise _fail(source, n, "grid", f"row {r}, column {c}: unknown code {short_repr(ch)}; known: "
                            f"{' '.join(GRID_CODES)} (and the location letters {LOCATION_LETTERS})")
        rows.append("".join(out))
    sf = SectionFile(source, rows, [n for n, _ in grid], header=header, declared=declared)
    for rc, (kind, _) in locations.items():
        sf.locations[rc] = kind
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in LOCATION_LETTERS:
                sf.locations.setdefault((r, c), LOCATION_NAMES[LOCATION_LETTERS.index(ch)])
    for key, code in (("castle", "K"), ("nomad", "N"), ("palace", "P")):
        for (r, c), n in declared[key].items():
            if rows[r][c] != code:
                raise _fail(source, n, key, f"hex {r},{c} shows {short_repr(grid[r][1][c])} in the grid (line "
                                            f"{grid[r][0]}), not {code}")
        if declared[key]:
            for r, c in sf.cells(code):
                if (r, c) not in declared[key]:
                    raise _fail(source, sf.row_lines[r], "grid", f"{code} at {r},{c} has no '# {key}: {r},{c}' line "
                                f"(the file declares its other {key} hexes)")
    return sf


def read_section_text(path: Path) -> str:
    """A section file's text; SectionFileError naming the file if it is missing or unreadable."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SectionFileError(f"section file {short_repr(str(path), 500)}: no such file") from None
    except IsADirectoryError:
        raise SectionFileError(f"section file {short_repr(str(path), 500)}: is a folder, not a file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise SectionFileError(f"section file {short_repr(str(path), 500)}: cannot be read ({err})") from None
    return text


def read_section_file(path: Path) -> SectionFile:
    """Parse a section file; SectionFileError naming the file if it is missing, unreadable or wrong."""
    return parse_section_file(read_section_text(path), str(path))


def _neighbours(r: int, c: int) -> list[tuple[int, int]]:
    """Odd-r neighbours inside the section."""
    odd = r % 2
    cand = [(r, c - 1), (r, c + 1), (r - 1, c - 1 + odd), (r - 1, c + odd), (r + 1, c - 1 + odd), (r + 1, c + odd)]
    return [(a, b) for a, b in cand if 0 <= a < SIZE and 0 <= b < SIZE]


def check_marshlands_section(sf: SectionFile, kind: str | None = None, name: str | None = None) -> None:
    """The printed component counts of a Marshlands section of location type `kind` (one of the Marshlands
    location types; None: the type of its first location hex); `name`: the section name the file must declare in
    `# id:` if it has one."""
    src = sf.source
    if kind is None:
        marsh = [t for _, t in sorted(sf.locations.items()) if t in MARSHLANDS_TYPES]
        if not marsh:
            raise _fail(src, None, "location", f"no location hex of a Marshlands type ({', '.join(MARSHLANDS_TYPES)})")
        kind = marsh[0]
    if kind not in MARSHLANDS_TYPES:
        raise SectionFileError(f"{src}: {short_repr(kind)} is not a Marshlands location type "
                               f"({', '.join(MARSHLANDS_TYPES)})")
    if "expansion" in sf.header and sf.header["expansion"][0] != "marshlands":
        value, n = sf.header["expansion"]
        raise _fail(src, n, "expansion", f"expected marshlands, got {short_repr(value)}")
    if name is not None and "id" in sf.header and sf.header["id"][0] != name:
        value, n = sf.header["id"]
        raise _fail(src, n, "id", f"the file is read as section {short_repr(name)} but says {short_repr(value)}")
    for r, row in enumerate(sf.rows):
        for c, ch in enumerate(row):
            if ch not in MARSHLANDS_CODES:
                what = CODE_NAMES.get(ch) or (f"a {LOCATION_NAMES[LOCATION_LETTERS.index(ch)]} location"
                                              if ch in LOCATION_LETTERS else repr(ch))
                why = " (the palace replaces the castles, EN 984)" if ch == "K" else ""
                raise _fail(src, sf.row_lines[r], "grid", f"{r},{c} is {what}, which no Marshlands section has{why}")
    wrong = {rc: t for rc, t in sf.locations.items() if t != kind}
    if wrong:
        (r, c), t = sorted(wrong.items())[0]
        raise _fail(src, sf.row_lines[r], "location", f"{r},{c} is a {t} location; a {kind} section has "
                    f"{LOCATIONS_PER_MARSHLANDS_SECTION} location hexes of one type, {kind} (EN 984: one type per "
                    "section)")
    if len(sf.locations) != LOCATIONS_PER_MARSHLANDS_SECTION:
        raise _fail(src, None, "location", f"{len(sf.locations)} {kind} location hexes, expected "
                    f"{LOCATIONS_PER_MARSHLANDS_SECTION} (4 tiles of each type, 2 per location hex, EN 990-996)")
    if not sf.cells("P"):
        raise _fail(src, None, "palace", "palace missing: no P hex in the grid (a Marshlands section has a palace "
                    "instead of castles, EN 984)")
    if not sf.cells("S"):
        raise _fail(src, None, "grid", "no swamp hex (S): swamp is the new terrain of the Marshlands sections (EN 984)")
    special = sorted(set(sf.locations) | set(sf.cells("P")))
    for r, c in special:
        if r in (0, SIZE - 1) or c in (0, SIZE - 1):
            raise _fail(src, sf.row_lines[r], "grid", f"special hex {r},{c} ({sf.rows[r][c]}) is on the section "
                        "border (no known section has one there)")
        for nb in _neighbours(r, c):
            if nb in special:
                raise _fail(src, sf.row_lines[r], "grid", f"special hexes {r},{c} and {nb[0]},{nb[1]} are next "
                            "to each other (no known section has that)")
