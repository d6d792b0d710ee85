"""Capitol and Caves, as the generic Python code sees them (kbenv.expansions.registry)."""

from ...board.colours import CAPITOL_ANSI, CAPITOL_MARK, CAVE_ANSI, CAVE_MARK
from ..checks import ExpansionSetupError
from ..registry import ExpansionSide, PositionCheck, TextLayer
from . import setup
from .draw import CAPITOL_IMAGE, CAVES_IMAGE

CAPITOL_SECTIONS = ("oracle", "harbor")  # QC-1: a capitol stands on a castle of one of these sections


def check_capitol_sections(check: PositionCheck) -> None:
    """On a board of sections, each capitol on a castle of the Oracle or Harbor section (QC-1)."""
    if check.sections is None:
        return
    for r, c in check.pieces.get("capitols", ()):
        name = check.sections[(r // 10) * 2 + c // 10][0]
        if name not in CAPITOL_SECTIONS:
            raise ExpansionSetupError(f"capitols: hex {[r, c]} is a castle of the {name} section; capitols go on "
                                      "castles of the Oracle and Harbor sections (QC-1)")

SIDES = (
    ExpansionSide("capitol", setup_fields=("capitols",), check_pieces=setup.check_capitols,
                  apply_pieces=setup.apply_capitols, position_keys=setup.capitol_keys,
                  check_position=check_capitol_sections,
                  text_board=TextLayer(marks=lambda game: {rc: (CAPITOL_MARK, CAPITOL_ANSI) for rc in game.capitols()}),
                  text_pieces=(f"{CAPITOL_MARK} capitol (on its castle)",), image_board=CAPITOL_IMAGE),
    ExpansionSide("caves", setup_fields=("caves",), check_pieces=setup.check_caves, apply_pieces=setup.apply_caves,
                  position_keys=setup.cave_keys, text_pieces=(f"{CAVE_MARK} cave (on its mountain)",),
                  text_board=TextLayer(marks=lambda game: {rc: (CAVE_MARK, CAVE_ANSI) for rc in game.caves()}),
                  image_board=CAVES_IMAGE),
)
