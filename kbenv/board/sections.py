"""Board sections: loading the 10x10 grids, 180-degree turns and 2x2 assembly into a board."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ..catalogue import section_name, sections_of
from .codes import LOCATION_LETTERS, TERRAIN_LETTERS

SECTION_SIZE = 10
# From the catalogue's section rows; their order is the section ids of seeded set-ups (never reorder).
BASE_SECTIONS = sections_of(None)
NOMAD_SECTIONS = sections_of("nomads")
CROSSROADS_SECTIONS = sections_of("crossroads")  # single unverified source: see kbenv.catalogue.SECTIONS
BUILTIN_SECTIONS = BASE_SECTIONS + NOMAD_SECTIONS + CROSSROADS_SECTIONS
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
    if name not in BUILTIN_SECTIONS:
        known = ", ".join(BUILTIN_SECTIONS)
        raise ValueError(f"unknown section {name!r}; known sections: {known} (or a path to a .txt file)")
    text = resources.files("kbenv.data.sections").joinpath(f"{name}.txt").read_text()
    _BUILTIN_CACHE[name] = parse_section(text, name)
    return list(_BUILTIN_CACHE[name])


def _load_file(path: Path) -> list[str]:
    """A section file's rows; ValueError naming the file if it is missing or unreadable."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"section file {str(path)!r}: no such file") from None
    except IsADirectoryError:
        raise ValueError(f"section file {str(path)!r}: is a folder, not a file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"section file {str(path)!r}: cannot be read ({err})") from None
    return parse_section(text, str(path))


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
