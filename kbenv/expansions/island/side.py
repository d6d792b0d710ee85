"""The Island, as the generic Python code sees it (kbenv.expansions.registry). Its set-up field `island` (side
and rows) is checked with the board (kbenv.expansions.island.setup.validate_island)."""

from ...board.geometry import ISLAND_COLS, ROWS
from ..registry import ExpansionSide, TextLayer
from . import setup
from .draw import IMAGE_BOARD
from .view import island_facts, island_heading, island_side_lines


def position_keys(game) -> dict:
    return {"island": setup.island_position(game.setup.island)} if game.setup.island is not None else {}


def text_legend() -> list[str]:
    return ["island: drawn below the board, not connected to it; its hexes are island r,c (line r, column c), "
            "its location letter is its type's"]


def text_below(game, draw) -> list[str]:
    """Below the board, not connected to it: a heading naming the side, the column numbers, its 5 lines."""
    facts = island_facts(game)
    lines = [island_heading(facts), "   " + "".join(f"{c:<2d}"[:2] if c % 2 == 0 else "  " for c in range(ISLAND_COLS))]
    return lines + [draw(ROWS + r, row, facts.mayor_lines.get(r), r) for r, row in enumerate(facts.rows)]


TEXT_BOARD = TextLayer(below=text_below, lines=lambda game: island_side_lines(island_facts(game)))


SIDES = (ExpansionSide(
    "island",
    position_keys=position_keys,
    position_form=setup.position_out,
    text_legend=text_legend,
    text_board=TEXT_BOARD,
    image_board=IMAGE_BOARD,
    public_facts=island_facts,
),)
