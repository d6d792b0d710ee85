"""Harvest through every interface (issue 22), as tests/test_marshlands_interfaces.py does for Marshlands:
`kbenv play/position/legal/score/tournament/train`, records, the v1 AEC env (PettingZoo's api_test; agent_selection
follows the silo player, the DECIDER of the silo end phase), the gymnasium self-play env, the VecEnv and OpenSpiel
(no hidden information beyond the cards); and the refusal of an expansion under construction (the fixture
an_expansion_under_construction puts the Island's row back under construction for such a test)."""

from __future__ import annotations

import json
from functools import lru_cache

import numpy as np
import pytest

from kbenv import Game, kingdom_builder_v0, kingdom_builder_v1
from kbenv import catalogue as CAT
from kbenv.cli import main
from kbenv.engine import state as S
from kbenv.engine.observe_v1 import NUM_CHANNELS_V1
from kbenv.position import decision_name
from tests.property_checks import assert_cli_legal_matches_the_game, assert_self_play_env_and_vecenv

HARVEST = ["harvest"]
SHAPE = (NUM_CHANNELS_V1, 20, 20)
MAYOR_GOLD = 4  # EN 1377: "each marked line is worth 4 gold"


@lru_cache(maxsize=1)
def _silo_line() -> tuple[int, tuple[int, ...]]:
    """(seed, decisions) of the first seeded random 2-player Harvest game whose silo end phase (H-5) passes from one
    silo player to the other, up to its first silo decision."""
    for seed in range(60):
        g = Game.new(2, seed=seed, expansions=HARVEST)
        rng = np.random.default_rng(seed)
        start, deciders = None, set()
        while not g.done:
            if g.phase == "silo":
                start = len(g.actions) if start is None else start
                deciders.add(g.decider)
            legal = g.legal_actions()
            g.step(legal[rng.integers(len(legal))])
        if len(deciders) == 2:
            return seed, tuple(g.actions[:start])
    raise AssertionError("no silo phase of both players in 60 random games")


