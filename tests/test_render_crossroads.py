"""Renderers with Crossroads: warriors and their zones, wagons, ships, city halls (7 cells), the task cards
in play and the extra hand cards, in the text board (owner's digit + the piece's mark, explained by the
legend) and in pictures (pieces in the owner's colour, hatched zones, tasks in the panel)."""

from __future__ import annotations

import numpy as np
import pytest

from kbenv import Game
from kbenv.board.codes import LOCATION_LETTERS
from kbenv.board.colours import CAPITOL_MARK, CAVE_MARK, NOMAD_TILE_MARKS, SEAT_ANSI, SEAT_RGB, WALL_MARK
from kbenv.board.geometry import hex_id, hex_rc, neighbours
from kbenv.catalogue import LOCATION_TYPES, TASK_CARDS
from kbenv.engine import state as S
from kbenv.present.image import (
    CROSSROADS_KEY,
    HEX_W,
    KEY_PIECE_RGB,
    MARGIN,
    PIECE_KEY,
    RADIUS,
    ZONE_RGB,
    board_image,
    hex_centre,
    piece_key,
)
from kbenv.present.text import (
    CITY_HALL_CELL_MARK,
    CITY_HALL_MARK,
    SHIP_MARK,
    WAGON_MARK,
    WARRIOR_MARK,
    ZONE_ANSI,
    ZONE_MARK,
    board_text,
    legend,
    score_text,
)

BOARD_W = int(MARGIN * 2 + HEX_W * 20.5)
TASKS = ["road", "fortress"]
GOLD = {task.name: task.gold for task in TASK_CARDS}


def _ring(rc) -> list[tuple[int, int]]:
    return [hex_rc(h) for h in neighbours(hex_id(*rc))]


def _place(board) -> dict:
    """Hexes for every piece on `board`, each with two free rings around it (the pieces' zones and
    city-hall cells touch nothing else)."""
    blocked: set[tuple[int, int]] = set()

    def pick(allowed: str, cells_of=lambda rc: [rc]) -> tuple[int, int]:
        for r in range(1, 19):
            for c in range(1, 19):
                cells = cells_of((r, c))
                if all(board[y][x] in allowed for y, x in cells) and not set(cells) & blocked:
                    near = {n for cell in cells for n in _ring(cell)}
                    blocked.update(cells, near, *(_ring(n) for n in near))
                    return r, c
        raise AssertionError(f"no free hex for {allowed}")

    return {"city_hall": pick("GCDFT", lambda rc: [rc, *_ring(rc)]),  # rows and columns 1..18: 6 neighbours
            "warrior0": pick("GCDFT"), "warrior1": pick("GCDFT"), "wagon": pick("M"), "ship": pick("W"),
            "settlement0": pick("GCDFT"), "settlement1": pick("GCDFT")}


@pytest.fixture(scope="module")
def board() -> list[str]:
    return list(Game.new(num_players=2, seed=1, expansions=["crossroads"]).board)


@pytest.fixture(scope="module")
def at(board) -> dict:
    return _place(board)


def _game(board, at, warriors: bool = True, pieces: bool = True) -> Game:
    fields = {"tasks": TASKS}
    if pieces:
        fields.update(wagons=[list(at["wagon"]), None], ships=[None, list(at["ship"])],
                      city_halls=[list(at["city_hall"]), None])
    if warriors:
        fields["warriors"] = [[list(at["warrior0"])], [list(at["warrior1"])]]
    return Game.custom(board=board, settlements=[[list(at["settlement0"])], [list(at["settlement1"])]],
                       expansions=["crossroads"], **fields)


@pytest.fixture(scope="module")
def game(board, at) -> Game:
    return _game(board, at)


def test_the_position_holds_every_piece(game, at):
    assert game.pieces(0) == {"warriors": [at["warrior0"]], "wagon": at["wagon"], "ship": None,
                              "city_hall": at["city_hall"]}
    assert game.pieces(1) == {"warriors": [at["warrior1"]], "wagon": None, "ship": at["ship"], "city_hall": None}
    assert game.warrior_zone() == set(_ring(at["warrior0"])) | set(_ring(at["warrior1"]))
    assert game.tasks() == tuple(TASKS)


# ----- text ------------------------------------------------------------------------------------------------
def _cell(text: str, r: int, c: int) -> str:
    """The two characters of hex (r, c) in a plain `board_text`."""
    line = text.splitlines()[1 + r]
    start = 3 + r % 2 + 2 * c
    return line[start:start + 2]


