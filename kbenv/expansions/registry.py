"""The Python side of every expansion, one `ExpansionSide` per catalogue row (kbenv.catalogue.EXPANSIONS).

Each expansion declares in its own package (kbenv/expansions/<package>/side.py) what the generic code needs
of it: the set-up fields of its pieces in a hand-built position, the terrains it lets a settlement stand on or
makes buildable, how its pieces are checked and written into a state, the keys it adds to a position file,
the key to its marks on the text board and its layer of the picture. The generic modules (kbenv.setup,
kbenv.positions, kbenv.present) loop over `sides_of(ruleset)` instead of testing which expansions are in play.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

from .. import catalogue as CAT

# The package of each catalogue row's side (Capitol and Caves are the Queenie mini-expansions).
SIDE_PACKAGES = {"nomads": "nomads", "capitol": "queenies", "caves": "queenies", "crossroads": "crossroads",
                 "marshlands": "marshlands", "harvest": "harvest", "island": "island"}


@dataclass(frozen=True)
class PieceCheck:
    """What an expansion's piece check reads and writes: the board's rows of letters (with the island's rows
    where it is in play), the player count, the expansion bits, the settlements' hexes and `out`, the
    position's fields normalised so far (each side normalises its own in place)."""

    board: tuple[str, ...] | list[str]
    num_players: int
    bits: int
    occupied: set
    out: dict


@dataclass(frozen=True)
class ResumeCheck:
    """What an expansion's full-state check reads: the player count, the expansion bits, the player to move and
    the board's rows of letters (with the island's rows where it is in play)."""

    num_players: int
    bits: int
    current: int
    board: tuple[str, ...] | list[str]


@dataclass(frozen=True)
class PositionCheck:
    """The rest of a hand-built position, for the checks of one expansion's pieces against it."""

    board: tuple[str, ...] | list[str]
    num_players: int
    pieces: dict
    tiles: tuple | None
    settlements: tuple | None
    supply: tuple | None
    sections: tuple | None
    rules: tuple[str, ...]


@dataclass(frozen=True)
class TextLayer:
    """An expansion's layer of the text board, each hook optional: `marks(game)` {(r, c): (mark, ANSI colour
    or None)} of its pieces drawn in place of the terrain letter; `owned(game)` {(r, c): (seat, mark)} of pieces
    shown as the owner's digit and a mark; `zone(game)` hexes shown as their letter and a zone mark;
    `row_marks(game)` {row: seat} of rows marked after their last hex; `below(game, draw)` lines drawn under the
    board (`draw(r, row, seat)` draws one row of hexes the board's way); `lines(game)` its lines under the
    drawing."""

    marks: Callable | None = None
    owned: Callable | None = None
    zone: Callable | None = None
    row_marks: Callable | None = None
    below: Callable | None = None
    lines: Callable | None = None


@dataclass(frozen=True)
class ImageLayer:
    """An expansion's layer of the picture (kbenv.present.image.board_image), each hook optional.

    A hex drawing is `drawing(draw, x, y)` at the hex's centre (draw: a PIL ImageDraw.Draw; kbenv.board.pixels).
    Each hex is drawn as: its terrain; every layer's `under(game)` drawings; the castle or the location's letter
    and tiles; every layer's `over(game)`; the settlement; every layer's `top(game)`. These hooks give (rc,
    drawing) pairs, drawn in catalogue order (no hex holds the `over` pieces of two layers: walls stand on
    buildable terrain, nomad tiles on nomad spaces, capitols on castles, caves on mountains).

    - `extra_rows(game)`: (row, codes) lines of hexes drawn after the board's (the island's: rows ROWS..);
      `extra_width(game)`: the pixels it widens the board's part of the picture by;
    - `row_marks(game)`: {row: seat} of rows marked by a disc in the seat's colour at their free end (Mayors);
      `labels(draw, game)`: its writing on the board's part, after the discs;
    - `key`: its (name, rgb) swatches of the panel's "expansion pieces"; `legend(panel)`: its notes under them;
    - `status(panel, game)`: its lines of the panel's game status; `seat_lines(panel, game, seat, score)`: its
      lines of a seat's block, `seat_pieces(panel, game, seat, score)` its lines after every layer's seat lines;
      `treasury_line`: the seats' blocks have the line of capitols, banked gold and nomad tiles held (after their
      score line, before the seat lines). The panel (kbenv.present.image) writes with `text`, `items`, `fits`,
      `wrapped` and `icons`.
    """

    under: Callable | None = None
    over: Callable | None = None
    top: Callable | None = None
    extra_rows: Callable | None = None
    extra_width: Callable | None = None
    row_marks: Callable | None = None
    labels: Callable | None = None
    key: tuple[tuple[str, tuple[int, int, int]], ...] = ()
    legend: Callable | None = None
    status: Callable | None = None
    seat_lines: Callable | None = None
    seat_pieces: Callable | None = None
    treasury_line: bool = False


