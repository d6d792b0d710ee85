"""The Island, as the generic Python code sees it (kbenv.expansions.registry). Its set-up field `island` (side
and rows) is checked with the board (kbenv.expansions.island.setup.validate_island)."""

from ..registry import ExpansionSide
from . import setup


def position_keys(game) -> dict:
    return {"island": setup.island_position(game.setup.island)} if game.setup.island is not None else {}


def text_legend() -> list[str]:
    return ["island: drawn below the board, not connected to it; its hexes are island r,c (line r, column c), "
            "its location letter is its type's"]


SIDES = (ExpansionSide(
    "island",
    position_keys=position_keys,
    position_form=setup.position_out,
    text_legend=text_legend,
),)
