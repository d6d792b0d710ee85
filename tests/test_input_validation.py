"""Position files, set-ups, seeds and records: bad input gets a SetupError naming the field, never a crash
(issue 11, items 5 and 7), and a hypothesis suite feeds malformed files."""

from __future__ import annotations

import copy
import hashlib
import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kbenv import Game
from kbenv.positions.files import parse_position, score_position
from kbenv.setup import MAX_SEED, SetupError, standard_setup

MOUNTAINS = ["M" * 20] * 20


def board_with(cells: dict) -> list[str]:
    grid = [list(row) for row in MOUNTAINS]
    for (r, c), code in cells.items():
        grid[r][c] = code
    return ["".join(row) for row in grid]


BOARD = board_with({(5, 5): "G", (5, 6): "W", (5, 7): "K", (5, 8): "t", (5, 9): "N", (6, 6): "C"})
GOOD = {"board": BOARD, "cards": ["fishermen", "knights", "merchants"], "settlements": [[[5, 5]], [[5, 6]]]}


def test_the_reference_position_is_valid():
    scores = score_position(GOOD)
    assert scores[1]["cards"]["fishermen"] == 0  # standing on water does not count (documented reading)
    assert len(scores) == 2


@pytest.mark.parametrize("rc, what", [((5, 7), "castle"), ((5, 8), "tavern location"), ((5, 9), "nomad space"),
                                      ((0, 0), "mountain")])
def test_settlements_where_none_can_stand_are_refused(rc, what):
    position = copy.deepcopy(GOOD)
    position["settlements"][0].append(list(rc))
    with pytest.raises(SetupError, match=rf"settlements\[0\]: hex \[{rc[0]}, {rc[1]}\] is .*{what}"):
        score_position(position)


def test_water_stays_allowed():
    position = copy.deepcopy(GOOD)
    assert score_position(position)  # (5, 6) is water: a Harbor can move a settlement there


MALFORMED = [
    ({"settlements": [5, []]}, r"settlements\[0\]"),
    ({"settlements": [[[True, 5]], []]}, r"settlements\[0\]"),
    ({"settlements": [[[5.0, 5]], []]}, r"settlements\[0\]"),
    ({"settlements": [[[5, 5, 1]], []]}, r"settlements\[0\]"),
    ({"settlements": [[[25, 5]], []]}, r"settlements\[0\].*off the"),
    ({"settlements": [[[5, 5]], [[5, 5]]]}, r"settlements\[1\].*already"),
    ({"settlements": [[]]}, "settlements"),
    ({"settlements": "none"}, "settlements"),
    ({"options": {"lords_count_zero": "no"}}, "lords_count_zero"),
    ({"options": {"lords_count_zero": 1}}, "lords_count_zero"),
    ({"options": {"lords": True}}, "options"),
    ({"options": []}, "options"),
    ({"cards": ["fishermen", "knights"]}, "cards"),
    ({"cards": ["fishermen", "knights", 5]}, "cards"),
    ({"cards": ["fishermen", "fishermen", "knights"]}, "cards"),
    ({"cards": "fishermen"}, "cards"),
    ({"board": BOARD[:19]}, "board"),
    ({"board": [*BOARD[:19], "M" * 19 + "?"]}, r"board\[19\]"),
    ({"board": [*BOARD[:19], 5]}, r"board\[19\]"),
    ({"setlements": []}, "position: unknown"),
]


@pytest.mark.parametrize("change, field", MALFORMED)
def test_malformed_positions_name_the_field(change, field):
    position = {**copy.deepcopy(GOOD), **change}
    with pytest.raises(SetupError, match=field):
        score_position(position)


SECTION_CASES = [
    ([["tavern", "yes"], ["paddock", False], ["oasis", False], ["farm", False]], r"sections\[0\].turned"),
    ([["tavern", 1], ["paddock", False], ["oasis", False], ["farm", False]], r"sections\[0\].turned"),
    ([[5, False], ["paddock", False], ["oasis", False], ["farm", False]], r"sections\[0\]"),
    ([["tavern", False], ["paddock", False], ["oasis", False]], "sections"),
    ([["tavern", False], ["paddock", False], ["oasis", False], ["nowhere", False]], "sections.*nowhere"),
    ("tavern", "sections"),
]


