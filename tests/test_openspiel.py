"""The OpenSpiel game `python_kingdom_builder` (kbenv.openspiel) and the OpenSpiel bot adapter.

Skipped without the optional `open_spiel` package.
"""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms.mcts import MCTSBot, RandomRolloutEvaluator  # noqa: E402
from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation  # noqa: E402

import kbenv.openspiel as kos  # noqa: E402
from agents import GreedyAgent  # noqa: E402
from agents.evaluation.play import agent_inputs, play_game  # noqa: E402
from agents.openspiel_bots import BOTS, OpenSpielAgent, check_bot  # noqa: E402
from kbenv import Game  # noqa: E402
from kbenv.game.view import PlayerView  # noqa: E402
from kbenv.ruleset import Ruleset  # noqa: E402

from .game_checks import Recording, assert_a_finished_game  # noqa: E402

RULESETS = {
    "base": "",
    "nomads": "nomads",
    "crossroads": "crossroads",
    "all": "nomads,capitol,caves,crossroads",
}
PLAYERS = (2, 3, 4, 5)


def load(players: int = 2, expansions: str = "", **rules) -> pyspiel.Game:
    return pyspiel.load_game(kos.GAME_NAME, {"players": players, "expansions": expansions, **rules})


def dealt(game: pyspiel.Game, seed: int) -> pyspiel.State:
    state = game.new_initial_state()
    for outcome in kos.seed_actions(seed):
        state.apply_action(outcome)
    return state


def play_random(state: pyspiel.State, rng: np.random.Generator, decisions: int) -> pyspiel.State:
    for _ in range(decisions):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
    return state


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_load_game(players, ruleset):
    game = load(players, RULESETS[ruleset])
    game_type = game.get_type()
    assert game_type.short_name == "python_kingdom_builder"
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == players
    expansions = bool(RULESETS[ruleset])
    assert game.num_distinct_actions() == (478 if expansions else 409)
    assert game.observation_tensor_shape() == [50 if expansions else 28, 20, 20]
    assert game.max_chance_outcomes() == 1 << 16
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1 / (players - 1), 1.0, 0.0)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 1 << 16


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_openspiel_random_simulation(players, ruleset):
    """OpenSpiel's own checks: clones, legal-action masks, observations, returns and their bounds."""
    pyspiel.random_sim_test(load(players, RULESETS[ruleset]), num_sims=2, serialize=players == 2, verbose=False)


def test_game_string_and_rule_flags():
    game = pyspiel.load_game("python_kingdom_builder(players=3,expansions=nomads+caves,caves_are_plain_mountain=true)")
    assert game.ruleset == kos.Ruleset(("nomads", "caves"), ("caves_are_plain_mountain",))  # kbenv.ruleset's
    assert game.spec == kos.GameSpec(3, game.ruleset) and kos.Ruleset is Ruleset
    assert game.get_parameters()["expansions"] == "nomads+caves"
    assert str(load(2, "crossroads, nomads")) == str(load(2, "nomads+crossroads"))  # normalised, catalogue order
    world = dealt(game, 11).kbenv_game
    assert world.expansions == ("nomads", "caves")
    assert kos.Ruleset.of_game(world) == game.ruleset
    assert load(2, "", lords_count_zero=True).ruleset.rules == ("lords_count_zero",)


@pytest.mark.parametrize("params, message", [
    ({"players": 6}, "players"),
    ({"players": 2, "expansions": "atlantis"}, "atlantis"),
    ({"players": 2, "capitol_replaces_castle": True}, "capitol"),
])
def test_bad_parameters_are_refused(params, message):
    with pytest.raises(Exception, match=message):
        pyspiel.load_game(kos.GAME_NAME, params)


