"""Crossroads in the picture (kbenv.present.image): warriors, wagons, ships and city halls in their owner's seat
colour (the key shows their shapes in KEY_PIECE_RGB), the hexes of a warrior zone hatched in ZONE_RGB, the fort
card and the task cards in the panel, each seat's pieces and tasks met."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...board.colours import SEAT_RGB
from ...board.pixels import RADIUS, TERRAIN_CARD_NAMES, hex_corners, in_colour
from ...engine.piece_table import player_key
from ..registry import ImageLayer
from .setup import CROSSROADS_KINDS, TASK_GOLD

if TYPE_CHECKING:
    from PIL.ImageDraw import ImageDraw

ZONE_RGB = (150, 20, 40)
CROSSROADS_KEY = (("warrior zone (hatched)", ZONE_RGB),)


def clip_to_hex(p0, p1, corners) -> tuple | None:
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


def draw_zone(draw: ImageDraw, x: float, y: float) -> None:
    """A hex of a warrior zone: diagonal hatching and an inner outline in the zone colour."""
    corners = hex_corners(x, y, RADIUS * 0.92)
    for k in range(-4, 5):
        offset = k * 6.0
        segment = clip_to_hex((x + offset - RADIUS, y + RADIUS), (x + offset + RADIUS, y - RADIUS), corners)
        if segment is not None:
            draw.line(segment, fill=ZONE_RGB, width=1)
    draw.polygon(corners, outline=ZONE_RGB)


def draw_city_hall_cell(draw: ImageDraw, x: float, y: float, colour) -> None:
    """One of the 7 cells of a city hall: a thick border and a small block in the owner's colour (the
    terrain stays visible)."""
    draw.polygon(hex_corners(x, y, RADIUS * 0.84), outline=colour, width=3)
    s = RADIUS * 0.28
    draw.rectangle([x - s, y - s, x + s, y + s], fill=colour, outline=(0, 0, 0))


def draw_city_hall(draw: ImageDraw, x: float, y: float, colour) -> None:
    """The centre of a city hall: a hall with a pediment and columns."""
    s, outline = RADIUS * 0.6, (0, 0, 0)
    draw.polygon([(x - s, y - s * 0.3), (x, y - s), (x + s, y - s * 0.3)], fill=colour, outline=outline)
    draw.rectangle([x - s * 0.85, y - s * 0.3, x + s * 0.85, y + s * 0.8], fill=colour, outline=outline)
    for k in (-1, 0, 1):
        draw.line([x + k * s * 0.45, y - s * 0.1, x + k * s * 0.45, y + s * 0.6], fill=outline)


def draw_warrior(draw: ImageDraw, x: float, y: float, colour) -> None:
    """A warrior: a shield, point down, with a cross."""
    s, outline = RADIUS * 0.6, (0, 0, 0)
    shield = [(x - s, y - s), (x + s, y - s), (x + s, y + s * 0.15), (x, y + s), (x - s, y + s * 0.15)]
    draw.polygon(shield, fill=colour, outline=outline)
    draw.line([x, y - s * 0.75, x, y + s * 0.6], fill=outline)
    draw.line([x - s * 0.6, y - s * 0.25, x + s * 0.6, y - s * 0.25], fill=outline)


def draw_wagon(draw: ImageDraw, x: float, y: float, colour) -> None:
    """A wagon: a box on two black wheels."""
    s, outline = RADIUS * 0.6, (0, 0, 0)
    draw.rectangle([x - s, y - s * 0.7, x + s, y + s * 0.3], fill=colour, outline=outline)
    for cx in (x - s * 0.55, x + s * 0.55):
        draw.ellipse([cx - s * 0.32, y + s * 0.25, cx + s * 0.32, y + s * 0.89], fill=outline)


def draw_ship(draw: ImageDraw, x: float, y: float, colour) -> None:
    """A ship: a hull and a triangular sail."""
    s, outline = RADIUS * 0.65, (0, 0, 0)
    draw.polygon([(x - s, y + s * 0.25), (x + s, y + s * 0.25), (x + s * 0.6, y + s * 0.8),
                  (x - s * 0.6, y + s * 0.8)], fill=colour, outline=outline)
    draw.polygon([(x - s * 0.05, y - s), (x - s * 0.05, y + s * 0.15), (x - s * 0.75, y + s * 0.15)],
                 fill=colour, outline=outline)
    draw.polygon([(x + s * 0.05, y - s * 0.8), (x + s * 0.05, y + s * 0.15), (x + s * 0.65, y + s * 0.15)],
                 fill=colour, outline=outline)


# How each slot-stored piece kind of catalogue.PIECE_KINDS is drawn, by its label (the kinds of
# Game.piece_cells); a kind covering several hexes also has a drawer for every one of its cells, drawn under it.
PIECE_DRAWERS = {"warrior": draw_warrior, "wagon": draw_wagon, "ship": draw_ship, "city hall": draw_city_hall}
CELL_DRAWERS = {"city hall": draw_city_hall_cell}
assert set(PIECE_DRAWERS) == {kind.label for kind in CROSSROADS_KINDS}, "a drawer for every piece kind"
assert set(CELL_DRAWERS) == {kind.label for kind in CROSSROADS_KINDS if kind.cells > 1}


def under(game) -> list:
    """Under the castle or location: the hatching of the warrior zone, then the cells of the pieces covering
    several hexes (their centre too), in the owner's colour."""
    drawings: list = [(rc, draw_zone) for rc in game.warrior_zone()]
    for rc, (owner, kind) in game.piece_cells().items():
        cell = kind.removesuffix(" cell")
        if cell in CELL_DRAWERS:
            drawings.append((rc, in_colour(CELL_DRAWERS[cell], SEAT_RGB[owner])))
    return drawings