@pytest.mark.parametrize("sections, field", SECTION_CASES)
def test_bad_sections_name_the_entry(sections, field):
    position = {"sections": sections, "cards": GOOD["cards"], "settlements": [[], []]}
    with pytest.raises(SetupError, match=field):
        score_position(position)


def test_sections_and_board_together_are_refused():
    position = {**GOOD, "sections": [["tavern", False]] * 4}
    with pytest.raises(SetupError, match="either board or sections"):
        parse_position(position)


def test_more_than_40_settlements_in_all_are_refused():
    """Item 7: settlements on the board plus the supply may not exceed a player's 40."""
    board = ["G" * 20] * 20
    own = [(r, c) for r in range(2) for c in range(20)][:40]
    with pytest.raises(SetupError, match=r"supply\[0\].*0\.\.0"):
        Game.custom(board=board, settlements=[own, []], supply=[40, 40])
    with pytest.raises(SetupError, match=r"supply\[1\].*0\.\.39"):
        Game.custom(board=board, settlements=[own[:1], [(10, 10)]], supply=[39, 40])
    with pytest.raises(SetupError, match=r"settlements\[0\]: more than 40"):
        Game.custom(board=board, settlements=[[(r, c) for r in range(3) for c in range(20)], []])
    assert Game.custom(board=board, settlements=[own, []], supply=[0, 40]).supply(0) == 0


def test_tile_counts_are_checked():
    board = board_with({(5, 5): "G", (5, 8): "t", (5, 7): "G", (6, 8): "G"})
    with pytest.raises(SetupError, match="tiles"):
        Game.custom(board=board, settlements=[[(5, 7)], [(6, 8)]], tiles=[[(5, 8)], [(5, 8)]],
                    tiles_left={(5, 8): 2})
    with pytest.raises(SetupError, match=r"tiles\[0\]: .*at most one"):
        Game.custom(board=board, settlements=[[(5, 7)], []], tiles=[[(5, 8), (5, 8)], []])


def test_more_cards_of_a_terrain_than_the_game_has_are_refused():
    with pytest.raises(SetupError, match="deck: more than 5 G"):
        Game.custom(board=BOARD, settlements=[[], []], hands=["G", "G"], deck=["G"] * 4)


def test_a_board_of_castles_scores_without_overflow():
    """Item 7: more than 64 castle hexes used to overflow fixed buffers in compiled scoring."""
    board = ["K" * 20] * 19 + ["G" * 20]
    position = {"board": board, "cards": ["merchants", "workers", "knights"],
                "settlements": [[[19, c] for c in range(0, 20, 2)], [[19, 1]]]}
    scores = score_position(position)
    assert scores[0]["castles"] == 3 * 20  # (19, c) touches castles (18, c) and (18, c + 1): all 20 of row 18
    assert scores[1]["castles"] == 3 * 2
    assert scores[0]["cards"]["knights"] == 20


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 99999999999999999999, True, 1.5, "3"])
def test_seeds_outside_the_supported_range_are_refused(seed):
    with pytest.raises(SetupError, match=f"seed: expected an integer from 0 to {MAX_SEED}"):
        Game.new(2, seed=seed)
    with pytest.raises(SetupError, match="seed"):
        standard_setup(2, seed)


def test_the_largest_seed_works_and_aliasing_is_as_documented():
    assert Game.new(2, seed=MAX_SEED).num_players == 2
    # docs/api.md: the set-up generator has 32 bits, so seeds that agree modulo 2**32 give the same game.
    assert Game.new(3, seed=5).state_key() == Game.new(3, seed=5 + 2**32).state_key()
    assert Game.new(3, seed=5).state_key() != Game.new(3, seed=6).state_key()


# ----- hypothesis: malformed position files and records -------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
FIELDS = ["board", "sections", "cards", "settlements", "options"]
# A key may also be reported as another one that it broke: a new board can leave a settlement on a mountain,
# and sections next to a board are refused as "board: give either board or sections".
ALSO_NAMED = {"board": {"settlements"}, "sections": {"board"}, "extra": {"position"}}