@pytest.mark.parametrize("ruleset", ["base", "all"])
def test_the_deal_is_kbenv_seed(ruleset):
    """The two chance outcomes are the high and low 16 bits of Game.new's seed."""
    game = load(3, RULESETS[ruleset])
    for seed in (0, 7, 123_456_789, 2**32 - 1):
        state = game.new_initial_state()
        high, low = kos.seed_actions(seed)
        state.apply_action(high)
        assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
        state.apply_action(low)
        expected = Game.new(3, seed=seed, expansions=list(game.ruleset.expansions) or None)
        np.testing.assert_array_equal(state.kbenv_game.state, expected.state)
        assert state.current_player() == expected.decider
        assert state.legal_actions() == expected.legal_actions()
    assert kos.seed_actions(2**32 + 5) == kos.seed_actions(5)


def test_win_returns():
    assert kos.win_returns([40, 30]) == [1.0, -1.0]
    assert kos.win_returns([40, 40]) == [0.0, 0.0]
    assert kos.win_returns([10, 40, 20]) == [-0.5, 1.0, -0.5]
    assert kos.win_returns([40, 40, 20]) == [0.25, 0.25, -0.5]
    assert kos.win_returns([5, 5, 5, 5]) == [0.0] * 4
    for gold in ([1, 2, 3, 3, 0], [9, 9, 9, 1, 1]):
        assert abs(sum(kos.win_returns(gold))) < 1e-12


def test_terminal_returns_follow_the_gold():
    game = load(3)
    state = play_random(dealt(game, 5), np.random.default_rng(0), 10_000)
    assert state.is_terminal()
    gold = state.gold()
    assert gold == [int(x) for x in state.kbenv_game.score_table()[:, -1]]
    assert state.returns() == kos.win_returns(gold)
    assert state.current_player() == pyspiel.PlayerId.TERMINAL


def test_mcts_bot_plays_a_two_player_game():
    """OpenSpiel's MCTSBot through the chance deal and a whole game (few simulations, short rollouts)."""
    game = load(2)
    rng = np.random.RandomState(0)
    bots = [MCTSBot(game, 2.0, 6, RandomRolloutEvaluator(1, np.random.RandomState(p), max_length=12),
                    random_state=np.random.RandomState(p)) for p in range(2)]
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            probs = [p for _, p in outcomes]
            state.apply_action(outcomes[rng.choice(len(outcomes), p=probs)][0])
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    assert decisions > 20
    returns = state.returns()
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
    assert returns == kos.win_returns(state.gold())  # the player with more gold wins
    assert state.gold() == [int(x) for x in state.kbenv_game.score_table()[:, -1]]
    assert Game.from_record(state.kbenv_game.to_record()).state_key() == state.kbenv_game.state_key()


def test_rl_environment_plays_on_the_observation_tensor():
    """OpenSpiel's RL environment samples the deal and falls back to the observation tensor."""
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(kos.GAME_NAME, players=2, expansions="nomads")
    assert env.observation_spec()["info_state"] == (50 * 400,)
    time_step = env.reset()
    rng = np.random.default_rng(0)
    steps = 0
    while not time_step.last():
        player = time_step.observations["current_player"]
        legal = time_step.observations["legal_actions"][player]
        assert legal and all(0 <= a < 458 for a in legal)
        assert len(time_step.observations["info_state"][player]) == 50 * 400
        assert time_step.rewards in (None, [0.0, 0.0])  # nothing is paid before the end
        time_step = env.step([legal[rng.integers(len(legal))]])
        steps += 1
    assert steps > 20
    assert sorted(time_step.rewards) in ([-1.0, 1.0], [0.0, 0.0])
    gold = env.get_state.gold()
    assert time_step.rewards == kos.win_returns(gold)


def variants(seed: int, players: int, expansions: str, steps: int):
    """A played game (as an OpenSpiel state) and, per seat, its game re-dealt in what that seat cannot see."""
    game = load(players, expansions)
    state = play_random(dealt(game, seed), np.random.default_rng(seed), steps)
    world = state.kbenv_game
    for player in range(players):
        other = world.determinize(player, np.random.default_rng(seed + 100 + player))
        yield game, player, game.state_from_kbenv(world), game.state_from_kbenv(other)


