"""Issue 19 item 1: every number of a position file is checked: no bools, no non-integers, no negatives
where meaningless, nothing beyond what the components allow (gold stays far from int64 overflow), each
refused with a SetupError naming the field, and by the CLI with one line and exit code 2. Also: position
validation follows the ruleset (a Donation settlement on a mountain is a Nomads position)."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kbenv import Game
from kbenv.cli import main
from kbenv.positions.files import game_from_position, score_position
from kbenv.setup import SetupError
from kbenv.setup.pieces import MAX_GOLD
from kbenv.setup.resume import RESUME_FIELDS

SECTIONS = [["tavern", False], ["paddock", False], ["oasis", False], ["farm", False]]
BASE = {"sections": SECTIONS, "cards": ["fishermen", "knights", "merchants"], "settlements": [[], [], []]}
NOMADS = {**BASE, "expansions": ["nomads"]}


def with_(position: dict, **fields) -> dict:
    return {**copy.deepcopy(position), **fields}


def refused(position: dict, field: str) -> str:
    with pytest.raises(SetupError) as err:
        game_from_position(position)
    assert str(err.value).startswith(field), str(err.value)
    return str(err.value)


# ----- gold ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", [10**30, 2**63 - 1, 2**62, MAX_GOLD + 1, -1, True, 1.5, "3"])
def test_gold_beyond_the_bound_or_not_an_integer_is_refused(value):
    refused(with_(NOMADS, gold=[value, 0, 0]), "gold[0]")


def test_gold_at_the_bound_scores_exactly():
    scores = score_position(with_(NOMADS, gold=[MAX_GOLD, 0, 7]))
    assert [s["gold"] for s in scores] == [MAX_GOLD, 0, 7]
    assert scores[0]["total"] == MAX_GOLD  # no settlement: nothing else scores


def test_the_cli_refuses_huge_gold_in_one_line(tmp_path, capsys):
    path = tmp_path / "gold.json"
    path.write_text(json.dumps(with_(NOMADS, gold=[10**30, 0, 0])))
    for command in ("score", "legal"):
        assert main([command, str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"kbenv {command}: error: gold[0]: expected an integer 0..{MAX_GOLD}")
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


# ----- nomad tiles against the components (catalogue: 1 donation of each terrain, 2 swords, ...) ------------
@pytest.mark.parametrize("tiles, kind, count", [
    ([["sword", "sword", "sword"], [], []], "sword", 2),
    ([["sword", "sword"], ["sword"], []], "sword", 2),
    ([["donation-G"], ["donation-G"], []], "donation-G", 1),
    ([["resettlement"] * 3, [], []], "resettlement", 2),
])
def test_more_nomad_tiles_than_the_game_has_are_refused(tiles, kind, count):
    message = refused(with_(NOMADS, nomad_tiles=tiles), "nomad_tiles")
    assert f"{kind} tiles" in message and f"the game has {count}" in message


def test_tiles_on_spaces_held_and_gone_count_together():
    game = Game.new(num_players=3, seed=1, expansions=["nomads"])
    lying = [kind for kind in game.nomad_spaces().values() if kind == "sword"]
    if not lying:
        pytest.skip("no sword lies on this board")
    position = with_(NOMADS, sections=[list(s) for s in game.setup.sections],
                     nomad_spaces={"{},{}".format(*rc): k for rc, k in game.nomad_spaces().items()})
    assert game_from_position(with_(position, nomad_tiles=[["sword"] * (2 - len(lying)), [], []]))
    refused(with_(position, nomad_tiles=[["sword"] * (3 - len(lying)), [], []]), "nomad_tiles")
    refused(with_(position, nomad_tiles_gone=[{"kind": "sword"}] * (3 - len(lying))), "nomad_tiles")


def test_two_tiles_from_one_space_are_refused():
    game = Game.new(num_players=3, seed=1, expansions=["nomads"])
    space = "{},{}".format(*sorted(game.nomad_spaces())[0])
    position = with_(NOMADS, sections=[list(s) for s in game.setup.sections], nomad_spaces={})
    held = {"kind": "sword", "claimed_round": 0, "space": space}
    assert game_from_position(with_(position, nomad_tiles=[[held], [], []]))
    message = refused(with_(position, nomad_tiles=[[held], [], []], nomad_tiles_gone=[{"kind": "outpost",
                                                                                      "space": space}]),
                      "nomad_tiles")
    assert "two tiles" in message


# ----- the other numbers -----------------------------------------------------------------------------------
@pytest.mark.parametrize("field, value, name", [
    ("supply", [True, 40, 40], "supply[0]"),
    ("supply", [41, 40, 40], "supply[0]"),
    ("tiles_left", {"3,3": 10**30}, "tiles_left"),
    ("current_player", 10**30, "current_player"),
    ("start_player", -1, "start_player"),
    ("seed", 2**64, "seed"),
    ("rng", 0, "rng"),
    ("rng", 2**32, "rng"),
    ("rng", 1.0, "rng"),
    ("turn", 0, "turn"),
    ("turn", 10**30, "turn"),
    ("turn", 2, "turn"),  # turn 2 is seat 1's (start player 0), not the current player 0's
    ("turns_without_build", 7, "turns_without_build"),  # 2 * 3 players stalls the game
    ("decisions", -1, "decisions"),
    ("ending", 1, "ending"),
    ("discard", ["G"] * 6, "discard"),
    ("removed", ["Q"], "removed[0]"),
    ("decision", {"steps_left": 99}, "decision.steps_left"),
    ("decision", {"mandatory_built": 4}, "decision.mandatory_built"),
    ("decision", {"decider": 3}, "decision.decider"),
    ("decision", {"phase": "choose_target"}, "decision.power"),
    ("decision", {"phase": "idle", "power": "farm"}, "decision.power"),
    ("decision", {"phase": "step", "power": "sword"}, "decision.power"),  # sword needs Nomads
    ("decision", {"fort_card": "G"}, "decision.fort_card"),  # the Fort needs Crossroads
    ("decision", {"mandatory_built": 1, "mandatory_hexes": [[0, 0], [0, 1]]}, "decision.mandatory_hexes"),
    ("tiles_fresh", [[[3, 3]], [], []], "tiles_fresh[0]"),
])
def test_bad_numbers_and_states_are_refused_by_name(field, value, name):
    refused(with_(BASE, **{field: value}), name)


def test_discard_removed_and_deck_share_the_five_cards_of_a_terrain():
    position = with_(BASE, hands=["G", None, None], deck=["G", "G"], discard=["G"], removed=["G"])
    assert game_from_position(position).discard_pile() == ["G"]
    refused(with_(position, removed=["G", "G"]), "deck: more than 5 G")


# ----- validation follows the ruleset ----------------------------------------------------------------------
def mountain_hex(board) -> list[int]:
    return next([r, c] for r, row in enumerate(board) for c, ch in enumerate(row) if ch == "M")


def test_a_settlement_on_a_mountain_is_a_nomads_position_only():
    board = Game.new(num_players=3, seed=0, sections=[tuple(s) for s in SECTIONS]).board
    rc = mountain_hex(board)
    message = refused(with_(BASE, settlements=[[rc], [], []]), "settlements[0]")
    assert "mountain" in message
    game = game_from_position(with_(NOMADS, settlements=[[rc], [], []]))  # a Donation tile builds there (N-7)
    assert game.settlements(0) == {tuple(rc)}


def test_a_played_donation_on_a_mountain_reads_back():
    """A state reached in play with a settlement on a mountain is written and read back."""
    for seed in range(60):
        rng = np.random.default_rng(seed)
        game = Game.new(num_players=2, seed=seed, expansions=["nomads"])
        while not game.done:
            mountains = {rc for p in range(2) for rc in game.settlements(p) if game.board[rc[0]][rc[1]] == "M"}
            if mountains:
                rebuilt = game_from_position(json.loads(json.dumps(game.to_position())))
                assert rebuilt.settlements(0) | rebuilt.settlements(1) >= mountains
                np.testing.assert_array_equal(rebuilt.legal_mask(), game.legal_mask())
                return
            game.step(int(rng.choice(game.legal_actions())))
    pytest.skip("no Donation settlement on a mountain in 60 random games")


# ----- any change to the full-state keys: a game or a named error ---------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=12,
)


def written_position() -> dict:
    game = Game.new(num_players=3, seed=11, expansions=["nomads", "capitol", "caves", "crossroads"])
    rng = np.random.default_rng(11)
    for _ in range(40):
        game.step(int(rng.choice(game.legal_actions())))
    return json.loads(json.dumps(game.to_position()))


WRITTEN = written_position()
KEYS = [*(k for k in RESUME_FIELDS if k in WRITTEN), "gold", "nomad_tiles", "warriors", "hands"]  # no Marshlands keys


@settings(max_examples=150)
@given(key=st.sampled_from(KEYS), inner=st.one_of(st.none(), st.integers(0, 5), st.text(max_size=16)),
       value=json_values)
def test_any_change_to_a_written_position_gives_a_game_or_a_named_error(key, inner, value):
    position = copy.deepcopy(WRITTEN)
    node = position[key]
    if inner is not None and isinstance(node, list) and isinstance(inner, int) and inner < len(node):
        node[inner] = value
    elif inner is not None and isinstance(node, dict) and isinstance(inner, str):
        node[inner or "phase"] = value
    else:
        position[key] = value
    try:
        game = game_from_position(position)
    except SetupError as err:
        head = str(err).split(":")[0].split("[")[0].split(".")[0]
        assert head in (*KEYS, "deck", "position", "tiles", "settlements"), str(err)
    else:
        assert game.num_players == 3
