"""Nomads in the picture (kbenv.present.image): stone walls and the nomad tiles lying on their spaces."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...board.colours import NOMAD_TILE_LABELS, NOMAD_TILE_RGB, TERRAIN_RGB, UNKNOWN_RGB, WALL_MORTAR_RGB, WALL_RGB
from ...board.pixels import RADIUS, font
from ..registry import ImageLayer

if TYPE_CHECKING:
    from PIL.ImageDraw import ImageDraw

NOMADS_KEY = (("stone wall", WALL_RGB), ("nomad tile", NOMAD_TILE_RGB))


def draw_wall(draw: ImageDraw, x: float, y: float) -> None:
    """A stone wall: three courses of grey stones with light mortar."""
    w, h = RADIUS * 1.1, RADIUS * 0.8
    left, top = x - w / 2, y - h / 2
    draw.rectangle([left, top, left + w, top + h], fill=WALL_RGB, outline=(40, 40, 40))
    for k in (1, 2):
        draw.line([left, top + k * h / 3, left + w, top + k * h / 3], fill=WALL_MORTAR_RGB)
    for k in range(3):
        offset = w / 4 if k % 2 else w / 2
        while offset < w:
            draw.line([left + offset, top + k * h / 3, left + offset, top + (k + 1) * h / 3], fill=WALL_MORTAR_RGB)
            offset += w / 2


def draw_nomad_tile(draw: ImageDraw, x: float, y: float, kind: str, tile_font) -> None:
    """A nomad tile lying on its space: a light tile with its short label (D-G, Res, Out, Swd, Tre); a
    donation tile has a stripe of the terrain it gives."""
    w, h = RADIUS * 1.3, RADIUS * 0.95
    box = [x - w / 2, y - h / 2, x + w / 2, y + h / 2]
    draw.rounded_rectangle(box, radius=3, fill=NOMAD_TILE_RGB, outline=(110, 70, 30))
    if kind.startswith("donation-"):
        stripe = TERRAIN_RGB.get(kind[-1], UNKNOWN_RGB)
        draw.rectangle([box[0] + 2, box[3] - 4, box[2] - 2, box[3] - 2], fill=stripe)
    draw.text((x, y - 2), NOMAD_TILE_LABELS[kind], fill=(70, 35, 10), font=tile_font, anchor="mm")


def over(game) -> list:
    """The walls, then the nomad tiles lying on their spaces."""
    drawings: list = [(rc, draw_wall) for rc in game.walls()]
    for rc, kind in game.nomad_spaces().items():
        if kind is not None:
            drawings.append((rc, lambda draw, x, y, kind=kind: draw_nomad_tile(draw, x, y, kind, font(10))))
    return drawings


def legend(panel) -> None:
    panel.text("  nomad tiles: D-G .. D-M donation (stripe = terrain),", small=True)
    panel.text("  Res resettlement, Out outpost, Swd sword, Tre treasure", small=True)


IMAGE_BOARD = ImageLayer(over=over, key=NOMADS_KEY, legend=legend, treasury_line=True)
