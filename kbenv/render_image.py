"""Picture of the board as a person would draw it (Pillow): hexes, specials, expansion pieces, settlements,
side panel."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .board.codes import LOCATION_LETTERS, LOCATION_NAMES
from .colours import (
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

if TYPE_CHECKING:
    from .game import Game

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


def piece_key(expansions) -> list[tuple[str, tuple[int, int, int]]]:
    """The (name, colour) entries of the pieces' key for the expansions in play (none for the base game)."""
    return [(name, rgb) for name, rgb, expansion in PIECE_KEY if expansion in expansions]


def hex_centre(row: int, col: int) -> tuple[float, float]:
    x = MARGIN + HEX_W * (col + 0.5 + 0.5 * (row % 2))
    y = MARGIN + RADIUS + 1.5 * RADIUS * row
    return x, y


def hex_corners(x: float, y: float, radius: float) -> list[tuple[float, float]]:
    return [(x + radius * math.cos(math.radians(60 * k - 30)), y + radius * math.sin(math.radians(60 * k - 30)))
            for k in range(6)]


def _font(size: int):
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


def board_image(game: Game, viewer: int | None = None) -> np.ndarray:
    """An RGB uint8 image (H, W, 3) of the game; `viewer` sees their own hand (None: no hidden hands).

    The side panel names the seats `player_0 ..` with their colours and holds a terrain colour key;
    the image grows taller when the panel needs more room than the board (5 players).
    """
    board_w = int(MARGIN * 2 + HEX_W * 20.5)
    board_h = int(MARGIN * 2 + RADIUS * 2 + 1.5 * RADIUS * 19)
    panel = _panel_image(game, viewer)
    img = Image.new("RGB", (board_w + PANEL_W, max(board_h, panel.height)), BACKGROUND)
    _draw_board(ImageDraw.Draw(img), game)
    img.paste(panel, (board_w, 0))
    return np.asarray(img, dtype=np.uint8)


def _draw_board(draw: ImageDraw.ImageDraw, game: Game) -> None:
    """The hexes, castles, locations with their tiles left, expansion pieces and settlements."""
    text_font, tile_font = _font(14), _font(10)
    owners = {rc: p for p in range(game.num_players) for rc in game.settlements(p)}
    tiles_left = {rc: game.tiles_left(rc) for rc in game.location_hexes()}
    walls, caves, capitols = game.walls(), game.caves(), game.capitols()
    nomad_tiles = {rc: kind for rc, kind in game.nomad_spaces().items() if kind is not None}
    for r, row in enumerate(game.board):
        for c, ch in enumerate(row):
            x, y = hex_centre(r, c)
            is_location = ch in LOCATION_LETTERS
            fill = LOCATION_RGB if is_location else TERRAIN_RGB.get(ch, UNKNOWN_RGB)
            draw.polygon(hex_corners(x, y, RADIUS), fill=fill, outline=(60, 60, 60))
            if ch == "K":
                _draw_castle(draw, x, y)
            elif is_location:
                draw.polygon(hex_corners(x, y, RADIUS * 0.75), outline=(120, 70, 10))
                draw.text((x, y - 3), ch.upper(), fill=(90, 40, 0), font=text_font, anchor="mm")
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


class _Panel:
    """A column of text lines and colour swatches drawn top to bottom; `y` is the next free line."""

    def __init__(self, height: int = 1200):
        self.image = Image.new("RGB", (PANEL_W, height), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        self.font, self.small = _font(14), _font(11)
        self.y = MARGIN

    def text(self, s: str, colour=(20, 20, 20), small: bool = False, dx: int = 0, swatch=None) -> None:
        """One line of text, after a colour swatch when `swatch` is an RGB colour."""
        if swatch is not None:
            self.draw.rectangle([10 + dx, self.y + 2, 22 + dx, self.y + 14], fill=swatch, outline=(0, 0, 0))
            dx += 18
        self.draw.text((10 + dx, self.y), s, fill=colour, font=self.small if small else self.font)
        self.y += LINE

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


def _panel_seat(panel: _Panel, game: Game, p: int, score: dict, viewer: int | None) -> None:
    mark = " (start)" if p == game.start_player else ""
    panel.text(f"{seat_label(p)}{mark}: {score['total']} gold, supply {game.supply(p)}", swatch=SEAT_RGB[p])
    visible = not game.done and (p == game.current_player or viewer is None or p == viewer)
    panel.text(f"hand: {CARD_NAMES.get(game.hand(p), '-') if visible else 'hidden'}", small=True, dx=18)
    panel.text(f"tiles: {', '.join(name for name, _ in game.tiles(p)) or 'no tiles'}", small=True, dx=18)
    breakdown = ", ".join(f"{k} {v}" for k, v in score["cards"].items())
    panel.text(f"{breakdown}, castles {score['castles']}", small=True, dx=18)
    if game.expansions:
        held = ", ".join(NOMAD_TILE_LABELS[t["kind"]] for t in game.nomad_tiles(p)) or "none"
        panel.text(f"capitols {score.get('capitols', 0)}, banked gold {score.get('gold', 0)}; nomad tiles: {held}",
                   small=True, dx=18)


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
    pairs = [f"{ch.upper()} {name}" for ch, name in zip(LOCATION_LETTERS, LOCATION_NAMES, strict=True)]
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


def save_png(image: np.ndarray, path: str) -> None:
    Image.fromarray(image).save(path, format="PNG")


def save_gif(frames: list[np.ndarray], path: str, ms_per_frame: int = 400) -> None:
    """An animated GIF, one frame per image (the last one held longer)."""
    images = [Image.fromarray(f).convert("P", palette=Image.Palette.ADAPTIVE) for f in frames]
    durations = [ms_per_frame] * (len(images) - 1) + [ms_per_frame * 5]
    images[0].save(path, save_all=True, append_images=images[1:], duration=durations, loop=0)
