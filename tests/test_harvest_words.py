"""Harvest for a person at the terminal (`kbenv play --expansions harvest`, kbenv.present.words, agents.human): the farm
action and every Harvest power in words, option-1 / option-2 by their names in each use (the number tiles' take /
return; the Bazaar's crossroads; the silo's build / move: tests/test_harvest_silo_phase.py), `done`, the Bazaar's
choose_power, and a whole game typed by a person.

The hand-built position (mountains elsewhere): player 0's settlements ``HOME`` = (10, 10) and ``SECOND`` = (11, 9)
on grass hold a tile of each Harvest location type (their hexes in row 2, far away; with both expansions the
Crossroads tile instead of the Palisade's) and 2 in number tiles; its card is grass, with the grass row ``GRASS``
east of HOME, water ``WATER`` = (9, 10) and farmland ``FARMLAND`` = (11, 10) next to HOME, and grass
``UNIVERSITY_GRASS`` = (3, 1) next to the location hex (2, 1).
"""

from __future__ import annotations

import io
import json

import pytest

from agents.human import HumanAgent, legal_list, parse_decision
from kbenv import catalogue as CAT
from kbenv.cli import main
from kbenv.positions.files import game_from_position
from kbenv.present.words import describe_decision, phase_words

HOME = (10, 10)
GRASS = [(10, 11), (10, 12), (10, 13)]
WATER = (9, 10)
FARMLAND = (11, 10)
HARVEST_TYPES = [loc.name for loc in CAT.LOCATION_TYPES if loc.expansion == "harvest"]
LOCATIONS = {(2, 2 * k + 1): name for k, name in enumerate(HARVEST_TYPES)}
CROSS = (4, 1)
UNIVERSITY_GRASS = (3, 1)  # next to the location hex (2, 1): the University's one target
SECOND = (11, 9)  # player 0's second settlement, next to HOME (the Palisade moves one of an area of two)
OPTION_1, OPTION_2 = CAT.ACTION_ID["option-1"], CAT.ACTION_ID["option-2"]


def position(then=(), crossroads=False) -> dict:
    cells = {HOME: "G", WATER: "W", FARMLAND: "A", **{h: "G" for h in GRASS}, (16, 0): "C", (16, 1): "C",
             UNIVERSITY_GRASS: "G", SECOND: "G"}
    # at most 8 location hexes (state.MAX_LOCATIONS): with the Crossroads tile, the Palisade's hex makes room
    locations = {h: name for h, name in LOCATIONS.items() if not crossroads or name != "palisade"}
    locations.update({CROSS: "crossroads"} if crossroads else {})
    cells.update({h: "L" for h in locations})
    board = ["".join(cells.get((r, c), "M") for c in range(20)) for r in range(20)]
    return {"expansions": ["crossroads", "harvest"] if crossroads else ["harvest"],
            "cards": ["fishermen", "knights", "merchants"], "board": board,
            "locations": {f"{r},{c}": kind for (r, c), kind in locations.items()},
            "settlements": [[list(HOME), list(SECOND)], [[16, 0]]], "hands": [["G", "F"] if crossroads else "G", "C"],
            "tiles": [[list(h) for h in locations], []], "number_tiles": [2, 0],
            "then": [list(d) if isinstance(d, tuple) else d for d in then]}


def words_of(g) -> tuple[str, list[int]]:
    """The phase words and the legal list a person reads, as one text."""
    legal = g.legal_actions()
    return phase_words(g) + "\n" + "\n".join(legal_list(g, legal)), legal


def test_every_harvest_power_and_the_farm_action_in_words():
    g = game_from_position(position())
    text, legal = words_of(g)
    for name in HARVEST_TYPES:
        title = name.replace("_", " ").capitalize()
        assert f"use the {title} tile ({name})" in text, name
    assert "take the farm action (build one settlement on farmland next to your own)" in text
    assert parse_decision("farm action", legal, g.phase) == CAT.ACTION_ID["farmland"]


