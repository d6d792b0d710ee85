"""Every API assumption of the Island rule tests, in one place (tests/rules/island/test_island_*.py).

These tests were written before the Island engine existed (issue 23), by someone who did not read the engine. They
use the documented public API (docs/api.md: ``Game``, ``kbenv.positions.files``) extended the way
``../shared/design/EXPANSIONS.md`` decision 8 names things: the expansion ``island``, the position key
``"island": {"board": [...rows...], "side": name}``, island hexes written ``["island", r, c]``, the powers
``rope_bridge`` and ``tree_house``. Where decision 8 leaves a detail open, the choice made here is the most natural
extension of the existing position format; an engine that chooses otherwise adapts this module only
(ISLAND_TESTS.md lists every assumption, IA1..IA16):

* IA1  expansion name ``"island"`` (``EXPANSION``); ``requires_island`` skips every Island module only where
       ``kbenv.catalogue.EXPANSIONS`` has no ``island`` row; while the row is under construction, conftest's
       ``island_opt_in`` fixture opts each Island test into it (``KBENV_EXPERIMENTAL=island``), as was done for Harvest.
* IA2  the island in a position: ``"island": {"board": ROWS strings, "side": name, "locations": {"r,c": type}}``.
       The board strings use the board's letters (G C D F T W M ...); a location hex is ``L`` and its type is given
       in the island's own ``"locations"`` (keys ``"r,c"`` in island coordinates), as for the Harvest / Marshlands
       location hexes of the 20x20 board. With ``"board"`` given, ``"side"`` is a free label (``HAND_SIDE``); with
       ``"side"`` alone, a shipped side is loaded (``SUBSTITUTE_SIDES``).
* IA3  the test islands are rectangles of ``ROWS`` = 5 lines (A-QI4 "5 horizontal lines") of ``COLS`` = 4 hexes,
       mountain-filled like the test boards (every hex an island of the real game may have: no layout is known).
* IA4  island geometry: odd-r like the board, with the island's own row numbers (row 0 even), and neighbours only
       inside the island grid (A-QI2 "Island hexes neighbour only island hexes"); see ``inb``.
* IA5  island hexes are ``["island", r, c]`` everywhere a hex is written: ``"settlements"``, ``"then"``, ``"tiles"``,
       ``"tiles_fresh"`` / ``"tiles_used"``, and the ``"legal"`` list of ``legal_position`` / ``kbenv legal --json``
       (read back here as the tuple ``("island", r, c)``, ``I(r, c)``); ``"tiles_left"`` keys are
       ``"island,r,c"``.
* IA6  coast (A-QI2, TG default): an island hex is coast when one of its six odd-r neighbour positions is off the
       island grid (the surrounding water, which is no hex); coast hexes count as next to water for Fishermen and
       the Water mill. ``coast``.
* IA7  decisions: power names ``rope_bridge`` / ``tree_house`` in phase ``"idle"``, then ``"choose_source"`` (an own
       settlement with at least one target) and ``"choose_target"`` (as Barn / Harbor / Paddock, docs/api.md).
* IA8  rule flags (``"options"``), named after the alternative reading they switch on (decision 1): ``FLAGS``
       (A-QI1 the DE reading: no island line for Knights; A-QI2 coast hexes are not next to water).
* IA9  score rows are those of docs/api.md, no new column; island settlements score inside the card columns.
* IA10 ``Game.to_position()`` writes ``"island"`` (board, side, locations) in Island games and the island hexes of
       settlements and tiles as IA5; base games write no ``"island"`` key.
* IA11 random set-ups: ``Game.new(n, seed=s, expansions=["island"], island_side=name)`` (the ``side`` option of
       issue 23; ``island_side`` omitted: a seeded choice of the two sides). Bad names raise ``SetupError`` naming
       ``island_side``.
* IA12 the two shipped sides are named ``island-substitute-1`` and ``island-substitute-2`` (decision 5 "named as
       such everywhere", like ``marsh-substitute-1``).
* IA13 validation: a position with ``"island"`` but without the ``island`` expansion, an unknown side, a
       malformed island board or a location type other than ``rope_bridge`` / ``tree_house`` on the island is
       refused with a ``SetupError`` whose message starts with ``island``; a settlement on an island hex outside the
       grid or on island mountain / location hexes starts with ``settlements``; a tile of an island hex that is no
       location hex starts with ``tiles``.
* IA14 Harvest's ``"mayor_lines"`` key (decision 8) writes an island row as ``"island,r"`` (board rows stay
       ``"r"``).
* IA15 Crossroads task gold is read from the score rows' ``"tasks"`` column (docs/api.md); Harvest card names and
       the Rovers gold in ``"gold"`` follow harvest_helpers (HA11, HA12).
* IA16 the Island runs with every other expansion in one ruleset (X-1): ``"expansions": ["island", "harvest"]``.

Test files import this module as ``tests.rules.island.helpers`` (tests/rules/ and its folders are packages).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tests.rules.positions import answer, norm, with_options  # noqa: F401 (re-exported)

EXPANSION = "island"
ISLAND = "island"                  # first element of an island hex (IA5)
ROWS, COLS = 5, 4                  # IA3: 5 lines (A-QI4) of 4 hexes
POWERS = ("rope_bridge", "tree_house")
POWER_TERRAIN = {"rope_bridge": "C", "tree_house": "T"}   # EN 1456 canyon, EN 1462 forest
SUBSTITUTE_SIDES = ("island-substitute-1", "island-substitute-2")   # IA12
HAND_SIDE = "hand-built"           # IA2: the label of a side given by its board
SIDE_OPTION = "island_side"        # IA11
CHOOSE_SOURCE, CHOOSE_TARGET = "choose_source", "choose_target"
BUILDABLE = set("GCDFT")
REPO_ROOT = Path(__file__).resolve().parents[3]
FLAGS = {
    "A-QI1": "no_island_knights",        # the DE reading: the island is ignored for Knights (spec ISLAND_KNIGHTS)
    "A-QI2": "island_coast_not_water",   # coast hexes do NOT count as next to water (TG default off)
}


# The engine exists (issue 23, part 1) while the catalogue row is under construction: the modules run by default,
# each test opted into the expansion (kbenv.catalogue.EXPERIMENTAL_ENV) by the `island_opt_in` fixture of
# conftest.py; they skip only where the catalogue has no Island row at all.
def island_available() -> bool:
    """True where kbenv.catalogue.EXPANSIONS has an ``island`` row (implemented or under construction)."""
    from kbenv.catalogue import EXPANSIONS

    return any(e.name == EXPANSION for e in EXPANSIONS)


requires_island = pytest.mark.skipif(not island_available(), reason="issue 23: no Island in kbenv.catalogue")


# --------------------------------------------------------------------------- island geometry (IA3, IA4, IA6)

def I(r: int, c: int) -> tuple:  # noqa: E743 - the island's hex constructor reads best as I(r, c)
    """The island hex (r, c) as the tests write it (IA5)."""
    return (ISLAND, int(r), int(c))


def is_island(h) -> bool:
    """True for an island hex ``("island", r, c)``."""
    return isinstance(h, (tuple, list)) and len(h) == 3 and h[0] == ISLAND


def inb(r: int, c: int) -> set:
    """Odd-r neighbours of island hex (r, c) inside the island grid, as island hexes (IA4)."""
    if r % 2 == 0:
        cand = [(r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c)]
    else:
        cand = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1)]
    return {I(rr, cc) for rr, cc in cand if 0 <= rr < ROWS and 0 <= cc < COLS}


def coast(r: int, c: int) -> bool:
    """IA6: fewer than 6 island neighbours = the hex touches the surrounding water."""
    return len(inb(r, c)) < 6


def island_rows(cells=None, fill="M") -> list:
    """ROWS strings of COLS codes: ``fill`` everywhere, ``cells`` = {(r, c): code} on top (IA2, IA3)."""
    grid = [[fill] * COLS for _ in range(ROWS)]
    for (r, c), code in (cells or {}).items():
        assert 0 <= r < ROWS and 0 <= c < COLS and len(code) == 1, ((r, c), code)
        grid[r][c] = code
    return ["".join(row) for row in grid]


# --------------------------------------------------------------------------- positions (IA2, IA5)

def _hex(h) -> list:
    if is_island(h):
        return [ISLAND, int(h[1]), int(h[2])]
    r, c = h
    return [int(r), int(c)]


def _decision(d):
    return d if isinstance(d, str) else _hex(d)




def ipos(kx, cells=None, *, settlements, island=None, island_locations=None, side=HAND_SIDE, island_key=True,
         tiles=None, then=None, expansions=(EXPANSION,), mayor_lines=None, extra=None, **kwargs) -> dict:
    """``kx.position`` with an island (IA2): ``island`` = {(r, c): code} on a mountain island, ``island_locations`` =
    {(r, c): type} for its ``L`` hexes; ``settlements``, ``tiles`` and ``then`` may hold island hexes ``I(r, c)``.
    Player 0 holds ``card`` (default grass), the others canyon with ``OPP_C`` unless ``hands`` is given (conftest).
    ``extra`` = more top-level keys. The test-side check below only catches typos in a test's own layout."""
    board_only = [[h for h in own if not is_island(h)] for own in settlements]
    pos = kx.position(cells, settlements=board_only, expansions=tuple(expansions), **kwargs)
    pos["settlements"] = [[_hex(h) for h in own] for own in settlements]
    icells = dict(island or {})
    for h in island_locations or {}:
        icells[h] = "L"
    if island_key:
        pos["island"] = {"board": island_rows(icells), "side": side}
        if island_locations:
            pos["island"]["locations"] = {f"{r},{c}": kind for (r, c), kind in island_locations.items()}
        for own in settlements:
            for h in own:
                if is_island(h):
                    assert icells.get((h[1], h[2])) in BUILDABLE, f"test layout: {h} is not buildable"
    if tiles is not None:
        pos["tiles"] = [[_hex(h) for h in held] for held in tiles]
    if then is not None:
        pos["then"] = [_decision(d) for d in then]
    if mayor_lines is not None:
        pos["mayor_lines"] = {line_key(row): int(seat) for row, seat in mayor_lines.items()}
    pos.update(copy.deepcopy(extra or {}))
    return json.loads(json.dumps(pos))


