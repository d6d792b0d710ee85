"""Terminal rendering: the hex map with terrains, specials, expansion pieces and settlements, and score tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board.codes import LOCATION_LETTERS, LOCATION_NAMES
from .colours import (
    CAPITOL_ANSI,
    CAPITOL_MARK,
    CAVE_ANSI,
    CAVE_MARK,
    LOCATION_ANSI,
    NOMAD_TILE_LABELS,
    NOMAD_TILE_MARKS,
    SEAT_ANSI,
    SEAT_COLOUR_NAMES,
    TERRAIN_ANSI,
    UNKNOWN_ANSI,
    WALL_ANSI,
    WALL_MARK,
    seat_name,
)

if TYPE_CHECKING:
    from .game import Game

PLAYER_MARKS = "01234"  # a settlement of player_<p> shows the digit p
LEGEND_TERRAINS = (("g", "grass"), ("c", "canyon"), ("d", "desert"), ("f", "flower field"), ("t", "forest"),
                   ("w", "water"), ("m", "mountain"), ("k", "castle"), ("n", "nomad space"))


def board_text(game: Game, colour: bool = True) -> str:
    """The board as text: two characters a hex, odd rows shifted right by one; digit p = a settlement of player_p.

    Expansion pieces have their own characters (see `legend`): `#` stone wall, `*` capitol (on its castle),
    `@` cave (on its mountain), and a mark per kind of nomad tile lying on a nomad space; their hexes keep
    the terrain's background colour (walls: stone grey). With nomad tiles on the board a last line names
    each one: `nomad tiles: 7,6 D-F, 16,16 Swd`.
    """
    owners = {rc: p for p in range(game.num_players) for rc in game.settlements(p)}
    pieces = board_pieces(game)
    lines = ["   " + "".join(f"{c:<2d}"[:2] if c % 2 == 0 else "  " for c in range(20))]
    for r, row in enumerate(game.board):
        cells = "".join(_cell(ch, owners.get((r, c)), colour, pieces.get((r, c))) for c, ch in enumerate(row))
        lines.append(f"{r:2d} " + (" " if r % 2 else "") + cells)
    tiles = sorted((rc, kind) for rc, kind in game.nomad_spaces().items() if kind is not None)
    if tiles:
        lines.append("nomad tiles: " + ", ".join(f"{r},{c} {NOMAD_TILE_LABELS[kind]}" for (r, c), kind in tiles))
    return "\n".join(lines)


def board_pieces(game: Game) -> dict[tuple[int, int], tuple[str, int | None]]:
    """{(r, c): (mark, ANSI colour of the mark or None)} of the expansion pieces on the board."""
    pieces: dict[tuple[int, int], tuple[str, int | None]] = {}
    for rc, kind in game.nomad_spaces().items():
        if kind is not None:
            pieces[rc] = (NOMAD_TILE_MARKS[kind], None)
    for rc in game.walls():
        pieces[rc] = (WALL_MARK, None)
    for rc in game.caves():
        pieces[rc] = (CAVE_MARK, CAVE_ANSI)
    for rc in game.capitols():
        pieces[rc] = (CAPITOL_MARK, CAPITOL_ANSI)
    return pieces


def _cell(ch: str, owner: int | None, colour: bool, piece: tuple[str, int | None] | None = None) -> str:
    """One hex: the owner's digit, an expansion piece's mark, an upper-case location letter or a lower-case
    terrain letter."""
    is_location = ch in LOCATION_LETTERS
    if owner is not None:
        text = PLAYER_MARKS[owner]
    elif piece is not None:
        text = piece[0]
    else:
        text = ch.upper() if is_location else ch.lower()
    if not colour:
        return f"{text} "
    bg = LOCATION_ANSI if is_location else TERRAIN_ANSI.get(ch, UNKNOWN_ANSI)
    if owner is not None:
        fg = f"\x1b[1;38;5;{SEAT_ANSI[owner]}m"
    elif piece is not None and piece[0] == WALL_MARK:
        bg, fg = WALL_ANSI, "\x1b[1;38;5;255m"
    elif piece is not None:
        fg = f"\x1b[1;38;5;{piece[1] if piece[1] is not None else 0}m"
    else:
        fg = "\x1b[38;5;0m"
    return f"\x1b[48;5;{bg}m{fg}{text} \x1b[0m"


def pieces_legend(expansions=("nomads", "capitol", "caves")) -> str:
    """The key to the expansion pieces of `board_text` for the expansions in play ('' for the base game)."""
    parts = []
    if "nomads" in expansions:
        parts.append(f"{WALL_MARK} stone wall")
    if "capitol" in expansions:
        parts.append(f"{CAPITOL_MARK} capitol (on its castle)")
    if "caves" in expansions:
        parts.append(f"{CAVE_MARK} cave (on its mountain)")
    lines = [f"pieces: {', '.join(parts)}"] if parts else []
    if "nomads" in expansions:
        donation = NOMAD_TILE_MARKS["donation-G"]
        kinds = [f"{donation} donation (D-G .. D-M, by terrain)"]
        kinds += [f"{NOMAD_TILE_MARKS[k]} {k} ({NOMAD_TILE_LABELS[k]})" for k in NOMAD_TILE_MARKS if "-" not in k]
        lines.append(f"nomad tiles on nomad spaces: {', '.join(kinds)}")
    return "\n".join(lines)


def legend(num_players: int = 5, expansions=()) -> str:
    """The key to `board_text`: terrain letters, location letters, the settlement digit of each seat and,
    for the expansions in play (names of kbenv.catalogue), the marks of their pieces."""
    terrains = ", ".join(f"{ch} {name}" for ch, name in LEGEND_TERRAINS)
    locations = ", ".join(f"{ch.upper()} {name}" for ch, name in zip(LOCATION_LETTERS, LOCATION_NAMES, strict=True))
    seats = ", ".join(f"{PLAYER_MARKS[p]} {seat_name(p)} ({SEAT_COLOUR_NAMES[p]})" for p in range(num_players))
    text = f"terrain: {terrains}\nlocations: {locations}\nsettlements: {seats}"
    pieces = pieces_legend(tuple(expansions))
    return f"{text}\n{pieces}" if pieces else text


def score_text(scores: list[dict], cards: tuple[str, ...]) -> str:
    """A table: one row per seat (player_0 ..), one column per card, castles (capitols and banked gold
    when the scores have them) and total."""
    extra = [k for k in ("castles", "capitols", "gold") if scores and k in scores[0]]
    cols = list(cards) + extra + ["total"]
    width = max(len(c) for c in cols) + 2
    name_width = len(seat_name(max(len(scores) - 1, 0))) + 2
    lines = ["player".ljust(name_width) + "".join(c.rjust(width) for c in cols)]
    for p, s in enumerate(scores):
        values = [s["cards"][c] for c in cards] + [s[k] for k in extra] + [s["total"]]
        lines.append(seat_name(p).ljust(name_width) + "".join(str(v).rjust(width) for v in values))
    return "\n".join(lines)