def test_play_record_position_legal_and_score(tmp_path, capsys):
    record = tmp_path / "game.json"
    assert main(["play", "--players", "3", "--expansions", "harvest", "--seed", "4", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "harvest" in out and "Traceback" not in out
    data = json.loads(record.read_text())
    assert data["setup"]["expansions"] == HARVEST
    replay = Game.from_record(data)  # records replay, bit for bit
    assert replay.done and replay.expansions == ("harvest",)
    again = Game.new(3, seed=data["setup"]["seed"], expansions=HARVEST, cards=data["setup"]["cards"])
    for a in data["actions"]:
        again.step(a)
    assert np.array_equal(again.state[: S.SCRATCH], replay.state[: S.SCRATCH])
    assert np.array_equal(again.state[S.SCRATCH_END:], replay.state[S.SCRATCH_END:])
    assert_cli_legal_matches_the_game(record, 30, tmp_path, capsys)  # legal --json mid-game
    # score --json of the final position: the totals of the replayed game, Mayors at 4 gold per marked row
    final = tmp_path / "final.json"
    assert main(["position", str(record), "--out", str(final)]) == 0
    capsys.readouterr()
    assert main(["score", str(final), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["players"]
    assert [row["total"] for row in rows] == [row["total"] for row in replay.scores()]
    if "mayors" in replay.cards:
        marks = [int(m) for m in replay.state[S.MAYOR_LINES : S.MAYOR_LINES + 20]]
        assert [row["cards"]["mayors"] for row in rows] == [MAYOR_GOLD * marks.count(p + 1) for p in range(3)]


def test_play_refuses_an_expansion_under_construction_without_the_opt_in(an_expansion_under_construction, capsys):
    with pytest.raises(SystemExit):
        main(["play", "--expansions", "island", "--seed", "1"])
    err = capsys.readouterr().err
    assert "KBENV_EXPERIMENTAL=island" in err and "Traceback" not in err


def test_tournament_with_harvest(tmp_path, capsys):
    out = tmp_path / "t"
    assert main(["tournament", "--agents", "random", "greedy", "--expansions", "harvest", "--games", "2",
                 "--out", str(out), "--quiet"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["config"]["setup"]["expansions"] == HARVEST
    assert "Traceback" not in capsys.readouterr().err


def test_v0_refuses_expansions_as_before():
    # kingdom_builder_v0 is the base game: it has no expansions option, for Harvest as for any other
    for names in (HARVEST, ["marshlands"]):
        with pytest.raises(TypeError, match="unexpected keyword argument 'expansions'"):
            kingdom_builder_v0.raw_env(num_players=2, expansions=names)


def test_v1_env_passes_the_pettingzoo_api_test():
    from pettingzoo.test import api_test

    api_test(kingdom_builder_v1.env(num_players=3, expansions=HARVEST), num_cycles=300, verbose_progress=False)


def test_v1_env_plays_a_game_and_names_harvest_decisions():
    e = kingdom_builder_v1.raw_env(num_players=2, expansions=HARVEST)
    e.reset(seed=2)
    assert e.observation_space("player_0")["observation"].shape == SHAPE
    assert e.action_space("player_0").n == CAT.ACTION_SIZE_V1
    rng = np.random.default_rng(2)
    named = set()
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        assert term or trunc or agent == f"player_{e.game.decider}"
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert list(legal) == e.game.legal_actions()
        named |= {n for a in legal if isinstance(n := decision_name(int(a), e.game.phase), str)}
        e.step(int(rng.choice(legal)))
    assert e.game.done and e.game.expansions == ("harvest",)
    assert "farmland" in named and "end_turn" in named
    assert "option-1" not in named and "option-2" not in named  # Harvest's options always have their names


def test_env_agent_selection_follows_the_silo_player():
    seed, line = _silo_line()
    e = kingdom_builder_v1.raw_env(num_players=2, expansions=HARVEST)
    e.reset(seed=0)
    e.game = Game.new(2, seed=seed, expansions=HARVEST)  # the same set-up as the found game
    e.agent_selection = e.possible_agents[e.game.decider]
    for a in line:
        e.step(a)
    assert e.game.phase == "silo"
    seen = set()
    rng = np.random.default_rng(seed)
    while e.game.phase == "silo":
        assert e.agent_selection == f"player_{e.game.decider}"
        seen.add(e.game.decider)
        obs, _, _, _, _ = e.last()
        legal = np.flatnonzero(obs["action_mask"])
        assert {decision_name(int(a), "silo") for a in legal if a >= CAT.END_TURN} <= {"build", "move", "done"}
        e.step(int(rng.choice(legal)))
    assert len(seen) == 2  # the silo phase went from one silo player to the other (H-5, A-H2)


def test_gymnasium_self_play_env_and_vecenv():
    assert_self_play_env_and_vecenv(HARVEST, SHAPE, vec_steps=200)


def test_openspiel_harvest_hides_nothing_but_the_cards():
    pyspiel = pytest.importorskip("pyspiel")
    from kbenv.envs.openspiel import load_game

    game = load_game(2, HARVEST)
    assert game.observation_tensor_shape() == list(SHAPE) and game.num_distinct_actions() == CAT.ACTION_SIZE_V1
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while state.is_chance_node():  # the deal: two chance nodes of 16 seed bits each
        state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
    for _ in range(120):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    real = state._core.game
    harvest = slice(S.SCRATCH_END, S.STATE_SIZE)  # every Harvest field (farm action, cards, silo, powers)
    # Harvest adds nothing hidden: a re-deal for ISMCTS keeps each player's information and every Harvest field
    for player in range(2):
        for seed in range(3):
            again = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0))
            assert again.information_state_string(player) == state.information_state_string(player)
            assert np.array_equal(again._core.game.state[harvest], real.state[harvest])


def test_train_one_iteration_on_harvest(tmp_path, capsys):
    import yaml

    config = dict(method="alphazero", name="harvest", games=2, simulations=2, considered=2, channels=8, blocks=1,
                  head_channels=2, iterations=1, steps_per_iteration=20, train_batches=1, batch_size=8,
                  buffer_positions=500, min_buffer=1, eval_every=0, eval_games=2, eval_opponents=["random"],
                  checkpoint_every=1, device="cpu", threads=1, seed=3, out_dir=str(tmp_path), expansions=HARVEST)
    path = tmp_path / "harvest.yaml"
    path.write_text(yaml.safe_dump(config))
    assert main(["train", "--config", str(path), "--quiet"]) == 0
    from agents.alphazero.network import load_network

    net, info = load_network(tmp_path / "harvest" / "model.pt")
    assert net.config["input_channels"] == NUM_CHANNELS_V1 and net.action_size == CAT.ACTION_SIZE_V1
    card = json.loads((tmp_path / "harvest" / "model_card.json").read_text())
    assert card["ruleset"]["expansions"] == HARVEST and card["evaluation"][0]["games"] == 2


def test_train_config_takes_harvest_and_refuses_an_expansion_under_construction_without_the_opt_in(
        an_expansion_under_construction):
    from agents.training.az_config import AlphaZeroConfig

    assert list(AlphaZeroConfig.from_dict({"expansions": HARVEST}).expansions) == HARVEST
    with pytest.raises(ValueError, match="field 'expansions': 'island' is not implemented yet.*KBENV_EXPERIMENTAL"):
        AlphaZeroConfig.from_dict({"expansions": ["island"]})
