"""Picture of the board as a person would draw it (Pillow): hexes, specials, expansion pieces, settlements,
side panel; with the Island, the island drawn right of the board with a gap (it is not connected to it).

Each expansion draws its own pieces, key entries and panel lines through its side's `ImageLayer`
(kbenv/expansions/<package>/draw.py; kbenv.expansions.registry); the pixels they share are kbenv.board.pixels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from PIL import Image, ImageDraw

from ..board.codes import LOCATION_LETTERS, LOCATION_NAMES, display_letter
from ..board.colours import (
    LOCATION_RGB,
    NOMAD_TILE_LABELS,
    SEAT_RGB,
    TERRAIN_RGB,
    UNKNOWN_RGB,
    seat_label,
    seat_name,
)
from ..board.pixels import (  # noqa: F401  (ISLAND_*: their old home)
    BOARD_H,
    BOARD_W,
    HEX_W,
    ISLAND_GAP,
    ISLAND_LEFT,
    ISLAND_TOP_ROW,
    ISLAND_W,
    KEY_PIECE_RGB,
    MARGIN,
    RADIUS,
    hex_centre,
    hex_corners,
    mayor_mark_centre,
)
from ..board.pixels import TERRAIN_CARD_NAMES as CARD_NAMES
from ..board.pixels import font as _font
from ..expansions.crossroads.draw import (  # noqa: F401  (the Crossroads drawing's names: their old home)
    CELL_DRAWERS,
    CROSSROADS_KEY,
    PIECE_DRAWERS,
    TASK_GOLD,
    ZONE_RGB,
)
from ..expansions.harvest.draw import HARVEST_KEY  # noqa: F401  (its old home)
from ..expansions.island.draw import ISLAND_LABEL  # noqa: F401  (its old home)
from ..expansions.nomads.draw import NOMADS_KEY
from ..expansions.queenies.draw import CAPITOL_KEY, CAVES_KEY
from ..expansions.registry import ImageLayer, sides_of

if TYPE_CHECKING:
    from ..game import Game

PANEL_W = 330
LINE = 19
BACKGROUND = (250, 247, 240)
TERRAIN_KEY = (  # (name, colour) of the terrain colour key, in the order of the rulebook
    ("grass", TERRAIN_RGB["G"]), ("canyon", TERRAIN_RGB["C"]), ("desert", TERRAIN_RGB["D"]),
    ("flower field", TERRAIN_RGB["F"]), ("forest", TERRAIN_RGB["T"]), ("water", TERRAIN_RGB["W"]),
    ("mountain", TERRAIN_RGB["M"]), ("castle", TERRAIN_RGB["K"]), ("location", LOCATION_RGB),
    ("nomad space", TERRAIN_RGB["N"]),
)
# (name, colour, expansion) of the Nomads, Capitol and Caves pieces' key (kept for callers that import it; the
# key of the expansions in play is piece_key's, from their sides).
PIECE_KEY = tuple((name, rgb, expansion) for expansion, key in (("nomads", NOMADS_KEY), ("capitol", CAPITOL_KEY),
                                                                 ("caves", CAVES_KEY)) for name, rgb in key)
MAYOR_MARK_RADIUS = 6


def _layers(expansions) -> list[ImageLayer]:
    """The picture layers of the expansions in play (names or bits), in catalogue order."""
    return [side.image_board for side in sides_of(expansions) if side.image_board is not None]


def piece_key(expansions) -> list[tuple[str, tuple[int, int, int]]]:
    """The (name, colour) entries of the pieces' key for the expansions in play (none for the base game)."""
    return [entry for layer in _layers(expansions) for entry in layer.key]


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
    """An RGB uint8 image (H, W, 3) of the game; `viewer` sees their own hand (None: no hidden hands).

    The side panel names the seats `player_0 ..` with their colours and holds a terrain colour key;
    the image grows taller when the panel needs more room than the board (5 players).
    """
    layers = _layers(game.expansions)
    board_w = BOARD_W + sum(layer.extra_width(game) for layer in layers if layer.extra_width is not None)
    panel = _panel_image(game, viewer)
    img = Image.new("RGB", (board_w + PANEL_W, max(BOARD_H, panel.height)), BACKGROUND)
    _draw_board(ImageDraw.Draw(img), game, layers)
    img.paste(panel, (board_w, 0))
    return np.asarray(img, dtype=np.uint8)


def _hex_drawings(game: Game, hooks) -> dict[tuple[int, int], list]:
    """{(r, c): [drawing, ..]} of one stage (under, over or top) of every layer, in catalogue order."""
    drawings: dict[tuple[int, int], list] = {}
    for hook in hooks:
        if hook is not None:
            for rc, drawing in hook(game):
                drawings.setdefault(rc, []).append(drawing)
    return drawings


