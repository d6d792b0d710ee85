"""The Island's geometry, action ids, substitute sides and set-up plumbing (issue 23, part 1).

Expected values come from the geometry decision (docs/design-notes.md "Island geometry": island line r, column c is
hex id 400 + 4r + c and action 458 + 4r + c; odd-r with the island's own rows, row 0 even, IA4) and from the rule
text (EN 1443: 2 tiles on the location hex; EN 1445: the island is not connected to the board), worked out by hand.
The rule-text tests are in tests/rules/island/test_island_*.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kbenv import catalogue as CAT
from kbenv.board.bitset import COAST_MASK, EDGE_MASK, ISLAND_ROW_MASK, NEIGHBOUR_MASK, SECTOR_MASK, hexes_of
from kbenv.board.geometry import STEP1, STEP2, hex_id, hex_rc
from kbenv.board.island_files import IslandFileError, parse_island_file, side_file_text

ROOT = Path(__file__).resolve().parents[1]


def test_island_hex_ids_and_extended_coordinates():
    # island (r, c) -> 400 + 4r + c, written inside kbenv as the extended (20 + r, c)
    assert hex_id(20, 0) == 400 and hex_id(21, 1) == 405 and hex_id(24, 3) == 419
    assert hex_rc(405) == (21, 1) and hex_rc(399) == (19, 19)


def test_island_neighbours_are_island_hexes_only():
    # odd-r on the island's own rows: (0, 0) touches (0, 1) and (1, 0); (1, 1) (odd line) touches (1, 0) (1, 2)
    # (0, 1) (0, 2) (2, 1) (2, 2); board (19, 0) stays without island neighbours (EN 1445 "not connected")
    assert hexes_of(NEIGHBOUR_MASK[400]) == [401, 404]
    assert hexes_of(NEIGHBOUR_MASK[405]) == sorted([404, 406, 401, 402, 409, 410])
    assert all(h < 400 for h in hexes_of(NEIGHBOUR_MASK[380]))
    for h in range(400, 420):
        assert all(400 <= n < 420 for n in STEP1[h] if n >= 0)
        assert all(400 <= n < 420 for n in STEP2[h] if n >= 0)
    # two steps east of (0, 0) is (0, 2): 402; nothing two steps west
    assert STEP2[400, 0] == 402 and STEP2[400, 1] == -1


def test_island_masks():
    # 5 lines of 4; coast = fewer than 6 island neighbours: rows 1..3, columns 1..2 are inner (6 hexes) -> 14 coast
    assert [hexes_of(ISLAND_ROW_MASK[r]) for r in range(5)] == [list(range(400 + 4 * r, 404 + 4 * r))
                                                                for r in range(5)]
    assert hexes_of(COAST_MASK) == sorted(set(range(400, 420)) - {405, 406, 409, 410, 413, 414})
    assert all(h < 400 for h in hexes_of(EDGE_MASK))  # A-QI3
    assert all(h < 400 for q in range(4) for h in hexes_of(SECTOR_MASK[q]))  # A-QI4


def test_island_actions_follow_the_v1_layout():
    # 20 ids after the last v1 id of before (done = 457): "island r,c" = 458 + 4r + c
    assert CAT.DONE == 457 and CAT.ISLAND_ACTION_BASE == 458 and CAT.ACTION_SIZE_V1 == 478
    assert CAT.ACTION_NAMES[458 + 4 * 2 + 1] == "island 2,1"
    assert CAT.ACTION_SIZE_V0 == 409


def test_catalogue_rows():
    island = next(e for e in CAT.EXPANSIONS if e.name == "island")
    assert island.implemented and not island.under_construction  # issue 23 complete: no KBENV_EXPERIMENTAL
    island_flags = [f.name for f in CAT.RULE_FLAGS if f.expansion == "island"]
    assert island_flags == ["no_island_knights", "island_coast_not_water"]
    assert CAT.POWER_TRAIT["rope_bridge"].terrain == "canyon" and CAT.POWER_TRAIT["tree_house"].terrain == "forest"
    assert CAT.POWER_TRAIT["rope_bridge"].rule == "move to terrain" and CAT.POWER_TRAIT["tree_house"].source


def test_the_island_needs_no_opt_in(monkeypatch):
    from kbenv import Game

    monkeypatch.delenv(CAT.EXPERIMENTAL_ENV, raising=False)
    assert Game.new(2, seed=0, expansions=["island"]).expansions == ("island",)


def test_an_expansion_under_construction_needs_the_opt_in(an_expansion_under_construction):
    from kbenv import Game, SetupError

    with pytest.raises(SetupError, match="KBENV_EXPERIMENTAL=island"):
        Game.new(2, seed=0, expansions=[an_expansion_under_construction])


def test_substitute_files_are_what_the_procedure_gives():
    for k in (1, 2):
        path = ROOT / "kbenv" / "data" / "islands" / f"island-substitute-{k}.txt"
        assert path.read_text(encoding="utf-8") == side_file_text(k)
    out = subprocess.run([sys.executable, "scripts/make_island_substitutes.py", "--check"], cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


def test_island_files_errors_name_line_and_field():
    good = "# location: 1,1 rope_bridge\nGGGG\nGLGG\nCCCC\nTTTT\nMMWW\n"
    assert parse_island_file(good)[1][1] == "\u00f1"
    with pytest.raises(IslandFileError, match="line 4: board: line 2, column 1: unknown code 'Z'"):
        parse_island_file(good.replace("CCCC", "CZCC"), "x")
    with pytest.raises(IslandFileError, match="grid: expected 5 lines of 4 codes, found 4"):
        parse_island_file(good.replace("MMWW\n", ""), "x")
    with pytest.raises(IslandFileError, match="'oasis' is no island location type"):
        parse_island_file(good.replace("rope_bridge", "oasis"), "x")


def test_base_games_keep_the_island_bits_zero():
    from kbenv import Game

    g = Game.new(2, seed=3)
    st = g.state
    assert int(st[g.state.size - 1]) == 0
    from kbenv.engine import state as S

    assert st[S.ISLAND_LOC_AT] == 0 and st[S.ISLAND_LOC_TILES] == 0
    assert int(st[S.OCCUPIED + 6]) >> 40 == 0 and int(st[S.BUILDABLE_MASK + 6]) >> 40 == 0


def test_island_game_state_and_record_round_trip():
    from kbenv import Game
    from kbenv.engine import state as S

    g = Game.new(3, seed=4, expansions=["island"], island_side="island-substitute-1")
    # the side's location hex holds 2 tiles (EN 1443) and is special (Workers, Merchants)
    loc = int(g.state[S.ISLAND_LOC_AT]) - 1
    assert 400 <= loc < 420 and g.state[S.ISLAND_LOC_TILES] == 2
    assert (int(g.state[S.SPECIAL_MASK + 6]) >> (loc - 360)) & 1 == 1
    rng = np.random.default_rng(4)
    for _ in range(40):
        g.step(int(rng.choice(g.legal_actions())))
    again = Game.from_record(json.loads(json.dumps(g.to_record())))
    assert np.array_equal(again.state, g.state)
    assert again.to_position() == g.to_position()


def test_island_builds_reach_the_island_and_take_its_tile():
    # a first build with no own settlement may go to any free hex of the card's terrain (QI-1): playing only island
    # hexes where possible, a player ends with settlements there, and one next to the location hex holds its tile
    from kbenv import Game

    g = Game.new(2, seed=7, expansions=["island"], island_side="island-substitute-2")
    island_moves = 0
    while not g.done and g.turn < 30:
        legal = g.legal_actions()
        mine = [a for a in legal if a >= CAT.ISLAND_ACTION_BASE]
        if mine:
            island_moves += 1
        g.step(mine[0] if mine else legal[0])
    assert island_moves > 0
    settled = [h for p in range(2) for h in g.settlements(p) if h[0] >= 20]
    assert settled, "no settlement on the island"


def test_the_batch_engine_deals_the_island():
    # part 2: the batch engine's set-up kernels deal the island as Game.new does (tests/test_island_vector.py)
    from kbenv import Game
    from kbenv.vector import VectorGames

    batch = VectorGames(2, num_players=2, expansions=["island"])
    batch.reset(3)
    assert np.array_equal(batch.states[1], Game.new(2, seed=4, expansions=["island"]).state)


def test_a_real_side_loads_from_a_file(tmp_path):
    # decision 5: a user who owns the game loads the printed side from a file in the section format
    from kbenv import Game, SetupError

    path = tmp_path / "my-island.txt"
    path.write_text("# location: 2,2 tree_house\nGGGG\nCCCC\nDDLD\nFFFF\nTTTT\n")
    g = Game.new(2, seed=1, expansions=["island"], island_side=str(path))
    assert g.to_position()["island"] == {"board": ["GGGG", "CCCC", "DDLD", "FFFF", "TTTT"], "side": "my-island",
                                         "locations": {"2,2": "tree_house"}}
    path.write_text("GGGG\nCCCC\nDDLD\nFFFF\nTTTT\n")
    with pytest.raises(SetupError, match=r"^island_side: .*my-island.txt, line 3: board: L at 2,2 is a location hex "
                                         r"without its type"):
        Game.new(2, seed=1, expansions=["island"], island_side=str(path))


@pytest.mark.parametrize("expansions", [["island"], ["nomads", "capitol", "caves", "crossroads", "marshlands",
                                                     "harvest", "island"]])
def test_position_round_trip_with_the_island(expansions):
    # issue 23 "the position round trip with the island alone and with all expansions": a random game written as a
    # position and read back continues the same way (same legal decisions at every step), island hexes included
    from kbenv import Game
    from kbenv.positions.files import game_from_position

    for seed in (1, 2):
        g = Game.new(2, seed=seed, expansions=expansions)
        rng = np.random.default_rng(seed)
        for step in range(120):
            if g.done:
                break
            if step % 10 == 0:
                again = game_from_position(json.loads(json.dumps(g.to_position())))
                assert again.legal_actions() == g.legal_actions()
                assert again.to_position() == g.to_position()
            legal = g.legal_actions()
            island = [a for a in legal if a >= CAT.ISLAND_ACTION_BASE]
            g.step(int(rng.choice(island if island and step % 2 else legal)))
