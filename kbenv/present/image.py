"""Picture of the board as a person would draw it (Pillow): hexes, specials, expansion pieces, settlements,
side panel; with the Island, the island drawn right of the board with a gap (it is not connected to it)."""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ..board.codes import LOCATION_LETTERS, LOCATION_NAMES, display_letter
from ..board.colours import (
    CAPITOL_RGB,
    CAVE_RGB,
    LOCATION_RGB,
    NOMAD_TILE_LABELS,
    NOMAD_TILE_RGB,
    SEAT_RGB,
    TERRAIN_RGB,
    UNKNOWN_RGB,
    WALL_MORTAR_RGB,
    WALL_RGB,
    seat_label,
    seat_name,
)
from ..board.geometry import ISLAND_COLS, ROWS
from ..catalogue import SLOT_PIECES, TASK_CARDS
from ..engine.piece_table import player_key
from ..expansions.harvest.view import SCOUT, harvest_facts, harvest_lines
from ..expansions.island.view import island_facts, island_side_lines

if TYPE_CHECKING:
    from ..game import Game

RADIUS = 17
HEX_W = math.sqrt(3) * RADIUS
MARGIN = 12
PANEL_W = 330
LINE = 19
BACKGROUND = (250, 247, 240)
CARD_NAMES = {"G": "grass", "C": "canyon", "D": "desert", "F": "flower field", "T": "forest"}
TERRAIN_KEY = (  # (name, colour) of the terrain colour key, in the order of the rulebook
    ("grass", TERRAIN_RGB["G"]), ("canyon", TERRAIN_RGB["C"]), ("desert", TERRAIN_RGB["D"]),
    ("flower field", TERRAIN_RGB["F"]), ("forest", TERRAIN_RGB["T"]), ("water", TERRAIN_RGB["W"]),
    ("mountain", TERRAIN_RGB["M"]), ("castle", TERRAIN_RGB["K"]), ("location", LOCATION_RGB),
    ("nomad space", TERRAIN_RGB["N"]),
)
PIECE_KEY = (  # (name, colour, expansion) of the expansion pieces' key, shown for the expansions in play
    ("stone wall", WALL_RGB, "nomads"), ("nomad tile", NOMAD_TILE_RGB, "nomads"),
    ("capitol (on a castle)", CAPITOL_RGB, "capitol"), ("cave (on a mountain)", CAVE_RGB, "caves"),
)
# Crossroads: warriors, wagons, ships and city halls are drawn in their owner's seat colour (the key shows
# their shapes in KEY_PIECE_RGB); the hexes of a warrior zone are hatched in ZONE_RGB.
ZONE_RGB = (150, 20, 40)
KEY_PIECE_RGB = (160, 160, 160)
CROSSROADS_KEY = (("warrior zone (hatched)", ZONE_RGB),)
TASK_GOLD = {task.name: task.gold for task in TASK_CARDS}
# Harvest: farmland and silos are terrain colours; scouts are drawn in the turn owner's colour;
# a row marked for Mayors gets a disc in the seat's colour at its free end (mayor_mark_centre).
HARVEST_KEY = (("farmland", TERRAIN_RGB["A"]), ("silo", TERRAIN_RGB["O"]))
MAYOR_MARK_RADIUS = 6


def piece_key(expansions) -> list[tuple[str, tuple[int, int, int]]]:
    """The (name, colour) entries of the pieces' key for the expansions in play (none for the base game)."""
    entries = [(name, rgb) for name, rgb, expansion in PIECE_KEY if expansion in expansions]
    entries += list(CROSSROADS_KEY) if "crossroads" in expansions else []
    return entries + list(HARVEST_KEY) if "harvest" in expansions else entries


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
ISLAND_LABEL = (28, 28, 28)


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


