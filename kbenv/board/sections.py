"""Board sections: loading the 10x10 grids, 180-degree turns and 2x2 assembly into a board."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from .codes import LOCATION_LETTERS, TERRAIN_LETTERS

SECTION_SIZE = 10
BASE_SECTIONS = ("tavern", "paddock", "oasis", "farm", "tower", "harbor", "oracle", "barn")
NOMAD_SECTIONS = ("caravan", "quarry", "garden", "village")
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
            raise ValueError(f"{source}: row {i} has unknown codes {''.join(bad)!r}")
    return rows


_CACHE: dict[str, list[str]] = {}


def load_section(name: str) -> list[str]:
    """The grid of a named built-in section, or of a section file given by path."""
    if name in _CACHE:
        return _CACHE[name]
    path = Path(name)
    if path.suffix == ".txt" and path.exists():
        rows = parse_section(path.read_text(), str(path))
    else:
        try:
            text = resources.files("kbenv.data.sections").joinpath(f"{name}.txt").read_text()
        except FileNotFoundError:
            known = ", ".join(BASE_SECTIONS + NOMAD_SECTIONS)
            raise ValueError(f"unknown section {name!r}; known sections: {known} (or a path to a .txt file)") from None
        rows = parse_section(text, name)
    _CACHE[name] = rows
    return rows


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