def test_text_board_shows_each_piece_at_its_hex(game, at):
    text = board_text(game, colour=False)
    assert _cell(text, *at["warrior0"]) == f"0{WARRIOR_MARK}"
    assert _cell(text, *at["warrior1"]) == f"1{WARRIOR_MARK}"
    assert _cell(text, *at["wagon"]) == f"0{WAGON_MARK}"
    assert _cell(text, *at["ship"]) == f"1{SHIP_MARK}"
    assert _cell(text, *at["city_hall"]) == f"0{CITY_HALL_MARK}"
    for rc in _ring(at["city_hall"]):
        assert _cell(text, *rc) == f"0{CITY_HALL_CELL_MARK}", rc
    assert _cell(text, *at["settlement0"]) == "0 " and _cell(text, *at["settlement1"]) == "1 "


def test_text_board_marks_the_empty_zone_hexes(game, at, board):
    text = board_text(game, colour=False)
    zone = game.warrior_zone()
    assert len(zone) == 12
    for r, c in zone:
        ch = board[r][c]
        letter = ch.upper() if ch in LOCATION_LETTERS else ch.lower()
        assert _cell(text, r, c) == f"{letter}{ZONE_MARK}", (r, c)
    marked = {(r, c) for r in range(20) for c in range(20) if _cell(text, r, c)[1] == ZONE_MARK}
    assert marked == zone
    pieces = {at[k] for k in ("warrior0", "warrior1", "wagon", "ship", "city_hall")} | set(_ring(at["city_hall"]))
    others = {(r, c) for r in range(20) for c in range(20)} - zone - pieces
    assert all(_cell(text, *rc)[1] == " " for rc in others)


def test_text_board_without_warriors_has_no_zone(board, at):
    text = board_text(_game(board, at, warriors=False), colour=False)
    assert all(_cell(text, r, c)[1] != ZONE_MARK for r in range(20) for c in range(20))
    assert _cell(text, *at["warrior0"]) != f"0{WARRIOR_MARK}"


def test_text_board_lists_the_tasks_with_their_gold(game):
    text = board_text(game, colour=False)
    assert text.splitlines()[-1] == "tasks: road 7 gold, fortress 6 gold"
    assert all(f"{name} {GOLD[name]} gold" in text for name in TASKS)
    new = Game.new(num_players=2, seed=1, expansions=["crossroads"])
    assert board_text(new, colour=False).splitlines()[-1] == "tasks: " + ", ".join(
        f"{name} {GOLD[name]} gold" for name in new.tasks())


def test_ansi_board_draws_the_pieces_in_the_seat_colours(game):
    text = board_text(game, colour=True)
    for p, mark in ((0, WARRIOR_MARK), (1, WARRIOR_MARK), (0, WAGON_MARK), (1, SHIP_MARK), (0, CITY_HALL_MARK),
                    (0, CITY_HALL_CELL_MARK)):
        assert f"\x1b[1;38;5;{SEAT_ANSI[p]}m{p}{mark}\x1b[0m" in text, (p, mark)
    assert text.count(f"\x1b[1;38;5;{ZONE_ANSI}m{ZONE_MARK}\x1b[0m") == 12
    assert "tasks: road 7 gold" in text


def test_crossroads_marks_are_distinct():
    marks = [WARRIOR_MARK, WAGON_MARK, SHIP_MARK, CITY_HALL_MARK, CITY_HALL_CELL_MARK, ZONE_MARK]
    assert len(set(marks)) == len(marks) and all(len(m) == 1 and not m.isalnum() and m != " " for m in marks)
    assert not set(marks) & {WALL_MARK, CAPITOL_MARK, CAVE_MARK, *NOMAD_TILE_MARKS.values()}


def test_legend_explains_the_crossroads_marks_and_locations():
    key = legend(2, ("crossroads",))
    for text in (f"0{WARRIOR_MARK} warrior", f"0{WAGON_MARK} wagon", f"0{SHIP_MARK} ship",
                 f"0{CITY_HALL_MARK} city hall (centre)", f"0{CITY_HALL_CELL_MARK} city hall (other 6 cells)",
                 f"then {ZONE_MARK}", "warrior zone"):
        assert text in key, text
    for loc in LOCATION_TYPES:
        if loc.expansion == "crossroads":
            assert f"{loc.letter.upper()} {loc.name}" in key, loc.name
    assert legend(2).splitlines() == key.splitlines()[:3]
    assert "warrior" not in legend(2, ("nomads", "capitol", "caves"))


def test_location_hexes_show_their_letters(board):
    text = board_text(Game.new(num_players=2, seed=1, expansions=["crossroads"]), colour=False)
    found = {board[r][c] for r in range(20) for c in range(20) if board[r][c] in LOCATION_LETTERS}
    assert found & {loc.letter for loc in LOCATION_TYPES if loc.expansion == "crossroads"}
    for r in range(20):
        for c in range(20):
            if board[r][c] in LOCATION_LETTERS:
                assert _cell(text, r, c)[0] == board[r][c].upper()