def _font(size: int, text: str = ""):
    """Pillow's default font, or matplotlib's DejaVu Sans for `text` with letters beyond ASCII (the default
    font draws the location letters of Harvest and the Island, e.g. Æ and Ñ, as empty boxes)."""
    return _load_font(size, any(ord(ch) > 127 for ch in text))


@functools.cache
def _load_font(size: int, beyond_ascii: bool):
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


def _draw_castle(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    w, h = RADIUS * 0.9, RADIUS * 0.6
    draw.rectangle([x - w / 2, y - h / 3, x + w / 2, y + h / 2], fill=(120, 120, 130), outline=(40, 40, 40))
    for k in range(3):
        cx = x - w / 2 + k * w / 2.5
        draw.rectangle([cx, y - h / 1.2, cx + w / 5, y - h / 3], fill=(120, 120, 130), outline=(40, 40, 40))


def _draw_wall(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
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


def _draw_capitol(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
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


def _draw_cave(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    """A cave on its mountain: a dark arched mouth."""
    w = RADIUS * 0.95
    draw.chord([x - w / 2, y - w * 0.45, x + w / 2, y + w * 0.75], 180, 360, fill=CAVE_RGB)
    draw.rectangle([x - w / 2, y + w * 0.15, x + w / 2, y + w * 0.3], fill=CAVE_RGB)


def _draw_nomad_tile(draw: ImageDraw.ImageDraw, x: float, y: float, kind: str, font) -> None:
    """A nomad tile lying on its space: a light tile with its short label (D-G, Res, Out, Swd, Tre); a
    donation tile has a stripe of the terrain it gives."""
    w, h = RADIUS * 1.3, RADIUS * 0.95
    box = [x - w / 2, y - h / 2, x + w / 2, y + h / 2]
    draw.rounded_rectangle(box, radius=3, fill=NOMAD_TILE_RGB, outline=(110, 70, 30))
    if kind.startswith("donation-"):
        stripe = TERRAIN_RGB.get(kind[-1], UNKNOWN_RGB)
        draw.rectangle([box[0] + 2, box[3] - 4, box[2] - 2, box[3] - 2], fill=stripe)
    draw.text((x, y - 2), NOMAD_TILE_LABELS[kind], fill=(70, 35, 10), font=font, anchor="mm")


def _draw_settlement(draw: ImageDraw.ImageDraw, x: float, y: float, colour) -> None:
    s = RADIUS * 0.55
    house = [(x - s, y + s * 0.8), (x - s, y - s * 0.1), (x, y - s), (x + s, y - s * 0.1), (x + s, y + s * 0.8)]
    draw.polygon(house, fill=colour, outline=(0, 0, 0))


# ----- Crossroads pieces ------------------------------------------------------------------------------------
def _clip_to_hex(p0, p1, corners) -> tuple | None:
    """The part of segment p0-p1 inside the convex polygon `corners` (clockwise on screen), or None."""
    t0, t1 = 0.0, 1.0
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    for k in range(len(corners)):
        (ax, ay), (bx, by) = corners[k], corners[(k + 1) % len(corners)]
        nx, ny = -(by - ay), bx - ax  # inward normal of edge a-b
        num = nx * (p0[0] - ax) + ny * (p0[1] - ay)
        den = nx * dx + ny * dy
        if den == 0:
            if num < 0:
                return None
        elif den > 0:
            t0 = max(t0, -num / den)
        else:
            t1 = min(t1, -num / den)
        if t0 > t1:
            return None
    return (p0[0] + t0 * dx, p0[1] + t0 * dy), (p0[0] + t1 * dx, p0[1] + t1 * dy)


def _draw_zone(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    """A hex of a warrior zone: diagonal hatching and an inner outline in the zone colour."""
    corners = hex_corners(x, y, RADIUS * 0.92)
    for k in range(-4, 5):
        offset = k * 6.0
        segment = _clip_to_hex((x + offset - RADIUS, y + RADIUS), (x + offset + RADIUS, y - RADIUS), corners)
        if segment is not None:
            draw.line(segment, fill=ZONE_RGB, width=1)
    draw.polygon(corners, outline=ZONE_RGB)


def _draw_city_hall_cell(draw: ImageDraw.ImageDraw, x: float, y: float, colour) -> None:
    """One of the 7 cells of a city hall: a thick border and a small block in the owner's colour (the
    terrain stays visible)."""
    draw.polygon(hex_corners(x, y, RADIUS * 0.84), outline=colour, width=3)
    s = RADIUS * 0.28
    draw.rectangle([x - s, y - s, x + s, y + s], fill=colour, outline=(0, 0, 0))


def _draw_city_hall(draw: ImageDraw.ImageDraw, x: float, y: float, colour) -> None:
    """The centre of a city hall: a hall with a pediment and columns."""
    s, outline = RADIUS * 0.6, (0, 0, 0)
    draw.polygon([(x - s, y - s * 0.3), (x, y - s), (x + s, y - s * 0.3)], fill=colour, outline=outline)
    draw.rectangle([x - s * 0.85, y - s * 0.3, x + s * 0.85, y + s * 0.8], fill=colour, outline=outline)
    for k in (-1, 0, 1):
        draw.line([x + k * s * 0.45, y - s * 0.1, x + k * s * 0.45, y + s * 0.6], fill=outline)


def _draw_warrior(draw: ImageDraw.ImageDraw, x: float, y: float, colour) -> None:
    """A warrior: a shield, point down, with a cross."""
    s, outline = RADIUS * 0.6, (0, 0, 0)
    shield = [(x - s, y - s), (x + s, y - s), (x + s, y + s * 0.15), (x, y + s), (x - s, y + s * 0.15)]
    draw.polygon(shield, fill=colour, outline=outline)
    draw.line([x, y - s * 0.75, x, y + s * 0.6], fill=outline)
    draw.line([x - s * 0.6, y - s * 0.25, x + s * 0.6, y - s * 0.25], fill=outline)


def _draw_wagon(draw: ImageDraw.ImageDraw, x: float, y: float, colour) -> None:
    """A wagon: a box on two black wheels."""
    s, outline = RADIUS * 0.6, (0, 0, 0)
    draw.rectangle([x - s, y - s * 0.7, x + s, y + s * 0.3], fill=colour, outline=outline)
    for cx in (x - s * 0.55, x + s * 0.55):
        draw.ellipse([cx - s * 0.32, y + s * 0.25, cx + s * 0.32, y + s * 0.89], fill=outline)


def _draw_ship(draw: ImageDraw.ImageDraw, x: float, y: float, colour) -> None:
    """A ship: a hull and a triangular sail."""
    s, outline = RADIUS * 0.65, (0, 0, 0)
    draw.polygon([(x - s, y + s * 0.25), (x + s, y + s * 0.25), (x + s * 0.6, y + s * 0.8),
                  (x - s * 0.6, y + s * 0.8)], fill=colour, outline=outline)
    draw.polygon([(x - s * 0.05, y - s), (x - s * 0.05, y + s * 0.15), (x - s * 0.75, y + s * 0.15)],
                 fill=colour, outline=outline)
    draw.polygon([(x + s * 0.05, y - s * 0.8), (x + s * 0.05, y + s * 0.15), (x + s * 0.65, y + s * 0.15)],
                 fill=colour, outline=outline)


def _draw_scout(draw: ImageDraw.ImageDraw, x: float, y: float, colour) -> None:
    """A scout (Harvest): a diamond tile with a white eye slit."""
    s, outline = RADIUS * 0.62, (0, 0, 0)
    draw.polygon([(x, y - s), (x + s, y), (x, y + s), (x - s, y)], fill=colour, outline=outline)
    draw.line([x - s * 0.45, y - s * 0.35, x + s * 0.45, y - s * 0.35], fill=(255, 255, 255), width=2)


# How each slot-stored piece kind of catalogue.PIECE_KINDS is drawn, by its label (the kinds of
# Game.piece_cells); a kind covering several hexes also has a drawer for every one of its cells, drawn under it.
PIECE_DRAWERS = {"warrior": _draw_warrior, "wagon": _draw_wagon, "ship": _draw_ship, "city hall": _draw_city_hall}
CELL_DRAWERS = {"city hall": _draw_city_hall_cell}
assert set(PIECE_DRAWERS) == {kind.label for kind in SLOT_PIECES}, "a drawer for every piece kind"
assert set(CELL_DRAWERS) == {kind.label for kind in SLOT_PIECES if kind.cells > 1}


def board_image(game: Game, viewer: int | None = None) -> np.ndarray:
    """An RGB uint8 image (H, W, 3) of the game; `viewer` sees their own hand (None: no hidden hands).

    The side panel names the seats `player_0 ..` with their colours and holds a terrain colour key;
    the image grows taller when the panel needs more room than the board (5 players).
    """
    board_w = BOARD_W + (ISLAND_W if game.setup.island is not None else 0)
    panel = _panel_image(game, viewer)
    img = Image.new("RGB", (board_w + PANEL_W, max(BOARD_H, panel.height)), BACKGROUND)
    _draw_board(ImageDraw.Draw(img), game)
    img.paste(panel, (board_w, 0))
    return np.asarray(img, dtype=np.uint8)


def _drawn_rows(game: Game) -> list[tuple[int, str]]:
    """(row, codes) of every line of hexes drawn: the board's, then the island's as extended rows ROWS.."""
    rows = list(enumerate(game.board))
    island = island_facts(game)
    if island is not None:
        rows += [(ROWS + r, row) for r, row in enumerate(island.rows)]
    return rows


def _draw_island_label(draw: ImageDraw.ImageDraw, game: Game) -> None:
    """The island's name above its first line: 'island' and its side."""
    island = island_facts(game)
    if island is None:
        return
    x, y = hex_centre(ROWS, 0)
    draw.text((x - HEX_W / 2, y - RADIUS - 34), "island", fill=ISLAND_LABEL, font=_font(14))
    draw.text((x - HEX_W / 2, y - RADIUS - 17), island.side, fill=ISLAND_LABEL, font=_font(10))


def _draw_board(draw: ImageDraw.ImageDraw, game: Game) -> None:
    """The hexes, castles, locations with their tiles left, expansion pieces and settlements."""
    tile_font = _font(10)
    owners = {rc: p for p in range(game.num_players) for rc in game.settlements(p)}
    tiles_left = {rc: game.tiles_left(rc) for rc in game.location_hexes()}
    walls, caves, capitols = game.walls(), game.caves(), game.capitols()
    nomad_tiles = {rc: kind for rc, kind in game.nomad_spaces().items() if kind is not None}
    crossroads = "crossroads" in game.expansions
    zone = game.warrior_zone() if crossroads else set()
    pieces = game.piece_cells() if crossroads else {}
    harvest = harvest_facts(game.state)
    scouts = set(harvest.scouts) if harvest is not None else set()
    for r, row in _drawn_rows(game):
        for c, ch in enumerate(row):
            x, y = hex_centre(r, c)
            is_location = ch in LOCATION_LETTERS
            fill = LOCATION_RGB if is_location else TERRAIN_RGB.get(ch, UNKNOWN_RGB)
            draw.polygon(hex_corners(x, y, RADIUS), fill=fill, outline=(60, 60, 60))
            if (r, c) in zone:
                _draw_zone(draw, x, y)
            cell = pieces.get((r, c), (0, ""))[1].removesuffix(" cell")
            if cell in CELL_DRAWERS:
                CELL_DRAWERS[cell](draw, x, y, SEAT_RGB[pieces[(r, c)][0]])
            if ch == "K":
                _draw_castle(draw, x, y)
            elif is_location:
                draw.polygon(hex_corners(x, y, RADIUS * 0.75), outline=(120, 70, 10))
                draw.text((x, y - 3), display_letter(ch), fill=(90, 40, 0), font=_font(14, ch), anchor="mm")
                for k in range(tiles_left.get((r, c), 0)):
                    draw.ellipse([x - 6 + 8 * k, y + 6, x - 2 + 8 * k, y + 10], fill=(90, 40, 0))
            if (r, c) in capitols:
                _draw_capitol(draw, x, y)
            if (r, c) in caves:
                _draw_cave(draw, x, y)
            if (r, c) in walls:
                _draw_wall(draw, x, y)
            if (r, c) in nomad_tiles:
                _draw_nomad_tile(draw, x, y, nomad_tiles[(r, c)], tile_font)
            if (r, c) in owners:
                _draw_settlement(draw, x, y, SEAT_RGB[owners[(r, c)]])
            if (r, c) in pieces and pieces[(r, c)][1] in PIECE_DRAWERS:
                owner, kind = pieces[(r, c)]
                PIECE_DRAWERS[kind](draw, x, y, SEAT_RGB[owner])
            if (r, c) in scouts:
                _draw_scout(draw, x, y, SEAT_RGB[harvest.scout_owner])
    marks = dict(harvest.mayor_lines) if harvest is not None else {}
    island = island_facts(game)
    if island is not None:
        marks.update({ROWS + r: p for r, p in island.mayor_lines.items()})
    for r, p in marks.items():
        x, y = mayor_mark_centre(r)
        m = MAYOR_MARK_RADIUS
        draw.ellipse([x - m, y - m, x + m, y + m], fill=SEAT_RGB[p], outline=(0, 0, 0))
    _draw_island_label(draw, game)


class _Panel:
    """A column of text lines and colour swatches drawn top to bottom; `y` is the next free line."""

    def __init__(self, height: int = 1600):
        self.image = Image.new("RGB", (PANEL_W, height), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        self.font, self.small = _font(14), _font(11)
        self.y = MARGIN

    def text(self, s: str, colour=(20, 20, 20), small: bool = False, dx: int = 0, swatch=None) -> None:
        """One line of text, after a colour swatch when `swatch` is an RGB colour."""
        if swatch is not None:
            self.draw.rectangle([10 + dx, self.y + 2, 22 + dx, self.y + 14], fill=swatch, outline=(0, 0, 0))
            dx += 18
        self.draw.text((10 + dx, self.y), s, fill=colour, font=_font(11 if small else 14, s))
        self.y += LINE

    def fits(self, s: str, small: bool = False, dx: int = 0) -> bool:
        """Whether one line of text fits the panel's width."""
        return 10 + dx + self.draw.textlength(s, font=_font(11 if small else 14, s)) <= PANEL_W - 6

    def items(self, prefix: str, items, small: bool = False, dx: int = 0) -> None:
        """`prefix` and comma-separated items, on as many lines as the panel's width needs."""
        parts = [f"{item}," for item in items[:-1]] + list(items[-1:])
        line = prefix
        for part in parts:
            candidate = f"{line}{part}" if line == prefix else f"{line} {part}"
            if line != prefix and not self.fits(candidate, small, dx):
                self.text(line, small=small, dx=dx)
                candidate = f"  {part}"
            line = candidate
        self.text(line, small=small, dx=dx)

    def icons(self, entries, dx: int = 0) -> None:
        """One line of (name, draw function) entries: each piece drawn small in KEY_PIECE_RGB, then its name."""
        x = 10 + dx
        for name, drawer in entries:
            drawer(self.draw, x + RADIUS * 0.6, self.y + 10, KEY_PIECE_RGB)
            self.draw.text((x + RADIUS * 1.5, self.y + 3), name, fill=(20, 20, 20), font=self.small)
            x += RADIUS * 1.5 + self.draw.textlength(name, font=self.small) + 12
        self.y += LINE + 5

    def cropped(self) -> Image.Image:
        return self.image.crop((0, 0, PANEL_W, self.y + MARGIN))


def _panel_image(game: Game, viewer: int | None) -> Image.Image:
    """The side panel: game status, one block per seat, the location letters and the terrain key."""
    panel = _Panel()
    panel.draw.text((10, panel.y), "Kingdom Builder", fill=(20, 20, 20), font=_font(18))
    panel.y += LINE
    _panel_status(panel, game)
    panel.y += 6
    scores = game.scores()
    for p in range(game.num_players):
        _panel_seat(panel, game, p, scores[p], viewer)
    panel.y += 6
    _panel_keys(panel, game.expansions)
    return panel.cropped()


def _panel_status(panel: _Panel, game: Game) -> None:
    panel.text("cards: " + ", ".join(game.cards))
    if game.done:
        panel.text("game over - winner(s): " + ", ".join(seat_name(p) for p in game.winners()))
    else:
        mover = game.current_player
        panel.text(f"to move: {seat_label(mover)} ({game.phase})")
        panel.text(f"played card: {CARD_NAMES.get(game.hand(mover), '-')}")
    panel.text(f"draw pile: {game.deck_size()}   discard: {len(game.discard_pile())}")
    if "crossroads" in game.expansions:
        fort = game.fort_card()
        if fort is not None:
            panel.text(f"fort card: {CARD_NAMES.get(fort, fort)}")
        tasks = game.tasks()
        panel.items("tasks (gold): ", [f"{name} {TASK_GOLD[name]}" for name in tasks] or ["none"], small=True)
    for line in harvest_lines(harvest_facts(game.state), game.cards, per_seat=False) \
            + island_side_lines(island_facts(game)):
        if panel.fits(line, small=True):
            panel.text(line, small=True)
        else:
            head, _, rest = line.partition(": ")
            panel.items(f"{head}: ", rest.split(", "), small=True)


def _panel_seat(panel: _Panel, game: Game, p: int, score: dict, viewer: int | None) -> None:
    mark = " (start)" if p == game.start_player else ""
    panel.text(f"{seat_label(p)}{mark}: {score['total']} gold, supply {game.supply(p)}", swatch=SEAT_RGB[p])
    visible = not game.done and (p == game.current_player or viewer is None or p == viewer)
    panel.text(f"hand: {_hand_text(game, p) if visible else 'hidden'}", small=True, dx=18)
    panel.text(f"tiles: {', '.join(name for name, _ in game.tiles(p)) or 'no tiles'}", small=True, dx=18)
    breakdown = ", ".join(f"{k} {v}" for k, v in score["cards"].items())
    panel.text(f"{breakdown}, castles {score['castles']}", small=True, dx=18)
    if set(game.expansions) - {"crossroads"}:
        held = ", ".join(NOMAD_TILE_LABELS[t["kind"]] for t in game.nomad_tiles(p)) or "none"
        panel.text(f"capitols {score.get('capitols', 0)}, banked gold {score.get('gold', 0)}; nomad tiles: {held}",
                   small=True, dx=18)
    harvest = harvest_facts(game.state)
    if harvest is not None:
        panel.text(f"number tiles: value {harvest.number_tiles[p]}", small=True, dx=18)
    if "crossroads" in game.expansions:
        placed = _placed_pieces(game.pieces(p))
        met = [f"{name} {gold}" for name, gold in score.get("tasks", {}).items() if gold]
        line = f"pieces: {', '.join(placed)}; tasks met: {', '.join(met) or 'none'}"
        if panel.fits(line, small=True, dx=18):
            panel.text(line, small=True, dx=18)
        else:
            panel.text(f"pieces: {', '.join(placed)}", small=True, dx=18)
            panel.items("tasks met: ", met or ["none"], small=True, dx=18)


def _placed_pieces(pieces: dict) -> list[str]:
    """The seat's pieces on the board (Game.pieces): a count for a kind of several ("2 warriors"), the name of
    each single piece placed ("wagon", "city hall")."""
    placed = []
    for kind in SLOT_PIECES:
        value = pieces[player_key(kind)]
        if kind.per_player > 1:
            placed.append(f"{len(value)} {kind.label if len(value) == 1 else kind.plural}")
        elif value is not None:
            placed.append(kind.label)
    return placed


def _hand_text(game: Game, p: int) -> str:
    """The names of the cards in a hand (with Crossroads, its extra cards too), '-' when empty."""
    if "crossroads" not in game.expansions:
        return CARD_NAMES.get(game.hand(p), "-")
    return ", ".join(CARD_NAMES.get(card, card) for card in game.hand_cards(p)) or "-"


def _swatch_columns(panel: _Panel, entries) -> None:
    """(name, colour) entries as swatches in two columns."""
    half = (len(entries) + 1) // 2
    top = panel.y
    for column, part in enumerate((entries[:half], entries[half:])):
        panel.y = top
        for name, rgb in part:
            panel.text(name, small=True, dx=10 + 150 * column, swatch=rgb)
    panel.y = top + half * LINE


def _panel_keys(panel: _Panel, expansions=()) -> None:
    """Location letters, tile dots and castles, the terrain colours in two columns, then the expansion
    pieces in play and the labels of the nomad tiles."""
    panel.text("legend: letters = locations", small=True)
    pairs = [f"{display_letter(ch)} {name}" for ch, name in zip(LOCATION_LETTERS, LOCATION_NAMES, strict=True)]
    for k in range(0, len(pairs), 4):
        panel.text("  " + " ".join(pairs[k:k + 4]), small=True)
    panel.text("  dots = tiles left; grey towers = castles", small=True)
    panel.text("terrain colours:", small=True)
    _swatch_columns(panel, TERRAIN_KEY)
    pieces = piece_key(expansions)
    if pieces:
        panel.text("expansion pieces:", small=True)
        _swatch_columns(panel, pieces)
    if "nomads" in expansions:
        panel.text("  nomad tiles: D-G .. D-M donation (stripe = terrain),", small=True)
        panel.text("  Res resettlement, Out outpost, Swd sword, Tre treasure", small=True)
    if "crossroads" in expansions:
        panel.text("  crossroads pieces, in the owner's colour:", small=True)
        kinds = [kind for kind in SLOT_PIECES if kind.expansion == "crossroads"]
        panel.icons([(kind.label, PIECE_DRAWERS[kind.label]) for kind in kinds if kind.cells == 1], dx=10)
        for kind in kinds:
            if kind.cells > 1:
                panel.icons([(f"{kind.label} (centre)", PIECE_DRAWERS[kind.label]),
                             (f"its {kind.cells - 1} other cells", CELL_DRAWERS[kind.label])], dx=10)
    if "harvest" in expansions:
        panel.text("  harvest, in the colour of the turn owner / the seat:", small=True)
        panel.icons([(SCOUT.label, _draw_scout)], dx=10)
        panel.text("  disc at a row's end: the row is marked for Mayors", small=True)


def save_png(image: np.ndarray, path: str) -> None:
    Image.fromarray(image).save(path, format="PNG")


def save_gif(frames: list[np.ndarray], path: str, ms_per_frame: int = 400) -> None:
    """An animated GIF, one frame per image (the last one held longer)."""
    images = [Image.fromarray(f).convert("P", palette=Image.Palette.ADAPTIVE) for f in frames]
    durations = [ms_per_frame] * (len(images) - 1) + [ms_per_frame * 5]
    images[0].save(path, save_all=True, append_images=images[1:], duration=durations, loop=0)
