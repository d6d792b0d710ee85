"""Crossroads, as the generic Python code sees it (kbenv.expansions.registry)."""

from ..registry import ExpansionSide
from . import setup

# An empty hex of a warrior zone shows its terrain or location letter followed by ZONE_MARK on the text board.
ZONE_MARK = "-"


def piece_marks(kind) -> tuple[tuple[str, str], ...]:
    """(mark, name) of a piece kind in the key: one, or for a piece covering several hexes its centre and the
    other cells ("city hall (centre)", "city hall (other 6 cells)")."""
    if not kind.cell_mark:
        return ((kind.mark, kind.label),)
    return ((kind.mark, f"{kind.label} (centre)"), (kind.cell_mark, f"{kind.label} (other {kind.cells - 1} cells)"))


def text_legend() -> list[str]:
    """The key to the Crossroads pieces (owner's digit and mark) and the warrior zone."""
    marks = ", ".join(f"0{mark} {name}" for kind in setup.CROSSROADS_KINDS for mark, name in piece_marks(kind))
    return [f"crossroads pieces (owner's digit, then the piece's mark; 0 = player_0): {marks}",
            f"warrior zone: an empty hex next to a warrior shows its letter, then {ZONE_MARK} (g{ZONE_MARK})"]


SIDES = (ExpansionSide(
    "crossroads",
    setup_fields=setup.CROSSROADS_PIECES,
    check_pieces=setup.check_pieces,
    apply_pieces=setup.apply_pieces,
    position_keys=setup.position_keys,
    text_legend=text_legend,
),)
