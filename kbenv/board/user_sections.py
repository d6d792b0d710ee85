"""Real sections that a user who owns the game drops into a folder: they replace kbenv's substitutes.

No layout of the Marshlands sections is reachable, so kbenv ships generated substitutes (catalogue.SECTIONS,
`marsh-substitute-1..4`), each standing in for one printed section named after its location type (the
Marshlands location types of kbenv.catalogue). Put the real section as `<that name>.txt` (kb-data format: see
kbenv.board.section_files) into a folder and point the environment variable KBENV_SECTIONS at it:

    KBENV_SECTIONS=~/kingdom-builder-sections kbenv sections

Then the section is known by its own name (the location type's) wherever sections are named, `kbenv sections` lists it
(and checks every file in the folder: run it after adding one), and `marshlands_pool()` puts it in the place
of its substitute. Files are read when used, never cached; a file that breaks a rule is refused with a message
naming the file, the line and the field. Other files in the folder are refused too (only the printed sections
kbenv lacks can be supplied), except files that do not end in .txt, which are ignored.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..catalogue import SECTIONS
from ..safe_json import short_repr
from .section_files import SectionFileError, check_marshlands_section, read_section_file

ENV_VAR = "KBENV_SECTIONS"
# printed section (named after its location type) -> the substitute it replaces
REPLACES = {sec.stands_for: sec.name for sec in SECTIONS if sec.stands_for}


def user_folder(environ=None) -> Path | None:
    """The folder named by KBENV_SECTIONS (None when unset or empty); SectionFileError if it is no folder."""
    environ = os.environ if environ is None else environ
    value = environ.get(ENV_VAR, "").strip()
    if not value:
        return None
    folder = Path(value).expanduser()
    if not folder.is_dir():
        raise SectionFileError(f"{ENV_VAR}={short_repr(value)}: no such folder")
    return folder


def user_section_paths(environ=None) -> dict[str, Path]:
    """{printed section name: file} of the folder's section files; SectionFileError for a file of another name."""
    folder = user_folder(environ)
    if folder is None:
        return {}
    found = {}
    for path in sorted(folder.glob("*.txt")):
        if path.stem not in REPLACES:
            raise SectionFileError(f"{path}: {short_repr(path.stem)} is not a section kbenv lacks; name the file "
                                   f"after the printed section it holds: {', '.join(f'{k}.txt' for k in REPLACES)}")
        found[path.stem] = path
    return found


def load_user_section(name: str, environ=None) -> list[str]:
    """The checked rows (kbenv letters) of a printed section from the user's folder; SectionFileError if absent
    or wrong."""
    if name not in REPLACES:
        raise SectionFileError(f"section {short_repr(name)}: not a section that a file in {ENV_VAR} can supply")
    paths = user_section_paths(environ)
    if name not in paths:
        folder = user_folder(environ)
        where = f"the folder {short_repr(str(folder))}" if folder else f"a folder named by {ENV_VAR}"
        raise SectionFileError(f"section {short_repr(name)}: the printed section is not shipped with kbenv (no "
                               f"layout is reachable); put {name}.txt (kb-data format) into {where}, or use its "
                               f"substitute {short_repr(REPLACES[name])}")
    sf = read_section_file(paths[name])
    check_marshlands_section(sf, name, name)  # a printed section carries the location type it is named after
    return sf.rows


def marshlands_pool(environ=None) -> tuple[str, ...]:
    """The four Marshlands sections in catalogue order: the user's real one where its file is in the folder,
    else the substitute."""
    paths = user_section_paths(environ)
    return tuple(kind if kind in paths else sub for kind, sub in REPLACES.items())
