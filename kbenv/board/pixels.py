"""The picture's shared pixels: what the board picture (kbenv.present.image) and the expansions' drawings
(kbenv/expansions/<package>/draw.py) both need — the hex size and margins, where a hex and a row's Mayors mark
are drawn (the Island's lines beside the board), hex corners, fonts, the key's piece colour and the names of the
terrain cards. Pillow is imported when a font is first loaded, not with this module."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

from .colours import Rgb
from .geometry import ISLAND_COLS, ROWS

RADIUS = 17
HEX_W = math.sqrt(3) * RADIUS
MARGIN = 12
# Owned pieces (Crossroads' pieces, Harvest's scouts) are drawn in the panel's key in KEY_PIECE_RGB.
KEY_PIECE_RGB: Rgb = (160, 160, 160)
TERRAIN_CARD_NAMES = {"G": "grass", "C": "canyon", "D": "desert", "F": "flower field", "T": "forest"}

# The Island (kbenv.expansions.island.view): drawn right of the board, ISLAND_GAP pixels away (it is not connected to
# it), its line 0 level with board row ISLAND_TOP_ROW so that its 5 lines sit in the middle of the board's height.
# Its hexes are the extended rows ROWS.. of hex_centre. Base-game pictures are unchanged (the island widens island
# games only).
BOARD_W = int(MARGIN * 2 + HEX_W * 20.5)
BOARD_H = int(MARGIN * 2 + RADIUS * 2 + 1.5 * RADIUS * 19)
ISLAND_GAP = int(HEX_W * 1.5)
ISLAND_TOP_ROW = 7.5
ISLAND_LEFT = BOARD_W + ISLAND_GAP - MARGIN  # x of the island's column 0 left edge, less MARGIN (as the board's 0)
ISLAND_W = int(ISLAND_GAP + HEX_W * (ISLAND_COLS + 0.5) + MARGIN)  # the extra width of an island game's picture

# A drawing at a hex: drawing(draw, x, y), draw a PIL ImageDraw.Draw and (x, y) the hex's centre.
HexDrawing = Callable[..., None]


def hex_centre(row: int, col: int) -> tuple[float, float]:
    """The centre of hex (row, col) in the picture; rows ROWS.. are the island's lines (beside the board)."""
    if row >= ROWS:
        r = row - ROWS
        x = ISLAND_LEFT + MARGIN + HEX_W * (col + 0.5 + 0.5 * (r % 2))
        return x, MARGIN + RADIUS + 1.5 * RADIUS * (ISLAND_TOP_ROW + r)
    x = MARGIN + HEX_W * (col + 0.5 + 0.5 * (row % 2))
    y = MARGIN + RADIUS + 1.5 * RADIUS * row
    return x, y


def mayor_mark_centre(row: int) -> tuple[float, float]:
    """Where a row's Mayors mark is drawn: in the margin at the row's free end (even rows end half a hex short on
    the right, odd rows start half a hex in on the left); rows ROWS.. are the island's lines."""
    y = hex_centre(row, 0)[1]
    if row >= ROWS:
        left, cols, r = ISLAND_LEFT, ISLAND_COLS, row - ROWS
    else:
        left, cols, r = 0, 20, row
    if r % 2 == 0:
        return left + MARGIN + HEX_W * cols + (HEX_W / 2 + MARGIN) / 2, y
    return left + (MARGIN + HEX_W / 2) / 2, y


def hex_corners(x: float, y: float, radius: float) -> list[tuple[float, float]]:
    return [(x + radius * math.cos(math.radians(60 * k - 30)), y + radius * math.sin(math.radians(60 * k - 30)))
            for k in range(6)]


def in_colour(drawer: Callable[..., None], colour: Rgb) -> HexDrawing:
    """A hex drawing of a piece drawn in `colour` (drawer(draw, x, y, colour), e.g. in its owner's colour)."""
    return lambda draw, x, y: drawer(draw, x, y, colour)


def font(size: int, text: str = ""):
    """Pillow's default font, or matplotlib's DejaVu Sans for `text` with letters beyond ASCII (the default
    font draws the location letters of Harvest and the Island, e.g. Æ and Ñ, as empty boxes)."""
    return _load_font(size, any(ord(ch) > 127 for ch in text))


@functools.cache
def _load_font(size: int, beyond_ascii: bool):
    from PIL import ImageFont

    if beyond_ascii:
        try:
            from matplotlib import font_manager

            return ImageFont.truetype(font_manager.findfont("DejaVu Sans"), size)
        except (ImportError, OSError, ValueError):
            pass  # no such font here: the default one
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1
        return ImageFont.load_default()