def field_of(err: Exception) -> str:
    """The field an error names: the text before the first ':', without [index] and .subfield parts."""
    return str(err).split(":")[0].split("[")[0].split(".")[0]


def mutated_position(draw_key: str, value) -> dict:
    position = copy.deepcopy(GOOD)
    position[draw_key] = value
    return position


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from([*FIELDS, "extra"]), value=json_values)
def test_any_malformed_position_gives_a_named_error(key, value):
    """A whole key replaced by any JSON value: a result, or a SetupError naming that key."""
    position = mutated_position(key, value)
    try:
        scores = score_position(position)
    except SetupError as err:
        assert field_of(err) in {key, *ALSO_NAMED.get(key, ())}, err
    else:
        assert key != "extra"  # an unknown key is never ignored
        assert len(scores) == len(position["settlements"])


NESTED_BASE = {**GOOD, "options": {"lords_count_zero": False}}


def value_paths(node, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value inside a JSON document: keys of objects, indices of lists."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    out = []
    for key, child in items:
        out.append((*prefix, key))
        out.extend(value_paths(child, (*prefix, key)))
    return out


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(value_paths(NESTED_BASE)), value=json_values)
def test_any_nested_change_gives_a_result_or_a_named_error(path, value):
    """Any value anywhere inside the position replaced: a result, or a SetupError naming the top-level key changed,
    and for a player's settlements that player (or the other one, when the change put both on one hex)."""
    position = copy.deepcopy(NESTED_BASE)
    node = position
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    top = path[0]
    try:
        scores = score_position(position)
    except SetupError as err:
        assert field_of(err) in {top, *ALSO_NAMED.get(top, ())}, (path, err)
        if top == "settlements" and len(path) >= 3 and "already holds" not in str(err):
            assert str(err).startswith(f"settlements[{path[1]}]:"), (path, err)
        if path == ("options", "lords_count_zero"):
            assert str(err).startswith("options.lords_count_zero:"), err
        if top == "board" and len(path) == 2 and field_of(err) == "board":
            assert str(err).startswith(f"board[{path[1]}]:"), (path, err)
    else:
        assert len(scores) == len(position["settlements"])


RECORDS = Path(__file__).parent / "data" / "replay_records.json"  # written by scripts/make_replay_records.py


def stored_records() -> dict:
    data = json.loads(RECORDS.read_text())
    assert data["format"] == "kbenv-replay-records" and data["version"] == 1
    return data["games"]


