"""Every ruleset through every interface (issues 21-23; issue 49: tests by surface, as PettingZoo tests every
environment with one API test): `kbenv play/position/legal/score/tournament/train`, records, the v1 AEC env
(PettingZoo's api_test; agent_selection follows the decider: a Canoe reaction's reactor, the silo player), the
gymnasium self-play env and VecEnv, OpenSpiel (ISMCTS re-deals keep what a player saw: Harvest and the Island add
nothing hidden beyond the cards), a tiny training run; the refusal of an expansion under construction (the fixture
an_expansion_under_construction puts the Island's row back under construction for such a test), the island side's
options. Each test runs over the rulesets of tests/ruleset_games.RULESETS it names; checks that only make sense for
one expansion (Mayors gold, palaces, the silo player, island actions) are that ruleset's cases.

Island games are recognised by what the rules give them (EN 1443: one location hex with 2 tiles among the island
hexes 400..419; QI-1: settlements may be built there), not by numbers copied from a run.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from kbenv import Game, kingdom_builder_v0, kingdom_builder_v1
from kbenv import catalogue as CAT
from kbenv.board.codes import PALACE
from kbenv.board.geometry import ISLAND_FIRST, NUM_HEXES, STEP1
from kbenv.cli import main
from kbenv.engine import observe_v1 as O
from kbenv.engine import state as S
from kbenv.engine.observe_v1 import NUM_CHANNELS_V1
from kbenv.envs.vector_env import SelfPlayVecEnv
from kbenv.envs.wrappers import SelfPlayEnvV1
from kbenv.positions.files import decision_name
from kbenv.setup import SetupError
from tests.property_checks import assert_cli_legal_matches_the_game, assert_self_play_env_and_vecenv
from tests.ruleset_games import BY_ID, HARVEST, ISLAND, MARSH, ids, reaction_game, silo_line

SHAPE = (NUM_CHANNELS_V1, 20, 20)
MAYOR_GOLD = 4  # EN 1377: "each marked line is worth 4 gold"
ISLAND_ACTIONS = range(CAT.ISLAND_ACTION_BASE, CAT.ACTION_SIZE_V1)
EVERY = [BY_ID[name] for name in ("base", "nomads+capitol+caves", "crossroads", "marshlands", "harvest", "island",
                                  "island+harvest", "all7")]
EXPANSIONS = [BY_ID[name] for name in ("marshlands", "harvest", "island", "all7")]
# The base game's VecEnv and OpenSpiel game observe v0 (tests/test_vector.py, tests/test_openspiel.py); the rulesets
# with an expansion observe v1 everywhere.
WITH_EXPANSIONS = [r for r in EVERY if r.expansions]


def has_island(st: np.ndarray) -> bool:
    return st[S.ISLAND_LOC_AT] - 1 >= ISLAND_FIRST and st[S.ISLAND_LOC_TILES] <= 2


def palace_gold(g: Game) -> list[int]:
    """M-6 (EN 1083): the player(s) with the most settlements next to a palace get 5 gold, ties 5 each."""
    st = g.state
    gold = [0] * g.num_players
    own = [{r * 20 + c for r, c in g.settlements(p)} for p in range(g.num_players)]
    for h in range(NUM_HEXES):
        if (st[S.TERRAIN_MASKS + PALACE * 7 + h // 60] >> (h % 60)) & 1:
            near = [sum(int(STEP1[h, d]) in own[p] for d in range(6) if STEP1[h, d] >= 0) for p in range(len(own))]
            if max(near) > 0:
                for p, k in enumerate(near):
                    gold[p] += 5 if k == max(near) else 0
    return gold


# ----- the command line ------------------------------------------------------------------------------------------
def check_mayors(replay: Game, rows: list[dict]) -> None:
    """Harvest: Mayors at 4 gold per marked row (when dealt)."""
    if "mayors" in replay.cards:
        marks = [int(m) for m in replay.state[S.MAYOR_LINES : S.MAYOR_LINES + 20]]
        assert [row["cards"]["mayors"] for row in rows] == [MAYOR_GOLD * marks.count(p + 1) for p in range(3)]


def check_palaces(replay: Game, rows: list[dict]) -> None:
    """Marshlands: a palaces column, M-6's gold."""
    assert [row["palaces"] for row in rows] == palace_gold(replay)