def _draw_board(draw: ImageDraw.ImageDraw, game: Game, layers: list[ImageLayer]) -> None:
    """The hexes (the board's, then the layers' extra rows), castles, locations with their tiles left, expansion
    pieces and settlements; then the rows' Mayors discs and the layers' labels."""
    owners = {rc: p for p in range(game.num_players) for rc in game.settlements(p)}
    tiles_left = {rc: game.tiles_left(rc) for rc in game.location_hexes()}
    under = _hex_drawings(game, [layer.under for layer in layers])
    over = _hex_drawings(game, [layer.over for layer in layers])
    top = _hex_drawings(game, [layer.top for layer in layers])
    rows = list(enumerate(game.board))
    for layer in layers:
        rows += layer.extra_rows(game) if layer.extra_rows is not None else []
    for r, row in rows:
        for c, ch in enumerate(row):
            x, y = hex_centre(r, c)
            is_location = ch in LOCATION_LETTERS
            fill = LOCATION_RGB if is_location else TERRAIN_RGB.get(ch, UNKNOWN_RGB)
            draw.polygon(hex_corners(x, y, RADIUS), fill=fill, outline=(60, 60, 60))
            for drawing in under.get((r, c), ()):
                drawing(draw, x, y)
            if ch == "K":
                _draw_castle(draw, x, y)
            elif is_location:
                draw.polygon(hex_corners(x, y, RADIUS * 0.75), outline=(120, 70, 10))
                draw.text((x, y - 3), display_letter(ch), fill=(90, 40, 0), font=_font(14, ch), anchor="mm")
                for k in range(tiles_left.get((r, c), 0)):
                    draw.ellipse([x - 6 + 8 * k, y + 6, x - 2 + 8 * k, y + 10], fill=(90, 40, 0))
            for drawing in over.get((r, c), ()):
                drawing(draw, x, y)
            if (r, c) in owners:
                _draw_settlement(draw, x, y, SEAT_RGB[owners[(r, c)]])
            for drawing in top.get((r, c), ()):
                drawing(draw, x, y)
    marks: dict[int, int] = {}
    for layer in layers:
        marks.update(layer.row_marks(game) if layer.row_marks is not None else {})
    for r, p in marks.items():
        x, y = mayor_mark_centre(r)
        m = MAYOR_MARK_RADIUS
        draw.ellipse([x - m, y - m, x + m, y + m], fill=SEAT_RGB[p], outline=(0, 0, 0))
    for layer in layers:
        if layer.labels is not None:
            layer.labels(draw, game)


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

    def wrapped(self, line: str) -> None:
        """One line of small text; one too wide as its head and its comma-separated items on several lines."""
        if self.fits(line, small=True):
            self.text(line, small=True)
        else:
            head, _, rest = line.partition(": ")
            self.items(f"{head}: ", rest.split(", "), small=True)

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
    for layer in _layers(game.expansions):
        if layer.status is not None:
            layer.status(panel, game)


def _panel_seat(panel: _Panel, game: Game, p: int, score: dict, viewer: int | None) -> None:
    mark = " (start)" if p == game.start_player else ""
    panel.text(f"{seat_label(p)}{mark}: {score['total']} gold, supply {game.supply(p)}", swatch=SEAT_RGB[p])
    visible = not game.done and (p == game.current_player or viewer is None or p == viewer)
    panel.text(f"hand: {_hand_text(game, p) if visible else 'hidden'}", small=True, dx=18)
    panel.text(f"tiles: {', '.join(name for name, _ in game.tiles(p)) or 'no tiles'}", small=True, dx=18)
    breakdown = ", ".join(f"{k} {v}" for k, v in score["cards"].items())
    panel.text(f"{breakdown}, castles {score['castles']}", small=True, dx=18)
    layers = _layers(game.expansions)
    if any(layer.treasury_line for layer in layers):
        held = ", ".join(NOMAD_TILE_LABELS[t["kind"]] for t in game.nomad_tiles(p)) or "none"
        panel.text(f"capitols {score.get('capitols', 0)}, banked gold {score.get('gold', 0)}; nomad tiles: {held}",
                   small=True, dx=18)
    for layer in layers:
        if layer.seat_lines is not None:
            layer.seat_lines(panel, game, p, score)
    for layer in layers:
        if layer.seat_pieces is not None:
            layer.seat_pieces(panel, game, p, score)


def _hand_text(game: Game, p: int) -> str:
    """The names of the cards in a hand (with a side whose hands hold extra cards, Crossroads', all of them),
    '-' when empty."""
    if max((side.hand_cards for side in sides_of(game.expansions)), default=1) == 1:
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
    pieces in play and each expansion's notes (the labels of the nomad tiles, the pieces drawn small, ...)."""
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
    for layer in _layers(expansions):
        if layer.legend is not None:
            layer.legend(panel)


def save_png(image: np.ndarray, path: str) -> None:
    Image.fromarray(image).save(path, format="PNG")


def save_gif(frames: list[np.ndarray], path: str, ms_per_frame: int = 400) -> None:
    """An animated GIF, one frame per image (the last one held longer)."""
    images = [Image.fromarray(f).convert("P", palette=Image.Palette.ADAPTIVE) for f in frames]
    durations = [ms_per_frame] * (len(images) - 1) + [ms_per_frame * 5]
    images[0].save(path, save_all=True, append_images=images[1:], duration=durations, loop=0)
