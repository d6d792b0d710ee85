"""Harvest in the picture (kbenv.present.image): farmland and silos are terrain colours; scouts are drawn in the
turn owner's colour; a row marked for Mayors gets a disc in the seat's colour at its free end
(kbenv.board.pixels.mayor_mark_centre); the panel has the Harvest facts (kbenv.expansions.harvest.view)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...board.colours import SEAT_RGB, TERRAIN_RGB
from ...board.pixels import RADIUS, in_colour
from ..registry import ImageLayer
from .view import SCOUT, harvest_facts, harvest_lines

if TYPE_CHECKING:
    from PIL.ImageDraw import ImageDraw

HARVEST_KEY = (("farmland", TERRAIN_RGB["A"]), ("silo", TERRAIN_RGB["O"]))


def draw_scout(draw: ImageDraw, x: float, y: float, colour) -> None:
    """A scout (Harvest): a diamond tile with a white eye slit."""
    s, outline = RADIUS * 0.62, (0, 0, 0)
    draw.polygon([(x, y - s), (x + s, y), (x, y + s), (x - s, y)], fill=colour, outline=outline)
    draw.line([x - s * 0.45, y - s * 0.35, x + s * 0.45, y - s * 0.35], fill=(255, 255, 255), width=2)


def top(game) -> list:
    """The scouts on the board, in the turn owner's colour."""
    facts = harvest_facts(game.state)
    return [(rc, in_colour(draw_scout, SEAT_RGB[facts.scout_owner])) for rc in facts.scouts]


def status(panel, game) -> None:
    """The Harvest facts of the game (the number tiles' pool: each seat's value is in its block)."""
    for line in harvest_lines(harvest_facts(game.state), game.cards, per_seat=False):
        panel.wrapped(line)


def seat_lines(panel, game, p: int, score: dict) -> None:
    panel.text(f"number tiles: value {harvest_facts(game.state).number_tiles[p]}", small=True, dx=18)


def legend(panel) -> None:
    panel.text("  harvest, in the colour of the turn owner / the seat:", small=True)
    panel.icons([(SCOUT.label, draw_scout)], dx=10)
    panel.text("  disc at a row's end: the row is marked for Mayors", small=True)


IMAGE_BOARD = ImageLayer(top=top, row_marks=lambda game: dict(harvest_facts(game.state).mayor_lines),
                         key=HARVEST_KEY, legend=legend, status=status, seat_lines=seat_lines, treasury_line=True)
