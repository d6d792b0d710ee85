"""Terminal rendering: the hex map with terrains, specials and settlements, and score tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board.codes import LOCATION_LETTERS

if TYPE_CHECKING:
    from .game import Game

TERRAIN_COLOURS = {  # ANSI 256-colour backgrounds
    "G": 112, "C": 130, "D": 222, "F": 220, "T": 28, "W": 33, "M": 245, "K": 250, "N": 180,
}
PLAYER_COLOURS = (196, 21, 231, 16, 201)  # red, blue, white, black, magenta
PLAYER_MARKS = "12345"


def board_text(game: Game, colour: bool = True) -> str:
    """The board as text: two characters a hex, odd rows shifted right by one."""
    lines = []
    owners = {}
    for p in range(game.num_players):
        for rc in game.settlements(p):
            owners[rc] = p
    header = "   " + "".join(f"{c:<2d}"[:2] if c % 2 == 0 else "  " for c in range(20))
    lines.append(header)
    for r, row in enumerate(game.board):
        cells = []
        for c, ch in enumerate(row):
            p = owners.get((r, c))
            text = PLAYER_MARKS[p] if p is not None else (ch if ch in LOCATION_LETTERS else ch.lower())
            if ch in LOCATION_LETTERS:
                text = ch.upper() if p is None else text
            if colour:
                bg = TERRAIN_COLOURS.get(ch, 214)
                fg = f"\x1b[1;38;5;{PLAYER_COLOURS[p]}m" if p is not None else "\x1b[38;5;0m"
                cells.append(f"\x1b[48;5;{bg}m{fg}{text} \x1b[0m")
            else:
                cells.append(f"{text} ")
        lines.append(f"{r:2d} " + (" " if r % 2 else "") + "".join(cells))
    return "\n".join(lines)


def legend() -> str:
    return (
        "terrain: g grass, c canyon, d desert, f flower, t forest, w water, m mountain, k castle; "
        "locations: O oracle, F farm, A oasis, W tower, T tavern, B barn, H harbor, P paddock; "
        "digits: settlements of players 1..5"
    )


def score_text(scores: list[dict], cards: tuple[str, ...]) -> str:
    """A table: one row per player, one column per card, castles and total."""
    cols = list(cards) + ["castles", "total"]
    width = max(len(c) for c in cols) + 2
    lines = ["player".ljust(8) + "".join(c.rjust(width) for c in cols)]
    for p, s in enumerate(scores):
        values = [s["cards"][c] for c in cards] + [s["castles"], s["total"]]
        lines.append(f"{p:<8d}" + "".join(str(v).rjust(width) for v in values))
    return "\n".join(lines)