@pytest.mark.parametrize("ruleset", ["base", "crossroads", "all"])
def test_observations_leak_no_hidden_cards(ruleset):
    """States that differ only in cards hidden from a seat look the same to it, in every form."""
    differing = 0
    for seed, steps in ((1, 0), (2, 17), (3, 60), (4, 140)):
        for game, player, state, other in variants(seed, 3, RULESETS[ruleset], steps):
            differing += not np.array_equal(state.kbenv_game.state, other.kbenv_game.state)
            tensor = np.asarray(state.observation_tensor(player), np.float32)
            assert tensor.size == int(np.prod(game.observation_tensor_shape()))
            np.testing.assert_array_equal(tensor, np.asarray(other.observation_tensor(player), np.float32))
            assert state.observation_string(player) == other.observation_string(player)
            assert state.information_state_string(player) == other.information_state_string(player)
            observer = make_observation(game)
            observer.set_from(state, player)
            planes = observer.dict["observation"].copy()
            assert list(planes.shape) == game.observation_tensor_shape()
            np.testing.assert_array_equal(planes.ravel(), tensor)
            observation, _mask, _view = agent_inputs(state.kbenv_game, player)
            np.testing.assert_array_equal(planes, observation)  # the planes kbenv agents read
            view = PlayerView(state.kbenv_game, player)
            np.testing.assert_array_equal(planes, view.observation_v1() if ruleset != "base" else view.observation())
            observer.set_from(other, player)
            np.testing.assert_array_equal(observer.dict["observation"], planes)
    assert differing >= 6  # the re-deals really changed hidden cards


def test_information_state_is_perfect_recall_and_hides_cards():
    """Each seat's information-state string extends its earlier ones and never shows a hidden card."""
    game = load(3, "crossroads")
    state = dealt(game, 21)
    rng = np.random.default_rng(3)
    before = [state.information_state_string(p) for p in range(3)]
    assert "seed" not in before[0]
    while not state.is_terminal():
        world = state.kbenv_game
        for player in range(3):
            other = world.determinize(player, rng)
            seen = [kos.cards_seen(kos.snapshot(w.state), player) for w in (world, other)]
            assert seen[0] == seen[1]
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
        now = [state.information_state_string(p) for p in range(3)]
        for p in range(3):
            assert now[p].startswith(before[p] + "\n")
        before = now
    assert len({before[p].rsplit("\n", 1)[1] for p in range(3)}) == 1  # at the end every card is shown


def test_chance_nodes_show_nothing():
    game = load(2)
    state = game.new_initial_state()
    assert state.observation_tensor(0) == [0.0] * (28 * 400)
    state.apply_action(1234)
    assert state.information_state_string(0) == game.new_initial_state().information_state_string(0)
    with pytest.raises(ValueError):
        state.player_view(0)
    with pytest.raises(ValueError):
        make_observation(game, pyspiel.IIGObservationType(public_info=True, perfect_recall=False,
                                                          private_info=pyspiel.PrivateInfoType.NONE))
    info = make_observation(game, INFO_STATE_OBS_TYPE)
    assert info.tensor is None


def test_clone_is_independent():
    game = load(2, "nomads")
    state = play_random(dealt(game, 8), np.random.default_rng(1), 10)
    copy = state.clone()
    assert str(copy) == str(state) and copy.history() == state.history()
    copy.apply_action(copy.legal_actions()[0])
    assert str(copy) != str(state)
    assert len(state.kbenv_game.actions) == 10


def test_state_from_kbenv_checks_the_ruleset():
    game = load(2)
    with pytest.raises(ValueError, match="ruleset"):
        game.state_from_kbenv(Game.new(3, seed=1))
    world = Game.new(2, seed=4)
    state = game.state_from_kbenv(world)
    assert state.legal_actions() == world.legal_actions() and state.history() == []
    state.apply_action(state.legal_actions()[0])
    assert world.actions == []  # a copy


