"""Board sections: loading the 10x10 grids, 180-degree turns and 2x2 assembly into a board.

Built-in sections live in kbenv/data/sections (kbenv letters, or the kb-data format with `L` and
`# location:` lines, as the generated Marshlands substitutes are written). The printed Marshlands sections
(one per Marshlands location type) come from the user's folder (kbenv.board.user_sections); a name ending in
.txt is read as a section file.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ..catalogue import section_name, sections_of
from ..safe_json import short_repr
from .codes import LOCATION_LETTERS, TERRAIN_LETTERS
from .section_files import check_marshlands_section, parse_section_file, read_section_text
from .user_sections import REPLACES, load_user_section

SECTION_SIZE = 10
# From the catalogue's section rows; their order is the section ids of seeded set-ups (never reorder).
BASE_SECTIONS = sections_of(None)
NOMAD_SECTIONS = sections_of("nomads")
CROSSROADS_SECTIONS = sections_of("crossroads")  # single unverified source: see kbenv.catalogue.SECTIONS
# Generated substitutes (no printed layout is reachable): in the numba section tables after the Crossroads
# sections, and in the random pool of Marshlands games (M-1).
MARSHLANDS_SUBSTITUTES = sections_of("marshlands")
HARVEST_SUBSTITUTES = sections_of("harvest")  # generated too (kb-data format), in the pool of Harvest games (H-1)
BUILTIN_SECTIONS = BASE_SECTIONS + NOMAD_SECTIONS + CROSSROADS_SECTIONS + MARSHLANDS_SUBSTITUTES + HARVEST_SUBSTITUTES
SUBSTITUTE_KIND = {sub: kind for kind, sub in REPLACES.items()}  # substitute -> its location type
VALID_CODES = set(TERRAIN_LETTERS) | set(LOCATION_LETTERS)


def parse_section(text: str, source: str = "section") -> list[str]:
    """Parse a section file: '#' comment lines, then 10 lines of 10 codes."""
    rows = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if len(rows) != SECTION_SIZE:
        raise ValueError(f"{source}: expected {SECTION_SIZE} rows of codes, found {len(rows)}")
    for i, row in enumerate(rows):
        if len(row) != SECTION_SIZE:
            raise ValueError(f"{source}: row {i} has {len(row)} codes, expected {SECTION_SIZE}")
        bad = sorted(set(row) - VALID_CODES)
        if bad:
            raise ValueError(f"{source}: row {i} has unknown codes {short_repr(''.join(bad))}")
    return rows


_BUILTIN_CACHE: dict[str, list[str]] = {}


def load_section(name: str) -> list[str]:
    """The grid of a named built-in section, or of a section file given by path (a name ending in .txt).

    Built-in sections are read once. Files are read every time (a 10-line file costs microseconds), so
    an edited file is never served from a stale cache, however quickly it was edited.
    """
    name = section_name(name)  # a former name (cityhall) reads today's section
    if name in _BUILTIN_CACHE:
        return list(_BUILTIN_CACHE[name])
    if name.endswith(".txt"):
        return _load_file(Path(name))
    if name in REPLACES:
        return load_user_section(name)
    if name not in BUILTIN_SECTIONS:
        known = ", ".join(BUILTIN_SECTIONS)
        raise ValueError(f"unknown section {short_repr(name, 500)}; known sections: {known}, the printed Marshlands "
                         f"sections {', '.join(REPLACES)} from files (kbenv.board.user_sections), or a path to a "
                         ".txt file")
    text = resources.files("kbenv.data.sections").joinpath(f"{name}.txt").read_text()
    if name in SUBSTITUTE_KIND:
        sf = parse_section_file(text, f"kbenv/data/sections/{name}.txt")
        check_marshlands_section(sf, SUBSTITUTE_KIND[name], name)
        _BUILTIN_CACHE[name] = sf.rows
    elif name in HARVEST_SUBSTITUTES:
        _BUILTIN_CACHE[name] = parse_section_file(text, f"kbenv/data/sections/{name}.txt").rows
    else:
        _BUILTIN_CACHE[name] = parse_section(text, name)
    return list(_BUILTIN_CACHE[name])


def _load_file(path: Path) -> list[str]:
    """A section file's rows; ValueError naming the file if it is missing or unreadable."""
    text = read_section_text(path)  # SectionFileError is a ValueError
    if _kb_data_format(text):
        sf = parse_section_file(text, str(path))
        if "expansion" in sf.header and sf.header["expansion"][0] == "marshlands":
            check_marshlands_section(sf)
        return sf.rows
    return parse_section(text, str(path))


def _kb_data_format(text: str) -> bool:
    """A file in the kb-data format: its grid has L (location hexes typed by '# location:' lines)."""
    return any("L" in line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#"))


def turn_section(rows: list[str]) -> list[str]:
    """The section turned by 180 degrees: (r, c) -> (9 - r, 9 - c)."""
    return [row[::-1] for row in reversed(rows)]


def assemble(sections: list[tuple[str, bool]]) -> list[str]:
    """Four (name, turned) sections, TL TR BL BR, as 20 strings of 20 codes."""
    if len(sections) != 4:
        raise ValueError(f"sections: expected 4 (TL, TR, BL, BR), got {len(sections)}")
    grids = []
    for name, turned in sections:
        rows = load_section(name)
        grids.append(turn_section(rows) if turned else rows)
    top = [a + b for a, b in zip(grids[0], grids[1], strict=False)]
    bottom = [a + b for a, b in zip(grids[2], grids[3], strict=False)]
    return top + bottom