def line_key(row) -> str:
    """IA14: a board row ``r`` -> ``"r"``; an island row ``("island", r)`` -> ``"island,r"``."""
    if isinstance(row, tuple):
        return f"{ISLAND},{int(row[1])}"
    return str(int(row))


def with_then(pos: dict, then) -> dict:
    """A copy of ``pos`` with another ``then`` list (island hexes allowed)."""
    out = copy.deepcopy(pos)
    out["then"] = [_decision(d) for d in then]
    return out




def flag(reading: str) -> dict:
    """``{"<flag name>": True}`` for the alternative reading ``reading`` (a key of FLAGS)."""
    return {FLAGS[reading]: True}


# --------------------------------------------------------------------------- reading results (IA5, IA9, IA10)



def legal(pos: dict) -> set:
    """The legal set of the player who decides after ``then``."""
    return answer(pos)["legal"]


def island_hexes(entries) -> set:
    """The island hexes among legal entries."""
    return {x for x in entries if is_island(x)}


def board_hexes(entries) -> set:
    """The board hexes (r, c) among legal entries."""
    return {x for x in entries if isinstance(x, tuple) and len(x) == 2}


def scores(pos: dict) -> list:
    """score_position rows; total = every column summed (IA9)."""
    from kbenv.positions.files import score_position

    out = score_position(copy.deepcopy(pos))
    for row in out:
        assert row["total"] == (sum(row["cards"].values()) + row["castles"] + row["capitols"] + row["gold"]
                                + row.get("palaces", 0) + sum(row.get("tasks", {}).values())), row
    return out


