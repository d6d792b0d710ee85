"""Issue 19 items 2 and 6 at the command line: `kbenv position RECORD --at N` writes the whole state, which
`kbenv legal` and `kbenv score` read back exactly; a position without hands deals them from the seed rather
than answering "game over"; an illegal expansion action is explained in the game's own action range."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kbenv import Game, IllegalActionError
from kbenv.catalogue import ACTION_ID, ACTION_SIZE_V1
from kbenv.cli import main
from kbenv.engine.state import DECK_SIZE
from kbenv.positions.files import game_from_position, legal_position, score_position

SECTIONS = [["tavern", False], ["paddock", False], ["oasis", False], ["farm", False]]
NO_HANDS = {"sections": SECTIONS, "cards": ["fishermen", "knights", "merchants"], "settlements": [[], [], []]}


def recorded(tmp_path, decisions: int = 60) -> tuple[Game, str]:
    game = Game.new(num_players=3, seed=4, expansions=["nomads", "crossroads"])
    rng = np.random.default_rng(4)
    for _ in range(decisions):
        game.step(int(rng.choice(game.legal_actions())))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.to_record()))
    return game, str(path)


# ----- kbenv position --------------------------------------------------------------------------------------
def test_position_at_n_is_the_game_after_n_decisions(tmp_path, capsys):
    game, record = recorded(tmp_path)
    out = tmp_path / "at25.json"
    assert main(["position", record, "--at", "25", "--out", str(out)]) == 0
    assert str(out) in capsys.readouterr().out
    position = json.loads(out.read_text())
    at25 = Game.from_record({**game.to_record(), "actions": game.actions[:25]})
    assert position == json.loads(json.dumps(at25.to_position()))
    rebuilt = game_from_position(position)
    np.testing.assert_array_equal(rebuilt.legal_mask(), at25.legal_mask())
    for action in game.actions[25:]:  # the rest of the recorded game is legal in the rebuilt one
        rebuilt.step(action)
    assert rebuilt.scores() == game.scores()


def test_position_without_at_prints_the_final_state_that_legal_and_score_read(tmp_path, capsys):
    game, record = recorded(tmp_path)
    assert main(["position", record]) == 0
    position = json.loads(capsys.readouterr().out)
    path = tmp_path / "now.json"
    path.write_text(json.dumps(position))
    assert main(["legal", str(path), "--json"]) == 0
    legal = json.loads(capsys.readouterr().out)
    assert legal == legal_position(position)
    assert legal["player"] == game.decider and legal["phase"] == game.phase
    assert len(legal["legal"]) == len(game.legal_actions())
    assert main(["score", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == score_position(position) == game.scores(True)


@pytest.mark.parametrize("at", ["61", "-1"])
def test_position_at_out_of_range_is_one_line(tmp_path, capsys, at):
    _, record = recorded(tmp_path)
    assert main(["position", record, "--at", at]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kbenv position: error: --at: expected a number of decisions 0..60")
    assert len(err.strip().splitlines()) == 1


def test_position_of_a_file_that_is_not_a_record(tmp_path, capsys):
    path = tmp_path / "not.json"
    path.write_text(json.dumps({"cards": []}))
    assert main(["position", str(path)]) == 2
    assert capsys.readouterr().err.startswith("kbenv position: error: record:")


# ----- item 6: no hands ------------------------------------------------------------------------------------
def test_a_position_without_hands_deals_them_from_the_seed(tmp_path, capsys):
    path = tmp_path / "nohands.json"
    path.write_text(json.dumps(NO_HANDS))
    assert main(["legal", str(path), "--json"]) == 0
    legal = json.loads(capsys.readouterr().out)
    assert legal["phase"] == "idle" and legal["player"] == 0 and len(legal["legal"]) > 0
    game = game_from_position(NO_HANDS)
    assert all(game.hand(p) is not None for p in range(3))
    assert game.deck_size() == DECK_SIZE - 3  # 25 cards, one in each hand
    same_seed = game_from_position({**NO_HANDS, "seed": 0})
    assert [same_seed.hand(p) for p in range(3)] == [game.hand(p) for p in range(3)]
    hands = {tuple(game_from_position({**NO_HANDS, "seed": s}).deck_cards()) for s in range(5)}
    assert len(hands) > 1  # the seed deals


def test_a_deck_without_hands_is_drawn_from_as_before():
    game = game_from_position({**NO_HANDS, "deck": ["T", "G", "C"]})
    assert game.hand(0) == "T" and game.hand(1) is None and game.deck_cards() == ["G", "C"]


# ----- item 6: explanations in the game's own action range --------------------------------------------------
def test_an_illegal_expansion_action_is_explained_by_name():
    game = Game.new(num_players=2, seed=1, expansions=["nomads"])
    with pytest.raises(IllegalActionError) as err:
        game.step(ACTION_ID["sword"])
    assert "player 0 holds no sword tile" in str(err.value) and "0..408" not in str(err.value)
    with pytest.raises(IllegalActionError) as err:
        game.step(ACTION_ID["done"])
    assert "none is being resolved" in str(err.value)
    with pytest.raises(IllegalActionError) as err:
        game.step(ACTION_ID["quarry"])
    assert "player 0 holds no quarry tile" in str(err.value)
    with pytest.raises(IllegalActionError) as err:
        game.step(ACTION_ID["canoe"])  # Marshlands is implemented but not in play
    assert "the canoe power needs the 'marshlands' expansion, which is not in play" in str(err.value)
    with pytest.raises(IllegalActionError) as err:
        game.step(ACTION_ID["farm action"])  # Harvest is implemented but not in play
    assert "the farmland power needs the 'harvest' expansion, which is not in play" in str(err.value)
    with pytest.raises(IllegalActionError) as err:
        game.step(ACTION_ID["rope_bridge"])  # the Island is implemented but not in play
    assert "the rope_bridge power needs the 'island' expansion, which is not in play" in str(err.value)
    with pytest.raises(IllegalActionError) as err:
        game.step(ACTION_SIZE_V1)
    assert f"actions are 0..{ACTION_SIZE_V1 - 1}" in str(err.value)
