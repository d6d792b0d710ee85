"""Capitol and Caves in the picture (kbenv.present.image): a capitol on its castle, a cave on its mountain."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...board.colours import CAPITOL_RGB, CAVE_RGB, WALL_MORTAR_RGB
from ...board.pixels import RADIUS
from ..registry import ImageLayer

if TYPE_CHECKING:
    from PIL.ImageDraw import ImageDraw

CAPITOL_KEY = (("capitol (on a castle)", CAPITOL_RGB),)
CAVES_KEY = (("cave (on a mountain)", CAVE_RGB),)


def draw_capitol(draw: ImageDraw, x: float, y: float) -> None:
    """A capitol on its castle: a domed hall in the capitol colour in front of the castle."""
    w, h = RADIUS * 0.95, RADIUS * 0.4
    outline = (40, 40, 40)
    draw.rectangle([x - w / 2, y - h / 4, x + w / 2, y + h * 1.1], fill=CAPITOL_RGB, outline=outline)
    dome = w * 0.36
    draw.pieslice([x - dome, y - h / 4 - dome, x + dome, y - h / 4 + dome], 180, 360, fill=CAPITOL_RGB,
                  outline=outline)
    draw.line([x, y - h / 4 - dome, x, y - h / 4 - dome - 4], fill=outline)
    for k in (-1, 0, 1):  # columns
        draw.line([x + k * w / 4, y + h * 0.15, x + k * w / 4, y + h * 0.9], fill=WALL_MORTAR_RGB)


def draw_cave(draw: ImageDraw, x: float, y: float) -> None:
    """A cave on its mountain: a dark arched mouth."""
    w = RADIUS * 0.95
    draw.chord([x - w / 2, y - w * 0.45, x + w / 2, y + w * 0.75], 180, 360, fill=CAVE_RGB)
    draw.rectangle([x - w / 2, y + w * 0.15, x + w / 2, y + w * 0.3], fill=CAVE_RGB)


CAPITOL_IMAGE = ImageLayer(over=lambda game: [(rc, draw_capitol) for rc in game.capitols()], key=CAPITOL_KEY,
                           treasury_line=True)
CAVES_IMAGE = ImageLayer(over=lambda game: [(rc, draw_cave) for rc in game.caves()], key=CAVES_KEY,
                         treasury_line=True)