def test_score_table_has_a_tasks_column(game):
    scores = game.scores()
    table = score_text(scores, game.cards)
    header, *rows = table.splitlines()
    assert header.split()[-2:] == ["tasks", "total"]
    for p, row in enumerate(rows):
        assert int(row.split()[-2]) == sum(scores[p]["tasks"].values())
    assert int(rows[0].split()[-2]) == GOLD["fortress"]  # the city hall's centre is surrounded by 6 own cells
    assert "tasks" not in score_text(Game.new(2, seed=3).scores(), Game.new(2, seed=3).cards)


# ----- pictures --------------------------------------------------------------------------------------------
def _hex_patch(image: np.ndarray, r: int, c: int) -> np.ndarray:
    x, y = hex_centre(r, c)
    s = int(RADIUS * 0.6)
    return image[int(y) - s:int(y) + s, int(x) - s:int(x) + s]


def _colours(image: np.ndarray) -> set:
    return set(map(tuple, np.unique(image.reshape(-1, 3), axis=0)))


@pytest.mark.parametrize("players", [2, 5])
def test_picture_of_a_new_crossroads_game(players):
    game = Game.new(num_players=players, seed=1, expansions=["crossroads"])
    image = board_image(game)
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3 and image.shape[1] > BOARD_W
    panel = _colours(image[:, BOARD_W:])
    for rgb in (ZONE_RGB, KEY_PIECE_RGB, *SEAT_RGB[:players]):
        assert rgb in panel


def test_picture_draws_every_piece(board, at, game):
    plain = _game(board, at, warriors=False, pieces=False)
    a, b = board_image(game), board_image(plain)
    cells = [at[k] for k in ("warrior0", "warrior1", "wagon", "ship", "city_hall")] + _ring(at["city_hall"])
    for rc in cells + sorted(game.warrior_zone()):
        assert not np.array_equal(_hex_patch(a, *rc), _hex_patch(b, *rc)), rc
    for rc in (at["settlement0"], at["settlement1"]):  # settlements look the same
        assert np.array_equal(_hex_patch(a, *rc), _hex_patch(b, *rc)), rc
    for key in ("warrior0", "wagon", "city_hall"):
        assert SEAT_RGB[0] in _colours(_hex_patch(a, *at[key])), key
    for key in ("warrior1", "ship"):
        assert SEAT_RGB[1] in _colours(_hex_patch(a, *at[key])), key
    assert ZONE_RGB in _colours(a[:, :BOARD_W]) and ZONE_RGB not in _colours(b[:, :BOARD_W])


def test_picture_differs_with_and_without_a_warrior(board, at, game):
    without = _game(board, at, warriors=False)
    a, b = board_image(game), board_image(without)
    assert not np.array_equal(a, b)
    assert not np.array_equal(_hex_patch(a, *at["warrior0"]), _hex_patch(b, *at["warrior0"]))
    for rc in _ring(at["warrior0"]):
        assert not np.array_equal(_hex_patch(a, *rc), _hex_patch(b, *rc)), rc
    assert np.array_equal(_hex_patch(a, *at["wagon"]), _hex_patch(b, *at["wagon"]))


def test_picture_panel_lists_the_tasks(board, at):
    games = [Game.custom(board=board, expansions=["crossroads"], tasks=tasks)
             for tasks in (["road"], ["fortress"], ["place_of_refuge", "compass_points", "advance", "home_country"])]
    panels = [board_image(g)[:, BOARD_W:] for g in games]
    assert not np.array_equal(panels[0], panels[1])
    assert panels[2].shape[0] >= panels[0].shape[0]  # four tasks wrap onto more lines, inside the panel


def test_picture_key_for_crossroads():
    assert piece_key(("crossroads",)) == list(CROSSROADS_KEY)
    assert [name for name, _ in piece_key(("nomads", "crossroads"))][-1] == "warrior zone (hatched)"
    assert all(rgb != ZONE_RGB for _, rgb, _ in PIECE_KEY)
    panel = _colours(board_image(Game.new(2, seed=3))[:, BOARD_W:])
    assert ZONE_RGB not in panel and KEY_PIECE_RGB not in panel  # base pictures: no Crossroads key


def _with_extra_card(game: Game, player: int, card: int) -> Game:
    g = game.clone()
    g.state[S.EXTRA_CARDS + player * S.MAX_EXTRA_CARDS] = card
    g.state[S.EXTRA_COUNT + player] = 1
    return g


def test_picture_shows_extra_hand_cards_only_where_it_shows_the_hand(game):
    assert game.current_player == 0
    for p in (0, 1):
        extra = _with_extra_card(game, p, 4)
        assert extra.hand_cards(p) == [game.hand(p), "T"]
        assert not np.array_equal(board_image(extra), board_image(game)), p  # no viewer: every hand shown
    hidden = _with_extra_card(game, 1, 4)
    assert np.array_equal(board_image(hidden, viewer=0), board_image(game, viewer=0))  # player_1's hand is hidden
    assert not np.array_equal(board_image(hidden, viewer=1), board_image(game, viewer=1))
