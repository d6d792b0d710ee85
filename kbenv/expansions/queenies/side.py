"""Capitol and Caves, as the generic Python code sees them (kbenv.expansions.registry)."""

from ...board.colours import CAPITOL_MARK, CAVE_MARK
from ..registry import ExpansionSide
from . import setup

SIDES = (
    ExpansionSide("capitol", setup_fields=("capitols",), check_pieces=setup.check_capitols,
                  apply_pieces=setup.apply_capitols, position_keys=setup.capitol_keys,
                  text_pieces=(f"{CAPITOL_MARK} capitol (on its castle)",)),
    ExpansionSide("caves", setup_fields=("caves",), check_pieces=setup.check_caves, apply_pieces=setup.apply_caves,
                  position_keys=setup.cave_keys, text_pieces=(f"{CAVE_MARK} cave (on its mountain)",)),
)
