"""The Island in the picture (kbenv.present.image): its lines of hexes right of the board with a gap (it is not
connected to it; kbenv.board.pixels.hex_centre draws them as rows ROWS..), its name above them, the discs of its
lines marked for Mayors and its facts in the panel (kbenv.expansions.island.view)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...board.geometry import ROWS
from ...board.pixels import HEX_W, ISLAND_W, RADIUS, font, hex_centre
from ..registry import ImageLayer
from .view import island_facts, island_side_lines

if TYPE_CHECKING:
    from PIL.ImageDraw import ImageDraw

ISLAND_LABEL = (28, 28, 28)


def extra_rows(game) -> list[tuple[int, str]]:
    """The island's lines as the extended rows ROWS.. ."""
    facts = island_facts(game)
    return [] if facts is None else [(ROWS + r, row) for r, row in enumerate(facts.rows)]


def row_marks(game) -> dict[int, int]:
    """The island's lines marked for Mayors (Harvest), as the extended rows ROWS.. ."""
    facts = island_facts(game)
    return {} if facts is None else {ROWS + r: p for r, p in facts.mayor_lines.items()}


def labels(draw: ImageDraw, game) -> None:
    """The island's name above its first line: 'island' and its side."""
    facts = island_facts(game)
    if facts is None:
        return
    x, y = hex_centre(ROWS, 0)
    draw.text((x - HEX_W / 2, y - RADIUS - 34), "island", fill=ISLAND_LABEL, font=font(14))
    draw.text((x - HEX_W / 2, y - RADIUS - 17), facts.side, fill=ISLAND_LABEL, font=font(10))


def status(panel, game) -> None:
    for line in island_side_lines(island_facts(game)):
        panel.wrapped(line)


IMAGE_BOARD = ImageLayer(
    extra_rows=extra_rows,
    extra_width=lambda game: ISLAND_W if game.setup.island is not None else 0,
    row_marks=row_marks,
    labels=labels,
    status=status,
    treasury_line=True,
)
