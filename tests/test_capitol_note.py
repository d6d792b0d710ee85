"""Why the capitols column is 0 (kbenv issue 19). The Capitol rule (Big Box 2nd edition, Queenie 1): "If the
game board sections with location harbor or oracle are in play, place the capitol on one of the castles. If both
sections are in play, you may use both capitols." Without either section no capitol is placed, so nobody scores
the column, and the score table says so."""

from __future__ import annotations

import json

from kbenv import Game
from kbenv.cli import main
from kbenv.present.text import score_notes

NO_CAPITOL_SECTIONS = [("tavern", False), ("paddock", False), ("oasis", False), ("farm", False)]
ORACLE_HARBOR = [("oracle", False), ("paddock", False), ("harbor", False), ("farm", False)]
CARDS = ["fishermen", "knights", "merchants"]


def test_without_oracle_or_harbor_no_capitol_is_placed_and_the_note_says_why():
    game = Game.new(2, seed=1, expansions=["capitol"], sections=NO_CAPITOL_SECTIONS)
    assert game.capitols() == set()
    assert all(s["capitols"] == 0 for s in game.scores())
    (note,) = score_notes(game)
    assert note.startswith("capitols: 0 for everyone")
    assert "Oracle or Harbor" in note and "neither section is in play" in note


def test_with_both_sections_both_capitols_stand_and_no_note_is_needed():
    game = Game.new(2, seed=1, expansions=["capitol"], sections=ORACLE_HARBOR)
    assert len(game.capitols()) == 2
    assert score_notes(game) == []


def test_an_expansion_game_without_the_capitol_says_it_is_not_in_play():
    game = Game.new(2, seed=1, expansions=["nomads"])
    assert score_notes(game) == ["capitols: 0 for everyone, the Capitol expansion is not in play"]


def test_base_games_have_no_capitols_column_and_no_note():
    assert score_notes(Game.new(2, seed=1)) == []


def test_kbenv_play_prints_the_note_under_the_table(capsys):
    assert main(["play", "--players", "2", "--seed", "3", "--preset", "first-game", "--expansions", "capitol",
                 "--no-colour"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = next(k for k, line in enumerate(lines) if line.split()[:1] == ["player"] and "capitols" in line)
    note = lines[header + 3]  # the two seats' rows, then the note
    assert note.startswith("capitols: 0 for everyone, no capitol was placed")
    assert lines[header + 4].startswith("winner(s): ")


def test_kbenv_score_prints_the_note_and_keeps_json_as_it_was(tmp_path, capsys):
    position = {"expansions": ["capitol"], "sections": [list(s) for s in NO_CAPITOL_SECTIONS], "cards": CARDS,
                "settlements": [[[0, 0]], [[10, 0]]]}  # flower field and desert; grass and grass with ORACLE_HARBOR
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    assert main(["score", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[-3:] == ["capitols", "gold", "total"]
    assert lines[3].startswith("capitols: 0 for everyone, no capitol was placed")
    assert main(["score", str(path), "--json"]) == 0
    assert list(json.loads(capsys.readouterr().out)) == ["players"]
    position["capitols"] = []
    path.write_text(json.dumps({**position, "sections": [list(s) for s in ORACLE_HARBOR]}))
    assert main(["score", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[3] == "capitols: 0 for everyone, no capitol is on the board " \
                                                      "(the position places none)"
