"""The public Game API: set-up options, errors, records, clone and determinize."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kbenv import END_TURN, Game, IllegalActionError, SetupError, hex_action
from kbenv.board.sections import BASE_SECTIONS, assemble, load_section, turn_section

from .conftest import play_random


def test_first_game_preset_uses_the_rulebook_set_up():
    game = Game.new(4, seed=3, preset="first-game")
    assert set(game.cards) == {"fishermen", "knights", "merchants"}
    assert [name for name, _ in game.setup.sections] == ["tavern", "paddock", "oasis", "farm"]
    assert game.board == tuple(assemble([("tavern", False), ("paddock", False), ("oasis", False), ("farm", False)]))


def test_random_set_up_draws_four_different_base_sections_and_three_cards():
    for seed in range(30):
        game = Game.new(3, seed=seed)
        names = [name for name, _ in game.setup.sections]
        assert len(set(names)) == 4 and set(names) <= set(BASE_SECTIONS)
        assert len(set(game.cards)) == 3
        assert 0 <= game.start_player < 3
        assert game.current_player == game.start_player
        assert all(game.hand(p) is not None for p in range(3))
        assert game.deck_size() == 25 - 3


def test_turned_section_maps_r_c_to_9_minus_r_9_minus_c():
    rows = load_section("tavern")
    turned = turn_section(rows)
    for r in range(10):
        for c in range(10):
            assert turned[9 - r][9 - c] == rows[r][c]


def test_custom_section_file(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("# section: mine\n" + "\n".join(["GGGGGCCCCC"] * 9 + ["GGGGKGGGGG"]) + "\n")
    game = Game.new(2, seed=0, sections=[(str(path), False), ("tavern", False), ("oasis", False), ("farm", True)])
    assert game.board[9][4] == "K"
    bad = tmp_path / "bad.txt"
    bad.write_text("GGG\n")
    with pytest.raises(SetupError, match="rows"):
        Game.new(2, seed=0, sections=[(str(bad), False), ("tavern", False), ("oasis", False), ("farm", True)])


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"num_players": 6}, "num_players"),
        ({"num_players": 2, "cards": ["fishermen", "knights", "dragons"]}, "cards"),
        ({"num_players": 2, "cards": ["fishermen", "knights"]}, "cards"),
        ({"num_players": 2, "sections": [("tavern", False)]}, "sections"),
        ({"num_players": 2, "sections": [("atlantis", False)] * 4}, "sections"),
        ({"num_players": 2, "start_player": 2}, "start_player"),
        ({"num_players": 2, "seed": -1}, "seed"),
        ({"num_players": 2, "preset": "second-game"}, "preset"),
    ],
)
def test_bad_set_up_names_the_field(kwargs, field):
    with pytest.raises(SetupError, match=field):
        Game.new(**kwargs)


def test_illegal_actions_raise_and_change_nothing():
    game = Game.new(2, seed=4)
    before = game.state_key()
    for action in (-1, 409, END_TURN, 400):
        with pytest.raises(IllegalActionError, match=str(action)):
            game.step(action)
    with pytest.raises(IllegalActionError, match="not an integer"):
        game.step("12")
    occupied_terrain_mismatch = next(a for a in range(400) if not game.legal_mask()[a])
    with pytest.raises(IllegalActionError, match=rf"action {occupied_terrain_mismatch} \(hex"):
        game.step(occupied_terrain_mismatch)
    assert game.state_key() == before
    assert game.actions == []


def test_record_round_trips_through_json():
    game = play_random(Game.new(4, seed=12), np.random.default_rng(1))
    text = json.dumps(game.to_record())
    replay = Game.from_record(json.loads(text))
    assert replay.state_key() == game.state_key()
    assert replay.actions == game.actions


def test_custom_position_record_replays():
    board = ["G" * 20] * 20
    game = Game.custom(board=board, num_players=2, settlements=[[(5, 5)], [(9, 9)]], hands=["G", "G"], seed=3)
    play_random(game, np.random.default_rng(0), max_decisions=20)
    replay = Game.from_record(json.loads(json.dumps(game.to_record())))
    assert replay.state_key() == game.state_key()


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda r: r.pop("setup"), "setup"),
        (lambda r: r.update(format="chess"), "format"),
        (lambda r: r.update(version=99), "version"),
        (lambda r: r["setup"].update(num_players=9), "num_players"),
        (lambda r: r["setup"].update(colour="red"), "colour"),
        (lambda r: r["setup"].pop("board"), "board"),
        (lambda r: r["setup"]["board"].__setitem__(3, "XX"), "board"),
        (lambda r: r.update(actions=[END_TURN]), "actions"),
    ],
)
def test_bad_record_names_the_field(mutate, field):
    record = json.loads(json.dumps(Game.new(2, seed=1).to_record()))
    mutate(record)
    with pytest.raises(SetupError, match=field):
        Game.from_record(record)


def test_clone_is_independent():
    game = Game.new(3, seed=8)
    copy = game.clone()
    copy.step(copy.legal_actions()[0])
    assert copy.state_key() != game.state_key()
    assert game.actions == []


def test_determinize_redeals_only_hidden_cards():
    game = Game.new(4, seed=21)
    rng = np.random.default_rng(0)
    play_random(game, rng, max_decisions=30)
    me = (game.current_player + 1) % 4
    hidden = game.hidden_from(me)
    assert me not in hidden and game.current_player not in hidden and len(hidden) == 2
    pool = sorted([game.hand(p) for p in hidden] + game.deck_cards())
    changed = False
    for k in range(20):
        world = game.determinize(me, np.random.default_rng(k))
        assert world.hand(me) == game.hand(me)
        assert world.hand(game.current_player) == game.hand(game.current_player)
        assert world.discard_pile() == game.discard_pile()
        assert world.settlements(0) == game.settlements(0)
        assert sorted([world.hand(p) for p in hidden] + world.deck_cards()) == pool
        changed |= world.deck_cards() != game.deck_cards()
        assert world.legal_actions() == game.legal_actions()
    assert changed
    a = game.determinize(me, np.random.default_rng(5))
    b = game.determinize(me, np.random.default_rng(5))
    assert a.state_key() == b.state_key()
    with pytest.raises(ValueError, match="determinized"):
        a.to_record()


def test_hex_action_numbering():
    assert hex_action(0, 0) == 0
    assert hex_action(3, 7) == 67
    assert hex_action(19, 19) == 399
    with pytest.raises(ValueError):
        hex_action(20, 0)


def test_determinize_depends_only_on_the_players_information():
    game = Game.new(3, seed=4)
    play_random(game, np.random.default_rng(2), max_decisions=25)
    me = game.current_player
    other = game.determinize(me, np.random.default_rng(9))
    a = game.determinize(me, np.random.default_rng(1))
    b = other.determinize(me, np.random.default_rng(1))
    assert a.state_key() == b.state_key()
