"""Position helpers for the expansion rule tests (tests/rules/<expansion>/), exposed as the ``kx`` fixture of
tests/rules/conftest.py; ``make_board`` and ``neighbours`` serve the base rule tests' ``kb`` fixture too.

The engine is tested only through the position contract:

    from kbenv.positions.files import legal_position, score_position, game_from_position

Positions are JSON-like dicts (see the field list in ``position``). Boards are built like the base
rule tests: every hex is mountain ``M`` by default (``fill``) and only the hexes a test names are
anything else, so every expected legal set can be worked out by hand.

Coordinates are ``(row, col)``, odd-r (odd rows shifted half a hex to the right):
neighbours of ``(r, c)`` are ``(r, c-1)``, ``(r, c+1)``; for even ``r`` ``(r-1, c-1)``, ``(r-1, c)``,
``(r+1, c-1)``, ``(r+1, c)``; for odd ``r`` ``(r-1, c)``, ``(r-1, c+1)``, ``(r+1, c)``, ``(r+1, c+1)``.

Two small areas recur in the tests:

* ``MAND_T``: three forest hexes ``(18, 0) (18, 1) (18, 2)`` in a row. Player 0 with a forest card and no
  settlement next to forest may start the mandatory action on any of the three; the builds then
  have to follow the row, so ``MAND_T_BUILDS`` is a legal mandatory action.
* ``OPP_C``: three canyon hexes ``(16, 0) (16, 1) (16, 2)`` for player 1, whose card is canyon by
  default, so that the turn of player 1 after an automatic END_TURN waits for a real decision.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

REPO = Path(__file__).resolve().parents[2]
SECTION_DIR = REPO / "kbenv" / "data" / "sections"

DEFAULT_CARDS = ["fishermen", "knights", "merchants"]
BASE_SECTIONS = ["tavern", "paddock", "oasis", "farm", "tower", "harbor", "oracle", "barn"]
NOMADS_SECTIONS = ["caravan", "quarry", "garden", "village"]
BASE_CARDS = ["fishermen", "miners", "workers", "merchants", "discoverers", "hermits", "citizens", "knights",
              "lords", "farmers"]
RED_CARDS = ["families", "shepherds", "ambassadors"]
# EN 504 "7x donation 2x resettlement 2x outpost 2x sword 2x treasure"; the donations show G C D F T W M.
NOMAD_TILE_MULTISET = {
    "donation-G": 1, "donation-C": 1, "donation-D": 1, "donation-F": 1, "donation-T": 1, "donation-W": 1,
    "donation-M": 1, "resettlement": 2, "outpost": 2, "sword": 2, "treasure": 2,
}

MAND_T = {(18, 0): "T", (18, 1): "T", (18, 2): "T"}
MAND_T_HEXES = {(18, 0), (18, 1), (18, 2)}
MAND_T_BUILDS = [(18, 0), (18, 1), (18, 2)]
OPP_C = {(16, 0): "C", (16, 1): "C", (16, 2): "C"}
OPP_C_HEXES = {(16, 0), (16, 1), (16, 2)}


# --------------------------------------------------------------------------- set-ups of an expansion


def assert_the_pool_has_the_base_and_the_substitute_sections(new_game, substitutes, games=120):
    """POOL: 4 of 12 sections (the 8 base ones and the expansion's 4; decision 5: its substitutes), 4 distinct in
    each of ``games`` random set-ups (``new_game(players, seed)``); each section in about 1/3 of the games (40 of
    120 expected, 15..70 accepted)."""
    seen = Counter()
    for seed in range(games):
        g = new_game(2 + seed % 4, seed)
        names = [name for name, _ in g.setup.sections]
        assert len(set(names)) == 4, (seed, names)
        seen.update(names)
    assert set(seen) == set(BASE_SECTIONS) | set(substitutes)
    assert all(15 <= k <= 70 for k in seen.values()), seen


def assert_the_new_cards_join_the_kingdom_builder_cards(new_game, new_cards, games=150):
    """CARDS: 3 of the 16 (10 base + the expansion's 6), 3 distinct per game; each new card appears."""
    seen = Counter()
    for seed in range(games):
        g = new_game(2 + seed % 4, seed)
        cards = list(g.setup.cards)
        assert len(set(cards)) == 3 and set(cards) <= set(BASE_CARDS) | set(new_cards), cards
        seen.update(cards)
    assert set(new_cards) <= set(seen)


def substitute_sections_dealt(new_game, games, substitutes):
    """(seed, game, tiles left by hex, quadrant, section name) of each substitute section dealt in ``games`` random
    set-ups (``new_game(players, seed)``), each set-up checked to put 2 tiles on every location hex."""
    for seed in range(games):
        g = new_game(2 + seed % 4, seed)
        tiles_left = {tuple(int(x) for x in key.split(",")): n for key, n in state(g)["tiles_left"].items()}
        assert all(n == 2 for n in tiles_left.values()), seed
        for q, (name, _) in enumerate(g.setup.sections):
            if name in substitutes:
                yield seed, g, tiles_left, q, name


# --------------------------------------------------------------------------- geometry


def make_board(cells=None, fill="M"):
    """20 strings of 20 codes: ``fill`` everywhere, ``cells`` = {(r, c): code} on top."""
    grid = [[fill] * 20 for _ in range(20)]
    for (r, c), code in (cells or {}).items():
        assert 0 <= r < 20 and 0 <= c < 20, (r, c)
        assert len(code) == 1, code
        grid[r][c] = code
    return ["".join(row) for row in grid]


def neighbours(r, c):
    """Odd-r neighbours on the 20x20 board."""
    if r % 2 == 0:
        cand = [(r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c)]
    else:
        cand = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1)]
    return {(rr, cc) for rr, cc in cand if 0 <= rr < 20 and 0 <= cc < 20}