RECORD = stored_records()["base_2p_seed3_partial"]["record"]  # 10 random decisions of a 2-player game
SETUP_FIELDS = list(RECORD["setup"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(part=st.sampled_from(["format", "version", "actions", "setup", *[f"setup.{k}" for k in SETUP_FIELDS],
                             "setup.extra", "actions[]"]), value=json_values)
def test_any_malformed_record_gives_a_named_error(part, value):
    """A field of a stored record replaced: a game, or a SetupError naming that field; a set-up that is valid but
    another game's may instead make a stored action illegal, named as actions[k]."""
    record = copy.deepcopy(RECORD)
    if part.startswith("setup."):
        record["setup"][part[6:]] = value
    elif part == "actions[]":
        record["actions"][3] = value
    else:
        record[part] = value
    expected = {"setup.extra": {"setup"}, "actions[]": {"actions"}}.get(part, {part.removeprefix("setup.")})
    try:
        game = Game.from_record(record)
    except SetupError as err:
        allowed = expected | ({"actions"} if part.startswith("setup.") else set())
        assert field_of(err) in allowed, err
        if part == "actions[]" and field_of(err) == "actions":
            assert str(err).startswith("actions[3]:"), err
    else:
        assert part != "setup.extra"  # an unknown set-up field is never ignored
        assert game.num_players == record["setup"]["num_players"]
        assert game.actions == record["actions"]


@pytest.mark.parametrize("action", [-1, 2**63, -(2**63) - 1, 10**30])
def test_action_numbers_outside_int64_are_refused_by_name(action):
    from kbenv import IllegalActionError

    game = Game.new(num_players=2, seed=3)
    before = game.state.copy()
    with pytest.raises(IllegalActionError, match=f"action {action} is illegal: actions are 0"):
        game.step(action)
    assert np.array_equal(game.state, before) and game.actions == []


@pytest.mark.parametrize("name", ["base_2p_seed3_partial", "base_4p_seed11", "all_expansions_3p_seed5"])
def test_a_stored_record_still_replays(name):
    """Records written once (tests/data/replay_records.json) replay to the stored final state and scores.
    The digest covers the state layout the records were stored with; the fields appended since (Marshlands,
    from S.APPENDED_FIELDS) are zero in these games."""
    from kbenv.engine import state as S

    entry = stored_records()[name]
    game = Game.from_record(copy.deepcopy(entry["record"]))
    assert hashlib.sha256(game.state[: S.APPENDED_FIELDS].tobytes()).hexdigest() == entry["state_sha256"]
    assert not game.state[S.APPENDED_FIELDS : S.SCRATCH].any()
    assert game.done == entry["done"]
    assert json.loads(json.dumps(game.scores())) == entry["scores"]
    assert json.loads(json.dumps(game.to_record())) == entry["record"]


# ----- the AEC env before reset and after the end ----------------------------------------------------------
def test_raw_env_before_reset_names_the_missing_reset():
    from kbenv import raw_env
    from kbenv.kingdom_builder_v0 import EnvStateError

    e = raw_env()
    for method, call in (("step", lambda: e.step(0)), ("observe", lambda: e.observe("player_0")),
                         ("state", e.state), ("last", e.last)):
        with pytest.raises(EnvStateError, match=f"{method}: call reset"):
            call()


def test_raw_env_after_the_end_refuses_further_steps():
    from kbenv import raw_env
    from kbenv.kingdom_builder_v0 import EnvStateError

    e = raw_env(num_players=3)
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.agents == []
    with pytest.raises(EnvStateError, match="game is over"):
        e.step(0)
    e.reset(seed=5)
    assert len(e.agents) == 3


@pytest.mark.parametrize("seed", [-1, 1.5, "a", True])
def test_raw_env_refuses_bad_seeds(seed):
    from kbenv import raw_env

    with pytest.raises(SetupError, match="seed"):
        raw_env().reset(seed=seed)


def test_raw_env_observe_unknown_agent():
    from kbenv import raw_env

    e = raw_env()
    e.reset(seed=0)
    with pytest.raises(ValueError, match="unknown agent 'player_7'"):
        e.observe("player_7")


# ----- Gymnasium wrappers ----------------------------------------------------------------------------------
def test_selfplay_env_refuses_steps_before_reset_and_after_the_end():
    from kbenv.kingdom_builder_v0 import EnvStateError
    from kbenv.wrappers import SelfPlayEnv

    e = SelfPlayEnv(num_players=2)
    with pytest.raises(EnvStateError, match="reset"):
        e.step(0)
    obs, _ = e.reset(seed=1)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        _, _, done, _, _ = e.step(int(rng.choice(np.flatnonzero(e.action_masks()))))
    with pytest.raises(EnvStateError, match="has ended"):
        e.step(0)


@pytest.mark.parametrize("kwargs, field", [({"num_envs": 0}, "num_envs"), ({"num_envs": 2, "num_players": [2, 6]},
                                            "num_players"), ({"num_envs": 2, "seed": -3}, "seed"),
                                           ({"num_envs": 2, "learner_seat": 2}, "learner_seat"),
                                           ({"num_envs": 2, "opponents": ["oracle"]}, "opponents")])
def test_selfplay_vecenv_names_bad_options(kwargs, field):
    from kbenv.vector_env import SelfPlayVecEnv

    with pytest.raises(SetupError, match=field):
        SelfPlayVecEnv(**kwargs)


def test_selfplay_vecenv_refuses_bad_actions():
    from kbenv import IllegalActionError
    from kbenv.vector_env import SelfPlayVecEnv

    venv = SelfPlayVecEnv(2)
    venv.reset()
    with pytest.raises(IllegalActionError, match="actions"):
        venv.step_async(np.array([0.5, 1.0]))
    with pytest.raises(IllegalActionError, match="actions"):
        venv.step_async(np.array([1, 2, 3]))


# ----- position files with expansions: garbage in every new key -------------------------------------------
EXPANSION_POSITION = {
    "expansions": ["nomads", "capitol", "caves"],
    "board": board_with({(5, 5): "G", (5, 6): "G", (5, 7): "K", (6, 6): "N", (8, 8): "M", (5, 9): "L"}),
    "locations": {"5,9": "quarry"},
    "cards": ["fishermen", "families", "merchants"],
    "settlements": [[[5, 5]], []],
    "walls": [[5, 6]], "capitols": [[5, 7]], "caves": [[8, 8]], "nomad_spaces": {"6,6": "sword"},
    "gold": [1, 2], "current_player": 0, "start_player": 0, "hands": ["G", "G"], "deck": ["C"],
    "supply": [39, 40], "tiles": [[], []], "tiles_left": {"5,9": 2}, "nomad_tiles": [["outpost"], []],
    "options": {"capitol_replaces_castle": True}, "then": [],
}
NEW_KEYS = ["expansions", "locations", "walls", "capitols", "caves", "nomad_spaces", "gold", "current_player",
            "start_player", "hands", "deck", "supply", "tiles", "tiles_left", "nomad_tiles", "then", "options"]


def test_the_expansion_reference_position_is_valid():
    from kbenv.positions.files import legal_position

    assert score_position(EXPANSION_POSITION)[0]["gold"] == 1
    assert legal_position(EXPANSION_POSITION)["player"] == 0


# Keys whose garbage may be reported under another key it broke: the expansions enable the other keys and the
# rule options (a Capitol rule without the Capitol expansion is refused as "rules"), and the location types give
# the board's L hexes their meaning (without them "board[r]: unknown board code 'L'").
NEW_KEY_ALSO_NAMED = {"expansions": {*NEW_KEYS, *FIELDS, "rules", "position"}, "locations": {"board"}}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(NEW_KEYS), value=json_values)
def test_any_garbage_in_a_new_position_key_gives_a_named_error(key, value):
    """Every key a position file gained with the expansions: a result or a SetupError naming a field."""
    from kbenv.positions.files import legal_position

    position = {**copy.deepcopy(EXPANSION_POSITION), key: value}
    try:
        legal_position(position)
    except SetupError as err:
        assert field_of(err) in {key, *NEW_KEY_ALSO_NAMED.get(key, ())}, err


# ----- Crossroads position keys ------------------------------------------------------------------------
CROSSROADS_POSITION = {
    "expansions": ["crossroads", "nomads"],
    "board": board_with({(5, 5): "G", (5, 6): "G", (5, 7): "K", (6, 6): "W", (8, 8): "M", (5, 9): "k",
                         **{(r, c): "C" for r in range(10, 13) for c in range(10, 13)}, (11, 13): "C"}),
    "cards": ["fishermen", "families", "merchants"],
    "settlements": [[[5, 5]], []],
    "tasks": ["road", "fortress"], "warriors": [[[5, 6]], []], "wagons": [[8, 8], None], "ships": [None, [6, 6]],
    "city_halls": [None, [11, 11]], "hands": [["G", "C"], "G"], "deck": ["C"], "tiles": [[[5, 9]], []],
    "then": [],
}
CROSSROADS_KEYS = ["tasks", "warriors", "wagons", "ships", "city_halls", "hands"]


def test_the_crossroads_reference_position_is_valid():
    from kbenv.positions.files import game_from_position

    game = game_from_position(copy.deepcopy(CROSSROADS_POSITION))
    assert game.tasks() == ("road", "fortress") and game.hand_cards(0) == ["G", "C"]
    assert game.pieces(0) == {"warriors": [(5, 6)], "wagon": (8, 8), "ship": None, "city_hall": None}
    assert game.pieces(1)["city_hall"] == (11, 11) and len(game.own_hexes(1)) == 7 + 1  # cells and the ship
    assert set(score_position(copy.deepcopy(CROSSROADS_POSITION))[0]["tasks"]) == {"road", "fortress"}


@pytest.mark.parametrize(("change", "field"), [
    ({"tasks": ["roads"]}, "tasks"),
    ({"tasks": ["road", "road"]}, "tasks"),
    ({"warriors": [[[5, 6], [5, 5]], []]}, "warriors[0]"),  # a settlement stands there
    ({"warriors": [[[8, 8]], []]}, "warriors[0]"),  # mountain
    ({"warriors": [[[10, 10], [10, 11], [10, 12]], []]}, "warriors[0]"),  # 3 warriors
    ({"wagons": [[6, 6], None]}, "wagons[0]"),  # water
    ({"ships": [None, [5, 5]]}, "ships[1]"),
    ({"city_halls": [None, [5, 6]]}, "city_halls[1]"),
    ({"city_halls": [None, [0, 0]]}, "city_halls[1]"),  # the board edge
    ({"hands": [["G", "C", "D", "F", "T"], "G"]}, "hands[0]"),
    ({"hands": [["G", "X"], "G"]}, "hands[0]"),
    ({"expansions": ["nomads"]}, "needs the 'crossroads' expansion"),
])
def test_bad_crossroads_keys_name_the_field(change, field):
    from kbenv.positions.files import legal_position

    with pytest.raises(SetupError, match=re.escape(field)):
        legal_position({**copy.deepcopy(CROSSROADS_POSITION), **change})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(CROSSROADS_KEYS), value=json_values)
