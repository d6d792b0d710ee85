"""The piece table (issue 21): every piece kind is a row of catalogue.PIECE_KINDS, and the state layout,
position keys, Game.pieces / PlayerView, the renderers and the v1 observation planes derive from the rows.

Counts from the rulebooks (Big Box 2nd edition EN): "All 40 settlements" (l. 138), "25 stone walls" (l. 516),
"Give each player 1 wagon, 1 ship, 2 warriors, and 1 city hall tile in his player color" (l. 806). The state
offsets are the layout every stored record and digest was made with (they must not move)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from kbenv import Game
from kbenv import catalogue as CAT
from kbenv.board.geometry import hex_id, hex_rc, neighbours
from kbenv.engine import piece_table as PT
from kbenv.engine import state as S
from kbenv.engine.observe_v1 import CH1, F1
from kbenv.game.view import PlayerView
from kbenv.observation import observation_planes_v1
from kbenv.positions.files import game_from_position, position_of
from kbenv.present.text import legend
from kbenv.setup import SetupError

DOCS = Path(__file__).resolve().parents[1] / "docs" / "design-notes.md"


def test_counts_follow_the_rulebook():
    kind = CAT.PIECE_KIND
    assert kind["settlement"].per_player == 40 and S.SETTLEMENTS_PER_PLAYER == 40
    assert kind["wall"].pool == 25 and kind["wall"].per_player == 0 and CAT.WALLS_IN_GAME == 25
    assert [(k.name, k.per_player) for k in CAT.SLOT_PIECES] == [
        ("warrior", 2), ("wagon", 1), ("ship", 1), ("city_hall", 1)]
    assert kind["city_hall"].cells == 7  # the centre and its 6 neighbours (C-8)


def test_the_state_layout_did_not_move():
    # the offsets of the layout the stored records and digests were made with
    assert (S.OWN, S.SUPPLY, S.WALLS, S.WALLS_LEFT) == (321, 24, 494, 441)
    assert (S.WARRIOR_AT, S.WAGON_AT, S.SHIP_AT, S.CITY_HALL_AT) == (564, 574, 579, 584)
    # Harvest (issue 22) appends its fields after the 4 scratch masks (765): FARMLAND_USED, 5;
    # then the cards' block: MAYOR_LINES, 20 rows, and ROVER_SECTIONS, 1
    assert (S.APPENDED_FIELDS, S.SCRATCH, S.SCRATCH_END, S.FARMLAND_USED) == (616, 737, 765, 765)
    assert (S.MAYOR_LINES, S.ROVER_SECTIONS) == (770, 790)
    # the silo end phase's block: SILO_SEAT, SILO_AT, SILO_MODE, SILO_STEPS (1 each) and the 7-word SILO_LEFT mask
    assert (S.SILO_SEAT, S.SILO_AT, S.SILO_MODE, S.SILO_STEPS, S.SILO_LEFT) == (791, 792, 793, 794, 795)
    # the powers' block: NUMBER_TILES (5 seats), NUMBER_TILE_MODE (1), the 7-word SCOUTS mask
    assert (S.NUMBER_TILES, S.NUMBER_TILE_MODE, S.SCOUTS) == (802, 807, 808)
    # then REPEAT_CARDS (1): cards owed by Bazaar repeats of the Crossroads tile (A-H3, A-C8)
    assert S.REPEAT_CARDS == 808 + 7
    # the Island's block: ISLAND_LOC_AT, ISLAND_LOC_TYPE, ISLAND_LOC_TILES (1 each), ISLAND_MAYOR_LINES (5 lines)
    assert (S.ISLAND_LOC_AT, S.ISLAND_LOC_TYPE, S.ISLAND_LOC_TILES, S.ISLAND_MAYOR_LINES) == (816, 817, 818, 819)
    assert S.STATE_SIZE == 819 + 5
    # field sizes: 5 seats x 7 words of OWN, one shared 7-word WALLS mask, a slot per piece of 5 seats
    sizes = {k.name: PT.field_size(k) for k in CAT.PIECE_KINDS}
    assert sizes == {"settlement": 35, "wall": 7, "warrior": 10, "wagon": 5, "ship": 5, "city_hall": 5, "scout": 7}
    assert S.ADJACENT - S.OWN == sizes["settlement"] and S.CAVES - S.WALLS == sizes["wall"]
    assert S.EXTRA_CARDS - S.WARRIOR_AT == sizes["warrior"] + sizes["wagon"] + sizes["ship"] + sizes["city_hall"]
    for k in CAT.PIECE_KINDS:
        assert PT.PIECE_FIELD[k.name] == getattr(S, k.field)
        supply = getattr(S, k.supply) if k.supply else None
        assert supply is None or supply in (S.SUPPLY, S.WALLS_LEFT)


def test_each_piece_is_placed_by_a_power_of_the_right_target():
    for k in CAT.PIECE_KINDS:
        if k.power is None:
            continue
        trait = CAT.POWER_TRAIT[k.power]
        assert trait.target == ("walls" if k.name == "wall" else "piece"), k.name
    placers = [k.power for k in CAT.PIECE_KINDS if k.power]
    assert len(placers) == len(set(placers))
    # every power whose target is a piece places one kind of the table (the Crossroads pieces in slots, the
    # Harvest scouts in a shared mask)
    assert {t.name for t in CAT.POWER_TRAITS if t.target == "piece"} == {
        k.power for k in CAT.PIECE_KINDS if k.power and k.name != "wall"}


def _pos(**pieces) -> dict:
    """A 2-player Crossroads position on the seed-1 board with pieces on hexes picked from its terrain."""
    board = Game.new(num_players=2, seed=1, expansions=["crossroads"]).board
    used: set = set()

    def pick(letters: str, ring: bool = False) -> list[int]:
        for r in range(2, 18):
            for c in range(2, 18):
                cells = [(r, c), *(hex_rc(h) for h in neighbours(hex_id(r, c)))] if ring else [(r, c)]
                near = {hex_rc(n) for cell in cells for n in neighbours(hex_id(*cell))} | set(cells)
                if all(board[y][x] in letters for y, x in cells) and not near & used:
                    used.update(near)
                    return [r, c]
        raise AssertionError(letters)

    at = {"settlement": pick("GCDFT"), "warrior": pick("GCDFT"), "wagon": pick("M"), "ship": pick("W"),
          "city_hall": pick("GCDFT", ring=True)}
    pos = {"board": list(board), "cards": ["fishermen", "knights", "lords"], "expansions": ["crossroads"],
           "settlements": [[at["settlement"]], []], "hands": ["G", "D"], "tasks": ["road"]}
    pos.update(pieces)
    pos.update({key: value(at) for key, value in pieces.items() if callable(value)})
    return pos, at


def test_position_keys_come_from_the_table_and_round_trip():
    pos, at = _pos(warriors=lambda at: [[None, at["warrior"]], []], wagons=lambda at: [at["wagon"], None],
                   ships=lambda at: [None, at["ship"]], city_halls=lambda at: [at["city_hall"], None])
    game = game_from_position(pos)
    # Game.pieces: warriors as a sorted list, single pieces by name (None: in the supply)
    assert game.pieces(0) == {"warriors": [tuple(at["warrior"])], "wagon": tuple(at["wagon"]), "ship": None,
                              "city_hall": tuple(at["city_hall"])}
    assert game.pieces(1) == {"warriors": [], "wagon": None, "ship": tuple(at["ship"]), "city_hall": None}
    assert PlayerView(game, 1).pieces(0) == game.pieces(0)
    assert PlayerView(game, 1).piece_cells() == game.piece_cells()
    # the warrior sits in its second slot: the position keeps the empty first slot as null
    assert int(game.state[S.WARRIOR_AT + 1]) == hex_id(*at["warrior"]) + 1 and game.state[S.WARRIOR_AT] == 0
    out = position_of(game)
    assert out["warriors"] == [[None, at["warrior"]], []]
    assert out["wagons"] == [at["wagon"], None] and out["ships"] == [None, at["ship"]]
    assert out["city_halls"] == [at["city_hall"], None]
    keys = [key for key in out if key in {k.key for k in CAT.SLOT_PIECES}]
    assert keys == ["warriors", "wagons", "ships", "city_halls"]  # table order, as the files were written
    again = game_from_position(out)
    assert np.array_equal(again.state[: S.SCRATCH], game.state[: S.SCRATCH])
    # the city hall covers its centre and 6 neighbours, all counted as player 0's (C-8)
    cells = game.piece_cells()
    centre = tuple(at["city_hall"])
    assert cells[centre] == (0, "city hall")
    assert sum(1 for owner, kind in cells.values() if kind == "city hall cell" and owner == 0) == 6
    assert cells[tuple(at["ship"])] == (1, "ship") and cells[tuple(at["warrior"])] == (0, "warrior")
    assert all(rc in game.own_hexes(0) for rc, (owner, _) in cells.items() if owner == 0)


@pytest.mark.parametrize("key, value, message", [
    ("warriors", lambda at: [[at["warrior"], at["settlement"], at["wagon"]], []], "warriors[0]: at most 2 warriors"),
    ("ships", lambda at: [at["wagon"], None], "ships[0]: hex"),
    ("wagons", lambda at: [at["ship"], None], "is not a buildable terrain or mountain hex"),
    ("city_halls", lambda at: [[0, 5], None], "city_halls[0]: hex [0, 5] is on the board edge; a city hall covers "
                                              "its centre and all 6 neighbours"),
])
def test_bad_pieces_name_the_key(key, value, message):
    pos, _ = _pos(**{key: value})
    with pytest.raises(SetupError, match=re.escape(message)):
        game_from_position(pos)


def test_a_piece_key_needs_its_expansion():
    pos, at = _pos(wagons=lambda at: [at["wagon"], None])
    del pos["expansions"], pos["tasks"]
    with pytest.raises(SetupError, match=re.escape("wagons: needs the 'crossroads' expansion")):
        game_from_position(pos)


def test_observation_planes_follow_the_table():
    pos, at = _pos(warriors=lambda at: [[at["warrior"]], []], wagons=lambda at: [None, at["wagon"]],
                   ships=lambda at: [at["ship"], None], city_halls=lambda at: [None, at["city_hall"]])
    game = game_from_position(pos)
    obs = observation_planes_v1(game.state, 0)
    own, other = obs[CH1["own_pieces"]], obs[CH1["other_pieces"]]
    # layout text: own warriors 1, wagon 2/3, ship 1/3; the other players' pieces likewise in their plane
    assert own[tuple(at["warrior"])] == 1.0 and own[tuple(at["ship"])] == np.float32(1 / 3)
    assert other[tuple(at["wagon"])] == np.float32(2 / 3) and own[tuple(at["wagon"])] == 0
    assert np.count_nonzero(own) == 2 and np.count_nonzero(other) == 1
    # city-hall cells: own 1, the other players' 0.5
    halls = obs[CH1["city_halls"]]
    assert np.count_nonzero(halls) == 7 and set(halls[halls > 0].tolist()) == {0.5}
    # own pieces in the supply: 1 of 2 warriors, wagon yes, ship no, city hall yes
    start = F1["own_pieces_left"]
    features = obs[CH1["features_v1"]].reshape(-1)
    assert features[start : start + 4].tolist() == [0.5, 1.0, 0.0, 1.0]


def test_text_legend_lists_every_crossroads_mark():
    text = legend(2, ["crossroads"])
    for k in CAT.SLOT_PIECES:
        assert f"0{k.mark} {k.label}" in text
    assert "0: city hall (other 6 cells)" in text


def test_docs_print_the_piece_table():
    assert PT.piece_table() in DOCS.read_text()


def test_packed_planes_unpack_to_the_float_planes():
    from kbenv.engine.packed import pack_into
    from kbenv.packed import layout_of, split

    pos, at = _pos(warriors=lambda at: [[at["warrior"]], []], wagons=lambda at: [None, at["wagon"]],
                   ships=lambda at: [at["ship"], None], city_halls=lambda at: [None, at["city_hall"]])
    game = game_from_position(pos)
    layout = layout_of(True)
    for player in (0, 1):
        buffer = layout.empty(1)
        bits, values = split(buffer, layout)
        pack_into(game.state, player, bits[0], values[0], True, 0)
        unpacked = layout.unpack(buffer.view(np.uint8))[0]
        floats = observation_planes_v1(game.state, player)
        assert np.array_equal(unpacked, floats)
        # the mover's own ship (player 0) is 1/3 in its own_pieces plane, and in the other player's other_pieces
        plane = "own_pieces" if player == 0 else "other_pieces"
        assert unpacked[CH1[plane]][tuple(at["ship"])] == np.float32(1 / 3)


def test_write_slot_refuses_a_slot_the_kind_does_not_have():
    st = np.zeros(S.STATE_SIZE, dtype=np.int64)
    wagon = CAT.PIECE_KIND["wagon"]
    with pytest.raises(ValueError, match=re.escape("wagons: slot 1 is not one of 0..0")):
        PT.write_slot(st, wagon, 0, 1, 42)
    assert not st.any()
    PT.write_slot(st, wagon, 3, 0, 42)  # player 3's wagon on hex 42: hex + 1 in the fourth slot
    assert st[S.WAGON_AT + 3] == 43 and PT.slot_hexes(st, wagon, 3) == [42]