@dataclass(frozen=True)
class ExpansionSide:
    """One expansion's Python side (every hook optional; None: the expansion adds nothing there).

    - `setup_fields`: its keys of a hand-built position (Setup fields and keywords of make_setup), in the order
      they are checked and written;
    - `settlement_terrains`, `buildable_terrains`: terrain letters it adds to where a settlement may stand
      (kbenv.setup.settlement_terrains) and to the buildable terrains (kbenv.expansions.checks.buildable_letters);
    - `check_pieces(check)`: validates and normalises its fields in `check.out` (ExpansionSetupError naming the
      field);
    - `apply_pieces(st, pieces, this_round, gone)`: writes its pieces into a state after the base set-up;
    - `position_keys(game)`: the keys it adds to a position file (Game.to_position), in file order;
      `position_form(position)`: rewrites a whole written position into the file's form (the Island's hexes);
    - `text_pieces`: its entries of the text board's "pieces:" key line; `text_legend()`: its further key lines;
    - `resume_fields`: its full-state keys of a position mid-turn (kbenv.setup.resume); `check_resume(resume,
      check)` returns them normalised, `apply_resume(st, resume)` writes them, `resume_keys(st)` reads them;
      `decision_phases`: the phases of a decision in progress that only its rules have (state.PHASE_NAMES);
    - `decision_fields`: its keys of the decision in progress; `check_decision(decision, bits)` returns those
      given, normalised; `apply_decision(st, decision)` writes them, `decision_keys(st)` reads them;
    - `reserve_counts`: its rules let a reserve of settlements add to the 3 mandatory builds (A-M6);
    - `reactions`: its powers are used in other players' turns, so a decision may hold the frames of the decisions
      a reaction interrupted (kbenv.engine.frames);
    - `public_facts(game)`: what every seat may see of its state, as one object (PlayerView.facts());
    - `check_position(check)`: what its pieces need of the rest of a hand-built position (tiles, sections, ...);
    - `hand_cards`: the most terrain cards a hand may hold under its rules; `swamp_cards`: its swamp cards are in
      the deck;
    - `score_keys(game, player, row)`: its entries of the player's Game.scores() (row: the score table's row);
    - `text_board`: its layer of the text board (kbenv.present.text.board_text), a `TextLayer`;
    - `image_board`: its layer of the picture (kbenv.present.image.board_image), an `ImageLayer`.
    """

    name: str
    setup_fields: tuple[str, ...] = ()
    settlement_terrains: str = ""
    buildable_terrains: str = ""
    check_pieces: Callable[[PieceCheck], None] | None = None
    apply_pieces: Callable | None = None
    position_keys: Callable | None = None
    position_form: Callable[[dict], dict] | None = None
    text_pieces: tuple[str, ...] = ()
    text_legend: Callable[[], list[str]] | None = None
    resume_fields: tuple[str, ...] = ()
    decision_phases: tuple[str, ...] = ()
    decision_fields: tuple[str, ...] = ()
    check_decision: Callable[[dict, int], dict] | None = None
    apply_decision: Callable | None = None
    decision_keys: Callable | None = None
    reserve_counts: bool = False
    reactions: bool = False
    public_facts: Callable | None = None
    check_position: Callable[[PositionCheck], None] | None = None
    hand_cards: int = 1
    swamp_cards: bool = False
    score_keys: Callable | None = None
    text_board: TextLayer | None = None
    image_board: ImageLayer | None = None
    check_resume: Callable[[dict, ResumeCheck], dict] | None = None
    apply_resume: Callable | None = None
    resume_keys: Callable | None = None

    @property
    def bit(self) -> int:
        """The expansion's bit of the state's EXPANSIONS word (kbenv.catalogue.EXPANSION_BIT)."""
        return CAT.EXPANSION_BIT[self.name]


@cache
def all_sides() -> tuple[ExpansionSide, ...]:
    """Every expansion's side in catalogue order (imported on first use: the side modules import the set-up
    modules, which import this one)."""
    found = {}
    for package in dict.fromkeys(SIDE_PACKAGES.values()):
        module = importlib.import_module(f"{__package__}.{package}.side")
        found.update({side.name: side for side in module.SIDES})
    names = [e.name for e in CAT.EXPANSIONS]
    assert sorted(found) == sorted(names), f"one side per catalogue row: {sorted(found)} != {sorted(names)}"
    assert all(SIDE_PACKAGES[name] for name in names)
    return tuple(found[name] for name in names)


def sides_of(expansions: int | Iterable[str] | None) -> tuple[ExpansionSide, ...]:
    """The sides of the expansions in play, in catalogue order: from the expansion bits or names (None: none)."""
    if expansions is None:
        return ()
    if isinstance(expansions, int):
        return tuple(side for side in all_sides() if expansions & side.bit)
    names = set(expansions)
    return tuple(side for side in all_sides() if side.name in names)


def owners(declared: str) -> dict[str, str]:
    """The expansion of each name its side declares under `declared` (setup_fields, resume_fields,
    decision_fields, decision_phases): a field, key or phase of a ruleset without its expansion is refused."""
    return {name: side.name for side in all_sides() for name in getattr(side, declared)}


def declaring(flag: str) -> str:
    """The name of the expansion whose side declares a feature (`hand_cards` above 1, `swamp_cards`, ...): the
    expansion an error message names when the feature is used without it."""
    default = ExpansionSide.__dataclass_fields__[flag].default
    return next(side.name for side in all_sides() if getattr(side, flag) != default)