def test_any_garbage_in_a_crossroads_key_gives_a_named_error(key, value):
    from kbenv.positions.files import legal_position

    position = {**copy.deepcopy(CROSSROADS_POSITION), key: value}
    try:
        legal_position(position)
    except SetupError as err:
        assert field_of(err) == key, err


# ----- hypothesis: near-valid mistakes, one value wrong deep inside a valid file ----------------------------
FULL = {"board": ["G" * 20] * 20, "cards": ["fishermen", "knights", "merchants"],
        "settlements": [[[r, c] for r in range(2) for c in range(20)], [[10, 10]]]}  # player 0: all 40
BASES = {"good": GOOD, "full": FULL, "expansions": EXPANSION_POSITION, "crossroads": CROSSROADS_POSITION}
OUT_OF_RANGE = st.sampled_from([20, 21, -1, -20, 10**6])
WRONG_TYPE = st.sampled_from([5.0, "5", True, None, [5], {"row": 5}])
BAD_LETTER = st.sampled_from(["X", "Q", "W", "M", "GG", "", 1])


def typo(name: str):
    """A card, task or tile name one keystroke away: a letter dropped, doubled or changed."""
    return st.sampled_from([name[:-1], name + "s", name[0] + name[2:], name.replace(name[1], "x", 1)]).filter(
        lambda t: t != name)


