"""Terminal rendering: the hex map with terrains, specials and settlements, and score tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board.codes import LOCATION_LETTERS, LOCATION_NAMES
from .colours import LOCATION_ANSI, SEAT_ANSI, SEAT_COLOUR_NAMES, TERRAIN_ANSI, UNKNOWN_ANSI, seat_name

if TYPE_CHECKING:
    from .game import Game

PLAYER_MARKS = "01234"  # a settlement of player_<p> shows the digit p
LEGEND_TERRAINS = (("g", "grass"), ("c", "canyon"), ("d", "desert"), ("f", "flower field"), ("t", "forest"),
                   ("w", "water"), ("m", "mountain"), ("k", "castle"), ("n", "nomad space"))


def board_text(game: Game, colour: bool = True) -> str:
    """The board as text: two characters a hex, odd rows shifted right by one; digit p = a settlement of player_p."""
    owners = {rc: p for p in range(game.num_players) for rc in game.settlements(p)}
    lines = ["   " + "".join(f"{c:<2d}"[:2] if c % 2 == 0 else "  " for c in range(20))]
    for r, row in enumerate(game.board):
        cells = "".join(_cell(ch, owners.get((r, c)), colour) for c, ch in enumerate(row))
        lines.append(f"{r:2d} " + (" " if r % 2 else "") + cells)
    return "\n".join(lines)


def _cell(ch: str, owner: int | None, colour: bool) -> str:
    """One hex: the owner's digit, an upper-case location letter or a lower-case terrain letter."""
    is_location = ch in LOCATION_LETTERS
    if owner is not None:
        text = PLAYER_MARKS[owner]
    else:
        text = ch.upper() if is_location else ch.lower()
    if not colour:
        return f"{text} "
    bg = LOCATION_ANSI if is_location else TERRAIN_ANSI.get(ch, UNKNOWN_ANSI)
    fg = f"\x1b[1;38;5;{SEAT_ANSI[owner]}m" if owner is not None else "\x1b[38;5;0m"
    return f"\x1b[48;5;{bg}m{fg}{text} \x1b[0m"


def legend(num_players: int = 5) -> str:
    """The key to `board_text`: terrain letters, location letters and the settlement digit of each seat."""
    terrains = ", ".join(f"{ch} {name}" for ch, name in LEGEND_TERRAINS)
    locations = ", ".join(f"{ch.upper()} {name}" for ch, name in zip(LOCATION_LETTERS, LOCATION_NAMES, strict=True))
    seats = ", ".join(f"{PLAYER_MARKS[p]} {seat_name(p)} ({SEAT_COLOUR_NAMES[p]})" for p in range(num_players))
    return f"terrain: {terrains}\nlocations: {locations}\nsettlements: {seats}"


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