# ----- the agent adapter ------------------------------------------------------------------------------
@pytest.mark.parametrize("params", [
    {"bot": "mcts", "sims": 4, "rollouts": 1, "max_rollout": 12},
    {"bot": "mcts", "sims": 3, "dets": 2, "max_rollout": 8},
    {"bot": "random"},
    {"bot": "uniform"},
])
def test_adapter_plays_a_kbenv_game_against_greedy(params):
    results = []
    for _ in range(2):  # twice with the same seeds: the same game
        bot = Recording(OpenSpielAgent(seed=3, **params))
        result = play_game(0, 9, ["openspiel", "greedy"], [bot, GreedyAgent(seed=1)])
        bot.assert_all_legal(at_least=20)  # every decision of the bot was in its legal mask
        assert_a_finished_game(result)
        results.append(result)
    assert results[0].record == results[1].record and results[0].gold == results[1].gold


def test_adapter_plays_an_expansion_game():
    expansions = ["nomads", "crossroads"]
    bots = [Recording(OpenSpielAgent(bot="mcts", sims=3, max_rollout=8, seed=1)),
            Recording(OpenSpielAgent(bot="random", seed=4))]
    result = play_game(1, 12, ["openspiel", "greedy", "openspiel"], [bots[0], GreedyAgent(seed=2), bots[1]],
                       expansions=expansions)
    for bot in bots:
        bot.assert_all_legal(at_least=20)
        assert all(len(mask) == 478 for mask, _ in bot.choices)  # the expansion (v1) action layout
    assert_a_finished_game(result, expansions)


def test_adapter_decides_the_same_when_only_hidden_cards_differ():
    """The bot sees a determinized world only: re-dealing the hidden cards changes nothing it does."""
    checked = 0
    for seed, steps in ((5, 30), (6, 75)):
        game = load(3)
        state = play_random(dealt(game, seed), np.random.default_rng(seed), steps)
        world = state.kbenv_game
        player = world.decider
        other = world.determinize(player, np.random.default_rng(99))
        choices = []
        for w in (world, other):
            agent = OpenSpielAgent(bot="mcts", sims=6, max_rollout=10, seed=11)
            choices.append(agent.act(*agent_inputs(w, player)))
        assert choices[0] == choices[1]
        checked += 1
    assert checked == 2


def test_adapter_arguments():
    assert BOTS == ("mcts", "ismcts", "random", "uniform")
    assert check_bot("mcts") == "mcts"
    with pytest.raises(ValueError, match="one of"):
        check_bot("alphazero")
    with pytest.raises(ValueError, match="sims"):
        OpenSpielAgent(sims=0)
    with pytest.raises(ValueError, match="one of"):
        OpenSpielAgent(bot="minimax")
    agent = OpenSpielAgent(bot_factory=lambda game, player, seed: pyspiel.make_uniform_random_bot(player, seed))
    world = Game.new(2, seed=3)
    action = agent.act(*agent_inputs(world, world.decider))
    assert action in world.legal_actions()
    assert isinstance(PlayerView(world, 0).legal_actions(), list)


def test_openspiel_agent_specs_go_through_the_registry():
    from agents import make_agent
    from agents.registry import parse_spec

    agent = make_agent("openspiel:bot=mcts,sims=4,rollouts=1", seed=1)
    assert agent.spec == "openspiel:bot=mcts,sims=4,rollouts=1"
    for bad, words in (("openspiel:bot=alphago", "bot"), ("openspiel:bot=mcts,sims=0", "sims")):
        with pytest.raises(ValueError, match=words):
            parse_spec(bad)


def test_an_expansion_under_construction_is_refused(an_expansion_under_construction):
    with pytest.raises(Exception, match="island"):
        pyspiel.load_game(kos.GAME_NAME, {"players": 2, "expansions": an_expansion_under_construction})