def game(pos: dict):
    """game_from_position of a copy of ``pos``."""
    from kbenv.positions.files import game_from_position

    return game_from_position(copy.deepcopy(pos))


def state(g) -> dict:
    """The full-state position of a game (IA10)."""
    return json.loads(json.dumps(g.to_position()))


def own(g, player: int) -> set:
    """``player``'s settlements, board hexes (r, c) and island hexes ("island", r, c) (IA5, IA10)."""
    return {norm(h) for h in state(g)["settlements"][player]}


def held_tiles(g, player: int) -> set:
    """The location hexes whose tile ``player`` holds (usable or fresh), island hexes included (IA5, IA10)."""
    st = state(g)
    out = {norm(h) for h in st.get("tiles", [[]] * g.num_players)[player]}
    out |= {norm(h) for h in st.get("tiles_fresh", [[]] * g.num_players)[player]}
    return out


def tiles_left(g, h) -> int:
    """Tiles left on location hex ``h`` (IA5: island keys ``"island,r,c"``)."""
    key = f"{ISLAND},{h[1]},{h[2]}" if is_island(h) else f"{h[0]},{h[1]}"
    return int(state(g)["tiles_left"][key])


def then_error(pos: dict, index: int) -> None:
    """Applying ``pos["then"]`` raises SetupError naming ``then[index]`` (legal_position and game_from_position)."""
    from kbenv import SetupError
    from kbenv.positions.files import game_from_position, legal_position

    for fn in (legal_position, game_from_position):
        with pytest.raises(SetupError) as info:
            fn(copy.deepcopy(pos))
        assert str(info.value).startswith(f"then[{index}]"), str(info.value)


def setup_error(pos: dict, field: str) -> None:
    """The position is refused with a SetupError whose message starts with ``field`` (IA13)."""
    from kbenv import SetupError
    from kbenv.positions.files import legal_position

    with pytest.raises(SetupError) as info:
        legal_position(copy.deepcopy(pos))
    assert str(info.value).startswith(field), str(info.value)


def new_game(num_players: int, seed: int, side=None, expansions=(EXPANSION,), **kwargs):
    """A random Island set-up (IA11)."""
    from kbenv import Game

    if side is not None:
        kwargs[SIDE_OPTION] = side
    return Game.new(num_players, seed=seed, expansions=list(expansions), **kwargs)


def island_of(g) -> dict:
    """The island of a game as the position writes it: {"board": rows, "side": name, "locations": {...}} (IA10)."""
    return state(g)["island"]
