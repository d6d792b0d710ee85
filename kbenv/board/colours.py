"""Seat names and colours shared by the text and image renderers: one colour per seat, the same in both.

Seats are called `player_0 .. player_{n-1}` everywhere (the PettingZoo agent names). Seat colours are
given once, as RGB values that are exactly xterm 256-colour palette entries, so the ANSI text and the
pictures show the same colour. Terrain colours are nicer RGB shades in pictures and hand-picked xterm
codes close to them in text.
"""

from __future__ import annotations

from ..catalogue import NOMAD_KINDS

Rgb = tuple[int, int, int]

SEAT_COLOURS: tuple[tuple[str, Rgb], ...] = (  # xterm 160, 26, 231, 234, 134
    ("red", (215, 0, 0)),
    ("blue", (0, 95, 215)),
    ("white", (255, 255, 255)),
    ("black", (28, 28, 28)),
    ("purple", (175, 95, 215)),
)
SEAT_COLOUR_NAMES: tuple[str, ...] = tuple(name for name, _ in SEAT_COLOURS)
SEAT_RGB: tuple[Rgb, ...] = tuple(rgb for _, rgb in SEAT_COLOURS)

TERRAIN_RGB: dict[str, Rgb] = {
    "G": (143, 196, 78), "C": (196, 120, 72), "D": (236, 214, 150), "F": (240, 206, 60),
    "T": (46, 110, 52), "W": (70, 140, 212), "M": (140, 136, 132), "K": (215, 215, 222),
    "N": (214, 190, 150), "S": (96, 120, 90), "A": (200, 180, 100), "P": (190, 160, 200), "O": (170, 150, 120),
}
LOCATION_RGB: Rgb = (232, 186, 60)
UNKNOWN_RGB: Rgb = (200, 200, 200)

_CUBE_LEVELS = (0, 95, 135, 175, 215, 255)


def seat_name(seat: int) -> str:
    """The name of a seat: `player_<seat>` (as the PettingZoo environment names its agents)."""
    return f"player_{seat}"


def seat_label(seat: int) -> str:
    """`player_0 (red)`: the seat's name and colour."""
    return f"{seat_name(seat)} ({SEAT_COLOUR_NAMES[seat]})"


def _xterm_palette() -> dict[int, Rgb]:
    """RGB of the xterm colours 16..255: the 6x6x6 cube and the 24-step grey ramp."""
    palette = {16 + 36 * r + 6 * g + b: (_CUBE_LEVELS[r], _CUBE_LEVELS[g], _CUBE_LEVELS[b])
               for r in range(6) for g in range(6) for b in range(6)}
    palette.update({232 + k: (8 + 10 * k,) * 3 for k in range(24)})
    return palette


XTERM_RGB: dict[int, Rgb] = _xterm_palette()


def ansi256(rgb: Rgb) -> int:
    """The xterm 256-colour code nearest to an RGB colour (exact for palette colours)."""
    return min(XTERM_RGB, key=lambda code: sum((x - y) ** 2 for x, y in zip(rgb, XTERM_RGB[code], strict=True)))


SEAT_ANSI: tuple[int, ...] = tuple(ansi256(rgb) for rgb in SEAT_RGB)
TERRAIN_ANSI: dict[str, int] = {  # background shades close to TERRAIN_RGB, chosen by eye
    "G": 112, "C": 130, "D": 222, "F": 220, "T": 28, "W": 33, "M": 245, "K": 250, "N": 180,
    "S": 65, "A": 179, "P": 146, "O": 138,
}
LOCATION_ANSI = 214
UNKNOWN_ANSI = 250

# ----- expansion pieces: stone walls and nomad tiles (Nomads), capitols (Capitol), caves (Caves) ---------
# Text: one character a hex (the hex's terrain stays the background colour); pictures: a drawn piece
# with a key swatch of its main colour.
WALL_MARK, CAPITOL_MARK, CAVE_MARK = "#", "*", "@"
NOMAD_TILE_MARKS: dict[str, str] = {  # a nomad tile lying on its nomad space
    **{kind: "+" for kind in NOMAD_KINDS if kind.startswith("donation-")},
    "resettlement": "~", "outpost": ">", "sword": "!", "treasure": "$",
}
NOMAD_TILE_LABELS: dict[str, str] = {  # short labels: D-G = donation of grass, Res, Out, Swd, Tre
    **{kind: f"D-{kind[-1]}" for kind in NOMAD_KINDS if kind.startswith("donation-")},
    "resettlement": "Res", "outpost": "Out", "sword": "Swd", "treasure": "Tre",
}
WALL_RGB: Rgb = (110, 104, 98)
WALL_MORTAR_RGB: Rgb = (222, 214, 200)
CAVE_RGB: Rgb = (36, 26, 20)
CAPITOL_RGB: Rgb = (176, 48, 96)
NOMAD_TILE_RGB: Rgb = (252, 244, 222)
WALL_ANSI = 240  # stone grey background, white mark
CAPITOL_ANSI = 125  # the capitol's mark on the castle background
CAVE_ANSI = 232  # the cave's mark on the mountain background
