"""The City Hall section is spelt as its location type, city_hall; the former name cityhall still reads
(records and position files name sections). kbenv issue 19."""

from __future__ import annotations

import json

from kbenv import Game
from kbenv.board.sections import load_section
from kbenv.catalogue import SECTIONS
from kbenv.cli import main
from kbenv.positions.files import score_position
from kbenv.vector import forced_options

OLD, NEW = "cityhall", "city_hall"
BOARD = [("barracks", False), (NEW, True), ("lighthouse", False), ("monastery", True)]


def test_kbenv_sections_names_city_hall_and_its_former_name(capsys):
    assert main(["sections", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert OLD not in rows
    assert rows[NEW]["locations"] == ["city_hall", "fort"]  # the section's header: City Hall / Fort
    assert rows[NEW]["aliases"] == [OLD]
    # every section is named after one of its own location types, spelt as that type
    assert all(name in row["locations"] for name, row in rows.items() if not row["substitute"])
    # a substitute is named as one (decision 5) and carries the type of the printed section it stands for
    # (Harvest's substitutes carry the two types of theirs)
    marsh = [row["locations"] for name, row in rows.items() if row["substitute"] and name.startswith("marsh-")]
    assert marsh == [["canoe"], ["fountain"], ["temple"], ["refuge"]]
    assert main(["sections"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith(NEW))
    assert "(also read as cityhall)" in line


def test_the_former_name_reads_the_same_grid():
    assert load_section(OLD) == load_section(NEW)
    assert [s.name for s in SECTIONS].count(NEW) == 1


def test_a_record_written_with_the_former_name_replays():
    game = Game.new(2, seed=9, expansions=["crossroads"], sections=BOARD)
    assert game.setup.sections[1] == (NEW, True)
    record = json.loads(json.dumps(game.to_record()))
    record["setup"]["sections"][1][0] = OLD
    replay = Game.from_record(record)
    assert replay.state_key() == game.state_key()
    assert replay.setup.sections[1] == (NEW, True)


def test_new_games_and_the_batch_engine_take_the_former_name():
    old_board = [(OLD if name == NEW else name, turned) for name, turned in BOARD]
    assert Game.new(3, seed=2, expansions=["crossroads"], sections=old_board).state_key() \
        == Game.new(3, seed=2, expansions=["crossroads"], sections=BOARD).state_key()
    assert (forced_options(sections=old_board) == forced_options(sections=BOARD)).all()


def test_a_position_file_with_the_former_name_scores():
    position = {"expansions": ["crossroads"], "sections": [list(pair) for pair in BOARD],
                "cards": ["fishermen", "knights", "merchants"], "settlements": [[[0, 3]], [[10, 0]]]}
    old = {**position, "sections": [[OLD if name == NEW else name, turned] for name, turned in BOARD]}
    assert score_position(old) == score_position(position)
