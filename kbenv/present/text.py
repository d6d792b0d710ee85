"""Terminal rendering: the hex map with terrains, specials, expansion pieces and settlements, and score tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..board.codes import LOCATION_LETTERS, LOCATION_NAMES, display_letter
from ..board.colours import (
    LOCATION_ANSI,
    SEAT_ANSI,
    SEAT_COLOUR_NAMES,
    TERRAIN_ANSI,
    UNKNOWN_ANSI,
    WALL_ANSI,
    WALL_MARK,
    seat_name,
)
from ..expansions.crossroads.setup import TASK_GOLD  # noqa: F401  (its old home)
from ..expansions.crossroads.side import PIECE_MARKS, ZONE_MARK, piece_marks  # noqa: F401  (piece_marks: its old home)
from ..expansions.harvest.view import MAYOR_MARK
from ..expansions.registry import sides_of

if TYPE_CHECKING:
    from ..game import Game

PLAYER_MARKS = "01234"  # a settlement of player_<p> shows the digit p
# Owned pieces stored in slots (the Crossroads pieces) count as settlements: their hexes show the owner's digit
# followed by the kind's mark of catalogue.PIECE_KINDS (where a plain settlement has a space; a piece covering
# several hexes marks its other cells with its cell mark); an empty hex of a warrior zone shows its terrain or
# location letter followed by ZONE_MARK.
# The marks under their former names (kept for callers that import them).
WARRIOR_MARK, WAGON_MARK, SHIP_MARK = PIECE_MARKS["warrior"], PIECE_MARKS["wagon"], PIECE_MARKS["ship"]
CITY_HALL_MARK, CITY_HALL_CELL_MARK = PIECE_MARKS["city hall"], PIECE_MARKS["city hall cell"]
ZONE_ANSI = 88  # dark red: the zone mark after the hex's letter
LEGEND_TERRAINS = (("g", "grass"), ("c", "canyon"), ("d", "desert"), ("f", "flower field"), ("t", "forest"),
                   ("w", "water"), ("m", "mountain"), ("k", "castle"), ("n", "nomad space"))


def board_text(game: Game, colour: bool = True) -> str:
    """The board as text: two characters a hex, odd rows shifted right by one; digit p = a settlement of player_p.

    Expansion pieces have their own characters (see `legend`): `#` stone wall, `*` capitol (on its castle),
    `@` cave (on its mountain), and a mark per kind of nomad tile lying on a nomad space; their hexes keep
    the terrain's background colour (walls: stone grey). With nomad tiles on the board a last line names
    each one: `nomad tiles: 7,6 D-F, 16,16 Swd`.

    Crossroads: a hex holding a warrior, wagon, ship or city-hall cell shows the owner's digit followed by
    the piece's mark (`0^` warrior, `0=` wagon, `0)` ship, `0&` city-hall centre, `0:` its other cells),
    an empty hex of a warrior zone its letter followed by `-`, and a last line lists the task cards in
    play with their gold: `tasks: road 7 gold, fortress 6 gold`.

    Harvest: farmland `a` and silos `o` are terrain letters; a scout shows the turn owner's
    digit followed by `%`; a row marked for Mayors ends with `M` and the seat's digit; last lines give the number
    tiles, the Mayors rows, the Rovers sections of this turn, the scouts and the silo phase
    (kbenv.expansions.harvest.view.harvest_lines).

    Island: below the board, after a heading line naming its side, the island's 5 lines of 4 hexes drawn the same
    way (line numbers 0..4, odd lines shifted; an island hex is `island r,c`), then a last line with its location
    and tiles left (kbenv.expansions.island.view).
    """
    owners = {rc: p for p in range(game.num_players) for rc in game.settlements(p)}
    layers = [side.text_board for side in sides_of(game.expansions) if side.text_board is not None]
    pieces = board_pieces(game)
    owned: dict = {}
    zone: set = set()
    row_marks: dict = {}
    for layer in layers:
        owned.update(layer.owned(game) if layer.owned else {})
        zone |= set(layer.zone(game)) if layer.zone else set()
        row_marks.update(layer.row_marks(game) if layer.row_marks else {})
    lines = ["   " + "".join(f"{c:<2d}"[:2] if c % 2 == 0 else "  " for c in range(20))]

    def cells(r: int, row: str) -> str:
        out = []
        for c, ch in enumerate(row):
            rc = (r, c)
            if rc in owned:
                owner, mark = owned[rc]
                out.append(_cell(ch, owner, colour, second=mark))
            elif rc in zone and rc not in owners and rc not in pieces:
                out.append(_cell(ch, None, colour, second=ZONE_MARK, second_ansi=ZONE_ANSI))
            else:
                out.append(_cell(ch, owners.get(rc), colour, pieces.get(rc)))
        return "".join(out)

    def draw(r: int, row: str, mark: int | None, number: int | None = None) -> str:
        """One line of hexes (grid row r; `number`: the line number shown, r by default)."""
        return _row_line(r if number is None else number, cells(r, row), mark)

    for r, row in enumerate(game.board):
        lines.append(draw(r, row, row_marks.get(r)))
    for layer in layers:
        lines += layer.below(game, draw) if layer.below else []
    for layer in layers:
        lines += layer.lines(game) if layer.lines else []
    return "\n".join(lines)


def _row_line(r: int, cells: str, mark: int | None) -> str:
    """One line of hexes: its number, odd lines shifted half a hex right, and a Mayors mark after it."""
    return (f"{r:2d} " + (" " if r % 2 else "") + cells
            + ("" if mark is None else f"{' ' if r % 2 else '  '}{MAYOR_MARK}{PLAYER_MARKS[mark]}"))


def board_pieces(game: Game) -> dict[tuple[int, int], tuple[str, int | None]]:
    """{(r, c): (mark, ANSI colour of the mark or None)} of the expansion pieces on the board (each expansion's
    text layer: nomad tiles and walls, capitols, caves)."""
    pieces: dict[tuple[int, int], tuple[str, int | None]] = {}
    for side in sides_of(game.expansions):
        if side.text_board is not None and side.text_board.marks is not None:
            pieces.update(side.text_board.marks(game))
    return pieces


def _cell(ch: str, owner: int | None, colour: bool, piece: tuple[str, int | None] | None = None,
          second: str = " ", second_ansi: int | None = None) -> str:
    """One hex: the owner's digit, an expansion piece's mark, an upper-case location letter or a lower-case
    terrain letter, then `second` (a space, or a Crossroads piece's or zone's mark, drawn in `second_ansi`
    when given, else in the first character's colour)."""
    is_location = ch in LOCATION_LETTERS
    if owner is not None:
        text = PLAYER_MARKS[owner]
    elif piece is not None:
        text = piece[0]
    else:
        text = display_letter(ch) if is_location else ch.lower()
    if not colour:
        return f"{text}{second}"
    bg = LOCATION_ANSI if is_location else TERRAIN_ANSI.get(ch, UNKNOWN_ANSI)
    if owner is not None:
        fg = f"\x1b[1;38;5;{SEAT_ANSI[owner]}m"
    elif piece is not None and piece[0] == WALL_MARK:
        bg, fg = WALL_ANSI, "\x1b[1;38;5;255m"
    elif piece is not None:
        fg = f"\x1b[1;38;5;{piece[1] if piece[1] is not None else 0}m"
    else:
        fg = "\x1b[38;5;0m"
    if second_ansi is not None:
        second = f"\x1b[1;38;5;{second_ansi}m{second}"
    return f"\x1b[48;5;{bg}m{fg}{text}{second}\x1b[0m"


def pieces_legend(expansions=("nomads", "capitol", "caves")) -> str:
    """The key to the expansion pieces of `board_text` for the expansions in play ('' for the base game), from
    each expansion's side (kbenv.expansions.registry); the default is the key of the Nomads, Capitol and Caves
    pieces."""
    sides = sides_of(expansions)
    parts = [entry for side in sides for entry in side.text_pieces]
    lines = [f"pieces: {', '.join(parts)}"] if parts else []
    for side in sides:
        lines += side.text_legend() if side.text_legend is not None else []
    return "\n".join(lines)


def legend(num_players: int = 5, expansions=()) -> str:
    """The key to `board_text`: terrain letters, location letters, the settlement digit of each seat and,
    for the expansions in play (names of kbenv.catalogue), the marks of their pieces."""
    terrains = ", ".join(f"{ch} {name}" for ch, name in LEGEND_TERRAINS)
    locations = ", ".join(f"{display_letter(ch)} {name}"
                          for ch, name in zip(LOCATION_LETTERS, LOCATION_NAMES, strict=True))
    seats = ", ".join(f"{PLAYER_MARKS[p]} {seat_name(p)} ({SEAT_COLOUR_NAMES[p]})" for p in range(num_players))
    text = f"terrain: {terrains}\nlocations: {locations}\nsettlements: {seats}"
    pieces = pieces_legend(tuple(expansions))
    return f"{text}\n{pieces}" if pieces else text


def score_text(scores: list[dict], cards: tuple[str, ...]) -> str:
    """A table: one row per seat (player_0 ..), one column per card, castles (capitols and banked gold
    when the scores have them, and with Crossroads the gold of the task cards met) and total."""
    extra = [k for k in ("castles", "capitols", "gold", "tasks") if scores and k in scores[0]]
    cols = list(cards) + extra + ["total"]
    width = max(len(c) for c in cols) + 2
    name_width = len(seat_name(max(len(scores) - 1, 0))) + 2
    lines = ["player".ljust(name_width) + "".join(c.rjust(width) for c in cols)]
    for p, s in enumerate(scores):
        values = [s["cards"][c] for c in cards] + [_column(s[k]) for k in extra] + [s["total"]]
        lines.append(seat_name(p).ljust(name_width) + "".join(str(v).rjust(width) for v in values))
    return "\n".join(lines)


def score_notes(game: Game) -> list[str]:
    """Lines that say why the capitols column is 0 for everyone, printed under an expansion game's table.

    The Capitol rule (Big Box, Queenie 1): a capitol is placed on a castle of the Oracle or Harbor section
    and only when such a section is in play; without one (or without the Capitol) nobody can score it."""
    if not game.expansions or game.capitols():  # base tables have no capitols column; placed ones explain it
        return []
    why = "the Capitol expansion is not in play"
    if "capitol" in game.expansions:
        locations = "".join(game.setup.board)
        if LOCATION_LETTERS[LOCATION_NAMES.index("oracle")] not in locations \
                and LOCATION_LETTERS[LOCATION_NAMES.index("harbor")] not in locations:
            why = ("no capitol was placed: a capitol stands on a castle of the Oracle or Harbor section, and neither "
                   "section is in play")
        else:
            why = "no capitol is on the board (the position places none)"
    return [f"capitols: 0 for everyone, {why}"]


def _column(value) -> int:
    """A score column's gold: the sum of a {task: gold} mapping, else the value itself."""
    return sum(value.values()) if isinstance(value, dict) else value
