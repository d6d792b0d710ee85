"""One Ruleset through every layer (kbenv issue 21): `lords_count_zero` is a rule flag like the others, the old
keyword and old files keep working, and the layouts come from one place.

Expected values: the rule flag is bit 0 of the rule word (kbenv.catalogue.RULE_FLAGS); base records are
version 1 and stay byte for byte what tests/data/replay_records.json stores; layout v0 has 400 hex actions,
the 8 base powers and END_TURN (409) and 28 planes with the features in channel 27 (docs/api.md); v1 has 40
planes and 478 actions (kingdom_builder_v1's docstring).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from kbenv import Game, SetupError
from kbenv.engine import state as S
from kbenv.layout import FEATURE_PLANE, NUM_HEX_ACTIONS, V0, V1
from kbenv.positions.files import game_from_position
from kbenv.ruleset import Ruleset
from kbenv.vector import VectorGames

LORDS = Ruleset(rules=["lords_count_zero"])
REPLAY = Path(__file__).parent / "data" / "replay_records.json"


def test_the_old_keyword_is_the_rule_flag():
    old = Game.new(3, seed=8, lords_count_zero=True)
    new = Game.new(3, seed=8, rules=["lords_count_zero"])
    assert old.ruleset == new.ruleset == LORDS
    assert old.state_key() == new.state_key()
    assert int(old.state[S.RULE_FLAGS]) == 1 and old.state[S.LORDS_COUNT_ZERO] == 1
    assert old.to_record() == new.to_record()
    record = json.loads(json.dumps(old.to_record()))
    assert record["version"] == 2 and record["setup"]["rules"] == ["lords_count_zero"]
    assert Game.new(3, seed=8, ruleset=LORDS).state_key() == new.state_key()


def test_a_bad_old_keyword_names_it_and_the_flag_cannot_be_given_twice_wrongly():
    with pytest.raises(SetupError, match="^lords_count_zero: expected true or false"):
        Game.new(2, lords_count_zero="yes")
    with pytest.raises(SetupError, match="^ruleset: give either a ruleset or expansions"):
        Game.new(2, expansions=["caves"], ruleset=Ruleset(["caves"]))


def test_an_old_version_1_record_with_the_separate_key_still_loads():
    game = Game.new(2, seed=4, rules=["lords_count_zero"])
    rng = np.random.default_rng(1)
    while not game.done:
        game.step(int(rng.choice(game.legal_actions())))
    record = json.loads(json.dumps(game.to_record()))
    # written before the flag: version 1, the key true, no "rules"
    old = {**record, "version": 1, "setup": {k: v for k, v in record["setup"].items() if k != "rules"}}
    assert old["setup"]["lords_count_zero"] is True
    loaded = Game.from_record(old)
    assert loaded.ruleset == LORDS and loaded.scores() == game.scores()
    with pytest.raises(SetupError, match="^version: 2 means a set-up with a ruleset"):
        Game.from_record({**old, "version": 2})


def test_base_records_stay_byte_for_byte():
    stored = json.loads(REPLAY.read_text())["games"]["base_2p_seed3_partial"]["record"]
    game = Game.new(2, seed=3)
    for action in stored["actions"]:
        game.step(action)
    assert json.dumps(game.to_record()) == json.dumps(stored)  # same keys, same order, same values
    assert Game.new(2, seed=3).setup.ruleset == Ruleset() and Game.new(2, seed=3).ruleset.is_base


def test_vector_games_take_and_give_the_ruleset():
    old = VectorGames(3, 2, lords_count_zero=True)
    new = VectorGames(3, 2, ruleset=LORDS)
    assert old.ruleset == new.ruleset == LORDS and old.layout is V0  # a rule flag alone keeps layout v0
    old.reset(5)
    new.reset(5)
    assert np.array_equal(old.states, new.states)
    assert old.game(1).state_key() == Game.new(2, seed=6, rules=["lords_count_zero"]).state_key()
    crossroads = VectorGames(2, 3, ruleset=Ruleset(["crossroads"]))
    assert crossroads.layout is V1 and crossroads.action_size == 478 and crossroads.observation_shape == (50, 20, 20)


def test_the_envs_take_and_give_the_ruleset():
    from kbenv import kingdom_builder_v0, kingdom_builder_v1
    from kbenv.envs.wrappers import SelfPlayEnv, SelfPlayEnvV1

    assert kingdom_builder_v0.raw_env(lords_count_zero=True).ruleset == LORDS
    env = kingdom_builder_v1.raw_env(num_players=2, ruleset=Ruleset(["caves", "nomads"]))
    env.reset(seed=3)
    assert env.ruleset == Ruleset(["nomads", "caves"]) and env.game.expansions == ("nomads", "caves")
    assert SelfPlayEnv(lords_count_zero=True).ruleset == LORDS
    both = SelfPlayEnvV1(ruleset=Ruleset(["caves"]), lords_count_zero=True)
    assert both.ruleset == Ruleset(["caves"], ["lords_count_zero"])
    both.reset(seed=2)
    assert both.game.ruleset == both.ruleset


def test_position_options_are_rule_flags():
    game = Game.new(2, seed=9, rules=["lords_count_zero"])
    position = json.loads(json.dumps(game.to_position()))
    assert position["options"] == {"lords_count_zero": True}
    again = game_from_position(position)
    assert again.ruleset == LORDS and int(again.state[S.RULE_FLAGS]) == 1
    assert again.legal_actions() == game.legal_actions() and again.scores() == game.scores()


def test_old_configs_with_the_separate_key():
    from agents.evaluation.play import play_game
    from agents.rulesets import Ruleset as AgentsRuleset

    assert AgentsRuleset is Ruleset  # model cards read the one object
    assert Ruleset.from_dict({"lords_count_zero": True}) == LORDS  # a card or settings file of the old form
    result = play_game(0, 11, ["random", "random"], [_First(), _First()], lords_count_zero=True)  # tournament setup
    played = Game.new(2, seed=11, rules=["lords_count_zero"])
    while not played.done:
        played.step(played.legal_actions()[0])
    assert [s["total"] for s in played.scores()] == list(result.gold)
    assert list(result.record["setup"]["rules"]) == ["lords_count_zero"]


class _First:
    """Takes the lowest legal action (deterministic)."""

    def act(self, observation, action_mask, view):
        return int(np.flatnonzero(action_mask)[0])


def test_the_layouts_come_from_one_place():
    assert (V0.action_size, V0.num_channels, V0.observation_shape) == (400 + 8 + 1, 28, (28, 20, 20))
    assert (V1.action_size, V1.num_channels) == (478, 50)  # 48 before the Island's 2 channels
    assert NUM_HEX_ACTIONS == 400 and FEATURE_PLANE == 27 == V0.channels["features"]
    assert V0.features["round"] == 74 and V0.num_features == 75  # the last v0 feature (docs/api.md)
    assert Ruleset(["nomads"]).layout is V1 and LORDS.layout is V0 and Ruleset().layout is V0
    game = Game.new(2, seed=1, expansions=["caves"])
    assert game.layout is V1 and game.action_size == 478
    base = Game.new(2, seed=1).state
    assert np.array_equal(V1.planes(base, 0)[:28], V0.planes(base, 0))  # v1 starts with the v0 planes
    assert V0.mask(Game.new(2, seed=1).state, 0).shape == (409,)


def test_the_v0_docstring_tables_follow_the_declared_v0_layout():
    from kbenv.engine.observe import CH0, F0, V0_CHANNELS, V0_FEATURES
    from kbenv.envs import kingdom_builder_v0

    doc = kingdom_builder_v0.__doc__

    def label(start: int, size: int) -> str:
        return f"| {start} |" if size == 1 else f"| {start}-{start + size - 1} |"

    for name, size, _ in V0_FEATURES:
        assert label(F0[name], size) in doc, name
    for name, size, _ in V0_CHANNELS:
        if name in ("water", "mountain", "castle"):
            assert "| 5, 6, 7 | water, mountain, castle |" in doc
        elif name == "features":
            assert f"Channel {CH0[name]} packs the scalar facts" in doc
        else:
            assert label(CH0[name], size) in doc, name