SCORE_CHECKS = {"harvest": check_mayors, "marshlands": check_palaces}
LEGAL_AT = {"marshlands": 25}  # the decision `kbenv legal --json` is asked at (30 unless named)


@pytest.mark.parametrize("ruleset", EXPANSIONS, ids=ids(EXPANSIONS))
def test_play_record_position_legal_and_score(ruleset, tmp_path, capsys):
    """`kbenv play --record`; the record replays bit for bit; `kbenv legal --json` of a position written mid-game;
    `kbenv score --json` of the final position gives the replayed game's totals."""
    expansions = list(ruleset.expansions)
    record = tmp_path / "game.json"
    assert main(["play", "--players", "3", "--expansions", ",".join(expansions), "--seed", "4",
                 "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert expansions[-1] in out and "Traceback" not in out
    data = json.loads(record.read_text())
    assert data["setup"]["expansions"] == expansions
    replay = Game.from_record(data)  # records replay, bit for bit
    assert replay.done and replay.expansions == tuple(expansions)
    again = Game.new(3, seed=data["setup"]["seed"], expansions=expansions, cards=data["setup"]["cards"],
                     **({"island_side": replay.setup.island[0]} if "island" in expansions else {}))
    for a in data["actions"]:
        again.step(a)
    assert np.array_equal(again.state[: S.SCRATCH], replay.state[: S.SCRATCH])
    assert np.array_equal(again.state[S.SCRATCH_END:], replay.state[S.SCRATCH_END:])
    assert_cli_legal_matches_the_game(record, LEGAL_AT.get(ruleset.id, 30), tmp_path, capsys)
    final = tmp_path / "final.json"
    assert main(["position", str(record), "--out", str(final)]) == 0
    capsys.readouterr()
    assert main(["score", str(final), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["players"]
    assert [row["total"] for row in rows] == [row["total"] for row in replay.scores()]
    SCORE_CHECKS.get(ruleset.id, lambda *_: None)(replay, rows)


def test_play_refuses_an_expansion_under_construction_without_the_opt_in(an_expansion_under_construction, capsys):
    with pytest.raises(SystemExit):
        main(["play", "--expansions", "island", "--seed", "1"])
    err = capsys.readouterr().err
    assert "KBENV_EXPERIMENTAL=island" in err and "Traceback" not in err


@pytest.mark.parametrize("ruleset", EXPANSIONS[:3], ids=ids(EXPANSIONS[:3]))
def test_tournament(ruleset, tmp_path, capsys):
    out = tmp_path / "t"
    expansions = list(ruleset.expansions)
    assert main(["tournament", "--agents", "random", "greedy", "--expansions", ",".join(expansions), "--games", "2",
                 "--out", str(out), "--quiet"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["config"]["setup"]["expansions"] == expansions
    assert "Traceback" not in capsys.readouterr().err


# ----- the PettingZoo AEC env ------------------------------------------------------------------------------------
def test_v0_refuses_expansions_as_before():
    # kingdom_builder_v0 is the base game: it has no expansions option, for any expansion
    for names in (HARVEST, MARSH, ISLAND):
        with pytest.raises(TypeError, match="unexpected keyword argument 'expansions'"):
            kingdom_builder_v0.raw_env(num_players=2, expansions=names)


def side_option(ruleset) -> dict:
    """A shipped island side for the Island's rulesets."""
    return {"island_side": "island-substitute-2"} if "island" in ruleset.expansions else {}


@pytest.mark.parametrize("ruleset", EVERY, ids=ids(EVERY))
def test_v1_env_passes_the_pettingzoo_api_test(ruleset):
    from pettingzoo.test import api_test

    api_test(kingdom_builder_v1.env(num_players=3, expansions=list(ruleset.expansions), **side_option(ruleset)),
             num_cycles=300, verbose_progress=False)


def named_harvest_decisions(named: set, game: Game) -> None:
    assert "farmland" in named and "end_turn" in named
    assert "option-1" not in named and "option-2" not in named  # Harvest's options always have their names


def marshlands_words(named: set, game: Game) -> None:
    assert "palaces" in game.scores()[0]
    assert CAT.ACTION_NAMES[CAT.ACTION_ID["canoe"]] == "canoe"
    assert decision_name(CAT.ACTION_ID["done"], "reaction") == "pass"


PLAYED_CHECKS = {"harvest": named_harvest_decisions, "marshlands": marshlands_words}


@pytest.mark.parametrize("ruleset", EVERY, ids=ids(EVERY))
def test_v1_env_plays_a_game(ruleset):
    """A whole 2-player game through the AEC env: agent_selection is the decider, the mask is the game's, the
    observation is v1's (the Island's feature "Island in play" set in its games, where half of the decisions take
    an island action when one is legal: some are, and some are taken)."""
    expansions = list(ruleset.expansions)
    island = "island" in expansions
    e = kingdom_builder_v1.raw_env(num_players=2, expansions=expansions)
    e.reset(seed=2)
    assert e.observation_space("player_0")["observation"].shape == SHAPE
    assert e.action_space("player_0").n == CAT.ACTION_SIZE_V1
    rng = np.random.default_rng(2)
    named, island_legal, island_taken = set(), 0, 0
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        assert obs["observation"].shape == SHAPE
        assert obs["observation"][O.CH_FEATURES_V1].reshape(400)[O.F_ISLAND] == float(island)  # "Island in play"
        assert term or trunc or agent == f"player_{e.game.decider}"
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert list(legal) == e.game.legal_actions()
        named |= {n for a in legal if isinstance(n := decision_name(int(a), e.game.phase), str)}
        on_island = [a for a in legal if a in ISLAND_ACTIONS]
        island_legal += bool(on_island)
        action = int(on_island[0] if on_island and rng.random() < 0.5 else rng.choice(legal))
        island_taken += action in ISLAND_ACTIONS
        e.step(action)
    assert e.game.done and e.game.expansions == tuple(expansions)
    if island:
        assert island_legal > 0 and island_taken > 0 and has_island(e.game.state)
    else:
        assert island_legal == 0
    PLAYED_CHECKS.get(ruleset.id, lambda *_: None)(named, e.game)


def env_at(expansions: list[str], seed: int, line: tuple[int, ...]):
    """A raw v1 env whose game is the seeded 2-player set-up, stepped through `line`."""
    e = kingdom_builder_v1.raw_env(num_players=2, expansions=expansions)
    e.reset(seed=0)
    e.game = Game.new(2, seed=seed, expansions=expansions)  # the same set-up as the found game
    e.agent_selection = e.possible_agents[e.game.decider]
    for a in line:
        e.step(a)
    return e


def test_env_agent_selection_follows_the_silo_player():
    seed, line = silo_line()
    e = env_at(HARVEST, seed, line)
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


def test_env_agent_selection_follows_the_canoe_reactor():
    g, line = reaction_game()
    e = env_at(MARSH, g.setup.seed, line)
    assert e.game.phase == "reaction"
    reactor, owner = g.decider, g.current_player
    assert e.agent_selection == f"player_{reactor}" != f"player_{owner}"
    obs, _, _, _, _ = e.last()
    names = {decision_name(int(a), "reaction") for a in np.flatnonzero(obs["action_mask"])}
    assert names == {"canoe", "pass"}
    e.step(CAT.ACTION_ID["done"])  # pass: the turn owner decides again (the only other seat of 2)
    assert e.agent_selection == f"player_{e.game.decider}"


def test_island_side_options_are_checked():
    side2 = kingdom_builder_v1.raw_env(num_players=2, expansions=["island"], island_side="island-substitute-2")
    side2.reset(seed=1)
    assert side2.game.state[S.ISLAND_LOC_TYPE] == CAT.LOCATION_NAMES.index("tree_house")
    with pytest.raises(SetupError, match="island_side"):
        kingdom_builder_v1.raw_env(num_players=2, expansions=["nomads"], island_side="island-substitute-1")
    with pytest.raises(SetupError, match="island_side"):
        SelfPlayEnvV1(2, expansions=["island"], island_side="no-such-side")


# ----- the gymnasium self-play env and the VecEnv -------------------------------------------------------------
@pytest.mark.parametrize("ruleset", WITH_EXPANSIONS, ids=ids(WITH_EXPANSIONS))
def test_gymnasium_self_play_env_and_vecenv(ruleset):
    assert_self_play_env_and_vecenv(list(ruleset.expansions), SHAPE, vec_steps=200)


def test_self_play_env_plays_island_games():
    env = SelfPlayEnvV1(3, expansions=["island"], island_side="island-substitute-1", learner_seat=0)
    obs, _ = env.reset(seed=5)
    assert obs.shape == SHAPE and has_island(env.game.state)
    assert env.game.state[S.ISLAND_LOC_TYPE] == CAT.LOCATION_NAMES.index("rope_bridge")
    rng = np.random.default_rng(1)
    done = False
    while not done:
        mask = env.action_masks()
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        done = terminated or truncated
    assert env.game.done


def test_vec_env_packed_island_games():
    """SelfPlayVecEnv over the batch engine: packed rows unpack to the float observation of the same games."""
    env = SelfPlayVecEnv(4, [2, 3], opponents=("random", "greedy"), expansions=["island", "crossroads"],
                         packed=True, seed=2)
    obs = env.reset()
    rng = np.random.default_rng(2)
    layout = env.games.packed_layout
    for _ in range(150):
        assert np.array_equal(layout.unpack(obs), env.games.observations(env.games.all_rows, env.learner,
                                                                        packed=False))
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, _, _, _ = env.step(actions)
    assert all(has_island(st) for st in env.games.states)
    assert layout.unpack(obs)[:, O.CH_ISLAND_HEXES].any()


# ----- OpenSpiel ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", WITH_EXPANSIONS, ids=ids(WITH_EXPANSIONS))
def test_openspiel_random_simulation(ruleset):
    pyspiel = pytest.importorskip("pyspiel")
    from kbenv.envs.openspiel import load_game

    game = load_game(2, list(ruleset.expansions))
    assert game.observation_tensor_shape() == list(SHAPE) and game.num_distinct_actions() == CAT.ACTION_SIZE_V1
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_harvest_hides_nothing_but_the_cards():
    pyspiel = pytest.importorskip("pyspiel")
    from kbenv.envs.openspiel import load_game

    game = load_game(2, HARVEST)
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


def test_openspiel_marshlands_swamp_cards_in_the_information_state():
    pyspiel = pytest.importorskip("pyspiel")
    from kbenv.envs.openspiel import load_game

    game = load_game(2, MARSH)
    # swamp cards in the information state; a re-deal for ISMCTS keeps what the player saw
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    texts = set()
    while len(texts) < 60 and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
            continue
        texts.add(state.information_state_string(0))
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert any("S/" in text for text in texts)  # a swamp card was seen by player 0 (5 of 30 cards)
    again = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert again.information_state_string(0) == state.information_state_string(0)


def test_openspiel_island_games_and_ismcts_redeals():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms.ismcts import ISMCTSBot
    from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator

    import kbenv.openspiel as kos

    game = kos.load_game(2, "island")
    assert game.observation_tensor_shape() == [50, 20, 20] and game.num_distinct_actions() == 478
    state = game.new_initial_state()
    for outcome in kos.seed_actions(9):
        state.apply_action(outcome)
    st = state.kbenv_game.state
    island = st[S.ISLAND_LOC_AT : S.ISLAND_LOC_TILES + 1].copy()
    assert has_island(st)
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    for player in range(2):
        other = state.resample_from_infostate(player, sampler)
        ost = other.kbenv_game.state
        assert np.array_equal(ost[S.ISLAND_LOC_AT : S.ISLAND_LOC_TILES + 1], island)
        assert np.array_equal(ost[S.TERRAIN_MASKS : S.TERRAIN_MASKS + 20 * S.WORDS],
                              st[S.TERRAIN_MASKS : S.TERRAIN_MASKS + 20 * S.WORDS])
        assert other.observation_tensor(player) == state.observation_tensor(player)
    bot = ISMCTSBot(game, RandomRolloutEvaluator(1, np.random.RandomState(0)), 1.4, 20,
                    random_state=np.random.RandomState(0))
    bot.set_resampler(kos.seeded_resampler(0))
    for _ in range(4):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


# ----- training -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", EXPANSIONS[:2], ids=ids(EXPANSIONS[:2]))
def test_train_one_iteration(ruleset, tmp_path, capsys):
    import yaml

    expansions = list(ruleset.expansions)
    config = dict(method="alphazero", name=ruleset.id, games=2, simulations=2, considered=2, channels=8, blocks=1,
                  head_channels=2, iterations=1, steps_per_iteration=20, train_batches=1, batch_size=8,
                  buffer_positions=500, min_buffer=1, eval_every=0, eval_games=2, eval_opponents=["random"],
                  checkpoint_every=1, device="cpu", threads=1, seed=3, out_dir=str(tmp_path), expansions=expansions)
    path = tmp_path / f"{ruleset.id}.yaml"
    path.write_text(yaml.safe_dump(config))
    assert main(["train", "--config", str(path), "--quiet"]) == 0
    from agents.alphazero.network import load_network

    net, info = load_network(tmp_path / ruleset.id / "model.pt")
    assert net.config["input_channels"] == NUM_CHANNELS_V1 and net.action_size == CAT.ACTION_SIZE_V1
    card = json.loads((tmp_path / ruleset.id / "model_card.json").read_text())
    assert card["ruleset"]["expansions"] == expansions and card["evaluation"][0]["games"] == 2


def test_train_config_takes_harvest_and_refuses_an_expansion_under_construction_without_the_opt_in(
        an_expansion_under_construction):
    from agents.training.az_config import AlphaZeroConfig

    assert list(AlphaZeroConfig.from_dict({"expansions": HARVEST}).expansions) == HARVEST
    with pytest.raises(ValueError, match="field 'expansions': 'island' is not implemented yet.*KBENV_EXPERIMENTAL"):
        AlphaZeroConfig.from_dict({"expansions": ["island"]})


def test_alphazero_config_takes_the_island(tmp_path, monkeypatch):
    from agents.training.az_config import AlphaZeroConfig

    config = AlphaZeroConfig.from_dict({"expansions": ["island"], "island_side": "island-substitute-2"})
    assert config.setup() == {"expansions": ["island"], "island_side": "island-substitute-2"}
    with pytest.raises(ValueError, match="island_side"):
        AlphaZeroConfig.from_dict({"expansions": ["harvest"], "island_side": "island-substitute-2"})
    with pytest.raises(ValueError, match="island_side"):
        AlphaZeroConfig.from_dict({"expansions": ["island"], "island_side": "island-substitute-3"})
    with pytest.raises(ValueError, match="island_side"):
        AlphaZeroConfig.from_dict({"expansions": [], "island_side": "island-substitute-1"})


def test_a_tiny_alphazero_run_with_the_island(tmp_path):
    """Self-play, training and evaluation on island games: the network has a logit for every island action."""
    import torch

    from agents.training.alphazero import Run
    from agents.training.az_config import AlphaZeroConfig

    config = AlphaZeroConfig.from_dict(dict(
        name="island", expansions=["island"], games=2, simulations=2, considered=2, channels=4, blocks=1,
        head_channels=1, iterations=1, steps_per_iteration=30, train_batches=1, batch_size=8, buffer_positions=500,
        min_buffer=1, eval_every=0, eval_games=2, eval_opponents=["random"], checkpoint_every=1, device="cpu",
        threads=1, seed=1, out_dir=str(tmp_path)))
    trainer = Run(config, log=lambda *_: None)
    assert trainer.net.config["input_channels"] == 50 and trainer.net.action_size == 478
    card = trainer.run(progress=False)
    assert card["self_play_positions"] == 2 * 30
    assert all(has_island(g.state) for g in trainer.selfplay.games)
    obs = torch.zeros((1, 50, 20, 20))
    logits, _ = trainer.net(obs)
    assert logits.shape == (1, 478)
    assert (tmp_path / "island" / "model.pt").exists()