def hex_distance(a, b):
    """Hex distance between two odd-r cells (via cube coordinates)."""

    def cube(h):
        r, c = h
        x = c - (r - (r & 1)) // 2
        return x, -x - r, r

    ca, cb = cube(a), cube(b)
    return max(abs(ca[i] - cb[i]) for i in range(3))


def quadrant(h):
    """0 TL, 1 TR, 2 BL, 3 BR (the four 10x10 sections)."""
    return (h[0] // 10) * 2 + h[1] // 10


# --------------------------------------------------------------------------- section data


def load_section(name):
    """The 10 rows of a section file in kbenv/data/sections (location hexes in lower case)."""
    rows = [line.strip() for line in (SECTION_DIR / f"{name}.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    assert len(rows) == 10 and all(len(row) == 10 for row in rows), name
    return rows


def assemble(sections):
    """20x20 grid (list of lists of codes) from 4 (name, turned) pairs TL, TR, BL, BR.
    A turned section maps section cell (r, c) to (9 - r, 9 - c) (kb-data README)."""
    grid = [[None] * 20 for _ in range(20)]
    for q, (name, turned) in enumerate(sections):
        rows = load_section(name)
        r0, c0 = (q // 2) * 10, (q % 2) * 10
        for r in range(10):
            for c in range(10):
                sr, sc = (9 - r, 9 - c) if turned else (r, c)
                grid[r0 + r][c0 + c] = rows[sr][sc]
    return grid


def section_cells(sections, index):
    """Board cells of the section at position ``index`` (0 TL, 1 TR, 2 BL, 3 BR)."""
    r0, c0 = (index // 2) * 10, (index % 2) * 10
    return {(r0 + r, c0 + c) for r in range(10) for c in range(10)}


def is_special(code):
    """Castle, nomad space or location hex (location hexes are lower case)."""
    return code in ("K", "N") or code.islower()


def cave_candidates(grid):
    """QV-1: per quadrant, the mountain hexes at distance >= 3 from every location, castle and nomad hex."""
    specials = [(r, c) for r in range(20) for c in range(20) if is_special(grid[r][c])]
    out = {q: set() for q in range(4)}
    for r in range(20):
        for c in range(20):
            if grid[r][c] == "M" and all(hex_distance((r, c), s) >= 3 for s in specials):
                out[quadrant((r, c))].add((r, c))
    return out


# --------------------------------------------------------------------------- positions


def _hex_list(hexes):
    return [[int(r), int(c)] for r, c in hexes]


def _decision(d):
    if isinstance(d, str):
        return d
    r, c = d
    return [int(r), int(c)]


def position(cells=None, *, settlements, fill="M", board=None, sections=None, card="G", hands=None,
             cards=None, expansions=("nomads",), opp_area=True, nomad_spaces=None, walls=None, capitols=None,
             caves=None, gold=None, current_player=None, start_player=None, deck=None, supply=None, tiles=None,
             tiles_left=None, nomad_tiles=None, options=None, then=None):
    """A position dict for the contract. Hexes may be given as tuples; they become [r, c] lists.

    ``card`` is player 0's terrain card; the other players hold canyon unless ``hands`` is given.
    ``opp_area`` adds ``OPP_C`` (three canyon hexes for player 1) to the board when no board is given.
    ``nomad_spaces`` is {(r, c): kind}; it becomes {"r,c": kind}."""
    n = len(settlements)
    pos = {"expansions": list(expansions), "cards": list(cards or DEFAULT_CARDS)}
    if sections is not None:
        pos["sections"] = [[name, bool(turned)] for name, turned in sections]
    else:
        if board is None:
            all_cells = dict(OPP_C) if opp_area else {}
            all_cells.update(cells or {})
            board = make_board(all_cells, fill)
        pos["board"] = list(board)
    pos["settlements"] = [_hex_list(own) for own in settlements]
    pos["hands"] = list(hands) if hands is not None else [card] + ["C"] * (n - 1)
    if nomad_spaces is not None:
        pos["nomad_spaces"] = {f"{r},{c}": kind for (r, c), kind in nomad_spaces.items()}
    if walls is not None:
        pos["walls"] = _hex_list(walls)
    if capitols is not None:
        pos["capitols"] = _hex_list(capitols)
    if caves is not None:
        pos["caves"] = _hex_list(caves)
    if gold is not None:
        pos["gold"] = list(gold)
    if current_player is not None:
        pos["current_player"] = current_player
    if start_player is not None:
        pos["start_player"] = start_player
    if deck is not None:
        pos["deck"] = list(deck)
    if supply is not None:
        pos["supply"] = list(supply)
    if tiles is not None:
        pos["tiles"] = [_hex_list(t) for t in tiles]
    if tiles_left is not None:
        pos["tiles_left"] = {f"{r},{c}": k for (r, c), k in tiles_left.items()}
    if nomad_tiles is not None:
        pos["nomad_tiles"] = [list(t) for t in nomad_tiles]
    if options is not None:
        pos["options"] = dict(options)
    if then is not None:
        pos["then"] = [_decision(d) for d in then]
    # positions are JSON: make sure nothing in here is not JSON
    return json.loads(json.dumps(pos))


def located_position(cells=None, *, locations=None, **kwargs):
    """``position`` with ``L`` hexes at ``locations`` = {(r, c): type} and their ``"locations"`` key (the location
    hexes of the expansions' positions)."""
    board = dict(cells or {})
    for h in locations or {}:
        board[h] = "L"
    pos = position(board, **kwargs)
    if locations:
        pos["locations"] = {f"{r},{c}": kind for (r, c), kind in locations.items()}
    return pos


def with_then(pos, then):
    """A copy of ``pos`` with another ``then`` list."""
    out = copy.deepcopy(pos)
    out["then"] = [_decision(d) for d in then]
    return out


def with_options(pos, options):
    """A copy of ``pos`` with rule flags switched on (the expansions' ``options``)."""
    out = copy.deepcopy(pos)
    out["options"] = dict(options)
    return out


def state(g) -> dict:
    """The full state of a game, read through its full-state position file (the expansions' position fields)."""
    return json.loads(json.dumps(g.to_position()))


def norm(entry):
    return tuple(entry) if isinstance(entry, list) else entry


def answer(pos):
    """legal_position(pos) with "legal" as a set (hexes as (r, c) tuples, powers as names)."""
    from kbenv.positions.files import legal_position

    out = legal_position(copy.deepcopy(pos))
    assert set(out) >= {"player", "phase", "legal"}, out
    entries = [norm(x) for x in out["legal"]]
    assert len(entries) == len(set(entries)), f"duplicate legal entries: {out['legal']}"
    assert "end_turn" not in entries or len(entries) > 1, "a lone end_turn must be taken automatically"
    return {"player": out["player"], "phase": out["phase"], "legal": set(entries)}


def legal(pos):
    """The legal set of the player to move after ``then``."""
    return answer(pos)["legal"]


def hexes(entries):
    return {x for x in entries if isinstance(x, tuple)}


def scores(pos):
    from kbenv.positions.files import score_position

    out = score_position(copy.deepcopy(pos))
    for row in out:
        assert set(row) >= {"cards", "castles", "capitols", "gold", "total"}, row
        assert row["total"] == sum(row["cards"].values()) + row["castles"] + row["capitols"] + row["gold"], row
    return out


def game(pos):
    from kbenv.positions.files import game_from_position

    return game_from_position(copy.deepcopy(pos))


def game_scores(g):
    out = g.scores()
    for row in out:
        assert row["total"] == sum(row["cards"].values()) + row["castles"] + row["capitols"] + row["gold"], row
    return out


def gold(g, player=0):
    return game_scores(g)[player]["gold"]


def nomad_spaces(g):
    return {tuple(h): kind for h, kind in g.nomad_spaces().items()}


def tiles(g, player):
    return sorted((name, tuple(rc)) for name, rc in g.tiles(player))


def settlements(g, player):
    return {tuple(h) for h in g.settlements(player)}


def settled(pos):
    """``answer(pos)`` once a finished multi-step power is closed.

    When a power has no further step (the 2nd quarry wall is impossible, the resettlement budget is
    spent) the engine may close it by itself or offer a lone "done". Both are accepted: a lone "done"
    is taken here. Returns (answer, the position actually answered)."""
    out = answer(pos)
    if out["legal"] == {"done"}:
        pos = with_then(pos, list(pos.get("then", [])) + ["done"])
        out = answer(pos)
    return out, pos


def then_error(pos, index):
    """Applying ``pos["then"]`` raises SetupError naming ``then[index]`` (legal_position and game_from_position)."""
    from kbenv import SetupError
    from kbenv.positions.files import game_from_position, legal_position

    for fn in (legal_position, game_from_position):
        with pytest.raises(SetupError) as info:
            fn(copy.deepcopy(pos))
        assert isinstance(info.value, ValueError)
        assert str(info.value).startswith(f"then[{index}]"), str(info.value)


def setup_error(pos, field):
    """The position is refused with a SetupError whose message starts with ``field``."""
    from kbenv import SetupError
    from kbenv.positions.files import legal_position

    with pytest.raises(SetupError) as info:
        legal_position(copy.deepcopy(pos))
    assert str(info.value).startswith(field), str(info.value)


def namespace() -> SimpleNamespace:
    """The ``kx`` fixture: helpers and constants for the expansion tests (see the module docstring)."""
    return SimpleNamespace(
        board=make_board,
        neighbours=neighbours,
        distance=hex_distance,
        quadrant=quadrant,
        load_section=load_section,
        assemble=assemble,
        section_cells=section_cells,
        is_special=is_special,
        cave_candidates=cave_candidates,
        position=position,
        with_then=with_then,
        answer=answer,
        legal=legal,
        hexes=hexes,
        scores=scores,
        game=game,
        game_scores=game_scores,
        gold=gold,
        nomad_spaces=nomad_spaces,
        tiles=tiles,
        settlements=settlements,
        settled=settled,
        then_error=then_error,
        setup_error=setup_error,
        MAND_T=MAND_T,
        MAND_T_HEXES=MAND_T_HEXES,
        MAND_T_BUILDS=MAND_T_BUILDS,
        OPP_C=OPP_C,
        OPP_C_HEXES=OPP_C_HEXES,
        DEFAULT_CARDS=DEFAULT_CARDS,
        BASE_SECTIONS=BASE_SECTIONS,
        NOMADS_SECTIONS=NOMADS_SECTIONS,
        BASE_CARDS=BASE_CARDS,
        RED_CARDS=RED_CARDS,
        NOMAD_TILE_MULTISET=NOMAD_TILE_MULTISET,
    )
