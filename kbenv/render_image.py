"""Picture of the board as a person would draw it (Pillow): hexes, specials, settlements, side panel."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .board.codes import LOCATION_LETTERS, LOCATION_NAMES

if TYPE_CHECKING:
    from .game import Game

RADIUS = 17
HEX_W = math.sqrt(3) * RADIUS
MARGIN = 12
PANEL_W = 330
TERRAIN_RGB = {
    "G": (143, 196, 78), "C": (196, 120, 72), "D": (236, 214, 150), "F": (240, 206, 60),
    "T": (46, 110, 52), "W": (70, 140, 212), "M": (140, 136, 132), "K": (215, 215, 222),
    "N": (214, 190, 150), "S": (96, 120, 90), "A": (200, 180, 100), "P": (190, 160, 200), "O": (170, 150, 120),
}
LOCATION_RGB = (232, 186, 60)
PLAYER_RGB = ((214, 40, 40), (40, 90, 220), (245, 245, 245), (30, 30, 30), (180, 60, 200))
PLAYER_NAMES = ("red", "blue", "white", "black", "purple")
CARD_NAMES = {"G": "grass", "C": "canyon", "D": "desert", "F": "flower field", "T": "forest"}


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


def _draw_settlement(draw: ImageDraw.ImageDraw, x: float, y: float, colour) -> None:
    s = RADIUS * 0.55
    house = [(x - s, y + s * 0.8), (x - s, y - s * 0.1), (x, y - s), (x + s, y - s * 0.1), (x + s, y + s * 0.8)]
    draw.polygon(house, fill=colour, outline=(0, 0, 0))


def board_image(game: Game, viewer: int | None = None) -> np.ndarray:
    """An RGB uint8 image (H, W, 3) of the game; `viewer` sees their own hand (None: no hidden hands)."""
    width = int(MARGIN * 2 + HEX_W * 20.5) + PANEL_W
    height = int(MARGIN * 2 + RADIUS * 2 + 1.5 * RADIUS * 19)
    img = Image.new("RGB", (width, height), (250, 247, 240))
    draw = ImageDraw.Draw(img)
    small, text_font = _font(11), _font(14)
    owners = {rc: p for p in range(game.num_players) for rc in game.settlements(p)}
    tiles_left = {rc: game.tiles_left(rc) for rc in game.location_hexes()}
    for r, row in enumerate(game.board):
        for c, ch in enumerate(row):
            x, y = hex_centre(r, c)
            is_location = ch in LOCATION_LETTERS
            fill = LOCATION_RGB if is_location else TERRAIN_RGB.get(ch, (200, 200, 200))
            draw.polygon(hex_corners(x, y, RADIUS), fill=fill, outline=(60, 60, 60))
            if ch == "K":
                _draw_castle(draw, x, y)
            elif is_location:
                draw.polygon(hex_corners(x, y, RADIUS * 0.75), outline=(120, 70, 10))
                draw.text((x, y - 3), ch.upper(), fill=(90, 40, 0), font=text_font, anchor="mm")
                for k in range(tiles_left.get((r, c), 0)):
                    draw.ellipse([x - 6 + 8 * k, y + 6, x - 2 + 8 * k, y + 10], fill=(90, 40, 0))
            if (r, c) in owners:
                _draw_settlement(draw, x, y, PLAYER_RGB[owners[(r, c)]])
    _draw_panel(draw, game, int(MARGIN * 2 + HEX_W * 20.5), viewer, text_font, small)
    return np.asarray(img, dtype=np.uint8)


def _draw_panel(draw, game: Game, x0: int, viewer, font, small) -> None:
    y = MARGIN
    line = 19

    def text(s: str, colour=(20, 20, 20), f=font, dx: int = 0) -> None:
        nonlocal y
        draw.text((x0 + 10 + dx, y), s, fill=colour, font=f)
        y += line

    text("Kingdom Builder", f=_font(18))
    text("cards: " + ", ".join(game.cards))
    if game.done:
        text("game over - winner(s): " + ", ".join(PLAYER_NAMES[p] for p in game.winners()))
    else:
        mover = game.current_player
        card = game.hand(mover)
        text(f"to move: {PLAYER_NAMES[mover]} ({game.phase})")
        text(f"played card: {CARD_NAMES.get(card, '-')}")
    text(f"draw pile: {game.deck_size()}   discard: {len(game.discard_pile())}")
    y += 6
    scores = game.scores()
    for p in range(game.num_players):
        draw.rectangle([x0 + 10, y + 2, x0 + 22, y + 14], fill=PLAYER_RGB[p], outline=(0, 0, 0))
        mark = " (start)" if p == game.start_player else ""
        text(f"{PLAYER_NAMES[p]}{mark}: {scores[p]['total']} gold, supply {game.supply(p)}", dx=18)
        hand = game.hand(p)
        visible = not game.done and (p == game.current_player or viewer is None or p == viewer)
        hand_text = CARD_NAMES.get(hand, "-") if visible else "hidden"
        text(f"hand: {hand_text}", f=small, dx=18)
        tiles = ", ".join(name for name, _ in game.tiles(p)) or "no tiles"
        text(f"tiles: {tiles}", f=small, dx=18)
        breakdown = ", ".join(f"{k} {v}" for k, v in scores[p]["cards"].items())
        text(f"{breakdown}, castles {scores[p]['castles']}", f=small, dx=18)
    y += 6
    text("legend: letters = locations", f=small)
    pairs = [f"{ch.upper()} {name}" for ch, name in zip(LOCATION_LETTERS[:8], LOCATION_NAMES[:8], strict=True)]
    text("  " + " ".join(pairs[:4]), f=small)
    text("  " + " ".join(pairs[4:]), f=small)
    text("  dots = tiles left; grey towers = castles", f=small)


def save_png(image: np.ndarray, path: str) -> None:
    Image.fromarray(image).save(path, format="PNG")


def save_gif(frames: list[np.ndarray], path: str, ms_per_frame: int = 400) -> None:
    """An animated GIF, one frame per image (the last one held longer)."""
    images = [Image.fromarray(f).convert("P", palette=Image.Palette.ADAPTIVE) for f in frames]
    durations = [ms_per_frame] * (len(images) - 1) + [ms_per_frame * 5]
    images[0].save(path, save_all=True, append_images=images[1:], duration=durations, loop=0)