def top(game) -> list:
    """Over the settlements: each piece (a city hall at its centre) in its owner's colour."""
    return [(rc, in_colour(PIECE_DRAWERS[kind], SEAT_RGB[owner]))
            for rc, (owner, kind) in game.piece_cells().items() if kind in PIECE_DRAWERS]


def status(panel, game) -> None:
    """The card the Fort tile drew (when one did) and the task cards in play with their gold."""
    fort = game.fort_card()
    if fort is not None:
        panel.text(f"fort card: {TERRAIN_CARD_NAMES.get(fort, fort)}")
    tasks = game.tasks()
    panel.items("tasks (gold): ", [f"{name} {TASK_GOLD[name]}" for name in tasks] or ["none"], small=True)


def placed_pieces(pieces: dict) -> list[str]:
    """The seat's pieces on the board (Game.pieces): a count for a kind of several ("2 warriors"), the name of
    each single piece placed ("wagon", "city hall")."""
    placed = []
    for kind in CROSSROADS_KINDS:
        value = pieces[player_key(kind)]
        if kind.per_player > 1:
            placed.append(f"{len(value)} {kind.label if len(value) == 1 else kind.plural}")
        elif value is not None:
            placed.append(kind.label)
    return placed


def seat_pieces(panel, game, p: int, score: dict) -> None:
    """The seat's pieces on the board and the tasks it meets, on one line when it fits."""
    placed = placed_pieces(game.pieces(p))
    met = [f"{name} {gold}" for name, gold in score.get("tasks", {}).items() if gold]
    line = f"pieces: {', '.join(placed)}; tasks met: {', '.join(met) or 'none'}"
    if panel.fits(line, small=True, dx=18):
        panel.text(line, small=True, dx=18)
    else:
        panel.text(f"pieces: {', '.join(placed)}", small=True, dx=18)
        panel.items("tasks met: ", met or ["none"], small=True, dx=18)


def legend(panel) -> None:
    """The pieces drawn small: those of one hex, then a piece of several hexes with one of its other cells."""
    panel.text("  crossroads pieces, in the owner's colour:", small=True)
    panel.icons([(kind.label, PIECE_DRAWERS[kind.label]) for kind in CROSSROADS_KINDS if kind.cells == 1], dx=10)
    for kind in CROSSROADS_KINDS:
        if kind.cells > 1:
            panel.icons([(f"{kind.label} (centre)", PIECE_DRAWERS[kind.label]),
                         (f"its {kind.cells - 1} other cells", CELL_DRAWERS[kind.label])], dx=10)


IMAGE_BOARD = ImageLayer(under=under, top=top, key=CROSSROADS_KEY, legend=legend, status=status,
                         seat_pieces=seat_pieces)