@pytest.mark.parametrize("power,expected", [
    ("water_mill", "Water mill: build at"),
    ("mountain_station", "Mountain station: build at"),
    ("watchtower", "Watchtower: build at"),
    ("university", "University: build at"),
    ("scout_cabin", "Scout cabin: place a scout at"),
    ("palisade", "Palisade: move the settlement from"),
    ("farmland", "Farm action: build at"),
])
def test_each_power_names_its_hexes(power, expected):
    g = game_from_position(position(then=[power]))
    text, legal = words_of(g)
    assert g.phase in ("choose_target", "choose_source") and expected in text, text
    assert all(parse_decision(f"{h // 20},{h % 20}", legal, g.phase) == h for h in legal if h < CAT.NUM_HEXES)


def test_the_number_tiles_take_and_return_by_name():
    g = game_from_position(position(then=["cathedral"]))
    text, legal = words_of(g)
    assert "Cathedral: choose take or return" in text
    assert "[1] take a number tile" in text and "[2] return number tiles to build as many settlements" in text
    assert parse_decision("take", legal, g.phase) == OPTION_1 and parse_decision("return", legal, g.phase) == OPTION_2
    assert "silo" in parse_decision("build", legal, g.phase)  # a silo's word is refused here, with the reason
    # "return": the builds on the turn's terrain (grass next to HOME), then done keeps the rest (A-H5)
    g = game_from_position(position(then=["cathedral", "return", GRASS[0]]))
    text, legal = words_of(g)
    assert "Cathedral: build at" in text and "[" in text and "done" in text
    assert parse_decision("done", legal, g.phase) == CAT.DONE and CAT.DONE in legal
    assert describe_decision(g, CAT.DONE) == "done"


def test_the_bazaar_names_the_power_to_use_once_more():
    g = game_from_position(position(then=["bazaar"]))
    text, legal = words_of(g)
    assert g.phase == "choose_power" and "Bazaar: choose the power to use once more" in text
    assert "use the Water mill power once more (water_mill)" in text
    assert "scout_cabin" not in text and "(bazaar)" not in text  # no scout to relocate, the Bazaar never (A-H3)
    # with the Crossroads tile held, its extra action is the option named crossroads (A-H3, A-C8)
    g = game_from_position(position(then=["bazaar"], crossroads=True))
    text, legal = words_of(g)
    assert ("use the Crossroads power once more (draw one more terrain card at the end of the turn) (crossroads)"
            in text)
    assert parse_decision("crossroads", legal, g.phase) == OPTION_1 and OPTION_1 in legal


def test_a_person_plays_a_whole_harvest_game(monkeypatch, capsys, tmp_path):
    # `kbenv play --agents human random`: the person types the first listed decision each time (a number), and
    # the game ends with a record that replays
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 3000))
    record = tmp_path / "game.json"
    assert main(["play", "--players", "2", "--expansions", "harvest", "--seed", "5", "--agents", "human", "random",
                 "--record", str(record), "--no-colour"]) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out and "not understood" not in out and "is illegal" not in out
    assert "legal decisions:" in out and "your turn" in out
    data = json.loads(record.read_text())
    assert data["setup"]["expansions"] == ["harvest"] and len(data["actions"]) > 40


def test_the_human_agent_reads_harvest_words_for_what_it_types():
    # the typed words of each decision (action_phrase in its phase) bring back that decision
    heard: list[str] = []
    g = game_from_position(position(then=["cathedral"]))
    typed = iter(["build", "return"])
    agent = HumanAgent(read=lambda prompt: next(typed), write=heard.append, colour=False)
    from agents.evaluation.play import agent_inputs

    assert agent.act(*agent_inputs(g, 0)) == OPTION_2
    assert any("not understood" in line and "silo" in line for line in heard)


def test_a_closed_option_is_explained_by_its_name_in_the_phase():
    from kbenv.game.explain import explain_illegal

    idle = game_from_position(position())
    assert "none is open in phase 'idle'" in explain_illegal(idle, OPTION_1)
    bazaar = game_from_position(position(then=["bazaar"]))  # no Crossroads tile: nothing owed to repeat
    assert OPTION_1 not in bazaar.legal_actions()
    assert explain_illegal(bazaar, OPTION_1).startswith("crossroads: you hold no Crossroads tile")