@st.composite
def near_valid(draw):
    """(base name, path to one value, the wrong value, the field prefix its error must name)."""
    kind = draw(st.sampled_from(["coordinate", "coordinate type", "card name", "settlement too many", "board code",
                                 "board row length", "option type", "hand letter", "deck letter", "gold",
                                 "supply", "tiles left", "wall", "nomad tile", "current player",
                                 "piece coordinate", "piece type", "crossroads hand", "task name"]))
    p, j = draw(st.integers(0, 1)), draw(st.integers(0, 1))
    if kind == "coordinate":
        return "good", ["settlements", p, 0, j], draw(OUT_OF_RANGE), f"settlements[{p}]"
    if kind == "coordinate type":
        return "good", ["settlements", p, 0, j], draw(WRONG_TYPE), f"settlements[{p}]"
    if kind == "card name":
        i = draw(st.integers(0, 2))
        return "good", ["cards", i], draw(typo(GOOD["cards"][i])), "cards"
    if kind == "settlement too many":  # a 41st settlement on a free hex
        return "full", ["settlements", 0, 40], [draw(st.integers(3, 19)), draw(st.integers(0, 19))], "settlements[0]"
    if kind == "board code":
        r, c = draw(st.integers(0, 19)), draw(st.integers(0, 19))
        row = BOARD[r][:c] + draw(st.sampled_from(["?", "#", "1", " ", "Z"])) + BOARD[r][c + 1:]
        return "good", ["board", r], row, f"board[{r}]"
    if kind == "board row length":
        r = draw(st.integers(0, 19))
        return "good", ["board", r], draw(st.sampled_from([BOARD[r][:-1], BOARD[r] + "M"])), f"board[{r}]"
    if kind == "option type":
        return "good", ["options"], {"lords_count_zero": draw(st.sampled_from([1, 0, "true", None, [True]]))}, \
            "options.lords_count_zero"
    if kind == "hand letter":
        return "expansions", ["hands", p], draw(BAD_LETTER), f"hands[{p}]"
    if kind == "deck letter":
        return "expansions", ["deck", 0], draw(BAD_LETTER), "deck[0]"
    if kind == "gold":
        return "expansions", ["gold", p], draw(st.sampled_from([-1, 1.0, "2", None, True])), f"gold[{p}]"
    if kind == "supply":  # one too many (player 0 has 1 settlement on the board, player 1 none), or a wrong type
        return "expansions", ["supply", p], draw(st.sampled_from([40 + p, 100, 39.0, "39", True])), \
            f"supply[{p}]"
    if kind == "tiles left":
        return "expansions", ["tiles_left", "5,9"], draw(st.sampled_from([3, -1, 2.0, "2", None])), "tiles_left"
    if kind == "wall":
        return "expansions", ["walls", 0, j], draw(st.one_of(OUT_OF_RANGE, WRONG_TYPE)), "walls"
    if kind == "nomad tile":
        return "expansions", ["nomad_tiles", 0, 0], draw(st.one_of(typo("outpost"), st.just(3))), "nomad_tiles[0]"
    if kind == "current player":
        return "expansions", ["current_player"], draw(st.sampled_from([2, -1, 1.0, "0", True])), "current_player"
    piece, seat = draw(st.sampled_from([("warriors", 0), ("wagons", 0), ("ships", 1), ("city_halls", 1)]))
    path = [piece, seat, 0, j] if piece == "warriors" else [piece, seat, j]
    if kind == "piece coordinate":
        return "crossroads", path, draw(OUT_OF_RANGE), f"{piece}[{seat}]"
    if kind == "piece type":
        return "crossroads", path, draw(WRONG_TYPE), f"{piece}[{seat}]"
    if kind == "crossroads hand":
        return "crossroads", ["hands", 0, j], draw(BAD_LETTER), f"hands[0][{j}]"
    i = draw(st.integers(0, 1))
    return "crossroads", ["tasks", i], draw(typo(CROSSROADS_POSITION["tasks"][i])), "tasks"


def set_at(position: dict, path: list, value) -> None:
    node = position
    for key in path[:-1]:
        node = node[key]
    if isinstance(node, list) and path[-1] == len(node):
        node.append(value)
    else:
        node[path[-1]] = value


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=near_valid())
def test_a_near_valid_position_is_refused_naming_the_field(case):
    """One coordinate out of range, a wrong card letter or name, one settlement too many, a number of the wrong
    type deep inside: a SetupError whose field is exactly the one corrupted, and the position is left as it was."""
    from kbenv.positions.files import legal_position

    base, path, value, field = case
    position = copy.deepcopy(BASES[base])
    set_at(position, path, value)
    given_position = copy.deepcopy(position)
    check = score_position if base in ("good", "full") else legal_position
    with pytest.raises(SetupError) as err:
        check(position)
    assert str(err.value).split(":")[0] == field, (path, value, str(err.value))
    assert position == given_position


@pytest.mark.parametrize("base", sorted(BASES))
def test_the_near_valid_bases_are_valid(base):
    """The mutations above start from valid positions: without the mutation there is no error."""
    from kbenv.positions.files import legal_position

    assert legal_position(copy.deepcopy(BASES[base]))["player"] in (0, 1)
